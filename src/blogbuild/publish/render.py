"""The Jinja environment and the list of everything to render: pages, feeds, sitemap, search index."""
from __future__ import annotations

import functools
import json
import re
import sys
import weakref
from functools import partial
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import jinja2
from jinja2 import meta
from markupsafe import Markup

from ..core.version import __version__
from ..config import SiteConfig
from ..core.dates import date_locale, shown_date
from ..core.errors import SourceError
from .feeds import xml_escape
from ..core.model import Paginator, Post, Section, SeriesNav, Site, TemplateFacts, Taxonomy, Term
from ..content.posts import fingerprint_of
from ..site.site import pinned_first, section_of, special_layout
from ..themes import Theme
from ..themes.default import DEFAULT_THEME
from ..core.urls import url_to_output_path, urlize

# Template text that shows site-wide lists: a page using such a template depends on every post.
_SITE_WIDE_MARKERS = ("site.posts", "site.pages", "site.taxonomies", "site.sections", "site.archives",
                      "site.taxonomy(", "site.nav(", "site.navigation")


@dataclass(frozen=True)
class PageMeta:
    """What every template knows of the page it renders."""

    kind: str
    url: str
    title: str
    description: str
    canonical: str
    needs_math: bool = False
    needs_mermaid: bool = False
    needs_code: bool = False
    breadcrumbs: tuple[tuple[str, str], ...] = ()
    feed_url: str | None = None
    draft: bool = False
    language: str = "zh-CN"


@dataclass(frozen=True)
class PlannedPage:
    """One templated output: where it goes, which template, its context and its dependency key."""

    output_path: str
    url: str
    template: str
    context: Mapping[str, Any]
    key: str                  # changes whenever anything the page shows changes
    source: str               # the content file it comes from, for messages ("" for list pages)


@dataclass(frozen=True)
class PlannedData:
    """A non-templated output (feed, sitemap, json, css) made by a function when its key changes."""

    output_path: str
    make: Callable[[], bytes]
    key: str
    source: str = ""


def date_format(value: datetime | None, fmt: str = "%Y-%m-%d") -> str:
    """A date in the given strftime format; '' for posts without a date."""
    return value.strftime(fmt) if value is not None else ""


def isodate(value: datetime | None) -> str:
    """ISO 8601 with offset, '' when None."""
    return value.isoformat() if value is not None else ""


_HTML_SPECIAL = re.compile(r"[&<>\"']")


def _once_per_value(function: Callable[..., str]) -> Callable[..., str]:
    """A template filter that computes function(value, *arguments) once per distinct input, and, where the
    template escapes, returns it as Markup when escaping would not change it: a URL or a date shows on
    many pages (a post's link on every list and neighbour that shows it), and was built and escaped
    again at every use. Output bytes are the same; only the work is shared."""
    results: dict[tuple, str] = {}

    @jinja2.pass_eval_context
    def template_filter(eval_context: jinja2.nodes.EvalContext, value: Any, *arguments: Any) -> str:
        try:
            key = (value, *arguments)
            result = results.get(key)
        except TypeError:   # an unhashable value: compute it (and fail, if it must) as before
            return function(value, *arguments)
        if result is None:
            result = function(value, *arguments)
            if isinstance(result, str) and not _HTML_SPECIAL.search(result):
                result = Markup(result)
            results[key] = result
        return result if eval_context.autoescape or not isinstance(result, Markup) else str(result)

    return template_filter


class FragmentCache:
    """Template fragments rendered once and reused, for parts that many pages show alike: a post's card
    on every list that holds it, a footer on every page. `{% call once(post, heading, ...) %}body{%
    endcall %}` renders body the first time its key is seen. The key must name everything the body
    reads besides the environment's own globals (config, filters). A Post in the key stands for itself,
    by identity, for as long as it lives (posts are frozen), so no field has to be hashed."""

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._plain: dict[tuple, Markup] = {}
        self._by_post: dict[int, tuple[weakref.ref, dict[tuple, Markup]]] = {}

    def __call__(self, *key: Any, caller: Callable[[], str]) -> Markup:
        if key and isinstance(key[0], Post):
            post, rest = key[0], key[1:]
            entry = self._by_post.get(id(post))
            if entry is None or entry[0]() is not post:
                identity = id(post)
                entry = (weakref.ref(post, lambda _: self._by_post.pop(identity, None)), {})
                self._by_post[identity] = entry
            fragments = entry[1]
        else:
            rest, fragments = key, self._plain
            if len(fragments) >= self.limit:   # keys with a page's own values: keep the memory bounded
                fragments.clear()
        fragment = fragments.get(rest)
        if fragment is None:
            fragment = fragments[rest] = Markup(caller())
        return fragment


class _SiteLoader(jinja2.FileSystemLoader):
    """Jinja's file loader that reads a template only when its real path is inside its own folder or the
    site's (sources.site_folders): a symbolic link out of the site is passed over, as if absent, so the next
    folder (the theme's) answers; the build warns about the link (sources.skipped_templates)."""

    def __init__(self, folders: Sequence[Path], inside: Sequence[str]) -> None:
        super().__init__([str(folder) for folder in folders])
        self.inside = tuple(inside)

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        import os
        import posixpath
        from ..core.names import is_inside
        pieces = jinja2.loaders.split_template_path(template)
        for folder in self.searchpath:
            filename = posixpath.join(folder, *pieces)
            if os.path.isfile(filename) and is_inside(os.path.realpath(filename),
                                                      (os.path.realpath(folder), *self.inside)):
                return jinja2.FileSystemLoader(folder, encoding=self.encoding).get_source(environment, template)
        raise jinja2.TemplateNotFound(template)


def make_environment(config: SiteConfig, template_dirs: Sequence[Path], go: Any = None,
                     theme: Theme = DEFAULT_THEME) -> jinja2.Environment:
    """Jinja with the site's templates before the theme's, strict undefined, HTML and XML escaping, and the
    theme's globals beside blogbuild's.
    Templates are compiled in memory by each process, never kept on disk: a compiled template is code, and
    no file of the cache runs code."""
    from ..media.assets import ASSETS, asset_url, import_map_integrity
    from ..disk.sources import site_folders

    environment = jinja2.Environment(
        loader=_SiteLoader(template_dirs, site_folders(config)),
        autoescape=jinja2.select_autoescape(["html", "xml"]),
        undefined=jinja2.StrictUndefined,
        auto_reload=False,    # the Builder makes a new environment whenever a template file changes
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters.update(url=_once_per_value(config.site_url), absurl=config.absolute_url,
                               date_format=_once_per_value(date_format), isodate=_once_per_value(isodate),
                               shown_date=_once_per_value(partial(shown_date, layout=config.theme.date_format,
                                                                   locale=date_locale(config.date_language,
                                                                                      config.language_code))),
                               urlize=urlize)
    environment.globals.update(assets=ASSETS, asset_url=lambda name: asset_url(name, config),
                               sri=functools.partial(_sri_attributes, config),
                               version=__version__, config=config, once=FragmentCache(),
                               term_url=lambda taxonomy, name: term_url(config, taxonomy, name),
                               feed_alternates=lambda url: _feed_alternates(config, url),
                               social_card=lambda post, nav=None: _social_card(config, post, nav),
                               markdownify=functools.lru_cache(maxsize=16)(partial(_markdownify, config)),
                               hugo_extend=partial(_hugo_extend, config, go),
                               mermaid_import_map=lambda: import_map_integrity("mermaid"))
    environment.globals.update(theme.globals(config))
    return environment


_HUGO_KINDS = {"post": "page", "home": "home", "section": "section", "term": "term", "terms": "taxonomy"}


def _hugo_extend(config: SiteConfig, go: Any, name: str, page: Any, post: Any = None) -> Markup:
    """PaperMod's extension partial (extend_head.html, extend_footer.html) of a Hugo site for one page, its `.`
    the page as Hugo's templates see it (gotemplate/); "" when the site has none."""
    if go is None or name not in go.extend_partials():
        return Markup("")
    from ..hugo.gotemplate import PageInfo, Params
    params = post.params if post is not None else {}
    info = PageInfo(Title=str(page.title or ""), RelPermalink=config.site_url(page.url),
                    Permalink=config.absolute_url(page.url), Params=Params.of(params),
                    Section=post.section if post is not None else "", date=post.date if post is not None else None,
                    Description=str(params.get("description") or ""),
                    page_kind=_HUGO_KINDS.get(str(page.kind), "page"), site_info=go.site)
    return Markup(go.extend(name, info, lambda text: str(_markdownify(config, text, inline=True))))


def _feed_alternates(config: SiteConfig, url: str) -> list[tuple[str, str, str]]:
    """(format, media type, url) of the feeds of the list at url (a folder, or its RSS feed's url)."""
    from .feeds import feed_alternates
    folder = url if url.endswith("/") else url.rsplit("/", 1)[0] + "/"
    return feed_alternates(config, folder)


def _social_card(config: SiteConfig, post: Post, nav: Any) -> str:
    """The site-relative URL of the post's generated social card, '' when it has none (cards.py)."""
    from ..media.cards import card_path
    path = card_path(post, nav, config)
    return "/" + path if path else ""


def _markdownify(config: SiteConfig, text: str, inline: bool = False) -> Markup:
    """A config text (PaperMod's homeInfoParams) as markdown with raw HTML, as Hugo's markdownify and RenderString
    make it, with the site's markup settings; inline: one paragraph's content, without the <p>."""
    from ..markdown import render_markdown
    html = render_markdown(str(text), path=config.config_path or "<config>", config=config).html.strip()
    if inline and html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        html = html[len("<p>"):-len("</p>")]
    return Markup(html)


def _sri_attributes(config: SiteConfig, name: str) -> Markup:
    """' integrity="..." crossorigin="anonymous"' for a CDN asset; nothing for the site's own copy."""
    from ..media.assets import asset_integrity

    integrity = asset_integrity(name, config)
    if integrity is None:
        return Markup("")
    return Markup(' integrity="{}" crossorigin="anonymous"').format(integrity)


def term_url(config: SiteConfig, taxonomy: str, name: str) -> str:
    """The URL of a term page, the same rule site.py uses; '' for a taxonomy the site does not publish.

    Templates call this instead of searching site.taxonomies, so a post card does not make its page
    depend on every post of the site."""
    if taxonomy not in config.taxonomies or not str(name).strip():
        return ""
    return f"/{urlize(taxonomy)}/{urlize(str(name))}/"


class TemplateSet:
    """Templates by name with the hash of each one's inheritance and include closure."""

    def __init__(self, environment: jinja2.Environment) -> None:
        self.environment = environment
        if environment.loader is None:
            raise ValueError("TemplateSet needs an environment with a loader")
        self._loader: jinja2.BaseLoader = environment.loader
        self._closure: dict[str, tuple[str, bool]] = {}
        self._texts: dict[str, str] = {}
        # Each template file read and parsed once: (source, the names it extends/includes/imports, None
        # for a name given by a variable), or None when there is no such template.
        self._read: dict[str, tuple[str, list[str | None]] | None] = {}

    def closures(self) -> TemplateFacts:
        """Every closure computed so far and every template file read, by name (saved with a build's state)."""
        return TemplateFacts(dict(self._closure), dict(self._read))

    def remember_closures(self, facts: TemplateFacts) -> None:
        """Take what an earlier process learnt of the very same template files: a carried-on build then
        parses no template to plan its pages."""
        self._closure.update(facts.closures)
        self._read.update(facts.read)

    def preload(self, names: Iterable[str]) -> None:
        """Compile these templates and everything they extend, include or import, now: forked workers then
        inherit them compiled instead of each compiling them again (a cold build's templates cost ~0.2 s
        to compile, per process). A template that fails is left to fail where it is rendered."""
        for name in dict.fromkeys(names):
            for needed in self._sources(name):
                try:
                    self.environment.get_template(needed)
                except jinja2.TemplateError:
                    pass

    def exists(self, name: str) -> bool:
        """Whether a template of that name is found in the site or the theme."""
        try:
            self._loader.get_source(self.environment, name)
        except jinja2.TemplateNotFound:
            return False
        return True

    def closure(self, name: str) -> tuple[str, bool]:
        """(hash of the template and all it extends or includes, whether it shows site-wide lists)."""
        if name not in self._closure:
            seen = self._sources(name)
            sources = [seen[key] for key in sorted(seen)]
            uses_site = any(marker in source for source in sources for marker in _SITE_WIDE_MARKERS)
            self._closure[name] = (fingerprint_of(*sorted(seen), *sources), uses_site)
        return self._closure[name]

    def mentions(self, name: str, marker: str) -> bool:
        """Whether the template or anything it extends or includes contains marker (read as text: a
        site template that names it anywhere is taken to use it, which can only make keys stricter)."""
        text = self._texts.get(name)
        if text is None:
            seen = self._sources(name)
            text = self._texts[name] = "\n".join(seen[key] for key in sorted(seen))
        return marker in text

    def _sources(self, name: str) -> dict[str, str]:
        """The source of the template and of everything it extends or includes, by template name."""
        seen: dict[str, str] = {}
        if self._collect(name, seen):   # an include by variable name: depend on every template
            for other in sorted(self.environment.list_templates()):
                self._collect(other, seen)
        return seen

    def _references(self, name: str) -> tuple[str, list[str | None]] | None:
        if name not in self._read:
            try:
                source, filename, _ = self._loader.get_source(self.environment, name)
            except jinja2.TemplateNotFound:
                self._read[name] = None
                return None
            try:
                tree = self.environment.parse(source, name, filename)
            except jinja2.TemplateSyntaxError as error:
                raise template_error(error) from error
            self._read[name] = (source, list(meta.find_referenced_templates(tree)))
        return self._read[name]

    def _collect(self, name: str, seen: dict[str, str]) -> bool:
        if name in seen:
            return False
        read = self._references(name)
        if read is None:
            seen[name] = ""
            return False
        seen[name], references = read
        dynamic = False
        for reference in references:
            if reference is None:
                dynamic = True
            else:
                dynamic = self._collect(reference, seen) or dynamic
        return dynamic


def template_error(error: Exception, *, page: str = "", source: str = "") -> SourceError:
    """A Jinja error as path:line of the template, naming the page being rendered."""
    filename, line = "", 0
    if isinstance(error, jinja2.TemplateSyntaxError):
        filename, line = error.filename or error.name or "", error.lineno
    else:
        trace = sys.exc_info()[2] if sys.exc_info()[1] is error else error.__traceback__
        while trace is not None:
            frame_file = trace.tb_frame.f_code.co_filename
            if frame_file.endswith((".html", ".xml", ".txt", ".json")):
                filename, line = frame_file, trace.tb_lineno
            trace = trace.tb_next
    message = getattr(error, "message", None) or str(error)
    where = f" while rendering {page}" + (f" from {source}" if source else "") if page else ""
    hint = "; fix the template" if isinstance(error, jinja2.TemplateSyntaxError) else \
        "; check the variable name, or guard it with `is defined`"
    return SourceError(filename or "<template>", line, f"{message}{where}{hint}", stage="template")


def render_template(templates: TemplateSet, page: PlannedPage) -> bytes:
    """Render one planned page to UTF-8 bytes; template errors become SourceError."""
    try:
        template = templates.environment.get_template(page.template)
        return template.render(**page.context).encode("utf-8")
    except (jinja2.TemplateError, TypeError, AttributeError, ValueError, KeyError, ZeroDivisionError) as error:
        raise template_error(error, page=page.url, source=page.source) from error


# Front matter a post's card reads: PaperMod's cover, the meta line's switches and the author (theme_options.py).
_CARD_PARAMS = frozenset({"cover", "hidemeta", "hidesummary", "showwordcount", "showreadingtime", "hideauthor",
                          "author"})


def post_list_key(post: Post) -> str:
    """What a list entry shows of a post: changes when its card would look different."""
    card_params = repr(sorted((str(key), repr(value)) for key, value in post.params.items()
                              if str(key).lower() in _CARD_PARAMS))
    return fingerprint_of(post.url, post.title, post.date_text, post.summary_html, "|".join(post.tags),
                          "|".join(post.categories), "|".join(post.series), str(post.reading_minutes),
                          str(post.word_count), str(post.draft), str(post.truncated), post.description,
                          str(post.series_order), str(post.has_math),   # has_math: list pages load KaTeX
                          card_params, "|".join(post.resources))


def _link_key(post: Post | None) -> str:
    return f"{post.url}\x01{post.title}" if post is not None else "-"


class Planner:
    """Plans every output of one Site; keys let a Builder skip pages whose inputs did not change. The theme
    says which template renders each kind of page."""

    def __init__(self, site: Site, templates: TemplateSet, list_keys: Callable[[Post], str],
                 memo: dict | None = None, theme: Theme = DEFAULT_THEME) -> None:
        self.site = site
        self.theme = theme
        self.config: SiteConfig = site.config
        self.templates = templates
        self.list_key = list_keys
        self._site_key: str | None = None
        newest = site.posts[0].date if site.posts else None
        self.site_year = newest.year if newest is not None else None
        self._series_keys: dict[str, str] = {}
        self.touching: set[str] | None = None    # set by plan_affected: list pages without these urls are skipped
        self.memo = memo if memo is not None else {}

    def _template(self, kind: str) -> str:
        return self.theme.template_for(kind)

    @property
    def site_key(self) -> str:
        """Every post's list key hashed: what a template reading site-wide lists depends on (lazy: a
        body-edit rebuild usually needs none)."""
        if self._site_key is None:
            self._site_key = fingerprint_of(*(self.list_key(post) for post in self.site.posts))
        return self._site_key

    def _meta(self, kind: str, url: str, title: str, **extra: Any) -> PageMeta:
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
        return PlannedPage(output_path or url_to_output_path(url), url, template, context, key, source)

    def paginate(self, posts: Sequence[Post], base_url: str) -> list[Paginator]:
        """Split posts into pages of config.paginate: base_url, base_url/page/2/, ..."""
        size = max(1, self.config.paginate)
        count = max(1, -(-len(posts) // size))
        urls = tuple(base_url if number == 1 else f"{base_url}page/{number}/" for number in range(1, count + 1))
        return [Paginator(tuple(posts[(number - 1) * size: number * size]), number, count, len(posts), urls,
                          (number - 1) * size) for number in range(1, count + 1)]

    def _list_pages(self, posts: Sequence[Post], base_url: str, template: str, kind: str, title: str,
                    crumbs: tuple[tuple[str, str], ...], extra: dict[str, Any], extra_key: str,
                    feed_url: str | None, page_one_alias: bool = True) -> list[PlannedPage]:
        pages = []
        touching = self.touching
        for paginator in self.paginate(posts, base_url):
            if touching is not None and not any(post.url in touching for post in paginator.items):
                continue   # plan_affected: this page does not show an edited post
            page_title = title if paginator.number == 1 else f"{title} ({paginator.number})"
            meta_info = self._meta(kind, paginator.url, page_title, breadcrumbs=crumbs, feed_url=feed_url,
                                   needs_math=any(p.has_math for p in paginator.items) and
                                   any("math" in p.summary_html for p in paginator.items))
            # len(posts): list pages show the count ("8 posts"), which a post leaving another page changes
            keys = [extra_key, str(paginator.number), str(paginator.total_pages), str(len(posts)),
                    *(self.list_key(post) for post in paginator.items)]
            pages.append(self._page(paginator.url, template, kind, {"page": meta_info, "paginator": paginator,
                                                                    **extra}, keys))
        if self.config.pagination_aliases and page_one_alias:   # Hugo's LIST/page/1/, so links to it keep working
            alias = f"{base_url}page/1/"
            pages.append(self._page(alias, self._template("alias"), "alias", {
                "page": self._meta("alias", alias, title), "target": self.config.absolute_url(base_url)}, [base_url]))
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
        data += self._site_files()
        return pages, data

    def _layout_page(self, layout: str) -> Post | None:
        """The content page written as the archives or search page (PaperMod's `layout: archives`), if any."""
        return next((post for post in self.site.pages if special_layout(post) == layout), None)

    def _singletons(self) -> list[PlannedPage]:
        """Taxonomy indexes, archives, search and 404: one page each."""
        site = self.site
        pages = [self._terms_page(taxonomy) for taxonomy in site.taxonomies]
        archive_keys = [_link_key(post) + "\x01" + post.date_text for post in site.posts]
        archives = self._layout_page("archives")
        url, title, description, source = _written("/archives/", "Archives", archives)
        pages.append(self._page(url, self._template("archives"), "archives", {
            "page": self._meta("archives", url, title, description=description,
                               breadcrumbs=(("Home", "/"), (title, url))),
            "archives": site.archives, "post_count": len(site.posts), "post": archives},
            [*archive_keys, archives.fingerprint if archives else ""], source=source))
        if self.templates.exists(self._template("search")):
            search = self._layout_page("search")
            url, title, description, source = _written("/search/", "Search", search)
            pages.append(self._page(url, self._template("search"), "search", {
                "page": self._meta("search", url, title, description=description,
                                   breadcrumbs=(("Home", "/"), (title, url))), "post": search},
                [search.fingerprint if search else ""], source=source))
        pages.append(self._page("/404.html", self._template("404"), "404", {
            "page": self._meta("404", "/404.html", "Page not found")}, [], output_path="404.html"))
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
        terms = {(name, urlize(value)) for post in changed for name in self.config.taxonomies
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
        data.append(PlannedData("index.json", lambda: search_index(site, self.memo, edited=changed), key))
        return pages, data + search

    def _home(self) -> tuple[list[PlannedPage], list[PlannedData]]:
        config = self.config
        # PaperMod's profile mode: the home page is the profile alone, one page, no post list (its feed stays).
        listed = config.theme.home_posts
        pages = self._list_pages(pinned_first(self.site.posts) if listed else (), "/", self._template("home"), "home",
                                 config.title, (), {}, "home", "/index.xml", page_one_alias=listed)
        return pages, self._feed("/", config.title, "/", self.site.posts)

    def _post_pages(self, post: Post) -> list[PlannedPage]:
        # A layout page is published as the archives or search page itself (_singletons); its aliases stay.
        pages = [] if special_layout(post) else [self._post_page(post)]
        for alias in post.aliases if self.config.aliases else ():
            pages.append(self._page(alias, self._template("alias"), "alias", {
                "page": self._meta("alias", alias, post.title), "target": self.config.absolute_url(post.url)},
                [post.url], source=post.source))
        return pages

    def _section(self, section: Section, pages: list[PlannedPage], data: list[PlannedData]) -> None:
        crumbs = (("Home", "/"), *section.parents, (section.title, section.url))
        pages += self._list_pages(section.posts, section.url, self._template("section"), "section", section.title,
                                  crumbs, {"section": section},
                                  fingerprint_of(section.title, section.content_html, section.description,
                                                 *(f"{title}\x01{url}" for title, url in section.parents),
                                                 *(f"{title}\x01{url}" for title, url in section.subsections)),
                                  f"{section.url}index.xml")
        data += self._feed(section.url, f"{section.title} - {self.config.title}", section.url, section.posts)

    def _term(self, taxonomy: Taxonomy, term: Term, pages: list[PlannedPage], data: list[PlannedData]) -> None:
        pages += self._term_pages(taxonomy, term)
        data += self._feed(term.url, f"{term.title or term.name} - {self.config.title}", term.url, term.posts)

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
        meta_info = self._meta("post", post.url, post.title, description=post.description or post.summary_text[:200], needs_math=post.has_math, needs_mermaid=post.has_mermaid,
            needs_code=post.has_code, breadcrumbs=tuple(crumbs), draft=post.draft)
        keys = [post.fingerprint, _link_key(nav.newer), _link_key(nav.older),
                *(_link_key(related) for related in nav.related),
                *(f"{title}\x01{url}" for title, url in crumbs)]   # the section's title shows in the crumbs
        keys += [self._series_nav_key(part) for part in nav.series]
        return self._page(post.url, self._post_template(post), "post", {"page": meta_info, "post": post, "nav": nav},
                          keys, source=post.source)

    def _post_template(self, post: Post) -> str:
        """Hugo's lookup, shortened: `layout: X` uses X.html and `type: T` uses T/single.html when the site has
        them; the theme's own page templates (home, section, ...) are never picked for a post."""
        layout, kind = post.params.get("layout"), post.params.get("type")
        candidates = []
        if isinstance(kind, str) and kind:
            candidates += [f"{kind}/{layout}.html"] if isinstance(layout, str) and layout else []
            candidates.append(f"{kind}/single.html")
        if isinstance(layout, str) and layout and f"{layout}.html" not in self.theme.page_templates:
            candidates.append(f"{layout}.html")
        return next((name for name in candidates if "/." not in name and ".." not in name
                     and self.templates.exists(name)), self._template("post"))

    def _terms_page(self, taxonomy: Taxonomy) -> PlannedPage:
        title = taxonomy.title or taxonomy.name.title()
        return self._page(taxonomy.url, self._template("terms"), "terms", {
            "page": self._meta("terms", taxonomy.url, title, breadcrumbs=(("Home", "/"), (title, taxonomy.url))),
            "taxonomy": taxonomy}, [title, taxonomy.content_html,
                                    *(fingerprint_of(term.slug, term.name, str(term.count)) for term in taxonomy.terms)])

    def _term_pages(self, taxonomy: Taxonomy, term: Term) -> list[PlannedPage]:
        title = taxonomy.title or taxonomy.name.title()
        term_title = term.title or term.name
        term_crumbs = (("Home", "/"), (title, taxonomy.url), (term_title, term.url))
        feed_url = f"{term.url}index.xml"
        if taxonomy.name == "series" and self.templates.exists(self._template("series")) and \
                self.templates.mentions(self._template("series"), "paginator"):
            # Paginated like a term page, so a series of 2,000 parts is not one page of 2,000 summaries.
            return self._list_pages(term.posts, term.url, self._template("series"), "series", term_title, term_crumbs,
                                    {"taxonomy": taxonomy, "term": term},
                                    fingerprint_of(term.name, term.title, term.content_html), feed_url)
        if taxonomy.name == "series" and self.templates.exists(self._template("series")):   # a site's own, unpaginated
            meta_info = self._meta("series", term.url, term_title, breadcrumbs=term_crumbs, feed_url=feed_url)
            return [self._page(term.url, self._template("series"), "series", {
                "page": meta_info, "taxonomy": taxonomy, "term": term},
                [term.name, term.title, term.content_html, *(self.list_key(post) for post in term.posts)])]
        return self._list_pages(term.posts, term.url, self._template("term"), "term", term_title, term_crumbs,
                                {"taxonomy": taxonomy, "term": term},
                                fingerprint_of(term.name, term.title, term.content_html), feed_url)

    def _feed(self, folder: str, title: str, link: str, posts: Sequence[Post]) -> list[PlannedData]:
        """The list's feed in every format the site publishes (feeds.py writes them)."""
        from .feeds import FeedSpec, feed_url, make_feed
        limit = self.config.feed_limit or len(posts)
        spec = FeedSpec(folder, title, link, tuple(posts[:limit]))
        key = fingerprint_of(folder, title, link, self.config.feed_content,
                             *(self.list_key(post) if self.config.feed_content == "summary" else post.fingerprint
                               for post in spec.posts))
        return [PlannedData(feed_url(folder, name).lstrip("/"), partial(make_feed, self.config, spec, name),
                            fingerprint_of(name, key)) for name in self.config.feeds]

    def _site_files(self) -> list[PlannedData]:
        site, config = self.site, self.config
        every_key = fingerprint_of(*(post.fingerprint for post in site.pages))
        taxonomy_key = fingerprint_of(*(term.url for taxonomy in site.taxonomies for term in taxonomy.terms))
        # The sitemap shows URLs and dates only: a body edit must not rewrite it.
        dates_key = fingerprint_of(*(f"{post.url}\x01{post.lastmod or post.date}" for post in site.pages))
        sitemap_key = fingerprint_of(dates_key, taxonomy_key, *(section.url for section in site.sections))
        return [
            PlannedData("sitemap.xml", lambda: sitemap(site), sitemap_key),
            PlannedData("robots.txt", lambda: robots(config), config.base_url),
            PlannedData("index.json", lambda: search_index(site, self.memo), fingerprint_of(every_key)),
            *((search_files(site, self.memo) or ()) if config.search_index == "sharded" else ()),
        ]


def _written(url: str, title: str, post: Post | None) -> tuple[str, str, str, str]:
    """(url, title, description, source) of a built-in page, as its content page writes them when there is one."""
    if post is None:
        return url, title, "", ""
    return post.url, post.title or title, post.description, post.source


def sitemap(site: Site) -> bytes:
    """sitemap.xml: every published page, list and term page, with lastmod where known."""
    config = site.config
    entries: list[tuple[str, datetime | None]] = [("/", site.posts[0].date if site.posts else None)]
    entries += [(post.url, post.lastmod or post.date) for post in site.pages]
    entries += [(section.url, None) for section in site.sections]
    for taxonomy in site.taxonomies:
        entries.append((taxonomy.url, None))
        entries += [(term.url, None) for term in taxonomy.terms]
    entries.append(("/archives/", None))
    seen = set()
    lines = ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n']
    for url, modified in entries:
        if url in seen:
            continue
        seen.add(url)
        lines.append(f"<url><loc>{xml_escape(config.absolute_url(url))}</loc>")
        if modified is not None:
            lines.append(f"<lastmod>{modified.isoformat()}</lastmod>")
        lines.append("</url>\n")
    lines.append("</urlset>\n")
    return "".join(lines).encode("utf-8")


def robots(config: SiteConfig) -> bytes:
    """robots.txt allowing everything and naming the sitemap."""
    return f"User-agent: *\nAllow: /\nSitemap: {config.absolute_url('/sitemap.xml')}\n".encode("utf-8")


def search_entry(post: Post, config: SiteConfig) -> dict[str, Any]:
    """One object of /index.json."""
    return {"title": post.title, "date": post.date_text, "permalink": config.absolute_url(post.url),
            "tags": list(post.tags), "categories": list(post.categories), "series": list(post.series),
            "summary": post.summary_text, "content": post.plain_text}


def search_index(site: Site, memo: dict | None = None, *, edited: Sequence[Post] = ()) -> bytes:
    """/index.json: one object per published listed post, newest first.

    Each post's JSON is kept in memo by fingerprint, so a one-post edit re-encodes one entry; the result
    is byte for byte json.dumps of the whole list."""
    memo = memo if memo is not None else {}

    def encode(post: Post) -> bytes:
        key = ("search", post.fingerprint, site.config.base_url)
        fragment = memo.get(key)
        if fragment is None:
            fragment = json.dumps(search_entry(post, site.config), ensure_ascii=False,
                                  separators=(",", ":")).encode("utf-8")
            memo[key] = fragment
        return fragment

    last = memo.get(("search-list", "", ""))
    if edited and last is not None and len(last[0]) == len(site.posts):
        # Same posts in the same order (a body edit): replace the edited entries in the last list.
        positions, fragments = last
        for post in edited:
            if post.url in positions:
                fragments[positions[post.url]] = encode(post)
    else:
        fragments = [encode(post) for post in site.posts]
        positions = {post.url: index for index, post in enumerate(site.posts)}
    memo[("search-list", "", "")] = (positions, fragments)
    if not fragments:
        return b"[]"
    # One join, brackets folded into the end entries: the index is tens of megabytes at 10,000 posts.
    parts = list(fragments)
    parts[0], parts[-1] = b"[" + parts[0], parts[-1] + b"]"
    if len(parts) == 1:
        parts[0] = b"[" + fragments[0] + b"]"
    return b",".join(parts)


def search_files(site: Site, memo: dict, changed: Sequence[Post] | None = None) -> list[PlannedData] | None:
    """search/: the meta file, every shard (keyed by its digest: a shard no post of an edit is in is not
    written again) and the text chunks of every post (of the changed posts only, after a body edit). None
    when an edited post's text now has another number of chunks: only a whole plan removes the chunks it
    no longer has. The index is made here, from the last build's where the posts are the same."""
    from .search_index import SearchIndex, chunk_file, chunk_paths, shard_path
    config = site.config
    counts: dict[str, int] = {} if changed is None else dict(memo.get(("search-chunks", "", "")) or {})
    if changed is not None and any(len(chunk_paths(post)) != counts.get(post.url) for post in changed):
        return None
    last = memo.get(("search-index", "", config.base_url))
    index = SearchIndex.of(site.posts, config, last if isinstance(last, SearchIndex) else None)
    memo[("search-index", "", config.base_url)] = index
    data = [PlannedData("search/meta.json", lambda: index.meta, fingerprint_of("search-meta", index.meta.decode()))]
    data += [PlannedData(shard_path(number), partial(index.shard, number), version)
             for number, version in enumerate(index.versions)]
    for post in site.posts if changed is None else changed:
        paths = chunk_paths(post)
        counts[post.url] = len(paths)
        data += [PlannedData(path, partial(chunk_file, post, number), fingerprint_of(post.fingerprint, path))
                 for number, path in enumerate(paths)]
    memo[("search-chunks", "", "")] = counts
    return data
