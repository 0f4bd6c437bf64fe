"""Front matter: fixture headers that must parse, and broken ones with their exact error."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from blogbuild.errors import SourceError
from blogbuild.frontmatter import split_front_matter

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
