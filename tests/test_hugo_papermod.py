"""A PaperMod blog looks like itself: with PaperMod checked out in themes/ (the snapshot beside the repository,
copied in), PaperMod's own templates render tests/hugo_sites/papermod_own, under the author's overrides (a list
layout, an extend_head partial piping the author's CSS through resources.Get | Minify | Fingerprint, a mermaid
render hook). Built by the hugo binary and by blogbuild: the same files and every page the same DOM, except the
documented differences:
- minified bytes are rcssmin's, so fingerprinted names and integrity values differ (normalised here);
- math is typeset at build time (a page with math links blogbuild's KaTeX stylesheet, and its text holds the
  typeset formulas; that page is checked on its own);
- the sitemap is blogbuild's;
- blogbuild writes its highlighting stylesheet (css/syntax.css) and its KaTeX copy."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_site_oracle import hugo_binary
from support.papermod import papermod_theme

from blogbuild.config import load_config
from blogbuild.pipeline import Builder

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "papermod_own"
_HASH = re.compile(r"\.[0-9a-f]{64}\.")
_SRI = re.compile(r"sha(?:256|384|512)-(?:[A-Za-z0-9/=]|\+|&#43;)+")
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
MATH_PAGE = "posts/notes/markup-cases/index.html"


def _site(tmp_path: Path, name: str) -> Path:
    site = tmp_path / name
    shutil.copytree(FIXTURE, site)
    shutil.copytree(papermod_theme(), site / "themes" / "PaperMod")
    return site


def _normalised(path: str) -> str:
    return _HASH.sub(".HASH.", path)


def _dom(html: str) -> list:
    return dom_tokens(_SRI.sub("SRI", _HASH.sub(".HASH.", html)), drop=_GENERATOR)


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("papermod_own")
    destination = tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(_site(tmp_path, "hugo-site")),
                                "--destination", str(destination), "--quiet"], capture_output=True, text=True,
                               timeout=120)
    assert completed.returncode == 0, completed.stderr
    hugo = {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}
    result = Builder(load_config(None, root=_site(tmp_path, "blogbuild-site"))).build()
    assert result.ok, result.errors
    return hugo, {path: item.data for path, item in result.files.items()}, list(result.warnings)


def test_papermods_own_templates_render_the_site(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, warnings = both
    assert not [warning for warning in warnings if "cannot run" in warning.message or "left out" in warning.message]
    home = ours["index.html"].decode()
    assert 'id="theme-toggle"' in home and 'class="post-entry"' in home    # PaperMod's header, the site's list
    assert re.search(r'href="/css/custom\.min\.[0-9a-f]{64}\.css" integrity="sha256-', home)   # extend_head's


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    extra = {path for path in ours if path == "css/syntax.css" or path.startswith("vendor/katex-")}
    assert sorted(_normalised(path) for path in set(ours) - extra) == \
        sorted(_normalised(path) for path in hugo)
    assert any(path.startswith("css/custom.min.") for path in ours)   # the author's CSS, as extend_head pipes it


def test_every_page_has_hugos_dom(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 50
    assert [path for path in pages if path != MATH_PAGE and _dom(ours[path].decode()) != _dom(hugo[path].decode())] == []


def test_every_feed_and_robots_txt_are_papermods_byte_for_byte(
        both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    """PaperMod's rss.xml writes the feed of the home page, every section, taxonomy and term (its URLs made
    absolute as Hugo makes an RSS output's), its robots.txt layout the robots.txt."""
    hugo, ours, _warnings = both
    feeds = sorted(path for path in hugo if path.endswith("index.xml"))
    assert len(feeds) == 20 and "tags/index.xml" in feeds and "series/storage-engines/index.xml" in feeds
    assert [path for path in [*feeds, "robots.txt"] if ours[path] != hugo[path]] == []
    assert b"https://example.org/posts/ml/kv-cache/cache.svg" in ours["index.xml"]   # a bundle image, absolute


def test_the_search_index_is_papermods_index_json(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    """outputs.home: [HTML, RSS, JSON]: PaperMod's index.json layout, run as a text template, writes the index
    its search reads; every entry is Hugo's (the page with math: its text holds the typeset formulas)."""
    hugo, ours, _warnings = both
    theirs, mine = json.loads(hugo["index.json"]), json.loads(ours["index.json"])
    assert [entry["permalink"] for entry in mine] == [entry["permalink"] for entry in theirs]
    math = "https://example.org/posts/notes/markup-cases/"
    assert [entry for entry in mine if entry["permalink"] != math] == \
        [entry for entry in theirs if entry["permalink"] != math]


def test_a_page_with_math_is_typeset_and_links_the_stylesheet(
        both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    page = ours[MATH_PAGE].decode()
    assert '<link rel="stylesheet" href="/vendor/katex-0.19.1/katex.min.css">' in page
    assert 'class="katex"' in page and "vendor/katex-0.19.1/katex.min.css" in ours


def test_the_mermaid_hook_and_the_bundle_images_run_as_hugos(
        both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    assert b'<pre class="mermaid">graph LR' in ours["posts/hello/index.html"]
    for page in ("posts/ml/kv-cache/index.html", "posts/systems/storage/raft-log/index.html"):
        assert _dom(ours[page].decode()) == _dom(hugo[page].decode())
        assert b'loading="lazy"' in ours[page]                    # PaperMod's render-image hook
