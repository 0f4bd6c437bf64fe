"""Chroma's styles (style.go, colour.go, styles/api.go): the vendored `vendor/chroma/styles/*.xml`, each entry's
colours and flags, a token type's entry inherited from its subcategory, its category, Text and Background, and the
inline CSS Chroma's HTML formatter writes from them when classes are off (formatters/html/html.go styleToCSS,
StyleEntryToCSS, compressStyle)."""
from __future__ import annotations

import functools
import threading
import xml.etree.ElementTree as ElementTree
from dataclasses import field
from pathlib import Path

from .lexer import LexerError
from .token_types import STANDARD_CLASSES, TYPES, category, sub_category
from ...core.records import dataclass

STYLE_DIR = Path(__file__).resolve().parent.parent.parent / "vendor" / "chroma" / "styles"

PASS, YES, NO = 0, 1, 2   # chroma.Trilean

_ANSI = {"ansiblack": "000000", "ansidarkred": "7f0000", "ansidarkgreen": "007f00", "ansibrown": "7f7fe0",
         "ansidarkblue": "00007f", "ansipurple": "7f007f", "ansiteal": "007f7f", "ansilightgray": "e5e5e5",
         "ansidarkgray": "555555", "ansired": "ff0000", "ansigreen": "00ff00", "ansiyellow": "ffff00",
         "ansiblue": "0000ff", "ansifuchsia": "ff00ff", "ansiturquoise": "00ffff", "ansiwhite": "ffffff"}
_ANSI2RGB = {"#" + name: rgb for name, rgb in _ANSI.items()}
_ANSI2RGB.update({"#" + name[4:]: rgb for name, rgb in _ANSI.items()})

BACKGROUND, PRE_WRAPPER, LINE = TYPES["Background"], TYPES["PreWrapper"], TYPES["Line"]
LINE_NUMBERS, LINE_NUMBERS_TABLE = TYPES["LineNumbers"], TYPES["LineNumbersTable"]
LINE_HIGHLIGHT, LINE_TABLE, LINE_TABLE_TD = TYPES["LineHighlight"], TYPES["LineTable"], TYPES["LineTableTD"]
LINE_LINK, CODE_LINE, TEXT = TYPES["LineLink"], TYPES["CodeLine"], TYPES["Text"]


def parse_colour(text: str) -> int:
    """chroma.ParseColour: 0 when unset or invalid, else the RGB value plus one."""
    text = _ANSI2RGB.get(text, text)
    if text.startswith("#"):
        text = text[1:]
        if len(text) == 3:
            text = "".join(character * 2 for character in text)
    try:
        value = int(text, 16)
    except ValueError:
        return 0
    return value + 1 if 0 <= value < 1 << 32 and text.isalnum() else 0


def colour_string(colour: int) -> str:
    return f"#{colour - 1:06x}"


def _channels(colour: int) -> tuple[int, int, int]:
    value = colour - 1
    return (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF


def brightness(colour: int) -> float:
    red, green, blue = _channels(colour)
    return (red + green + blue) / 255.0 / 3.0


def brighten(colour: int, factor: float) -> int:
    """Colour.Brighten: towards white (factor > 0) or black (factor < 0); channels truncated as Go's uint8()."""
    channels = [float(channel) for channel in _channels(colour)]
    if factor < 0:
        factor += 1
        channels = [channel * factor for channel in channels]
    else:
        channels = [(255 - channel) * factor + channel for channel in channels]
    red, green, blue = (int(channel) & 0xFF for channel in channels)
    return (red << 16 | green << 8 | blue) + 1


def brighten_or_darken(colour: int, factor: float) -> int:
    return brighten(colour, factor) if brightness(colour) < 0.5 else brighten(colour, -factor)


@dataclass(frozen=True)
class StyleEntry:
    """chroma.StyleEntry: colours (0: unset) and trileans (PASS, YES, NO)."""

    colour: int = 0
    background: int = 0
    border: int = 0
    bold: int = PASS
    italic: int = PASS
    underline: int = PASS
    no_inherit: bool = False

    def is_zero(self) -> bool:
        return self == _ZERO

    def inherit(self, *ancestors: StyleEntry) -> StyleEntry:
        """StyleEntry.Inherit: unset fields from the ancestors, the last (nearest) first."""
        colour, background, border = self.colour, self.background, self.border
        bold, italic, underline = self.bold, self.italic, self.underline
        for ancestor in reversed(ancestors):
            if self.no_inherit:
                break
            colour = colour or ancestor.colour
            background = background or ancestor.background
            border = border or ancestor.border
            bold = bold or ancestor.bold
            italic = italic or ancestor.italic
            underline = underline or ancestor.underline
        return StyleEntry(colour, background, border, bold, italic, underline, self.no_inherit)

    def sub(self, other: StyleEntry) -> StyleEntry:
        """StyleEntry.Sub: what differs from other (the background entry)."""
        return StyleEntry(self.colour if self.colour != other.colour else 0,
                          self.background if self.background != other.background else 0,
                          self.border if self.border != other.border else 0,
                          self.bold if self.bold != other.bold else PASS,
                          self.italic if self.italic != other.italic else PASS,
                          self.underline if self.underline != other.underline else PASS)

    def css(self) -> str:
        """StyleEntryToCSS."""
        styles = []
        if self.colour:
            styles.append("color: " + colour_string(self.colour))
        if self.background:
            styles.append("background-color: " + colour_string(self.background))
        if self.bold == YES:
            styles.append("font-weight: bold")
        if self.italic == YES:
            styles.append("font-style: italic")
        if self.underline == YES:
            styles.append("text-decoration: underline")
        return "; ".join(styles)


_ZERO = StyleEntry()
_FLAGS = {"italic": ("italic", YES), "noitalic": ("italic", NO), "bold": ("bold", YES), "nobold": ("bold", NO),
          "underline": ("underline", YES), "nounderline": ("underline", NO)}


def parse_entry(text: str) -> StyleEntry:
    """chroma.ParseStyleEntry ("bold #f92672 bg:#272822"); ValueError names a part it does not know."""
    values: dict[str, object] = {}
    for part in text.split():
        if part in _FLAGS:
            name, value = _FLAGS[part]
            values[name] = value
        elif part in ("inherit", "noinherit"):
            values["no_inherit"] = part == "noinherit"
        elif part == "bg:":
            values["background"] = 0
        elif part.startswith(("bg:#", "border:#", "#")):
            key, colour = (("background", part[3:]) if part.startswith("bg:") else
                           ("border", part[7:]) if part.startswith("border:") else ("colour", part))
            values[key] = parse_colour(colour)
            if not values[key]:
                raise ValueError(f"invalid colour {part!r}")
        else:
            raise ValueError(f"unknown style element {part!r}")
    return StyleEntry(**values)  # type: ignore[arg-type]


@dataclass
class Style:
    """chroma.Style of an XML file (no parent)."""

    name: str
    entries: dict[int, StyleEntry] = field(default_factory=dict)

    def _get(self, token_type: int) -> StyleEntry:
        entry = self.entries.get(token_type, _ZERO)
        if entry.is_zero() and token_type in (LINE_HIGHLIGHT, LINE_NUMBERS, LINE_NUMBERS_TABLE):
            background = self._get(BACKGROUND)
            if token_type == LINE_HIGHLIGHT:
                return StyleEntry(background=brighten_or_darken(background.background, 0.1))
            return StyleEntry(colour=brighten_or_darken(background.colour, 0.5))
        return entry

    def get(self, token_type: int) -> StyleEntry:
        """Style.Get: the type's entry, inheriting from its subcategory, category, Text and Background."""
        return self._get(token_type).inherit(self._get(BACKGROUND), self._get(TEXT), self._get(category(token_type)),
                                             self._get(sub_category(token_type)))


def load_style(path: Path) -> Style:
    """A style XML file; LexerError names the file (and the entry) that is wrong."""
    where = f"blogbuild/vendor/chroma/styles/{path.name}"
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as error:
        raise LexerError(f"{where}: {error}") from None
    name = root.get("name")
    if root.tag != "style" or not name:
        raise LexerError(f"{where}: not a Chroma style (a <style name=...> element)")
    style = Style(name)
    for element in root:
        kind = element.get("type", "")
        if element.tag != "entry" or kind not in TYPES:
            raise LexerError(f"{where}: unexpected <{element.tag} type={kind!r}>")
        try:
            style.entries[TYPES[kind]] = parse_entry(element.get("style", ""))
        except ValueError as error:
            raise LexerError(f"{where}: {kind}: {error}") from None
    return style


_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def _styles() -> dict[str, Style]:
    styles: dict[str, Style] = {}
    for path in sorted(STYLE_DIR.glob("*.xml")):
        style = load_style(path)
        styles[style.name.lower()] = style
    return styles


def get_style(name: str) -> Style:
    """styles.Get: the style of that name (any case), else the fallback, swapoff."""
    with _LOCK:
        styles = _styles()
    return styles.get(name.lower()) or styles["swapoff"]


_LINE_NUMBERS_CSS = ("white-space: pre; -webkit-user-select: none; user-select: none; margin-right: 0.4em; "
                     "padding: 0 0.4em 0 0.4em;")


def compress(css: str) -> str:
    """compressStyle: spaces squeezed, "a: b" as "a:b", a colour #aabbcc as #abc."""
    out = []
    for part in css.split(";"):
        part = " ".join(part.split()).replace(": ", ":", 1)
        if "#" in part:
            tail = part[-6:]
            if len(tail) == 6 and tail[0] == tail[1] and tail[2] == tail[3] and tail[4] == tail[5]:
                part = part[:-6] + tail[0] + tail[2] + tail[4]
        out.append(part)
    return ";".join(out)


@functools.lru_cache(maxsize=64)
def inline_styles(style_name: str, tab_width: int, highlight_lines: bool) -> dict[int, str]:
    """styleToCSS as the formatter caches it without classes: each type's compressed CSS."""
    style = get_style(style_name)
    classes: dict[int, str] = {}
    background = style.get(BACKGROUND)
    for token_type in STANDARD_CLASSES:
        entry = style.get(token_type)
        if token_type != BACKGROUND:
            entry = entry.sub(background)
        if entry.is_zero():
            continue
        classes[token_type] = entry.css()
    tab = (f"-moz-tab-size: {tab_width}; -o-tab-size: {tab_width}; tab-size: {tab_width};"
           if tab_width not in (0, 8) else "")
    classes[BACKGROUND] = classes.get(BACKGROUND, "") + ";" + tab
    classes[PRE_WRAPPER] = classes.get(PRE_WRAPPER, "") + classes[BACKGROUND] + " -webkit-text-size-adjust: none;"
    if highlight_lines:
        classes[PRE_WRAPPER] += "display: grid;"
    classes[LINE] = "display: flex;" + classes.get(LINE, "")
    classes[LINE_NUMBERS] = _LINE_NUMBERS_CSS + classes.get(LINE_NUMBERS, "")
    classes[LINE_NUMBERS_TABLE] = _LINE_NUMBERS_CSS + classes.get(LINE_NUMBERS_TABLE, "")
    classes[LINE_TABLE] = "border-spacing: 0; padding: 0; margin: 0; border: 0;" + classes.get(LINE_TABLE, "")
    classes[LINE_TABLE_TD] = "vertical-align: top; padding: 0; margin: 0; border: 0;" + classes.get(LINE_TABLE_TD, "")
    classes[LINE_LINK] = "outline: none; text-decoration: none; color: inherit" + classes.get(LINE_LINK, "")
    return {token_type: compress(compress(css)) for token_type, css in classes.items()}


def style_attribute(styles: dict[int, str], token_type: int, *extra: str) -> str:
    """Formatter.styleAttr without classes: the type's CSS, else its subcategory's, else its category's."""
    for candidate in (token_type, sub_category(token_type), category(token_type)):
        if candidate in styles:
            return ' style="' + ";".join((styles[candidate], *extra)) + '"'
    return ""

