"""CJK text on a Hugo site its own layouts render, as goldmark writes it. Emphasis by CommonMark's flanking rules:
`**需求：**一款` (a closing ** after punctuation, before a letter) stays as written, as on the Hugo site (blogbuild's
default theme closes it). A line break between two CJK characters: kept
as a line break (Hugo's default, which a browser shows as a space), or dropped when the config's goldmark cjk
extension says eastAsianLineBreaks, between two of goldmark's East Asian wide characters (Han, kana, Hangul;
not the full-width punctuation beside them). tests/hugo_sites/cjk_line_breaks built by the hugo binary and by blogbuild
with each setting: the same page. (A site blogbuild's default theme renders always drops it.)"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.hugo_build import blogbuild_files, built_by_both, copy_site

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "cjk_line_breaks"
EXTENSION = '[markup.goldmark.extensions.cjk]\nenable = true\neastAsianLineBreaks = true\n'


@pytest.mark.parametrize("setting", ["", EXTENSION], ids=["hugo-default", "east-asian-line-breaks"])
def test_a_cjk_line_break_is_what_goldmark_writes(tmp_path: Path, setting: str) -> None:
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path, lambda text: text + setting)
    page = "posts/breaks/index.html"
    assert ours[page].decode() == hugo[page].decode()
    assert ("文章\nです" in ours[page].decode()) == (setting == "")      # kana and Han: joined with the extension
    assert "第一行，\n这是" in ours[page].decode()                      # after "，" goldmark never joins
    assert "<p>**需求：**一款开源易用的软件</p>\n<p>中文<strong>强调</strong>中文，*目标。*为了</p>" in ours[page].decode()


def test_blogbuilds_default_theme_drops_it_whatever_the_cjk_extension_says(tmp_path: Path) -> None:
    """A Hugo config blogbuild's default theme renders (no layouts of its own): the line break between two CJK
    characters is blogbuild's, dropped, even when the cjk extension is on without eastAsianLineBreaks."""
    site = copy_site(FIXTURE, tmp_path / "site")
    shutil.rmtree(site / "layouts")
    (site / "hugo.toml").write_text((site / "hugo.toml").read_text() + "[markup.goldmark.extensions.cjk]\nenable = true\n")
    ours, _warnings = blogbuild_files(site)
    assert "日本語の文章です" in ours["posts/breaks/index.html"].decode()
    assert "<strong>需求：</strong>一款" in ours["posts/breaks/index.html"].decode()   # CJK-friendly emphasis
