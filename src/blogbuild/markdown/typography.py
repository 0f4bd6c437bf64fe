"""Hugo's typographer: dashes, ellipses, guillemets (markdown-it's smart quotes do the quotes)."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.rules_core.smartquotes import process_inlines
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

# Goldmark's typographer, left to right: three hyphens are an em dash, two an en dash, three dots an
# ellipsis, << and >> guillemets. markdown-it's own replacements also make (c), +- and ?.... into
# symbols, which Hugo does not, so this rule takes its place.
_REPLACEMENTS = re.compile(r"---|--|\.\.\.|<<|>>")
_REPLACED = {"---": "\u2014", "--": "\u2013", "...": "\u2026", "<<": "\u00ab", ">>": "\u00bb"}


def hugo_replacements(state: StateCore) -> None:
    """Replace dashes, dots and guillemets in text (never in code, math, raw HTML or an autolink's text)."""
    if not state.md.options.get("typographer"):
        return
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        inside_autolink = 0
        for child in token.children:
            if child.type == "link_open" and child.info == "auto":
                inside_autolink += 1
            elif child.type == "link_close" and inside_autolink:
                inside_autolink -= 1
            elif child.type == "text" and not inside_autolink and _REPLACEMENTS.search(child.content):
                _replace_marked(child)


# The key of a text token's meta that holds where the typographer wrote a character (offsets in its content):
# goldmark writes those as entities (&rsquo;), a character typed as it is stays one.
TYPOGRAPHER_MARKS = "typographer"
_ENTITIES = {"\u2018": "&lsquo;", "\u2019": "&rsquo;", "\u201c": "&ldquo;", "\u201d": "&rdquo;",
             "\u2013": "&ndash;", "\u2014": "&mdash;", "\u2026": "&hellip;", "\u00ab": "&laquo;",
             "\u00bb": "&raquo;"}


def _replace_marked(token: Token) -> None:
    """The replacements in one text token, each one's place noted in its meta."""
    out: list[str] = []
    marks = token.meta.get(TYPOGRAPHER_MARKS) or []
    length = start = 0
    for match in _REPLACEMENTS.finditer(token.content):
        out.append(token.content[start:match.start()])
        length += match.start() - start
        marks.append(length)
        out.append(_REPLACED[match.group(0)])
        length += 1
        start = match.end()
    out.append(token.content[start:])
    token.content = "".join(out)
    token.meta[TYPOGRAPHER_MARKS] = marks


def marked_smartquotes(rule: Callable[[StateCore], None]) -> Callable[[StateCore], None]:
    """markdown-it's smart quotes, noting in each text token's meta where it put a quote (it replaces a ' or "
    in place: the offsets of the characters it changed)."""

    def smartquotes(state: StateCore) -> None:
        before = [(child, child.content) for token in state.tokens if token.type == "inline" and token.children
                  for child in token.children if child.type == "text" and ("'" in child.content or '"' in child.content)]
        rule(state)
        for child, content in before:
            if child.content != content and len(child.content) == len(content):
                changed = [index for index, (old, new) in enumerate(zip(content, child.content, strict=True))
                           if old != new]
                child.meta[TYPOGRAPHER_MARKS] = sorted({*(child.meta.get(TYPOGRAPHER_MARKS) or ()), *changed})

    return smartquotes


def marked_text_join(rule: Callable[[StateCore], None]) -> Callable[[StateCore], None]:
    """markdown-it's text_join (adjacent text tokens become the first one), the typographer's marks moved with
    the text into the token that holds it."""

    def text_join(state: StateCore) -> None:
        for token in state.tokens:
            if token.type == "inline" and token.children:
                _join_marks(token.children)
        rule(state)

    return text_join


def _join_marks(children: list[Token]) -> None:
    first: Token | None = None
    offset = 0
    for child in children:
        if child.type not in ("text", "text_special"):
            first = None
            continue
        if first is None:
            first, offset = child, len(child.content)
            continue
        marks = child.meta.pop(TYPOGRAPHER_MARKS, None)
        if marks:
            first.meta[TYPOGRAPHER_MARKS] = [*(first.meta.get(TYPOGRAPHER_MARKS) or ()),
                                             *(offset + mark for mark in marks)]
        offset += len(child.content)


def render_text(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    """A text token as goldmark writes it: what the typographer wrote as its entity (&rsquo;), the rest
    escaped."""
    token = tokens[index]
    marks = token.meta.get(TYPOGRAPHER_MARKS)
    if not marks:
        return escapeHtml(token.content)
    out: list[str] = []
    start = 0
    content = token.content
    for mark in sorted(set(marks)):
        if mark < start or mark >= len(content) or content[mark] not in _ENTITIES:
            continue
        out.append(escapeHtml(content[start:mark]))
        out.append(_ENTITIES[content[mark]])
        start = mark + 1
    out.append(escapeHtml(content[start:]))
    return "".join(out)


def image_typography(state: StateCore) -> None:
    """An image's alt text gets the typographer too, as goldmark's does (markdown-it's quotes and replacements
    reach only the text of a paragraph's own level): "L'image" is "L’image" there as in the paragraph."""
    if not state.md.options.get("typographer"):
        return
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        for child in token.children:
            if child.type != "image" or not child.children:
                continue
            for text in child.children:
                if text.type == "text" and _REPLACEMENTS.search(text.content):
                    text.content = _REPLACEMENTS.sub(lambda match: _REPLACED[match.group(0)], text.content)
            if any(text.type == "text" and ("'" in text.content or '"' in text.content) for text in child.children):
                process_inlines(child.children, state)


def guillemet_before_html(state: StateInline, silent: bool) -> bool:
    """'<<' is the typographer's guillemet, as in goldmark: neither an autolink nor a raw HTML tag starts there."""
    if not state.src.startswith("<<", state.pos):
        return False
    if not silent:
        state.pending += "<<"
    state.pos += 2
    return True
