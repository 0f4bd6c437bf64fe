"""relativeURLs and canonifyURLs as Hugo applies them: after a page of the site's own layouts is rendered, every
src=, href=, url= and action= value and each URL of a quoted srcset= that starts with one "/" starts instead
with the way up to the top of the site ("../../" from posts/a/index.html, "./" from the top), or with the
base URL (its path dropped once when the URL holds it already); "//" URLs and CSS url(...) stay as written.
tests/hugo_sites/url_rewrite (a base URL with a path, pages at three depths) built by the hugo binary and by
blogbuild in both modes: every page the same bytes."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.hugo_build import built_by_both

from blogbuild.hugo.abs_urls import dotted_path

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "url_rewrite"


@pytest.mark.parametrize("setting", ["relativeURLs", "canonifyURLs"])
def test_every_page_has_hugos_urls(tmp_path: Path, setting: str) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path, lambda text: text.replace("relativeURLs", setting))
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert "posts/deep/b/index.html" in pages
    assert [path for path in pages if ours.get(path) != hugo[path]] == []
    assert not [warning for warning in warnings if setting.lower() in warning.message.lower()]


def test_the_way_up_is_one_step_a_folder() -> None:
    assert [dotted_path(path) for path in ("index.html", "404.html", "posts/index.html", "zh/posts/a/index.html")] \
        == ["./", "./", "../", "../../../"]
