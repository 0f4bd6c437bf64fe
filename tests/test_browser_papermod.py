"""A PaperMod blog in a real browser, built by Hugo + the PaperMod snapshot and by blogbuild side by side.

`defaultTheme: light` under a dark system preference: both builds show the light scheme until the reader picks
dark with the toggle, which then holds across pages. Screenshots of home, post, archives, search and a tag page
(light; dark system preference with defaultTheme: light; phone) go to tests/artifacts/papermod-<tool>-*.png.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.bundled_site import serve_folder
from support.papermod import build_papermod, papermod_theme, write_site
from support.tools import missing_tool

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
PAGES = {"home": "", "post": "posts/p2/", "archives": "archives/", "search": "search/", "tag": "tags/t/"}

try:
    from playwright import sync_api
except ImportError:
    sync_api = None


def _post(number: int) -> str:
    return (f"---\ntitle: Post {number}\ndate: 2024-01-0{number}\ntags: [t]\n---\nIntro text {number}.\n\n"
            f"## First\n\nBody of post {number}.\n\n```python\nprint({number})\n```\n\n## Second\n\nMore.\n")


FILES = {
    "content/posts/_index.md": "---\ntitle: Posts\n---\n",
    **{f"content/posts/p{number}.md": _post(number) for number in (1, 2, 3)},
    "content/archives.md": "---\ntitle: Archive\nlayout: archives\n---\n",
    "content/search.md": "---\ntitle: Search\nlayout: search\n---\n",
    # The author's CSS (PaperMod's customization hook): b.css wins over a.css, and both over the theme's own rules.
    "assets/css/extended/a.css": ".post-title { margin-bottom: 5px; border-bottom: 3px solid rgb(1, 2, 3); }\n",
    "assets/css/extended/b.css": ".post-title { margin-bottom: 7px; }\n",
}
CONFIG: dict[str, Any] = {
    "title": "PM", "languageCode": "en", "theme": "PaperMod", "outputs": {"home": ["HTML", "RSS", "JSON"]},
    "menu": {"main": [{"name": "Archive", "url": "/archives/", "weight": 1},
                      {"name": "Search", "url": "/search/", "weight": 2}]},
    "params": {"defaultTheme": "light", "ShowToc": True, "ShowReadingTime": True, "ShowBreadCrumbs": True,
               "ShowPostNavLinks": True, "ShowCodeCopyButtons": True,
               "homeInfoParams": {"Title": "Hi", "Content": "Notes on **things**."}},
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if sync_api is None or not CHROMIUM.exists():
        missing_tool("playwright (pip) and /usr/bin/chromium (apt-get install chromium) are needed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture(scope="module", params=["papermod", "blogbuild"])
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(tool, base URL) of the fixture built by that tool and served on 127.0.0.1."""
    papermod_theme()
    site = tmp_path_factory.mktemp(request.param) / "site"
    public = site / "public"
    public.mkdir(parents=True)
    with serve_folder(public) as base_url:
        write_site(site, {**CONFIG, "baseURL": base_url}, FILES)
        if request.param == "papermod":
            build_papermod(site, public)
        else:
            from blogbuild.cli import main
            assert main(["build", "--root", str(site), "--base-url", base_url, "--quiet", "--no-cache"]) == 0
        yield request.param, base_url


def _scheme(page: Any) -> str:
    return str(page.evaluate("document.documentElement.dataset.theme"))


def test_default_theme_light_holds_under_a_dark_system_until_the_reader_toggles(browser, served) -> None:
    tool, base_url = served
    context = browser.new_context(viewport=DESKTOP, color_scheme="dark")
    page = context.new_page()
    page.goto(base_url + PAGES["post"])
    assert _scheme(page) == "light", tool
    page.click("#theme-toggle")
    assert _scheme(page) == "dark", tool
    page.goto(base_url + PAGES["home"])
    assert _scheme(page) == "dark", f"{tool}: the reader's choice holds on the next page"
    context.close()


def test_the_authors_extended_css_applies_over_the_theme(browser, served) -> None:
    """assets/css/extended/*.css in both builds: its rules apply, in name order, over the theme's own."""
    tool, base_url = served
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(base_url + PAGES["post"])
    style = page.evaluate("(() => { const s = getComputedStyle(document.querySelector('h1.post-title'));"
                          " return [s.marginBottom, s.borderBottomWidth, s.borderBottomColor]; })()")
    assert style == ["7px", "3px", "rgb(1, 2, 3)"], tool
    context.close()


@pytest.mark.parametrize("mode", ["light", "dark-system", "phone"])
def test_screenshots_of_both_builds(browser, served, mode: str) -> None:
    """Screenshots for a person to compare; the test checks only that every page loads and fits the viewport."""
    tool, base_url = served
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=PHONE if mode == "phone" else DESKTOP,
                                  color_scheme="dark" if mode == "dark-system" else "light")
    page = context.new_page()
    for name, path in PAGES.items():
        response = page.goto(base_url + path)
        assert response is not None and response.ok, f"{tool}: {path}"
        page.screenshot(path=str(ARTIFACTS / f"papermod-{tool}-{name}-{mode}.png"), full_page=True)
        if tool == "blogbuild":   # PaperMod's own page is what it is; blogbuild's must not be wider than the screen
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name} {mode}"
    context.close()
