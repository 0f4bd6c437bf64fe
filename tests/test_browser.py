"""The bundled site in a real browser: KaTeX math, mermaid diagrams, no console errors, axe-core, search;
a site of wide things on a phone, lazy mermaid, the diagram viewer, the TOC, and math with JavaScript off.

Debian's chromium driven by Playwright (sync API) over a real http.server on 127.0.0.1; the site is
built with the default config (KaTeX and mermaid served from the site itself) and every request to
another host refused. Screenshots go to tests/artifacts/ (gitignored).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from support.bundled_site import REPO, build_site, copy_bundled_site, serve_folder

from blogbuild.media import assets
from support.tools import missing_tool

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
AXE = REPO / "tests" / "node" / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Generous upper bounds for a page to finish rendering; they only decide when to give up.
RENDER_TIMEOUT_MS = 30_000

HAN = re.compile(r"[\u4e00-\u9fff]")

try:
    from playwright import sync_api
except ImportError:
    sync_api = None
if not (REPO / "content").is_dir():
    pytest.skip("the bundled site (content/) is not in the repo yet", allow_module_level=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):
    """The bundled site with the default config, built for and served at http://127.0.0.1:PORT/."""
    if sync_api is None:
        missing_tool("playwright (the python package) is not installed: pip install playwright")
    if not CHROMIUM.exists():
        missing_tool("Debian chromium not found at /usr/bin/chromium: apt-get install chromium")
    root = copy_bundled_site(tmp_path_factory.mktemp("browser") / "site")
    public = root / "public"
    # Start serving first: the port is only known then, and the build's base_url must match it.
    with serve_folder(public) as base_url:
        build_site(root, base_url)
        entries = json.loads((public / "index.json").read_text(encoding="utf-8"))
        yield {"root": root, "public": public, "url": base_url, "entries": entries}


@pytest.fixture(scope="module")
def browser():
    """One headless Debian chromium for the module."""
    if sync_api is None or not CHROMIUM.exists():
        missing_tool("playwright (pip) and /usr/bin/chromium (apt-get install chromium) are needed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


class PageProblems:
    """Console errors, uncaught exceptions, failed requests, HTTP errors and off-site requests of one page.

    Requests that leave 127.0.0.1 are aborted (the test never uses the network) and counted as
    problems: with the default config a page needs nothing from outside."""

    def __init__(self, page) -> None:
        self.items: list[str] = []
        page.route("**/*", self._only_local)
        page.on("console", lambda message: message.type == "error" and self.items.append(
            f"console error: {message.text}"))
        page.on("pageerror", lambda error: self.items.append(f"uncaught: {error}"))
        page.on("requestfailed", lambda request: self.items.append(
            f"request failed: {request.url} ({request.failure})"))
        page.on("response", lambda response: response.status >= 400 and self.items.append(
            f"HTTP {response.status}: {response.url}"))


    def _only_local(self, route) -> None:
        url = route.request.url
        if urlsplit(url).hostname == "127.0.0.1":
            route.continue_()
        else:
            self.items.append(f"off-site request: {url}")
            route.abort()


def path_of(permalink: str) -> str:
    """The path of an absolute permalink, e.g. '/posts/x/'."""
    return urlsplit(permalink).path


def open_rendered(page, url: str) -> None:
    """Go to url and wait until render.js says math and diagrams are drawn."""
    page.goto(url, wait_until="load")
    page.wait_for_selector("html[data-rendered='true']", state="attached", timeout=RENDER_TIMEOUT_MS)


def draw_all_diagrams(page) -> None:
    """Scroll every diagram into view (mermaid loads and draws near the viewport) and wait until all are drawn."""
    diagrams = page.locator("pre.mermaid")
    for index in range(diagrams.count()):
        diagrams.nth(index).scroll_into_view_if_needed()
    page.wait_for_selector("html[data-diagrams='done']", state="attached", timeout=RENDER_TIMEOUT_MS)


RENDER_REPORT = """() => {
  const math = Array.from(document.querySelectorAll('.math'));
  const diagrams = Array.from(document.querySelectorAll('pre.mermaid'));
  return {
    math: math.length,
    mathNotRendered: math.filter(e => !e.querySelector('.katex')).map(e => e.getAttribute('data-tex') || e.textContent),
    katexErrors: Array.from(document.querySelectorAll('.katex-error')).map(e => e.getAttribute('title') || e.textContent),
    diagrams: diagrams.length,
    diagramsWithoutSvg: diagrams.filter(e => !e.querySelector('svg')).map(e => e.textContent.slice(0, 80)),
    diagramErrors: diagrams.map(e => (e.textContent.match(/(Syntax error|Parse error|error in text)[^]{0,100}/i) || [])[0])
                           .filter(Boolean),
  };
}"""


def test_every_post_renders_math_and_diagrams_without_errors(site, browser):
    """Each published post: KaTeX drew every .math, mermaid drew every diagram, the console stayed clean."""
    assert site["entries"], "index.json lists no posts"
    context = browser.new_context(viewport=DESKTOP)
    failures: list[str] = []
    totals = {"math": 0, "diagrams": 0}
    try:
        for entry in site["entries"]:
            page = context.new_page()
            problems = PageProblems(page)
            path = path_of(entry["permalink"])
            open_rendered(page, site["url"].rstrip("/") + path)
            draw_all_diagrams(page)
            report = page.evaluate(RENDER_REPORT)
            totals["math"] += report["math"]
            totals["diagrams"] += report["diagrams"]
            for key in ("mathNotRendered", "katexErrors", "diagramsWithoutSvg", "diagramErrors"):
                failures.extend(f"{path}: {key}: {item!r}" for item in report[key])
            failures.extend(f"{path}: {item}" for item in problems.items)
            page.close()
    finally:
        context.close()
    assert not failures, "\n".join(failures)
    # The bundled site has both; without them this test would prove nothing.
    assert totals["math"] > 0 and totals["diagrams"] > 0, totals


def showcase_post(site) -> str:
    """The path of the post to photograph: one with math (and a diagram, if one has both)."""
    best = None
    for entry in site["entries"]:
        html = (site["public"] / path_of(entry["permalink"]).strip("/") / "index.html").read_text(encoding="utf-8")
        score = ('class="math' in html) * 2 + ('class="mermaid' in html) + bool(HAN.search(entry["title"]))
        if best is None or score > best[0]:
            best = (score, path_of(entry["permalink"]))
    return best[1]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_screenshots_of_a_post(site, browser, device, scheme):
    """Screenshots of one post (its top, and its first formula) at desktop and phone width, light and dark."""
    ARTIFACTS.mkdir(exist_ok=True)
    viewport = DESKTOP if device == "desktop" else PHONE
    context = browser.new_context(viewport=viewport, color_scheme=scheme, device_scale_factor=1,
                                  is_mobile=device == "phone", has_touch=device == "phone")
    page = context.new_page()
    problems = PageProblems(page)
    path = showcase_post(site)
    open_rendered(page, site["url"].rstrip("/") + path)
    assert page.evaluate("document.documentElement.getAttribute('data-theme')") == scheme
    # No sideways scrolling: the reading column must fit the phone.
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    top = ARTIFACTS / f"post-{device}-{scheme}-top.png"
    page.screenshot(path=str(top))
    formula = page.query_selector(".math.display") or page.query_selector(".math")
    if formula is not None:
        formula.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -120)")
        page.screenshot(path=str(ARTIFACTS / f"post-{device}-{scheme}-math.png"))
    if device == "desktop":
        diagram_post = next((path_of(entry["permalink"]) for entry in site["entries"] if 'class="mermaid' in
                             (site["public"] / path_of(entry["permalink"]).strip("/") / "index.html")
                             .read_text(encoding="utf-8")), None)
        if diagram_post is not None:
            open_rendered(page, site["url"].rstrip("/") + diagram_post)
            draw_all_diagrams(page)
            page.locator("pre.mermaid").first.screenshot(path=str(ARTIFACTS / f"diagram-{scheme}.png"))
    context.close()
    assert top.stat().st_size > 10_000
    assert not problems.items, problems.items
    assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {viewport['width']}px"


def axe_pages(site) -> list[str]:
    """Home, a post, a tag page and the search page."""
    public = site["public"]
    tag_pages = sorted(path.parent for path in (public / "tags").glob("*/index.html"))
    assert tag_pages, "the bundled site has no tag pages"
    return ["/", path_of(site["entries"][0]["permalink"]),
            "/" + tag_pages[0].relative_to(public).as_posix() + "/", "/search/?q=" + quote("模型")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violations(site, browser, scheme):
    """axe-core in home, a post, a tag page and search: no serious or critical violations (nor console errors)."""
    if not AXE.is_file():
        missing_tool("axe-core not installed: run `npm ci` in tests/node")
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    failures: list[str] = []
    for path in axe_pages(site):
        page = context.new_page()
        problems = PageProblems(page)
        open_rendered(page, site["url"].rstrip("/") + path)
        if "/search/" in path:
            page.wait_for_selector("#search-results[data-state]", state="attached", timeout=RENDER_TIMEOUT_MS)
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
        for violation in violations:
            if violation["impact"] in ("serious", "critical"):
                targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:5]]
                failures.append(f"{path} [{scheme}] {violation['impact']} {violation['id']}: "
                                f"{violation['help']} at {targets}")
        failures.extend(f"{path} [{scheme}] {item}" for item in problems.items)
        page.close()
    context.close()
    assert not failures, "\n".join(failures)


def _other_texts(entries, skip) -> str:
    return "\n".join(" ".join([entry["title"], entry["content"], *entry["tags"], *entry["categories"],
                               *entry["series"]]) for entry in entries if entry is not skip).lower()


def chinese_term(entries) -> tuple[dict, str]:
    """A two-character Chinese term from the middle of some post that no other post contains.

    A pair that the post uses more than once is preferred: more likely a word than two characters
    that only meet across a word boundary."""
    for repeated in (2, 1):
        for entry in entries:
            content = entry["content"]
            others = _other_texts(entries, entry)
            middle = len(content) // 2
            for start in list(range(middle, len(content) - 1)) + list(range(middle)):
                term = content[start:start + 2]
                if len(term) == 2 and all(HAN.match(character) for character in term) and term not in others \
                        and term not in entry["title"] and content.count(term) >= repeated:
                    return entry, term
    pytest.fail("no post has a two-character Chinese term of its own")


def english_term(entries) -> tuple[dict, str]:
    """A Latin word (5+ letters) from the middle of some post that no other post contains."""
    for entry in entries:
        content = entry["content"]
        others = _other_texts(entries, entry)
        words = [match for match in re.finditer(r"(?<![A-Za-z])[A-Za-z]{5,}(?![A-Za-z])", content)]
        words.sort(key=lambda match: abs(match.start() - len(content) // 2))
        for match in words:
            if match.group().lower() not in others:
                return entry, match.group()
    pytest.fail("no post has an English word of its own")


@pytest.mark.parametrize("language", ["chinese", "english"])
def test_search_finds_the_post_and_highlights_the_term(site, browser, language):
    """/search/?q=TERM lists the one post that has the term, with the term in a <mark>."""
    entry, term = (chinese_term if language == "chinese" else english_term)(site["entries"])
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    problems = PageProblems(page)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page.goto(site["url"] + "search/?q=" + quote(term), wait_until="load")
    page.wait_for_selector("#search-results[data-state='done']", state="attached", timeout=RENDER_TIMEOUT_MS)
    links = page.eval_on_selector_all(".search-result-title a", "links => links.map(a => a.getAttribute('href'))")
    marks = page.eval_on_selector_all(".search-result mark", "marks => marks.map(m => m.textContent)")
    context.close()
    assert links == [path_of(entry["permalink"])], f"searching {term!r}: {links}"
    assert any(mark.lower() == term.lower() or term.lower() in mark.lower() for mark in marks), \
        f"no <mark> of {term!r} in {marks}"
    # The default index is the whole text in one file (search_index: whole); the sharded one has its
    # own browser test (test_sharded_search_reads_the_index_in_pieces).
    assert "/index.json" in requested and not any(path.startswith("/search/s-") for path in requested), requested
    assert not problems.items, problems.items


@pytest.fixture(scope="module")
def sharded_site(tmp_path_factory: pytest.TempPathFactory):
    """The bundled site with `search_index: sharded`, served at http://127.0.0.1:PORT/."""
    root = copy_bundled_site(tmp_path_factory.mktemp("sharded") / "site")
    config = root / "blogbuild.yaml"
    config.write_text(config.read_text(encoding="utf-8").rstrip("\n") + "\nsearch_index: sharded\n", encoding="utf-8")
    public = root / "public"
    with serve_folder(public) as base_url:
        build_site(root, base_url)
        entries = json.loads((public / "index.json").read_text(encoding="utf-8"))
        yield {"root": root, "public": public, "url": base_url, "entries": entries}


@pytest.mark.parametrize("language", ["chinese", "english"])
def test_sharded_search_reads_the_index_in_pieces(sharded_site, browser, language):
    """With search_index: sharded the same query finds the same post with the term marked, and the page reads
    the meta file, the query's shards and the text around the hit, never the whole index.json."""
    entry, term = (chinese_term if language == "chinese" else english_term)(sharded_site["entries"])
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    problems = PageProblems(page)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page.goto(sharded_site["url"] + "search/?q=" + quote(term), wait_until="load")
    page.wait_for_selector("#search-results[data-state='done']", state="attached", timeout=RENDER_TIMEOUT_MS)
    links = page.eval_on_selector_all(".search-result-title a", "links => links.map(a => a.getAttribute('href'))")
    marks = page.eval_on_selector_all(".search-result mark", "marks => marks.map(m => m.textContent)")
    context.close()
    assert links == [path_of(entry["permalink"])], f"searching {term!r}: {links}"
    assert any(term.lower() in mark.lower() for mark in marks), f"no <mark> of {term!r} in {marks}"
    assert "/index.json" not in requested and "/search/meta.json" in requested, requested
    texts = [path for path in requested if path.startswith("/search/text/")]
    assert texts and all(path.startswith(f"/search/text{path_of(entry['permalink'])}") for path in texts), requested
    assert not problems.items, problems.items


# ---- a site of wide things, the phone layout, lazy diagrams, zoom, the TOC, JavaScript off ---------

WIDE_TABLE = ("| " + " | ".join(f"第{column}列 column heading {column}" for column in range(8)) + " |\n"
              + "|" + "---|" * 8 + "\n"
              + "| " + " | ".join(f"单元格内容 cell {column} with text" for column in range(8)) + " |\n")
WIDE_CODE = "```python\n" + "result = compute(" + ", ".join(f"argument_{index}" for index in range(40)) + ")\n```\n"
NUMBERED_CODE = "```python {linenos=true hl_lines=[2]}\nfirst = 1\nsecond = 2\nthird = 3\n```\n"
WIDE_MATH = "$$\n" + " + ".join(f"\\frac{{a_{{{index}}}}}{{b_{{{index}}}}}" for index in range(40)) + "\n$$\n"
WIDE_DIAGRAM = "```mermaid\ngraph LR\n" + "\n".join(f"  N{index}[节点 {index} stage] --> N{index + 1}[节点 {index + 1} stage]"
                                                  for index in range(14)) + "\n```\n"
# Long inline formulas as a real blog writes them: one KaTeX may break after its relations and operators, one
# with a single unbreakable part (\\left…\\right, a long \\text) wider than a phone, in prose, a list and a heading.
LONG_INLINE_MATH = (
    "KV cache 的大小是 $2 \\times n_{\\text{layers}} \\times n_{\\text{heads}} \\times d_{\\text{head}} \\times s"
    " \\times b = 2 \\times 80 \\times 64 \\times 128 \\times 4096 \\times 16 = 343597383680$ 字节，"
    "其中 $V \\times d = 120832 \\times 4096 = 494927872$。\n\n"
    "注意力是 $\\mathrm{Attention}(Q,K,V)=\\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}} + M_{\\text{causal}}"
    " + B_{\\text{ALiBi}} + \\text{a long bias term}\\right)V$，一行写不下。\n\n"
    "- 吞吐 $\\text{tokens\\_per\\_second\\_per\\_gpu\\_after\\_communication\\_overlap}$ 是一个名字\n"
    "- 求和 $\\left(a_1 + a_2 + a_3 + a_4 + a_5 + a_6 + a_7 + a_8 + a_9 + a_{10} + a_{11} + a_{12}\\right)^2$\n")
# A nested menu (a group, a dropdown in a dropdown) whose dropdown sits near the right edge of a phone's menu line.
NESTED_MENU_CONFIG = """title: "宽内容"
menu:
  - { name: "文章 Posts", url: "/posts/", weight: 10 }
  - { name: "归档 Archives", url: "/archives/", weight: 20 }
  - { name: "搜索", url: "/search/", weight: 30 }
  - name: "索引 Index"
    weight: 40
    children:
      - { name: "标签 Tags", url: "/tags/", weight: 1, group: "分类 Taxonomies" }
      - { name: "系列 Series", url: "/series/", weight: 2, group: "分类 Taxonomies" }
      - name: "更多 More reading"
        weight: 3
        children:
          - { name: "全部文章 Every post of the blog", url: "/posts/", weight: 1 }
"""
FILLER = "\n\n".join("这是一段填充文字，用来把后面的内容推到第一屏之外。" * 6 for _ in range(12))
LONG_URL = "https://example.org/" + "a-very-long-path-segment/" * 12


def _wide_site_files() -> dict[str, str]:
    wide = ("---\ntitle: 宽内容\ndate: 2024-01-02\n---\n## 表格\n\n" + WIDE_TABLE + "\n## 代码\n\n" + WIDE_CODE
            + "\n" + NUMBERED_CODE + "\n## 公式\n\n" + WIDE_MATH + "\n行内 $x^2$ 与链接 " + LONG_URL
            + "\n\n## 图表\n\n" + WIDE_DIAGRAM + "\n## 结尾\n\n" + FILLER + "\n")
    late = ("---\ntitle: 后面的图\ndate: 2024-01-01\n---\n## 开头\n\n" + FILLER + "\n\n## 图\n\n"
            + "```mermaid\ngraph TD\n  A[开始] --> B[结束]\n```\n\n## 尾声\n\n" + FILLER + "\n")
    formulas = ("---\ntitle: 长公式\ndate: 2024-01-03\n---\n" + LONG_INLINE_MATH
                + "\n## 当 $2 \\times 80 \\times 64 \\times 128 \\times 4096 \\times 16 = 343597383680$\n\n" + FILLER + "\n")
    return {"content/posts/wide.md": wide, "content/posts/late.md": late, "content/posts/formulas.md": formulas,
            "blogbuild.yaml": NESTED_MENU_CONFIG}


@pytest.fixture(scope="module")
def wide_site(tmp_path_factory: pytest.TempPathFactory):
    """Wide tables, long code lines, wide display math and a wide diagram, default config, served locally."""
    root = tmp_path_factory.mktemp("wide") / "site"
    for relative, text in _wide_site_files().items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    public = root / "public"
    with serve_folder(public) as base_url:
        build_site(root, base_url)
        yield {"root": root, "public": public, "url": base_url}


PAGE_WIDTH = "document.documentElement.scrollWidth"
WIDE_BOXES = """() => Array.from(document.querySelectorAll(
    '.post-content table, .post-content pre, .post-content .math.display, .post-content pre.mermaid, ' +
    '.post-content .math.inline .katex-base'))
  .filter(box => box.scrollWidth > box.clientWidth + 1)
  .map(box => ({tag: box.tagName, classes: box.className, cue: box.hasAttribute('data-scroll-focus'),
                right: box.getBoundingClientRect().right}))"""


def test_every_page_fits_a_phone_and_wide_boxes_scroll_with_a_cue(site, wide_site, browser):
    """Every post of the bundled site and of the wide site: nothing wider than 390 px, all drawn, no problem."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    failures: list[str] = []
    wide_kinds: set[str] = set()
    pages = [(site, path_of(entry["permalink"])) for entry in site["entries"]]
    pages += [(wide_site, "/posts/wide/"), (wide_site, "/posts/late/"), (wide_site, "/posts/formulas/")]
    try:
        for which, path in pages:
            page = context.new_page()
            problems = PageProblems(page)
            open_rendered(page, which["url"].rstrip("/") + path)
            draw_all_diagrams(page)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(50)   # theme.js marks boxes after blogbuild:diagrams; let it run
            report = page.evaluate(RENDER_REPORT)
            width = page.evaluate(PAGE_WIDTH)
            if width > PHONE["width"]:
                failures.append(f"{path}: the page is {width}px wide")
            for box in page.evaluate(WIDE_BOXES):
                wide_kinds.add(box["tag"] + ("." + box["classes"].split()[0] if box["classes"] else ""))
                if not box["cue"]:
                    failures.append(f"{path}: a wide {box['tag']}.{box['classes']} has no scroll cue")
                if box["right"] > PHONE["width"] + 1:
                    failures.append(f"{path}: a {box['tag']} reaches {box['right']}px")
            for key in ("mathNotRendered", "katexErrors", "diagramsWithoutSvg", "diagramErrors"):
                failures.extend(f"{path}: {key}: {item!r}" for item in report[key])
            failures.extend(f"{path}: {item}" for item in problems.items)
            page.close()
    finally:
        context.close()
    assert not failures, "\n".join(failures)
    # The wide site must have produced every kind of wide box, or this test proves less than it says.
    assert {"TABLE", "DIV.math", "PRE", "PRE.mermaid", "SPAN.katex-base"} <= wide_kinds, wide_kinds


def every_page(which) -> list[str]:
    """The path of every HTML page of a built site but redirects ('/', '/posts/x/', '/tags/', ...)."""
    paths = []
    for index in sorted(which["public"].rglob("index.html")):
        if 'http-equiv="refresh"' not in index.read_text(encoding="utf-8"):
            folder = index.parent.relative_to(which["public"]).as_posix()
            paths.append("/" if folder == "." else f"/{folder}/")
    return paths


# Where every dropdown's list ends, shown or not (a closed one is laid out when asked), and whether the list of
# the dropdown just tapped is shown (checkVisibility: a closed <details> hides its content without display: none).
MENU_EDGES = """summary => ({
  edges: Array.from(document.querySelectorAll('.site-nav .submenu')).map(menu => Math.round(menu.getBoundingClientRect().right)),
  shown: summary.parentElement.querySelector(':scope > .submenu').checkVisibility()})"""


def test_no_page_is_wider_than_a_phone_with_its_menus_open_or_closed(site, wide_site, browser):
    """Every page of both sites at 390 px (long inline formulas, a nested menu): the page is no wider than the
    phone, with the menu closed and after opening each dropdown (a nested one too) as a reader taps them."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    failures: list[str] = []
    opened = 0
    try:
        for which in (site, wide_site):
            for path in every_page(which):
                page = context.new_page()
                open_rendered(page, which["url"].rstrip("/") + path)
                width = page.evaluate(PAGE_WIDTH)
                if width > PHONE["width"]:
                    failures.append(f"{path}: the page is {width}px wide")
                summaries = page.locator(".site-nav .menu-dropdown > summary")
                for index in range(summaries.count()):
                    name = summaries.nth(index).inner_text()
                    summaries.nth(index).click()
                    page.wait_for_timeout(50)   # details' toggle event, and theme.js closing other dropdowns on it
                    opened += 1
                    width = page.evaluate(PAGE_WIDTH)
                    menus = summaries.nth(index).evaluate(MENU_EDGES)
                    if width > PHONE["width"] or any(edge > PHONE["width"] for edge in menus["edges"]):
                        failures.append(f"{path}: with {name!r} open the page is {width}px wide, "
                                        f"menus end at {menus['edges']}")
                    if not menus["shown"]:
                        failures.append(f"{path}: tapping {name!r} did not show its menu")
                page.close()
    finally:
        context.close()
    assert not failures, "\n".join(failures)
    # The wide site's menu has a dropdown in a dropdown; without opening them this test would prove less.
    assert opened >= 2 * len(every_page(wide_site)), opened


def test_math_is_typeset_with_javascript_off(site, browser):
    """JavaScript disabled: every formula of the bundled site is already KaTeX's HTML, in KaTeX's fonts."""
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)
    failures: list[str] = []
    formulas = 0
    try:
        for entry in site["entries"]:
            page = context.new_page()
            problems = PageProblems(page)
            path = path_of(entry["permalink"])
            page.goto(site["url"].rstrip("/") + path, wait_until="load")
            math = page.locator(".math")
            formulas += math.count()
            for index in range(math.count()):
                element = math.nth(index)
                if element.locator(".katex").count() == 0:
                    failures.append(f"{path}: not typeset: {element.text_content()!r}")
            if math.count():
                family = page.locator(".katex .mord").first.evaluate("e => getComputedStyle(e).fontFamily")
                if "KaTeX" not in family:
                    failures.append(f"{path}: formulas are not in KaTeX's fonts ({family})")
            failures.extend(f"{path}: {item}" for item in problems.items)
            page.close()
    finally:
        context.close()
    assert not failures, "\n".join(failures)
    assert formulas > 0


# What a page with one flowchart may download of mermaid (it was 5.5 MB once: the whole library).
MERMAID_BUDGET_BYTES = 1_500_000


def test_mermaid_loads_only_when_a_diagram_comes_near(wide_site, browser):
    """The late post: no mermaid request at load; scrolling to the diagram imports the module once, with only
    the chunks a flowchart needs (under 1.5 MB in all), and draws it."""
    context = browser.new_context(viewport={"width": 1280, "height": 700})
    page = context.new_page()
    problems = PageProblems(page)
    requested: list[str] = []
    sizes: dict[str, int] = {}
    page.on("request", lambda request: "mermaid" in request.url and requested.append(request.url))
    page.on("response", lambda response: "/vendor/mermaid-" in response.url and sizes.__setitem__(
        response.url, len(response.body())))
    open_rendered(page, wide_site["url"] + "posts/late/")
    page.wait_for_timeout(300)
    assert requested == [], "mermaid was fetched before any diagram came near the viewport"
    assert page.locator("pre.mermaid svg").count() == 0
    draw_all_diagrams(page)
    assert [url for url in requested if url.endswith("/mermaid.esm.min.mjs")] == \
        [wide_site["url"] + f"vendor/mermaid-{assets.MERMAID_VERSION}/mermaid.esm.min.mjs"]
    assert len(requested) == len(set(requested)), "a chunk was fetched twice"
    assert all("/vendor/mermaid-" in url and "/elk-" not in url for url in requested)
    assert sum(sizes.values()) <= MERMAID_BUDGET_BYTES, sum(sizes.values())
    assert page.locator("pre.mermaid svg").count() == 1
    context.close()
    assert not problems.items, problems.items


def test_a_wide_diagram_opens_full_screen_and_zooms(wide_site, browser):
    """The wide diagram gets a full-screen button; the viewer zooms with its buttons and closes with Escape."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    problems = PageProblems(page)
    open_rendered(page, wide_site["url"] + "posts/wide/")
    draw_all_diagrams(page)
    button = page.locator(".post-content .diagram-zoom")
    assert button.count() == 1
    button.click()
    viewer = page.locator("dialog.diagram-viewer[open]")
    viewer.wait_for(state="visible")
    assert viewer.locator("svg").count() == 1
    before = viewer.locator("svg").bounding_box()
    viewer.get_by_role("button", name=re.compile("Zoom in")).click()
    viewer.get_by_role("button", name=re.compile("Zoom in")).click()
    after = viewer.locator("svg").bounding_box()
    assert after["width"] > before["width"] * 1.4
    page.mouse.move(640, 400)
    page.mouse.down()
    page.mouse.move(540, 350)
    page.mouse.up()
    moved = viewer.locator("svg").bounding_box()
    assert moved["x"] < after["x"] - 50
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.diagram-viewer", state="detached")
    context.close()
    assert not problems.items, problems.items


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_diagrams_follow_the_color_scheme(wide_site, browser, scheme):
    """Mermaid draws with its dark theme in dark mode, and again when the reader switches scheme."""
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    page = context.new_page()
    problems = PageProblems(page)
    open_rendered(page, wide_site["url"] + "posts/late/")
    draw_all_diagrams(page)
    fill = "() => getComputedStyle(document.querySelector('pre.mermaid svg .node rect, pre.mermaid svg .node polygon')).fill"
    first = page.evaluate(fill)
    page.locator("#theme-toggle").click()
    page.wait_for_function(f"() => getComputedStyle(document.querySelector('pre.mermaid svg .node rect, "
                           f"pre.mermaid svg .node polygon')).fill !== {json.dumps(first)}", timeout=RENDER_TIMEOUT_MS)
    context.close()
    assert not problems.items, problems.items


def test_toc_sticks_beside_the_text_and_marks_the_section(wide_site, browser):
    """Wide screen: the TOC is beside the article, stays in view while scrolling, marks the heading being read."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    open_rendered(page, wide_site["url"] + "posts/late/")
    toc = page.locator(".toc")
    article = page.locator(".post-content").bounding_box()
    assert toc.bounding_box()["x"] >= article["x"] + article["width"]
    heading = page.locator(".post-content h2").nth(2)
    heading_id = heading.get_attribute("id")
    heading.evaluate("element => element.scrollIntoView({block: 'start', behavior: 'instant'})")
    page.wait_for_selector(f".toc a[href='#{heading_id}'][aria-current]", timeout=RENDER_TIMEOUT_MS)
    box = toc.bounding_box()
    assert 0 <= box["y"] < 200, f"the TOC scrolled away: {box}"
    context.close()


def test_toc_is_inline_and_collapsible_on_a_phone(wide_site, browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    open_rendered(page, wide_site["url"] + "posts/late/")
    toc = page.locator("details.toc")
    article = page.locator(".post-content").bounding_box()
    assert toc.bounding_box()["y"] + toc.bounding_box()["height"] <= article["y"] + 1
    assert toc.get_attribute("open") is not None
    toc.locator("summary").click()
    assert toc.get_attribute("open") is None
    context.close()
