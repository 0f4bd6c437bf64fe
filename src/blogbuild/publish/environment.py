"""The Jinja environment pages render in: the site's templates over the theme's, read only inside the site,
blogbuild's filters and globals (URLs, dates, assets, cards, feeds, fragments rendered once, Hugo's
markdownify for config texts, a Hugo site's extension partials) beside the theme's own."""
from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..config import SiteConfig
from ..core.dates import date_locale, shown_date
from ..core.model import Post
from ..core.urls import path_segment, term_path, urlize
from ..core.version import __version__
from ..templating.environment import jinja_environment
from ..templating.jinja import JinjaEngine
from ..templating.markdownify import markdownify
from ..themes import Theme
from ..themes.default import DEFAULT_THEME

# Template text that shows site-wide lists: a page using such a template depends on every post.
_SITE_WIDE_MARKERS = ("site.posts", "site.pages", "site.taxonomies", "site.sections", "site.archives",
                      "site.taxonomy(", "site.nav(", "site.navigation")


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
    theme's globals beside blogbuild's."""
    from ..media.assets import ASSETS, asset_url, import_map_integrity
    from ..disk.sources import site_folders

    locale = date_locale(config.date_language, config.language_code)
    filters = {"url": _once_per_value(config.site_url), "absurl": config.absolute_url,
               "date_format": _once_per_value(date_format), "isodate": _once_per_value(isodate),
               "shown_date": _once_per_value(partial(shown_date, layout=config.theme.date_format, locale=locale)),
               "urlize": urlize}
    globals_ = {"assets": ASSETS, "asset_url": lambda name: asset_url(name, config),
                "sri": functools.partial(_sri_attributes, config),
                "version": __version__, "config": config, "once": FragmentCache(),
                "term_url": lambda taxonomy, name: term_url(config, taxonomy, name),
                "feed_alternates": lambda url: _feed_alternates(config, url),
                "social_card": lambda post, nav=None: _social_card(config, post, nav),
                "markdownify": functools.lru_cache(maxsize=16)(partial(_config_markdownify, config)),
                "hugo_extend": partial(_hugo_extend, config, go),
                "mermaid_import_map": lambda: import_map_integrity("mermaid")}
    loader = _SiteLoader(template_dirs, site_folders(config))
    environment: jinja2.Environment = jinja_environment(
        loader=loader, autoescape=jinja2.select_autoescape(["html", "xml"]), trim_blocks=True, globals=globals_,
        filters=filters)
    environment.globals.update(theme.globals(config))
    # The default theme's templates as the package compiled them (a site's own template compiles as before).
    from ..templating.packaged import packaged_templates
    environment.bytecode_cache = packaged_templates(environment)
    return environment


def page_engine(config: SiteConfig, template_dirs: Sequence[Path], go: Any = None,
                theme: Theme = DEFAULT_THEME) -> JinjaEngine:
    """The engine pages render with: make_environment's templates, a page depending on every post when its
    templates show site-wide lists."""
    return JinjaEngine(make_environment(config, template_dirs, go, theme), _SITE_WIDE_MARKERS)


_HUGO_KINDS = {"post": "page", "home": "home", "section": "section", "term": "term", "terms": "taxonomy"}


def _hugo_extend(config: SiteConfig, go: Any, name: str, page: Any, post: Any = None) -> Markup:
    """PaperMod's extension partial (extend_head.html, extend_footer.html) of a Hugo site for one page, its `.`
    the page as Hugo's templates see it (gotemplate/); "" when the site has none."""
    if go is None or name not in go.extend_partials():
        return Markup("")
    from ..hugo.gotemplate import page_view
    info = page_view(config, title=str(page.title or ""), url=page.url,
                     params=post.params if post is not None else {}, kind=_HUGO_KINDS.get(str(page.kind), "page"),
                     section=post.section if post is not None else "", date=post.date if post is not None else None,
                     site=go.site)
    return Markup(go.extend(name, info, partial(config_markdown, config)))


def _feed_alternates(config: SiteConfig, url: str) -> list[tuple[str, str, str]]:
    """(format, media type, url) of the feeds of the list at url (a folder, or its RSS feed's url)."""
    from .feeds import feed_alternates
    folder = url if url.endswith("/") else url.rsplit("/", 1)[0] + "/"
    return feed_alternates(config, folder)


def _social_card(config: SiteConfig, post: Post, nav: Any) -> str:
    """The site-relative URL of the post's generated social card, '' when it has none (cards.py)."""
    from ..media.card_paths import card_path
    path = card_path(post, nav, config)
    return "/" + path if path else ""


def config_markdown(config: SiteConfig, text: str) -> str:
    """A config text (PaperMod's homeInfoParams, a copyright) as HTML: markdown with raw HTML, with the site's
    markup settings, without the space around it."""
    from ..markdown import render_markdown
    return render_markdown(str(text), path=config.config_path or "<config>", config=config).html.strip()


def _config_markdownify(config: SiteConfig, text: str, inline: bool = False) -> Markup:
    """markdownify(text) in a page template: the whole HTML, as Hugo's RenderString makes it; inline=true: Hugo's
    markdownify (a lone paragraph loses its <p>)."""
    return markdownify(partial(config_markdown, config), text, inline=inline)


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
    return f"/{path_segment(taxonomy)}/{term_path(str(name))}/"
