"""The list of everything one Site publishes: every page with its template (the Theme's for its kind), its
context and a key that changes whenever anything the page shows changes, and the data files (feeds,
sitemap, robots.txt, search index) with theirs. A Builder renders what changed."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property, partial
from typing import Any

from ..config import SiteConfig
from ..core.errors import SourceWarning
from ..core.fingerprint import fingerprint_of
from ..core.page_reads import front_key, post_front_key
from ..core.model import Paginator, Post, Section, SeriesNav, Site, Taxonomy, Term
from ..core.urls import term_path, url_to_output_path
from ..site.site import pinned_first, section_of, special_layout
from ..templating import PageEngine
from ..themes import Theme
from ..themes.default import DEFAULT_THEME
from .outputs import PageMeta, PlannedData, PlannedPage, alias_owners
from .site_files import SearchMemo, robots, search_files, search_index, sitemap


def render_template(templates: PageEngine, page: PlannedPage) -> bytes:
    """Render one planned page to UTF-8 bytes; template errors become SourceError."""
    return templates.render(page.template, page.context, page=page.url, source=page.source,
                            key=page.key).encode("utf-8")


# What a list entry shows of a post's body (the rest of what it shows is its front matter, file and URL).
_LISTED_BODY = ("summary_html", "truncated", "reading_minutes", "word_count", "has_math")   # has_math: lists load KaTeX


def post_list_key(post: Post) -> str:
    """What a list entry can show of a post: every field of its front matter (a site's own layouts read any
    param of any page: a subtitle, a pinned flag, a lastmod), its file and URL, and the summary and counts of its
    body. Changes when a page listing it could look different."""
    return fingerprint_of(post_front_key(post), *(repr(getattr(post, name)) for name in _LISTED_BODY))


def _link_key(post: Post | None) -> str:
    return f"{post.url}\x01{post.title}" if post is not None else "-"


class _SiteOutputs:
    """The site-wide files of a plan: the ones the theme's templates write (robots.txt, the sitemap), the ones
    blogbuild's writers make (sitemap, robots.txt, the search index)."""

    site: Site
    config: SiteConfig
    theme: Theme
    memo: SearchMemo
    page_meta: Callable[..., PageMeta]
    _page: Callable[..., PlannedPage]

    def _site_pages(self) -> list[PlannedPage]:
        """The site's files the theme's templates write (a Hugo site's robots.txt and sitemap layouts), each
        when the site publishes it; they read the whole site."""
        wanted = {"robots.txt": self._writes_robots(), "sitemap.xml": self.config.sitemap}
        return [self._page("/", template, output_path, {"page": self.page_meta("home", "/", self.config.title)},
                           (output_path,), output_path=output_path)
                for output_path, template in self.theme.site_outputs.items() if wanted.get(output_path)]

    def _writes_robots(self) -> bool:
        """robots.txt is one file at the top of the site, the default language's (languages.language_files puts
        it there), as Hugo writes it: another language's site writes none."""
        config = self.config
        return config.robots_txt and (not config.languages or config.language in ("", config.languages[0].key))

    def _site_files(self) -> list[PlannedData]:
        site, config = self.site, self.config
        every_key = fingerprint_of(*(post.fingerprint for post in site.pages))
        taxonomy_key = fingerprint_of(*(term.url for taxonomy in site.taxonomies for term in taxonomy.terms))
        # The sitemap shows URLs and dates only: a body edit must not rewrite it.
        dates_key = fingerprint_of(*(f"{post.url}\x01{post.lastmod or post.date}" for post in site.pages))
        sitemap_key = fingerprint_of(dates_key, taxonomy_key, *(section.url for section in site.sections))
        own = self.theme.site_outputs
        files = [PlannedData("sitemap.xml", lambda: sitemap(site), sitemap_key)] \
            if config.sitemap and "sitemap.xml" not in own else []
        files += [PlannedData("robots.txt", lambda: robots(config), config.base_url)] \
            if self._writes_robots() and "robots.txt" not in own else []
        if config.search_index != "none":
            files.append(PlannedData("index.json", lambda: search_index(site, self.memo), fingerprint_of(every_key)))
        files += (search_files(site, self.memo) or ()) if config.search_index == "sharded" else ()
        return files


class Planner(_SiteOutputs):
    """Plans every output of one Site; keys let a Builder skip pages whose inputs did not change. The theme
    says which template renders each kind of page."""

    def __init__(self, site: Site, templates: PageEngine, list_keys: Callable[[Post], str],
                 memo: SearchMemo | None = None, theme: Theme = DEFAULT_THEME) -> None:
        self.site = site
        self.theme = theme
        self.config: SiteConfig = site.config
        self.templates = templates
        self.list_key = list_keys
        self._site_key: str | None = None
        self.site_year = site.posts[0].date.year if site.posts and site.posts[0].date is not None else None
        self.warnings: list[SourceWarning] = []   # outputs a page names that no template writes
        self._series_keys: dict[str, str] = {}
        self.touching: set[str] | None = None    # set by plan_affected: list pages without these urls are skipped
        self.memo = memo if memo is not None else SearchMemo()

    def _template(self, kind: str) -> str:
        return self.theme.template_for(kind)

    @property
    def site_key(self) -> str:
        """What a template reading site-wide lists depends on: each post's list key, or front_key (tracks_reads)."""
        if self._site_key is None:
            self._site_key = front_key(self.site) if self.templates.tracks_reads else fingerprint_of(
                *(self.list_key(post) for post in self.site.posts))
        return self._site_key

    def page_meta(self, kind: str, url: str, title: str, **extra: Any) -> PageMeta:
        return PageMeta(kind=kind, url=url, title=title, description=extra.pop("description", "") or
                        self.config.description, canonical=self.config.absolute_url(url),
                        language=self.config.language_code, **extra)

    def _page(self, url: str, template: str, kind: str, context: dict[str, Any], key_parts: Iterable[str],
              source: str = "", output_path: str | None = None) -> PlannedPage:
        closure_key, uses_site = self.templates.closure(template)
        if self.site.translations:   # the language switch and hreflang links show the page's versions
            key_parts = (*key_parts, repr(self.site.translated(url)), repr(self.site.translated("/")))
        key = fingerprint_of(template, closure_key, self.site_key if uses_site else "", str(self.site_year),
                             self.site.stylesheet, url,
                             *key_parts)
        context = {"site": self.site, "site_year": self.site_year, **context}
        return PlannedPage(output_path or url_to_output_path(url), url, template, context, key, source, kind)

    def paginate(self, posts: Sequence[Post], base_url: str, *, whole: bool = False,
                 pages: int | None = None) -> list[Paginator]:
        """Split posts into pages of config.paginate: base_url, base_url/page/2/, ...; whole: one page of all
        (a template that does not paginate, as Hugo publishes a list whose layout never asks for a pager);
        pages: that many pages (the template pages a list of its own choosing)."""
        size = max(1, len(posts)) if whole else max(1, self.config.paginate)
        count = pages if pages is not None else max(1, -(-len(posts) // size))
        urls = tuple(base_url if number == 1 else f"{base_url}page/{number}/" for number in range(1, count + 1))
        return [Paginator(tuple(posts[(number - 1) * size: number * size]), number, count, len(posts), urls,
                          (number - 1) * size) for number in range(1, count + 1)]

    def _list_pages(self, posts: Sequence[Post], base_url: str, template: str, kind: str, title: str,
                    crumbs: tuple[tuple[str, str], ...], extra: dict[str, Any], extra_key: str,
                    feed_url: str | None, page_one_alias: bool = True) -> list[PlannedPage]:
        pages = []
        touching = self.touching
        paginators, paginated = list_paginators(self, posts, base_url, template, kind, extra)
        for paginator in paginators:
            if touching is not None and not any(post.url in touching for post in paginator.items):
                continue   # plan_affected: this page does not show an edited post
            page_title = title if paginator.number == 1 else f"{title} ({paginator.number})"
            meta_info = self.page_meta(kind, paginator.url, page_title, breadcrumbs=crumbs, feed_url=feed_url,
                                   needs_math=any(p.has_math for p in paginator.items) and
                                   any("math" in p.summary_html for p in paginator.items))
            # len(posts): list pages show the count ("8 posts"), which a post leaving another page changes
            keys = [extra_key, str(paginator.number), str(paginator.total_pages), str(len(posts)),
                    *(self.list_key(post) for post in paginator.items)]
            pages.append(self._page(paginator.url, template, kind, {"page": meta_info, "paginator": paginator,
                                                                    **extra}, keys))
        if self.config.pagination_aliases and page_one_alias and paginated:   # Hugo's LIST/page/1/, so links to it keep working
            alias = f"{base_url}page/1/"
            pages.append(self._page(alias, self._template("alias"), "alias", {
                "page": self.page_meta("alias", alias, title), "target": self.config.absolute_url(base_url)}, [base_url]))
        return pages

    def plan(self) -> tuple[list[PlannedPage], list[PlannedData]]:
        """Every page and data file of the site, in a stable order."""
        from ..core import progress
        progress.stage("pages")
        site = self.site
        pages, data = self._home()
        for post in site.pages:
            pages += self._post_pages(post)
        for section in site.sections:
            self._section(section, pages, data)
        for taxonomy in site.taxonomies:
            for term in taxonomy.terms:
                self._term(taxonomy, term, pages, data)
        pages += self._singletons()
        pages += self._site_pages() + index_aliases(self)
        data += self._site_files()
        return _with_layouts(self, _enabled(pages, self.config.hugo_disabled_kinds)), data

    def _layout_page(self, layout: str) -> Post | None:
        """The content page written as the archives or search page (PaperMod's `layout: archives`), if any."""
        return next((post for post in self.site.pages if special_layout(post) == layout), None)

    def _singletons(self) -> list[PlannedPage]:
        """Taxonomy indexes, archives, search and 404: one page each."""
        site = self.site
        pages = [page for taxonomy in site.taxonomies for page in terms_pages(self, taxonomy)]
        if self.theme.feed_template and "rss" in self.config.feeds:   # a taxonomy's feed lists its terms
            for taxonomy in site.taxonomies:
                title = taxonomy.title or taxonomy.name.title()
                pages += self._feed(taxonomy.url, title, taxonomy.url, (), "terms", {"taxonomy": taxonomy})[0]
        if self._template("archives"):   # a theme may have no archives page
            archive_keys = [_link_key(post) + "\x01" + post.date_text for post in site.posts]
            archives = self._layout_page("archives")
            url, title, description, source = _written("/archives/", "Archives", archives)
            pages.append(self._page(url, self._template("archives"), "archives", {
                "page": self.page_meta("archives", url, title, description=description,
                                   breadcrumbs=(("Home", "/"), (title, url))),
                "archives": site.archives, "post_count": len(site.posts), "post": archives},
                [*archive_keys, archives.fingerprint if archives else ""], source=source))
        if self.templates.exists(self._template("search")):
            search = self._layout_page("search")
            url, title, description, source = _written("/search/", "Search", search)
            pages.append(self._page(url, self._template("search"), "search", {
                "page": self.page_meta("search", url, title, description=description,
                                   breadcrumbs=(("Home", "/"), (title, url))), "post": search},
                [search.fingerprint if search else ""], source=source))
        if self._template("404"):
            pages.append(self._page("/404.html", self._template("404"), "404", {
                "page": self.page_meta("404", "/404.html", "Page not found")}, [], output_path="404.html"))
        return pages

    def plan_affected(self, changed: Sequence[Post]) -> tuple[list[PlannedPage], list[PlannedData]]:
        """The outputs that can show the content of the changed posts, when no post's front matter changed.

        Only content-derived fields (body, summary, metrics) differ, so the pages to look at are the posts'
        own pages, every list and feed they appear in, the search index, and the pages whose templates
        read site-wide lists. Everything else shows only titles, dates and terms, which did not change."""
        site = self.site
        per_post = [self._template(kind) for kind in ("post", "alias", "home", "section", "term", "series")]
        if any(self.templates.closure(name)[1] for name in per_post if self.templates.exists(name)):
            return self.plan()   # a template shows site-wide lists on every page: every page may change
        search = search_files(site, self.memo, changed) if self.config.search_index == "sharded" else []
        if search is None:
            return self.plan()
        urls = {post.url for post in changed}
        self.touching = urls
        pages, data = self._home()
        for post in changed:
            pages += self._post_pages(post)
        terms = {(name, term_path(value)) for post in changed for name in self.config.taxonomies
                 for value in post.taxonomy_values(name)}
        for section in site.sections:
            if any(section.holds(post) for post in changed):
                self._section(section, pages, data)
        for taxonomy in site.taxonomies:
            for term in taxonomy.terms:
                if (taxonomy.name, term.slug) in terms:
                    self._term(taxonomy, term, pages, data)
        self.touching = None
        # Taxonomy indexes, archives, search and 404 show titles, dates and counts, which a body edit does
        # not change, unless their templates read site-wide lists.
        pages += [page for page in self._singletons() if self.templates.closure(page.template)[1]]
        # The sitemap (URLs and dates) and robots.txt cannot change with a body: only the search index.
        key = fingerprint_of("search-after-edit", *(post.fingerprint for post in changed))
        if self.config.search_index != "none":
            data.append(PlannedData("index.json", lambda: search_index(site, self.memo, edited=changed), key))
        return _with_layouts(self, pages), data + search

    def _home(self) -> tuple[list[PlannedPage], list[PlannedData]]:
        config = self.config
        # PaperMod's profile mode: the home page is the profile alone, one page, no post list (its feed stays).
        listed = config.theme.home_posts
        pages = self._list_pages(pinned_first(self.site.posts) if listed else (), "/", self._template("home"), "home",
                                 config.title, (), {}, "home", "/" + config.rss_file, page_one_alias=listed)
        for output_path, template in self.theme.home_outputs.items():   # the home page as JSON, ...
            pages.append(self._page("/", template, "home", {"page": self.page_meta("home", "/", config.title)},
                                    ("home", output_path), output_path=output_path))
        feed_pages, data = self._feed("/", config.title, "/", self.site.posts, "home", {})
        return pages + feed_pages, data

    @cached_property
    def _alias_owners(self) -> dict[str, Post]:
        return alias_owners([*self.site.pages, *list_indexes(self.site)])

    def _post_pages(self, post: Post) -> list[PlannedPage]:
        # A layout page is published as the archives or search page itself (_singletons); its aliases stay.
        special = special_layout(post)
        pages = [] if special and self._template(special) else [self._post_page(post)]
        pages += post_outputs(self, post) + config_outputs(self.theme, pages)
        return pages + alias_pages(self, post)

    def _section(self, section: Section, pages: list[PlannedPage], data: list[PlannedData]) -> None:
        crumbs = (("Home", "/"), *section.parents, (section.title, section.url))
        pages += self._list_pages(section.posts, section.url, self._template("section"), "section", section.title,
                                  crumbs, {"section": section},
                                  fingerprint_of(section.title, section.content_html, section.description,
                                                 *(f"{title}\x01{url}" for title, url in section.parents),
                                                 *(f"{title}\x01{url}" for title, url in section.subsections)),
                                  f"{section.url}{self.config.rss_file}")
        feed_pages, feeds = self._feed(section.url, f"{section.title} - {self.config.title}", section.url,
                                       section.posts, "section", {"section": section})
        pages += feed_pages
        data += feeds

    def _term(self, taxonomy: Taxonomy, term: Term, pages: list[PlannedPage], data: list[PlannedData]) -> None:
        pages += self._term_pages(taxonomy, term)
        feed_pages, feeds = self._feed(term.url, f"{term.title or term.name} - {self.config.title}", term.url,
                                       term.posts, "term", {"taxonomy": taxonomy, "term": term})
        pages += feed_pages
        data += feeds

    def _series_key(self, term: Term) -> str:
        """The titles and urls of all of a series' parts, hashed once per series (for a post template that
        lists the whole series: term.posts)."""
        key = self._series_keys.get(term.url)
        if key is None:
            key = fingerprint_of(term.slug, *(_link_key(member) for member in term.posts))
            self._series_keys[term.url] = key
        return key

    def _series_nav_key(self, part: SeriesNav) -> str:
        """What a post page shows of one of its series: the window of nearest parts, or the whole series
        when the post template reads term.posts (a site's own post.html may)."""
        term = part.term
        if self.templates.mentions(self._template("post"), "term.posts"):
            whole = self._series_key(term)
        else:   # the window holds the previous and next parts too
            whole = fingerprint_of(str(part.window_start), *(_link_key(member) for member in part.window))
        return fingerprint_of(term.url, term.name, term.title, str(part.index), str(part.total), whole)

    def _post_page(self, post: Post) -> PlannedPage:
        nav = self.site.nav(post)
        crumbs: list[tuple[str, str]] = [("Home", "/")]
        section = section_of(self.site, post)
        if section is not None:
            crumbs += [*section.parents, (section.title, section.url)]
        crumbs.append((post.title, post.url))
        meta_info = self.page_meta("post", post.url, post.title, description=post.description or post.summary_text[:200], needs_math=post.has_math, needs_mermaid=post.has_mermaid,
            needs_code=post.has_code, breadcrumbs=tuple(crumbs), draft=post.draft)
        keys = [post.fingerprint, _link_key(nav.newer), _link_key(nav.older),
                *(_link_key(related) for related in nav.related),
                *(f"{title}\x01{url}" for title, url in crumbs)]   # the section's title shows in the crumbs
        keys += [self._series_nav_key(part) for part in nav.series]
        return self._page(post.url, self._post_template(post), "post", {"page": meta_info, "post": post, "nav": nav},
                          keys, source=post.source)

    def _post_template(self, post: Post) -> str:
        return self.theme.template_for_post(post.params, self.templates.exists)

    def _terms_page(self, taxonomy: Taxonomy) -> PlannedPage:
        title = taxonomy.title or taxonomy.name.title()
        return self._page(taxonomy.url, self._template("terms"), "terms", {
            "page": self.page_meta("terms", taxonomy.url, title, breadcrumbs=(("Home", "/"), (title, taxonomy.url))),
            "taxonomy": taxonomy}, [title, taxonomy.content_html,
                                    *(fingerprint_of(term.slug, term.name, str(term.count)) for term in taxonomy.terms)])

    def _term_pages(self, taxonomy: Taxonomy, term: Term) -> list[PlannedPage]:
        title = taxonomy.title or taxonomy.name.title()
        term_title = term.title or term.name
        term_crumbs = (("Home", "/"), (title, taxonomy.url), (term_title, term.url))
        feed_url = f"{term.url}{self.config.rss_file}"
        if taxonomy.name == "series" and self.templates.exists(self._template("series")) and \
                self.templates.mentions(self._template("series"), "paginator"):
            # Paginated like a term page, so a series of 2,000 parts is not one page of 2,000 summaries.
            return self._list_pages(term.posts, term.url, self._template("series"), "series", term_title, term_crumbs,
                                    {"taxonomy": taxonomy, "term": term},
                                    fingerprint_of(term.name, term.title, term.content_html), feed_url)
        if taxonomy.name == "series" and self.templates.exists(self._template("series")):   # a site's own, unpaginated
            meta_info = self.page_meta("series", term.url, term_title, breadcrumbs=term_crumbs, feed_url=feed_url)
            return [self._page(term.url, self._template("series"), "series", {
                "page": meta_info, "taxonomy": taxonomy, "term": term},
                [term.name, term.title, term.content_html, *(self.list_key(post) for post in term.posts)])]
        return self._list_pages(term.posts, term.url, self._template("term"), "term", term_title, term_crumbs,
                                {"taxonomy": taxonomy, "term": term},
                                fingerprint_of(term.name, term.title, term.content_html), feed_url)

    def _feed(self, folder: str, title: str, link: str, posts: Sequence[Post], kind: str,
              extra: dict[str, Any]) -> tuple[list[PlannedPage], list[PlannedData]]:
        """The list's feed in every format the site publishes: the theme's feed template renders its RSS feed
        when it has one (a Hugo site's RSS layouts, with the list's context), feeds.py writes the others."""
        from .feeds import FeedSpec, feed_url, make_feed
        if _HUGO_KINDS.get(kind, kind) not in self.config.hugo_rss_kinds:   # a Hugo config's outputs give it none
            return [], []
        feed_template = self.theme.feed_template if "rss" in self.config.feeds else ""
        pages = [self._page(link, feed_template, kind, {"page": self.page_meta(kind, link, title), **extra},
                            ("feed", *(self.list_key(post) for post in posts)),
                            output_path=url_to_output_path(feed_url(folder, "rss", self.config.rss_file)))] if feed_template else []
        spec = FeedSpec(folder, title, link, tuple(posts[:self.config.feed_limit or len(posts)]))
        key = fingerprint_of(folder, title, link, self.config.feed_content,
                             *(self.list_key(post) if self.config.feed_content == "summary" else post.fingerprint
                               for post in spec.posts))
        return pages, [PlannedData(url_to_output_path(feed_url(folder, name, self.config.rss_file)), partial(make_feed, self.config, spec, name),
                                   fingerprint_of(name, key)) for name in self.config.feeds
                       if not (feed_template and name == "rss")]

# Hugo's kind of a planned page's (disableKinds names Hugo's): a post's alias page goes with the post.
_HUGO_KINDS = {"post": "page", "alias": "page", "series": "term", "terms": "taxonomy"}


def list_indexes(site: Site) -> list[Post]:
    """The list pages' own content files: the home page's, each section's, taxonomy's and term's _index.md."""
    found = [site.home, *(section.index for section in site.sections),
             *(taxonomy.index for taxonomy in site.taxonomies),
             *(term.index for taxonomy in site.taxonomies for term in taxonomy.terms)]
    return [index for index in found if index is not None]


def alias_pages(planner: Planner, page: Post) -> list[PlannedPage]:
    """The redirects a page's front matter names in its aliases (a post's, or a list page's _index.md's: a term
    page's old tags, `/tags/a1200/`); one at another page's URL, or another page's alias, is not written."""
    pages = []
    for alias in page.aliases if planner.config.aliases else ():
        if planner._alias_owners.get(url_to_output_path(alias)) is not page:
            continue
        pages.append(planner._page(alias, planner._template("alias"), "alias", {
            "page": planner.page_meta("alias", alias, page.title), "target": planner.config.absolute_url(page.url)},
            [page.url], source=page.source))
    return pages


def index_aliases(planner: Planner) -> list[PlannedPage]:
    """The list pages' own aliases, as Hugo writes any page's."""
    return [alias for index in list_indexes(planner.site) for alias in alias_pages(planner, index)]


def _with_layouts(planner: Planner, pages: list[PlannedPage]) -> list[PlannedPage]:
    """The pages a template of the engine writes: a Hugo site's layouts may fit no page of a kind (an old theme's
    `taxonomy/list.html`, which Hugo 0.146 no longer takes for a term), and Hugo then writes none of them and
    warns once, building the rest; so does blogbuild, a warning for each kind, naming its first page."""
    kept: list[PlannedPage] = []
    left: dict[str, list[PlannedPage]] = {}
    for page in pages:
        if planner.templates.writes(page.template, page.context):
            kept.append(page)
        else:
            left.setdefault(_HUGO_KINDS.get(page.kind, page.kind), []).append(page)
    if not left:
        return kept
    # Nor the aliases that lead to them (a list's page/1/, a page's own aliases).
    gone = {planner.config.absolute_url(page.url) for unwritten in left.values() for page in unwritten}
    kept = [page for page in kept if page.kind != "alias" or page.context.get("target") not in gone]
    for kind, unwritten in left.items():
        more = f" and {len(unwritten) - 1} more" if len(unwritten) > 1 else ""
        planner.warnings.append(SourceWarning("layouts/", 1, f"no layout of the site fits a {kind} page "
                                              f"({unwritten[0].url}{more}): they are not written, as Hugo writes "
                                              f"none; add a layout for them (layouts/_default/{kind}.html, or "
                                              f"{'single' if kind == 'page' else 'list'}.html)"))
    return kept


def _enabled(pages: list[PlannedPage], disabled: Sequence[str]) -> list[PlannedPage]:
    """The pages of the kinds disableKinds leaves: Hugo writes no page of the others (nor their feeds and
    aliases), and no term page when it writes no regular page."""
    if not disabled:
        return pages
    kinds = {*disabled, "term"} if "page" in disabled else set(disabled)
    return [page for page in pages if _HUGO_KINDS.get(page.kind, page.kind) not in kinds]


def list_paginators(planner: Planner, posts: Sequence[Post], base_url: str, template: str, kind: str,
                extra: Mapping[str, Any]) -> tuple[list[Paginator], bool]:
    """The pages of a list, and whether it is paginated at all: one page when its template never asks for
    a pager; as many as the template's own pager has when the engine says (a Hugo layout paginates the
    list it chooses)."""
    if not planner.templates.paginates(template):
        return planner.paginate(posts, base_url, whole=True), False
    paginators = planner.paginate(posts, base_url)
    count = planner.templates.page_count(template, {"site": planner.site, "site_year": planner.site_year,
                                                  "page": planner.page_meta(kind, base_url, ""),
                                                  "paginator": paginators[0], **extra})
    if count == 0:   # this list's template shows it whole, with no pager
        return planner.paginate(posts, base_url, whole=True), False
    if count is not None and count != len(paginators):
        paginators = planner.paginate(posts, base_url, pages=count)
    return paginators, True


def terms_pages(planner: Planner, taxonomy: Taxonomy) -> list[PlannedPage]:
    """A taxonomy's page; paged as its layout pages its terms when the engine says it does (a Hugo layout that
    asks for a pager: LIST/page/N/ and the page/1/ alias, as Hugo writes them)."""
    template = planner._template("terms")
    title = taxonomy.title or taxonomy.name.title()
    first = planner.paginate((), taxonomy.url)[0]
    if not planner.templates.paginates(template) or not planner.templates.page_count(template, {
            "site": planner.site, "site_year": planner.site_year, "page": planner.page_meta("terms", taxonomy.url, ""),
            "paginator": first, "taxonomy": taxonomy}):
        return [planner._terms_page(taxonomy)]
    return planner._list_pages((), taxonomy.url, template, "terms", title, (("Home", "/"), (title, taxonomy.url)),
                               {"taxonomy": taxonomy},
                               fingerprint_of(title, taxonomy.content_html, *(fingerprint_of(term.slug, term.name,
                                              str(term.count)) for term in taxonomy.terms)), None)


def post_outputs(planner: Planner, post: Post) -> list[PlannedPage]:
    """The page in the other output formats its front matter names that the theme writes (a Hugo layout's
    search.json: index.json beside the page)."""
    named = post.params.get("outputs")
    if not isinstance(named, list) or not planner.theme.front_matter_outputs or not post.url.endswith("/"):
        return []
    pages = []
    for name in dict.fromkeys(str(item).lower() for item in named):
        if name in planner.theme.front_matter_outputs:
            suffix, template = planner.theme.front_matter_outputs[name]
            meta_info = planner.page_meta("post", post.url, post.title, description=post.description)
            context = {"page": meta_info, "post": post, "nav": planner.site.nav(post)}
            if not planner.templates.writes(template, context):   # Hugo writes the page without it, and warns
                planner.warnings.append(SourceWarning(post.source, 1, f"no layout of the site writes this page as "
                                                      f"{name} (its front matter's outputs): it is written without "
                                                      f"it, as Hugo writes it; add a {name} layout that fits it, "
                                                      f"or take {name} out of outputs"))
                continue
            pages.append(planner._page(post.url, template, "post", context, [post.fingerprint, name],
                                       source=post.source,
                                       output_path=url_to_output_path(post.url).rsplit("/", 1)[0] + f"/index.{suffix}"))
    return pages


def config_outputs(theme: Theme, pages: list[PlannedPage]) -> list[PlannedPage]:
    """A post's page in each output format the config defines for pages whose layout the theme has (index.md
    beside the page), when the post has a page."""
    if not pages:
        return []
    page = pages[0]
    folder = page.output_path.rpartition("/")[0]
    return [PlannedPage(f"{folder}/{file_name}" if folder else file_name, page.url, template, page.context,
                        fingerprint_of(page.key, template, file_name), page.source, page.kind)
            for file_name, template in theme.page_outputs.items()]


def _written(url: str, title: str, post: Post | None) -> tuple[str, str, str, str]:
    """(url, title, description, source) of a built-in page, as its content page writes them when there is one."""
    if post is None:
        return url, title, "", ""
    return post.url, post.title or title, post.description, post.source
