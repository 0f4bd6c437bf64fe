"""Two builds of one site drawn by Chromium and compared by their ink: each page of each build served on 127.0.0.1,
screenshot whole at a width, and the two screenshots' ink (every pixel that is not the page's background) must
overlap: |both| / |either|. For the tests/test_browser_hugo_*.py files."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .browser import CHROMIUM, CHROMIUM_ARGS
from .bundled_site import serve_folder
from .tools import missing_tool

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
INK_THRESHOLD = 24    # a channel this far from the background's is ink


@contextlib.contextmanager
def launched_browser() -> Iterator[Any]:
    """Headless Chromium through playwright, or a skip (a failure in CI) saying what is missing."""
    try:
        from playwright import sync_api
    except ImportError:
        sync_api = None
    if sync_api is None or not Path(CHROMIUM).exists():
        missing_tool("playwright (pip) and /usr/bin/chromium (apt-get install chromium) are needed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


def screenshots(browser: Any, builds: Mapping[str, Path], pages: Mapping[str, str], width: int, height: int,
                name: str) -> dict[str, dict[str, Path]]:
    """Each page (name -> URL path) of each build (tool -> its public folder) drawn whole at width, only the
    served folder reachable, into ARTIFACTS/<name>-<tool>-<page>-<width>.png: {page: {tool: file}}."""
    ARTIFACTS.mkdir(exist_ok=True)
    shots: dict[str, dict[str, Path]] = {}
    for tool, folder in builds.items():
        with serve_folder(folder) as base_url:
            context = browser.new_context(viewport={"width": width, "height": height}, color_scheme="light")
            context.route("**/*", _only_under(base_url))
            context.add_init_script("Math.random = () => 0.5;")   # a theme's random choice, the same in both
            page = context.new_page()
            for page_name, url in pages.items():
                page.goto(base_url + url)
                page.wait_for_load_state("networkidle")
                path = ARTIFACTS / f"{name}-{tool}-{page_name}-{width}.png"
                page.screenshot(path=str(path), full_page=True)
                shots.setdefault(page_name, {})[tool] = path
            context.close()
    return shots


def _only_under(base_url: str) -> Any:
    """A route handler letting through the requests of the served folder only."""
    def handle(route: Any) -> None:
        route.continue_() if route.request.url.startswith(base_url) else route.abort()
    return handle


def ink(path: Path) -> Any:
    """The screenshot's ink as a 1-bit mask: the pixels away from its most common colour, its background."""
    from PIL import Image, ImageChops
    image = Image.open(path).convert("RGB")
    background = max(image.getcolors(image.width * image.height) or [(0, (255, 255, 255))])[1]
    difference = ImageChops.difference(image, Image.new("RGB", image.size, background)).convert("L")
    return difference.point(lambda value: 255 if value > INK_THRESHOLD else 0).convert("1")


def overlap(first: Path, second: Path) -> float:
    """|both| / |either| of two screenshots' ink (of what both show, when their heights differ)."""
    from PIL import ImageChops
    one, other = ink(first), ink(second)
    if one.size != other.size:   # full pages of different heights: compare what both show
        width, height = min(one.width, other.width), min(one.height, other.height)
        one, other = one.crop((0, 0, width, height)), other.crop((0, 0, width, height))
    both = ImageChops.logical_and(one, other).histogram()[255]
    either = ImageChops.logical_or(one, other).histogram()[255]
    return both / either if either else 1.0


def overlaps(shots: Mapping[str, Mapping[str, Path]]) -> dict[str, float]:
    """Each page's overlap of its hugo and blogbuild screenshots, rounded to 3 places."""
    return {name: round(overlap(pair["hugo"], pair["blogbuild"]), 3) for name, pair in shots.items()}
