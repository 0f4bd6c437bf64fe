"""Hugo's enableEmoji: `:smile:` shortcodes (GitHub's names, from the emoji package's aliases) as emoji characters."""
from __future__ import annotations

import functools
import re
from typing import Sequence

from markdown_it.renderer import RendererProtocol
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

_SHORTCODE = re.compile(r":([a-z0-9_+\-]+):")


@functools.lru_cache(maxsize=1)
def _names() -> dict[str, str]:
    """Shortcode name -> emoji; loaded on first use (the table is large)."""
    import emoji as emoji_data
    names: dict[str, str] = {}
    for character, data in emoji_data.EMOJI_DATA.items():
        for alias in [data["en"], *data.get("alias", [])]:
            names.setdefault(alias.strip(":"), character)
    return names


def emoji_names() -> dict[str, str]:
    """Every emoji shortcode name (without colons) and its character (Hugo's emojify uses the same table)."""
    return _names()


def emoji_shortcode(state: StateInline, silent: bool) -> bool:
    """`:name:` with a known name becomes an emoji token; any other colon is text."""
    if state.src[state.pos] != ":":
        return False
    match = _SHORTCODE.match(state.src, state.pos, state.posMax)
    if match is None or match.group(1) not in _names():
        return False
    if not silent:
        token = state.push("emoji", "", 0)
        token.markup = match.group(1)
        token.content = _names()[match.group(1)]
    state.pos = match.end()
    return True


def render_emoji(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                 env: EnvType) -> str:
    """The emoji character itself."""
    return tokens[index].content
