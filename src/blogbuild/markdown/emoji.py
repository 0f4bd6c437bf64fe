"""Hugo's two emoji tables: markdown's `:name:` with enableEmoji, and the `emojify` template function.

- Markdown (enableEmoji): goldmark-emoji's GitHub definition set, vendored as vendor/goldmark-emoji/github.json.
  A name is ASCII letters, digits, `_`, `-` and `+` between two colons on one line; a known one becomes
  the emoji. A Hugo site's own layouts get goldmark-emoji's default rendering, each code point as a hex
  entity (`&#x1f604;`, a zero-width joiner as `&zwj;`); the default theme gets the characters. An emoji
  the set has no characters for (`:octocat:`) is `<span title="its name">:octocat:</span>`.
- `emojify`: kyokomi/emoji's code map, vendored as vendor/kyokomi-emoji/codemap.json, applied with the
  scan of Hugo's helpers/emoji.go (see emojify).

scripts/vendor_emoji.py writes both tables from the libraries' Go sources at the versions Hugo 0.168 pins
(media.assets.EMOJI_TABLES); each loads on first use.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Sequence

from markdown_it.renderer import RendererProtocol
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from ..core.records import dataclass

_VENDOR = Path(__file__).resolve().parent.parent / "vendor"
GOLDMARK_EMOJI_DIR = _VENDOR / "goldmark-emoji"
KYOKOMI_EMOJI_DIR = _VENDOR / "kyokomi-emoji"

_NO_CHARACTERS = "\ufffd"   # goldmark-emoji's mark of an emoji Unicode has no characters for
_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+")


@dataclass(frozen=True)
class Emoji:
    """One emoji of goldmark-emoji's GitHub set: its Unicode name and characters."""

    name: str
    characters: str

    @property
    def is_unicode(self) -> bool:
        return self.characters != _NO_CHARACTERS


@functools.lru_cache(maxsize=1)
def github_emoji() -> dict[str, Emoji]:
    """goldmark-emoji's GitHub set: short name -> emoji (a name two emoji share goes to the later one)."""
    rows = json.loads((GOLDMARK_EMOJI_DIR / "github.json").read_text(encoding="utf-8"))
    names: dict[str, Emoji] = {}
    for name, characters, *short_names in rows:
        emoji = Emoji(name, characters)
        for short_name in short_names:
            names[short_name] = emoji
    return names


@functools.lru_cache(maxsize=1)
def _code_map() -> tuple[dict[bytes, bytes], int]:
    """kyokomi/emoji's code map as UTF-8 bytes (":name:" -> characters), and its longest key's length."""
    table = json.loads((KYOKOMI_EMOJI_DIR / "codemap.json").read_text(encoding="utf-8"))
    codes = {key.encode("utf-8"): value.encode("utf-8") for key, value in table.items()}
    return codes, max(len(key) for key in codes)


def emojify(text: str) -> str:
    """Hugo's helpers.Emojify: each `:name:` of kyokomi/emoji's code map replaced by its emoji.

    The scan works on UTF-8 bytes as Hugo's does, with its quirks: from each colon it looks for the next
    colon within the longest name's length; a space before that colon, or no colon, moves the scan on
    from where the previous step left it (not from the colon), so which colons pair up depends on the
    text before them."""
    codes, longest = _code_map()
    source = text.encode("utf-8")
    start = 0
    found = source.find(b":", start)
    while found != -1:
        colon = found
        upper = min(colon + longest, len(source))
        end = source.find(b":", colon + 1, upper)
        end = end - colon - 1 if end != -1 else -1
        space = source.find(b" ", colon, upper)
        space = space - colon if space != -1 else -1
        if end < 0:
            start += 1
        elif end == 0 or (space != -1 and space < end):
            start += end + 1
        else:
            after = end + colon + 2
            replacement = codes.get(source[colon:after])
            if replacement is not None:
                source = source[:colon] + replacement + source[after:]
            start += end
        if start >= len(source):
            break
        found = source.find(b":", start)
    return source.decode("utf-8")


def emoji_shortcode(state: StateInline, silent: bool) -> bool:
    """goldmark-emoji's parser: `:name:` with a name of the GitHub set becomes an emoji token; else text."""
    if state.src[state.pos] != ":":
        return False
    end = state.pos + 1
    while end < state.posMax and state.src[end] in _NAME_CHARACTERS:
        end += 1
    if end >= state.posMax or state.src[end] != ":":
        return False
    short_name = state.src[state.pos + 1:end]
    emoji = github_emoji().get(short_name)
    if emoji is None:
        return False
    if not silent:
        token = state.push("emoji", "", 0)
        token.markup = short_name
        token.content = emoji.characters
        token.meta = {"name": emoji.name}
    state.pos = end + 1
    return True


def _escape_html(text: str) -> str:
    """goldmark's util.EscapeHTML: &, <, > and " as entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def emoji_entities(characters: str) -> str:
    """goldmark-emoji's entity rendering: `&#x…;` per code point, lowercase hex, a zero-width joiner `&zwj;`."""
    return "".join("&zwj;" if character == "\u200d" else f"&#x{ord(character):x};" for character in characters)


def emoji_html(token: Token, entities: bool) -> str:
    """An emoji token's HTML: its code points as entities, or its characters; the span of one without any."""
    if token.content == _NO_CHARACTERS:
        return f'<span title="{_escape_html(token.meta.get("name", ""))}">:{token.markup}:</span>'
    return emoji_entities(token.content) if entities else token.content


def render_emoji(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                 env: EnvType) -> str:
    """As entities for a Hugo site's own layouts, as the characters for the default theme."""
    markup = options.get("markup")
    return emoji_html(tokens[index], entities=markup is not None and bool(markup.render_hooks))
