"""The `markup:` settings (Hugo's names: goldmark, tableOfContents, highlight), checked key by key into MarkupConfig."""
from __future__ import annotations

from dataclasses import field, replace
from pathlib import PurePath
from typing import Any, Callable, Mapping

from ..core.errors import SourceError
from ..core.keys import nested_key_line
from ..core.records import dataclass

# Heading id styles: Hugo's three, and blogbuild's own (GitHub's rules with Python's notion of a word
# character, and "section" for a heading with no text), which is what blogbuild.yaml sites had before.
HEADING_ID_TYPES = ("github", "github-ascii", "blackfriday", "blogbuild")

# The math delimiters blogbuild's math rules know; Hugo's passthrough may name any pair, but these are
# the ones KaTeX auto-render (and every Hugo math guide) uses.
INLINE_DELIMITERS = (("\\(", "\\)"), ("$", "$"))
BLOCK_DELIMITERS = (("\\[", "\\]"), ("$$", "$$"))
OPENINGS = tuple(opening for opening, _closing in INLINE_DELIMITERS + BLOCK_DELIMITERS)


@dataclass(frozen=True)
class MarkupConfig:
    """How markdown becomes HTML; frozen and hashable, so one parser is built per distinct value."""

    hard_wraps: bool = False
    linkify: bool = False
    linkify_protocol: str = "https"
    typographer: bool = False
    block_attributes: bool = False
    title_attributes: bool = True
    heading_ids: bool = True
    heading_anchors: bool = True        # a "#" link after each heading (the default theme's; not a Hugo setting)
    # goldmark's parser.wrapStandAloneImageWithinParagraph: False leaves an image alone in its paragraph unwrapped
    # (a block: a render-image hook's .IsBlock).
    wrap_standalone_images: bool = True
    render_hooks: bool = False          # a Hugo site's _markup/render-*.html draw its elements (its layouts render it)
    # A line break between two CJK characters: None is blogbuild's way (no space); True drops it only between
    # goldmark's East Asian wide characters, False keeps it (goldmark's default). A Hugo site its own layouts
    # render takes hugo_east_asian_line_breaks, its goldmark cjk extension's enable and eastAsianLineBreaks.
    east_asian_line_breaks: bool | None = None
    hugo_east_asian_line_breaks: bool = False
    embedded_link_hook: bool = False    # renderHooks.link.useEmbedded fallback/always: Hugo's own link hook
    heading_id_type: str = "blogbuild"
    # The math delimiters; Hugo's passthrough extension, when a config enables it, narrows them.
    inline_math: tuple[tuple[str, str], ...] = INLINE_DELIMITERS
    block_math: tuple[tuple[str, str], ...] = BLOCK_DELIMITERS
    # Whether the site's config turned passthrough on: Hugo then leaves math out of heading ids.
    passthrough: bool = False
    # The openings of the math whose text Hugo's goldmark parses as markdown before the browser's KaTeX reads it
    # (a delimiter passthrough does not list): its backslash escapes and entities resolved (4\*2 is 4*2).
    goldmark_math: tuple[str, ...] = ()
    # Where the delimiters were decided (the config file; the template whose KaTeX or MathJax setup added some),
    # for the warning about math no delimiter covers.
    # Names in messages only: not part of what makes two configs render alike.
    math_config: str = field(default="", compare=False)
    math_template: str = field(default="", compare=False)
    toc_start_level: int = 1
    toc_end_level: int = 6
    toc_ordered: bool = False
    line_numbers: bool = False
    line_number_start: int = 1
    line_numbers_in_table: bool = False
    anchor_line_numbers: bool = False
    code_fences: bool = True
    # markup.goldmark.renderer.unsafe is true: a Hugo site its own layouts render keeps its HTML comments (goldmark
    # leaves them out otherwise; blogbuild keeps any other raw HTML either way).
    goldmark_unsafe: bool = False
    # markup.highlight as written (lower-case keys): Hugo's Chroma options for a site its own layouts render.
    highlight: tuple[tuple[str, Any], ...] = ()
    enable_emoji: bool = False
    # Hugo settings that were read but are not honoured (dotted names), reported once by the build.
    ignored: tuple[str, ...] = ()


def _fail(path: str, line: int, message: str) -> SourceError:
    return SourceError(path, line, message, stage="config")


# The settings tree: each Hugo key (lowercase, as Hugo compares them) to a MarkupConfig field and a
# kind, or to a nested tree. "hugo" marks a key Hugo has and blogbuild reads but does not honour.
_Kind = str
_TREE: dict[str, Any] = {
    "defaultmarkdownhandler": ("hugo", "defaultMarkdownHandler"),
    "goldmark": {
        "renderer": {
            "hardwraps": ("hard_wraps", "bool"),
            "unsafe": ("hugo_unless_true", "unsafe"),    # blogbuild always keeps raw HTML, and checks it
            "xhtml": ("hugo", "xhtml"),
        },
        "extensions": {
            "linkify": ("linkify", "bool"),
            "linkifyprotocol": ("linkify_protocol", "protocol"),
            "typographer": ("typographer", "typographer"),
            "passthrough": ("passthrough", "passthrough"),
            "table": ("always_on", "table"), "strikethrough": ("always_on", "strikethrough"),
            "footnote": ("always_on", "footnote"), "definitionlist": ("always_on", "definitionList"),
            "tasklist": ("always_on", "taskList"), "cjk": ("hugo_east_asian_line_breaks", "cjk"), "extras": ("off_by_default", "extras"),
        },
        "parser": {
            "autoheadingid": ("heading_ids", "bool"),
            "autoheadingidtype": ("heading_id_type", "id_type"),
            "attribute": {
                "block": ("block_attributes", "bool"),
                "title": ("title_attributes", "bool"),
            },
            "wrapstandaloneimagewithinparagraph": ("wrap_standalone_images", "bool"),
        },
        "duplicateresourcefiles": ("hugo", "duplicateResourceFiles"),
        "renderhooks": {
            "link": {"useembedded": ("embedded_link_hook", "embedded"), "enabledefault": ("hugo", "enableDefault")},
            "image": {"useembedded": ("hugo", "useEmbedded"), "enabledefault": ("hugo", "enableDefault")},
        },
    },
    "tableofcontents": {
        "startlevel": ("toc_start_level", "level"),
        "endlevel": ("toc_end_level", "level"),
        "ordered": ("toc_ordered", "bool"),
    },
    "highlight": {
        "linenos": ("line_numbers", "bool"),
        "linenostart": ("line_number_start", "number"),
        "linenumbersintable": ("line_numbers_in_table", "bool"),
        "anchorlinenos": ("anchor_line_numbers", "bool"),
        "codefences": ("code_fences", "bool"),
        # Read whole into MarkupConfig.highlight for Chroma (a Hugo site's own layouts); the default theme's
        # Pygments highlighting has no use for them.
        "style": ("chroma", "style"), "noclasses": ("chroma", "noClasses"), "guesssyntax": ("chroma", "guessSyntax"),
        "tabwidth": ("chroma", "tabWidth"), "hl_lines": ("chroma", "hl_Lines"),
        "lineanchors": ("chroma", "lineAnchors"), "hl_inline": ("chroma", "hl_inline"),
        "wrapperclass": ("chroma", "wrapperClass"),
    },
    "enableemoji": ("enable_emoji", "bool"),
    # blogbuild's own: the delimiters a Hugo site's templates typeset in the browser (hugo_config reads them).
    "templatemath": ("template_math", "template_math"),
    "asciidocext": ("hugo", "asciidocExt"),
    "pandoc": ("hugo", "pandoc"),
    "rst": ("hugo", "rst"),
    "org": ("hugo", "org"),
}

# The spelling shown in messages for each lowercase key.
_SPELLING = {
    "defaultmarkdownhandler": "defaultMarkdownHandler", "hardwraps": "hardWraps", "linkifyprotocol": "linkifyProtocol",
    "autoheadingid": "autoHeadingID", "autoheadingidtype": "autoHeadingIDType", "tableofcontents": "tableOfContents",
    "startlevel": "startLevel", "endlevel": "endLevel", "linenos": "lineNos", "linenostart": "lineNoStart",
    "linenumbersintable": "lineNumbersInTable", "anchorlinenos": "anchorLineNos", "codefences": "codeFences",
    "enableemoji": "enableEmoji", "definitionlist": "definitionList", "tasklist": "taskList", "backlinkhtml": "backlinkHTML",
    "wrapstandaloneimagewithinparagraph": "wrapStandAloneImageWithinParagraph", "noclasses": "noClasses",
    "guesssyntax": "guessSyntax", "tabwidth": "tabWidth", "lineanchors": "lineAnchors", "wrapperclass": "wrapperClass",
    "duplicateresourcefiles": "duplicateResourceFiles", "renderhooks": "renderHooks", "asciidocext": "asciidocExt",
    "templatemath": "templateMath",
}


@dataclass
class _Reader:
    """Where the mapping came from, for messages: the file's path and text."""

    path: str
    text: str
    keys: tuple[str, ...]

    def fail(self, names: tuple[str, ...], message: str) -> SourceError:
        return _fail(self.path, nested_key_line(self.text, self.keys + names), message)


def _dotted(names: tuple[str, ...]) -> str:
    return "markup." + ".".join(_SPELLING.get(name, name) for name in names)


def _check_bool(value: Any, names: tuple[str, ...], reader: _Reader) -> bool:
    if not isinstance(value, bool):
        raise reader.fail(names, f"{_dotted(names)} must be true or false, not {value!r}")
    return value


def _check_typographer(value: Any, names: tuple[str, ...], reader: _Reader) -> bool:
    # Hugo's typographer is a mapping ({disable: false, leftDoubleQuote: ...}); a plain true/false is
    # accepted too, as blogbuild.yaml users write it.
    if isinstance(value, bool):
        return value
    if isinstance(value, Mapping):
        disable = {str(key).lower(): item for key, item in value.items()}.get("disable", False)
        return not _check_bool(disable, names + ("disable",), reader)
    raise reader.fail(names, f"{_dotted(names)} must be true, false or a mapping like {{disable: false}}")


def _check_level(value: Any, names: tuple[str, ...], reader: _Reader) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise reader.fail(names, f"{_dotted(names)} must be a heading level from 1 to 6, not {value!r}")
    return value


def _check_number(value: Any, names: tuple[str, ...], reader: _Reader) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise reader.fail(names, f"{_dotted(names)} must be a whole number >= 0, not {value!r}")
    return value


def _check_id_type(value: Any, names: tuple[str, ...], reader: _Reader) -> str:
    text = str(value).lower() if isinstance(value, str) else ""
    if text not in HEADING_ID_TYPES:
        raise reader.fail(names, f"{_dotted(names)} must be one of {', '.join(HEADING_ID_TYPES)}, not {value!r}")
    return text


def _check_embedded(value: Any, names: tuple[str, ...], reader: _Reader) -> bool:
    """renderHooks.link.useEmbedded: whether Hugo's embedded link hook draws the links of a site that has no
    link hook of its own (fallback, always); auto and never leave them as written on a site of one language."""
    text = str(value).lower() if isinstance(value, str) else ""
    if text not in ("auto", "always", "fallback", "never"):
        raise reader.fail(names, f"{_dotted(names)} must be auto, always, fallback or never, not {value!r}")
    return text in ("always", "fallback")


def _check_protocol(value: Any, names: tuple[str, ...], reader: _Reader) -> str:
    if value not in ("http", "https"):
        raise reader.fail(names, f"{_dotted(names)} must be http or https, not {value!r}")
    return str(value)


_CHECKS: dict[_Kind, Callable[[Any, tuple[str, ...], _Reader], Any]] = {
    "bool": _check_bool, "typographer": _check_typographer, "level": _check_level, "number": _check_number,
    "id_type": _check_id_type, "protocol": _check_protocol, "embedded": _check_embedded,
}


def _passthrough(value: Any, names: tuple[str, ...], reader: _Reader) -> dict[str, Any]:
    """Hugo's passthrough extension: enable, and the delimiters that are math."""
    if not isinstance(value, Mapping):
        raise reader.fail(names, f"{_dotted(names)} must be a mapping like {{enable: true, delimiters: ...}}")
    settings = {str(key).lower(): item for key, item in value.items()}
    enabled = _check_bool(settings.get("enable", False), names + ("enable",), reader)
    if not enabled:
        return {"passthrough": False, "goldmark_math": OPENINGS, "math_config": _shown_name(reader.path)}
    delimiters = settings.get("delimiters") or {}
    if not isinstance(delimiters, Mapping):
        raise reader.fail(names + ("delimiters",), f"{_dotted(names)}.delimiters must be a mapping with block "
                                                   "and inline lists of [open, close] pairs")
    result: dict[str, Any] = {"passthrough": True}
    known = {"inline": INLINE_DELIMITERS, "block": BLOCK_DELIMITERS}
    for kind, allowed in known.items():
        pairs = {str(key).lower(): item for key, item in delimiters.items()}.get(kind, [])
        chosen = _delimiter_pairs(pairs, names + ("delimiters", kind), reader, allowed)
        result["inline_math" if kind == "inline" else "block_math"] = chosen
    result["math_config"] = _shown_name(reader.path)
    return result


def _shown_name(path: str) -> str:
    """A config file's name inside its site (hugo.toml, config/_default), not where the site is: the config's
    key leaves the site's folder out."""
    parts = PurePath(path).parts
    return "/".join(parts[-2:]) if len(parts) >= 2 and parts[-2] == "config" else (parts[-1] if parts else path)


def _delimiter_pairs(value: Any, names: tuple[str, ...], reader: _Reader,
                     allowed: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list) or not all(isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in value):
        raise reader.fail(names, f"{_dotted(names)} must be a list of [open, close] pairs")
    pairs = tuple((str(opening), str(closing)) for opening, closing in value)
    for pair in pairs:
        if pair not in allowed:
            shown = ", ".join(f"[{a!r}, {b!r}]" for a, b in allowed)
            raise reader.fail(names, f"{_dotted(names)}: [{pair[0]!r}, {pair[1]!r}] is not a math delimiter "
                                     f"blogbuild knows; use any of {shown}")
    return pairs


def _template_math(value: Any, names: tuple[str, ...], reader: _Reader) -> dict[str, Any]:
    """markup.templateMath: {inline: [[open, close]...], block: [...], file: "layouts/partials/math.html"}, the
    delimiters a site's own KaTeX or MathJax setup typesets in the browser."""
    if not isinstance(value, Mapping):
        raise reader.fail(names, f"{_dotted(names)} must be a mapping like {{inline: [['$', '$']], file: ...}}")
    settings = {str(key).lower(): item for key, item in value.items()}
    inline = _delimiter_pairs(settings.get("inline", []), names + ("inline",), reader, INLINE_DELIMITERS)
    block = _delimiter_pairs(settings.get("block", []), names + ("block",), reader, BLOCK_DELIMITERS)
    return {"template_math": (inline, block, str(settings.get("file", "")))}


def _with_template_math(values: dict[str, Any]) -> dict[str, Any]:
    """The delimiters a site's templates typeset added to those passthrough names, their text goldmark's."""
    inline, block, file = values.pop("template_math", ((), (), ""))
    if not values.get("passthrough") or not (inline or block):
        return values
    passed = {opening for opening, _closing in values.get("inline_math", ()) + values.get("block_math", ())}
    added = [pair for pair in inline + block
             if pair not in values.get("inline_math", ()) + values.get("block_math", ())]
    values["inline_math"] = tuple(dict.fromkeys(values.get("inline_math", ()) + inline))
    values["block_math"] = tuple(dict.fromkeys(values.get("block_math", ()) + block))
    values["goldmark_math"] = tuple(opening for opening, _closing in added if opening not in passed)
    values["math_template"] = file
    return values


# Hugo's own values of settings blogbuild always behaves as (goldmark's footnote backlink is markdown-it's too).
_HUGO_DEFAULTS = {"enable": True, "backlinkhtml": "&#x21a9;&#xfe0e;"}


def _always_on(value: Any, here: tuple[str, ...]) -> list[str]:
    """An extension blogbuild always has on (tables, footnotes, ...): nothing to report when the config turns
    it on as Hugo does by default; turned off, or a setting changed, it is not carried over."""
    if value is True:
        return []
    if isinstance(value, Mapping):
        return [_dotted(here + (str(key).lower(),)) for key, item in value.items()
                if _HUGO_DEFAULTS.get(str(key).lower(), object()) != item]
    return [_dotted(here)]


def _cjk(value: Any, here: tuple[str, ...], ignored: list[str]) -> bool:
    """goldmark's cjk extension: whether a line break between East Asian characters is dropped (enable and
    eastAsianLineBreaks); its other settings are named as not used."""
    if not isinstance(value, Mapping):
        ignored.append(_dotted(here))
        return False
    settings = {str(key).lower(): item for key, item in value.items()}
    ignored += [_dotted(here + (key,)) for key in settings if key not in ("enable", "eastasianlinebreaks")
                and settings[key] not in (False, "simple")]
    return settings.get("enable") is True and settings.get("eastasianlinebreaks") is True


def _off_by_default(value: Any, here: tuple[str, ...]) -> list[str]:
    """Hugo's extras (`==mark==`, `~sub~`, ...), off in Hugo as in blogbuild: reported only when one is enabled."""
    if not isinstance(value, Mapping):
        return [_dotted(here)]
    return [_dotted(here + (str(name).lower(),)) for name, setting in value.items()
            if not (isinstance(setting, Mapping) and all(str(key).lower() == "enable" and item is False
                                                         for key, item in setting.items()))]


_AS_BLOGBUILD_DOES: dict[str, Callable[[Any, tuple[str, ...]], list[str]]] = {
    "always_on": _always_on, "off_by_default": _off_by_default}


def _walk(mapping: Mapping[str, Any], tree: Mapping[str, Any], names: tuple[str, ...], reader: _Reader,
          values: dict[str, Any], ignored: list[str]) -> None:
    if not isinstance(mapping, Mapping):
        where = _dotted(names) if names else "markup"
        raise reader.fail(names, f"{where} must be a mapping of settings")
    for key, value in mapping.items():
        lowered = str(key).lower()
        here = names + (lowered,)
        entry = tree.get(lowered)
        if entry is None:
            spelled = {_SPELLING.get(name, name): name for name in tree}
            import difflib   # only for a misspelt key
            close = difflib.get_close_matches(str(key), list(spelled), n=1, cutoff=0.6)
            hint = f"; did you mean '{close[0]}'?" if close else f"; known here: {', '.join(sorted(spelled))}"
            raise reader.fail(here, f"unknown markup setting '{_dotted(names + (str(key),))}'{hint}")
        if isinstance(entry, dict):
            if here == ("goldmark", "parser", "attribute") and isinstance(value, bool):
                value = {"title": value, "block": False}   # a bool before Hugo 0.81, read by 0.168 as its title
            _walk(value, entry, here, reader, values, ignored)
            continue
        target, kind = entry
        if target in _AS_BLOGBUILD_DOES:
            ignored += _AS_BLOGBUILD_DOES[target](value, here)
        elif target == "hugo" or (target == "hugo_unless_true" and value is not True):
            ignored.append(_dotted(here))
        elif target == "chroma":   # named unless the site's own layouts render it (config/__init__.py)
            ignored.append(_dotted(here))
        elif target == "hugo_unless_true":
            continue
        elif kind == "passthrough":
            values.update(_passthrough(value, here, reader))
        elif kind == "cjk":
            values[target] = _cjk(value, here, ignored)
        elif kind == "template_math":
            values.update(_template_math(value, here, reader))
        else:
            values[target] = _CHECKS[kind](value, here, reader)


def known_settings(mapping: Mapping[str, Any], tree: Mapping[str, Any] = _TREE,
                   written: str = "markup") -> tuple[dict[str, Any], list[str]]:
    """A Hugo `markup` mapping split into the settings blogbuild knows (what markup_from_mapping reads) and the
    dotted names, as written, of the rest (markup.math, markup.goldmark.extensions.foo): what a Hugo config's
    reader names as not used instead of refusing."""
    known: dict[str, Any] = {}
    unknown: list[str] = []
    for key, value in mapping.items():
        entry = tree.get(str(key).lower())
        if entry is None:
            unknown.append(f"{written}.{key}")
        elif isinstance(entry, dict) and isinstance(value, Mapping):
            known[key], deeper = known_settings(value, entry, f"{written}.{key}")
            unknown += deeper
        else:
            known[key] = value
    return known, unknown


def _nested(mapping: Mapping[str, Any] | None, keys: tuple[str, ...]) -> Any:
    """The value at keys (any case) in nested mappings, or None."""
    value: Any = mapping
    for key in keys:
        if not isinstance(value, Mapping):
            return None
        value = {str(name).lower(): item for name, item in value.items()}.get(key)
    return value


def chroma_setting(name: str) -> bool:
    """Whether a dotted markup name is a highlight setting only Chroma follows (a site its own layouts render):
    the default theme's Pygments highlighting does not."""
    section, _, key = name.lower().partition("markup.highlight.")
    return section == "" and _TREE["highlight"].get(key, ("", ""))[0] == "chroma"


def markup_from_mapping(mapping: Mapping[str, Any] | None, *, path: str = "<config>", text: str = "",
                        keys: tuple[str, ...] = ("markup",), enable_emoji: bool | None = None,
                        hugo: bool = False) -> MarkupConfig:
    """Check a Hugo-shaped `markup` mapping key by key (Hugo's names, any case) and make a MarkupConfig.

    keys is where the mapping sits in the file (for line numbers); hugo=True starts from Hugo's defaults
    (typographer and linkify on, github heading ids, TOC levels 2 to 3, line numbers in a table) instead
    of blogbuild's."""
    values: dict[str, Any] = {}
    if hugo:
        values.update(typographer=True, linkify=True, heading_id_type="github", toc_start_level=2, toc_end_level=3,
                      line_numbers_in_table=True)
    ignored: list[str] = []
    reader = _Reader(path, text, keys)
    if mapping:
        _walk(mapping, _TREE, (), reader, values, ignored)
    if enable_emoji is not None:
        values["enable_emoji"] = enable_emoji
    values["goldmark_unsafe"] = _nested(mapping, ("goldmark", "renderer", "unsafe")) is True
    settings = {str(key).lower(): value for key, value in (mapping or {}).items()}.get("highlight")
    if isinstance(settings, Mapping):
        values["highlight"] = tuple(sorted((str(key).lower(), value) for key, value in settings.items()
                                           if isinstance(value, (str, int, float, bool))))
    config = replace(MarkupConfig(), ignored=tuple(ignored), **_with_template_math(values))
    if config.toc_start_level > config.toc_end_level:
        raise reader.fail(("tableofcontents", "startlevel"),
                          f"markup.tableOfContents.startLevel ({config.toc_start_level}) is deeper than endLevel "
                          f"({config.toc_end_level}); make startLevel <= endLevel")
    return config
