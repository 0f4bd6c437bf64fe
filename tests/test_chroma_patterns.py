"""Which of Chroma's rule patterns run under a timeout on each match (patterns.may_backtrack): those that can take
long on one match; the others go through Python's re where it reads them as the regex module does."""
from __future__ import annotations

import re

import pytest

from blogbuild.markdown.chroma.patterns import compile_fast, may_backtrack


@pytest.mark.parametrize("pattern", [r"(a+)+$", r"(\w|\d)*x", r"(?:x+y)*", r"(\s*,)+", r"(a)\1", r"(?P<q>')\k<q>",
                                     r"((ab)*c)+"])
def test_a_pattern_that_may_backtrack_is_bounded(pattern: str) -> None:
    assert may_backtrack(pattern)


@pytest.mark.parametrize("pattern", [r"[a-z]+", r"(foo|bar)\b", r"(\s*)(=)", r"[(]+", r"(a)(b+)", r"(?i)select",
                                     r"\\\(", r"[)(]+x*", r"\d+\.\d*"])
def test_a_linear_pattern_is_not(pattern: str) -> None:
    assert not may_backtrack(pattern)


def test_re_reads_what_it_can_and_regex_the_rest() -> None:
    assert isinstance(compile_fast(r"[a-z]+\s*", 0), re.Pattern)
    assert not isinstance(compile_fast(r"\p{L}+", 0), re.Pattern)           # a Unicode property: regex
    assert not isinstance(compile_fast(r"(?<=a+)b", 0), re.Pattern)         # a variable lookbehind: regex
    assert compile_fast(r"[[:alpha:]]+", 0).match("a]]").group() == "a]]"    # .NET: one of [:alph, then ]+
    assert compile_fast(r"\p{L}+", 0).match("été1").group() == "été"
