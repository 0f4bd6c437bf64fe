"""Hugo's automatic summary of a page's HTML (no `<!--more-->` divider): whole paragraphs, up to the one in
which the count of words reaches the site's summaryLength. A word is a run between white space that does not
look like an HTML tag or attribute; on a CJK page a word with a character outside ASCII counts each of its
characters (its tags stripped first). Hugo's counting is kept as it is: within a paragraph the text after the
last white space is counted without its last character."""
from __future__ import annotations

import re

from .functions import FUNCTIONS

_TAG = re.compile(r"^</?[A-Za-z]+>?$")
_ATTRIBUTE = re.compile(r"^[A-Za-z]+=[\"']")


def _count(word: str, is_cjk: bool) -> int:
    word = word.strip()
    if not word or word == ">" or _TAG.match(word) or _ATTRIBUTE.match(word):
        return 0
    if is_cjk:
        word = str(FUNCTIONS["plainify"](word))
        return 1 if word.isascii() else len(word)
    return 1


_KATEX_START = re.compile(r'<span class="katex(?:-display)?">')
_SPAN = re.compile(r"<span\b|</span>")
_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)


def _math_as_tex(html: str) -> str:
    """The paragraph with each formula typeset at build time (KaTeX's HTML) back as its TeX between $, as Hugo
    counts it: Hugo's pages carry the TeX, not its typesetting."""
    if "katex" not in html:
        return html
    out: list[str] = []
    position = 0
    while True:
        found = _KATEX_START.search(html, position)
        if found is None:
            break
        depth, end = 0, len(html)
        for tag in _SPAN.finditer(html, found.start()):
            depth += 1 if tag.group(0) == "<span" else -1
            if depth == 0:
                end = tag.end()
                break
        annotation = _ANNOTATION.search(html, found.start(), end)
        out.append(html[position:found.start()])
        out.append(f"${annotation.group(1)}$" if annotation else "")
        position = end
    out.append(html[position:])
    return "".join(out)


def hugo_summary(html: str, words: int, is_cjk: bool) -> tuple[str, bool]:
    """The summary Hugo makes of html (its paragraphs up to `words` words) and whether it is shorter than the
    content."""
    content = html.strip()
    if words <= 0:
        return content, False
    count = 0
    start = 0
    while start < len(html):
        closing = html.find("</p>", start)
        if closing < 0:
            break
        paragraph = _math_as_tex(html[start:closing])
        word_start = 0
        for index, char in enumerate(paragraph):
            if char.isspace() or index + 1 == len(paragraph):
                count += _count(paragraph[word_start:index], is_cjk)
                word_start = index
                if count >= words:
                    break
        if count >= words:
            summary = html[:closing + 4].strip()
            return summary, summary != content
        start = closing + 3
    return content, False
