"""SiteConfig and load_config(): blogbuild.yaml (or .toml) with defaults, checked key by key."""
from __future__ import annotations

from dataclasses import field, fields, replace
from functools import cached_property, partial
from pathlib import Path
from typing import Any, Mapping, Protocol

from .cards import CardOptions, parse_card_options, site_font_problem
from ..core.errors import SourceError, parser_problem
from .images import ImageOptions, parse_image_options
from .integrations import Analytics, Comments, parse_analytics, parse_comments
from ..core.keys import key_line, nested_key_line
from ..core.urls import url_origin
from .markup import MarkupConfig, chroma_setting, markup_from_mapping
from ..core.names import CONFIG_NAMES
from ..themes.options import Intro, ThemeOptions, parse_theme_options
from ..core.records import dataclass

MATH_RENDER_CHOICES = ("build", "browser")

@dataclass(frozen=True)
class MenuItem:
    """One entry of the site menu; children make a nested menu."""

    name: str
    url: str
    weight: int = 0
    children: tuple["MenuItem", ...] = ()
    group: str = ""          # a heading over the entries of one group in a dropdown (Hugo menus' params.group)
    page_ref: str = ""       # Hugo's pageRef as written ("/posts"): a Hugo site's own layouts link the entry to it


@dataclass(frozen=True)
class Language:
    """One language of a multilingual site: its key (as file names and URLs write it), the name its switch shows,
    where its site is published, and the config keys it sets differently from the default language."""

    key: str                 # "en": x.en.md is this language's, its pages are under /en/ (but see prefix)
    name: str                # "English": what the language switch shows (Hugo's languageName)
    weight: int = 0
    prefix: str = ""         # "en/": the folder of public/ its site is published in; "" for the default language
    values: tuple[tuple[str, Any], ...] = ()   # SiteConfig fields it sets to other values (title, menu, params, ...)

    def value(self, name: str, default: Any) -> Any:
        """The language's own value of a SiteConfig field, or default."""
        return next((value for key, value in self.values if key == name), default)


@dataclass(frozen=True)
class SiteConfig:
    """Everything a build needs to know besides the content; frozen, built by load_config()."""

    title: str = "My Blog"
    base_url: str = "http://localhost:1313/"
    language_code: str = "zh-CN"
    # The language dates are written in (theme.date_format's month and weekday names, Hugo's :date_* layouts), as
    # Hugo names its languages (zh, ja, de, pt-br); '' = language_code's. A Hugo site's is its language key.
    date_language: str = ""
    author: str = ""
    description: str = ""
    copyright: str = ""
    paginate: int = 10
    aliases: bool = True                # front matter's aliases: redirect pages (Hugo's disableAliases: true turns off)
    pagination_aliases: bool = False    # Hugo's LIST/page/1/ redirect to LIST/ for every paginated list
    summary_length: int = 140           # characters of CJK text (a Latin word counts its length)
    has_cjk_language: bool = False      # Hugo's hasCJKLanguage: a Hugo layout's .WordCount counts CJK characters
    hugo_themes: tuple[str, ...] = ()   # Hugo's theme (themes/NAME/, first wins): whose layouts a Hugo site uses
    # Hugo's related-content config (hugo/related.py's config_mapping) for a Hugo site's own layouts' .Related;
    # empty: Hugo's default.
    hugo_related: Mapping[str, Any] = field(default_factory=dict)
    hugo_cascade: Any = None            # the Hugo config's cascade (core/cascade.py), as written
    hugo_title: str | None = None       # a Hugo site's title as its own layouts read .Site.Title ("" when it sets none)
    time_zone: str = ""                 # Hugo's timeZone: where a date without an offset is read ("" is UTC)
    rss_file: str = "index.xml"         # every list's RSS feed's file name (Hugo's outputFormats.RSS.baseName)
    hugo_summary_words: int = 70        # Hugo's summaryLength (words), for a Hugo site's own layouts' .Summary
    hugo_home_json: bool = False        # outputs.home names JSON: a Hugo site's own home.json layout writes index.json
    hugo_rss_limit: int = 0             # services.rss.limit: the items of a Hugo site's feeds (0: all)
    # The kinds of list whose outputs include RSS (a Hugo config's outputs.home/section/taxonomy/term): a list of
    # another kind has no feed, and its layouts see no RSS output format.
    hugo_rss_kinds: tuple[str, ...] = ("home", "section", "taxonomy", "term")
    # Hugo's sitemap config (changefreq, priority): every page's .Sitemap unless its front matter says otherwise.
    hugo_sitemap: Mapping[str, Any] = field(default_factory=dict)
    hugo_privacy: Mapping[str, Any] = field(default_factory=dict)   # privacy: site.Config.Privacy of a Hugo site
    # disableKinds' page kinds (home, page, section, taxonomy, term, 404): no page of these is written
    hugo_disabled_kinds: tuple[str, ...] = ()
    hugo_inline_shortcodes: bool = False   # enableInlineShortcodes: a post's `{{< x.inline >}}` templates run
    # A Hugo site's relativeURLs ("relative") or canonifyURLs ("canonify"): how its own layouts' pages have their
    # site-relative URLs rewritten after rendering (hugo/abs_urls.py); "" leaves them as written.
    hugo_url_rewrite: str = ""
    # A Hugo site's minify.minifyOutput: its own layouts' HTML pages are minified (minify-html) as Hugo minifies them.
    hugo_minify_output: bool = False
    hugo_disqus_shortname: str = ""     # services.disqus.shortname: Hugo's disqus.html partial of a Hugo site
    # A Hugo config's top-level author and social maps, which themes before Hugo 0.124 read as .Site.Author and
    # .Site.Social (hugo/gotemplate/site_model.py).
    hugo_site_maps: Mapping[str, Any] = field(default_factory=dict)
    # Lists show pages with `layout: archives` or `search` too, as Hugo lists every page (a site's own layouts).
    list_layout_pages: bool = False
    # The output formats a Hugo config defines that its pages are written in besides HTML (outputs.page), by name:
    # {"file": "index.md", "media_type": …, "rel": …, "plain": …} (hugo/config.py).
    hugo_page_outputs: Mapping[str, Any] = field(default_factory=dict)
    # A Hugo config's menus as written ({"menus": {name: [entry, …]}, "section_pages_menu": name}): the menus of
    # its own layouts (hugo/gotemplate/menus.py), entries pages declare included; None: not a Hugo config.
    hugo_menus: Mapping[str, Any] | None = None
    cjk_reading_rate: int = 300         # CJK characters per minute
    latin_reading_rate: int = 200       # English words per minute
    feed_limit: int = 20                # items per feed, 0 = all
    feed_content: str = "summary"       # what a feed item carries: "summary" or "full" content
    # The search page's index: "whole" (index.json, every post's text, read at once) or "sharded" (search/: a
    # small meta file, term shards and text chunks fetched per query; search_index.py). whole stays the default
    # until sharded costs a build no more CPU (docs/performance.md, "What each setting costs").
    search_index: str = "whole"
    feeds: tuple[str, ...] = ("rss", "atom", "json")   # feed formats published for every list
    sitemap: bool = True                # sitemap.xml (a Hugo site's own layouts: unless disableKinds says sitemap)
    robots_txt: bool = True             # robots.txt (a Hugo site's own layouts: only with enableRobotsTXT)
    taxonomies: tuple[str, ...] = ("tags", "categories", "series")
    related_count: int = 5
    menu: tuple[MenuItem, ...] = ()
    social: tuple[tuple[str, str], ...] = ()     # (name, url) pairs, in order
    # KaTeX and mermaid ship inside blogbuild and are served from the site; cdn_assets: true loads them
    # from the public CDN (with SRI) instead. local_assets is what older configs said for the default.
    cdn_assets: bool = False
    local_assets: bool = True
    math_render: str = "build"          # "build": KaTeX typesets at build time; "browser": KaTeX in the page
    math_macros: tuple[tuple[str, str], ...] = ()   # KaTeX macros, e.g. (("\\RR", "\\mathbb{R}"),)
    cjk_emphasis: bool = True           # let ** and * close next to CJK punctuation
    code_style_light: str = "default"     # Pygments' friendly fails WCAG contrast on comments
    code_style_dark: str = "github-dark"
    drafts: bool = False
    future: bool = False
    expired: bool = False               # publish posts past their expiryDate (Hugo's buildExpired, --expired)
    strict: bool = False
    params: Mapping[str, Any] = field(default_factory=dict)
    markup: MarkupConfig = MarkupConfig()    # markdown settings, Hugo's `markup:` names (markup_config.py)
    # Hugo's permalinks: section -> pattern such as "/:year/:month/:slug/" (or page: {section: pattern}).
    permalinks: Mapping[str, Any] = field(default_factory=dict)
    # Messages about the config itself (Hugo keys that did not carry over), reported once per build as warnings.
    notices: tuple[str, ...] = ()
    comments: Comments = Comments()     # giscus or utterances under posts (integrations.py)
    analytics: Analytics = Analytics()  # Plausible, Umami, GA4, a snippet: published pages only
    images: ImageOptions = ImageOptions()   # sizes and resized variants of local images (images.py)
    cards: CardOptions = CardOptions()      # a generated social card per post (cards.py)
    theme: ThemeOptions = ThemeOptions()    # what the default theme shows (themes/options.py; a Hugo site: its PaperMod params)
    serving: bool = False               # pages for `blogbuild serve` (no analytics); set by serve
    # A multilingual site: every language, the default first (then by weight), each built as a site of its own
    # (for_language()); () for a site of one language. language: the key of the language this config builds, ""
    # for the whole site (whose build builds every language).
    languages: tuple[Language, ...] = ()
    language: str = ""
    language_name: str = ""             # the language's name (Hugo's languageName; "" for its key)
    language_direction: str = ""        # rtl for a right-to-left language (Hugo's languageDirection); "" unset
    # Where things are; filled by load_config, not written in the file.
    root: str = "."
    source_dir: str = "content"
    output_dir: str = "public"
    templates_dir: str = "templates"
    static_dir: str = "static"
    config_path: str = ""

    @cached_property   # called for every link of every page: computed once per config
    def base_path(self) -> str:
        """The path part of base_url, '/' or '/blog/'."""
        rest = self.base_url.split("://", 1)[-1]
        path = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
        return path if path.endswith("/") else path + "/"

    @cached_property
    def origin(self) -> str:
        """The scheme and host of base_url ('https://example.org'); '' when base_url names none."""
        return url_origin(self.base_url)

    @cached_property
    def language_folder(self) -> str:
        """The folder ("fr/") this language's site is published in; "" for the default language's at the top
        (and for a site of one language)."""
        return next((item.prefix for item in self.languages if item.key == self.language), "")

    def absolute_url(self, url: str) -> str:
        """A site-relative url ('/posts/x/') made absolute with base_url."""
        if "://" in url:
            return url
        return self.base_url.rstrip("/") + "/" + url.lstrip("/")

    def site_url(self, url: str) -> str:
        """A site-relative url prefixed with the base path (for links inside pages)."""
        if "://" in url or url.startswith("#"):
            return url
        return self.base_path.rstrip("/") + "/" + url.lstrip("/")


# Keys a user writes in blogbuild.yaml, and the dataclass field each one sets.
_FILE_KEYS = {
    "title": "title", "base_url": "base_url", "baseurl": "base_url", "baseURL": "base_url",
    "language_code": "language_code", "languageCode": "language_code", "language_name": "language_name",
    "language_direction": "language_direction", "date_language": "date_language",
    "author": "author",
    "description": "description", "copyright": "copyright", "paginate": "paginate",
    "aliases": "aliases", "pagination_aliases": "pagination_aliases",
    "summary_length": "summary_length", "cjk_reading_rate": "cjk_reading_rate", "has_cjk_language": "has_cjk_language",
    "latin_reading_rate": "latin_reading_rate", "feed_limit": "feed_limit",
    "feed_content": "feed_content", "feeds": "feeds", "search_index": "search_index", "comments": "comments",
    "sitemap": "sitemap", "robots_txt": "robots_txt", "hugo_themes": "hugo_themes",
    "hugo_related": "hugo_related", "hugo_summary_words": "hugo_summary_words", "hugo_title": "hugo_title",
    "time_zone": "time_zone",
    "rss_file": "rss_file",
    "hugo_cascade": "hugo_cascade",
    "hugo_home_json": "hugo_home_json", "hugo_rss_limit": "hugo_rss_limit", "hugo_rss_kinds": "hugo_rss_kinds",
    "hugo_sitemap": "hugo_sitemap", "hugo_menus": "hugo_menus", "hugo_privacy": "hugo_privacy",
    "hugo_url_rewrite": "hugo_url_rewrite", "hugo_minify_output": "hugo_minify_output",
    "hugo_disqus_shortname": "hugo_disqus_shortname", "hugo_site_maps": "hugo_site_maps",
    "hugo_page_outputs": "hugo_page_outputs", "hugo_disabled_kinds": "hugo_disabled_kinds",
    "hugo_inline_shortcodes": "hugo_inline_shortcodes",
    "analytics": "analytics",
    "images": "images", "cards": "cards", "theme": "theme",
    "taxonomies": "taxonomies", "related_count": "related_count", "menu": "menu",
    "social": "social", "intro": "intro", "local_assets": "local_assets",
    "cdn_assets": "cdn_assets", "math_render": "math_render", "math_macros": "math_macros",
    "cjk_emphasis": "cjk_emphasis", "code_style_light": "code_style_light",
    "code_style_dark": "code_style_dark", "params": "params", "markup": "markup",
    "enableEmoji": "enable_emoji", "enable_emoji": "enable_emoji",
    "permalinks": "permalinks",
    "source_dir": "source_dir", "output_dir": "output_dir",
    # What the build publishes (Hugo's buildDrafts, buildFuture, buildExpired); --drafts, --future, --expired too.
    "drafts": "drafts", "future": "future", "expired": "expired",
    # A multilingual site (Hugo's languages, defaultContentLanguage, defaultContentLanguageInSubdir).
    "languages": "languages", "default_language": "default_language",
    "default_language_in_subdir": "default_language_in_subdir",
}
# What a language's entry under `languages:` holds besides the config keys it sets for its own site.
_LANGUAGE_KEYS = ("language_name", "weight", "disabled")


def _fail(path: str, line: int, message: str) -> SourceError:
    return SourceError(path, line, message, stage="config")


def _fail_nested(path: str, text: str, line: int, name: str, message: str) -> SourceError:
    """An error at the line of `theme:`'s option name (the block's own line when the text does not show it)."""
    found = nested_key_line(text, ("theme", name)) if text else 0
    return _fail(path, found if found > line else line, message)


def _parse_menu(items: Any, path: str, line: int) -> tuple[MenuItem, ...]:
    if items in (None, ""):
        return ()
    if isinstance(items, Mapping) and "main" in items:   # Hugo's menu: {main: [...]}
        items = items["main"]
    if not isinstance(items, list):
        raise _fail(path, line, "menu must be a list of {name, url, weight, children} items")
    result = []
    for item in items:
        if not isinstance(item, Mapping) or "name" not in item:
            raise _fail(path, line, f"menu item {item!r} needs at least a name and a url")
        children = _parse_menu(item.get("children") or [], path, line)
        url = str(item.get("url", "") or "")
        page_ref = str(item.get("page_ref", "") or "")
        if not url and not children:
            raise _fail(path, line, f"menu item {item['name']!r} needs a url (or children)")
        try:
            weight = int(item.get("weight", 0) or 0)
        except (TypeError, ValueError):
            raise _fail(path, line, f"menu item {item['name']!r}: weight must be a whole number") from None
        result.append(MenuItem(str(item["name"]), url, weight, children, str(item.get("group") or ""), page_ref))
    result.sort(key=lambda item: item.weight)
    return tuple(result)


def _parse_social(value: Any, path: str, line: int) -> tuple[tuple[str, str], ...]:
    if not value:
        return ()
    if isinstance(value, Mapping):
        return tuple((str(name), str(url)) for name, url in value.items())
    if isinstance(value, list):
        pairs = []
        for item in value:
            if not isinstance(item, Mapping) or "name" not in item or "url" not in item:
                raise _fail(path, line, "social items need a name and a url")
            pairs.append((str(item["name"]), str(item["url"])))
        return tuple(pairs)
    raise _fail(path, line, "social must be a mapping of name: url")


def _parse_intro(value: Any, path: str, line: int) -> Intro:
    """intro: {title, text, markdown, image, image_width, image_height, image_title, buttons}."""
    if not isinstance(value, Mapping):
        raise _fail(path, line, "intro must be a mapping with title and text")
    known = tuple(item.name for item in fields(Intro))
    unknown = [str(key) for key in value if key not in known]
    if unknown:
        raise _fail(path, line, f"unknown intro key '{unknown[0]}'; intro takes {', '.join(known)}")
    values: dict[str, Any] = {name: str(value.get(name, "") or "") for name in ("title", "text", "image", "image_title")}
    if "buttons" in value:
        values["buttons"] = _parse_social(value["buttons"], path, line)
    if "markdown" in value:
        values["markdown"] = _coerce("intro.markdown", value["markdown"], False, path, line)
    for name in ("image_width", "image_height"):
        if name in value:
            values[name] = _coerce(f"intro.{name}", value[name], 0, path, line)
    return Intro(**values)


def _parse_feeds(name: str, value: Any, path: str, line: int) -> Any:
    """feed_content (summary | full), search_index (whole | sharded | none) or feeds (a list of rss, atom, json)."""
    if name == "search_index":
        if value not in ("whole", "sharded", "none"):
            raise _fail(path, line, f"search_index must be whole, sharded or none, not {value!r}")
        return value
    if name == "feed_content":
        if value not in ("summary", "full"):
            raise _fail(path, line, f"feed_content must be summary or full, not {value!r}")
        return value
    formats = [value] if isinstance(value, str) else value
    if not isinstance(formats, list) or any(item not in ("rss", "atom", "json") for item in formats):
        raise _fail(path, line, f"feeds must be a list of rss, atom and json, not {value!r}")
    return tuple(dict.fromkeys(formats))


def _coerce(name: str, value: Any, default: Any, path: str, line: int) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise _fail(path, line, f"{name} must be true or false, not {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _fail(path, line, f"{name} must be a whole number >= 0, not {value!r}")
        if name == "paginate" and value == 0:
            raise _fail(path, line, "paginate must be at least 1")
        return value
    if isinstance(default, str):
        if not isinstance(value, (str, int, float)):
            raise _fail(path, line, f"{name} must be text, not {type(value).__name__}")
        return str(value)
    return value


def _theme_folders(value: Any, path: str, line: int) -> tuple[str, ...]:
    """hugo_themes: a folder name under themes/, or a list of them (Hugo's theme key)."""
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(name, str) and name for name in names):
        raise _fail(path, line, "hugo_themes must be a theme's folder name under themes/, or a list of them")
    return tuple(names)


def config_from_mapping(data: Mapping[str, Any], *, path: str = "<config>", text: str = "",
                        root: str = ".") -> SiteConfig:
    """Check a parsed config mapping key by key and make a SiteConfig; unknown keys suggest a fix."""
    defaults = SiteConfig()
    values: dict[str, Any] = {}
    markup_mapping: Any = None
    enable_emoji: bool | None = None
    services: dict[str, tuple[Any, int]] = {}   # comments, analytics: read once the language is known
    intro: Intro | None = None                  # the theme's, whichever of intro: and theme: comes first
    for key, value in data.items():
        key = str(key)
        line = key_line(text, key, max_lines=0)
        target = _FILE_KEYS.get(key)
        if target in ("languages", "default_language", "default_language_in_subdir"):
            continue   # read once the rest of the config is (_with_languages)
        if target is None:
            import difflib   # only for a misspelt key
            close = difflib.get_close_matches(key, list(_FILE_KEYS), n=1, cutoff=0.6)
            hint = f"; did you mean '{close[0]}'?" if close else "; put site-specific values under params:"
            raise _fail(path, line, f"unknown config key '{key}'{hint}")
        if target == "menu":
            values["menu"] = _parse_menu(value, path, line)
        elif target == "social":
            values["social"] = _parse_social(value, path, line)
        elif target == "intro":
            intro = _parse_intro(value, path, line)
        elif target == "hugo_themes":
            values["hugo_themes"] = _theme_folders(value, path, line)
        elif target == "taxonomies":
            if isinstance(value, Mapping):
                names = tuple(str(plural) for plural in value.values())
            elif isinstance(value, list):
                names = tuple(str(name) for name in value)
            else:
                raise _fail(path, line, "taxonomies must be a list like [tags, categories, series]")
            values["taxonomies"] = names
        elif target == "markup":
            markup_mapping = value
        elif target == "enable_emoji":
            enable_emoji = _coerce(key, value, False, path, line)
        elif target in ("comments", "analytics"):
            services[target] = (value, line)
        elif target == "cards":
            values["cards"] = parse_card_options(value, partial(_fail, path, line))
            problem = site_font_problem(values["cards"].font, root) if values["cards"].font else ""
            if problem:
                raise _fail(path, nested_key_line(text, ("cards", "font")) if text else line, problem)
        elif target == "images":
            values["images"] = parse_image_options(value, partial(_fail, path, line))
        elif target == "theme":
            values["theme"] = parse_theme_options(value, partial(_fail, path, line), partial(_fail_nested, path, text,
                                                                                              line))
        elif target in ("feed_content", "feeds", "search_index"):
            values[target] = _parse_feeds(target, value, path, line)
        elif target == "math_macros":
            if not isinstance(value, Mapping) or not all(isinstance(name, str) and name.startswith("\\")
                                                         for name in value):
                raise _fail(path, line, "math_macros must be a mapping of '\\name': 'expansion' "
                            "(quote both: \"\\\\RR\": \"\\\\mathbb{R}\")")
            values["math_macros"] = tuple((str(name), str(expansion)) for name, expansion in value.items())
        elif target in ("params", "permalinks", "hugo_related", "hugo_sitemap", "hugo_menus", "hugo_privacy",
                        "hugo_page_outputs", "hugo_site_maps"):
            if not isinstance(value, Mapping):
                raise _fail(path, line, f"{key} must be a mapping")
            values[target] = dict(value)
        else:
            values[target] = _coerce(key, value, getattr(defaults, target), path, line)
    if intro is not None:
        values["theme"] = replace(values.get("theme", defaults.theme), intro=intro)
    if markup_mapping is not None or enable_emoji is not None:
        values["markup"] = markup_from_mapping(markup_mapping, path=path, text=text, enable_emoji=enable_emoji)
    _read_services(services, values, path)
    _check_together(values, path, text)
    base_url = values.get("base_url", defaults.base_url)
    if base_url and not base_url.endswith("/"):
        values["base_url"] = base_url + "/"
    config = replace(defaults, root=root, config_path=path if path != "<config>" else "", **values)
    return _with_languages(config, data, path, text, root) if "languages" in data else config


def _read_services(services: Mapping[str, tuple[Any, int]], values: dict[str, Any], path: str) -> None:
    """comments and analytics, read once the site's language is known (the comments' language is its)."""
    if "comments" in services:
        value, line = services["comments"]
        values["comments"] = parse_comments(value, values.get("language_code", SiteConfig().language_code),
                                            lambda message: _fail(path, line, message))
    if "analytics" in services:
        value, line = services["analytics"]
        values["analytics"] = parse_analytics(value, lambda message: _fail(path, line, message))


def _check_together(values: Mapping[str, Any], path: str, text: str) -> None:
    """The checks of keys read together: a math_render choice, local_assets against cdn_assets."""
    if values.get("math_render", "build") not in MATH_RENDER_CHOICES:
        raise _fail(path, key_line(text, "math_render", max_lines=0),
                    f"math_render must be one of {', '.join(MATH_RENDER_CHOICES)}, not {values['math_render']!r}")
    if values.get("local_assets") is True and values.get("cdn_assets") is True:
        raise _fail(path, key_line(text, "cdn_assets", max_lines=0),
                    "local_assets: true and cdn_assets: true contradict each other; keep one")


def _with_languages(config: SiteConfig, data: Mapping[str, Any], path: str, text: str, root: str) -> SiteConfig:
    """The config of the default language, holding every language (`languages:`, `default_language`,
    `default_language_in_subdir`); each language's entry is checked as a whole config over the top-level keys."""
    line = key_line(text, "languages", max_lines=0)
    entries = data["languages"]
    if not isinstance(entries, Mapping) or not all(isinstance(entry, Mapping) for entry in entries.values()):
        raise _fail(path, line, "languages must map each language's key to its settings, e.g. "
                    "languages: {en: {title: My Blog, language_code: en-US}}")
    enabled = {str(key): entry for key, entry in entries.items() if entry.get("disabled") is not True}
    default = str(data.get("default_language") or next(iter(enabled), ""))
    if default not in enabled:
        raise _fail(path, key_line(text, "default_language", max_lines=0) or line,
                    f"default_language {default!r} is not one of languages ({', '.join(enabled)}); name one of them")
    in_subdir = data.get("default_language_in_subdir", False)
    if not isinstance(in_subdir, bool):
        raise _fail(path, key_line(text, "default_language_in_subdir", max_lines=0),
                    "default_language_in_subdir must be true or false")
    top = {key: value for key, value in data.items()
           if _FILE_KEYS.get(str(key)) not in ("languages", "default_language", "default_language_in_subdir")}
    configs: dict[str, SiteConfig] = {}
    for key, entry in enabled.items():
        own = {name: value for name, value in entry.items() if name not in _LANGUAGE_KEYS}
        try:
            configs[key] = config_from_mapping({**top, **own}, path=path, text=text, root=root)
        except SourceError as error:
            raise _fail(path, nested_key_line(text, ("languages", key)) or line,
                        f"languages.{key}: {error.message}") from None
    base = configs[default]
    compared = [item.name for item in fields(SiteConfig) if item.name not in ("languages", "language")]
    languages = []
    for key, entry in enabled.items():
        weight = entry.get("weight", 0)
        # source_dir always: which language a content folder's files without a language key belong to; params
        # always: another language's pages read this language's (a translation's .Language.Params).
        values = (("source_dir", configs[key].source_dir), ("params", configs[key].params)) + tuple(
            (name, getattr(configs[key], name)) for name in compared
            if name not in ("source_dir", "params") and getattr(configs[key], name) != getattr(base, name))
        languages.append(Language(key, str(entry.get("language_name") or key),
                                  weight if isinstance(weight, int) else 0,
                                  f"{key}/" if key != default or in_subdir else "", values))
    languages.sort(key=lambda language: (language.key != default, language.weight, language.key))
    if len(languages) < 2:
        return base
    return replace(base, languages=tuple(languages))


def for_language(config: SiteConfig, key: str) -> SiteConfig:
    """The config of one language's own site: its values over the default language's, its pages under its prefix
    (base_url and its path end in /en/)."""
    language = next(item for item in config.languages if item.key == key)
    own = dict(language.values)
    own.pop("base_url", None)
    if language.prefix:
        own["menu"] = _menu_in_language(own.get("menu", config.menu), language.prefix, config.base_url)
    return replace(config, **own, language=key, base_url=config.base_url + language.prefix)


def _menu_in_language(items: tuple[MenuItem, ...], prefix: str, base_url: str) -> tuple[MenuItem, ...]:
    """A language's menu for its own site: a link into the language's folder ('/en/archives/') as a link of that
    site ('/archives/', under its base path); a link elsewhere on the host ('/zh/', '/about/') as written there,
    made absolute, as a Hugo menu's url is taken as it is."""
    root = "/" + base_url.split("://", 1)[-1].partition("/")[2]
    origin, inside = base_url[:len(base_url) - len(root)], root + prefix

    def placed(url: str) -> str:
        if not url.startswith("/") or url.startswith("//"):
            return url
        if url.startswith(inside) or url + "/" == inside:
            return "/" + url[len(inside):]
        return origin + url

    return tuple(replace(item, url=placed(item.url), children=_menu_in_language(item.children, prefix, base_url))
                 for item in items)


def find_config(root: Path) -> Path | None:
    """The config file in a site folder, or None when the site has none."""
    for name in CONFIG_NAMES:
        candidate = root / name
        if candidate.is_file():
            return candidate
    return None


class SiteOptions(Protocol):
    """What a command that builds the site (build, serve, check: their options in commands/) was asked for."""

    @property
    def root(self) -> str: ...

    @property
    def config(self) -> str | None: ...

    def config_overrides(self) -> dict[str, Any]:
        """The SiteConfig keys the command's flags set (None: keep the config file's value)."""
        ...


def load_config(path: str | Path | None = None, *, root: str | Path | None = None,
                overrides: Mapping[str, Any] | None = None) -> SiteConfig:
    """Read the config file (optional) and apply command-line overrides; errors name path:line."""
    if path is not None:
        given = Path(path)
        if not given.is_file():
            raise _fail(str(path), 0, "config file not found; check --config or create blogbuild.yaml")
        site_root = Path(root) if root is not None else given.parent
        config_path: Path | None = given
    else:
        site_root = Path(root) if root is not None else Path(".")
        config_path = find_config(site_root)
    data: Mapping[str, Any] = {}
    text = ""
    shown = ""
    # Here, not at the top, and only for a site without blogbuild.yaml: hugo/config.py reads config/'s option
    # blocks (so importing it first must work too), and it brings the Go-template translator with it.
    hugo = None
    if config_path is None:
        from ..hugo.config import read_hugo_config
        hugo = read_hugo_config(site_root)
    if hugo is not None:   # no blogbuild.yaml: the site's Hugo config, read as its blogbuild.yaml equivalent
        data, shown = hugo.values, hugo.path
    elif config_path is not None:
        shown = str(config_path)
        raw = config_path.read_bytes()
        try:
            text = raw.decode("utf-8-sig").replace("\r\n", "\n")
        except UnicodeDecodeError as error:
            line = raw[: error.start].count(b"\n") + 1
            raise _fail(shown, line, f"config is not UTF-8 text (byte 0x{raw[error.start]:02x}); "
                        "save it as UTF-8") from None
        data = _parse_config_text(text, shown)
    config = config_from_mapping(data, path=shown or "<config>", text=text, root=str(site_root))
    if hugo is not None:
        # One line for everything that did not carry over: keys, markup settings read but not honoured, and
        # the files under layouts/ and assets/.
        named = config.markup.ignored if not hugo.own_layouts else \
            tuple(name for name in config.markup.ignored if not chroma_setting(name))
        if named != config.markup.ignored:
            config = replace(config, markup=replace(config.markup, ignored=named))
        ignored = hugo.unused(named)
        from ..hugo.config import ignored_message
        notices = (ignored_message(ignored, hugo.where),) if ignored else ()
        if notices or hugo.notes:
            config = replace(config, notices=(*hugo.notes, *notices))
        if hugo.own_layouts:   # its own layouts render the pages: headings as goldmark writes them, no "#" link,
            # goldmark's emphasis (CommonMark's flanking rules: "**需求：**一款" stays as written, as on the Hugo
            # site), and no social card: no layout of its own names one
            config = replace(config, markup=replace(config.markup, heading_anchors=False, render_hooks=True,
                                                    east_asian_line_breaks=config.markup.hugo_east_asian_line_breaks),
                             cards=replace(config.cards, enabled=False), list_layout_pages=True, cjk_emphasis=False)
    elif config.markup.ignored:
        # Hugo's names that blogbuild.yaml may carry over but that change nothing here: said once.
        config = replace(config, notices=("markup settings blogbuild reads but does not apply: "
                                          f"{', '.join(config.markup.ignored)}",))
    config = _with_site_favicons(config)
    if overrides:
        known = {f.name for f in fields(SiteConfig)}
        config = replace(config, **{k: v for k, v in overrides.items() if k in known and v is not None})
        if config.base_url and not config.base_url.endswith("/"):
            config = replace(config, base_url=config.base_url + "/")
    return config


def _with_site_favicons(config: SiteConfig) -> SiteConfig:
    """A site's own static/favicon.ico (and favicon-16x16.png, favicon-32x32.png, PaperMod's names) linked instead
    of the theme's icons, unless the config names its icons; a site's favicon.svg replaces the theme's anyway."""
    theme = config.theme
    static = Path(config.root) / config.static_dir
    if theme.favicon or theme.favicon_16 or theme.favicon_32 or (static / "favicon.svg").is_file():
        return config
    names = (("favicon", "favicon.ico"), ("favicon_16", "favicon-16x16.png"), ("favicon_32", "favicon-32x32.png"))
    found: dict[str, Any] = {name: f"/{file_name}" for name, file_name in names if (static / file_name).is_file()}
    return replace(config, theme=replace(theme, **found)) if found else config


def _parse_config_text(text: str, path: str) -> Mapping[str, Any]:
    if path.endswith(".toml"):
        import tomllib
        try:
            data = tomllib.loads(text)
        except RecursionError:
            raise _fail(path, 1, "config is nested too deeply to read; flatten the nested arrays or tables") from None
        except tomllib.TOMLDecodeError as error:
            at, problem = parser_problem(error)
            raise _fail(path, (at or 0) + 1, f"invalid TOML: {problem}; fix the syntax on that line") from None
    else:
        import yaml

        from ..disk import strict_yaml
        try:
            data = strict_yaml.load(text)
        except strict_yaml.StrictYAMLError as error:
            raise _fail(path, error.line + 1, error.describe(1)) from None
        except RecursionError:
            raise _fail(path, 1, "config is nested too deeply to read; flatten the nested mappings") from None
        except yaml.YAMLError as error:
            at, problem = parser_problem(error)
            line = (at or 0) + 1
            # from None: PyYAML's own text repeats the position as '<unicode string>', which only confuses.
            raise _fail(path, line, f"invalid YAML: {problem}; fix the syntax on that line "
                        "(indent nested keys evenly with spaces, quote values containing ': ')") from None
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise _fail(path, 1, "config must be a mapping of key: value lines")
    return data

