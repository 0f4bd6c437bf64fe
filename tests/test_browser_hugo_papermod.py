"""A PaperMod blog looks like itself: tests/hugo_sites/papermod_own (PaperMod's own templates under the author's
overrides, the snapshot copied into themes/PaperMod) built by the hugo binary and by blogbuild, each served on
127.0.0.1 and drawn by Chromium at 1280 and 390 px. Screenshots go to
tests/artifacts/papermod-own-<tool>-<page>-<width>.png, and the two builds' ink (every pixel that is not the
page's background) must overlap on each page: |both| / |either| of at least MIN_OVERLAP. The page with math is
left out: blogbuild typesets its formulas at build time, where Hugo's page shows the TeX."""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.browser import CHROMIUM, CHROMIUM_ARGS
from support.bundled_site import serve_folder
from support.hugo_site_oracle import hugo_binary
from support.papermod import papermod_theme
from support.tools import missing_tool

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "papermod_own"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PAGES = {"home": "", "page-2": "page/2/", "post": "posts/hello/", "bundle": "posts/ml/kv-cache/",
         "section": "posts/systems/", "tags": "tags/", "tag": "tags/storage/", "archives": "archives/",
         "search": "search/", "404": "404.html"}
WIDTHS = {1280: 900, 390: 844}
MIN_OVERLAP = 0.9
INK_THRESHOLD = 24    # a channel this far from the background's is ink

try:
    from playwright import sync_api
except ImportError:
    sync_api = None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if sync_api is None or not Path(CHROMIUM).exists():
        missing_tool("playwright (pip) and /usr/bin/chromium (apt-get install chromium) are needed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


def _site(root: Path) -> Path:
    shutil.copytree(FIXTURE, root)
    shutil.copytree(papermod_theme(), root / "themes" / "PaperMod")
    return root


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp_path = tmp_path_factory.mktemp("papermod_own_browser")
    hugo = tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(_site(tmp_path / "hugo-site")),
                                "--destination", str(hugo), "--quiet"], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    from blogbuild.cli import main
    site = _site(tmp_path / "blogbuild-site")
    assert main(["build", "--root", str(site), "--quiet", "--no-cache"]) == 0
    return {"hugo": hugo, "blogbuild": site / "public"}


def _ink(path: Path) -> Any:
    """The screenshot's ink as a 1-bit mask: the pixels away from its most common colour, its background."""
    from PIL import Image, ImageChops
    image = Image.open(path).convert("RGB")
    background = max(image.getcolors(image.width * image.height) or [(0, (255, 255, 255))])[1]
    difference = ImageChops.difference(image, Image.new("RGB", image.size, background)).convert("L")
    return difference.point(lambda value: 255 if value > INK_THRESHOLD else 0).convert("1")


def _overlap(first: Path, second: Path) -> float:
    from PIL import ImageChops
    one, other = _ink(first), _ink(second)
    if one.size != other.size:   # full pages of different heights: compare what both show
        width, height = min(one.width, other.width), min(one.height, other.height)
        one, other = one.crop((0, 0, width, height)), other.crop((0, 0, width, height))
    both = ImageChops.logical_and(one, other).histogram()[255]
    either = ImageChops.logical_or(one, other).histogram()[255]
    return both / either if either else 1.0


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_both_builds_draw_the_same_pages(browser, builds: dict[str, Path], width: int) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    shots: dict[str, dict[str, Path]] = {}
    for tool, folder in builds.items():
        with serve_folder(folder) as base_url:
            context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]}, color_scheme="light")
            context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base_url)
                          else route.abort())
            page = context.new_page()
            for name, url in PAGES.items():
                page.goto(base_url + url)
                page.wait_for_load_state("networkidle")
                path = ARTIFACTS / f"papermod-own-{tool}-{name}-{width}.png"
                page.screenshot(path=str(path), full_page=True)
                shots.setdefault(name, {})[tool] = path
            context.close()
    overlaps = {name: round(_overlap(pair["hugo"], pair["blogbuild"]), 3) for name, pair in shots.items()}
    assert {name: value for name, value in overlaps.items() if value < MIN_OVERLAP} == {}, overlaps
