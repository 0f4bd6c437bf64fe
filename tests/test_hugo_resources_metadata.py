"""Front matter's `resources` metadata names, titles and gives params to a bundle's files as Hugo 0.168 does:
tests/hugo_sites/resources_metadata has entries whose `src` globs overlap (`**.pdf`, `docs/specs.pdf`,
`images/*`), names and titles with `:counter`, params merged (a later entry's value wins), a file renamed (found
by `.Get` and `.GetMatch` under either name, by `.Match` under its new one), a name without a title (the title
stays the path), files of several types (Hugo's order: its sort's comparison of type and name, as Go's stable
sort applies it). Built by the hugo binary and by blogbuild: the same files, every one's bytes equal but the home
page's generator line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.hugo_build import blogbuild_files, copy_site, hugo_files

from blogbuild.hugo.gotemplate.page_resources import go_stable_sort

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "resources_metadata"
_EXTRA = {"css/syntax.css"}   # blogbuild's stylesheet of its code highlighting (Hugo's is inline)
_GENERATOR = re.compile(rb'<meta name="generator" content="[^"]*">')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("resources_metadata")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_every_file_is_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)
    assert warnings == []
    pages = [path for path in hugo if path.endswith((".html", ".xml"))]
    assert [path for path in pages if _GENERATOR.sub(b"", ours[path]) != _GENERATOR.sub(b"", hugo[path])] == []


def test_the_metadata_is_applied(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    gallery = ours["posts/gallery/index.html"].decode()
    assert "<li data-type=\"image\">header | The header | /posts/gallery/images/sunset.png | " \
           "credits=Unknown;icon=image;</li>" in gallery
    assert "pdf-3 | PDF file #3 | /posts/gallery/docs/specs.pdf | extra=1;icon=doc;" in gallery
    assert '<p class="get-original">header</p>' in gallery
    assert "cover-image | cover.png |" in ours["posts/plain/index.html"].decode()


@pytest.mark.parametrize("size", [3, 20, 21, 45, 90])
def test_gos_stable_sort_is_a_stable_sort_for_a_strict_order(size: int) -> None:
    items = [(value * 7919) % 13 for value in range(size)]
    assert go_stable_sort(items, lambda one, other: one < other) == sorted(items)
