"""Headings: unique GitHub-style ids, a permalink anchor after the text, and the table of contents."""
from __future__ import annotations

import re
import unicodedata

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ..model import TocEntry
from .environment import environment_of

_SLUG_DROP = re.compile(r"[^\w\- ]")


def slugify_heading(text: str) -> str:
    """GitHub's heading id: lowercase, punctuation dropped except - and _, spaces to -; CJK kept."""
    slug = _SLUG_DROP.sub("", unicodedata.normalize("NFC", text).strip().lower()).replace(" ", "-")
    return slug or "section"


def _heading_texts(children: list[Token]) -> tuple[str, str]:
    """(text for the id, text for the TOC) of a heading's inline children; math as TeX."""
    for_id: list[str] = []
    for_toc: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline"):
            for_id.append(child.content)
            for_toc.append(child.content)
        elif child.type == "math_inline":
            for_id.append(child.content)
            for_toc.append(f"\\({child.content}\\)")
        elif child.type == "math_display_inline":
            for_id.append(child.content)
            for_toc.append(f"\\[{child.content}\\]")
        elif child.type in ("softbreak", "hardbreak"):
            for_id.append(" ")
            for_toc.append(" ")
        elif child.type == "image":
            alt = "".join(grandchild.content for grandchild in child.children or ())
            for_id.append(alt)
            for_toc.append(alt)
    return "".join(for_id), " ".join("".join(for_toc).split())



def heading_ids(state: StateCore) -> None:
    """Give every heading a unique GitHub-style id and an anchor link; collect the TOC."""
    environment = environment_of(state.env)
    used = environment.used_ids
    next_number = environment.next_number
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[index + 1]
        children = inline.children or []
        id_text, toc_text = _heading_texts(children)
        placeholder = environment.placeholder
        if placeholder is not None:
            # A shortcode in a heading does not belong in its id.
            id_text = " ".join(placeholder.sub(" ", id_text).split())
        base = slugify_heading(id_text)
        slug = base
        # Remember the last number tried per base, so that many equal headings stay linear.
        number = next_number.get(base, 0)
        while slug in used:
            number += 1
            slug = f"{base}-{number}"
        next_number[base] = number
        used.add(slug)
        token.attrSet("id", slug)
        environment.toc.append(TocEntry(level=int(token.tag[1]), id=slug, text=toc_text))
        # After the text, so that the heading's text (and a screen reader) starts with
        # the words; labelled, because "#" alone says nothing.
        children.extend(_anchor_tokens(slug))
        inline.children = children


def _anchor_tokens(slug: str) -> list[Token]:
    """' <a class="anchor" href="#slug" aria-label="Permalink">#</a>' as tokens (markdown's own
    markup, not raw HTML: the raw HTML check and the text measures need not read it)."""
    link = Token("link_open", "a", 1)
    link.attrSet("class", "anchor")
    link.attrSet("href", f"#{slug}")
    link.attrSet("aria-label", "Permalink")
    return [Token("text", "", 0, content=" "), link, Token("text", "", 0, content="#"), Token("link_close", "a", -1)]
