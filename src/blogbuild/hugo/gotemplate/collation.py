"""Hugo's order of strings: the collation of golang.org/x/text in the site's language, with which Hugo sorts page
titles of one weight and date, `.ByTitle`, a taxonomy's `.Alphabetical` and `sort`'s strings.

A sort key compares what the collator compares, level by level: the letters (case and accents aside; digits,
punctuation and spaces before letters, Han characters after every other script), then the accents, then the case
(lower case first). Han characters are ordered as the language orders them: Chinese (zh, zh-cn, zh-Hans) by pinyin,
Traditional Chinese (zh-tw, zh-hk, zh-Hant) by strokes, any other language by code point in Unicode's blocks (the
unified ideographs, then the extensions). The Chinese orders and the order of accented Latin letters (pinyin's
tone marks come before the bare vowel in Chinese, after it elsewhere) are tables Hugo printed
(vendor/collation/, scripts/vendor_collation.py); Han characters outside the Basic Multilingual Plane, which the
tables leave out, come after those in them.

Not modelled: the order among punctuation marks (by code point here), scripts other than Latin and Han (by code
point), contractions and other languages' own tailorings (ja, ko, de's phone book, …: the root order here).
"""
from __future__ import annotations

import functools
import unicodedata
from pathlib import Path
from typing import Any

COLLATION_DIR = Path(__file__).resolve().parent.parent.parent / "vendor" / "collation"
# Each table file, and the language key Hugo is asked with to write it (scripts/vendor_collation.py).
TABLES = {"root": "en", "zh": "zh", "zh-hant": "zh-hant"}

# Unicode's blocks of Han characters (unified ideographs, extensions A to I, compatibility ideographs).
_HAN_BLOCKS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FA1F), (0x30000, 0x323AF))
# The compatibility ideographs that are unified ideographs (the collator weighs them with the core block).
_CORE_COMPATIBILITY = frozenset((0xFA0E, 0xFA0F, 0xFA11, 0xFA13, 0xFA14, 0xFA1F, 0xFA21, 0xFA23, 0xFA24, 0xFA27,
                                 0xFA28, 0xFA29))
_MARKS, _DIGITS, _LETTERS, _HAN = 0, 1, 2, 3
_UNLISTED = 1 << 16   # an accent's rank when the table has no letter for it: after those it lists
_EXPANDED = _UNLISTED - 1   # the accent of a letter weighed as two (æ as ae): after the listed accents
_OTHER_SCRIPTS = 1 << 21
# A character's weights in a table: a pair for each character it is weighed as.
_Weights = dict[str, tuple[tuple[int, int], ...]]   # a letter the Latin table does not have: after its letters, by code point


def table_name(language: str) -> str:
    """The table of a Hugo language key (its collator's tag): "zh" (pinyin), "zh-hant" (strokes) or "root"."""
    parts = language.lower().replace("_", "-").split("-")
    if parts[0] != "zh":
        return "root"
    if "hans" in parts[1:]:
        return "zh"
    return "zh-hant" if "hant" in parts[1:] or any(part in ("tw", "hk", "mo") for part in parts[1:]) else "zh"


def is_han(character: str) -> bool:
    code = ord(character)
    return any(start <= code <= end for start, end in _HAN_BLOCKS) and unicodedata.category(character) == "Lo"


def implicit_order(character: str) -> tuple[int, int, int]:
    """Where the root collation puts a Han character: the core block (and its compatibility twins, weighed as the
    character they stand for) before the extensions, each by code point."""
    decomposed = ord(unicodedata.normalize("NFD", character)[0])
    core = 0x4E00 <= decomposed <= 0x9FFF or decomposed in _CORE_COMPATIBILITY
    return (0 if core else 1, decomposed, ord(character))


def latin_letters() -> list[str]:
    """The Latin letters whose order a table records: ASCII's, Latin-1's, Latin Extended A and B, and Latin
    Extended Additional."""
    ranges = ((0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x1E00, 0x1EFF))
    return [chr(code) for start, end in ranges for code in range(start, end + 1)
            if unicodedata.category(chr(code)) in ("Lu", "Ll")]


@functools.lru_cache(maxsize=None)
def _table(name: str) -> tuple[_Weights, dict[str, int], _Weights]:
    """(each Latin letter's weights: (letter rank, accent rank among the letters of that rank) for each letter it
    is weighed as, each Han character's rank, each mark's (_marks)). A letter has the rank of the letter it decomposes to (é of e), or
    of the ASCII letters it is weighed as (ø as o, æ as ae: line 3 of the table); any other (þ) is a letter of its
    own, where the table's order puts it."""
    latin, han, weighed_as, marks = (COLLATION_DIR / f"{name}.txt").read_text(encoding="utf-8").split("\n")[:4]
    bases = {entry[0]: entry[1:] for entry in weighed_as.split()}
    letters: _Weights = {}
    rank_of_base: dict[str, int] = {}
    accents_of_rank: dict[int, int] = {}
    for character in latin:
        lower = character.lower()
        if lower in letters or len(bases.get(character, "")) > 1:
            continue
        base = bases.get(character) or unicodedata.normalize("NFD", character)[0].casefold()
        rank = rank_of_base.setdefault(base, len(rank_of_base))
        letters[lower] = ((rank, accents_of_rank.get(rank, 0)),)
        accents_of_rank[rank] = letters[lower][0][1] + 1
    for character, expansion in bases.items():   # its accent after every accent of its first letter's
        if len(expansion) > 1:
            first, *rest = (letters[letter][0] for letter in expansion)
            letters[character.lower()] = ((first[0], _EXPANDED), *rest)
    return letters, {character: rank for rank, character in enumerate(han)}, _marks(marks)


def _marks(order: str) -> _Weights:
    """Each space, punctuation mark and symbol's weights, (rank, case) for each mark it is weighed as: a fullwidth
    form (，) or a wide space has the rank of the character it is a form of, after it; … is weighed as ..."""
    marks: _Weights = {}
    rank_of: dict[str, int] = {}
    for character in order:
        plain = unicodedata.normalize("NFKC", character)
        if len(plain) == 1:
            marks[character] = ((rank_of.setdefault(plain, len(rank_of)), int(plain != character)),)
    for character in order:
        plain = unicodedata.normalize("NFKC", character)
        if len(plain) > 1 and all(part in rank_of for part in plain):
            marks[character] = tuple((rank_of[part], 1) for part in plain)
        elif len(plain) > 1:
            marks[character] = ((rank_of.setdefault(plain, len(rank_of)), 0),)
    return marks


@functools.lru_cache(maxsize=65536)
def collation_key(text: str, table: str = "root") -> tuple[Any, ...]:
    """The sort key of text in a table's collation (table_name's): keys compare as the collator compares."""
    letters, han_ranks, marks = _table(table)
    primary: list[tuple[int, int]] = []
    accents: list[tuple[int, str]] = []
    cases: list[int] = []
    for character in text:
        rank = han_ranks.get(character)
        if rank is not None or is_han(character):
            if rank is None:   # after the table's characters, in the root's order
                block, weighed_code, code = implicit_order(character)
                rank = len(han_ranks) + (block << 22) + (weighed_code << 1) + (code != weighed_code)
            primary.append((_HAN, rank))
            accents.append((0, ""))
            cases.append(0)
            continue
        weighed = marks.get(character)
        if weighed is not None:
            for rank, case in weighed:
                primary.append((_MARKS, rank))
                accents.append((0, ""))
                cases.append(case)
            continue
        cases.append(1 if character.isupper() else 0)
        weights = letters.get(character.lower())
        if weights is not None:
            for letter, accent in weights:
                primary.append((_LETTERS, letter))
                accents.append((accent, ""))
            continue
        decomposed = unicodedata.normalize("NFD", character)
        base = decomposed[0]
        # Letters of other scripts after Latin's, by code point; marks not in the table after those in it; digits
        # between marks and letters.
        group = _LETTERS if base.isalpha() else _DIGITS if base.isdigit() else _MARKS
        primary.append((group, ord(base.casefold()[0]) + (0 if group == _DIGITS else _OTHER_SCRIPTS)))
        accents.append((_UNLISTED, decomposed[1:]))
    return (primary, accents, cases)


def fold_key(text: str) -> tuple[str, str]:
    """Hugo's compare.Strings (ByCount's tie-break): case-insensitive by code point, then case-sensitive."""
    return (text.casefold(), text)
