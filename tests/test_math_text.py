"""A formula's TeX as the text a reader sees (math_text.py): the cases of fixtures/text/formulas.txt,
and the places plain text goes (search content, summaries) showing formulas that way."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blogbuild.config import SiteConfig
from blogbuild.markdown import render_post
from blogbuild.content.math_text import tex_to_text
from blogbuild.content.text import plain_text, text_metrics

FORMULAS = Path(__file__).parent / "fixtures" / "text" / "formulas.txt"


def _cases() -> list[tuple[str, str]]:
    cases = []
    for line in FORMULAS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            tex, _, text = line.partition(" => ")
            cases.append((tex, text.strip()))
    return cases


@pytest.mark.parametrize(("tex", "text"), _cases())
def test_a_formula_reads_as_typeset(tex, text):
    assert tex_to_text(tex) == text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("\\{}^_&~ []ax1+\n.") + ["\\frac", "\\sqrt", "\\left", "\\text", "\\\\"]),
                max_size=60))
def test_any_tex_gives_one_line_of_text(pieces):
    text = tex_to_text("".join(pieces))
    assert "\n" not in text and text == text.strip()


def test_braces_nested_past_the_limit_are_read_flat_not_recursed():
    assert tex_to_text("{" * 20000 + r"\alpha" + "}" * 20000) == "alpha"


def test_words_are_counted_in_the_tex_as_before_while_the_text_shows_the_formula():
    html = '<p>显存 <span class="math inline">V \\times d</span> 字节</p>'
    metrics = text_metrics(html, config=SiteConfig())
    assert metrics.plain_text == "显存 V × d 字节"
    # CJK characters 4, Latin runs V, times, d: the count of the TeX, as Hugo counts .Plain.
    assert metrics.word_count == 7


def test_the_markdown_path_and_the_html_walk_give_the_same_text():
    source = "模型 $V \\times d = 120832 \\times 4096$ 的参数。\n\n$$\\frac{QK^T}{\\sqrt{d_k}}$$\n"
    rendered, metrics = render_post(source)
    assert metrics.plain_text == plain_text(rendered.html)
    assert "V × d = 120832 × 4096" in metrics.plain_text
    assert "QK^T/√d_k" in metrics.plain_text
    assert "V × d" in metrics.summary_text and "\\times" not in metrics.summary_text


def test_private_use_marks_in_the_prose_are_not_taken_for_a_formula():
    assert plain_text("<p>a\ue001b\ue002c</p>") == "a b c"


def _build(root: Path) -> Path:
    from blogbuild.cli import main
    assert main(["build", "--root", str(root), "--no-cache", "--jobs", "1", "--quiet"]) == 0
    return root / "public"


POST = ("---\ntitle: Memory\ndate: 2025-01-01\nmath: true\n---\n"
        "每个 token 的 KV 显存是 $V \\times d = 120832 \\times 4096$ 字节，\\(O(n^2)\\) 增长。\n\n"
        "$$\n\\frac{QK^T}{\\sqrt{d_k}}\n$$\n")


@pytest.mark.parametrize("index", ["whole", "sharded"])
def test_search_reads_formulas_as_text_not_tex(make_site, index):
    """The text a search snippet is cut from shows the formula as typeset, in the
    whole-text index and in the sharded index's text chunks alike; the page keeps its TeX for KaTeX."""
    public = _build(make_site({"content/posts/memory.md": POST, "blogbuild.yaml": f"search_index: {index}\n"}))
    if index == "whole":
        texts = [entry["content"] + "\n" + entry["summary"]
                 for entry in json.loads((public / "index.json").read_text(encoding="utf-8"))]
    else:
        texts = [path.read_text(encoding="utf-8") for path in (public / "search" / "text").rglob("*.json")]
    text = "\n".join(texts)
    assert "V × d = 120832 × 4096" in text and "O(n²)" in text and "QK^T/√d_k" in text
    assert "\\times" not in text and "\\frac" not in text and "\\\\times" not in text
    page = (public / "posts" / "memory" / "index.html").read_text(encoding="utf-8")
    assert "120832" in page and "katex" in page
