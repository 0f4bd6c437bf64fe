"""A page's .WordCount and .ReadingTime as Hugo 0.168 gives them: the words over 212 a minute rounded up (213
words are 2 minutes, 1,485 are 8), or over 500 a minute on a CJK page of a hasCJKLanguage site.
tests/hugo_sites/reading_time built by the hugo binary and by blogbuild, with and without hasCJKLanguage:
every page the same."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "reading_time"


@pytest.mark.parametrize("setting", ["", "hasCJKLanguage = true\n"], ids=["words", "cjk"])
def test_reading_time_is_hugos(tmp_path: Path, setting: str) -> None:
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path, lambda text: text + setting)
    pages = sorted(path for path in hugo if path.startswith("posts/") and path.endswith("index.html")
                   and path != "posts/index.html")
    assert len(pages) == 9
    assert {path: ours[path] for path in pages} == {path: hugo[path] for path in pages}
