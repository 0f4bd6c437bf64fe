"""A Hugo config's own output formats for pages (outputFormats, mediaTypes, outputs.page): each page is written in
every format whose layout exists (single.md), with that layout as a text/template when the format is plain text
(nothing escaped), at the format's file name (baseName and its media type's suffix: index.md), and listed in the
page's .OutputFormats and .AlternativeOutputFormats. tests/hugo_sites/page_formats, built by the hugo binary and
by blogbuild: the same files, the index.md files Hugo's bytes, every page the same DOM."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "page_formats"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("page_formats")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    site = copy_site(FIXTURE, tmp_path / "blogbuild-site")
    ours, warnings = blogbuild_files(site)
    return hugo, ours, warnings


def test_each_page_is_written_in_its_formats(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert warnings == []
    assert sorted(path for path in ours if path != "css/syntax.css") == sorted(hugo)
    for path in ("posts/first/index.md", "posts/bundle/index.md"):
        assert ours[path] == hugo[path], path
    assert ours["posts/first/index.md"].startswith(b"# Fish & Chips <a <b>bold</b> & plain one>\n\n\nSome *markdown*")


def test_every_page_has_hugos_dom(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 6
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []
    assert '<a class="source" href="/posts/first/index.md">Read the markdown</a>' in \
        ours["posts/first/index.html"].decode()
