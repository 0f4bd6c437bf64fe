"""A multilingual site's .Sites, .LanguagePrefix, .Translations and .AllTranslations are Hugo's when its own
layouts render it. tests/hugo_sites/site_languages has three languages (the default first, the others by weight),
a page in all three, one in two, one in one, a term in two; every page prints every site and its own versions.
Built by the hugo binary and by blogbuild: the same files, every page the same DOM."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "site_languages"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("site_languages")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_every_page_sees_hugos_languages(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(path for path in ours if not path.endswith("css/syntax.css")) == sorted(hugo)
    assert warnings == []
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 23
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []


def test_the_site_being_built_is_among_sites(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    page = ours["fr/posts/hello/index.html"].decode()
    assert '<nav data-prefix="/fr" data-default="false">' in page
    assert 'data-code="en-US"\n   data-current="false">English Languages</a>' in page
    assert 'data-current="true">Français Langues</a>' in page
    assert '<ul data-translated="true" data-count="2">' in page
    assert '<ul data-translated="false" data-count="0">' in ours["fr/posts/seul/index.html"].decode()


def test_an_i18n_file_is_its_language_in_any_case(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    assert '<p class="i18n">Salut</p>' in ours["fr/index.html"].decode()        # i18n/FR.toml
    assert '<p class="i18n">Hallo</p>' in ours["de/posts/hello/index.html"].decode()   # i18n/De.toml


def test_urls_in_a_languages_folder_are_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    urls = ours["de/index.html"].decode()
    assert "<p class=\"urls\">/de/index.xml https://example.org/de/index.xml /index.xml https://example.org/index.xml " \
           "/blog/de/css/a.css https://example.org/blog/de/css/a.css /blog/css/a.css " in urls
