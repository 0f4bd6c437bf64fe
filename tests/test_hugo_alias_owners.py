"""Aliases that meet, on a Hugo site: a page's alias at another page's URL, and one path that several pages list
as an alias, build as they do in Hugo, where they are no error (Hugo writes the files concurrently, so which one
stays varies between its builds). blogbuild decides the same way every time and says so at the post's line:
the page keeps its URL (its alias is not written), and of several pages aliasing one path the last by title
redirects there (Hugo's most frequent result). An alias without a leading slash is beside the page, under its
URL's parent (`first-older` of /posts/first/ is /posts/first-older/). tests/hugo_sites/alias_owners, built by the hugo binary and by
blogbuild: the pages no alias meets the same DOM."""
from __future__ import annotations

from pathlib import Path

from support.dom import dom_tokens
from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "alias_owners"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
_RACED = {"contact/index.html", "shared/index.html", "both/index.html"}   # Hugo's result varies between builds


def test_aliases_that_meet_build_as_in_hugo(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert sorted(path for path in ours if path != "css/syntax.css") == sorted(hugo)
    assert [path for path in sorted(hugo) if path.endswith(".html") and path not in _RACED
            and dom_tokens(ours[path].decode(), drop=_GENERATOR) != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []
    assert "<h1>Contact</h1>" in ours["contact/index.html"].decode()                  # the page keeps its URL
    assert "<h1>Second</h1>" in ours["posts/second/index.html"].decode()
    for path in ("shared/index.html", "both/index.html"):                              # the last by title
        assert 'href="https://example.org/posts/second/"' in ours[path].decode(), path
    assert 'href="https://example.org/about/"' in ours["about-us/index.html"].decode()
    for path in ("posts/first-older/index.html", "posts/archive/first/index.html"):   # beside the page, as Hugo
        assert 'href="https://example.org/posts/first/"' in ours[path].decode(), path
    said = sorted((warning.path, warning.message) for warning in warnings if "alias" in warning.message)
    assert [path for path, _ in said] == ["content/about.md", "content/about.md", "content/notes/a.md",
                                          "content/notes/a.md", "content/posts/first.md", "content/posts/first.md"]
    assert any("/contact/ is the URL of content/contact.md" in message for _, message in said)
