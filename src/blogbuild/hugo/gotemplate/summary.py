"""Hugo's automatic summary of a page's HTML (no `<!--more-->` divider): whole paragraphs, up to the one in
which the count of words reaches the site's summaryLength. A word is a run between white space that does not
look like an HTML tag or attribute; on a CJK page a word with a character outside ASCII counts each of its
characters (its tags stripped first). Hugo's counting is kept as it is: within a paragraph the text after the
last white space is counted without its last character."""
from __future__ import annotations

import re

from .functions import FUNCTIONS
from .math_source import math_as_tex

_TAG = re.compile(r"^</?[A-Za-z]+>?$")
_ATTRIBUTE = re.compile(r"^[A-Za-z]+=[\"']")
_TAG_IN_HTML = re.compile(r"<!--.*?-->|<(/?)([A-Za-z][A-Za-z0-9-]*)(?:\"[^\"]*\"|'[^']*'|[^'\">])*?(/?)>", re.S)
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                   "track", "wbr"})
_SPACE = re.compile(r"\s")   # str.isspace's characters (Go's unicode.IsSpace, but \x1c-\x1f, which no page has)


def _count(word: str, is_cjk: bool) -> int:
    word = word.strip()
    if not word or word == ">" or _TAG.match(word) or _ATTRIBUTE.match(word):
        return 0
    if is_cjk:
        word = str(FUNCTIONS["plainify"](word))
        return 1 if word.isascii() else len(word)
    return 1


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
        paragraph = math_as_tex(html[start:closing])
        # Hugo's loop over the paragraph's characters counts a word at each white space and at the last
        # character: only those places are visited.
        word_start = 0
        last = len(paragraph) - 1
        ends = [found.start() for found in _SPACE.finditer(paragraph)]
        if last >= 0 and (not ends or ends[-1] != last):
            ends.append(last)
        for index in ends:
            count += _count(paragraph[word_start:index], is_cjk)
            word_start = index
            if count >= words:
                break
        if count >= words:
            summary = html[:_balanced_end(html, closing + 4)].strip()
            return summary, summary != content
        start = closing + 3
    return content, False


def _balanced_end(html: str, cutoff: int) -> int:
    """Where the summary ends so that it closes every element open at cutoff (Hugo 0.168: a summary whose words
    run out inside a list item or a blockquote takes the rest of that list or quote): cutoff when nothing is open,
    else the end of the end tag that closes the outermost one; cutoff again when the HTML never closes it."""
    stack: list[str] = []
    for found in _TAG_IN_HTML.finditer(html):
        if found.start() >= cutoff and not stack:
            return cutoff
        name = (found.group(2) or "").lower()
        if not name or name in _VOID or found.group(3):
            continue
        if not found.group(1):
            stack.append(name)
        elif name in stack:
            while stack.pop() != name:
                pass
            if not stack and found.end() >= cutoff:
                return found.end()
    return cutoff
