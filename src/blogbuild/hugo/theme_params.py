"""A Hugo site's params read as blogbuild's options: PaperMod's params as the default theme's options (a key the
site sets always counts; on a PaperMod site an absent key is PaperMod's default), and the comment and analytics
settings Hugo themes share as blogbuild.yaml's comments: and analytics: blocks."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..themes.options import COLOR_SCHEMES, SHARE_TARGETS, TOC_SIDES, listed_share_targets

PAPERMOD_EXTENDED_CSS = "assets/css/extended/*.css"   # what PaperMod bundles after its own stylesheet

# PaperMod's boolean params (lower case) -> (ThemeOptions fields, says the opposite, PaperMod's default).
_PAPERMOD_FLAGS: dict[str, tuple[tuple[str, ...], bool, bool]] = {
    "disablethemetoggle": (("theme_toggle",), True, False),
    "disablescrolltotop": (("scroll_to_top",), True, False),
    "showtoc": (("toc",), False, False),
    "tocopen": (("toc_open",), False, False),
    "showreadingtime": (("reading_time",), False, False),
    "showwordcount": (("word_count", "list_word_count"), False, False),
    "hideauthor": (("meta_author",), True, False),
    "hidemeta": (("meta",), True, False),
    "hidesummary": (("summary",), True, False),
    "showsharebuttons": (("share_buttons",), False, False),
    "showcodecopybuttons": (("code_copy_buttons",), False, False),
    "showpostnavlinks": (("post_nav_links",), False, False),
    "showbreadcrumbs": (("breadcrumbs",), False, False),
    "hidefooter": (("footer",), True, False),
    "showrssbuttoninsectiontermlist": (("section_feed_link", "term_feed_link"), False, False),
}


def papermod_theme(params: Mapping[str, Any], papermod: bool) -> tuple[dict[str, Any], set[str]]:
    """(blogbuild.yaml's `theme:` mapping, the params.* keys used, lower case and dotted) from a Hugo site's
    params. papermod: the site's theme is PaperMod, so an absent key is PaperMod's default, not blogbuild's."""
    keyed = {str(key).lower(): value for key, value in params.items()}
    theme: dict[str, Any] = {}
    used: set[str] = set()
    for key, (names, inverted, default) in _PAPERMOD_FLAGS.items():
        given = keyed.get(key)
        if isinstance(given, bool):
            used.add(f"params.{key}")
        elif papermod:
            given = default
        else:
            continue
        for name in names:
            theme[name] = (not given) if inverted else given
    scheme = keyed.get("defaulttheme")
    if isinstance(scheme, str):
        theme["color_scheme"] = scheme.lower() if scheme.lower() in COLOR_SCHEMES else "auto"
        used.add("params.defaulttheme")
    _share_targets(keyed.get("sharebuttons"), papermod, theme, used)
    date_format = keyed.get("dateformat")
    if isinstance(date_format, str) and date_format.strip():
        theme["date_format"] = date_format
        used.add("params.dateformat")
    elif papermod:
        theme["date_format"] = ":date_long"   # PaperMod's default (time.Format's default for the site's language)
    side = keyed.get("tocside")
    if isinstance(side, str) and side.lower() in TOC_SIDES:
        theme["toc_side"] = side.lower()
        used.add("params.tocside")
    _label(keyed.get("label"), theme, used)
    _icons(keyed.get("assets"), theme, used)
    _cover(keyed.get("cover"), papermod, theme, used)
    _edit_post(keyed.get("editpost"), theme, used)
    _footer(keyed.get("footer"), theme, used)
    if papermod:
        theme["copyright_markdown"] = True
        theme["extended_css"] = [PAPERMOD_EXTENDED_CSS]
    keywords = keyed.get("keywords")
    if isinstance(keywords, str) or (isinstance(keywords, list) and all(isinstance(item, str) for item in keywords)):
        theme["keywords"] = [keywords] if isinstance(keywords, str) else list(keywords)
        used.add("params.keywords")
    images = keyed.get("images")
    if isinstance(images, str) or (isinstance(images, list) and all(isinstance(item, str) for item in images)):
        theme["images"] = [images] if isinstance(images, str) else list(images)
        used.add("params.images")
    return theme, used


def _share_targets(given: Any, papermod: bool, theme: dict[str, Any], used: set[str]) -> None:
    """PaperMod's ShareButtons: the listed targets in PaperMod's order (twitter is x); without it, all of them."""
    targets = listed_share_targets(given)
    if targets is not None:
        theme["share_targets"] = list(targets)
        used.add("params.sharebuttons")
    elif papermod:
        theme["share_targets"] = list(SHARE_TARGETS)


def _label(label: Any, theme: dict[str, Any], used: set[str]) -> None:
    if not isinstance(label, Mapping):
        return
    keyed = {str(key).lower(): value for key, value in label.items()}
    for key, name in (("text", "label_text"), ("icon", "label_icon")):
        if isinstance(keyed.get(key), str):
            theme[name] = keyed[key]
            used.add(f"params.label.{key}")
    height = keyed.get("iconheight")
    if isinstance(height, int) and not isinstance(height, bool) and height > 0:
        theme["label_icon_height"] = height
        used.add("params.label.iconheight")


def _cover(cover: Any, papermod: bool, theme: dict[str, Any], used: set[str]) -> None:
    """PaperMod shows covers on list cards and post pages unless params.cover hides them."""
    keyed = {str(key).lower(): value for key, value in cover.items()} if isinstance(cover, Mapping) else {}
    for key in ("hidden", "hiddeninlist", "hiddeninsingle"):
        if isinstance(keyed.get(key), bool):
            used.add(f"params.cover.{key}")
    hidden = keyed.get("hidden") is True
    if papermod or "hiddeninlist" in keyed or hidden:
        theme["cover_in_lists"] = not (hidden or keyed.get("hiddeninlist") is True)
    if "hiddeninsingle" in keyed or hidden:
        theme["cover_in_posts"] = not (hidden or keyed.get("hiddeninsingle") is True)


def _footer(footer: Any, theme: dict[str, Any], used: set[str]) -> None:
    keyed = {str(key).lower(): value for key, value in footer.items()} if isinstance(footer, Mapping) else {}
    if isinstance(keyed.get("hidecopyright"), bool):
        theme["footer_copyright"] = not keyed["hidecopyright"]
        used.add("params.footer.hidecopyright")
    if isinstance(keyed.get("text"), str):
        theme["footer_text"] = keyed["text"]
        used.add("params.footer.text")


def _edit_post(edit: Any, theme: dict[str, Any], used: set[str]) -> None:
    keyed = {str(key).lower(): value for key, value in edit.items()} if isinstance(edit, Mapping) else {}
    if keyed.get("disabled") is True:   # no edit link anywhere (a post's own editPost.URL still gives one)
        used.update(f"params.editpost.{key}" for key in keyed)
        return
    if keyed.get("disabled") is False:
        used.add("params.editpost.disabled")
    for key, name in (("url", "edit_url"), ("text", "edit_text"), ("appendfilepath", "edit_append_path")):
        if isinstance(keyed.get(key), bool if key == "appendfilepath" else str):
            theme[name] = keyed[key]
            used.add(f"params.editpost.{key}")


# PaperMod's params.assets keys (lower case) -> ThemeOptions fields.
_ICONS = {"favicon": "favicon", "favicon16x16": "favicon_16", "favicon32x32": "favicon_32",
          "apple_touch_icon": "apple_touch_icon"}


def _icons(assets: Any, theme: dict[str, Any], used: set[str]) -> None:
    if not isinstance(assets, Mapping):
        return
    for key, given in assets.items():
        name = _ICONS.get(str(key).lower())
        if name is not None and isinstance(given, str) and given:
            theme[name] = given
            used.add(f"params.assets.{str(key).lower()}")


def _get(mapping: Any, *names: str) -> Any:
    """The first of names in mapping, ignoring case (Hugo lower-cases keys, sites write camelCase)."""
    if not isinstance(mapping, Mapping):
        return None
    lowered = {str(key).lower(): value for key, value in mapping.items()}
    for name in names:
        if name.lower() in lowered:
            return lowered[name.lower()]
    return None


def from_hugo(params: Mapping[str, Any] | None, services: Mapping[str, Any] | None = None,
              google_analytics: str | None = None) -> dict[str, Any]:
    """comments: and analytics: blocks (blogbuild.yaml keys) from a Hugo site's params and services.

    Read, case-insensitively: params.giscus / params.comments.giscus {repo, repoId, category, categoryId,
    mapping, reactionsEnabled, inputPosition, lang, lightTheme, darkTheme}; params.utterances /
    params.comments.utterances {repo, issueTerm, label}; services.googleAnalytics.id (or the old top-level
    googleAnalytics); params.analytics.plausible {domain, script}, params.analytics.umami {websiteId, script}.
    PaperMod's params.comments = false turns comments off."""
    result: dict[str, Any] = {}
    nested = _get(params, "comments")
    for name in ("giscus", "utterances"):
        block = _get(params, name) or _get(nested, name)
        if isinstance(block, Mapping) and _get(block, "repo"):
            result["comments"] = {name: _hugo_comment_block(name, block)}
            break
    if nested is False:
        result.pop("comments", None)
    analytics: dict[str, Any] = {}
    google = _get(_get(services, "googleAnalytics"), "id") or google_analytics
    if isinstance(google, str) and google.startswith("G-"):
        analytics["google"] = {"measurement_id": google}
    hugo_analytics = _get(params, "analytics")
    plausible = _get(hugo_analytics, "plausible")
    if isinstance(plausible, Mapping) and _get(plausible, "domain"):
        analytics["plausible"] = {"domain": str(_get(plausible, "domain")),
                                  **({"script": str(_get(plausible, "script", "src"))}
                                     if _get(plausible, "script", "src") else {})}
    umami = _get(hugo_analytics, "umami")
    if isinstance(umami, Mapping) and _get(umami, "websiteId", "website_id", "id"):
        analytics["umami"] = {"website_id": str(_get(umami, "websiteId", "website_id", "id")),
                              **({"script": str(_get(umami, "script", "src"))} if _get(umami, "script", "src") else {})}
    if analytics:
        result["analytics"] = analytics
    return result


# Hugo themes' camelCase names -> blogbuild.yaml's names.
_HUGO_GISCUS = {"repo": "repo", "repoid": "repo_id", "category": "category", "categoryid": "category_id",
                "mapping": "mapping", "term": "term", "strict": "strict", "reactionsenabled": "reactions",
                "inputposition": "input_position", "lang": "lang", "lighttheme": "light_theme",
                "darktheme": "dark_theme"}
_HUGO_UTTERANCES = {"repo": "repo", "issueterm": "issue_term", "label": "label", "lighttheme": "light_theme",
                    "darktheme": "dark_theme"}


def _hugo_comment_block(name: str, block: Mapping[str, Any]) -> dict[str, Any]:
    names = _HUGO_GISCUS if name == "giscus" else _HUGO_UTTERANCES
    converted: dict[str, Any] = {}
    for key, value in block.items():
        target = names.get(str(key).lower().replace("_", ""))
        if target is None:
            continue
        if target in ("strict", "reactions") and isinstance(value, (str, int)) and not isinstance(value, bool):
            value = str(value) in ("1", "true")   # giscus's own snippet writes "1"/"0"
        converted[target] = value
    return converted
