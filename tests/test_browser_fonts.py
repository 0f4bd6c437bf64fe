"""Type for both scripts, in a real Chromium with the fonts a Linux reader has (DejaVu, Noto CJK, no Arial):
Latin text and its quotes are drawn by a Latin face on every page, Chinese text by a CJK face, and on a Chinese
page the double quotes of Chinese text stay the CJK faces' full-width ones (an English word's apostrophe there
stays narrow). Chromium says which platform font drew each
node's glyphs (DevTools' CSS.getPlatformFontsForNode)."""
from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path

import pytest

from blogbuild.cli import main
from support.browser import CHROMIUM, CHROMIUM_ARGS
from support.files import write_files


pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
    pytest.mark.skipif(not Path("/usr/share/fonts/opentype/noto").is_dir(),
                       reason="the Noto CJK fonts are missing (apt-get install fonts-noto-cjk)"),
]

BODY = ('<p><span id="latin">It’s “quoted”, isn’t it?</span> <span id="apostrophe">Euler’s identity</span></p>\n\n'
        '<p><span id="chinese">他说“你好”——然后走了…</span></p>\n\n'
        '<p><span id="quotes">“你好”</span></p>\n')


def _site(tmp_path: Path, language: str) -> Path:
    root = tmp_path / language
    write_files(root, {"blogbuild.yaml": f"title: Fonts\nlanguage_code: {language}\n",
                       "content/posts/fonts.md": f"---\ntitle: Fonts\ndate: 2024-01-01\n---\n{BODY}"})
    assert main(["build", "--root", str(root), "-q", "--no-cache"]) == 0
    return root / "public"


def _families(page, session, selector: str) -> set[str]:
    document = session.send("DOM.getDocument", {"depth": -1})
    node = session.send("DOM.querySelector", {"nodeId": document["root"]["nodeId"], "selector": selector})
    fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
    return {font["familyName"] for font in fonts if font["glyphCount"]}


def _is_cjk(family: str) -> bool:
    return "CJK" in family or family.endswith((" SC", " TC", " GB")) or "YaHei" in family


@pytest.fixture(scope="module")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_latin_text_gets_a_latin_face_and_chinese_quotes_stay_full_width(tmp_path, browser, language):
    public = _site(tmp_path, language)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(public))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/posts/fonts/")
        page.evaluate("document.fonts.ready")
        session = page.context.new_cdp_session(page)
        session.send("DOM.enable")
        session.send("CSS.enable")
        apostrophe = _families(page, session, "#apostrophe")   # on every page: never a full-width apostrophe
        assert apostrophe and not any(_is_cjk(family) for family in apostrophe), apostrophe
        latin = _families(page, session, "#latin")
        if not language.startswith("zh"):   # a Chinese page draws double quotes full-width, as its text wants
            assert latin and not any(_is_cjk(family) for family in latin), latin
        chinese = _families(page, session, "#chinese")
        assert any(_is_cjk(family) for family in chinese), chinese
        quotes = _families(page, session, "#quotes")
        if language.startswith("zh"):
            # Every glyph of “你好” from a CJK face: the quotes are the full-width ones.
            assert quotes and all(_is_cjk(family) for family in quotes), quotes
    finally:
        server.shutdown()
        server.server_close()
