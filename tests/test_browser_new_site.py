"""A new site as `blogbuild init` writes it, on a phone in a real Chromium: the first post's display formula
in the home page's summary card is shown whole (not cut off at the card's edge, nor its limits clipped), and
the page is no wider than the screen."""
from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path

import pytest

from blogbuild.cli import main
from support.browser import CHROMIUM, CHROMIUM_ARGS


pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:   # noqa: A002 - the base class's name
        return


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_first_posts_display_formula_fits_its_summary_card_on_a_phone(tmp_path: Path, language: str) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    root = tmp_path / "site"
    assert main(["init", "--root", str(root), "-q", "--lang", language]) == 0
    assert main(["build", "--root", str(root), "-q", "--no-cache"]) == 0
    handler = functools.partial(_Quiet, directory=str(root / "public"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with playwright_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
                page.evaluate("document.fonts.ready")
                boxes = page.evaluate("""() => [...document.querySelectorAll('.post-summary .math.display')].map(e => {
                    const box = e.getBoundingClientRect(), card = e.closest('.post-card').getBoundingClientRect();
                    const inner = e.querySelector('.katex-display, .katex');
                    return {left: box.left, right: box.right, card_left: card.left, card_right: card.right,
                            scroll_width: e.scrollWidth, client_width: e.clientWidth,
                            scroll_height: e.scrollHeight, client_height: e.clientHeight,
                            typeset: inner !== null};
                })""")
                assert boxes, "the summary shows the display formula"
                for box in boxes:
                    assert box["typeset"]
                    assert box["card_left"] <= box["left"] and box["right"] <= box["card_right"], box
                    assert box["scroll_width"] <= box["client_width"], box     # nothing hidden sideways
                    assert box["scroll_height"] <= box["client_height"], box   # the sum's limits not clipped
                assert page.evaluate("document.documentElement.scrollWidth") <= 390
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
