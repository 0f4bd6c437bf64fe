"""blogbuild serve in a real headless Chromium: live reload, scroll restore, CSS swap and the error overlay."""
from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from blogbuild.commands.serve import ServeOptions
from blogbuild.serve import DevServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 60_000          # a bound on waiting for a rebuild to reach the page, not a performance claim

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

SECTIONS = "\n".join(f"## Section {number}\n\n" + ("Filler sentence for scrolling. " * 60) + "\n"
                     for number in range(1, 11))
POST = ("---\ntitle: Browser post\ndate: 2024-01-01T10:00:00+08:00\ntags: [infra]\n---\n"
        "Opening paragraph: first draft.\n\n" + SECTIONS)
SITE = {
    "blogbuild.yaml": "title: Browser serve test\n",
    "content/posts/browser.md": POST,
    "content/posts/other.md": "---\ntitle: Other\ndate: 2024-02-01T10:00:00+08:00\n---\nOther post.\n",
    # Chromium's scroll anchoring would hide a lost position; turn it off so the page behaves like a
    # browser without it (or a page that reflows after load, as KaTeX does), and the restore must do the work.
    "static/css/style.css": ("body { margin: 0 auto; max-width: 40rem; font: 18px/1.7 sans-serif; }\n"
                             "* { overflow-anchor: none; }\n"),
}


@pytest.fixture(scope="module")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def site(tmp_path) -> Path:
    root = tmp_path / "site"
    for relative, text in SITE.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def server(site):
    dev = DevServer(ServeOptions(root=str(site), port=0), out=io.StringIO())
    dev.start()
    try:
        yield dev
    finally:
        dev.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    # No network beyond the dev server: a build never needs it, and neither does its preview.
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1")
                  else route.abort())
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def open_post(page, server) -> None:
    page.goto(server.url + "posts/browser/")
    page.wait_for_function("document.documentElement.getAttribute('data-rendered') === 'true'", timeout=WAIT_MS)
    # Connected to the event stream (the server counts its clients) before the test edits anything.
    for _ in range(WAIT_MS // 50):
        if server.client_count:
            break
        page.wait_for_timeout(50)
    assert server.client_count, "the page never opened /__blogbuild/events"


def save_whole(path: Path, text: str) -> None:
    """Save as editors that write a hidden file and rename it over the old one do: the server never reads a
    half-written post (an in-place write can show it an empty file first, and a second rebuild after it)."""
    hidden = path.with_name(f".{path.name}.swp")
    hidden.write_text(text, encoding="utf-8")
    os.replace(hidden, path)


def body_has(text: str) -> str:
    return f"document.body.innerText.includes({text!r})"


def test_editing_the_markdown_updates_the_open_page_in_place(page, server, site):
    open_post(page, server)
    page.evaluate("window.__same_document = true")
    post = site / "content/posts/browser.md"
    post.write_text(POST.replace("first draft", "second draft"), encoding="utf-8")
    page.wait_for_function(body_has("Opening paragraph: second draft."), timeout=WAIT_MS)
    # The new <main> was put in place: the document (and its marker) stayed, no reload.
    assert page.evaluate("window.__same_document === true")
    # A change to the page's frame (here the site's title, in the header) is a full reload.
    (site / "blogbuild.yaml").write_text("title: A new site title\n", encoding="utf-8")
    page.wait_for_function(body_has("A new site title"), timeout=WAIT_MS)
    assert page.evaluate("window.__same_document === undefined")


def test_reload_keeps_the_reader_at_the_same_heading(page, server, site):
    open_post(page, server)
    # Put "Section 6" 40 px above the top of the viewport, as if the reader were in the middle of it.
    page.evaluate("""() => {
        const heading = [...document.querySelectorAll('h2[id]')].find(h => h.textContent.includes('Section 6'));
        window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY + 40);
    }""")
    post = site / "content/posts/browser.md"
    # The edit is above the heading and makes the page longer: a scrollY restore would land elsewhere.
    post.write_text(POST.replace("first draft.", "first draft.\n\n" + "Inserted line. " * 300),
                    encoding="utf-8")
    page.wait_for_function(body_has("Inserted line."), timeout=WAIT_MS)
    page.wait_for_function("""() => {
        const heading = [...document.querySelectorAll('h2[id]')].find(h => h.textContent.includes('Section 6'));
        return Math.abs(heading.getBoundingClientRect().top + 40) <= 2;
    }""", timeout=WAIT_MS)


DIAGRAM_POST = ("---\ntitle: Diagram post\ndate: 2024-01-03T10:00:00+08:00\n---\nIntro: draft 0.\n\n"
                "```mermaid\ngraph TD\n  A[Start] --> B[End]\n```\n\n" + SECTIONS)

# Reports layout shifts not caused by input (Chromium's layout-shift entries), summed as CLS.
LAYOUT_SHIFTS = """() => {
  window.__shifts = 0;
  new PerformanceObserver(list => { for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.__shifts += entry.value; } }).observe({type: 'layout-shift', buffered: false});
}"""


def test_twenty_saves_keep_the_readers_place_and_the_drawn_diagram(page, server, site):
    """Twenty saves of a post with a diagram, the reader at Section 6: every save shows the new text in the
    same document, the heading stays where it was (no jump, no layout shift), and the diagram, whose source
    does not change, keeps its drawing (never shown as raw mermaid source again)."""
    post = site / "content/posts/diagram.md"
    post.write_text(DIAGRAM_POST, encoding="utf-8")
    for _ in range(WAIT_MS // 100):   # the rebuild that adds the post
        if server.state.result is not None and "posts/diagram/index.html" in server.state.result.files:
            break
        page.wait_for_timeout(100)
    page.goto(server.url + "posts/diagram/")
    page.wait_for_selector("html[data-diagrams='done']", state="attached", timeout=WAIT_MS)
    for _ in range(WAIT_MS // 50):
        if server.client_count:
            break
        page.wait_for_timeout(50)
    page.evaluate("window.__same_document = true")
    page.evaluate("""() => { const h = [...document.querySelectorAll('h2[id]')].find(h => h.textContent.includes('Section 6'));
                             window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 100); }""")
    page.evaluate(LAYOUT_SHIFTS)
    page.evaluate("""() => { window.__rawSource = false;
        new MutationObserver(() => { if (document.querySelector('pre.mermaid:not([data-processed])')) window.__rawSource = true; })
          .observe(document.body, {childList: true, subtree: true}); }""")
    svg_before = page.evaluate("document.querySelector('pre.mermaid svg').id")

    for number in range(1, 21):
        post.write_text(DIAGRAM_POST.replace("draft 0.", f"draft {number}."), encoding="utf-8")
        page.wait_for_function(body_has(f"Intro: draft {number}."), timeout=WAIT_MS)
        top = page.evaluate("""() => [...document.querySelectorAll('h2[id]')].find(h => h.textContent.includes('Section 6'))
                                 .getBoundingClientRect().top""")
        assert abs(top - 100) <= 1, (number, top)
    assert page.evaluate("window.__same_document === true")
    assert page.evaluate("window.__shifts") == 0
    assert page.evaluate("window.__rawSource") is False
    assert page.evaluate("document.querySelector('pre.mermaid svg').id") == svg_before


def test_css_change_swaps_the_stylesheet_without_reloading(page, server, site):
    open_post(page, server)
    page.evaluate("window.__same_document = true")
    (site / "static/css/style.css").write_text(SITE["static/css/style.css"] + "body { color: rgb(1, 2, 3); }\n",
                                               encoding="utf-8")
    page.wait_for_function("getComputedStyle(document.body).color === 'rgb(1, 2, 3)'", timeout=WAIT_MS)
    assert page.evaluate("window.__same_document === true")
    assert "blogbuild=" in page.evaluate(
        "[...document.querySelectorAll('link[rel=stylesheet]')].map(l => l.href).join(' ')")


def test_broken_front_matter_shows_the_overlay_and_the_fix_removes_it(page, server, site):
    open_post(page, server)
    post = site / "content/posts/browser.md"
    broken = POST.replace("tags: [infra]", "tags: [infra\nsummary: oops")
    save_whole(post, broken)
    overlay = page.wait_for_selector("#blogbuild-error-overlay", timeout=WAIT_MS)
    error = server.state.errors[0]
    location = page.inner_text("#blogbuild-error-overlay .blogbuild-error-location")
    assert location == f"{error.path}:{error.line}" and location.split(":")[0].endswith("browser.md")
    assert "tags: [infra" in overlay.inner_text()           # the source lines around the error
    # The last good page stays on screen underneath.
    assert page.evaluate(body_has("Opening paragraph: first draft."))

    # A page opened while the build is broken shows the overlay at once.
    other = page.context.new_page()
    other.goto(server.url + "posts/other/")
    other.wait_for_selector("#blogbuild-error-overlay", timeout=WAIT_MS)
    other.close()

    post.write_text(POST.replace("first draft", "fixed draft"), encoding="utf-8")
    page.wait_for_function(body_has("Opening paragraph: fixed draft."), timeout=WAIT_MS)
    page.wait_for_selector("#blogbuild-error-overlay", state="detached", timeout=WAIT_MS)


def test_a_late_status_answer_does_not_hide_a_newer_error(page, server, site):
    """The page asks the server's status when its event stream opens; on a loaded machine the answer ("ok",
    from before the save) can arrive after the failed build's "error" event. It must not remove the overlay."""
    held = []

    def hold_first(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))     # answered now ("ok"), handed to the page later
    page.route("**/__blogbuild/status*", hold_first)
    page.add_init_script("""(() => {
      const fetchFirst = window.fetch; window.__statusAnswers = 0;
      window.fetch = (...args) => { const answer = fetchFirst(...args);
        answer.then(() => setTimeout(() => { window.__statusAnswers += 1; }, 300)); return answer; };
    })()""")
    open_post(page, server)
    for _ in range(WAIT_MS // 50):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked the server's status"
    save_whole(site / "content/posts/browser.md", POST.replace("tags: [infra]", "tags: [infra\nsummary: oops"))
    page.wait_for_selector("#blogbuild-error-overlay .blogbuild-error-location", timeout=WAIT_MS)
    route, answer = held[0]
    assert answer.json()["ok"] is True
    route.fulfill(response=answer)
    page.wait_for_function("window.__statusAnswers >= 1", timeout=WAIT_MS)
    assert page.query_selector("#blogbuild-error-overlay .blogbuild-error-location") is not None


def test_the_overlay_can_be_dismissed_and_escapes_markup(page, server, site):
    open_post(page, server)
    post = site / "content/posts/browser.md"
    save_whole(post, "---\ntitle: <img src=x onerror=window.__pwned=1>\ndate: [\n---\nbody\n")
    page.wait_for_selector("#blogbuild-error-overlay", timeout=WAIT_MS)
    assert page.evaluate("window.__pwned === undefined")
    assert page.query_selector("#blogbuild-error-overlay img") is None
    page.click("#blogbuild-error-overlay button[aria-label]")
    page.wait_for_selector("#blogbuild-error-overlay", state="detached", timeout=WAIT_MS)


def test_the_saved_files_warnings_show_in_a_panel_that_can_be_dismissed(page, server, site):
    """An unclosed $$ and a formula KaTeX rejects: after the save the page shows both warnings with file:line
    (as text, never markup); dismissed, the panel stays away for that build; the next clean save has none."""
    post = site / "content/posts/browser.md"
    # The page has math before it opens: a first formula adds KaTeX's stylesheet to the page's head, and that
    # change reloads the page instead of updating it in place (a reload while the rows are read loses them).
    before = server.rebuilds
    post.write_text(POST.replace("first draft.", "first draft. $x$"), encoding="utf-8")
    assert server.wait_for_rebuilds(before + 1, timeout=WAIT_MS / 1000)
    open_post(page, server)
    post.write_text(POST.replace("first draft.", "first draft. $x$ $\\notacommand{<b>x</b>}$\n\n$$\nnever closed\n"),
                    encoding="utf-8")
    # Both warnings, once the save's rebuild is in (a rebuild of a half-written file may show first).
    page.wait_for_function("""() => {
        const rows = [...document.querySelectorAll("#blogbuild-warning-panel .blogbuild-warning")];
        return rows.some(row => row.innerText.includes("KaTeX")) && rows.some(row => row.innerText.includes("$$"));
    }""", timeout=WAIT_MS)
    panel = page.wait_for_selector("#blogbuild-warning-panel", timeout=WAIT_MS)
    rows = page.locator("#blogbuild-warning-panel .blogbuild-warning").all_inner_texts()
    assert any(row.startswith("content/posts/browser.md:") and "KaTeX cannot typeset" in row for row in rows), rows
    assert any("$$" in row for row in rows), rows
    assert page.query_selector("#blogbuild-warning-panel b") is None and "<b>x</b>" in panel.inner_text()
    page.click("#blogbuild-warning-panel button[aria-label]")
    page.wait_for_selector("#blogbuild-warning-panel", state="detached", timeout=WAIT_MS)
    page.reload()
    page.wait_for_function("document.documentElement.getAttribute('data-rendered') === 'true'", timeout=WAIT_MS)
    page.wait_for_timeout(300)
    assert page.query_selector("#blogbuild-warning-panel") is None      # dismissed for this build
    post.write_text(POST.replace("first draft.", "clean draft. $x$"), encoding="utf-8")
    page.wait_for_function(body_has("Opening paragraph: clean draft."), timeout=WAIT_MS)
    page.wait_for_timeout(300)
    assert page.query_selector("#blogbuild-warning-panel") is None


def test_built_files_never_contain_the_reload_script(server):
    for path, output in server.state.result.files.items():
        assert b"/__blogbuild/" not in output.data, path
