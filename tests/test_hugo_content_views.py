"""`.Render NAME` renders a page with the site's layout named NAME, found as Hugo 0.168 finds it for that
page: tests/hugo_sites/content_views has `_default/summary.html`, a section's `posts/summary.html`, a type's
`special/summary.html` (a page with `type: special`), a root `li.html` (the new structure) and
`_default/li.section.html` (a kind's own view); the home page, the lists and a single page render their pages'
and sections' views. Built by the hugo binary and by blogbuild: the same files, every one's bytes equal but the
home page's generator line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "content_views"
_EXTRA = {"css/syntax.css"}   # blogbuild's stylesheet of its code highlighting (Hugo's is inline)
_GENERATOR = re.compile(rb'<meta name="generator" content="[^"]*">')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("content_views")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_every_file_is_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)
    assert warnings == []
    assert [path for path in hugo if _GENERATOR.sub(b"", ours[path]) != _GENERATOR.sub(b"", hugo[path])] == []


def test_each_page_gets_the_view_that_fits_it(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    home = ours["index.html"].decode()
    assert '<div class="posts-summary">One in posts: 9 words</div>' in home       # the section's view
    assert '<div class="special">Two (special)</div>' in home                     # the type's
    assert '<div class="default-summary"><a href="/notes/three/">Three</a>' in home
    assert '<li class="section-view">Posts: 2 pages</li>' in home                 # li.section.html for a section
    assert '<aside><li data-kind="page">Two</li>' in ours["posts/two/index.html"].decode()   # the root li.html
