"""Math written inside raw HTML (a <div> block, a rawhtml shortcode) as the same math spans markdown's math gets.

Hugo sites typeset math with KaTeX auto-render over the whole article, so $…$ inside raw HTML is
math there; blogbuild typesets math spans (at build time or in the page), so it marks those
formulas as spans too, with the same classes and HTML-escaped TeX as every other formula.
"""
from __future__ import annotations

import functools
import html
import re

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore

from ..config.markup import MarkupConfig

# Comments, tags, and the text between them.
_PIECES = re.compile(r"<!--.*?-->|<[A-Za-z/!?][^>]*>|[^<]+|<", re.DOTALL)
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
# Elements whose text is never math: code, preformatted text, scripts, and math already marked.
_NOT_MATH = frozenset({"pre", "code", "kbd", "samp", "script", "style", "textarea", "svg"})
_FORMULAS = {
    ("$$", "$$"): (re.compile(r"\$\$(.+?)\$\$", re.DOTALL), "display"),
    ("\\[", "\\]"): (re.compile(r"\\\[(.+?)\\\]", re.DOTALL), "display"),
    ("\\(", "\\)"): (re.compile(r"\\\((.+?)\\\)", re.DOTALL), "inline"),
    # The pandoc rule, as in markdown: no space inside the dollars, no digit after the closing one.
    ("$", "$"): (re.compile(r"(?<![\\$])\$(?=[^\s$])((?:\\.|[^$\\])+?)(?<=\S)\$(?![\d$])"), "inline"),
}


def _mark(text: str, markup: MarkupConfig) -> str:
    """Formulas in one piece of HTML text as math spans."""
    for delimiters in (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")):
        if delimiters not in markup.inline_math + markup.block_math:
            continue
        pattern, kind = _FORMULAS[delimiters]
        text = pattern.sub(functools.partial(_span, kind=kind), text)
    return text


def _span(match: re.Match[str], *, kind: str) -> str:
    return f'<span class="math {kind}">{escapeHtml(html.unescape(match.group(1)))}</span>'


def mark_math_in_html(fragment: str, markup: MarkupConfig) -> str:
    """fragment with the formulas in its text (not in code, scripts or tags) made math spans."""
    if "$" not in fragment and "\\(" not in fragment and "\\[" not in fragment:
        return fragment
    pieces: list[str] = []
    skipping: list[str] = []
    for match in _PIECES.finditer(fragment):
        piece = match.group(0)
        name_match = _TAG_NAME.match(piece) if piece.startswith("<") and len(piece) > 1 else None
        if name_match is not None:
            name = name_match.group(1).lower()
            closing = piece.startswith("</")
            if closing and skipping and skipping[-1] == name:
                skipping.pop()
            elif not closing and not piece.endswith("/>") and (name in _NOT_MATH or 'class="math' in piece):
                skipping.append(name)
            pieces.append(piece)
        elif piece.startswith("<!--") or skipping:
            pieces.append(piece)
        else:
            pieces.append(_mark(piece, markup))
    return "".join(pieces)


def math_in_html_blocks(state: StateCore) -> None:
    """Mark the formulas inside raw HTML blocks (after the raw-HTML check has balanced them)."""
    markup = state.md.options.get("markup")
    settings = markup if isinstance(markup, MarkupConfig) else MarkupConfig()
    for token in state.tokens:
        if token.type == "html_block":
            token.content = mark_math_in_html(token.content, settings)
