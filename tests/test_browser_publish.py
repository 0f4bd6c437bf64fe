"""What readers meet around a post, in headless Debian chromium: the comment widget waits until it is
scrolled near, images do not move the page as they arrive, and `serve` pages carry no analytics.

Every request that leaves 127.0.0.1 is aborted and recorded, so "loaded" means "asked for".
"""
from __future__ import annotations

import contextlib
import http.server
import io
import os
import time
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import pytest

from blogbuild.cli import main
from blogbuild.commands.serve import ServeOptions
from blogbuild.serve import DevServer
from support.bundled_site import serve_folder
from support.files import write_files

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 30_000          # a bound on waiting, not a performance claim
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "images"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

FILLER = "\n\n".join("Filler sentence for scrolling, long enough to wrap. " * 12 for _ in range(14))
CONFIG = (
    "title: Publish\ncards: false\n"
    "comments:\n  giscus: {repo: ada/blog, repo_id: R_1, category: General, category_id: DIC_1}\n"
    "analytics:\n  plausible: {domain: example.org}\n  google: {measurement_id: G-ABC123XYZ}\n"
    "  snippet: '<script>window.snippetRan = true;</script>'\n"
)
POST = ("---\ntitle: Pictures and talk\ndate: 2025-01-01\n---\n![photo](/images/photo.jpg)\n\n"
        "Text right under the photo.\n\n![diagram](diagram.png)\n\n" + FILLER + "\n")


def site_files(config: str = CONFIG) -> dict[str, str | bytes]:
    return {
        "blogbuild.yaml": config,
        "content/posts/pictures/index.md": POST,
        "content/posts/pictures/diagram.png": (FIXTURES / "diagram.png").read_bytes(),
        "static/images/photo.jpg": (FIXTURES / "photo.jpg").read_bytes(),
    }


class _SlowImages(http.server.SimpleHTTPRequestHandler):
    """Images answer late, as on a slow network, so the page lays out before they arrive."""

    def do_GET(self) -> None:  # noqa: N802 (the base class's name)
        if self.path.split("?")[0].endswith((".jpg", ".png", ".webp")):
            time.sleep(0.4)
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextlib.contextmanager
def built(root: Path) -> Iterator[str]:
    """The site built for the port it is then served on; yields the base url."""
    public = root / "public"
    public.mkdir(parents=True, exist_ok=True)
    with serve_folder(public, _SlowImages) as url:
        assert main(["build", "--root", str(root), "--base-url", url, "--quiet"]) == 0
        yield url


@pytest.fixture(scope="module")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@contextlib.contextmanager
def open_page(browser, color_scheme: str = "light"):
    """A page whose off-site requests are aborted and listed in page.off_site."""
    context = browser.new_context(viewport={"width": 1000, "height": 700}, color_scheme=color_scheme)
    off_site: list[str] = []

    def route(handled) -> None:
        if urlsplit(handled.request.url).hostname == "127.0.0.1":
            handled.continue_()
        else:
            off_site.append(handled.request.url)
            handled.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.off_site = off_site
    try:
        yield page
    finally:
        context.close()


GISCUS_SCRIPT = "document.querySelector('script[src=\"https://giscus.app/client.js\"]')"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_giscus_waits_for_the_reader_and_follows_the_theme(browser, tmp_path, scheme):
    """The placeholder is there at load with no giscus script and no request for it; scrolling to it adds
    the script, with the page's theme; nothing else was loaded from giscus before."""
    root = write_files(tmp_path / "site", site_files())
    with built(root) as url, open_page(browser, scheme) as page:
        page.goto(url + "posts/pictures/", wait_until="load")
        page.wait_for_selector(".comments-frame", state="attached")
        assert page.evaluate(GISCUS_SCRIPT + " === null")
        assert page.evaluate("document.querySelector('.comments-frame').getBoundingClientRect().top") > 700
        assert not [request for request in page.off_site if "giscus" in request]
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_function(GISCUS_SCRIPT + " !== null", timeout=WAIT_MS)
        attributes = page.evaluate("Object.fromEntries(Array.from(" + GISCUS_SCRIPT +
                                   ".attributes).map(a => [a.name, a.value]))")
        assert attributes["data-theme"] == scheme and attributes["data-repo"] == "ada/blog"
        assert attributes["data-loading"] == "lazy"
        page.wait_for_function("() => true")
        assert any(request.startswith("https://giscus.app/client.js") for request in page.off_site)


LAYOUT_SHIFT = """async () => {
  await Promise.all(Array.from(document.images).map(image => image.complete ? null :
    new Promise(done => { image.addEventListener('load', done); image.addEventListener('error', done); })));
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  return await new Promise(done => {
    new PerformanceObserver((list, observer) => {
      observer.disconnect();
      done(list.getEntries().filter(entry => !entry.hadRecentInput).map(entry => entry.value));
    }).observe({type: 'layout-shift', buffered: true});
    // No entry at all: the observer never calls back; report none after the next frames.
    requestAnimationFrame(() => requestAnimationFrame(() => done([])));
  });
}"""


def layout_shifts(browser, root: Path) -> list[float]:
    with built(root) as url, open_page(browser) as page:
        page.goto(url + "posts/pictures/", wait_until="domcontentloaded")
        shifts = page.evaluate(LAYOUT_SHIFT)
        assert page.evaluate("Array.from(document.images).every(image => image.naturalWidth > 0)")
        return shifts


def test_images_never_shift_the_layout(browser, tmp_path):
    """Chromium's layout-shift entries while slow images arrive: none with blogbuild's sizes; the same page
    built with images: false (no width/height) shifts, so the measurement can see a shift."""
    assert layout_shifts(browser, write_files(tmp_path / "sized", site_files())) == []
    unsized = layout_shifts(browser, write_files(tmp_path / "unsized", site_files(CONFIG + "images: false\n")))
    assert sum(unsized) > 0.05, unsized


def test_the_browser_picks_a_variant_from_srcset(browser, tmp_path):
    """At 1000 px wide and density 1 the column is 46rem: chromium loads a WebP variant, not the original."""
    root = write_files(tmp_path / "site", site_files())
    with built(root) as url, open_page(browser) as page:
        page.goto(url + "posts/pictures/", wait_until="load")
        page.wait_for_function("document.images[0].complete", timeout=WAIT_MS)
        current = page.evaluate("document.images[0].currentSrc")
        assert current.endswith(".webp") and "photo-" in current and "960w" in current, current


def test_published_pages_load_analytics_and_serve_pages_do_not(browser, tmp_path):
    """The built page asks for Plausible and GA4 and runs the snippet; the same site under `blogbuild serve`
    has none of them in the DOM and asks for neither."""
    root = write_files(tmp_path / "site", site_files())
    with built(root) as url, open_page(browser) as page:
        page.goto(url, wait_until="load")
        assert page.evaluate("window.snippetRan === true")
        assert any("plausible.io" in request for request in page.off_site)
        assert any("googletagmanager.com" in request for request in page.off_site)
    dev = DevServer(ServeOptions(root=str(root), port=0), out=io.StringIO())
    dev.start()
    try:
        with open_page(browser) as page:
            for path in ("", "posts/pictures/"):
                page.goto(dev.url + path, wait_until="load")
                assert page.evaluate("window.snippetRan === undefined")
                assert page.evaluate("document.querySelectorAll('script[src*=\"plausible\"], "
                                     "script[src*=\"googletagmanager\"]').length") == 0
            assert not [request for request in page.off_site if "plausible" in request or "google" in request]
            assert page.evaluate("document.querySelector('.comments-frame') !== null")
    finally:
        dev.stop()
