"""A leading dot in a URL's segment stays, as Hugo keeps it: a `/:title/` permalink of ".gitignore Isn't the Only
Way …" (a real blog's post) is /.gitignore-isnt-the-only-way-…/, the tag ".NET" is /tags/.net/, "..two dots" is
/..two-dots/. tests/hugo_sites/leading_dots built by the hugo binary and by blogbuild: the same pages at the same
paths, every page the same DOM. (A trailing dot is dropped, where Hugo keeps it: Windows drops it from a file name.)"""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "leading_dots"


def test_a_leading_dot_stays_in_the_pages_paths(tmp_path: Path) -> None:
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert pages == sorted(path for path in ours if path.endswith(".html") and path in hugo)
    assert differing_pages(hugo, ours) == []
    assert ".gitignore-isnt-the-only-way-to-ignore-files-in-git/index.html" in ours
    assert "tags/.net/index.html" in ours and "..two-dots-ahead/index.html" in ours
