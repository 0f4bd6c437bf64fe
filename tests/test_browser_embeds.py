"""Embeds in a real browser: a page with youtube, vimeo, gist, x and instagram shortcodes asks no other host
for anything until the reader clicks; a click puts the player (privacy-enhanced YouTube) in the box.

Debian's chromium driven by Playwright over a real http.server on 127.0.0.1; every request that leaves
127.0.0.1 is recorded and refused."""
from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from support.bundled_site import build_site, serve_folder
from support.tools import missing_tool

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
FIXTURE = Path(__file__).parent / "fixtures" / "embeds" / "embeds.md"

try:
    from playwright import sync_api
except ImportError:
    sync_api = None


@pytest.fixture(scope="module")
def embeds_site(tmp_path_factory: pytest.TempPathFactory):
    if sync_api is None or not CHROMIUM.exists():
        missing_tool("playwright (pip) and /usr/bin/chromium (apt-get install chromium) are needed")
    root = tmp_path_factory.mktemp("embeds") / "site"
    (root / "content" / "posts").mkdir(parents=True)
    shutil.copy(FIXTURE, root / "content" / "posts" / "e.md")
    (root / "static").mkdir()
    (root / "static" / "i.png").write_bytes(b"")
    with serve_folder(root / "public") as base_url:
        build_site(root, base_url)
        yield base_url


def test_nothing_leaves_the_site_until_the_reader_clicks(embeds_site) -> None:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = browser.new_page()
            off_site: list[str] = []

            def only_local(route) -> None:
                if urlsplit(route.request.url).hostname == "127.0.0.1":
                    route.continue_()
                else:
                    off_site.append(route.request.url)
                    route.abort()
            page.route("**/*", only_local)
            page.goto(embeds_site + "posts/e/", wait_until="load")
            page.wait_for_selector("html[data-rendered='true']", state="attached", timeout=30_000)
            assert page.locator(".embed").count() == 6
            assert page.locator(".embed a").first.text_content() == "A talk"
            page.wait_for_timeout(300)
            assert off_site == [], off_site
            page.locator(".embed-youtube .embed-load").click()
            frame = page.locator(".embed-youtube iframe")
            assert frame.get_attribute("src") == "https://www.youtube-nocookie.com/embed/0RKpf3rK57I?autoplay=1&start=30"
            assert frame.get_attribute("title") == "A talk"
            page.wait_for_timeout(300)
            assert off_site and all(urlsplit(url).hostname == "www.youtube-nocookie.com" for url in off_site), off_site
            page.locator(".embed-gist .embed-load").click()
            srcdoc = page.locator(".embed-gist iframe").get_attribute("srcdoc")
            assert srcdoc is not None and 'src="https://gist.github.com/spf13/7896402.js?file=img.html"' in srcdoc
            assert page.locator(".embed-vimeo iframe").count() == 0   # only what was clicked
        finally:
            browser.close()
