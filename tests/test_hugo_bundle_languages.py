"""A bundle of a multilingual site (index.en.md beside index.fr.md) gives each language's page Hugo 0.168's
`.Resources`: the other language's content file is no resource; a file whose name carries a language's key
(`map.fr.png`) is that language's only and replaces `map.png` there; the front matter's `resources` metadata is each
page's own. Hugo (0.123 and later, on one host) publishes a file every language shares once, beside the first
language's page, and links it there from the others (the French page's .Resources, its image hook's images, its
markdown link); a bundle only one language has is that language's; static/ is copied once, at the top. The first language's version may have another slug (voyage: journey in
English, periple in French): the shared files, and the images Hugo Pipes process from them, are beside that page,
and a language's own file's processed image beside its own page (fr/). An RSS feed's site-relative URLs are made
absolute against the whole site's base URL. An image's alt text gets the typographer (L'image is L’image).
tests/hugo_sites/bundle_languages, built by the hugo binary and by blogbuild: the same files (but blogbuild's
highlighting stylesheet; a processed image's `_hu_` hash is Hugo's only for Hugo's pixels, so names are compared
without it) and every page Hugo's DOM (but the generator line; Hugo writes the typographer's quotes as entities);
its sitemaps have no hreflang alternates."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "bundle_languages"
_GENERATOR = re.compile(rb'<meta name="generator" content="[^"]*">')
_PROCESSED = re.compile(r"_hu_[0-9a-f]+\.")


def _page(data: bytes) -> list[str]:
    return dom_tokens(_PROCESSED.sub("_hu_HASH.", _GENERATOR.sub(b"", data).decode()))


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("bundle_languages")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_every_page_but_a_shared_files_url_is_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert warnings == []
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert set(pages) <= set(ours)
    assert [path for path in pages if _page(ours[path]) != _page(hugo[path])] == []
    french = ours["fr/posts/trip/index.html"]
    assert b'<img src="/posts/trip/cover.png"' in french and b'<a href="/posts/trip/notes.txt"' in french   # English copies
    assert b'<img src="/fr/posts/trip/map.fr.png" alt="la carte">' in french   # map.png's French file


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    assert sorted(_PROCESSED.sub("_hu_HASH.", path) for path in ours if not path.endswith("css/syntax.css")) == \
        sorted(_PROCESSED.sub("_hu_HASH.", path) for path in hugo)
    assert "fr/posts/trip/cover.png" not in ours and "fr/posts/solo/photo.png" not in ours
    assert "posts/trip/map.fr.png" not in ours and "fr/notice.txt" not in ours


def test_each_language_has_its_own_files(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    english, french = ours["posts/trip/index.html"].decode(), ours["fr/posts/trip/index.html"].decode()
    assert "<li>map.png | map.png | /posts/trip/map.png | image</li>" in english and "map.fr.png" not in english
    assert "<li>map.fr.png | map.fr.png | /fr/posts/trip/map.fr.png | image</li>" in french
    assert "map.png |" not in french and "index.en.md" not in french
    assert "Cover en" in english and "Cover fr" in french


def test_shared_files_are_beside_the_first_languages_page_of_another_slug(
        both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    french, listed = ours["fr/posts/periple/index.html"].decode(), ours["fr/posts/index.html"].decode()
    assert '<img src="/posts/journey/picture.png" alt="L’image">' in french
    assert '<a href="/posts/journey/picture.png">le lien</a>' in french
    assert re.search(r'<img src="/posts/journey/picture_hu_[0-9a-f]+\.png">', listed)        # processed: shared
    assert re.search(r'<img src="/fr/posts/trip/map\.fr_hu_[0-9a-f]+\.png">', listed)      # processed: French
    assert not [path for path in ours if path.startswith(("posts/periple/", "fr/posts/periple/picture"))]


def test_feeds_make_urls_absolute_against_the_whole_sites_base(
        both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    for feed in ("fr/index.xml", "fr/posts/index.xml", "index.xml"):
        urls = [re.findall(r"https://example\.org/[^&\s<]*", _PROCESSED.sub("_hu_HASH.", files[feed].decode()))
                for files in (hugo, ours)]
        assert urls[0] == urls[1], feed
    assert "https://example.org/posts/trip/cover.png" in ours["fr/index.xml"].decode()
