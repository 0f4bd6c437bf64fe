"""A Hugo site's menus are Hugo's when its own layouts render it. tests/hugo_sites/menus has two config menus
(every entry field: identifier, pageRef, pre, post, title, params, a parent no entry has), the sections in
sectionPagesMenu's menu, and entries pages declare in front matter (a menu's name, a list of menus, a map of
fields under a parent, a duplicate of a config entry); every page prints every menu with each entry's fields
and whether it is current. Built by the hugo binary and by blogbuild: the same files, every page the same DOM."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "menus"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("menus")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_every_page_shows_hugos_menus(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(set(ours) - {"css/syntax.css"}) == sorted(hugo)
    assert warnings == []   # every menu and field is the layouts': none is named as unused
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 11
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []


def test_front_matter_entries_join_the_config_menus(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    page = ours["docs/install/index.html"].decode()
    # A page's entry under the config's docs entry, the page's link title its name, current on its page.
    assert 'data-name="Install" data-id="" data-key="Install" data-weight="1"' in page
    assert 'data-icon="download" data-page="/site/docs/install/" data-current="true"' in page
    assert 'data-name="Docs section" data-id="docs"' in page            # sectionPagesMenu: the section's link title
    assert page.index('data-name="Orphan child"') > page.index('data-name="nobody"')   # a parent made for it
    assert 'data-menu="footer"' in page and 'data-name="Legal"' in page
