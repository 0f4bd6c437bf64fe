"""The size an SVG file is laid out at, read from its root element's width, height and viewBox.

Only the start of the file is read (MAX_SVG_BYTES) and only the root start tag is parsed, by regular
expressions without backtracking traps: no XML parser, so no entity is ever expanded (a billion-laughs file
costs the same as any other), no external DTD is fetched and nothing in the file runs.
"""
from __future__ import annotations

import re
from pathlib import Path

MAX_SVG_BYTES = 64 * 1024
# CSS pixels per unit, as browsers convert absolute lengths (1in = 96px = 72pt = 6pc = 2.54cm).
_PIXELS_PER_UNIT = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54,
                    "mm": 96 / 25.4, "q": 96 / 101.6}
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_LENGTH = re.compile(rf"\s*({_NUMBER})\s*([a-zA-Z%]*)\s*")
# What may come before the root element: white space, the XML declaration and other processing
# instructions, comments, and a doctype (its internal subset, where entities are declared, skipped whole).
_PROLOG_ITEM = re.compile(r"\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE(?:[^\[>]*\[.*?\]\s*>|[^>]*>)", re.DOTALL)
_ROOT = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?svg(?=[\s/>])")
_ATTRIBUTE = re.compile(r"""\s+([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_TAG_END = re.compile(r"\s*/?>")


def svg_size(path: str | Path) -> tuple[int, int] | None:
    """(width, height) in CSS pixels of an SVG file, or None when its root element does not say."""
    with open(path, "rb") as handle:
        head = handle.read(MAX_SVG_BYTES)
    return svg_size_of(_decode(head))


def svg_size_of(text: str) -> tuple[int, int] | None:
    """The size of an SVG document's text: absolute width and height, else what the viewBox gives."""
    attributes = _root_attributes(text)
    if attributes is None:
        return None
    width, height = _pixels(attributes.get("width")), _pixels(attributes.get("height"))
    box = _view_box(attributes.get("viewBox"))
    if width is None and height is None and box is not None:
        width, height = box
    elif box is not None and width is None and height is not None:
        width = height * box[0] / box[1]
    elif box is not None and height is None and width is not None:
        height = width * box[1] / box[0]
    if width is None or height is None:
        return None
    # Half up (410.5 -> 411), not Python's round half to even.
    return max(1, int(width + 0.5)), max(1, int(height + 0.5))


def _decode(head: bytes) -> str:
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return head.decode("utf-16", errors="replace")
    return head.decode("utf-8", errors="replace")


def _root_attributes(text: str) -> dict[str, str] | None:
    """The root element's attributes when it is <svg> and its start tag is complete, else None."""
    position = 1 if text.startswith("\ufeff") else 0
    while True:
        item = _PROLOG_ITEM.match(text, position)
        if item is None or item.end() == position:
            break
        position = item.end()
    root = _ROOT.match(text, position)
    if root is None:
        return None
    attributes: dict[str, str] = {}
    position = root.end()
    while True:
        found = _ATTRIBUTE.match(text, position)
        if found is None:
            break
        attributes.setdefault(found.group(1), found.group(2) if found.group(2) is not None else found.group(3))
        position = found.end()
    return attributes if _TAG_END.match(text, position) else None


def _pixels(value: str | None) -> float | None:
    """An absolute length in CSS pixels; None for a missing, relative (%, em) or non-positive one."""
    if value is None:
        return None
    found = _LENGTH.fullmatch(value)
    if found is None:
        return None
    scale = _PIXELS_PER_UNIT.get(found.group(2).lower())
    number = float(found.group(1))
    if scale is None or not 0 < number < 1e6:
        return None
    return number * scale


def _view_box(value: str | None) -> tuple[float, float] | None:
    """The viewBox's width and height when both are positive numbers."""
    if value is None:
        return None
    parts = [part for part in re.split(r"[\s,]+", value.strip()) if part]
    if len(parts) != 4 or not all(re.fullmatch(_NUMBER, part) for part in parts):
        return None
    width, height = float(parts[2]), float(parts[3])
    return (width, height) if 0 < width < 1e6 and 0 < height < 1e6 else None
