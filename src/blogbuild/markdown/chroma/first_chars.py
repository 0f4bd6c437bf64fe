"""Which characters a rule's match can start with, so that at each position a state tries only the rules that
can match there, in their order (a state of a lexer holds 20-60 rules, and most cannot start with the
character at the position).

A rule's first character is read from its pattern as Python's re parses it and made a pattern of one
character (the first items of the pattern up to the first that must consume one, each as the one-character
pattern it starts with: a literal, a class, a category, a dot, under the pattern's flags). It is conservative:
None ("any character") for a pattern that can match the empty string, one that Python's re reads otherwise
than the regex module, and anything else it cannot read (a backreference, a conditional group). A rule
skipped at a position is therefore one that cannot match there, and the tokens are the same as when every rule
is tried.
"""
from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable
from typing import Any

import regex  # type: ignore[import-untyped]

try:   # CPython's own parser of re and its opcodes; a Python without them tries every rule, as Chroma does
    from re import _constants as sre  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - CPython 3.11 and later have both
    sre = sre_parse = None

_READABLE = sre is not None and sre_parse is not None
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT)} if _READABLE else set()
_ZERO_WIDTH = {sre.AT, sre.ASSERT, sre.ASSERT_NOT} if _READABLE else set()
_CATEGORIES = {} if not _READABLE else {
    sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_NOT_DIGIT: r"\D", sre.CATEGORY_SPACE: r"\s",
    sre.CATEGORY_NOT_SPACE: r"\S", sre.CATEGORY_WORD: r"\w", sre.CATEGORY_NOT_WORD: r"\W",
    sre.CATEGORY_UNI_DIGIT: r"\d", sre.CATEGORY_UNI_NOT_DIGIT: r"\D", sre.CATEGORY_UNI_SPACE: r"\s",
    sre.CATEGORY_UNI_NOT_SPACE: r"\S", sre.CATEGORY_UNI_WORD: r"\w", sre.CATEGORY_UNI_NOT_WORD: r"\W",
}
# The flags that decide what one character matches (the rest: anchors, verbose, are not in a first character).
_CHAR_FLAGS = re.IGNORECASE | re.DOTALL | re.ASCII
_FLAG_LETTERS = ((re.IGNORECASE, "i"), (re.DOTALL, "s"))


class _Unreadable(Exception):
    """A construct the first character is not read from: the rule may start with any character."""


def first_char(compiled: Any) -> Callable[[str], Any] | None:
    """A test of one character: whether a match of the compiled pattern can start with it (truthy when it
    can); None when it may start with any character or the pattern is not one this can read."""
    if not _READABLE:
        return None
    if isinstance(compiled, regex.Pattern):
        return _first_char(True, compiled.pattern, compiled.flags)
    if isinstance(compiled, re.Pattern):
        return _first_char(False, compiled.pattern, compiled.flags)
    return None


@functools.lru_cache(maxsize=None)
def _first_char(by_regex: bool, pattern: str, flags: int) -> Callable[[str], Any] | None:
    """first_char of a pattern as compiled by the regex module (by_regex) or re, kept: a lexer's states share
    most of their rules (a state's includes are spliced in), and lexers share patterns."""
    if by_regex:
        # Only what Python's re reads as the regex module does (re's parser takes it without a warning, as
        # patterns.compile_fast decides), and not case-insensitive (the two may fold cases differently).
        if flags & regex.IGNORECASE:
            return None
        flags &= re.MULTILINE | re.DOTALL | re.VERBOSE
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # a FutureWarning: a nested set, which the regex module reads otherwise
            parsed = sre_parse.parse(pattern, flags)
        fragment = _sequence(parsed.data)
        if fragment is None:   # it can match the empty string
            return None
        return re.compile(fragment, parsed.state.flags & _CHAR_FLAGS).match
    except (_Unreadable, re.error, FutureWarning, RecursionError, OverflowError, ValueError):
        return None


def _sequence(items: Any) -> str | None:
    """A one-character pattern of the characters a sequence's match can start with; None when the sequence
    can match the empty string."""
    parts: list[str] = []
    for op, argument in items:
        fragment, nullable = _item(op, argument)
        if fragment:
            parts.append(fragment)
        if not nullable:
            return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
    return None


def _item(op: Any, argument: Any) -> tuple[str, bool]:
    """(the one-character pattern an item can start with, "" for none; whether it can match the empty string)."""
    if op == sre.LITERAL:
        return re.escape(chr(argument)), False
    if op == sre.NOT_LITERAL:
        return "[^" + _class_char(argument) + "]", False
    if op == sre.ANY:
        return ".", False
    if op == sre.IN:
        return _class(argument), False
    if op == sre.SUBPATTERN:
        _, add_flags, del_flags, pattern = argument
        inner = _sequence(pattern.data)
        on = "".join(letter for flag, letter in _FLAG_LETTERS if add_flags & flag)
        off = "".join(letter for flag, letter in _FLAG_LETTERS if del_flags & flag)
        wrap = (lambda text: f"(?{on}{'-' + off if off else ''}:{text})") if on or off else (lambda text: text)
        if inner is None:
            return _nullable(pattern.data, wrap)
        return wrap(inner), False
    if op == sre.ATOMIC_GROUP:
        inner = _sequence(argument.data)
        return (inner, False) if inner is not None else _nullable(argument.data, lambda text: text)
    if op in _REPEATS:
        low, _, pattern = argument
        inner = _sequence(pattern.data)
        if inner is None:
            return _nullable(pattern.data, lambda text: text)
        return inner, low == 0
    if op == sre.BRANCH:
        parts, any_nullable = [], False
        for branch in argument[1]:
            inner = _sequence(branch.data)
            if inner is None:
                fragment, _ = _nullable(branch.data, lambda text: text)
                any_nullable = True
                if fragment:
                    parts.append(fragment)
            else:
                parts.append(inner)
        return ("(?:" + "|".join(parts) + ")" if parts else ""), any_nullable
    if op in _ZERO_WIDTH:   # an anchor or a lookaround consumes nothing: the next item starts the match
        return "", True
    raise _Unreadable(str(op))   # a backreference, a conditional group, ...


def _nullable(items: Any, wrap: Callable[[str], str]) -> tuple[str, bool]:
    """A part that can match the empty string: every character any of its items can start with (the match may
    start in any of them, or after the part)."""
    parts = []
    for op, argument in items:
        fragment, _ = _item(op, argument)
        if fragment:
            parts.append(fragment)
    return (wrap("(?:" + "|".join(parts) + ")") if parts else ""), True


def _class_char(code: int) -> str:
    return "\\" + chr(code) if chr(code) in "\\]^-[" else re.escape(chr(code))


def _class(items: Any) -> str:
    out = ["["]
    for op, argument in items:
        if op == sre.NEGATE:
            out.append("^")
        elif op == sre.LITERAL:
            out.append(_class_char(argument))
        elif op == sre.RANGE:
            out.append(_class_char(argument[0]) + "-" + _class_char(argument[1]))
        elif op == sre.CATEGORY and argument in _CATEGORIES:
            out.append(_CATEGORIES[argument])
        else:
            raise _Unreadable(str(op))
    return "".join(out) + "]"


# The characters a state keeps its rules for, at most.
MAX_KEPT_CHARS = 2048


class Dispatch:
    """A state's rules by the character at the position: for each character met, the rules that may match at
    a position holding it, in the state's order (found when the character is first met)."""

    def __init__(self, rules: list[Any]) -> None:
        self.rules = rules
        self.firsts = [first_char(rule.compiled) if rule.pattern is not None else None for rule in rules]
        self.by_char: dict[str, list[Any]] = {}

    def rules_for(self, char: str) -> list[Any]:
        found = [rule for rule, first in zip(self.rules, self.firsts, strict=True) if first is None or first(char)]
        if len(self.by_char) < MAX_KEPT_CHARS:   # text of many scripts: the rest are worked out each time
            self.by_char[char] = found
        return found
