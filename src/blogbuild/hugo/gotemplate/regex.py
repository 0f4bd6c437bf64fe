"""Go's regular expressions (RE2 syntax) written as Python's `re` reads them, meaning the same: the one place
every regex function (findRE, findRESubmatch, replaceRE, strings.FindRE, …) gets its pattern from.

What differs and is rewritten: a flag group in the middle of a pattern (`a(?s)b`: the flags hold to the end of the
enclosing group, across its alternatives), `$` without `m` (the end of the text only, Python's `\\Z`), `\\z`,
Go's ASCII `\\d`, `\\w`, `\\s`, `\\b` (Python's are Unicode's), the POSIX classes (`[[:alpha:]]`), `\\Q…\\E`,
`\\x{…}`, `(?<name>…)`, and inside a bracket a `-` next to a class (`[\\w- ]`: a literal in Go) and the
characters Python would read as a set operation (`[`, `&&`, `--`, `~~`, `||`); a bracket holding a negated class
(`[\\s\\S]`, `[a\\D]`, `[[:^alpha:]]`) becomes an alternation (or, negated, lookaheads). A construct Go has and this does
not translate (`\\p{…}` classes, `(?U)`) is a GoRegexError naming it; one Go rejects is left for Python to reject.
"""
from __future__ import annotations

import re

# Go's ASCII classes as the inside of a Python bracket.
_CLASSES = {"d": "0-9", "w": "0-9A-Za-z_", "s": "\\t\\n\\f\\r "}
POSIX_CLASSES = {"alpha": "A-Za-z", "digit": "0-9", "alnum": "0-9A-Za-z", "upper": "A-Z", "lower": "a-z",
                 "space": "\\t\\n\\v\\f\\r ", "blank": "\\t ", "word": "0-9A-Za-z_", "xdigit": "0-9A-Fa-f",
                 "punct": "!-/:-@\\[-`{-~", "cntrl": "\\x00-\\x1f\\x7f", "print": " -~", "graph": "!-~",
                 "ascii": "\\x00-\\x7f"}
_WORD = "[0-9A-Za-z_]"
_BOUNDARY = f"(?:(?<={_WORD})(?!{_WORD})|(?<!{_WORD})(?={_WORD}))"
_NOT_BOUNDARY = f"(?:(?<={_WORD})(?={_WORD})|(?<!{_WORD})(?!{_WORD}))"
_FLAGS = frozenset("imsU")


class GoRegexError(ValueError):
    """A Go pattern that cannot be written for Python's re (the message names the construct)."""


def python_pattern(pattern: str) -> str:
    """The Go pattern written for Python's re."""
    return _Translator(pattern).translate()


def _code_point(value: int) -> str:
    return f"\\U{value:08x}" if value > 0xFFFF else f"\\u{value:04x}"


class _Translator:
    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.index = 0

    def translate(self) -> str:
        text = self._sequence(multiline=False, depth=0)
        if self.index < len(self.pattern):   # an unbalanced ")": Python rejects it too
            text += self.pattern[self.index:]
        return text

    # -- a sequence of alternatives, up to the ")" closing its group (not consumed) -------------------
    def _sequence(self, *, multiline: bool, depth: int) -> str:
        out: list[str] = []
        opened = ""          # flags a "(?flags)" set for the rest of this group, written as "(?flags:" … ")"
        outer_multiline = multiline
        pattern = self.pattern
        while self.index < len(pattern):
            char = pattern[self.index]
            if char == ")" and depth > 0:
                break
            if char == "|":
                self.index += 1
                out.append(")|" + f"(?{opened}:" if opened else "|")
                continue
            if char == "(" and pattern.startswith("(?", self.index):
                flags = re.match(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?\)", pattern[self.index:])
                if flags is not None:   # flags for the rest of the group
                    setting = self._flags(flags.group(1), flags.group(2) or "")
                    self.index += flags.end()
                    if opened:
                        out.append(")")
                    opened = _merged(opened, setting)
                    multiline = _multiline(opened, outer_multiline)
                    out.append(f"(?{opened}:")
                    continue
            out.append(self._atom(multiline=multiline, depth=depth))
        if opened:
            out.append(")")
        return "".join(out)

    @staticmethod
    def _flags(on: str, off: str) -> str:
        for flag in on + off:
            if flag not in _FLAGS:
                raise GoRegexError(f"has the flag {flag!r}, not one of Go's (i, m, s, U)")
            if flag == "U":
                raise GoRegexError("uses the ungreedy flag (?U), which blogbuild's translation does not read")
        return on + ("-" + off if off else "")

    def _group(self, *, multiline: bool, depth: int) -> str:
        pattern = self.pattern
        head = re.match(r"\((?:\?(?:P?<(\w+)>|([a-zA-Z]*)(?:-([a-zA-Z]*))?:))?", pattern[self.index:])
        assert head is not None
        self.index += head.end()
        if head.group(1) is not None:
            start = f"(?P<{head.group(1)}>"
        elif head.group(0).endswith(":"):
            setting = self._flags(head.group(2) or "", head.group(3) or "")
            start = f"(?{setting}:"
            multiline = _multiline(setting, multiline)
        else:
            start = "("
        inner = self._sequence(multiline=multiline, depth=depth + 1)
        if self.index < len(pattern) and pattern[self.index] == ")":
            self.index += 1
            return start + inner + ")"
        return start + inner          # missing ")": Python rejects it as Go does

    def _atom(self, *, multiline: bool, depth: int) -> str:
        pattern = self.pattern
        char = pattern[self.index]
        if char == "(":
            return self._group(multiline=multiline, depth=depth)
        if char == "[":
            return self._bracket()
        if char == "\\":
            return self._escape(in_bracket=False)
        self.index += 1
        if char == "$" and not multiline:
            return r"\Z"
        return char

    def _escape(self, *, in_bracket: bool) -> str:
        pattern = self.pattern
        if self.index + 1 >= len(pattern):
            self.index += 1
            return "\\"       # trailing backslash: an error in both
        letter = pattern[self.index + 1]
        self.index += 2
        if letter in "dws":
            body = _CLASSES[letter]
            return body if in_bracket else f"[{body}]"
        if letter in "DWS":
            if in_bracket:
                raise GoRegexError(f"has \\{letter} inside a bracket, which blogbuild's translation does not read")
            return f"[^{_CLASSES[letter.lower()]}]"
        if letter in "pP":
            raise GoRegexError("uses a Unicode class (\\p{…}), which blogbuild's translation does not read; write "
                               "the characters as a range")
        if in_bracket:
            if letter == "x":
                return self._hex()
            return "\\" + letter
        if letter == "b":
            return _BOUNDARY
        if letter == "B":
            return _NOT_BOUNDARY
        if letter == "z":
            return r"\Z"
        if letter == "Q":
            end = pattern.find("\\E", self.index)
            end = len(pattern) if end < 0 else end
            literal = pattern[self.index:end]
            self.index = min(len(pattern), end + 2)
            return re.escape(literal)
        if letter == "x":
            return self._hex()
        return "\\" + letter

    def _hex(self) -> str:
        pattern = self.pattern
        if self.index < len(pattern) and pattern[self.index] == "{":
            end = pattern.find("}", self.index)
            if end < 0:
                raise GoRegexError("has \\x{ without its }")
            digits = pattern[self.index + 1:end]
            self.index = end + 1
            return _code_point(int(digits, 16))
        digits = pattern[self.index:self.index + 2]
        self.index += 2
        return "\\x" + digits

    def _bracket(self) -> str:
        pattern = self.pattern
        self.index += 1
        out = ["["]
        if self.index < len(pattern) and pattern[self.index] == "^":
            out.append("^")
            self.index += 1
        items: list[tuple[str, bool]] = []   # (text, is a class), in order
        negated: list[str] = []   # the classes given negated (\S, [:^alpha:]): their bodies
        first = True
        while self.index < len(pattern):
            char = pattern[self.index]
            if char == "]" and not first:
                self.index += 1
                break
            first = False
            if pattern.startswith("[:", self.index):
                posix = re.match(r"\[:(\^?)(\w+):\]", pattern[self.index:])
                if posix is not None and posix.group(2) in POSIX_CLASSES:
                    self.index += posix.end()
                    if posix.group(1):
                        negated.append(POSIX_CLASSES[posix.group(2)])
                    else:
                        items.append((POSIX_CLASSES[posix.group(2)], True))
                    continue
            if char == "\\":
                letter = pattern[self.index + 1] if self.index + 1 < len(pattern) else ""
                if letter and letter in "DWS":
                    self.index += 2
                    negated.append(_CLASSES[letter.lower()])
                    items.append(("", True))   # a class stands here: a "-" beside it is itself
                    continue
                text = self._escape(in_bracket=True)
                items.append((text, letter in "dws"))
                continue
            self.index += 1
            if char in "[&~|" or (char == "-" and pattern.startswith("-", self.index)):
                items.append(("\\" + char, False))
            else:
                items.append((char, False))
        else:
            return "".join(out) + "".join(text for text, _ in items)   # unclosed: Python rejects it too
        for position, (text, _is_class) in enumerate(items):
            if text == "-":
                before = items[position - 1] if position > 0 else None
                after = items[position + 1] if position + 1 < len(items) else None
                # A range needs a character on each side; next to a class or an end, "-" is itself (Go's reading).
                if before is None or after is None or before[1] or after[1]:
                    text = "\\-"
            out.append(text)
        if not negated:
            out.append("]")
            return "".join(out)
        return _with_negated_classes("".join(out[1:]), out[1:2] == ["^"], negated)


def _with_negated_classes(listed: str, complement: bool, negated: list[str]) -> str:
    """A bracket holding negated classes (`[\\s\\S]`, `[a\\D]`, `[^x\\W]`), which Python's bracket cannot hold: as
    one of the listed characters or a character outside a class, or (complemented) a character that is none of
    the listed and inside every class."""
    listed = listed[1:] if complement else listed
    if not complement:
        choices = ([f"[{listed}]"] if listed else []) + [f"[^{body}]" for body in negated]
        return "(?:" + "|".join(choices) + ")"
    return "(?:" + (f"(?![{listed}])" if listed else "") + "".join(f"(?=[{body}])" for body in negated) + "[\\s\\S])"


def _merged(opened: str, setting: str) -> str:
    """The flags in force after a further "(?flags)": Python's scoped group takes them as one set."""
    on, _, off = opened.partition("-")
    new_on, _, new_off = setting.partition("-")
    flags_on = {flag for flag in on + new_on if flag not in new_off}
    flags_off = ({flag for flag in off if flag not in new_on} | set(new_off)) - flags_on
    text = "".join(sorted(flags_on))
    return text + ("-" + "".join(sorted(flags_off)) if flags_off else "")


def _multiline(setting: str, current: bool) -> bool:
    on, _, off = setting.partition("-")
    if "m" in on:
        return True
    if "m" in off:
        return False
    return current
