"""Hugo's typographer: dashes, ellipses, guillemets (markdown-it's smart quotes do the quotes)."""
from __future__ import annotations

import re

from markdown_it.rules_core import StateCore
from markdown_it.rules_core.smartquotes import process_inlines
from markdown_it.rules_inline import StateInline

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
                child.content = _REPLACEMENTS.sub(lambda match: _REPLACED[match.group(0)], child.content)


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
