"""What a Hugo site has that blogbuild does not use, each with what blogbuild does instead, said in one line.

hugo_config.convert() uses what it can; everything else a Hugo site carries is named here once: config keys
(params.* included, nested keys where part of a mapping is used), markup settings read but not applied, and
every file under the site's layouts/ (but its Go shortcodes, which run) and assets/. The build warns with unused_message(); `init --from-hugo`
prints the same line.
"""
from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.names import is_inside

_DEFAULT = "no equivalent, ignored"
_OWN_PARAM = "kept under params for the site's own templates, the default theme does not read it"
_GO_TEMPLATES = ("page layouts do not run, the default theme renders the pages, port what you need to "
                 "templates/")
_GO_PARTIALS = ("page partials do not run, the default theme renders the pages, port what pages need to "
                "templates/")
# The site's Go shortcodes run as they are (gotemplate/), and so do the partials they call: not unused.
_SHORTCODES = ("layouts/shortcodes/", "layouts/_shortcodes/")
_PARTIALS = ("layouts/partials/", "layouts/_partials/")
_SITE_PARAM = re.compile(r"""(?:\bsite|\.Site)\.Params(?:\.(\w+))?|\.Param\s+["`](\w+)""")
_CONTENT_PARAM = re.compile(r"""\{\{[<%]\s*param\s+["`]?(\w+)""")
_PARTIAL_CALL = re.compile(r"""\bpartial(?:Cached)?\s+["`]([^"`]+)["`]""")
_ASSETS = "Hugo Pipes do not run, not published, copy what pages need to static/"
# PaperMod bundles assets/css/extended/*.css (published as theme.extended_css), not a custom.css beside it.
_CUSTOM_CSS = ("not published, as PaperMod does not bundle it either: move it to assets/css/extended/ (or name it in "
               "theme.extended_css)")
_THEME = "blogbuild's default theme renders the site"
_MARKUP = "blogbuild renders this its own way"

# Hugo's top-level keys (lower case) blogbuild does not use -> what it does instead.
_KEYS = {
    "theme": _THEME, "themesdir": _THEME,
    "module": "Hugo modules are not fetched or followed (a build never downloads): copy a theme module into "
              "themes/NAME/ (`hugo mod vendor` writes it to _vendor/) and name it in theme",
    "googleanalytics": "only a GA4 id, G-..., is used, as analytics",
    "services": "only services.googleAnalytics.id, a GA4 id, is used, as analytics (and services.rss.limit "
                "when the site's own layouts render it)",
    "disqusshortname": "comments are giscus or utterances",
    "minify": "pages are written as rendered (minifyOutput is followed when the site's own layouts render it)",
    "menus": "only the main menu is shown",
    "languages": "a disabled language is not built",
    "canonifyurls": "links are root-relative under baseURL's path",
    "relativeurls": "links are root-relative under baseURL's path",
    "uglyurls": "every page is a folder with index.html",
    "outputformats": "blogbuild writes its own outputs: pages, RSS/Atom/JSON feeds, index.json, sitemap",
    "mediatypes": "blogbuild writes its own outputs: pages, RSS/Atom/JSON feeds, index.json, sitemap",
    "related": "related posts are the ones sharing the most tags",
    "imaging": "images are sized by blogbuild's images: settings",
    "enablegitinfo": "lastmod comes from front matter",
    "sitemap": "blogbuild writes sitemap.xml itself",
    "privacy": "no embedded third-party shortcodes",
    "cascade": "front matter is read per page",
    "pagination": "list pages are at LIST/page/N/",
    "paginate": "Hugo 0.128 replaced it with pagination.pagerSize and Hugo 0.168 ignores it (a list shows 10 to a page): "
                "move it there",
}

# PaperMod's params (lower case, dotted below a mapping) blogbuild does not use -> what it does instead; the
# longest known prefix of a key decides. A site's own params are kept for its templates.
_PARAMS = {
    "fuseopts": "blogbuild's own search and index.json instead of Fuse.js",
    "mainsections": "every page is listed unless its front matter says list: false",
    "env": "social meta is always written, analytics only by build, never by serve",
    "showpagenums": "list pages say 'page n of m'",
    "disablespecial1stpost": "the home page's first post is a card like the others",
    "showallpagesinarchive": "the archives list every listed page",
    "schema": "blogbuild writes its own schema.org JSON-LD",
    "disableanchoredheadings": "headings always carry a # link",
    "usehugotoc": "the TOC follows markup.tableOfContents",
    "displayfulllangname": "the language switch shows each language's name (languageName)",
    "disablelangtoggle": "the language switch is shown whenever a site has two languages",
    "canonicallinktext": "a page's canonicalURL is its own URL",
    "analytics": "only analytics.plausible and analytics.umami are used",
    **{f"analytics.{name}": "no site-verification meta tag, add it in a templates/base.html override"
       for name in ("google", "bing", "naver", "yandex")},
    "comments": "comments are params.giscus or params.utterances",
    "giscus": "comments need giscus.repo",
    "utterances": "comments need utterances.repo",
    "title": "the site's title is the config's title",
    "socialicons": "socialIcons entries need a name and a url",
    "social": "no fediverse:creator or other social meta beyond Open Graph and Twitter cards",
    "assets": "the theme's own files and colours",
    "assets.disablefingerprinting": "the theme's files are published under their own names",
    "assets.disablehljs": "code is highlighted at build time by Pygments",
    "assets.disablescrolltotop": "the back-to-top link follows disableScrollToTop",
    "cover": "covers are shown as given",
    "cover.linkfullimages": "the cover image is not a link",
    "cover.responsiveimages": "covers are published as given, not resized",
    "homeinfoparams": "the home info panel shows Title, Content and imageUrl, unless profileMode is enabled",
    "homeinfoparams.alignsocialiconsto": "social links are in the footer",
    "profilemode": "the profile shows title, subtitle, imageUrl and buttons when enabled",
    "profilemode.imagetitle": "the profile image's alt and title",
    "label": "the header shows label.text and label.icon",
    "label.iconsvg": "label.icon, an image file, is shown",
    "editpost": "the edit link takes editPost.URL, Text and appendFilePath",
}

# The rest of PaperMod's params (lower case): a PaperMod setting no reason above names keeps the theme's behaviour.
_PAPERMOD = frozenset({
    "assets", "cover", "defaulttheme", "disablescrolltotop", "disablethemetoggle", "editpost", "footer",
    "hideauthor", "hidefooter", "hidemeta", "hidesummary", "homeinfoparams", "images", "keywords", "label",
    "profilemode", "sharebuttons", "showbreadcrumbs", "showcodecopybuttons", "showfulltextinrss",
    "showpostnavlinks", "showreadingtime", "showrssbuttoninsectiontermlist", "showsharebuttons", "showtoc",
    "showwordcount", "social", "socialicons", "title", "tocopen", "tocside", "disableshare",
})
_PAPERMOD_DEFAULT = "PaperMod's setting, the default theme keeps its own behaviour"

# PaperMod's params that are mappings with keys of their own: each key is named on its own.
_NESTED_PARAMS = frozenset({"homeinfoparams", "profilemode", "label", "assets", "analytics", "cover",
                            "editpost", "footer", "schema", "social"})


# What blogbuild does itself where a Hugo site has a render hook (layouts/_default/_markup/render-NAME.html).
RENDER_HOOKS_INSTEAD = {
    "render-codeblock-mermaid": "blogbuild draws ```mermaid blocks itself (its own pinned mermaid, loaded only on "
                                "pages with a diagram): the hook is not needed",
    "render-codeblock-math": "blogbuild typesets math blocks itself (KaTeX at build time)",
    "render-passthrough": "blogbuild typesets passthrough math itself (KaTeX at build time)",
    "render-image": "blogbuild gives images their sizes and variants itself (the images stage)",
    "render-link": "blogbuild resolves .md links and bundle files itself, as Hugo's embedded link hook does",
    "render-heading": "blogbuild writes heading ids and anchors itself",
    "render-codeblock": "blogbuild highlights code itself (Pygments)",
    "render-blockquote": "blogbuild renders GitHub's alerts (> [!NOTE]) itself",
    "render-table": "blogbuild renders tables itself",
}

def instead(name: str) -> str:
    """What blogbuild does instead of an unused Hugo name (a dotted config key or a site file)."""
    lowered = name.lower()
    if lowered.startswith(("layouts/partials/", "layouts/_partials/")):
        return _GO_PARTIALS
    hook = re.search(r"_markup/(render-[a-z0-9-]+)\.", lowered)
    if lowered.startswith("layouts/") and hook and hook.group(1) in RENDER_HOOKS_INSTEAD:
        return RENDER_HOOKS_INSTEAD[hook.group(1)]
    if lowered.startswith("layouts/"):
        return _GO_TEMPLATES
    if lowered == "assets/css/custom.css":
        return _CUSTOM_CSS
    if lowered.startswith("assets/"):
        return _ASSETS
    if lowered.startswith("markup."):
        return _MARKUP
    if lowered.startswith("menus.main."):
        return "menu entries show their name, linked to url or pageRef, ordered by weight, nested by parent"
    if lowered.startswith("params."):
        parts = lowered.split(".")[1:]
        for end in range(len(parts), 0, -1):
            reason = _PARAMS.get(".".join(parts[:end]))
            if reason is not None:
                return reason
        return _PAPERMOD_DEFAULT if parts[0] in _PAPERMOD else _OWN_PARAM
    return _KEYS.get(lowered.split(".")[0], _DEFAULT)


def unused_params(params: Mapping[str, Any], used: Iterable[str]) -> list[str]:
    """params.* keys (dotted, as written) that no use in `used` (lower-case dotted keys) covers; a mapping
    part of which is used, or one of PaperMod's own, is named key by key."""
    used_keys = {key.lower() for key in used}
    found: list[str] = []

    def walk(mapping: Mapping[str, Any], written: str, lowered: str) -> None:
        for key, value in mapping.items():
            here, here_lower = f"{written}.{key}", f"{lowered}.{str(key).lower()}"
            if here_lower in used_keys:
                continue
            partly = any(name.startswith(here_lower + ".") for name in used_keys)
            nested = here_lower.count(".") == 1 and here_lower.split(".")[1] in _NESTED_PARAMS
            if isinstance(value, Mapping) and value and (partly or nested):
                walk(value, here, here_lower)
            else:
                found.append(here)

    walk(params, "params", "params")
    return found


def params_read_by_the_site(root: Path, content_dir: str = "content") -> set[str] | None:
    """The site params (lower case) its running Go templates (shortcodes, the partials they call) and its content's
    `param` shortcodes read; None when a template reads all of them (`range site.Params`)."""
    names: set[str] = set()
    layouts = root / "layouts"
    shortcodes = [path.relative_to(root).as_posix() for path in layouts.rglob("*") if path.is_file()
                  and path.relative_to(root).as_posix().lower().startswith(_SHORTCODES)] if layouts.is_dir() else []
    for template in sorted(_running_templates(root, shortcodes + _extend_hooks(root))):
        for whole, named in _SITE_PARAM.findall(_read_inside(root, root / template)):
            if not (whole or named):
                return None
            names.add((whole or named).lower())
    content = root / content_dir
    for path in content.rglob("*.md") if content.is_dir() else ():
        names.update(name.lower() for name in _CONTENT_PARAM.findall(_read_inside(root, path)))
    return names


def _read_inside(root: Path, path: Path) -> str:
    """A file's text, '' when it is no file or a link out of the site (sources' rule: rglob enters no linked
    folder, and a linked file out of the site is not read)."""
    if not path.is_file() or not is_inside(os.path.realpath(path), (os.path.realpath(root),)):
        return ""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def site_files(root: Path, stylesheets: Sequence[str] = (), *, own_layouts: bool = False) -> list[str]:
    """Every file under the site's layouts/ and assets/ (relative, sorted) but its Go shortcodes, PaperMod's
    extension partials and the partials they call, which run, every layout and partial when its own page
    layouts render the site (own_layouts; its render hooks of the kinds blogbuild runs too, and every asset,
    which their Hugo Pipes read), and the stylesheets published
    (theme.extended_css patterns, matched as sources.stylesheet_files matches them)."""
    found: list[str] = []
    for folder in ("layouts", "assets"):
        top = root / folder
        if top.is_dir():
            found += sorted(path.relative_to(root).as_posix() for path in top.rglob("*") if path.is_file())
    running = _running_templates(root, [name for name in found if name.lower().startswith(_SHORTCODES)]
                                 + _extend_hooks(root))
    if own_layouts:   # its layouts, partials and the render hooks blogbuild runs (gotemplate/hooks.py)
        from .gotemplate.hooks import HOOK_KINDS
        running |= {name for name in found if name.startswith("layouts/") and (
            "/_markup/" not in name or any(f"/_markup/{kind}." in name or f"/_markup/{kind}-" in name
                                           for kind in HOOK_KINDS))}
        running |= {name for name in found if name.startswith("assets/")}   # read by their Hugo Pipes
    patterns = [pattern.replace("\\", "/").strip("/") for pattern in stylesheets]
    published = {name for name in found for pattern in patterns
                 if name.count("/") == pattern.count("/") and fnmatch.fnmatchcase(name, pattern)}
    return [name for name in found if name not in running and name not in published]


def _extend_hooks(root: Path) -> list[str]:
    """PaperMod's extend_head.html and extend_footer.html of the site: the default theme runs them too."""
    return [folder + name for folder in _PARTIALS for name in ("extend_head.html", "extend_footer.html")
            if (root / folder / name).is_file()]


def _running_templates(root: Path, shortcodes: list[str]) -> set[str]:
    """The shortcodes and, transitively, every partial of layouts/ that one of them calls by name."""
    running = set(shortcodes)
    waiting = list(shortcodes)
    while waiting:
        for name in _PARTIAL_CALL.findall(_read_inside(root, root / waiting.pop())):
            for folder in _PARTIALS:
                for candidate in (folder + name, folder + name + ".html"):
                    if candidate not in running and (root / candidate).is_file():
                        running.add(candidate)
                        waiting.append(candidate)
    return running


def unused_message(names: Sequence[str], where: Callable[[str], str] | None = None) -> str:
    """The one warning line: every unused name once, grouped by what blogbuild does instead, in first-seen order;
    a config key followed by where it is written ('markup.math (hugo.toml:12)') when `where` says."""
    groups: dict[str, list[str]] = {}
    for name in dict.fromkeys(names):
        place = where(name) if where is not None else ""
        groups.setdefault(instead(name), []).append(f"{name} ({place})" if place else name)
    parts = [f"{', '.join(group)}: {reason}" for reason, group in groups.items()]
    return f"Hugo site settings blogbuild does not use (see README, Coming from Hugo): {'; '.join(parts)}"
