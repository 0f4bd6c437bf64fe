"""Go's regular expressions mean in blogbuild what they mean in Hugo 0.168: tests/hugo_sites/go_regex prints
findRE (all, and the first), findRESubmatch, replaceRE (all, and once) and strings.FindRE of patterns Python's re
reads otherwise or not at all (`[\\w- ]`, a flag group in the middle, `o(?i)W|L`, `$` without and with `m`, Go's
ASCII `\\w`, `\\d`, `\\s`, `\\b`, POSIX classes (negated too), `\\S`, `\\D`, `\\W` in a bracket, `\\Q…\\E`,
`\\x{…}`, `(?<name>…)`, `-` and `&&` in a bracket) over a text with newlines and letters outside ASCII. Built by the hugo binary and by blogbuild: every page's bytes equal
but the home page's generator line; and each pattern as regex.python_pattern writes it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.hugo_build import blogbuild_files, copy_site, hugo_files

from blogbuild.hugo.gotemplate.regex import GoRegexError, python_pattern

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "go_regex"
_GENERATOR = re.compile(rb'<meta name="generator" content="[^"]*">')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("go_regex")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_every_result_is_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert warnings == []
    assert hugo["index.html"].count(b"<section") == 27
    assert _GENERATOR.sub(b"", ours["index.html"]) == _GENERATOR.sub(b"", hugo["index.html"])


@pytest.mark.parametrize(("go", "python"), [
    (r"[\w- ]", r"[0-9A-Za-z_\- ]"),
    (r"a(?s)b.", r"a(?s:b.)"),
    (r"a(?i)b|c", r"a(?i:b)|(?i:c)"),
    (r"(a(?m)b$|c)$", r"(a(?m:b$)|(?m:c))\Z"),
    (r"[[:alpha:]-]", r"[A-Za-z\-]"),
    (r"\Qa.b\E\x{1F600}", r"a\.b\U0001f600"),
    (r"(?<year>\d{4})", r"(?P<year>[0-9]{4})"),
    (r"[\s\S]", r"(?:[\t\n\f\r ]|[^\t\n\f\r ])"),
    (r"[^x\W]", r"(?:(?![x])(?=[0-9A-Za-z_])[\s\S])"),
])
def test_a_go_pattern_is_written_for_python(go: str, python: str) -> None:
    assert python_pattern(go) == python
    re.compile(python)


def test_what_cannot_be_written_is_named() -> None:
    with pytest.raises(GoRegexError, match="Unicode class"):
        python_pattern(r"\p{Han}+")
    with pytest.raises(GoRegexError, match="ungreedy"):
        python_pattern(r"(?U)a+")
