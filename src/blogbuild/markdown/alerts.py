"""GitHub's alerts (`> [!NOTE]` ... `> [!CAUTION]`), as GitHub and Hugo 0.132+ recognise them."""
from __future__ import annotations

import re

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from .environment import environment_of
from .tokens import closing_index

ALERT_TYPES = ("note", "tip", "important", "warning", "caution")
# The marker alone on the quote's first line; Hugo also takes a title after it (and a +/- fold sign,
# which has no meaning in a static page and is dropped).
_MARKER = re.compile(r"^\[!(" + "|".join(ALERT_TYPES) + r")\][+-]?(?:[ \t]+(.*))?$", re.IGNORECASE)


def alerts(state: StateCore) -> None:
    """Turn a quote starting with [!TYPE] into <div class="markdown-alert markdown-alert-type"> with a title
    paragraph, as GitHub renders it (between block and inline parsing, so the marker never becomes text).
    A Hugo site's hook for alerts (render-blockquote.html or -alert.html) draws them instead, from the quote
    as written (markdown/hooks.py)."""
    hooks = environment_of(state.env).hooks
    if hooks is not None and hooks.find("render-blockquote", "alert") is not None:
        return
    tokens = state.tokens
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if (token.type != "blockquote_open" or index + 2 >= len(tokens)
                or tokens[index + 1].type != "paragraph_open"):
            index += 1
            continue
        inline = tokens[index + 2]
        first, _, rest = inline.content.partition("\n")
        match = _MARKER.match(first.strip())
        if match is None:
            index += 1
            continue
        kind = match.group(1).lower()
        title = (match.group(2) or "").strip() or kind.capitalize()
        close = closing_index(tokens, index)
        token.tag = tokens[close].tag = "div"
        token.attrSet("class", f"markdown-alert markdown-alert-{kind}")
        heading = Token("html_block", "", 0, content=f'<p class="markdown-alert-title">{escapeHtml(title)}</p>\n')
        heading.map = token.map
        inline.content = rest
        if rest.strip():
            tokens.insert(index + 1, heading)
        else:
            # The marker was the whole first paragraph: the title takes its place.
            tokens[index + 1:index + 4] = [heading]
        index += 1
