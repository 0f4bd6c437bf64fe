"""A fence's `{…}` as Hugo reads it: goldmark's attribute syntax (parser/attribute.go: `.class`, `#id`,
`name=value` with a "string", a number, true/false/null, a bare word or a [list], separated by spaces or commas),
then Hugo's markup/internal/attributes: `on…` names dropped, a list as hl_lines ranges (0-based), Chroma's
options (lineNos, hl_Lines, style, …) kept apart under the name as written, the rest lower-cased."""
from __future__ import annotations

from typing import Any

from markdown_it.common.utils import escapeHtml, unescapeAll

# Hugo's chromaHighlightProcessingAttributes, lower-cased.
CHROMA_OPTIONS = frozenset({"anchorlinenos", "guesssyntax", "hl_lines", "hl_inline", "lineanchors", "linenos",
                            "linenostart", "linenumbersintable", "noclasses", "style", "tabwidth"})
UNPARSED_ATTRIBUTES = ("the {…} after the language is not a list of attributes (Hugo: failed to parse Markdown "
                       "attributes); quote the values, as in {title=\"A title\" hl_lines=[2, \"4-5\"]}")
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_:")
_NAME = _NAME_START | frozenset("0123456789.-")


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def skip_spaces(self) -> None:
        while self.peek() in (" ", "\t", "\n", "\r", "\f", "\v") and self.peek():
            self.at += 1


def _number(reader: _Reader) -> float | None:
    start = reader.at
    if reader.peek() in "+-" and reader.peek():
        reader.at += 1
    digits = reader.at
    while reader.peek().isdigit() and reader.peek().isascii():
        reader.at += 1
    if reader.peek() == ".":
        reader.at += 1
        while reader.peek().isdigit() and reader.peek().isascii():
            reader.at += 1
    if reader.at == digits:
        return None
    if reader.peek() in ("e", "E") and reader.peek():
        reader.at += 1
        if reader.peek() in "+-" and reader.peek():
            reader.at += 1
        while reader.peek().isdigit() and reader.peek().isascii():
            reader.at += 1
    try:
        return float(reader.text[start:reader.at])
    except ValueError:
        return None


def _string(reader: _Reader) -> str | None:
    reader.at += 1
    out = []
    while reader.at < len(reader.text):
        character = reader.text[reader.at]
        if character == "\\" and reader.at + 1 < len(reader.text) and reader.text[reader.at + 1] in _PUNCTUATION:
            out.append(reader.text[reader.at + 1])
            reader.at += 2
            continue
        reader.at += 1
        if character == '"':
            return "".join(out)
        out.append(character)
    return None


def _value(reader: _Reader) -> tuple[bool, Any]:
    reader.skip_spaces()
    character = reader.peek()
    if not character or character == "{":
        return False, None
    if character == "[":
        reader.at += 1
        items: list[Any] = []
        while True:
            reader.skip_spaces()
            if reader.peek() == "]":
                reader.at += 1
                return True, items
            ok, item = _value(reader)
            if not ok:
                return False, None
            items.append(item)
            reader.skip_spaces()
            if reader.peek() == ",":
                reader.at += 1
    if character == '"':
        text = _string(reader)
        return text is not None, text
    if character in "+-" or (character.isdigit() and character.isascii()):
        number = _number(reader)
        return number is not None, number
    if character not in _NAME_START:
        return False, None
    start = reader.at
    while reader.peek() and reader.peek() in _NAME:
        reader.at += 1
    word = reader.text[start:reader.at]
    return True, {"true": True, "false": False, "null": None}.get(word, word)


def parse_goldmark_attributes(text: str) -> list[tuple[str, Any]] | None:
    """goldmark's ParseAttributes of text, which starts with "{": (name as written, value) in the order of first
    appearance, a name's last value winning, classes joined by spaces; None when it is not an attribute list."""
    reader = _Reader(text)
    if reader.peek() != "{":
        return None
    reader.at += 1
    found: dict[str, Any] = {}
    while True:
        reader.skip_spaces()
        character = reader.peek()
        if character == "}":
            break
        if not character:
            return None
        if character in ("#", "."):
            reader.at += 1
            start = reader.at
            while reader.peek() and not reader.peek().isspace() and (
                    reader.peek() not in _PUNCTUATION or reader.peek() in "_-:."):
                reader.at += 1
            if reader.at == start:
                return None
            name, value = ("id" if character == "#" else "class"), reader.text[start:reader.at]
        else:
            if character not in _NAME_START:
                return None
            start = reader.at
            while reader.peek() and reader.peek() in _NAME:
                reader.at += 1
            name = reader.text[start:reader.at]
            reader.skip_spaces()
            if reader.peek() != "=":
                return None
            reader.at += 1
            ok, value = _value(reader)
            if not ok:
                return None
        if name == "class" and "class" in found and isinstance(found["class"], str) and isinstance(value, str):
            found["class"] = found["class"] + " " + value
        else:
            found[name] = value
        reader.skip_spaces()
        if reader.peek() == ",":
            reader.at += 1
    return list(found.items())


def _ranges(items: list[Any]) -> list[tuple[int, int]]:
    """A list value as Hugo reads it: hl_lines ranges, 0-based (a number n, or "a-b")."""
    ranges: list[tuple[int, int]] = []
    for item in items:
        if isinstance(item, float):
            ranges.append((int(item) - 1, int(item) - 1))
        elif isinstance(item, str):
            parts = item.split("-")
            try:
                first = int(parts[0])
                last = int(parts[1]) if len(parts) > 1 else first
            except ValueError:
                continue
            ranges.append((first - 1, last - 1))
    return ranges


def code_block_attributes(info: str) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]] | None:
    """(Chroma's options as written, the other attributes lower-cased) of a fence's info string; None when its
    {…} is not an attribute list (Hugo: "failed to parse Markdown attributes")."""
    text = unescapeAll(info or "")
    brace = text.find("{")
    if brace < 0:
        return [], []
    parsed = parse_goldmark_attributes(text[brace:])
    if parsed is None:
        return None
    options: list[tuple[str, Any]] = []
    attributes: list[tuple[str, Any]] = []
    for name, value in parsed:
        lowered = name.lower()
        if lowered.startswith("on") or value is None:
            continue
        if isinstance(value, list):
            value = _ranges(value)
        elif isinstance(value, float) and value.is_integer():
            value = int(value)
        if lowered in CHROMA_OPTIONS:
            options.append((name, value))
        else:
            attributes.append((lowered, value))
    return options, attributes


def attribute_text(value: Any) -> str:
    """cast.ToString of an attribute's value, as Hugo writes it on the wrapper div (a list writes nothing)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value).removesuffix(".0")
    if isinstance(value, list):
        return ""
    return str(value)


def wrapper_attributes(attributes: list[tuple[str, Any]] | tuple[tuple[str, Any], ...]) -> tuple[str, str]:
    """writeDivStart's parts: (the classes after the wrapper class, ' name="value"' for each other attribute)."""
    classes = next((attribute_text(value) for name, value in attributes if name == "class"), "")
    others = "".join(f' {name}="{escapeHtml(attribute_text(value))}"' for name, value in attributes
                     if name != "class")
    return classes, others
