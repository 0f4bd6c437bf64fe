"""plain_line: a line markdown renders as one paragraph of itself, so a Hugo layout's markdownify of a title (an
archives page lists every post's) skips the parse. It must say so only of lines the renderer gives back as they
are: checked against the renderer on the corpus's prose cut into lines and titles, with every markup setting
that reads text (typographer, linkify, emoji, a Hugo site's own layouts), and on lines each rule reads."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from blogbuild.config import SiteConfig
from blogbuild.config.markup import MarkupConfig
from blogbuild.markdown import plain_line, render_markdown

ROOT = Path(__file__).resolve().parents[1]
TEXTS = [*sorted((ROOT / "corpus").glob("*.txt")), *sorted((ROOT / "content").rglob("*.md")),
         *sorted((ROOT / "tests" / "hugo_sites").rglob("*.md"))]

MARKUPS = {
    "default": MarkupConfig(),
    "every text rule": MarkupConfig(typographer=True, linkify=True, enable_emoji=True),
    "a Hugo site's own layouts": MarkupConfig(render_hooks=True, heading_anchors=False, typographer=True,
                                              linkify=True, enable_emoji=True, passthrough=True),
}


def _lines() -> list[str]:
    """The prose of the corpus, the bundled site and the Hugo fixtures cut at its sentence and clause ends and
    line breaks, and runs of one to six of its words."""
    found: set[str] = set()
    for path in TEXTS:
        for piece in re.split(r"[\n。！？，、；：]|(?<=[.!?;,]) ", path.read_text(encoding="utf-8")):
            piece = piece.strip()
            if piece and len(piece) <= 120:
                found.add(piece)
            words = piece.split()
            for size in range(1, 7):
                found.update(" ".join(words[start:start + size]) for start in range(0, len(words), size))
    return sorted(found)


LINES = _lines()


@pytest.mark.parametrize("name", MARKUPS)
def test_a_plain_line_renders_as_itself(name: str) -> None:
    markup = MARKUPS[name]
    config = replace(SiteConfig(), markup=markup)
    plain = [line for line in LINES if plain_line(line, markup)]
    assert 1000 < len(plain) < len(LINES) * 0.8   # many lines qualify, not every line
    wrong = [line for line in plain if render_markdown(line, config=config).html.strip() != f"<p>{line}</p>"]
    assert wrong == []


@pytest.mark.parametrize("line", [
    "1. Intro", "2024.", "3) Three", "- item", "+ item", "# Title", "> quote", "    code", " lead", "trail ",
    "two  spaces", "GPT--4", "wait...", "a.b", "example.com", "www.example", "https://example.org",
    "see:here", ":smile:", "$x$", "a \\(x\\)", "snake_case", "*stars*", "`code`", "[link]", "<b>", "R&D",
    "don't", 'say "hi"', "(c) 2024", "C++", "a=b", "x^2", "a~b", "a|b", "wow!!", "what??", "a,,b", "tab\there",
    "line\nbreak", "no\u00a0break", "", "mail@example.org", "{{< x >}}", "a--", "-a", "a-", "ok?.",
])
def test_a_line_any_rule_reads_is_not_plain(line: str) -> None:
    for markup in MARKUPS.values():
        assert not plain_line(line, markup), line


def test_a_config_math_delimiter_keeps_a_line_out() -> None:
    """A passthrough delimiter is the site's to choose: one of plain characters takes the line out."""
    line = "from 5% to 10% of the time"
    assert plain_line(line, MarkupConfig())
    assert not plain_line(line, MarkupConfig(inline_math=(("%", "%"),)))
    assert not plain_line(line, MarkupConfig(block_math=(("5%", "%"),)))
