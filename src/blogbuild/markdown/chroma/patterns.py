"""Chroma's regular expressions (dlclark/regexp2, .NET's syntax) run by the `regex` module (or Python's re, which
reads most of them alike at half the cost a match): the few constructs whose meaning differs are rewritten, and a
pattern that may backtrack is bounded in time on each match as regexp2's MatchTimeout bounds it."""
from __future__ import annotations

import functools
import re
import warnings

import regex  # type: ignore[import-untyped]

# regexp2's MatchTimeout in Chroma (regexp.go): a rule that takes longer does not match.
MATCH_TIMEOUT = 0.25

_FLAG_CHARACTERS = frozenset("imsxn-")
_OPEN_MINIMUM = regex.compile(r"\{,\d*\}")


class PatternError(ValueError):
    """A pattern that neither regexp2's syntax nor its translation compiles."""


def translate(pattern: str) -> str:
    """The pattern in the `regex` module's syntax, meaning what regexp2 makes of it.

    - `\\Z` is the end or before a final newline in .NET, `\\z` the very end;
    - `\\e` is the escape character, `\\k<name>` a named back reference;
    - `(?i)` after the pattern's start applies to the rest of its group only (the `regex` module would apply
      it to the whole pattern), so it becomes a scoped group `(?i:...)`, closed at each `|` and reopened."""
    return _Translation(pattern).run()


class _Translation:
    """One pattern's translation, a construct at a time (each method consumes it and writes its translation)."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.out: list[str] = []
        # per open group: the scoped-flag groups opened inside it, by their flags
        self.scopes: list[list[str]] = [[]]
        self.open_groups: list[int | None] = []   # the capturing group numbers open here (None: not capturing)
        self.group_count = 0
        self.index = 0
        self.in_class = False

    def run(self) -> str:
        pattern, length = self.pattern, len(self.pattern)
        while self.index < length:
            character = pattern[self.index]
            if character == "\\" and self.index + 1 < length:
                self.escape()
            elif self.in_class:
                self.class_character(character)
            elif character == "{" and _OPEN_MINIMUM.match(pattern, self.index):
                self.out.append("\\{")   # {,n} is literal text in .NET, a quantifier in `regex`
                self.index += 1
            elif pattern.startswith(r"[^\W\d]", self.index):
                self.out.append(r"\w")    # what regexp2 makes of it (Hugo's Java lexer names the 1 of `1 + 2L` so)
                self.index += 7
            elif character == "[":
                self.open_class()
            elif character == "(":
                self.open_group()
            elif character == ")":
                self.close_group()
            elif character == "|" and self.scopes[-1]:
                self.out.append(")" * len(self.scopes[-1]))
                self.out.append("|")
                self.out.extend(f"(?{flags}:" for flags in self.scopes[-1])
                self.index += 1
            else:
                self.out.append(character)
                self.index += 1
        self.out.append(")" * len(self.scopes[0]))
        return "".join(self.out)

    def escape(self) -> None:
        pattern, index, length = self.pattern, self.index, len(self.pattern)
        escaped = pattern[index + 1]
        if escaped == "Z" and not self.in_class:
            self.out.append(r"(?=\n?\Z)")
        elif escaped == "z" and not self.in_class:
            self.out.append(r"\Z")
        elif escaped == "e":
            self.out.append(r"\x1b")
        elif escaped == "x" and pattern.startswith("{", index + 2) and "}" in pattern[index + 2:]:
            end = pattern.index("}", index + 2)
            self.out.append(f"\\U{int(pattern[index + 3:end] or '0', 16):08x}")
            self.index = end + 1
            return
        elif escaped.isdigit() and escaped != "0" and not self.in_class:
            digits = escaped
            while index + 1 + len(digits) < length and pattern[index + 1 + len(digits)].isdigit():
                digits += pattern[index + 1 + len(digits)]
            # a reference to a group still open never matches in .NET; `regex` refuses to compile it
            self.out.append("(?!)" if int(digits) in self.open_groups else "\\" + digits)
            self.index += 1 + len(digits)
            return
        elif escaped == "k" and index + 2 < length and pattern[index + 2] in "<'":
            closer = ">" if pattern[index + 2] == "<" else "'"
            end = pattern.find(closer, index + 3)
            if end < 0:
                raise PatternError(f"unterminated \\k at {index}")
            self.out.append(f"(?P={pattern[index + 3:end]})")
            self.index = end + 1
            return
        else:
            self.out.append(pattern[index:index + 2])
        self.index += 2

    def class_character(self, character: str) -> None:
        if character == "]":
            self.in_class = False
        elif character == "[" and self.pattern.startswith("[:", self.index):
            self.out.append("\\[")
            self.index += 1
            return
        self.out.append(character)
        self.index += 1

    def open_class(self) -> None:
        self.in_class = True
        self.out.append("[")
        self.index += 1
        # a ']' or '^]' right after the bracket is a literal
        if self.pattern.startswith("^", self.index):
            self.out.append("^")
            self.index += 1
        if self.pattern.startswith("]", self.index):
            self.out.append("\\]")
            self.index += 1

    def open_group(self) -> None:
        pattern, index = self.pattern, self.index
        if pattern.startswith("(?", index):
            close = pattern.find(")", index)
            flags = pattern[index + 2:close] if close > 0 else ""
            if flags and set(flags) <= _FLAG_CHARACTERS:
                if index == 0 or not "".join(self.out):
                    self.out.append(pattern[index:close + 1])
                else:
                    self.out.append(f"(?{flags}:")
                    self.scopes[-1].append(flags)
                self.index = close + 1
                return
            if pattern.startswith("(?'", index):
                end = pattern.find("'", index + 3)
                self.out.append(f"(?P<{pattern[index + 3:end]}>")
                self.scopes.append([])
                self.group_count += 1
                self.open_groups.append(self.group_count)
                self.index = end + 1
                return
        self.scopes.append([])
        capturing = not pattern.startswith("(?", index) or pattern.startswith(("(?<", "(?P<"), index) \
            and not pattern.startswith(("(?<=", "(?<!"), index)
        if capturing:
            self.group_count += 1
        self.open_groups.append(self.group_count if capturing else None)
        self.out.append("(")
        self.index += 1

    def close_group(self) -> None:
        if self.open_groups:
            self.open_groups.pop()
        self.out.append(")" * len(self.scopes[-1]))
        if len(self.scopes) > 1:
            self.scopes.pop()
        self.out.append(")")
        self.index += 1


@functools.lru_cache(maxsize=None)
def compile_fast(pattern: str, flags: int) -> "regex.Pattern[str] | re.Pattern[str]":
    """The rule pattern compiled by Python's re when re reads it as the regex module does (re's matches cost half
    as much); by regex otherwise (Unicode properties, variable lookbehinds, ...). re has no timeout: a pattern that
    may backtrack (may_backtrack) is compiled with compile_pattern instead."""
    translated = translate(pattern)
    plain = flags & (regex.IGNORECASE | regex.MULTILINE | regex.DOTALL | regex.VERBOSE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # a FutureWarning (a nested set's meaning may change): regex reads it
            return re.compile(translated, plain)
    except (re.error, FutureWarning, OverflowError, RecursionError):
        return compile_pattern(pattern, flags)


@functools.lru_cache(maxsize=None)
def compile_pattern(pattern: str, flags: int) -> regex.Pattern[str]:
    """The compiled rule pattern (one per pattern and flags, shared by every lexer that has it)."""
    try:
        return regex.compile(translate(pattern), flags | regex.VERSION0)
    except (regex.error, PatternError, OverflowError, RecursionError) as error:
        raise PatternError(str(error)) from None


def may_backtrack(pattern: str) -> bool:
    """Whether a pattern can take long on one match (catastrophic backtracking): a quantified group that holds a
    quantifier or an alternation (`(a+)+`, `(\\w|\\d)*`), or a backreference. Only such a rule's matches run
    under MATCH_TIMEOUT (a timeout triples the cost of a match); the others are linear in what they match, and a
    block's lexing as a whole stays under its budget."""
    stack: list[bool] = []   # per open group: whether it holds a quantifier or an alternation
    index, size = 0, len(pattern)
    while index < size:
        char = pattern[index]
        if char == "\\":
            following = pattern[index + 1:index + 2]
            if following.isdigit() and following != "0" or following == "k":
                return True
            index += 2
            continue
        if char == "[":   # a class: skipped whole (a ] first in it is literal)
            index += 1
            if index < size and pattern[index] == "^":
                index += 1
            if index < size and pattern[index] == "]":
                index += 1
            while index < size and pattern[index] != "]":
                index += 2 if pattern[index] == "\\" else 1
            index += 1
            continue
        if char == "(":
            stack.append(False)
        elif char == ")":
            held = stack.pop() if stack else False
            quantified = index + 1 < size and pattern[index + 1] in "*+{"
            if held and quantified:
                return True
            if stack and (held or quantified):
                stack[-1] = True
        elif char in "*+{|" and stack:
            stack[-1] = True
        index += 1
    return False
