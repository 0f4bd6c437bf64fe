"""A page's front-matter url in a multilingual site, as Hugo reads it: a url from the root is the page's whole
path, its language's folder included ("/zh/archives" of a Chinese page is /zh/archives/, as PaperMod's
translated archives pages write it; "/nl/z/" of an English page is /nl/z/), a relative one is under its
language's folder ("w/v" of a Dutch page is /nl/w/v/). tests/hugo_sites/language_urls built by the hugo
binary and by blogbuild: the same pages. (A root url outside its own language's folder, "/y" of a Chinese
page, is published by Hugo at /y/ and by blogbuild in the language's folder, /zh/y/.)"""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "language_urls"


def test_front_matter_urls_are_where_hugo_puts_them(tmp_path: Path) -> None:
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, _warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    pages = sorted(path for path in hugo if path.endswith("index.html"))
    assert {"zh/archives/index.html", "nl/z/index.html", "nl/w/v/index.html", "zh/zh/y/index.html"} <= set(pages)
    assert [path for path in pages if ours.get(path) != hugo[path]] == []
    assert not [path for path in ours if path.startswith("zh/zh/archives")]
