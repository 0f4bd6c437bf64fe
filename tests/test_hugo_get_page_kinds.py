""".Site.GetPage with a kind, then a path, is Hugo's: tests/hugo_sites/get_page_kinds looks up a term, a
taxonomy, a section and a page that way, the home page by "home", "" and "/", "section" with an empty path, and
a path piped in. Built by the hugo binary and by blogbuild: the same files, every page the same DOM."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "get_page_kinds"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("get_page_kinds")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_get_page_by_kind_and_path_is_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(path for path in ours if not path.endswith("css/syntax.css")) == sorted(hugo)
    assert warnings == []
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 6
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []


def test_a_kind_then_a_path_finds_the_path(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    page = ours["index.html"].decode()
    assert "<dt>taxonomy|tags/go</dt><dd>term /tags/go/ Go</dd>" in page
    assert "<dt>section|</dt><dd>home / GetPage</dd>" in page
