"""A Hugo site's own page layouts as a Theme: when its layouts (layouts/, then its configured themes') have a
home, a single and a list layout, and blogbuild can run every layout and the partials they call, they render
its pages through the Go-template engine below; otherwise the default theme renders them, with one warning
that names the template and construct that could not run (the page layouts are never half-used).

Each page is rendered with the layout Hugo picks for it (layouts.py: its kind, path, `type:`, `layout:`) through
the baseof.html Hugo pairs with it, `.` the page as Hugo's templates see it (gotemplate/site_model.py); the
engine writes Hugo's alias pages itself, and the files a page's Hugo Pipes published (gotemplate/pipes.py):
each render's record (target path -> digest) is kept by the page's key, in memory and in the engine's
folder (a page rendered in a forked worker or by an earlier process, then reused, still has its files), the
bytes once by their digest. docs/go-templates.md lists what a layout may use.
"""
from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup

from ..core.errors import SourceError, SourceWarning
from ..core.fingerprint import fingerprint_of
from ..core.model import OutputFile, Site, TemplateFacts
from ..core.page_reads import Reads, bodies_of, front_key, page_reads, reads_hold
from ..core.version import __version__
from ..markdown import plain_line, render_markdown
from ..markdown.shortcodes import ShortcodeSet
from ..themes import PAGE_KINDS, Theme
from .abs_urls import absolute_urls_in_xml, dotted_path, site_urls_in_html
from .gotemplate import GoSource, GoTemplateError, GoTemplates, render_layout
from .gotemplate.embedded import ROBOTS_TXT, rss_feed, sitemap_xml
from .gotemplate.environment import compiled
from .gotemplate.function_error import HugoFunctionError
from .gotemplate.functions import new_build
from .gotemplate.pipes import Pipes, asset_files, esbuild_binary, publishing, safe_target
from .gotemplate.purity import is_pure
from .gotemplate.sass import SassError
from .gotemplate.body_reads import note_body_reads, reading_bodies
from .gotemplate.site_model import HugoPage, HugoSite, hugo_escapes
from .local_libraries import VENDORED, local_libraries, vendored_file
from .published_records import PublishedRecords
from .layouts import PageQuery
from ..core.cascade import cascades_of
from .page_layouts import PageLayouts, bundler_warnings, called_partials, runnable_layouts

if TYPE_CHECKING:
    from ..config import SiteConfig

ALIAS_TEMPLATE = "_internal/alias.html"   # Hugo's alias page, written by the engine itself
HOME_JSON = "home.json"                    # a page's JSON output (outputs.home, a page's outputs), by its json layout
FEED = "_internal/rss.xml"                 # a list's RSS feed: the site's RSS layout for it, else Hugo's own
ROBOTS = "_internal/robots.txt"            # robots.txt: the site's robots layout, else Hugo's own
SITEMAP = "_internal/sitemap.xml"          # sitemap.xml: the site's sitemap layout, else Hugo's own
PAGE_FORMAT = "page."                      # a page in an output format of the config's: "page.markdown"
# The Theme's template of each blogbuild page kind: Hugo's kind; the engine picks each page's layout file.
_KIND_TEMPLATES = {"post": "page", "home": "home", "section": "section", "term": "term", "terms": "taxonomy",
                   "404": "404"}
_SAMPLES = {"page": PageQuery("page", "posts/a"), "home": PageQuery("home"), "section": PageQuery("section", "posts"),
            "term": PageQuery("term", "tags/a"), "taxonomy": PageQuery("taxonomy", "tags"),
            "404": PageQuery("404", "404")}
# A page's other outputs: Hugo's output format of each.
_OUTPUT_FORMATS = {HOME_JSON: "json", FEED: "rss", ROBOTS: "robots", SITEMAP: "sitemap"}
_SINGULAR = {"tags": "tag", "categories": "category", "series": "series"}


def taxonomy_names(config: SiteConfig) -> dict[str, str]:
    """The site's taxonomies as Hugo's config writes them: singular -> plural."""
    return {_SINGULAR.get(name, name.rstrip("s") or name): name for name in config.taxonomies}


def site_theme(config: SiteConfig, go: GoTemplates | None, *,
               compile_ahead: bool = False) -> tuple[Theme | None, list[SourceWarning]]:
    """The Theme of a Hugo site's own page layouts, or None (with why, when it has some that cannot run).
    compile_ahead: a one-shot build's, whose layouts and the partials they call are then compiled in a second
    process meanwhile (gotemplate/compile_ahead.py)."""
    from ..disk.sources import site_folders
    layouts, problem = runnable_layouts(Path(config.root), go, config.hugo_themes, taxonomy_names(config),
                                        site_folders(config))
    if layouts is None:
        return None, [problem] if problem is not None else []
    if compile_ahead and go is not None:
        from .gotemplate.compile_ahead import start
        from .gotemplate.environment import go_environment
        start(_translations(layouts, go), go_environment())
    templates = {kind: _KIND_TEMPLATES.get(kind, "") for kind in PAGE_KINDS}
    if not layouts.has(_SAMPLES["404"]):   # Hugo writes no 404.html without a layout for it
        templates["404"] = ""
    templates["alias"] = ALIAS_TEMPLATE
    home_outputs = {"index.json": HOME_JSON} \
        if config.hugo_home_json and layouts.has(PageQuery("home", output_format="json")) else {}
    # A page in each output format the config defines for pages, when a layout of that format fits a page.
    page_outputs = {str(settings["file"]): PAGE_FORMAT + name for name, settings in config.hugo_page_outputs.items()
                    if layouts.has(PageQuery("page", "posts/a", output_format=name))}
    theme = Theme("hugo-layouts", Path(config.root), templates, engine=functools.partial(GoPageEngine, layouts),
                  own_files=False, home_outputs=home_outputs, page_outputs=page_outputs,
                  front_matter_outputs={"json": ("json", HOME_JSON)}, feed_template=FEED,
                  site_outputs={"robots.txt": ROBOTS, "sitemap.xml": SITEMAP})
    assets = asset_files(Path(config.root), config.hugo_themes, site_folders(config))
    if go is None or esbuild_binary(Path(config.root)) is not None:
        return theme, []
    return theme, bundler_warnings(layouts, go, lambda name: assets.find(name) is not None)


def _translations(layouts: PageLayouts, go: GoTemplates) -> list[str]:
    """The Jinja a render of the site's pages compiles: each layout's and each partial they call's main
    template and named templates (define, block), layouts first; each once."""
    sources: list[GoSource] = []
    for path in sorted(layouts.sources):
        sources += (layouts.sources[path], *called_partials(layouts.sources[path], go))
    found: dict[str, None] = {}
    for source in sources:
        translation = source.file
        if isinstance(translation, GoTemplateError):
            continue
        if not translation.main_empty:
            found[translation.main] = None
        found.update((define.jinja, None) for define in translation.defines if not define.empty)
    return list(found)


def _compile_all(layouts: PageLayouts, go: GoTemplates) -> None:
    """Before a pool of workers is forked: every layout's and every partial's and named template's Jinja they
    call compiled here (taken from the child that compiled them ahead, when it did), so that each worker inherits
    them instead of compiling them again. A template that does not compile is left to the render that needs it."""
    for source in layouts.sources.values():
        try:
            source.compiled()
        except (GoTemplateError, jinja2.TemplateError):
            pass
    for jinja in _translations(layouts, go):
        try:
            compiled(jinja)
        except jinja2.TemplateError:
            pass


def _output_format(name: str) -> str:
    """The output format a page template's name renders ("" for a page's HTML): a config's format ("page.NAME"),
    or the home page's JSON, a feed, robots.txt, the sitemap."""
    return name[len(PAGE_FORMAT):] if name.startswith(PAGE_FORMAT) else _OUTPUT_FORMATS.get(name, "")


def _page_query(config: SiteConfig, kind: str, context: Mapping[str, Any]) -> PageQuery:
    """The page as Hugo's lookup sees it: its kind, content path, `type:` and `layout:`."""
    language = config.language or ""
    if kind == "post":
        post = context["post"]
        path = post.rel_path.rsplit(".", 1)[0]
        path = path[:-len("/index")] if path.endswith("/index") else path
        given_type, given_layout = post.params.get("type"), post.params.get("layout")
        return PageQuery("page", path, str(given_type or ""), str(given_layout or ""), language=language)
    if kind == "section":
        section = context["section"]
        return PageQuery("section", section.name, *_given(config, "section", section.name, section.index), language=language)
    if kind in ("term", "series"):
        path, term = f"{context['taxonomy'].name}/{context['term'].slug}", context["term"]
        return PageQuery("term", path, *_given(config, "term", path, getattr(term, "index", None)), language=language)
    if kind == "terms":
        name = context["taxonomy"].name
        return PageQuery("taxonomy", name, *_given(config, "taxonomy", name, None), language=language)
    if kind == "home":
        return PageQuery("home", "", *_given(config, "home", "", getattr(context.get("site"), "home", None)),
                         language=language)
    return PageQuery("404", "404", *_given(config, "404", "404", None), language=language)


def _given(config: SiteConfig, kind: str, path: str, index: Any) -> tuple[str, str]:
    """A list page's `type:` and `layout:`: its _index.md's (with what its cascades handed down to it), else, without
    one, what its cascades hand down (core/cascade.py)."""
    if index is not None:
        params = index.params
    else:
        language = config.language or ""
        params = cascades_of(language).values_for("/" + path.lower(), kind, language)
    return str(params.get("type") or ""), str(params.get("layout") or "")


class GoPageEngine:
    """The PageEngine of a Hugo site's page layouts. Its template names are Hugo's page kinds (page, home,
    section, term, taxonomy, 404); each page's layout file is Hugo's choice for that page. A Go layout is taken
    to show site-wide lists, so every page depends on the front matter of every post, and on the body of the posts
    its last render read (take_reads)."""

    tracks_reads = True

    def __init__(self, layouts: PageLayouts, config: SiteConfig, template_dirs: Sequence[Path],
                 go: GoTemplates | None) -> None:
        assert go is not None
        from ..disk.sources import site_folders
        self.layouts = layouts
        self.config = config
        self.go = go
        self._sites: dict[int, tuple[weakref.ref[Site], HugoSite]] = {}   # by id: a Site is not hashable
        self._markdownified = _Markdownified(config, go)   # this build's markdownify (_markdown)
        # A list's first page as page_count rendered it (with what it published), by (site, page, number),
        # until render asks for it.
        self._probed: dict[tuple[Any, ...], tuple[str, dict[str, str], frozenset[str]]] = {}
        self._probed_site = 0
        # The whole site's config: Hugo publishes a multilingual site's resources once, at the top; relativeURLs
        # and canonifyURLs rewrite a page's URLs against it.
        self._top = top = _top_site(config)
        self.pipes = Pipes(asset_files(Path(config.root), config.hugo_themes, site_folders(config)),
                           top.site_url, top.absolute_url, translate=_go_text)
        self._records = PublishedRecords(safe_target)   # page key -> what its render published
        self.last_reads: frozenset[str] | None = None   # the posts whose body the last render read (take_reads)
        self._counts = _PageCounts(config)
        self._site_go: GoTemplates | None = None   # the templates with `.Site` the last build's HugoSite
        # A post's content rendered again with its page's Store (render_content_with).
        self._content_again: Callable[[Any, dict[str, Any], Sequence[Any]], Any] | None = None

    # -- TemplateEngine ----------------------------------------------------------------------------
    def exists(self, name: str) -> bool:
        return name in (ALIAS_TEMPLATE, FEED, ROBOTS, SITEMAP) or (name in _SAMPLES and self.layouts.has(_SAMPLES[name])) \
            or (name.startswith(PAGE_FORMAT) and self.layouts.has(replace(_SAMPLES["page"],
                                                                          output_format=name[len(PAGE_FORMAT):])))

    def load(self, name: str) -> Any:
        chosen = self.layouts.choose(_SAMPLES[name]) if name in _SAMPLES else None
        if chosen is None:
            raise jinja2.TemplateNotFound(name)
        return chosen[0].compiled()

    def dependencies(self, name: str) -> dict[str, str]:
        """Every layout and base (any page of a kind may pick any of them) and every partial they call, and
        the digest of the assets their Hugo Pipes may read."""
        return self._dependencies

    @functools.cached_property
    def _dependencies(self) -> dict[str, str]:
        found = {source.path: source.source for source in self.layouts.sources.values()}
        for source in self.layouts.sources.values():
            for partial in self.go.dependencies_of_text(source.source):
                found.update(self.go.dependencies(partial))
        if any(folder.is_dir() for folder in self.pipes.assets.folders):
            found["assets/"] = self.pipes.assets.digest()
        return dict(sorted(found.items()))

    def render(self, name: str, context: Mapping[str, Any], *, page: str = "", source: str = "",
               key: str = "") -> str:
        with reading_bodies() as reads:
            try:
                return self._render_page(name, context, page, source, key)
            finally:
                self.last_reads = frozenset(reads)

    def take_reads(self) -> frozenset[str] | None:
        reads, self.last_reads = self.last_reads, None
        return reads

    def _render_page(self, name: str, context: Mapping[str, Any], page: str, source: str, key: str) -> str:
        meta = context["page"]
        if name == ALIAS_TEMPLATE:
            return _alias_page(str(context["target"]), self.config.language_code or "en-us")
        query = _page_query(self.config, str(meta.kind), context)
        if name == SITEMAP:   # the site's sitemap layout, its `.` the sitemap (every page), else Hugo's own
            query = PageQuery("sitemap", "sitemap", language=query.language)
        output_format = _output_format(name)
        if output_format:
            query = replace(query, output_format=output_format)
        chosen = self.layouts.choose(query)
        if chosen is None and name == SITEMAP:
            return sitemap_xml(self._hugo_site(context["site"]))
        if chosen is None and name in (FEED, ROBOTS):   # Hugo's own template of the output
            return self._feed(rss_feed(self._dot(context))) if name == FEED else ROBOTS_TXT
        if chosen is None:
            raise SourceError(source or "layouts/", 1, f"no layout of the site fits {page} (a {name} page); add "
                              "one, as Hugo would need", stage="template")
        layout, base = chosen
        if name.startswith(PAGE_FORMAT) and self.config.hugo_page_outputs.get(output_format, {}).get("plain"):
            layout = replace(layout, text=True)   # a plain-text format's layout runs as a text/template
            base = replace(base, text=True) if base is not None else None
        probed = self._probed.pop(self._probe_key(str(meta.kind), context), None) if not output_format else None
        if probed is not None:   # the list's first page, rendered already to count its pages
            note_body_reads(probed[2])
            published = dict(probed[1])
            html = self._finished(probed[0], str(meta.kind), context, published)
            self._record(key, published)
            return html
        dot = self._dot(context) if name != SITEMAP else HugoPage(self._hugo_site(context["site"]), "sitemap",
                                                                  title=self.config.title, url="/sitemap.xml")
        try:
            with publishing(self.pipes) as published:
                html = self._render(layout, base, dot)
        except GoTemplateError as error:
            raise SourceError(layout.path, error.line, f"{error.message} while rendering {page}; port the layout "
                                                       "to templates/", stage="template") from error
        except SassError as error:   # the site's own stylesheet is wrong: an error there, as in Hugo
            partial = _failing_partial(error) or layout.path
            raise SourceError(error.path, error.line, f"{error.message} (css.Sass of {error.asset} in {partial}, "
                              f"rendering {page})", stage="sass", column=error.column) from error
        except Exception as error:  # noqa: BLE001 - any failure of a site's layout is that layout's error
            partial = _failing_partial(error)
            where = f" (in {partial})" if partial and partial != layout.path else ""
            raise SourceError(layout.path, 1, f"{type(error).__name__}: {error}{where} while rendering {page}"
                              + (f" from {source}" if source else ""), stage="template") from error
        if name == FEED:
            html = self._feed(html)
        elif not output_format:
            html = self._finished(html, str(meta.kind), context, published)
        self._record(key, published)
        return html

    def _feed(self, xml: str) -> str:
        """An RSS feed as Hugo publishes it: its site-relative URLs absolute against the whole site's base URL
        (a language's own pages' URLs hold its folder already), whatever its template wrote."""
        return absolute_urls_in_xml(xml, self._top.base_url or "/")

    def _finished(self, html: str, kind: str, context: Mapping[str, Any], published: dict[str, str]) -> str:
        """The page as published: the home page names its generator; CDN KaTeX and mermaid are blogbuild's
        (local_libraries, published with the render's files); typeset math links KaTeX's stylesheet; relativeURLs
        and canonifyURLs rewrite its site-relative URLs, blogbuild's own among them."""
        html = _with_generator(html) if kind == "home" else html
        if not getattr(self.config, "cdn_assets", False):
            html, vendored = local_libraries(html, self.pipes.site_url)
            published.update(vendored)
        if 'class="katex' in html and "</head>" in html and "katex.min.css" not in html:
            from ..media.assets import asset_url
            html = html.replace("</head>", f'<link rel="stylesheet" href="{asset_url("katex_css", self.config)}">\n'
                                "</head>", 1)
        html = self._rewritten_urls(html, context)   # blogbuild's own KaTeX links are rewritten too
        return _minified(html) if getattr(self.config, "hugo_minify_output", False) else html

    def _rewritten_urls(self, html: str, context: Mapping[str, Any]) -> str:
        """The page's site-relative URLs as relativeURLs or canonifyURLs has Hugo write them after rendering."""
        rewrite = getattr(self.config, "hugo_url_rewrite", "")
        meta = context.get("page")
        if not rewrite or meta is None:
            return html
        top = self._top
        if rewrite == "canonify":
            return site_urls_in_html(html, top.base_url, absolute=True)
        # The page's file under the output folder ("zh/posts/a/index.html"), from its URL under the whole site's.
        url = self.config.site_url(str(meta.url))
        path = url[len(top.base_path):] if url.startswith(top.base_path) else url.lstrip("/")
        return site_urls_in_html(html, dotted_path(path + "index.html" if path.endswith("/") or not path else path),
                                 absolute=False)

    # -- what the Planner asks of a page engine ----------------------------------------------------
    def closure(self, name: str) -> tuple[str, bool]:
        return self._closure, True

    @functools.cached_property
    def _closure(self) -> str:
        """The hash of every template a page may use (the same for every page: asked once a page, made once)."""
        sources = self._dependencies
        return fingerprint_of(*sources, *sources.values())

    def mentions(self, name: str, marker: str) -> bool:
        return any(marker in text for text in self.dependencies(name).values())

    def paginates(self, name: str) -> bool:
        """Whether any layout asks for a paginator (which list does, page_count finds out)."""
        return self.mentions(name, ".Paginat")

    def writes(self, name: str, context: Mapping[str, Any]) -> bool:
        """Whether a layout fits the page in the output format of name (Hugo writes none, and warns, else); an
        alias, a feed, robots.txt and the sitemap always (Hugo's own template when the site has none)."""
        if name in (ALIAS_TEMPLATE, FEED, ROBOTS, SITEMAP):
            return True
        query = _page_query(self.config, str(context["page"].kind), context)
        output_format = _output_format(name)
        return self.layouts.choose(replace(query, output_format=output_format) if output_format else query) is not None

    def page_count(self, name: str, context: Mapping[str, Any]) -> int | None:
        """The number of pages of the pager the layout makes on the list's first page (Hugo pages the list
        the layout gives .Paginate, or .Pages for .Paginator), 0 when it makes none; None when that render
        fails (the page's own render reports why)."""
        chosen = self.layouts.choose(_page_query(self.config, str(context["page"].kind), context))
        key = self._probe_key(str(context["page"].kind), context)
        known = self._counts.get(self._closure, context["site"], key[1:]) if chosen is not None else None
        if chosen is None or known is not None:
            return known
        dot = self._dot(context)
        try:
            with publishing(self.pipes) as published, reading_bodies() as reads:
                html = self._render(chosen[0], chosen[1], dot)
        except Exception:  # noqa: BLE001 - the page's own render reports it
            return None
        if key[0] != self._probed_site:   # a new build's site: the last one's pages are stale
            self._probed.clear()
            self._probed_site = key[0]
        self._probed[key] = (html, published, frozenset(reads))
        count = max(1, dot.pager.TotalPages) if dot.pager is not None else 0   # an empty list's pager is page 1
        return self._counts.put(self._closure, context["site"], key[1:], count, reads)

    def _probe_key(self, kind: str, context: Mapping[str, Any]) -> tuple[Any, ...]:
        paginator = context.get("paginator")
        return (id(context["site"]), _page_query(self.config, kind, context), paginator.number if paginator is not None else 0)

    def preload(self, names: Sequence[str]) -> None:
        _compile_all(self.layouts, self.go)

    def closures(self) -> TemplateFacts:
        return TemplateFacts(counts=dict(self._counts.known))

    def remember_closures(self, facts: TemplateFacts) -> None:
        self._counts.remember(facts.counts)

    # -- the files a render published besides its page ----------------------------------------------
    def keep_files_in(self, folder: Path) -> None:
        """Keep the published bytes (by digest) and each page's record (by key) in folder."""
        self.pipes.store = folder
        # Each language's engine its own records: compacting one language's keeps no other's.
        language = re.sub(r"[^a-z0-9_-]", "_", (self.config.language or "").lower())
        self._records.keep_in(folder / (f"pages-{language}" if language else "pages"))

    def _record(self, key: str, published: Mapping[str, str]) -> None:
        self._records.record(key, dict(published))

    def render_content_with(self, render: Callable[[Any, dict[str, Any], Sequence[Any]], Any]) -> None:
        """A page whose shortcodes or render hooks read a key of its Store that its layouts set before they read
        its content (LoveIt's code blocks read the "params" its init.html sets) has its content rendered again
        by render (post, Store, the site's posts) then, as Hugo renders content when a layout first reads it."""
        self._content_again = render

    def content_publishing(self) -> functools.partial[Any]:
        """A page's content renders with the layouts' Hugo Pipes: its shortcodes and render hooks publish as
        the layouts do (the same assets, URLs and kept bytes), recorded in the post (Post.published_files) and
        published by each render that reads the content (HugoPage._content_rendered)."""
        return functools.partial(publishing, self.pipes)

    def page_files(self, keys: Iterable[str], *, every: bool = False) -> list[OutputFile]:
        """The files the pages of these keys published (their first publisher's bytes for a path two pages
        published differently), in path order. every: these are all the site's pages, so the records of any
        other key are dropped from the cache."""
        found: dict[str, str] = {}
        asked = list(keys)
        for key in asked:
            for target, digest in self._records.get(key):
                found.setdefault(target, digest)
        if every:
            self._records.compact(set(asked))
        return [file for file in (_published_file(self.pipes, target, digest) for target, digest in sorted(found.items()))
                if file is not None]

    # -- helpers -----------------------------------------------------------------------------------
    def _render(self, layout: GoSource, base: GoSource | None, dot: HugoPage) -> str:
        go = self._site_go
        if go is None or go.site is not dot.Site:   # one per build: its partials' named templates found once
            go = self._site_go = replace(self.go, site=dot.Site)
        return render_layout(base, layout, dot, go.state(self._markdown))

    def _dot(self, context: Mapping[str, Any]) -> HugoPage:
        return _page_for(self._hugo_site(context["site"]), str(context["page"].kind), context)

    def _hugo_site(self, site: Site) -> HugoSite:
        known = self._sites.get(id(site))
        if known is not None and known[0]() is site:
            return known[1]
        again = self._content_again
        hugo = HugoSite(site, self.go.site, has_cjk=self.config.has_cjk_language, markdownify=self._markdown,
                        views=self._view, content_again=None if again is None
                        else lambda post, store: again(post, store, site.pages))
        # A new build: its resources are made again (a bundle's image may have changed), and partialCached keeps a
        # result for this build only (the page that ran a cached partial recorded what it published, and the
        # output is the union of every page's record).
        self.pipes.new_build()
        self.go.cache.clear()
        new_build()
        identity = id(site)
        self._sites = {identity: (weakref.ref(site, lambda _: self._sites.pop(identity, None)), hugo)}
        self._markdownified = _Markdownified(self.config, self.go)
        return hugo

    def _view(self, page: HugoPage, name: str) -> Markup:
        """`.Render NAME`: the page through the site's layout named NAME, found as Hugo finds it for the page."""
        query = PageQuery(page.Kind, page.lookup_path(), str(page.Params.get("type") or ""),
                          language=self.config.language or "")
        chosen = self.layouts.view(query, name)
        if chosen is None:
            raise HugoFunctionError(f'.Render: no layout named "{name}" fits {page.RelPermalink} (add '
                                    f'layouts/_default/{name}.html, as Hugo would need)')
        return Markup(self._render(chosen[0], chosen[1], page))

    def _markdown(self, text: str) -> str:
        """markdownify's markdown, through the site's render hooks as Hugo's markdownify runs them."""
        return self._markdownified(text)


class _PageCounts:
    """Each list's page count as the render of its first page found it, by what that depends on (the layouts, the
    configuration, the front matter of every page, the list and its page), with the posts' bodies the render read:
    a rebuild that changed none of them plans the list without rendering its first page again. Kept with a build's
    state (TemplateFacts.counts)."""

    def __init__(self, config: SiteConfig) -> None:
        self.known: dict[str, tuple[int, Reads]] = {}   # what the last build planned with (and what it found)
        self._config = fingerprint_of(repr(config))
        self._earlier: dict[str, tuple[int, Reads]] = {}   # what builds before it found (this process's, or saved)
        self._site = 0   # the id of the Site the last build planned

    def remember(self, known: dict[str, tuple[int, Reads]]) -> None:
        self._earlier.update(known)

    def _key(self, layouts: str, site: Site, page: tuple[Any, ...]) -> str:
        if id(site) != self._site:   # a new build: what the last one used is kept, nothing older
            self._earlier, self.known, self._site = self.known or self._earlier, {}, id(site)
        return fingerprint_of(layouts, self._config, front_key(site), repr(page))

    def get(self, layouts: str, site: Site, page: tuple[Any, ...]) -> int | None:
        key = self._key(layouts, site, page)
        known = self.known.get(key) or self._earlier.get(key)
        if known is None or not reads_hold(known[1], bodies_of(site)):
            return None
        self.known[key] = known
        return known[0]

    def put(self, layouts: str, site: Site, page: tuple[Any, ...], count: int, reads: Iterable[str]) -> int:
        self.known[self._key(layouts, site, page)] = (count, page_reads(reads, bodies_of(site)))
        return count


class _Markdownified:
    """markdownify for one build: a text's HTML kept while no render hook that may draw it could draw it
    differently the next time (a footer's `site.Copyright | markdownify` runs on every page, 0.04-0.6 ms each
    time for the same HTML). A text with a shortcode's braces is rendered each time."""

    def __init__(self, config: SiteConfig, go: GoTemplates) -> None:
        self.config, self.go = config, go
        self.kept: dict[str, str] = {}
        self.impure = _impure_hook_kinds(go)

    def __call__(self, text: str) -> str:
        text = str(text)
        html = self.kept.get(text)
        if html is None and plain_line(text, self.config.markup):   # a title: no parse (archives list thousands)
            html = self.kept[text] = f"<p>{text}</p>"
        if html is None:
            html = render_markdown(text, path=self.config.config_path or "<config>", config=self.config,
                                   shortcodes=ShortcodeSet(go=self.go)).html.strip()
            if "{{" not in text and not any(_may_draw(kind, text) for kind in self.impure):
                self.kept[text] = html
        return html


def _impure_hook_kinds(go: GoTemplates) -> frozenset[str]:
    """The kinds (codeblock, link, ...) of the site's render hooks that may draw differently for the same
    markdown during a build: a hook, or a partial it calls, that is not pure (purity.py: it writes the page's
    Store, as the usual mermaid hook does, publishes with Hugo Pipes, reads the clock, ...)."""
    hooks = {f"\0hook {name}": source for name, source in go.runnable_hooks().items()}   # no partial's key
    templates = {**go.partials, **hooks}
    known: dict[str, bool] = {}
    return frozenset(key.removeprefix("\0hook render-").split("-", 1)[0] for key in hooks
                     if not is_pure(key, templates, known))


# What a markdown text must hold for a render hook of each kind to run on it (a superset: a text without any of
# these has no such element). A passthrough's delimiters are the site's to choose: any text may hold one.
_HOOK_MARKS = {"codeblock": ("`", "~", "\t", "    "), "image": ("!",), "link": ("[", "<", ":", "@", "www."),
               "heading": ("#", "\n"), "blockquote": (">",), "table": ("|",)}


def _may_draw(kind: str, text: str) -> bool:
    """Whether a render hook of kind may run on markdown text (any text, for a kind not known here)."""
    marks = _HOOK_MARKS.get(kind)
    return marks is None or any(mark in text for mark in marks)


def _page_for(site: HugoSite, kind: str, context: Mapping[str, Any]) -> HugoPage:
    """The page being rendered, as Hugo's templates see it, a fresh object (its paginator is this render's)."""
    paginator = context.get("paginator")
    if kind == "post":
        page = HugoPage(site, "page", post=context["post"])
    elif kind == "home":
        page = HugoPage(site, "home", title=site.Title, url="/")
    elif kind == "section":
        page = HugoPage(site, "section", section=context["section"])
    elif kind in ("term", "series"):
        page = HugoPage(site, "term", taxonomy=context["taxonomy"], term=context["term"])
    elif kind == "terms":
        page = HugoPage(site, "taxonomy", taxonomy=context["taxonomy"])
    else:
        page = site.not_found_page()
    if paginator is not None:
        page.page_number = paginator.number
    return page


def _go_text(text: str) -> Any:
    """A Go template's text as its translation, or its GoTemplateError (resources.ExecuteAsTemplate's)."""
    return GoSource("", text).file


def _failing_partial(error: BaseException) -> str:
    """The partial file a render failed in (the innermost partial call of the traceback), "" when none."""
    found = ""
    traceback = error.__traceback__
    while traceback is not None:
        frame = traceback.tb_frame
        if frame.f_code.co_name == "partial" and frame.f_code.co_filename.endswith("runner.py"):
            source = frame.f_locals.get("source")
            found = source.path if isinstance(source, GoSource) else found
        traceback = traceback.tb_next
    return found


def _minified(page: str) -> str:
    """An HTML page minified as Hugo's minifyOutput has it (tdewolff's defaults: the document's tags and every end
    tag kept, comments dropped, inline CSS and JavaScript minified), by minify-html; anything else (a plain-text
    output) as it is."""
    if not page.lstrip()[:15].lower().startswith(("<!doctype html", "<html")):
        return page
    import minify_html
    return str(minify_html.minify(page, keep_closing_tags=True, keep_html_and_head_opening_tags=True,
                                  minify_css=True, minify_js=True))


def _top_site(config: SiteConfig) -> SiteConfig:
    """The config whose URLs are the whole site's (a language's site without its prefix): where Hugo Pipes
    publish."""
    prefix = config.language_folder
    if not prefix or not config.base_url.endswith(prefix):
        return config
    return replace(config, base_url=config.base_url[:-len(prefix)])


def _alias_page(target: str, language: str) -> str:
    """Hugo's alias page: a redirect to target (non-ASCII percent-encoded), in the config's language code as
    written, byte for byte as Hugo writes it."""
    import html
    url = html.escape(hugo_escapes(target), quote=True)
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(language)}">\n\t<head>\n\t\t<title>{url}</title>\n'
            f'\t\t<link rel="canonical" href="{url}">\n\t\t<meta charset="utf-8">\n'
            f'\t\t<meta http-equiv="refresh" content="0; url={url}">\n\t</head>\n</html>\n')


def _published_file(pipes: Pipes, target: str, digest: str) -> OutputFile | None:
    """The file a page's render published at target: the bytes Hugo Pipes kept by digest, or a library it loads
    from blogbuild's copy (local_libraries: None for a file blogbuild no longer ships)."""
    if digest.startswith(VENDORED):
        vendored = vendored_file(digest)
        return OutputFile(target, source=str(vendored), shared=True) if vendored is not None else None
    if pipes.store is None:
        return OutputFile(target, pipes.kept[digest], shared=True)
    return OutputFile(target, source=str(pipes.stored(digest)), from_cache=True, shared=True)


def _with_generator(html: str) -> str:
    """The home page names its generator before </head> unless it names one itself, as Hugo does."""
    if 'name="generator"' in html or "</head>" not in html:
        return html
    return html.replace("</head>", f'\t<meta name="generator" content="blogbuild {__version__}">\n</head>', 1)
