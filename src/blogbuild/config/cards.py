"""The `cards:` options: a generated social card per post, and the site's own card font, checked when the
config is read (a missing or damaged font is a config error)."""
from __future__ import annotations

import os
import re
from pathlib import Path
from collections.abc import Callable, Mapping
from typing import Any

from ..core.errors import SourceError
from ..core.records import dataclass


@dataclass(frozen=True)
class CardOptions:
    """The cards: block of the config."""

    enabled: bool = True
    font: str = ""                 # the site's own font file (relative to the site folder), tried first
    background: str = "#1d2330"
    color: str = "#f3f4f6"
    accent: str = "#4f8cff"


def parse_card_options(value: Any, fail: Callable[[str], SourceError]) -> CardOptions:
    """The cards: block (or false) as CardOptions; errors name the setting."""
    if value is False:
        return CardOptions(enabled=False)
    if value in (None, True):
        return CardOptions()
    if not isinstance(value, Mapping):
        raise fail("cards must be false or a mapping {font, background, color, accent}")
    known = ("font", "background", "color", "accent")
    unknown = sorted(str(key) for key in value if key not in known)
    if unknown:
        raise fail(f"cards: unknown setting {unknown[0]!r}; known ones are {', '.join(known)}")
    values: dict[str, str] = {}
    for key in known:
        if key in value:
            item = value[key]
            if not isinstance(item, str) or not item:
                raise fail(f"cards.{key} must be text, not {item!r}")
            if key != "font" and not re.fullmatch(r"#[0-9a-fA-F]{6}", item):
                raise fail(f"cards.{key} must be a colour like #1d2330, not {item!r}")
            values[key] = item
    return CardOptions(True, **values)


def site_font_file(options: CardOptions, root: str) -> str:
    """The site's own card font as a build reads it (cards.font under the site folder), '' when it has none."""
    return str(Path(root) / options.font) if options.enabled and options.font else ""


# The first four bytes of the font files FreeType and fontTools both read: TrueType, OpenType (CFF), Apple's
# TrueType, and a collection of either.
_FONT_SIGNATURES = (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf")


def site_font_problem(font: str, root: str) -> str:
    """What is wrong with cards.font (a file named relative to the site folder), '' when nothing is: it must be
    inside the site folder (links followed: a build reads nothing outside it) and a TrueType or OpenType file.
    Only its first bytes are read: the cmap is read when a card is drawn."""
    from ..core.names import is_inside
    site = os.path.realpath(root)
    real = os.path.realpath(os.path.join(site, font))
    if not is_inside(real, (site,)):
        return (f"cards.font must name a font file inside the site folder, relative to it, not {font!r}; copy "
                "the font into the site (for example fonts/) and name it from there")
    if not os.path.isfile(real):
        return f"cards.font: there is no file {font!r} in the site folder; check the name (it is relative to the site folder)"
    try:
        with open(real, "rb") as handle:
            signature = handle.read(4)
    except OSError as error:
        return f"cards.font: {font!r} cannot be read ({error.strerror})"
    if signature in (b"wOFF", b"wOF2"):
        return f"cards.font: {font!r} is a WOFF web font; name the font's .ttf or .otf file instead"
    if signature not in _FONT_SIGNATURES:
        return f"cards.font: {font!r} is not a TrueType or OpenType font file (.ttf, .otf, .ttc, .otc)"
    return ""
