"""A shortcode's .Page.RenderString and .Page.Language are Hugo's: tests/hugo_sites/shortcode_page renders a
title and the inner text through .Page.RenderString (inline, and with display "block"; nil, a number and a
bool as Hugo's cast.ToString gives them), a layout through the page's .RenderString, and prints the page's
language (a site whose languageCode is en-GB: .Lang is "en"). Built by the hugo binary and by blogbuild: the same
files, every page the same DOM."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "shortcode_page"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("shortcode_page")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_a_shortcodes_page_renders_strings_as_hugo(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(path for path in ours if not path.endswith("css/syntax.css")) == sorted(hugo)
    assert warnings == []
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 3
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []




def test_render_string_is_inline_unless_block(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    page = ours["posts/a/index.html"].decode()
    assert '<span class="title">A <strong>bold</strong> title</span>' in page
    assert '<div class="title"><p>Two</p>' in page and 'lang="en" data-lang="en" data-code="en-GB"' in page
    # nil renders as "" (Hugo's cast.ToString), a number or a bool as Go prints it
    assert '<div class="unset" data-alt="" data-count="3" data-flag="true"></div>' in page
    assert '<p class="rendered" data-none=""><em>Page</em> text</p>' in page
