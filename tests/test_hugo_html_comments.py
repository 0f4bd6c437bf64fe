"""HTML comments in markdown on a Hugo site its own layouts render, as goldmark writes them: without
`markup.goldmark.renderer.unsafe` (Hugo's default) an HTML block of comments only and a comment inside a paragraph
are left out, so a page's summary, its plainified description and its word count do not start with one (the
summary divider <!--more--> still divides); with unsafe they stay. tests/hugo_sites/html_comments built by the
hugo binary and by blogbuild with each setting: every page the same DOM. (Other raw HTML, which goldmark then
writes as <!-- raw HTML omitted -->, blogbuild keeps: not in this fixture.)"""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "html_comments"
UNSAFE = "[markup.goldmark.renderer]\nunsafe = true\n"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.mark.parametrize("setting", ["", UNSAFE], ids=["hugo-default", "unsafe"])
def test_comments_are_what_goldmark_writes(tmp_path: Path, setting: str) -> None:
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path, lambda text: text + setting)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) >= 4
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []
    first = ours["posts/first/index.html"].decode()
    assert ("Write your retrospective" in first) == (setting == UNSAFE)
    assert '<p class="summary">The month' in first if not setting else '<p class="summary"> The month' in first
