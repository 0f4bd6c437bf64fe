"""A paginator over page groups is Hugo's when a site's own layouts render it. tests/hugo_sites/paginate_groups
pages a section's .GroupByDate groups three pages a pager (a year split across two pagers is a group on each) and
the home page's pages two a pager; every pager prints its groups, its pages and its numbers. Built by the hugo
binary and by blogbuild: the same files, every page the same DOM."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "paginate_groups"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("paginate_groups")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_grouped_pagers_are_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(set(ours) - {"css/syntax.css"}) == sorted(hugo)
    assert warnings == []
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 16
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []


def test_a_group_split_across_pagers_is_a_group_on_each(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    first, second = ours["posts/index.html"].decode(), ours["posts/page/2/index.html"].decode()
    assert '<p data-pages="0" data-groups="3"></p>' in first and "<h2>2022</h2>" in first
    assert '<p data-pages="0" data-groups="2"></p>' in second and "<h2>2022</h2>" in second
    assert '<p data-pages="2" data-groups="0"></p>' in ours["index.html"].decode()
