"""Two builds of one site drawn by Chromium and compared by their ink: each page served from its folder on
127.0.0.1 (nothing else reachable), a full-page screenshot per page and width, and the share of ink (every pixel
that is not the page's background) the two screenshots have in common."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .browser import CHROMIUM, CHROMIUM_ARGS
from .bundled_site import serve_folder
from .tools import missing_tool

INK_THRESHOLD = 24    # a channel this far from the background's is ink


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (playwright's), or a skip (a failure in CI) when there is none."""
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
                folder: Path, prefix: str, *, scripts: bool = True) -> dict[str, dict[str, Path]]:
    """{page name: {build name: its screenshot}}: folder/<prefix>-<build>-<page>-<width>.png, light scheme;
    scripts: whether the pages' scripts run."""
    folder.mkdir(parents=True, exist_ok=True)
    shots: dict[str, dict[str, Path]] = {}
    for tool, public in builds.items():
        with serve_folder(public) as base_url:
            context = browser.new_context(viewport={"width": width, "height": height}, color_scheme="light",
                                          java_script_enabled=scripts)
            context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base_url)
                          else route.abort())
            context.add_init_script("Math.random = () => 0.5;")   # a theme's random choice, the same in both
            page = context.new_page()
            for name, url in pages.items():
                page.goto(base_url + url)
                page.wait_for_load_state("networkidle")
                path = folder / f"{prefix}-{tool}-{name}-{width}.png"
                page.screenshot(path=str(path), full_page=True)
                shots.setdefault(name, {})[tool] = path
            context.close()
    return shots


def ink(path: Path) -> Any:
    """The screenshot's ink as a 1-bit mask: the pixels away from its most common colour, its background."""
    from PIL import Image, ImageChops
    image = Image.open(path).convert("RGB")
    background = max(image.getcolors(image.width * image.height) or [(0, (255, 255, 255))])[1]
    difference = ImageChops.difference(image, Image.new("RGB", image.size, background)).convert("L")
    return difference.point(lambda value: 255 if value > INK_THRESHOLD else 0).convert("1")


def ink_overlap(first: Path, second: Path) -> float:
    """|ink of both| / |ink of either| (full pages of different heights: what both show)."""
    from PIL import ImageChops
    one, other = ink(first), ink(second)
    if one.size != other.size:
        width, height = min(one.width, other.width), min(one.height, other.height)
        one, other = one.crop((0, 0, width, height)), other.crop((0, 0, width, height))
    both = ImageChops.logical_and(one, other).histogram()[255]
    either = ImageChops.logical_or(one, other).histogram()[255]
    return both / either if either else 1.0


def overlaps(shots: Mapping[str, Mapping[str, Path]]) -> dict[str, float]:
    """Each page's ink overlap between its Hugo and its blogbuild screenshot (screenshots()), to 3 places."""
    return {name: round(ink_overlap(pair["hugo"], pair["blogbuild"]), 3) for name, pair in shots.items()}
