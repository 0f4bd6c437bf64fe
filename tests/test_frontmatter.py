"""Front matter: fixture headers that must parse, and broken ones with their exact error."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from blogbuild.core.errors import SourceError, describe_chain
from blogbuild.disk import frontmatter, strict_yaml
from blogbuild.disk.frontmatter import split_front_matter
from blogbuild.core.keys import key_line

FIXTURES = Path(__file__).parent / "fixtures" / "frontmatter"
VALID = sorted((FIXTURES / "valid").glob("*.md"))
INVALID = sorted((FIXTURES / "invalid").glob("*.md"))


@pytest.mark.parametrize("path", VALID, ids=[path.stem for path in VALID])
def test_valid_header(path: Path) -> None:
    expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    front_matter = split_front_matter(path.read_text(encoding="utf-8"), path=path.name)
    assert dict(front_matter.data) == expected["data"]
    assert front_matter.body_line == expected["body_line"]
    assert front_matter.format == expected["format"]


@pytest.mark.parametrize("path", INVALID, ids=[path.stem for path in INVALID])
def test_invalid_header_names_line_and_fix(path: Path) -> None:
    expected = path.with_suffix(".error").read_text(encoding="utf-8").strip()
    with pytest.raises(SourceError) as caught:
        split_front_matter(path.read_text(encoding="utf-8"), path=path.name)
    assert str(caught.value) == expected
    # Printed with its causes (the CLI, the serve overlay), it is still only blogbuild's own line: the
    # parser's "line 1, column 8" counts from the header's first line and would contradict it.
    assert describe_chain(caught.value) == expected


def test_body_keeps_its_text_after_crlf_normalised_header() -> None:
    front_matter = split_front_matter("---\ntitle: x\n---\nline one\n\nline two\n", path="a.md")
    assert front_matter.body == "line one\n\nline two\n"


def test_dates_stay_as_written() -> None:
    front_matter = split_front_matter("---\ndate: 2025-08-07T10:40:12+08:00\n---\n", path="a.md")
    assert front_matter.data["date"] == "2025-08-07T10:40:12+08:00"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("-+:\n \"'[]{}ab#=\t.&*!|>") + ["title", "---\n", "+++\n", "日", "\\"]),
                max_size=80).map("".join))
def test_header_reader_never_crashes(text: str) -> None:
    try:
        split_front_matter(text, path="fuzz.md")
    except SourceError as error:
        assert error.path == "fuzz.md" and error.line >= 1


# --- the libyaml fast path and the key-line table must answer exactly as the plain code did ---------

_YAML_PIECES = list("-+:\n \"'[]{}ab#=.&*|>,?%@`\\!\t\r") + [
    "title", "日", "0x1", "1e3", "~", "null", "yes", "2025-01-02", "12:30", ".inf", "<<", "\"\\x41\"", "'a''b'",
    "&x ", "*x", "\n  ", "\n- ", ": ", "\n  - ", "...", "%YAML 1.1\n", "\xa0", "😀", "\ufeff", "\x85", "\u2028",
    "\x00", "|-", ">+2", "? ", " #"]


def _read(loader_call, header: str):
    try:
        return "data", loader_call(header)
    except yaml.YAMLError as error:
        return "error", str(error)
    except RecursionError:
        return "recursion", None


@settings(max_examples=1500, deadline=None)
@given(st.one_of(
    st.lists(st.sampled_from(_YAML_PIECES), max_size=30).map("".join),
    st.lists(st.tuples(st.sampled_from(["title", "tags", "a b", "'q'", "  k", "- t"]),
                       st.sampled_from([": ", ":", " : "]),
                       st.lists(st.sampled_from(_YAML_PIECES), max_size=6).map("".join)).map("".join),
             min_size=1, max_size=5).map("\n".join)))
def test_fast_yaml_reads_every_header_as_pyyaml_does(header: str) -> None:
    """Front matter's loader (timestamps kept as text) and the config files' (strict_yaml.load) alike."""
    expected = _read(lambda text: yaml.load(text, Loader=frontmatter._Loader), header)  # noqa: S506
    assert _read(frontmatter._load_yaml, header) == expected
    expected = _read(lambda text: yaml.load(text, Loader=strict_yaml.StrictSafeLoader), header)  # noqa: S506
    assert _read(strict_yaml.load, header) == expected


def test_fast_yaml_is_used_when_libyaml_is_there() -> None:
    assert (frontmatter._FastLoader is not None) == bool(yaml.__with_libyaml__)
    assert (strict_yaml._StrictCSafeLoader is not None) == bool(yaml.__with_libyaml__)


def _key_line_by_pattern(source_text: str, key: str, default: int = 1) -> int:
    """key_line as it was: one regex per line per key."""
    pattern = re.compile(rf"^\s*['\"]?{re.escape(key)}['\"]?\s*[:=]")
    for number, line in enumerate(source_text.split("\n"), 1):
        if pattern.match(line):
            return number
        if number > 400:
            break
    return default


_KEYS = ["date", "tags", "a-b", "x_1", "日期", "a b", "'q'", "k:", ""]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([" ", "", "\t", "'", "\"", "- "]), st.sampled_from(_KEYS + ["dates", "xdate"]),
                          st.sampled_from(["'", "\"", ""]), st.sampled_from([": v", " = 1", ":", " x", "日: y"])
                          ).map("".join), max_size=12).map("\n".join),
       st.sampled_from(_KEYS))
def test_key_line_table_matches_the_per_key_pattern(text: str, key: str) -> None:
    assert key_line(text, key, default=0) == _key_line_by_pattern(text, key, default=0)


def test_key_line_looks_at_the_first_401_lines_only() -> None:
    text = "\n" * 400 + "date: 1\n"
    assert key_line(text, "date") == 401 == _key_line_by_pattern(text, "date")
    assert key_line("\n" + text, "date", default=7) == 7 == _key_line_by_pattern("\n" + text, "date", default=7)


@pytest.mark.parametrize("depth", [1, 39, 40, 41, 120, 2000])
def test_deep_headers_read_as_pyyaml_reads_them(depth: int) -> None:
    for header in ("x: " + "[" * depth + "1" + "]" * depth,
                   "x:\n" + "".join("  " * level + "- \n" for level in range(1, depth)) + "  " * depth + "- 1"):
        expected = _read(lambda text: yaml.load(text, Loader=frontmatter._Loader), header)  # noqa: S506
        assert _read(frontmatter._load_yaml, header) == expected
        expected = _read(lambda text: yaml.load(text, Loader=strict_yaml.StrictSafeLoader), header)  # noqa: S506
        assert _read(strict_yaml.load, header) == expected


def test_a_header_too_deep_for_pyyaml_is_an_error_not_a_crash() -> None:
    text = "---\ntitle: x\nparams: " + "[" * 3000 + "]" * 3000 + "\n---\nbody\n"
    with pytest.raises(SourceError, match="nested too deeply"):
        split_front_matter(text, path="deep.md")


def test_aliases_read_as_pyyaml_reads_them() -> None:
    header = "base: &b {a: 1, b: [x, y]}\ncopy: *b\nlist: &l [1, 2]\nagain: *l"
    data = frontmatter._load_yaml(header)
    assert data == yaml.load(header, Loader=frontmatter._Loader)  # noqa: S506
    assert data["copy"] is data["base"]
