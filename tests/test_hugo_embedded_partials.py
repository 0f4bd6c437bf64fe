"""Hugo's embedded partials opengraph.html, twitter_cards.html and schema.html (called as partials and as
`template "_internal/NAME.html"`) write what Hugo 0.168 writes, byte for byte: tests/hugo_sites/embedded_partials
has a page with a description holding HTML and an entity, seven tags (six are named), series neighbours, keywords,
audio and videos, a locale, images as a site path, an asset and a URL; a page whose description is its summary; a
bundle whose featured image is found by name; list pages falling back to the site's description; params.social
with a twitter handle and a facebook admin. Built by the hugo binary and by blogbuild: the same files, and every
page's bytes equal but the home page's generator line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "embedded_partials"
_EXTRA = {"css/syntax.css"}   # blogbuild's stylesheet of its code highlighting (Hugo's is inline)
_GENERATOR = re.compile(rb'<meta name="generator" content="[^"]*">')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("embedded_partials")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)
    assert "img/global.png" in ours and "posts/bundle/featured.png" in ours   # published when their URL is read
    assert warnings == []


def test_every_page_is_hugos_byte_for_byte(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 20
    assert [path for path in pages if _GENERATOR.sub(b"", ours[path]) != _GENERATOR.sub(b"", hugo[path])] == []


def test_the_partials_write_what_the_page_has(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    first = ours["posts/first/index.html"].decode()
    assert first.count('property="article:tag"') == 2 * 6              # as a partial and as _internal/
    assert '<meta property="og:locale" content="fr_ca">' in first
    assert '<meta property="og:see_also" content="https://example.org/blog/posts/second/">' in first
    assert '<meta itemprop="keywords" content="alpha,beta">' in first
    bundle = ours["posts/bundle/index.html"].decode()
    assert '<meta name="twitter:image" content="https://example.org/blog/posts/bundle/featured.png">' in bundle
