"""Chinese and Japanese in markdown: emphasis next to CJK punctuation, and line breaks that are not spaces."""
from __future__ import annotations

import functools
import unicodedata
from typing import Callable

from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Scanned
from markdown_it.token import Token

# --------------------------------------------------------------------------- the ranges
# The one home of the CJK ranges. Two questions need two sets, both built from these blocks:
# - "is this script written without spaces?" (markdown: a line break between two such characters
#   is no space; emphasis beside CJK punctuation): Han, kana, bopomofo, CJK punctuation and
#   fullwidth forms, but not Hangul, because Korean puts spaces between words;
# - "is this character a word of its own?" (text: word counts, reading time, summary budget): Han,
#   kana and Hangul letters, but not punctuation (、。「」 are not words).

NO_SPACE_RANGES: tuple[tuple[int, int], ...] = (
    (0x2E80, 0x2FDF),    # radicals, Kangxi radicals
    (0x2FF0, 0x303F),    # ideographic description, CJK symbols and punctuation
    (0x3040, 0x30FF),    # hiragana, katakana
    (0x3100, 0x312F),    # bopomofo
    (0x31A0, 0x31FF),    # bopomofo extended, CJK strokes, katakana extension
    (0x3200, 0x33FF),    # enclosed CJK, compatibility
    (0x3400, 0x4DBF),    # extension A
    (0x4E00, 0x9FFF),    # unified ideographs
    (0xF900, 0xFAFF),    # compatibility ideographs
    (0xFE30, 0xFE4F),    # CJK compatibility forms
    (0xFF00, 0xFFEF),    # halfwidth and fullwidth forms (，！？（） ...)
    (0x20000, 0x3FFFF),  # extensions B and later
)

# Han (basic, extensions A-G, compatibility), kana, hangul, and the iteration marks 々〆〇 that
# behave as letters.
WORD_RANGES: tuple[tuple[int, int], ...] = (
    (0x1100, 0x11FF),    # hangul jamo
    (0x3005, 0x3007),    # 々 〆 〇
    (0x3021, 0x3029),    # hangzhou numerals
    (0x3031, 0x3035),    # kana repeat marks
    (0x3040, 0x309F),    # hiragana
    (0x30A1, 0x30FA),    # katakana without ゠ and the middle dot ・
    (0x30FC, 0x30FF),
    (0x3130, 0x318F),    # hangul compatibility jamo
    (0x31F0, 0x31FF),    # katakana phonetic extensions
    (0x3400, 0x4DBF),    # CJK extension A
    (0x4E00, 0x9FFF),    # CJK unified ideographs
    (0xA960, 0xA97F),    # hangul jamo extended A
    (0xAC00, 0xD7AF),    # hangul syllables
    (0xD7B0, 0xD7FF),    # hangul jamo extended B
    (0xF900, 0xFAFF),    # CJK compatibility ideographs
    (0xFF66, 0xFF9F),    # halfwidth katakana
    (0xFFA0, 0xFFDC),    # halfwidth hangul
    (0x20000, 0x3134F),  # CJK extensions B-G
)

# Word characters plus CJK punctuation and full-width forms: a space between two of these in
# plain text is a line break of the markdown source, not a word gap.
WIDE_RANGES: tuple[tuple[int, int], ...] = WORD_RANGES + (
    (0x3000, 0x303F),    # CJK symbols and punctuation
    (0x30FB, 0x30FB),    # katakana middle dot ・
    (0xFF00, 0xFF65),    # fullwidth forms and halfwidth punctuation
)


def character_class(ranges: tuple[tuple[int, int], ...]) -> str:
    """The inside of a regex character class ("a-z" without brackets) matching the ranges."""
    return "".join(chr(low) if low == high else f"{chr(low)}-{chr(high)}" for low, high in ranges)


def is_cjk(character: str) -> bool:
    """Whether a character belongs to a script written without spaces (Chinese, Japanese)."""
    if not character:
        return False
    code = ord(character)
    if code < 0x2E80:
        return False
    return any(low <= code <= high for low, high in NO_SPACE_RANGES)


# --------------------------------------------------------------------------- emphasis

def _cjk_scan_delims(state: StateInline, start: int, can_split_word: bool) -> Scanned:
    """CommonMark's delimiter scan, except that a CJK character beside a punctuation
    mark counts like whitespace, so `**真，**她` closes (commonmark-spec #650)."""
    source = state.src
    maximum = state.posMax
    marker = source[start]
    position = start
    last_character = source[start - 1] if start > 0 else " "
    while position < maximum and source[position] == marker:
        position += 1
    count = position - start
    next_character = source[position] if position < maximum else " "

    last_punctuation = isMdAsciiPunct(ord(last_character)) or isPunctChar(last_character)
    next_punctuation = isMdAsciiPunct(ord(next_character)) or isPunctChar(next_character)
    last_whitespace = isWhiteSpace(ord(last_character))
    next_whitespace = isWhiteSpace(ord(next_character))
    last_cjk = is_cjk(last_character)
    next_cjk = is_cjk(next_character)

    left_flanking = not next_whitespace and (
        not next_punctuation or last_whitespace or last_punctuation or last_cjk)
    right_flanking = not last_whitespace and (
        not last_punctuation or next_whitespace or next_punctuation or next_cjk)
    can_open = left_flanking and (can_split_word or not right_flanking or last_punctuation)
    can_close = right_flanking and (can_split_word or not left_flanking or next_punctuation)
    return Scanned(can_open, can_close, count)


def with_cjk_scan(rule: Callable[[StateInline, bool], bool]) -> Callable[[StateInline, bool], bool]:
    """Wrap a delimiter tokenizer so that it uses the CJK-aware scan on this state."""

    def wrapped(state: StateInline, silent: bool) -> bool:
        if "scanDelims" not in state.__dict__:
            state.scanDelims = functools.partial(_cjk_scan_delims, state)   # type: ignore[method-assign]
        return rule(state, silent)

    return wrapped


# --------------------------------------------------------------------------- line breaks

def _edge_character(children: list[Token], index: int, step: int) -> str:
    """The first visible character next to children[index], looking in direction step."""
    index += step
    while 0 <= index < len(children):
        child = children[index]
        if child.type in ("text", "code_inline", "math_inline", "math_display_inline") and child.content:
            return child.content[-1] if step < 0 else child.content[0]
        if child.nesting == 0 and child.type != "text":
            return ""   # an image, a break or raw HTML: not joinable
        index += step
    return ""


def join_cjk_softbreaks(state: StateCore) -> None:
    """A line break between two CJK characters is not a space: render nothing there."""
    _join_softbreaks(state, is_cjk)


# goldmark's East Asian wide characters (util.IsEastAsianWideRune): the Han, Hiragana, Katakana and Hangul
# scripts and modifier letters, not the full-width punctuation ("，" "。") around them.
_WIDE_NAMES = ("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH", "HIRAGANA", "KATAKANA", "HALFWIDTH KATAKANA",
               "HANGUL", "HALFWIDTH HANGUL", "KANGXI RADICAL", "CJK RADICAL", "IDEOGRAPHIC", "HANGZHOU NUMERAL")


@functools.lru_cache(maxsize=4096)
def is_east_asian_wide(character: str) -> bool:
    """Whether goldmark takes the character for East Asian wide in its eastAsianLineBreaks rule."""
    if len(character) != 1:
        return False
    category = unicodedata.category(character)
    if category == "Lm":
        return True
    return category[0] in "LN" and unicodedata.name(character, "").startswith(_WIDE_NAMES)


def join_east_asian_softbreaks(state: StateCore) -> None:
    """goldmark's eastAsianLineBreaks (style simple), as a Hugo config turns it on: a line break between two
    East Asian wide characters, in goldmark's sense, renders as nothing."""
    _join_softbreaks(state, is_east_asian_wide)


def _join_softbreaks(state: StateCore, joins: Callable[[str], bool]) -> None:
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        children = token.children
        for index, child in enumerate(children):
            if child.type == "softbreak":
                if joins(_edge_character(children, index, -1)) and joins(_edge_character(children, index, +1)):
                    children[index] = Token("text", "", 0, content="")
