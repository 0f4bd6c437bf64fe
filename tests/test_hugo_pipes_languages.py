"""Hugo Pipes in a multilingual site are Hugo's: tests/hugo_sites/pipes_languages links a stylesheet (minified
and fingerprinted, and as it is) from every page of two languages; Hugo publishes it once, at the top of the site,
linked without a language prefix. Built by the hugo binary and by blogbuild: the same files, every page the same
DOM."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "pipes_languages"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("pipes_languages")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_a_resource_is_published_once_at_the_top(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(path for path in ours if not path.endswith("css/syntax.css")) == sorted(hugo)
    assert warnings == []
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 5
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []



def test_no_language_folder_holds_a_resource(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    assert "css/main.css" in ours and not [path for path in ours if path.startswith("nl/css/main")]
    assert 'href="/docs/css/main.css"' in ours["nl/about/index.html"].decode()
