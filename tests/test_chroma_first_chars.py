"""A lexer state tries at each position only the rules whose match can start with the character there
(markdown/chroma/first_chars.py): the characters a pattern can start with are read conservatively, and every
vendored lexer gives the same tokens as when it tries every rule at every position."""
from __future__ import annotations

import re
import pytest

from blogbuild.markdown.chroma import first_chars as first_chars_module
from blogbuild.markdown.chroma import lexer as lexer_module
from blogbuild.markdown.chroma.first_chars import first_char
from blogbuild.markdown.chroma.lexer import LexingSlow
from blogbuild.markdown.chroma.registry import LEXER_DIR, Registry


CHARS = [chr(code) for code in range(0x250)] + ["数", "\u2028", "\u212a", "\u017f", "\u0130", "\u0660"]


@pytest.mark.parametrize(("pattern", "flags", "expected"), [
    ("abc", 0, "a"),
    ("[a-c]x", 0, "abc"),
    ("(?:foo|bar)\\b", 0, "fb"),
    ("\\bif\\b", 0, "i"),                     # an anchor consumes nothing
    ("(?=x)xy|z", 0, "xz"),
    ("a?b", 0, "ab"),                           # an optional item: the next one may start the match
    ("(a*|b)c", 0, "abc"),
    ("#.*?$", re.MULTILINE, "#"),
    ("(?>ab)c", 0, "a"),
    ("a{0,3}[+-]", 0, "a+-"),
    ("(?i)k", 0, "kK\u212a"),                  # case-insensitive as re folds cases (the Kelvin sign)
    ("(?i:s)x|y", 0, "sSy\u017f"),
    ("S", re.IGNORECASE, "sS\u017f"),
    ("[^\\S\\n]+", 0, None),                   # every space but a newline (checked against re below)
    ("\\d+", 0, None),
    ("[^a]", 0, None),
    (".", 0, None),
    (".", re.DOTALL, None),
    ("[\\]\\-^]z", 0, "]-^"),
])
def test_the_characters_a_match_can_start_with(pattern: str, flags: int, expected: str | None) -> None:
    compiled = re.compile(pattern, flags)
    test = first_char(compiled)
    assert test is not None
    starting = {char for char in CHARS if test(char)}
    if expected is not None:
        assert starting == set(expected)
    # Never fewer than the characters a match does start with.
    assert {char for char in CHARS if compiled.match(char + "bcxyz0")} <= starting


@pytest.mark.parametrize("pattern", [
    "",            # matches the empty string: at any position
    "a*",
    "(?=x)",
    "(a)?\\1",     # a backreference first (the group may be empty)
    "x|",
    "(x)?(?(1)a|b)",   # a conditional group
])
def test_what_can_match_empty_or_is_not_read_is_any_character(pattern: str) -> None:
    assert first_char(re.compile(pattern)) is None


def test_regex_module_patterns_are_read_only_as_re_reads_them() -> None:
    import regex  # type: ignore[import-untyped]
    assert first_char(regex.compile("abc", regex.VERSION0))("a")
    assert not first_char(regex.compile("abc", regex.VERSION0))("b")
    assert first_char(regex.compile("abc", regex.IGNORECASE | regex.VERSION0)) is None
    assert first_char(regex.compile("\\p{L}x", regex.VERSION0)) is None
    assert first_char(regex.compile("[[:alpha:]]", regex.VERSION0)) is None   # a POSIX class: re reads it otherwise
    assert first_char(None) is None


# Text that reaches many rules of many languages: code of several kinds, markup, numbers, strings, comments,
# punctuation, non-ASCII letters, tabs and blank lines.
SAMPLE = "\n".join([
    "#!/usr/bin/env python3", "# -*- coding: utf-8 -*-", "import os, sys  # a comment",
    "def f(x: int = 0x1F, *args, **kw) -> str:", "    '''doc''' ; return f\"{x!r:>10}\" + r'\\d+' + b'\\x00'",
    "class A(B): pass", "@decorator", "if a >= 1e-3 and b != .5j or not c: print(a[1:2], {'k': [1, 2.0]})",
    "#include <stdio.h>", "int main(int argc, char **argv) { /* block */ printf(\"%d\\n\", argc); return 0; }",
    "template<typename T> std::vector<T> v{1, 2}; auto l = [&](auto y) -> int { return y << 2; };",
    "$ echo \"$HOME\" | grep -E '^[a-z]+$' && ls -la ~/ 2>&1 > /dev/null; export X=1; for i in $(seq 3); do :; done",
    "key: value", "list:", "  - item # yaml", "  nested: {a: 1, b: [x, y]}", "---", "anchor: &a !!str 'q'",
    "<html lang=\"en\"><body class='x'>&amp; <!-- c --> <script>var a = 1;</script></body></html>",
    "SELECT name, COUNT(*) FROM t WHERE id IN (1, 2) GROUP BY name; -- sql comment",
    "{\"json\": true, \"n\": null, \"v\": [1, -2.5e10]}", "fn main() { let mut v: Vec<u8> = vec![]; }",
    "package main\nfunc main() { fmt.Println(`raw`) }", "\tindented\ttabs", "", "数学 $x^2$ \\frac{a}{b} é ß",
    "~!@#%^&*()_+`-=[]\\{}|;':\",./<>?", "end",
])


def _tokens(reg: Registry, name: str) -> object:
    try:
        return reg.get(name).tokens(SAMPLE)  # type: ignore[union-attr]
    except LexingSlow:   # out of its time budget (a pattern that backtracks on this text): compared by neither
        return None
    except Exception as error:   # noqa: BLE001 - a lexer that fails must fail the same way both times
        return repr(error)


def _every_rule(self: first_chars_module.Dispatch, char: str) -> list[object]:
    return self.rules


def test_every_lexer_gives_the_tokens_it_gives_trying_every_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexer_module, "BLOCK_BUDGET", 0.5)   # two lexers backtrack on this text for seconds
    reg = Registry()
    reg.load_folder(LEXER_DIR, "lexers")
    names = [lexer.config.name for lexer in reg.lexers]
    assert len(names) > 250
    fast = {name: _tokens(reg, name) for name in names}
    skipped = sum(len(dispatch.rules) - len(rules) for lexer in reg.lexers for dispatch in lexer._dispatch.values()
                  for rules in dispatch.by_char.values())
    assert skipped > 10000   # the dispatch does leave rules out
    # Every rule tried at every position: each state's dispatch puts all its rules under every character.
    monkeypatch.setattr(first_chars_module.Dispatch, "rules_for", _every_rule)
    for lexer in reg.lexers:
        lexer._dispatch.clear()
    slow = {name: _tokens(reg, name) for name in names}
    assert [name for name in names if None not in (fast[name], slow[name]) and slow[name] != fast[name]] == []
    assert sum(1 for name in names if None in (fast[name], slow[name])) <= 4


def test_first_char_reads_python_s_own_parser() -> None:
    # The module reads CPython's re parser: a Python whose parser moved would make every rule "any".
    assert first_char(re.compile("a")) is not None
