"""Headings: unique GitHub-style ids, a permalink anchor after the text, and the table of contents."""
from __future__ import annotations

import re
import unicodedata

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ..config.markup import MarkupConfig
from ..core.model import TocEntry
from .emoji import emoji_html
from .environment import RenderEnvironment, environment_of
from .heading_ids import UNTYPED, HeadingText, anchor_name, unique_id

_DEFAULT_MARKUP = MarkupConfig()

_SLUG_DROP = re.compile(r"[^\w\- ]")


def slugify_heading(text: str) -> str:
    """GitHub's heading id: lowercase, punctuation dropped except - and _, spaces to -; CJK kept."""
    slug = _SLUG_DROP.sub("", unicodedata.normalize("NFC", text).strip().lower()).replace(" ", "-")
    return slug or "section"


def _heading_texts(children: list[Token], code: bool = False) -> tuple[str, str, str]:
    """(text for the id, text for the TOC, the TOC's text as HTML when the heading holds math, or code or emoji
    when code is true (Hugo's TOC keeps a heading's code and emoji), else '') of a heading's inline children;
    math as TeX, and in the HTML as the math elements the typesetter finds; an emoji as its characters."""
    for_id: list[str] = []
    for_toc: list[str] = []
    for_html: list[str] = []
    has_math = has_code = False
    for child in children:
        if child.type in ("text", "code_inline"):
            for_id.append(child.content)
            for_toc.append(child.content)
            if child.type == "code_inline" and code:
                has_code = True
                for_html.append(f"<code>{escapeHtml(child.content)}</code>")
            else:
                for_html.append(escapeHtml(child.content))
        elif child.type in ("math_inline", "math_display_inline"):
            has_math = True
            inline = child.type == "math_inline"
            for_id.append(child.content)
            for_toc.append(f"\\({child.content}\\)" if inline else f"\\[{child.content}\\]")
            kind = "inline" if inline else "display"
            for_html.append(f'<span class="math {kind}">{escapeHtml(child.content)}</span>')
        elif child.type == "emoji":
            for_toc.append(child.content)
            if code:   # a Hugo site's TOC writes the emoji as its heading does
                has_code = True
                for_html.append(emoji_html(child, entities=True))
            else:
                for_html.append(escapeHtml(child.content))
        elif child.type in ("softbreak", "hardbreak"):
            for_id.append(" ")
            for_toc.append(" ")
            for_html.append(" ")
        elif child.type == "image":
            alt = "".join(grandchild.content for grandchild in child.children or ())
            for_id.append(alt)
            for_toc.append(alt)
            for_html.append(escapeHtml(alt))
    html = " ".join("".join(for_html).split()) if has_math or has_code else ""
    return "".join(for_id), " ".join("".join(for_toc).split()), html


def _markup(state: StateCore) -> MarkupConfig:
    markup = state.md.options.get("markup")
    return markup if isinstance(markup, MarkupConfig) else _DEFAULT_MARKUP


def remember_untyped_texts(state: StateCore) -> None:
    """Note each heading text's content before the typographer runs: what it changes is a node in goldmark."""
    markup = _markup(state)
    if markup.heading_id_type == "blogbuild" or not markup.typographer:
        return
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            for child in tokens[index + 1].children or ():
                if child.type == "text":
                    child.meta[UNTYPED] = child.content


def remember_heading_texts(state: StateCore) -> None:
    """Note the text Hugo would make each heading's id from (before text_join merges escapes away)."""
    markup = _markup(state)
    if markup.heading_id_type == "blogbuild":
        return
    reader = HeadingText(typographer=markup.typographer, passthrough=markup.passthrough,
                         goldmark_math=markup.goldmark_math)
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            token.meta["id_text"] = reader.of(tokens[index + 1].children or [])


def _blogbuild_id(id_text: str, environment: RenderEnvironment) -> str:
    """blogbuild's own id: GitHub's rules, 'section' for no text, -1, -2 ... for repeats."""
    base = slugify_heading(id_text)
    slug = base
    # Remember the last number tried per base, so that many equal headings stay linear.
    number = environment.next_number.get(base, 0)
    while slug in environment.used_ids:
        number += 1
        slug = f"{base}-{number}"
    environment.next_number[base] = number
    environment.used_ids.add(slug)
    return slug


def _hugo_id(token: Token, markup: MarkupConfig, environment: RenderEnvironment) -> str:
    """Hugo's id: '' (no id) for a heading without text, 'heading' when no character is kept."""
    id_text = str(token.meta.get("id_text", ""))
    if environment.placeholder is not None:
        id_text = environment.placeholder.sub("", id_text)
    if not id_text.strip(" \t"):
        return ""
    return unique_id(anchor_name(id_text, markup.heading_id_type) or "heading", environment.used_ids)


def heading_ids(state: StateCore) -> None:
    """Give every heading a unique id (blogbuild's or Hugo's style) and an anchor link; collect the TOC."""
    environment = environment_of(state.env)
    markup = _markup(state)
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[index + 1]
        children = inline.children or []
        id_text, toc_text, toc_html = _heading_texts(children, code=markup.render_hooks)
        explicit = token.attrGet("id")
        if explicit is not None:
            # Written as {#id}: taken as it is, as Hugo does, even when an earlier heading has it.
            slug = str(explicit)
            environment.used_ids.add(slug)
        elif not markup.heading_ids:
            slug = ""
        elif markup.heading_id_type == "blogbuild":
            if environment.placeholder is not None:
                # A shortcode in a heading does not belong in its id.
                id_text = " ".join(environment.placeholder.sub(" ", id_text).split())
            slug = _blogbuild_id(id_text, environment)
        else:
            slug = _hugo_id(token, markup, environment)
        if not slug:
            continue
        token.attrSet("id", slug)
        level = int(token.tag[1])
        # A Hugo site's own layouts: every heading (its .TableOfContents is a tree from h1 cut at its levels).
        if markup.render_hooks or markup.toc_start_level <= level <= markup.toc_end_level:
            environment.toc.append(TocEntry(level=level, id=slug, text=toc_text, html=toc_html))
        # After the text, so that the heading's text (and a screen reader) starts with
        # the words; labelled, because "#" alone says nothing.
        if markup.heading_anchors:
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
