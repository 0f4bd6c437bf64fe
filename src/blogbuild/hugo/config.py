"""Hugo's site config (hugo.toml, config.yml, config/_default/...) read as the blogbuild.yaml it is equivalent to.

A site with no blogbuild.yaml but a Hugo config builds as it is: load_config() calls read_hugo_config() and
checks the converted mapping like any blogbuild.yaml. `blogbuild init --from-hugo` writes the same mapping out.
Keys blogbuild cannot honour are collected in `ignored`, which the build reports once, on one line.
"""
from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import SourceError, parser_problem
from .math import template_math
from .page_layouts import runs_own_layouts
from .related import RelatedError, config_mapping, related_config
from .unused import RENDER_HOOKS_INSTEAD, params_read_by_the_site, site_files, unused_message, unused_params
from .theme_params import from_hugo, papermod_theme
from ..core.keys import nested_key_line
from ..config.markup import known_settings
from ..core.names import HUGO_CONFIG_FOLDER, HUGO_CONFIG_NAMES, is_inside, theme_folders

_SUFFIXES = (".toml", ".yaml", ".yml", ".json")

# Hugo keys blogbuild does the same with by itself: reading them needs nothing and reporting them would be noise.
_SAME_BY_DEFAULT = frozenset({
    "hasCJKLanguage", "enableRobotsTXT", "defaultContentLanguage", "defaultContentLanguageInSubdir",
    "languageName", "label", "weight", "outputs", "enableEmoji", "languageDirection", "direction",
    "disabled", "disableLanguages",
})
# PaperMod's params that the default theme reads (the rest stay in params for a site's own templates).
_PAPERMOD_SOCIAL = "socialIcons"

# Hugo's word-based summaryLength in Latin text, as blogbuild's character budget: about five letters a word.
LETTERS_PER_WORD = 5


@dataclass(frozen=True)
class HugoConfig:
    """A Hugo config converted: the blogbuild.yaml mapping, where it came from, and what did not carry over."""

    path: str                       # the file (or folder) read, as shown in messages
    values: Mapping[str, Any]       # blogbuild.yaml keys, in the order init writes them
    ignored: tuple[str, ...]        # Hugo keys (dotted) that blogbuild does not honour
    site_files: tuple[str, ...] = ()   # files under layouts/ and assets/, which blogbuild does not use
    # The files read: (name as shown in messages, text, the dotted key their content sits under: '' for
    # hugo.toml, "menus" for config/_default/menus.toml).
    files: tuple[tuple[str, str, str], ...] = ()
    own_layouts: bool = False       # the site's own page layouts render it (page_layouts.py)
    notes: tuple[str, ...] = ()     # what the site names but does not have (a theme not checked out)

    def where(self, name: str) -> str:
        """'hugo.toml:12': the file and line a dotted key of the config is written at ('' for a site file)."""
        if "/" in name:
            return ""
        names = tuple(name.split("."))
        lowered = tuple(part.lower() for part in names)
        best: tuple[str, str, int] | None = None
        for shown, text, under in self.files:
            prefix = tuple(under.lower().split(".")) if under else ()
            if lowered[:len(prefix)] == prefix and (best is None or len(prefix) > best[2]):
                best = (shown, text, len(prefix))
        if best is None:
            return ""
        rest = names[best[2]:]
        return f"{best[0]}:{nested_key_line(best[1], rest) if rest else 1}"

    def unused(self, markup_ignored: Sequence[str] = ()) -> tuple[str, ...]:
        """Everything the site has that blogbuild does not use: keys, markup settings read but not applied,
        then the layouts/ and assets/ files (what unused_message() names)."""
        return (*self.ignored, *markup_ignored, *self.site_files)


def find_hugo_config(root: Path) -> Path | None:
    """The Hugo config file of a site folder (or its config/_default/ folder), or None."""
    for name in HUGO_CONFIG_NAMES:
        candidate = root / name
        if candidate.is_file():
            return candidate
    folder = root / HUGO_CONFIG_FOLDER
    if folder.is_dir() and any(path.suffix in _SUFFIXES for path in folder.iterdir()):
        return folder
    return None


def _parse(path: Path, shown: str) -> dict[str, Any]:
    import tomllib

    import yaml
    text = path.read_text(encoding="utf-8-sig")
    from ..disk import strict_yaml
    try:
        if path.suffix == ".toml":
            data = tomllib.loads(text)
        elif path.suffix == ".json":
            data = json.loads(text)
        else:
            data = strict_yaml.load(text)
    except strict_yaml.StrictYAMLError as error:
        raise SourceError(shown, error.line + 1, f"cannot read this Hugo config: {error.describe(1)}",
                          stage="config") from None
    except RecursionError:
        raise SourceError(shown, 1, "cannot read this Hugo config: it is nested too deeply; "
                          "flatten the nested values", stage="config") from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, yaml.YAMLError) as error:
        at, problem = parser_problem(error)   # the parser's message without its own positions
        raise SourceError(shown, (at or 0) + 1, f"cannot read this Hugo config: {problem}; fix the syntax",
                          stage="config") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SourceError(shown, 1, "a Hugo config must be a mapping of keys", stage="config")
    return data


def _read_folder(folder: Path, shown: str, files: list[tuple[str, str, str]]) -> dict[str, Any]:
    """config/_default/: hugo.toml (or config.toml) at the top, every other file under its own name
    (menus.toml -> menus, params.en.yaml -> languages.en.params); each file read is added to `files`."""
    data: dict[str, Any] = {}
    for path in sorted(folder.iterdir(), key=lambda item: (item.stem not in ("hugo", "config"), item.name)):
        if path.suffix not in _SUFFIXES or not path.is_file():
            continue
        content = _parse(path, f"{shown}/{path.name}")
        stem = path.stem
        if stem in ("hugo", "config"):
            data.update(content)
            under = ""
        elif "." in stem:
            key, language = stem.split(".", 1)
            language_entry = data.setdefault("languages", {}).setdefault(language, {})
            language_entry[key] = content
            under = f"languages.{language}.{key}"
        else:   # merged over what hugo.toml gives the key, as Hugo merges them (this file's value wins)
            data[stem] = _deep_merged(data[stem], content) if isinstance(data.get(stem), Mapping) \
                and isinstance(content, Mapping) else content
            under = stem
        files.append((f"{HUGO_CONFIG_FOLDER}/{path.name}", path.read_text(encoding="utf-8-sig"), under))
    return data


def _deep_merged(below: Mapping[str, Any], above: Mapping[str, Any]) -> dict[str, Any]:
    """above over below, mappings merged key by key at any depth (a list or a value of above replaces below's)."""
    merged = dict(below)
    for key, value in above.items():
        merged[key] = _deep_merged(merged[key], value) if isinstance(merged.get(key), Mapping) \
            and isinstance(value, Mapping) else value
    return merged


def _lower_keys(data: Mapping[str, Any]) -> dict[str, Any]:
    """Hugo's keys are case-insensitive: one spelling each (the first written), looked up in lower case."""
    result: dict[str, Any] = {}
    for key, value in data.items():
        result.setdefault(str(key).lower(), (str(key), value))
    return result


def _one_spelling(data: Mapping[str, Any]) -> dict[str, Any]:
    """Keys written twice in different case ([markup] and [Markup.Goldmark]) as the one key Hugo reads: mappings
    merged key by key, at any depth; otherwise the first written wins."""
    result: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for key, value in data.items():
        first = spelled.setdefault(str(key).lower(), str(key))
        if first not in result:
            result[first] = _one_spelling(value) if isinstance(value, Mapping) else value
        elif isinstance(result[first], Mapping) and isinstance(value, Mapping):
            result[first] = _one_spelling({**result[first], **value})
    return result


def _merge_language(data: Mapping[str, Any], ignored: list[str], chosen: str | None = None) -> Mapping[str, Any]:
    """One language's title, menus, params, contentDir and the rest over the top-level ones (the default language
    when chosen is None)."""
    keyed = _lower_keys(data)
    languages = keyed.get("languages", ("languages", None))[1]
    if not isinstance(languages, Mapping) or not languages:
        return data
    names = _language_names(keyed)
    if chosen is None:
        chosen = names[0]
        ignored += [f"languages.{name}" for name in _disabled_languages(keyed)]
    merged = {key: value for key, value in data.items() if str(key).lower() != "languages"}
    entry = languages[chosen] if isinstance(languages[chosen], Mapping) else {}
    for key, value in entry.items():
        if str(key).lower() == "params" and isinstance(value, Mapping):
            top = next((k for k in merged if str(k).lower() == "params"), "params")
            merged[top] = _beneath(value, merged.get(top) or {})   # merged at every depth, as Hugo does
        else:
            for existing in [k for k in merged if str(k).lower() in _same_key(str(key))]:
                del merged[existing]
            merged[key] = value
    return merged


def _same_key(key: str) -> tuple[str, ...]:
    """The top-level keys a language's key replaces: its own spelling, and menu for menus (either names the menus)."""
    lowered = key.lower()
    return ("menus", "menu") if lowered in ("menus", "menu") else (lowered,)


def _disabled_languages(keyed: Mapping[str, Any]) -> list[str]:
    """The languages Hugo leaves out: `disabled = true` in their entry, or named by disableLanguages."""
    languages = keyed.get("languages", ("languages", None))[1]
    if not isinstance(languages, Mapping):
        return []
    listed = keyed.get("disablelanguages", ("", None))[1]
    named = {str(name) for name in listed} if isinstance(listed, list) else set()
    return [str(name) for name, entry in languages.items()
            if str(name) in named or (isinstance(entry, Mapping) and _lower_keys(entry).get("disabled", ("", False))[1]
                                      is True)]


def _languages(data: Mapping[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """blogbuild's `languages:` (each language's keys where they differ from the default language's, its name
    and weight), `default_language` and `default_language_in_subdir`, for a config with two or more languages;
    {} for one."""
    keyed = _lower_keys(data)
    disabled = set(_disabled_languages(keyed))
    names = [name for name in _language_names(keyed) if str(name) not in disabled]
    if len(names) < 2:
        return {}
    languages = keyed["languages"][1]
    entries: dict[str, Any] = {}
    values.setdefault("language_code", str(names[0]))   # Hugo's languageCode is the language's key when not set
    for name in names:
        language_values, _ = _convert_one(data, str(name))
        language_values.setdefault("language_code", str(name))
        raw = _lower_keys(languages[name]) if isinstance(languages[name], Mapping) else {}
        if name != names[0] and "locale" not in raw and "languagecode" not in raw:
            language_values["language_code"] = str(name)   # the top-level locale is the default language's
        entry = {key: value for key, value in language_values.items() if values.get(key) != value}
        label = raw.get("languagename", ("", None))[1] or raw.get("label", ("", None))[1]
        entry["language_name"] = str(label) if label else str(name)
        entry["weight"] = _weight(languages[name])
        entries[str(name)] = entry
    return {"default_language": str(names[0]), "languages": entries,
            "default_language_in_subdir": keyed.get("defaultcontentlanguageinsubdir", ("", False))[1] is True}


def _language_names(keyed: Mapping[str, Any]) -> list[str]:
    """The keys of a config's `languages` (lower-cased keys as _lower_keys gives), the one built first."""
    languages = keyed.get("languages", ("languages", None))[1]
    if not isinstance(languages, Mapping) or not languages:
        return []
    default = str(keyed.get("defaultcontentlanguage", ("", ""))[1] or "")
    return sorted(languages, key=lambda name: (name != default, _weight(languages[name]), str(name)))


# Old Hugo's pygments* settings, which Hugo 0.168 still reads into markup.highlight (ApplyLegacyConfig), each where
# markup.highlight leaves the setting at Hugo's default: (key, markup.highlight's key, Hugo's default).
_LEGACY_HIGHLIGHT = (("pygmentsstyle", "style", "monokai"), ("pygmentsuseclasses", "noClasses", True),
                     ("pygmentscodefences", "codeFences", True), ("pygmentscodefencesguesssyntax", "guessSyntax", False))


def _legacy_highlight(markup: dict[str, Any], take: Callable[[str], Any]) -> list[str]:
    """Fill markup.highlight from old Hugo's pygmentsStyle, pygmentsUseClasses, pygmentsCodeFences and
    pygmentsCodefencesGuessSyntax where it leaves Hugo's default, then pygmentsOptions ("linenos=table") over it,
    as Hugo does; the names of those not read (a pygmentsOptions that does not parse)."""
    found = markup.get("highlight")
    highlight: dict[str, Any] = found if isinstance(found, dict) else {}
    written = {str(key).lower(): key for key in highlight}

    def put(key: str, value: Any) -> None:
        highlight.pop(written.get(key.lower(), key), None)
        highlight[key] = value
        written[key.lower()] = key
        markup["highlight"] = highlight

    for legacy, key, default in _LEGACY_HIGHLIGHT:
        value = take(legacy)
        if value is None or highlight.get(written.get(key.lower(), key), default) != default:
            continue
        if legacy == "pygmentsstyle":
            if value:
                put(key, str(value))
        else:
            on = value is True or str(value).lower() == "true"
            put(key, not on if legacy == "pygmentsuseclasses" else on)
    options = take("pygmentsoptions")
    if options in (None, ""):
        return []
    from ..markdown.chroma.hugo import HighlightError, normalize, parse_option_string
    try:
        parsed = normalize(parse_option_string(str(options)))   # linenos=table: lineNos and lineNumbersInTable
    except HighlightError:
        return ["pygmentsOptions"]
    for key, value in parsed.items():
        put(key, value)
    return []


def _language_key(data: Mapping[str, Any]) -> str:
    """The key of the language built, as Hugo names it (what its time.Format localises dates by)."""
    keyed = _lower_keys(data)
    names = _language_names(keyed)
    if names:
        return str(names[0])
    return str(keyed.get("defaultcontentlanguage", ("", ""))[1] or "en")


def _weight(entry: Any) -> int:
    value = entry.get("weight", 0) if isinstance(entry, Mapping) else 0
    return value if isinstance(value, int) else 0


def hugo_menu(items: Any) -> list[dict[str, Any]]:
    """Hugo's flat menu entries (identifier/parent, weight, url or pageRef) as blogbuild's nested menu list."""
    if not isinstance(items, list):
        return []
    entries: list[dict[str, Any]] = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        keyed = {str(key).lower(): value for key, value in item.items()}
        name = str(keyed.get("name") or keyed.get("identifier") or "")
        url = str(keyed.get("url") or "") or _page_ref_url(str(keyed.get("pageref") or ""))
        params = keyed.get("params")
        group = params.get("group") if isinstance(params, Mapping) else None
        entries.append({"name": name, "url": url, "weight": int(keyed.get("weight") or 0),
                        "page_ref": str(keyed.get("pageref") or ""),
                        "identifier": str(keyed.get("identifier") or name),
                        "parent": str(keyed.get("parent") or ""), "children": [],
                        **({"group": group} if isinstance(group, str) and group else {})})
    by_identifier = {entry["identifier"]: entry for entry in entries}
    roots = []
    for entry in entries:
        parent = by_identifier.get(entry["parent"])
        if parent is not None and parent is not entry:
            parent["children"].append(entry)
        else:
            roots.append(entry)
    return [_menu_item(entry) for entry in _by_weight(roots)]


_MENU_KEYS = frozenset({"name", "identifier", "url", "pageref", "weight", "parent"})


def _menus(menus: Any, section_menu: Any, values: dict[str, Any]) -> list[str]:
    """The main menu as the default theme's `menu`, and every menu as Hugo reads it for a site's own layouts
    (gotemplate/menus.py: names lower-cased, entries as written, and the menu sectionPagesMenu fills with the
    sections); returns the menu keys the default theme does not use."""
    ignored: list[str] = []
    if isinstance(menus, Mapping):
        values["menu"] = hugo_menu(menus.get("main") or [])
        ignored += [f"menus.{name}" for name in menus if name != "main"]
        ignored += _unused_menu_keys(menus.get("main"))
    values["hugo_menus"] = {
        "menus": {str(name).lower(): [_plain(entry) for entry in items if isinstance(entry, Mapping)]
                  for name, items in menus.items() if isinstance(items, list)} if isinstance(menus, Mapping) else {},
        "section_pages_menu": str(section_menu) if isinstance(section_menu, str) else ""}
    return ignored


def _plain(value: Any) -> Any:
    """A config value as plain data (maps, lists, text, numbers), as blogbuild.yaml holds it."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


def _unused_menu_keys(items: Any) -> list[str]:
    """menus.main.KEY for each key of a main menu entry that hugo_menu() does not read (pre, post, title, params.X),
    once each, as first written."""
    found: dict[str, str] = {}
    for item in items if isinstance(items, list) else []:
        for key, value in item.items() if isinstance(item, Mapping) else ():
            lowered = str(key).lower()
            if lowered == "params" and isinstance(value, Mapping):
                for name in value:
                    if str(name).lower() != "group":   # a heading in the dropdown (hugo_menu)
                        found.setdefault(f"params.{str(name).lower()}", f"menus.main.params.{name}")
            elif lowered not in _MENU_KEYS:
                found.setdefault(lowered, f"menus.main.{key}")
    return list(found.values())


def _by_weight(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Hugo orders a menu by weight, then by name.
    return sorted(entries, key=lambda entry: (entry["weight"], entry["name"]))


def _menu_item(entry: dict[str, Any]) -> dict[str, Any]:
    item: dict[str, Any] = {"name": entry["name"], "url": entry["url"], "weight": entry["weight"]}
    if entry.get("group"):
        item["group"] = entry["group"]   # a heading over it and its neighbours of the group in the dropdown
    if entry.get("page_ref"):
        item["page_ref"] = entry["page_ref"]   # the page a site's own layouts link the entry to
    if entry["children"]:
        item["children"] = [_menu_item(child) for child in _by_weight(entry["children"])]
    return item


def _page_ref_url(page_ref: str) -> str:
    """A menu pageRef ('/posts', 'about.md') as the URL Hugo gives that page."""
    if not page_ref:
        return ""
    path = page_ref.strip("/")
    for suffix in ("/_index.md", "/index.md", "_index.md", ".md"):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
            break
    return f"/{path}/" if path else "/"


def _pagination(pagination: Any, values: dict[str, Any]) -> list[str]:
    """pagination.pagerSize and pagination.disableAliases; returns the pagination keys not used (the old top-level
    paginate is gone from Hugo 0.168: a list shows 10 to a page unless pagerSize says otherwise). Hugo writes a
    redirect at LIST/page/1/ for every paginated list unless pagination.disableAliases (the top-level
    disableAliases does not stop those: tests/test_papermod_params.py)."""
    keyed = _lower_keys(pagination) if isinstance(pagination, Mapping) else {}
    page_size = keyed.get("pagersize", ("", None))[1] or 10
    if isinstance(page_size, int) and page_size > 0:
        values["paginate"] = page_size
    disable = keyed.get("disablealiases", ("", None))[1]
    values["pagination_aliases"] = disable is not True
    path = keyed.get("path", ("", "page"))[1]
    used = {"pagersize", "disablealiases"} | ({"path"} if path == "page" else set())
    return [f"pagination.{key}" for lowered, (key, _) in keyed.items() if lowered not in used]


def _taxonomies(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        return [str(plural) for plural in value.values() if plural]
    if isinstance(value, list):
        return [str(item) for item in value]
    return []


def _social(value: Any) -> list[dict[str, str]]:
    if not isinstance(value, list):
        return []
    return [{"name": str(item.get("name")), "url": _site_rooted(str(item.get("url")).strip())} for item in value
            if isinstance(item, Mapping) and item.get("name") and item.get("url")]


def _site_rooted(url: str) -> str:
    """PaperMod's `url: index.xml` (relative, so broken on every page but the home page) as '/index.xml'; a bare
    e-mail address as a mailto: link."""
    if url.startswith(("/", "#")) or re.match(r"^[a-zA-Z][a-zA-Z0-9+.\-]*:", url):
        return url
    if re.fullmatch(r"[^@/\s]+@[^@/\s]+", url):
        return "mailto:" + url
    return "/" + url


def _author(value: Any) -> str:
    if isinstance(value, Mapping):
        return str(value.get("name") or "")
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value or "")


def _params(value: Mapping[str, Any], values: dict[str, Any]) -> set[str]:
    """Params the default theme understands (author, description, PaperMod's social icons and home info);
    returns the params.* keys used (lower case, dotted)."""
    keyed = _lower_keys(value)
    used: set[str] = set()
    if "author" in keyed and not values.get("author"):
        values["author"] = _author(keyed["author"][1])
        used.add("params.author")
    if "description" in keyed and not values.get("description"):
        values["description"] = str(keyed["description"][1] or "")
        used.add("params.description")
    if _PAPERMOD_SOCIAL.lower() in keyed:
        values["social"] = _social(keyed[_PAPERMOD_SOCIAL.lower()][1])
        used.add("params.socialicons")
    profile = keyed.get("profilemode", ("", None))[1]
    home_info = keyed.get("homeinfoparams", ("", None))[1]
    enabled = _lower_keys(profile).get("enabled", ("", None))[1] if isinstance(profile, Mapping) else None
    if isinstance(enabled, bool):
        used.add("params.profilemode.enabled")
    if enabled is True:
        used.update(_intro(profile, "profilemode", values))   # PaperMod's home page is the profile alone
    elif isinstance(home_info, Mapping) and _lower_keys(home_info).get("title", ("", ""))[1]:
        used.update(_intro(home_info, "homeinfoparams", values))
    values["params"] = dict(value)
    return used


def _intro(home: Mapping[str, Any], key: str, values: dict[str, Any]) -> set[str]:
    """PaperMod's homeInfoParams, or its profileMode (the profile alone: image, title, subtitle, buttons, no post
    list), as blogbuild's intro: title and text as markdown with HTML (PaperMod's markdownify and RenderString),
    the image (imageUrl, imageWidth, imageHeight, imageTitle; homeInfoParams has one in PaperMod's forks);
    returns the params.* keys used."""
    keyed = _lower_keys(home)
    profile = key == "profilemode"
    title = keyed.get("title", ("", ""))[1]
    text = (keyed.get("content") or keyed.get("subtitle") or ("", ""))[1]
    intro: dict[str, Any] = {"title": str(title or ""), "text": str(text or ""), "markdown": True}
    used = {f"params.{key}.{name}" for name in ("title", "content", "subtitle", "enabled") if name in keyed}
    image = keyed.get("imageurl", ("", None))[1]
    if isinstance(image, str) and image:
        intro["image"] = image
        used.add(f"params.{key}.imageurl")
        for name, target in (("imagewidth", "image_width"), ("imageheight", "image_height")):
            size = keyed.get(name, ("", None))[1]
            if isinstance(size, int) and not isinstance(size, bool) and size > 0:
                intro[target] = size
                used.add(f"params.{key}.{name}")
            elif profile:
                intro[target] = 150   # PaperMod's profile image is 150 by 150 unless set
        if isinstance(keyed.get("imagetitle", ("", None))[1], str):
            intro["image_title"] = keyed["imagetitle"][1]
            used.add(f"params.{key}.imagetitle")
    if profile:
        buttons = keyed.get("buttons", ("", None))[1]
        if isinstance(buttons, list):
            intro["buttons"] = [{"name": str(item.get("name")), "url": str(item.get("url")).strip()}
                                for item in buttons if isinstance(item, Mapping) and item.get("name")
                                and item.get("url")]
            used.add(f"params.{key}.buttons")
        values.setdefault("theme", {})["home_posts"] = False
    values["intro"] = intro
    return used


def _theme(params: Mapping[str, Any], theme: Any, values: dict[str, Any]) -> set[str]:
    """The default theme's options from PaperMod's params (PaperMod's defaults when the theme is PaperMod),
    and ShowFullTextinRSS as feed_content; returns the params.* keys used."""
    names = theme if isinstance(theme, list) else [theme]
    is_papermod = any("papermod" in str(name).lower() for name in names if name)
    options, used = papermod_theme(params, is_papermod)
    if options:
        values["theme"] = {**options, **values.get("theme", {})}
    full_text = _lower_keys(params).get("showfulltextinrss", ("", None))[1]
    if isinstance(full_text, bool):
        values["feed_content"] = "full" if full_text else "summary"
        used.add("params.showfulltextinrss")
    return used


# Hugo's markup defaults that differ from blogbuild's: written out, so the converted mapping (and the
# blogbuild.yaml init writes) renders as Hugo does under blogbuild's own defaults.
_HUGO_MARKUP_DEFAULTS = (
    (("goldmark", "extensions", "typographer"), True),
    (("goldmark", "extensions", "linkify"), True),   # bare URLs are links
    (("goldmark", "parser", "autoHeadingIDType"), "github"),
    # Without passthrough, goldmark parses the text between dollars as markdown (escapes resolved) before the
    # browser's KaTeX reads it.
    (("goldmark", "extensions", "passthrough", "enable"), False),
    (("tableOfContents", "startLevel"), 2),
    (("tableOfContents", "endLevel"), 3),
)


def with_hugo_defaults(markup: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a Hugo `markup` mapping with Hugo's defaults filled in where the site does not set them."""
    result = _copy(markup)
    for names, value in _HUGO_MARKUP_DEFAULTS:
        level = result
        for name in names[:-1]:
            key = next((k for k in level if str(k).lower() == name.lower()), name)
            if not isinstance(level.get(key), dict):
                level[key] = {}
            level = level[key]
        if not any(str(k).lower() == names[-1].lower() for k in level):
            level[names[-1]] = value
    return result


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _copy(item) for key, item in value.items()}
    return value


def convert(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A parsed Hugo config as (blogbuild.yaml mapping, Hugo keys not honoured); pure, for tests and init."""
    data = _one_spelling(data)
    values, ignored = _convert_one(data, None)
    values.update(_languages(data, values))
    return values, ignored


# Hugo's settings of a site that are blogbuild's as they are written (Hugo key in lower case, SiteConfig field).
_SITE_TEXTS = (("title", "title"), ("baseurl", "base_url"), ("copyright", "copyright"), ("timezone", "time_zone"))


def _convert_one(data: Mapping[str, Any], language: str | None) -> tuple[dict[str, Any], list[str]]:
    """The blogbuild.yaml mapping of one language's site (the default language's when language is None)."""
    ignored: list[str] = []
    merged = _merge_language(data, ignored, language)
    values: dict[str, Any] = {"date_language": language or _language_key(data)}
    keyed = _lower_keys(merged)
    cjk = bool(keyed.get("hascjklanguage", ("", False))[1])
    handled: set[str] = set()
    if cjk:
        values["has_cjk_language"] = True

    def take(hugo_key: str) -> Any:
        handled.add(hugo_key)
        return keyed.get(hugo_key, ("", None))[1]

    title = take("title")   # .Site.Title as written ("" unset, or a language's ""); blogbuild's theme keeps its default
    values["hugo_title"] = "" if title is None else str(title)
    for hugo_key, target in _SITE_TEXTS:
        value = take(hugo_key)
        if value not in (None, ""):
            values[target] = str(value)
    language = take("locale") or take("languagecode")
    # Hugo's locale is the language's key when neither is set ("en" by default), not blogbuild's default.
    values["language_code"] = str(language) if language else values["date_language"]
    for hugo_key, target in (("languagename", "language_name"), ("label", "language_name"),
                             ("languagedirection", "language_direction"), ("direction", "language_direction")):
        value = take(hugo_key)
        if value not in (None, ""):
            values[target] = str(value)
    values["taxonomies"] = _taxonomies(take("taxonomies")) if "taxonomies" in keyed else ["tags", "categories"]
    ignored += _menus(take("menus") or take("menu"), take("sectionpagesmenu"), values)
    ignored += _pagination(take("pagination"), values)
    if take("disablealiases") is True:   # front matter's aliases; not the page/1/ ones (pagination.disableAliases)
        values["aliases"] = False
    summary_length = take("summarylength")
    if isinstance(summary_length, int) and summary_length > 0:
        # Hugo counts words (a CJK character is one when hasCJKLanguage is set); blogbuild counts characters.
        values["summary_length"] = summary_length if cjk else summary_length * LETTERS_PER_WORD
        values["hugo_summary_words"] = summary_length
    for hugo_key, target in (("builddrafts", "drafts"), ("buildfuture", "future"), ("buildexpired", "expired")):
        value = take(hugo_key)
        if isinstance(value, bool):
            values[target] = value
    for hugo_key, target in (("contentdir", "source_dir"), ("publishdir", "output_dir")):
        value = take(hugo_key)
        if isinstance(value, str) and value:
            values[target] = value
    permalinks = take("permalinks")
    if isinstance(permalinks, Mapping) and permalinks:
        values["permalinks"] = {str(key): value for key, value in permalinks.items()
                                if isinstance(value, (str, Mapping))}
    markup = take("markup")
    known_markup, unknown_markup = known_settings(markup) if isinstance(markup, Mapping) else ({}, [])
    ignored += unknown_markup   # Hugo's settings blogbuild has no reader for (markup.math, ...): named, not refused
    values["markup"] = with_hugo_defaults(known_markup)
    ignored += _legacy_highlight(values["markup"], take)
    emoji = take("enableemoji")
    if isinstance(emoji, bool):
        values["enableEmoji"] = emoji
    if take("enableinlineshortcodes") is True:   # Hugo's security default: off (a post's templates do not run)
        values["hugo_inline_shortcodes"] = True
    params = take("params")
    used_params = _params(params, values) if isinstance(params, Mapping) else set()
    used_params |= _theme(params if isinstance(params, Mapping) else {}, keyed.get("theme", ("", None))[1], values)
    # Comments and analytics: a theme's giscus/utterances params, Hugo's GA4 service (integrations.py).
    # services and googleAnalytics count as used only when they give the GA4 id (Disqus and the rest do not).
    services, google_analytics = keyed.get("services", ("", None))[1], keyed.get("googleanalytics", ("", None))[1]
    integrations = from_hugo(params if isinstance(params, Mapping) else None,
                             services if isinstance(services, Mapping) else None,
                             google_analytics if isinstance(google_analytics, str) else None)
    values.update(integrations)
    if "google" in integrations.get("analytics", {}):
        handled.update(("services", "googleanalytics"))
    used_params |= _integration_params(params if isinstance(params, Mapping) else {}, integrations)
    for lowered, (key, _) in keyed.items():
        if lowered == "params" and isinstance(params, Mapping):
            ignored += unused_params(params, used_params)
        elif lowered not in handled and key not in _SAME_BY_DEFAULT:
            ignored.append(key)
    return values, ignored


def _integration_params(params: Mapping[str, Any], integrations: Mapping[str, Any]) -> set[str]:
    """The params.* keys integrations.from_hugo() turned into comments or analytics."""
    keyed = _lower_keys(params)
    used: set[str] = set()
    comments = keyed.get("comments", ("", None))[1]
    if "comments" in integrations or comments is False:
        used.update(("params.comments", "params.giscus", "params.utterances"))
    for name in integrations.get("analytics", {}):
        if name != "google":
            used.add(f"params.analytics.{name}")
    return used


def _add_template_math(root: Path, values: dict[str, Any]) -> None:
    """With passthrough on, the delimiters the site's own templates typeset in the browser beyond those it
    names (markup.templateMath), so that the math its reader sees typeset is typeset."""
    markup = values.get("markup")
    passthrough: Any = markup
    for name in ("goldmark", "extensions", "passthrough", "enable"):
        passthrough = next((value for key, value in passthrough.items() if str(key).lower() == name), None) \
            if isinstance(passthrough, Mapping) else None
    if passthrough is not True:
        return
    found = template_math(root)
    if found is not None and isinstance(markup, dict):
        markup["templateMath"] = {"inline": [list(pair) for pair in found.inline],
                                  "block": [list(pair) for pair in found.block], "file": found.file}


def _with_theme_params(root: Path, data: dict[str, Any], themes: Sequence[str]) -> dict[str, Any]:
    """The site's config with each theme's own config's params beneath its own, as Hugo merges them: a key the
    site sets wins, a mapping both set is merged key by key (the first theme's over the next's)."""
    params = _lower_keys(data).get("params", ("", None))[1]
    merged: dict[str, Any] = dict(params) if isinstance(params, Mapping) else {}
    for folder in theme_folders(root, themes):
        if not is_inside(os.path.realpath(folder), (os.path.realpath(root),)):
            continue
        found = find_hugo_config(folder)
        if found is None:
            continue
        shown = folder.relative_to(root).as_posix()
        try:
            theme_data = _read_folder(found, f"{shown}/config/_default", []) if found.is_dir() \
                else _parse(found, f"{shown}/{found.name}")
        except (OSError, UnicodeDecodeError):
            continue
        theme_params = _lower_keys(theme_data).get("params", ("", None))[1]
        if isinstance(theme_params, Mapping):
            merged = _beneath(merged, theme_params)
    if not merged:
        return data
    key = _lower_keys(data).get("params", ("params", None))[0]
    return {**data, key: merged}


def _beneath(own: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """own's keys (in any case) over defaults', mappings merged at every depth."""
    result = dict(own)
    lowered = {str(key).lower(): key for key in own}
    for key, value in defaults.items():
        mine = lowered.get(str(key).lower())
        if mine is None:
            result[key] = value
        elif isinstance(result[mine], Mapping) and isinstance(value, Mapping):
            result[mine] = _beneath(result[mine], value)
    return result


def read_hugo_config(root: Path, shown_root: str = "") -> HugoConfig | None:
    """The site's Hugo config converted to blogbuild's keys, or None when the site has no Hugo config."""
    found = find_hugo_config(root)
    if found is None:
        return None
    shown = f"{shown_root.rstrip('/')}/{found.name}" if shown_root else str(found)
    files: list[tuple[str, str, str]] = []
    if found.is_dir():
        shown = f"{shown_root.rstrip('/')}/config/_default" if shown_root else str(found)
        data = _read_folder(found, shown, files)
    else:
        data = _parse(found, shown)
        files.append((found.name, found.read_text(encoding="utf-8-sig"), ""))
    data = _with_theme_params(root, data, _theme_names(data))
    values, ignored = convert(data)
    # A site param its own Go shortcodes (or a `param` shortcode in content) read is used, not ignored; the files
    # are read only when some param is in question.
    if any(name.startswith("params.") for name in ignored):
        read = params_read_by_the_site(root, str(values.get("source_dir", "content")))
        ignored = [name for name in ignored if not name.startswith("params.")
                   or (read is not None and name.split(".")[1].lower() not in read)]
    _add_template_math(root, values)
    theme = values.get("theme")
    stylesheets = theme.get("extended_css", ()) if isinstance(theme, dict) else ()
    themes = _theme_names(data)
    module = _lower_keys(data).get("module", ("", None))[1]
    if isinstance(module, Mapping) and {str(key).lower() for key in module} <= {"imports", "hugoversion"}:
        # Its imports are the themes: each found under themes/, or named in a warning of its own (missing_themes).
        ignored = [name for name in ignored if name.lower() != "module"]
    own_layouts = runs_own_layouts(root, themes, _taxonomy_map(data))
    if themes:
        values = {**values, "hugo_themes": themes}
    if own_layouts:   # its layouts read site.Params as they like: every param is the site's own
        themes_dir = str(_lower_keys(data).get("themesdir", ("", "themes"))[1]).strip("./") or "themes"
        ignored = [name for name in ignored if not name.startswith("params.") and name.lower() != "theme"
                   and not (name.lower() == "themesdir" and themes_dir == "themes")]   # where blogbuild reads them
        outputs, honoured = _own_layout_outputs(data)
        values = {**values, **outputs, "hugo_related": _related(data)}
        honoured.add("related")
        # Every menu and each entry's every field is the layouts' to show.
        ignored = [name for name in ignored if name.lower() not in honoured
                   and not name.lower().startswith(("menus.", "menu."))]
    return HugoConfig(shown, values, tuple(ignored), tuple(site_files(root, stylesheets, own_layouts=own_layouts)),
                      tuple(files), own_layouts, tuple(missing_themes(root, themes)))


def missing_themes(root: Path, themes: Sequence[str]) -> list[str]:
    """A line for each theme the config names that is not checked out: an empty themes/NAME/ (a clone made
    without --recursive leaves its submodules empty), a submodule of .gitmodules not there, or a theme the
    site's own layouts/ need that is missing; each says how to fetch it. (A theme that is simply absent from a
    site without layouts of its own is named in the unused-settings line.)"""
    notes = []
    submodules = _submodule_paths(root)
    own_layouts = _has_page_layouts(root)
    for name, folder in zip(themes, theme_folders(root, themes), strict=True):
        if folder.is_dir() and any(folder.iterdir()):
            continue
        if "." in name.split("/")[0] and "/" in name:   # a Go module path (module.imports): Hugo downloads it
            short = name.rstrip("/").split("/")[-1]
            short = name.rstrip("/").split("/")[-2] if re.fullmatch(r"v\d+", short) and name.count("/") > 1 else short
            notes.append(f"theme {name!r} is a Hugo module (module.imports), which a build never downloads, and "
                         "_vendor/modules.txt does not list it, so blogbuild's default theme renders the site; "
                         "vendor it with `hugo mod vendor` (which writes its files under _vendor/), or put its files "
                         f"in themes/{short}/ and name it as the theme (theme = \"{short}\")")
            continue
        submodule = f"themes/{name}" in submodules
        if not (folder.is_dir() or submodule or own_layouts):
            continue
        where = "is an empty folder" if folder.is_dir() else "does not exist"
        fetch = "fetch it with `git submodule update --init` (.gitmodules names it)" if submodule \
            else f"put the theme's files in themes/{name}/"
        unused = " (and the site's own layouts, which call the theme's partials, are not used)" if own_layouts else ""
        notes.append(f"theme {name!r}: themes/{name}/ {where}, so blogbuild's default theme renders the site"
                     f"{unused}; {fetch}")
    return notes


_NOT_PAGE_LAYOUTS = frozenset({"partials", "_partials", "shortcodes", "_shortcodes", "_markup"})


def _has_page_layouts(root: Path) -> bool:
    """Whether layouts/ holds page layouts (not only partials, shortcodes and render hooks, which blogbuild's
    default theme runs too)."""
    folder = root / "layouts"
    if not folder.is_dir():
        return False
    for path in itertools.islice(folder.rglob("*"), 10_000):
        parts = path.relative_to(folder).parts
        if path.is_file() and not _NOT_PAGE_LAYOUTS & set(parts[:-1]):
            return True
    return False


def _submodule_paths(root: Path) -> set[str]:
    """The paths .gitmodules gives its submodules ("themes/PaperMod"), read within bounds."""
    try:
        text = (root / ".gitmodules").read_text(encoding="utf-8", errors="replace")[:1_000_000]
    except OSError:
        return set()
    return {match.group(1).strip().strip("/").replace("\\", "/")
            for match in re.finditer(r"^\s*path\s*=\s*(.+?)\s*$", text, re.MULTILINE)}


def _theme_names(data: Mapping[str, Any]) -> list[str]:
    """The site's themes, first wins: its module imports (`module.imports`' paths that are not disabled: a path
    Hugo finds as a folder under themes/ when it is not a module it downloads), then the theme key (a folder name
    under themes/, or a list of them), each once."""
    keyed = _lower_keys(data)
    module = keyed.get("module", ("", None))[1]
    imports = _lower_keys(module).get("imports", ("", None))[1] if isinstance(module, Mapping) else None
    names = []
    for entry in imports if isinstance(imports, list) else []:
        fields = _lower_keys(entry) if isinstance(entry, Mapping) else {}
        path = fields.get("path", ("", None))[1]
        if isinstance(path, str) and path.strip("/") and fields.get("disable", ("", False))[1] is not True:
            names.append(path.strip("/"))
    given = keyed.get("theme", ("", None))[1]
    names += [given] if isinstance(given, str) else given if isinstance(given, list) else []
    return list(dict.fromkeys(str(name) for name in names if isinstance(name, str) and name))


def _related(data: Mapping[str, Any]) -> dict[str, Any]:
    """Hugo's related-content config of the site: its [related], else Hugo's default (keywords, date, and tags
    when the taxonomies have tag); one blogbuild cannot follow is kept as its reason, which `.Related` raises."""
    given = _lower_keys(data).get("related", ("", None))[1]
    taxonomies = _taxonomy_map(data)
    try:
        return config_mapping(related_config(given, taxonomies is None or "tag" in taxonomies))
    except RelatedError as error:
        return {"unsupported": f"the config's related: {error}"}


def _taxonomy_map(data: Mapping[str, Any]) -> dict[str, str] | None:
    """Hugo's taxonomies (singular -> plural), None when the config leaves Hugo's default."""
    given = _lower_keys(data).get("taxonomies", ("", None))[1]
    if not isinstance(given, Mapping):
        return None
    return {str(singular): str(plural) for singular, plural in given.items() if isinstance(plural, str)}


# The kinds of disableKinds blogbuild leaves out as Hugo does, for a site its own layouts render: outputs, and
# pages of a kind (Hugo's kinds; a term's disabled: no term of any taxonomy, so no taxonomy's page lists one).
_DISABLED_OUTPUTS = frozenset({"rss", "sitemap", "robotstxt"})
_DISABLED_PAGES = frozenset({"home", "page", "section", "taxonomy", "term", "404"})


def _own_layout_outputs(data: Mapping[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """What Hugo writes besides a site's pages when its own layouts render it, as blogbuild.yaml keys: an RSS
    feed per list (Hugo's one feed format) unless disableKinds says RSS, sitemap.xml unless it says sitemap,
    robots.txt only with enableRobotsTXT, no search index of blogbuild's (a layout makes its own), content
    images as the markdown writes them (no sizes, variants or lazy loading added); and the
    Hugo keys (lower case) that are then honoured."""
    keyed = _lower_keys(data)
    disabled_value = keyed.get("disablekinds", ("", None))[1]
    disabled = {str(kind).lower() for kind in disabled_value} if isinstance(disabled_value, list) else set()
    robots = keyed.get("enablerobotstxt", ("", False))[1] is True
    honoured = {"enablerobotstxt"} | ({"disablekinds"} if disabled <= _DISABLED_OUTPUTS | _DISABLED_PAGES else set())
    outputs = keyed.get("outputs", ("", None))[1]
    home = _lower_keys(outputs).get("home", ("", None))[1] if isinstance(outputs, Mapping) else None
    rss_kinds = _rss_kinds(outputs)
    home_json = isinstance(home, list) and "json" in {str(name).lower() for name in home}
    services = keyed.get("services", ("", None))[1]
    rss = _lower_keys(services).get("rss", ("", None))[1] if isinstance(services, Mapping) else None
    limit = _lower_keys(rss).get("limit", ("", None))[1] if isinstance(rss, Mapping) else None
    disqus = _lower_keys(services).get("disqus", ("", None))[1] if isinstance(services, Mapping) else None
    shortname = _lower_keys(disqus).get("shortname", ("", None))[1] if isinstance(disqus, Mapping) else None
    if isinstance(services, Mapping) and {str(key).lower() for key in services} <= {"rss", "disqus"}:
        honoured.add("services")   # the limit of its feeds, the Disqus shortname of Hugo's disqus.html
    legacy = keyed.get("disqusshortname", ("", None))[1]   # the top-level key Hugo still reads when services has none
    if isinstance(legacy, str):
        honoured.add("disqusshortname")
        shortname = shortname if isinstance(shortname, str) and shortname else legacy
    privacy = keyed.get("privacy", ("", None))[1]
    if isinstance(privacy, Mapping):
        honoured.add("privacy")   # site.Config.Privacy
    # .Site.Author and .Site.Social of themes written before Hugo 0.124 deprecated them (0.168 no longer has them).
    site_maps = {name: dict(keyed[name][1]) for name in ("author", "social")
                 if isinstance(keyed.get(name, ("", None))[1], Mapping)}
    honoured |= set(site_maps)
    # relativeURLs wins over canonifyURLs, as Hugo checks it first.
    rewrite = "relative" if keyed.get("relativeurls", ("", False))[1] is True else \
        "canonify" if keyed.get("canonifyurls", ("", False))[1] is True else ""
    honoured |= {"relativeurls", "canonifyurls"} & set(keyed)
    page_outputs = _page_output_formats(keyed, outputs)
    minify = _lower_keys(keyed.get("minify", ("", None))[1] or {}) if isinstance(keyed.get("minify", ("", None))[1],
                                                                                  Mapping) else {}
    minify_output = minify.get("minifyoutput", ("", False))[1] is True and minify.get("disablehtml", ("", False))[1] \
        is not True
    if set(minify) <= {"minifyoutput", "disablehtml", "disablexml", "disablecss", "disablejs", "disablejson",
                       "disablesvg", "tdewolff"}:
        honoured.add("minify")   # its pages minified (minifyOutput); the other outputs are written as rendered
    sitemap = keyed.get("sitemap", ("", None))[1]
    sitemap_settings = {str(key).lower(): value for key, value in sitemap.items()
                        if str(key).lower() in ("changefreq", "priority")} if isinstance(sitemap, Mapping) else {}
    if isinstance(sitemap, Mapping) and len(sitemap_settings) == len(sitemap):
        honoured.add("sitemap")   # its change frequency and priority; a filename is not followed
    cascade = keyed.get("cascade", ("", None))[1]
    if cascade is not None:
        honoured.add("cascade")   # handed down to the pages (core/cascade.py)
    return {"hugo_rss_limit": max(0, limit) if isinstance(limit, int) and not isinstance(limit, bool) else 0,
            "hugo_cascade": json.loads(json.dumps(cascade, default=str)) if cascade is not None else None,
            "hugo_rss_kinds": rss_kinds,
            "feeds": [] if "rss" in disabled else ["rss"], "sitemap": "sitemap" not in disabled,
            "robots_txt": robots and "robotstxt" not in disabled, "search_index": "none", "images": False,
            "hugo_home_json": home_json, "hugo_sitemap": sitemap_settings,
            "hugo_privacy": dict(privacy) if isinstance(privacy, Mapping) else {}, "hugo_url_rewrite": rewrite,
            "hugo_disqus_shortname": shortname if isinstance(shortname, str) else "", "hugo_site_maps": site_maps,
            "hugo_page_outputs": page_outputs, "hugo_minify_output": minify_output,
            "hugo_disabled_kinds": tuple(sorted(disabled & _DISABLED_PAGES)),
            "rss_file": _rss_file(keyed),
            **({"taxonomies": []} if "term" in disabled else {})}, \
        honoured | ({"outputformats", "mediatypes"} if page_outputs or _only_rss_named(keyed) else set())


def _rss_formats(keyed: Mapping[str, Any]) -> dict[str, Any]:
    defined = keyed.get("outputformats", ("", None))[1]
    return {str(name).lower(): value for name, value in defined.items()} if isinstance(defined, Mapping) else {}


def _rss_file(keyed: Mapping[str, Any]) -> str:
    """The file name of every list's feed: Hugo's RSS output format's baseName (outputFormats.RSS.baseName:
    "atom" writes /atom.xml, /posts/atom.xml, ...), index.xml by default."""
    settings = _rss_formats(keyed).get("rss")
    base = _lower_keys(settings).get("basename", ("", None))[1] if isinstance(settings, Mapping) else None
    return f"{base}.xml" if isinstance(base, str) and base and "/" not in base and base not in (".", "..") \
        else "index.xml"


def _only_rss_named(keyed: Mapping[str, Any]) -> bool:
    """outputFormats sets only the RSS format's baseName (and its own media type), which blogbuild follows."""
    formats = _rss_formats(keyed)
    settings = formats.get("rss")
    if set(formats) != {"rss"} or not isinstance(settings, Mapping):
        return False
    known = _lower_keys(settings)
    media = str(known.get("mediatype", ("", "application/rss+xml"))[1]).lower()
    return set(known) <= {"basename", "mediatype"} and media == "application/rss+xml"


# Hugo's default media types' file suffix (the first of their suffixes).
_MEDIA_SUFFIXES = {"text/plain": "txt", "text/markdown": "md", "text/html": "html", "application/json": "json",
                   "application/xml": "xml", "text/xml": "xml", "text/csv": "csv", "text/calendar": "ics",
                   "application/rss+xml": "xml", "text/css": "css", "text/javascript": "js"}


_LIST_KINDS = ("home", "section", "taxonomy", "term")


def _rss_kinds(outputs: Any) -> tuple[str, ...]:
    """The kinds of list Hugo writes an RSS feed of: each one's outputs when the config lists them (`term =
    ["HTML"]`: none), else Hugo's default, HTML and RSS."""
    keyed = _lower_keys(outputs) if isinstance(outputs, Mapping) else {}
    kinds = []
    for kind in _LIST_KINDS:
        named = keyed.get(kind, ("", None))[1]
        if not isinstance(named, list) or "rss" in {str(name).lower() for name in named}:
            kinds.append(kind)
    return tuple(kinds)


def _page_output_formats(keyed: Mapping[str, Any], outputs: Any) -> dict[str, dict[str, Any]]:
    """The output formats the config defines (outputFormats) that outputs.page names besides HTML, by name in
    lower case: the file each page writes (baseName, default index, and the first suffix of its media type, the
    config's mediaTypes over Hugo's), its media type, rel, and whether it is plain text (text/template)."""
    page = _lower_keys(outputs).get("page", ("", None))[1] if isinstance(outputs, Mapping) else None
    defined = keyed.get("outputformats", ("", None))[1]
    if not isinstance(page, list) or not isinstance(defined, Mapping):
        return {}
    formats = {str(name).lower(): _lower_keys(value) for name, value in defined.items() if isinstance(value, Mapping)}
    media_types = keyed.get("mediatypes", ("", None))[1]
    media_types = {str(name).lower(): _lower_keys(value) for name, value in media_types.items()
                   if isinstance(value, Mapping)} if isinstance(media_types, Mapping) else {}
    found: dict[str, dict[str, Any]] = {}
    for name in (str(item).lower() for item in page):
        settings = formats.get(name)
        if name == "html" or settings is None:
            continue
        media = str(settings.get("mediatype", ("", ""))[1] or "").lower()
        suffixes = media_types.get(media, {}).get("suffixes", ("", None))[1]
        suffix = str(suffixes[0]) if isinstance(suffixes, list) and suffixes else _MEDIA_SUFFIXES.get(media, "")
        if not media or not suffix:
            continue
        base = str(settings.get("basename", ("", "index"))[1] or "index")
        found[name] = {"file": f"{base}.{suffix}", "media_type": media,
                       "rel": str(settings.get("rel", ("", "alternate"))[1] or "alternate"),
                       "plain": settings.get("isplaintext", ("", False))[1] is True}
    return found


def ignored_message(ignored: Sequence[str], where: Callable[[str], str] | None = None) -> str:
    """The one warning line naming everything of a Hugo site blogbuild does not use (each key with the file and
    line it is written at, from `where`), and what it does instead."""
    return unused_message(ignored, where)


# --- what `init --from-hugo` reports: Go templates that need a Jinja port, and where content uses them -----

# Hugo's own shortcodes (blogbuild's built-in ones are the caller's: markdown/shortcodes.py's BUILTIN_NAMES).
_HUGO_BUILTIN_SHORTCODES = frozenset({"figure", "details", "highlight", "ref", "relref", "param", "gist", "youtube",
                                      "vimeo", "x", "tweet", "instagram", "qr", "comment"})
_SHORTCODE_USE = re.compile(r"\{\{[<%]\s*(?!/)([\w.\-/]+)")


@dataclass(frozen=True)
class TemplateToPort:
    """A Go template (site layout or shortcode) that blogbuild cannot run, and the content lines that use it."""

    path: str                      # relative to the site folder, e.g. "layouts/shortcodes/notice.html"
    kind: str                      # "shortcode" | "layout" | "partial" | "render hook"
    uses: tuple[str, ...] = ()     # "content/posts/a.md:12" for each use
    problem: str = ""              # why the translator cannot take it: "1:9: function 'resources.Get' is …"
    instead: str = ""              # what blogbuild does in its place, when it does something
    note: str = ""                 # what else running it would mean (a second copy of what blogbuild serves)


def _content_uses(content: Path, root: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(shortcode name -> uses, layout or type name -> pages) over every markdown file of content/."""
    shortcodes: dict[str, list[str]] = {}
    layouts: dict[str, list[str]] = {}
    if not content.is_dir():
        return shortcodes, layouts
    real_root = os.path.join(os.path.realpath(root), "")
    # rglob does not enter linked folders; a linked file out of the site is not read (sources' rule).
    for path in sorted(content.rglob("*.md")):
        if not os.path.realpath(path).startswith(real_root) or not path.is_file():
            continue
        shown = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for match in _SHORTCODE_USE.finditer(line):
                shortcodes.setdefault(match.group(1), []).append(f"{shown}:{number}")
            stripped = line.strip()
            fence = _FENCE_LANGUAGE.match(stripped)
            if fence:   # a fenced code block's language: what a render-codeblock-LANG hook would draw
                layouts.setdefault(f"{_FENCE_KEY}{fence.group(1).lower()}", []).append(f"{shown}:{number}")
            for key in ("layout", "type"):
                for separator in (":", " ="):
                    if stripped.startswith(key + separator):
                        value = stripped[len(key) + len(separator):].strip().strip("\"'")
                        layouts.setdefault(value, []).append(f"{shown}:{number}")
    return shortcodes, layouts


_FENCE_LANGUAGE = re.compile(r"^(?:```+|~~~+)\s*\{?\s*\.?([A-Za-z0-9_+-]+)")
_FENCE_KEY = "\x00fence:"   # a key of _content_uses' layouts: a code block's language, not a layout name
# A library a template loads from elsewhere that blogbuild already serves from its own copy.
_SECOND_COPIES = (("katex", "KaTeX"), ("mathjax", "MathJax"), ("mermaid", "mermaid"))


def second_copies(text: str) -> str:
    """What a template loads from another host that blogbuild already provides (a CDN KaTeX, MathJax or
    mermaid), as one line; '' when nothing."""
    found = []
    for src in re.findall(r"""(?:src|href)\s*=\s*["']?((?:https?:)?//[^"'\s>]+)""", text, re.I):
        for needle, name in _SECOND_COPIES:
            if needle in src.lower() and name not in found:
                found.append(name)
    if not found:
        return ""
    names = " and ".join(found)
    return (f"it loads {names} from another host as well: blogbuild already typesets math at build time and serves "
            f"its own {names} (a second KaTeX stylesheet overrides blogbuild's own): remove those lines")


def _render_hook(shown: str, name: str, layout_uses: Mapping[str, list[str]]) -> TemplateToPort:
    """A render hook with its uses in content (a code block hook: the fences of its language) and what blogbuild
    does in its place."""
    uses: tuple[str, ...] = ()
    if name.startswith("render-codeblock-"):
        uses = tuple(layout_uses.get(_FENCE_KEY + name[len("render-codeblock-"):].lower(), ()))
    instead = RENDER_HOOKS_INSTEAD.get(name, "")
    return TemplateToPort(shown, "render hook", uses, instead=instead)


def templates_to_port(root: Path, source_dir: str = "content", *, built_in: Collection[str] = ()) -> list[TemplateToPort]:
    """Every site layout (layouts/, themes/*/layouts/), every shortcode and partial there that the translator
    cannot take (gotemplate/: the others run as they are), each with its uses in content, and every
    shortcode content uses that is defined nowhere (built_in: the shortcodes blogbuild has itself)."""
    from .gotemplate import GoSource, layout_folders
    from .gotemplate.pipes import pipes_outside_layouts
    shortcode_uses, layout_uses = _content_uses(root / source_dir, root)
    found: list[TemplateToPort] = []
    defined: set[str] = set()
    for folder in layout_folders(root):
        for path in sorted(item for item in folder.rglob("*") if item.is_file()):
            relative = path.relative_to(folder).as_posix()
            shown = path.relative_to(root).as_posix()
            name = path.stem.split(".")[0]
            is_shortcode = relative.startswith(("shortcodes/", "_shortcodes/"))
            if is_shortcode:
                defined.add(name)
            problem = ""
            if (is_shortcode or relative.startswith(("partials/", "_partials/"))) and path.suffix == ".html":
                text = path.read_text(encoding="utf-8", errors="replace")
                error = GoSource(shown, text).error
                hook_pipes = pipes_outside_layouts(text) if error is None and (
                    is_shortcode or path.name in ("extend_head.html", "extend_footer.html")) else ""
                if error is None and not hook_pipes:
                    if path.name in ("extend_head.html", "extend_footer.html"):
                        # Run on every page as it is: said so, with what it loads that blogbuild serves itself.
                        found.append(TemplateToPort(shown, "partial", ("every page (PaperMod's hook)",),
                                                    instead="runs as it is on every page",
                                                    note=second_copies(text)))
                    continue   # translated and run (gotemplate/)
                problem = f"{error.line}:{error.column}: {error.message}" if error is not None else hook_pipes
            if is_shortcode:
                found.append(TemplateToPort(shown, "shortcode", tuple(shortcode_uses.get(name, ())), problem))
            elif relative.startswith(("partials/", "_partials/")):
                hook = path.name in ("extend_head.html", "extend_footer.html")   # PaperMod's, run on every page
                found.append(TemplateToPort(shown, "partial", ("every page (PaperMod's hook)",) if hook else (),
                                            problem))
            elif "_markup/" in relative and name.startswith("render-"):
                found.append(_render_hook(shown, name, layout_uses))
            else:
                found.append(TemplateToPort(shown, "layout", tuple(layout_uses.get(name, ()))))
    for name in sorted(shortcode_uses):
        if name not in defined and name not in built_in:
            label = "Hugo built-in shortcode" if name in _HUGO_BUILTIN_SHORTCODES else "shortcode defined nowhere"
            found.append(TemplateToPort(f"{{{{< {name} >}}}} ({label})", "shortcode", tuple(shortcode_uses[name])))
    return found
