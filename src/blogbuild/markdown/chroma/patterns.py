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
    out: list[str] = []
    # per open group: how many scoped-flag groups were opened inside it, and their flags
    scopes: list[list[str]] = [[]]
    open_groups: list[int | None] = []   # the capturing group numbers open at this point (None: not capturing)
    group_count = 0
    index = 0
    length = len(pattern)
    in_class = False
    while index < length:
        character = pattern[index]
        if character == "\\" and index + 1 < length:
            escaped = pattern[index + 1]
            if escaped == "Z" and not in_class:
                out.append(r"(?=\n?\Z)")
            elif escaped == "z" and not in_class:
                out.append(r"\Z")
            elif escaped == "e":
                out.append(r"\x1b")
            elif escaped == "x" and pattern.startswith("{", index + 2) and "}" in pattern[index + 2:]:
                end = pattern.index("}", index + 2)
                out.append(f"\\U{int(pattern[index + 3:end] or '0', 16):08x}")
                index = end + 1
                continue
            elif escaped.isdigit() and escaped != "0" and not in_class:
                digits = escaped
                while index + 1 + len(digits) < length and pattern[index + 1 + len(digits)].isdigit():
                    digits += pattern[index + 1 + len(digits)]
                # a reference to a group still open never matches in .NET; `regex` refuses to compile it
                out.append("(?!)" if int(digits) in open_groups else "\\" + digits)
                index += 1 + len(digits)
                continue
            elif escaped == "k" and index + 2 < length and pattern[index + 2] in "<'":
                closer = ">" if pattern[index + 2] == "<" else "'"
                end = pattern.find(closer, index + 3)
                if end < 0:
                    raise PatternError(f"unterminated \\k at {index}")
                out.append(f"(?P={pattern[index + 3:end]})")
                index = end + 1
                continue
            else:
                out.append(pattern[index:index + 2])
            index += 2
            continue
        if in_class:
            if character == "]":
                in_class = False
            elif character == "[" and pattern.startswith("[:", index):
                out.append("\\[")
                index += 1
                continue
            out.append(character)
            index += 1
            continue
        if character == "{" and _OPEN_MINIMUM.match(pattern, index):
            out.append("\\{")   # {,n} is literal text in .NET, a quantifier in `regex`
            index += 1
            continue
        if pattern.startswith(r"[^\W\d]", index):
            out.append(r"\w")    # what regexp2 makes of it (Hugo's Java lexer names the 1 of `1 + 2L` so)
            index += 7
            continue
        if character == "[":
            in_class = True
            out.append(character)
            index += 1
            # a ']' or '^]' right after the bracket is a literal
            if pattern.startswith("^", index):
                out.append("^")
                index += 1
            if pattern.startswith("]", index):
                out.append("\\]")
                index += 1
            continue
        if character == "(":
            if pattern.startswith("(?", index):
                close = pattern.find(")", index)
                flags = pattern[index + 2:close] if close > 0 else ""
                if flags and set(flags) <= _FLAG_CHARACTERS:
                    if index == 0 or "".join(out) in ("",):
                        out.append(pattern[index:close + 1])
                    else:
                        out.append(f"(?{flags}:")
                        scopes[-1].append(flags)
                    index = close + 1
                    continue
                if pattern.startswith("(?'", index):
                    end = pattern.find("'", index + 3)
                    out.append(f"(?P<{pattern[index + 3:end]}>")
                    scopes.append([])
                    group_count += 1
                    open_groups.append(group_count)
                    index = end + 1
                    continue
            scopes.append([])
            capturing = not pattern.startswith("(?", index) or pattern.startswith(("(?<", "(?P<"), index) \
                and not pattern.startswith(("(?<=", "(?<!"), index)
            if capturing:
                group_count += 1
            open_groups.append(group_count if capturing else None)
            out.append(character)
            index += 1
            continue
        if character == ")":
            if open_groups:
                open_groups.pop()
            out.append(")" * len(scopes[-1]))
            if len(scopes) > 1:
                scopes.pop()
            out.append(")")
            index += 1
            continue
        if character == "|" and scopes[-1]:
            out.append(")" * len(scopes[-1]))
            out.append("|")
            out.extend(f"(?{flags}:" for flags in scopes[-1])
            index += 1
            continue
        out.append(character)
        index += 1
    out.append(")" * len(scopes[0]))
    return "".join(out)


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
