"""A LoveIt blog looks like itself: LoveIt's two-language exampleSite (the snapshot copied into a tmp site,
support/loveit.py) built by the hugo binary and by blogbuild, each served on 127.0.0.1 and drawn by Chromium at 1280
and 390 px (only the served folder is reachable: LoveIt's CDN scripts and fonts are not loaded, by either build).
Screenshots go to tests/artifacts/loveit-<tool>-<page>-<width>.png, and the two builds' ink must overlap on each
page (support/screenshots.py): |both| / |either| of at least MIN_OVERLAP. The exampleSite's home page has no second page.
The about page has no code; the documentation post's code blocks are Chroma's, with line numbers, in Hugo's
build and Pygments' in blogbuild's (tests/test_hugo_loveit.py), so every line below one is a little off, within
MIN_OVERLAP."""
from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.hugo_site_oracle import hugo_binary
from support.screenshots import chromium, overlaps, screenshots
from support.loveit import loveit_site

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PAGES = {"home": "", "about": "about/", "post": "theme-documentation-music-shortcode/", "posts": "posts/",
         "tag": "tags/shortcodes/", "categories": "categories/", "zh-cn-home": "zh-cn/", "zh-cn-about": "zh-cn/about/",
         "404": "404.html"}
WIDTHS = {1280: 900, 390: 844}
MIN_OVERLAP = 0.9


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp_path = tmp_path_factory.mktemp("loveit_browser")
    site, hugo = loveit_site(tmp_path / "hugo-site"), tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(site), "--destination", str(hugo),
                                "--enableGitInfo=false", "--quiet"], capture_output=True, text=True, timeout=300,
                               env={**os.environ, "HUGO_THEMESDIR": str(site / "themes")})
    assert completed.returncode == 0, completed.stderr
    from blogbuild.cli import main
    ours = loveit_site(tmp_path / "blogbuild-site")
    assert main(["build", "--root", str(ours), "--quiet", "--no-cache"]) == 0
    return {"hugo": hugo, "blogbuild": ours / "public"}


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_both_builds_draw_the_same_pages(browser, builds: dict[str, Path], width: int) -> None:
    shots = screenshots(browser, builds, PAGES, width, WIDTHS[width], ARTIFACTS, "loveit")
    found = overlaps(shots)
    assert {name: value for name, value in found.items() if value < MIN_OVERLAP} == {}, found
