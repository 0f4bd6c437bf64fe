"""Terms and content files have Hugo's paths: tests/hugo_sites/term_paths has terms and file and folder names
with spaces, "&", " - ", emoji, punctuation Hugo drops or keeps, accents and CJK; built by the hugo binary and
by blogbuild, the same files are published (so the same URLs). Hugo's urlize, which collapses runs of "-",
stays the rule of a slug made from a title (test_new.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.hugo_build import blogbuild_files, copy_site, hugo_files

from blogbuild.core.urls import path_segment, term_path, urlize

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "term_paths"


def test_every_term_and_page_has_hugos_path(tmp_path: Path) -> None:
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    assert sorted(set(ours) - {"css/syntax.css"}) == sorted(hugo) and warnings == []
    assert "tags/rss--atom/index.html" in ours and "my-notes/part-1---intro--more/index.html" in ours
    assert "tags/tcp/ip/index.html" in ours and "tags/移民/移居/index.html" in ours   # a "/" is a folder, as in Hugo
    assert b"/my-notes/caf" in ours["tags/rss--atom/index.html"]   # "RSS & Atom" is the same term
    assert "tags/f#/index.html" in ours and "tags/c#--.net/index.html" in ours   # a "#" kept, as in Hugo


@pytest.mark.parametrize(("text", "path", "slug"), [
    ("rss & atom", "rss--atom", "rss-atom"),
    ("Part 1 - Intro", "part-1---intro", "part-1-intro"),
    ("-lead", "-lead", "lead"),
    ("at@me", "at@me", "atme"),
    ("TCP/IP", "tcp-ip", "tcp-ip"),       # a file's name: one segment (a term's path is tcp/ip: term_path)
    ("hash#tag 100%", "hash%23tag-100", "hashtag-100"),   # Hugo keeps a "#" (the URL escapes it), drops a "%"
    ("..", path_segment(".."), urlize("..")),
])
def test_a_path_keeps_what_a_slug_collapses(text: str, path: str, slug: str) -> None:
    assert (path_segment(text), urlize(text)) == (path, slug)
    assert "/" not in path_segment(text) and not path_segment(text).startswith(".")


@pytest.mark.parametrize(("term", "path"), [("TCP/IP", "tcp/ip"), ("/lead/slash", "lead/slash"), ("a//b/..", "a/b"),
                                            ("../x", "x"), ("plain", "plain"), ("/", path_segment("/"))])
def test_a_terms_slash_is_a_folder(term: str, path: str) -> None:
    assert term_path(term) == path and ".." not in term_path(term).split("/")
