"""Math typeset at build time by blogbuild's own KaTeX (V8 in-process): pages, summaries, search, errors, cache."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import lxml.html
import pytest
from support.files import write_files

from blogbuild.media import assets
from blogbuild.content import katex
from blogbuild.cli import main

POST = """---
title: Attention
date: 2024-01-02
---
Scores are $\\frac{QK^T}{\\sqrt{d_k}}$ and again $\\frac{QK^T}{\\sqrt{d_k}}$, cost $O(N^2 d)$.

$$
\\mathrm{softmax}(x)_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}}
$$

Broken: $\\notacommand{x}$ stays TeX.
"""


def _build(root: Path, *extra: str) -> tuple[int, str]:
    import contextlib
    import io
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        code = main(["build", "--root", str(root), "--jobs", "1", *extra])
    return code, errors.getvalue()


@pytest.fixture
def built(tmp_path: Path) -> dict:
    root = write_files(tmp_path / "site", {"content/posts/attention.md": POST})
    code, errors = _build(root, "--no-cache")
    assert code == 0, errors
    public = root / "public"
    return {"root": root, "public": public, "errors": errors,
            "html": (public / "posts" / "attention" / "index.html").read_text(encoding="utf-8")}


def test_every_formula_is_typeset_as_html_and_mathml(built):
    document = lxml.html.fromstring(built["html"])
    math = document.xpath("//*[contains(concat(' ', @class, ' '), ' math ')]")
    assert len(math) == 5
    typeset = [element for element in math if element.xpath(".//span[@class='katex']")]
    assert len(typeset) == 4
    for element in typeset:
        assert element.xpath(".//*[local-name()='math']"), "no MathML for assistive technology"
        assert element.get("data-math-rendered") == ""
    display = document.xpath("//div[contains(@class, 'math display')]")[0]
    assert display.xpath(".//span[@class='katex-display']")


def test_a_rejected_formula_is_a_warning_at_its_line_and_stays_tex(built):
    assert "content/posts/attention.md:11:" in built["errors"]
    assert "math '\\notacommand{x}': KaTeX cannot typeset it" in built["errors"]   # one backslash, as written
    document = lxml.html.fromstring(built["html"])
    broken = document.xpath("//span[contains(@class, 'math-error')]")
    assert [element.text for element in broken] == ["\\notacommand{x}"]


def test_pages_load_the_stylesheet_but_not_katex_script(built):
    document = lxml.html.fromstring(built["html"])
    assert assets.ASSETS["katex_css"].local_url in document.xpath("//link[@rel='stylesheet']/@href")
    assert not [src for src in document.xpath("//script/@src") if "katex" in src]


def test_search_index_reads_formulas_as_text_and_summaries_are_typeset(built):
    entries = json.loads((built["public"] / "index.json").read_text(encoding="utf-8"))
    content = entries[0]["content"]
    assert "QK^T/√d_k" in content and "\\frac" not in content   # math_text.py: as a reader sees it
    assert "katex" not in content and "<" not in content
    # The list page shows the summary, typeset, and loads the stylesheet for it.
    home = (built["public"] / "index.html").read_text(encoding="utf-8")
    assert 'class="katex"' in home


def test_feeds_carry_mathml_not_katex_html(built):
    import feedparser
    feed = (built["public"] / "index.xml").read_text(encoding="utf-8")
    assert "katex-html" not in feed
    parsed = feedparser.parse(feed.encode("utf-8"))
    assert not parsed.bozo, parsed.get("bozo_exception")
    summary = parsed.entries[0].summary
    assert "<math" in summary and "\\frac{QK^T}{\\sqrt{d_k}}" in summary   # MathML, with its TeX annotation


def test_repeated_formulas_are_typeset_once(monkeypatch):
    calls: list[int] = []
    engine = katex._current_engine()
    original = engine.typeset
    monkeypatch.setattr(engine, "typeset", lambda items, macros: calls.append(len(items)) or original(items, macros))
    katex.set_cache_file(None)
    katex.forget_renders()
    results = katex.typeset([("a+b", False), ("a+b", False), ("a+b", True), ("c", False)])
    assert calls == [3]
    # The process remembers them: the next post with the same formulas costs no call into V8.
    katex.typeset([("a+b", True), ("c", False)])
    assert calls == [3]
    assert set(results) == {("a+b", False), ("a+b", True), ("c", False)}


def test_renders_come_from_the_cache_file(tmp_path: Path):
    cache_file = katex.cache_file_for(tmp_path)
    katex.set_cache_file(cache_file)
    katex.forget_renders()
    try:
        first = katex.typeset([("x^2", False)])[("x^2", False)]
        assert first.html and "katex" in first.html
        with sqlite3.connect(cache_file) as connection:
            rows = connection.execute("SELECT key FROM formulas").fetchall()
            assert len(rows) == 1
            # A planted render proves the next typeset reads the cache instead of KaTeX.
            connection.execute("UPDATE formulas SET html = ?", ("<b>cached</b>",))
        katex.set_cache_file(cache_file)
        katex.forget_renders()
        assert katex.typeset([("x^2", False)])[("x^2", False)].html == "<b>cached</b>"
        # Another display mode or macros is another key.
        assert katex.typeset([("x^2", True)])[("x^2", True)].html != "<b>cached</b>"
        assert katex.typeset([("x^2", False)], {"\\RR": "\\mathbb{R}"})[("x^2", False)].html != "<b>cached</b>"
    finally:
        katex.set_cache_file(None)


def test_the_cache_file_serves_builds_in_other_threads(tmp_path: Path):
    # serve builds in threads of its own, one build at a time: the connection one opened serves the next
    # (reads and writes), and a builder made in another thread can let it go.
    import threading

    cache_file = katex.cache_file_for(tmp_path)
    katex.set_cache_file(cache_file)
    katex.forget_renders()
    failures: list[Exception] = []

    def in_thread(function) -> None:
        def run() -> None:
            try:
                function()
            except Exception as error:   # reported to the test below
                failures.append(error)
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()

    try:
        in_thread(lambda: katex.typeset([("y^2", False)]))
        katex.forget_renders()
        katex.typeset([("y^3", False)])
        with sqlite3.connect(cache_file) as connection:
            assert connection.execute("SELECT count(*) FROM formulas").fetchone()[0] == 2
        in_thread(lambda: katex.set_cache_file(None))
        assert failures == []
    finally:
        katex.set_cache_file(None)


def test_a_build_keeps_its_formulas_in_the_cache_file(tmp_path: Path):
    root = write_files(tmp_path / "site", {"content/posts/attention.md": POST})
    katex.forget_renders()
    assert _build(root)[0] == 0
    cache_file = katex.cache_file_for(root / ".blogbuild-cache")
    with sqlite3.connect(cache_file) as connection:
        assert connection.execute("SELECT count(*) FROM formulas").fetchone()[0] == 4


def test_worker_processes_typeset_math(tmp_path: Path):
    files = {f"content/posts/p{number}.md": POST.replace("Attention", f"Post {number}") for number in range(6)}
    root = write_files(tmp_path / "site", files)
    # The parent typesets first (its isolate exists before the fork); the forked workers make their own.
    katex.typeset([("y", False)])
    import contextlib
    import io
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        assert main(["build", "--root", str(root), "--jobs", "2", "--no-cache"]) == 0
    for number in range(6):
        assert 'class="katex"' in (root / "public" / "posts" / f"p{number}" / "index.html").read_text(encoding="utf-8")


def test_browser_mode_leaves_tex_and_loads_katex_script(tmp_path: Path):
    root = write_files(tmp_path / "site", {"blogbuild.yaml": "math_render: browser\n",
                                           "content/posts/attention.md": POST})
    assert _build(root, "--no-cache")[0] == 0
    html = (root / "public" / "posts" / "attention" / "index.html").read_text(encoding="utf-8")
    assert 'class="katex"' not in html
    assert assets.ASSETS["katex_js"].local_url in html


def test_config_macros_reach_katex(tmp_path: Path):
    root = write_files(tmp_path / "site", {
        "blogbuild.yaml": 'math_macros:\n  "\\\\RR": "\\\\mathbb{R}"\n',
        "content/posts/a.md": "---\ntitle: A\n---\nThe reals $\\RR$.\n"})
    code, errors = _build(root, "--no-cache")
    assert code == 0 and "KaTeX cannot" not in errors, errors
    html = (root / "public" / "posts" / "a" / "index.html").read_text(encoding="utf-8")
    assert "mathbb" in html and "math-error" not in html


def test_a_batch_comes_back_whole_whatever_the_messages_hold():
    """Results cross from V8 joined by NUL; a message that quotes a NUL of the TeX sends the batch as JSON instead.
    Either way each formula gets its own outcome, in order."""
    katex.forget_renders()
    formulas = [("a^2", False), ("\\undefinedcommand\x00{x}", False), ("\\frac{1}{2}", True), ("\\sqrt{", False)]
    results = katex.typeset(formulas)
    assert results[formulas[0]].html and "katex" in results[formulas[0]].html
    assert results[formulas[1]].html is None and results[formulas[1]].error
    assert results[formulas[2]].html and "katex-display" in results[formulas[2]].html
    assert results[formulas[3]].html is None and results[formulas[3]].error
    plain = [("b_1", False), ("\\alpha", False)]
    assert all(katex.typeset(plain)[formula].html for formula in plain)


def _counting_calls(monkeypatch) -> list[int]:
    calls: list[int] = []
    engine = katex._current_engine()
    original = engine.typeset
    monkeypatch.setattr(engine, "typeset", lambda items, macros: calls.append(len(items)) or original(items, macros))
    return calls


def test_macros_a_formula_defines_hold_for_the_formulas_after_it_on_its_page(monkeypatch):
    katex.set_cache_file(None)
    katex.forget_renders()
    calls = _counting_calls(monkeypatch)
    page = [("\\RR", False), ("\\gdef\\RR{\\mathbb{R}}", False), ("x \\in \\RR", False), ("\\RR", False)]
    [outcomes, other_page] = katex.typeset_pages([page, [("\\RR", False)]])
    assert calls == [4]   # both pages in one call; the other page's \\RR is the first one (no definitions before it)
    assert outcomes[0].html is None          # before the definition, as in the browser
    assert outcomes[1].html and outcomes[2].html and "mathbb" in outcomes[2].html
    assert outcomes[3].html and "mathbb" in outcomes[3].html
    assert other_page[0].html is None        # another page starts from the site's macros again


def test_a_formula_is_never_served_a_render_made_under_other_macros(tmp_path: Path):
    cache_file = katex.cache_file_for(tmp_path)
    katex.set_cache_file(cache_file)
    try:
        pages = [[("\\gdef\\V{A}", False), ("\\V", False)], [("\\gdef\\V{B}", False), ("\\V", False)], [("\\V", False)]]
        for _ in range(2):   # from KaTeX, then from the cache file alone
            katex.forget_renders()
            first, second, alone = katex.typeset_pages(pages)
            assert first[1].html and ">A<" in first[1].html
            assert second[1].html and ">B<" in second[1].html
            assert alone[0].html is None
        with_site_macro = katex.typeset_pages([[("\\V", False)]], {"\\V": "C"})
        assert with_site_macro[0][0].html and ">C<" in with_site_macro[0][0].html
    finally:
        katex.set_cache_file(None)


def test_a_cached_definition_is_run_again_for_a_new_formula_after_it(monkeypatch):
    katex.set_cache_file(None)
    katex.forget_renders()
    katex.typeset_pages([[("\\gdef\\W{w}", False), ("\\W", False)]])
    calls = _counting_calls(monkeypatch)
    [outcomes] = katex.typeset_pages([[("\\gdef\\W{w}", False), ("\\W", False), ("\\W^2", False)]])
    assert calls == [2]   # the definition (for its macros) and the one new formula
    assert all(outcome.html for outcome in outcomes)


def test_mhchem_typesets_ce_and_pu():
    katex.forget_renders()
    results = katex.typeset([("\\ce{H2O + CO2 -> H2CO3}", False), ("\\pu{123 kJ/mol}", False)])
    assert all(outcome.html and "katex" in outcome.html for outcome in results.values())


def test_a_failing_formula_costs_one_try(monkeypatch):
    katex.set_cache_file(None)
    katex.forget_renders()
    calls = _counting_calls(monkeypatch)
    katex.typeset_pages([[("\\nosuch{1}", False), ("\\nosuch{1}", False)], [("\\nosuch{1}", False)]])
    katex.typeset_pages([[("\\nosuch{1}", False)]])
    assert calls == [1]


PAGE_MACROS = """---
title: Macros
date: 2024-01-02
---
Let $\\gdef\\RR{\\mathbb{R}}$ the reals; then $x \\in \\RR$.

## Over $\\RR$

More $\\RR^2$, and water $\\ce{H2O}$.

<!--more-->

## After

After the summary: $\\RR^3$.
"""


def test_a_page_macro_reaches_the_page_its_summary_and_its_toc(tmp_path: Path):
    root = write_files(tmp_path / "site", {"content/posts/macros.md": PAGE_MACROS,
                                           "content/posts/other.md": "---\ntitle: O\ndate: 2024-01-01\n---\n$\\RR$\n"})
    code, errors = _build(root, "--no-cache")
    assert code == 0
    assert errors.count("KaTeX cannot typeset") == 1 and "other.md:5" in errors, errors
    page = lxml.html.fromstring((root / "public" / "posts" / "macros" / "index.html").read_text(encoding="utf-8"))
    assert not page.xpath("//*[contains(@class, 'math-error')]")
    assert len(page.xpath("//article//*[@data-math-rendered]")) >= 5
    toc_math = page.xpath("//nav//a//span[@class='katex']")
    assert toc_math and "\\RR" in toc_math[0].text_content()
    home = lxml.html.fromstring((root / "public" / "index.html").read_text(encoding="utf-8"))
    summary = home.xpath("//*[contains(@class, 'math') and @data-math-rendered]")
    assert summary and not home.xpath("//*[contains(@class, 'math-error')]//*[contains(., 'x \\in')]")
