"""Hugo's heading ids (github, github-ascii, blackfriday), reproduced from Hugo 0.168's output, quirks included.

Links into a Hugo site's sections use these ids, so a site moving from Hugo keeps them only if every
id is the one Hugo gives. Two parts: which text Hugo makes the id from (goldmark's inline nodes), and
how that text becomes an id. tests/test_heading_ids.py checks both against the real hugo binary.
"""
from __future__ import annotations

import unicodedata
from typing import Sequence

from markdown_it.token import Token

from .tokens import closing_index

# Characters that end goldmark's first text node inside a container when they are an unmatched
# delimiter run: the run is merged into that node, and the text after it starts a new node.
_DELIMITERS = "_*~"
# Characters that start a node of their own (a code span, a link label): the text node ends before.
_NODE_STARTS = "`["
# The meta key of a text token's content before the typographer: where the typographer changed it
# (quotes, dashes, ellipses), goldmark has a node of its own; a curly quote written as such is text.
UNTYPED = "untyped"


def anchor_name(text: str, id_type: str) -> str:
    """The id Hugo makes of a heading's text with autoHeadingIDType id_type; '' for no id."""
    text = text.strip(" \t")
    if id_type == "blackfriday":
        return _blackfriday(text)
    ascii_only = id_type == "github-ascii"
    if ascii_only:
        # Hugo's text.RemoveAccents: decompose, drop the combining marks, compose again.
        decomposed = unicodedata.normalize("NFD", text)
        text = unicodedata.normalize("NFC", "".join(c for c in decomposed if unicodedata.category(c) != "Mn"))
    characters = []
    for character in text:
        if ascii_only and ord(character) > 0x7F:
            continue
        if character in "- ":
            characters.append("-")
        elif character == "_" or _is_letter(character) or unicodedata.category(character) == "Nd":
            characters.append(_lower(character))
        # Everything else is dropped: punctuation, symbols, marks, and (as Hugo 0.168 does) tabs.
    return "".join(characters)


def _is_letter(character: str) -> bool:
    """Go's unicode.IsLetter: the L categories (so CJK is kept, superscript digits are not)."""
    return unicodedata.category(character).startswith("L")


def _lower(character: str) -> str:
    """Go's unicode.ToLower, one character to one character ('İ' becomes 'i', not 'i̇')."""
    lowered = character.lower()
    return lowered if len(lowered) == 1 else lowered[0]


def _blackfriday(text: str) -> str:
    """Blackfriday's SanitizedAnchorName: letters and numbers, lowercased; any other run is one '-'."""
    characters: list[str] = []
    dash = False
    for character in text:
        category = unicodedata.category(character)
        if category.startswith("L") or category.startswith("N"):
            if dash and characters:
                characters.append("-")
            dash = False
            characters.append(_lower(character))
        else:
            dash = True
    return "".join(characters)


def unique_id(base: str, used: set[str]) -> str:
    """base, or base-1, base-2 ... : the first one not used yet (Hugo's rule), recorded as used."""
    candidate = base
    number = 0
    while candidate in used:
        number += 1
        candidate = f"{base}-{number}"
    used.add(candidate)
    return candidate


class HeadingText:
    """The text Hugo 0.168 makes a heading's id from, read off markdown-it's inline tokens.

    Goldmark gives a heading's inline nodes to the id generator, and an inline container (emphasis,
    a link, an image, strikethrough) contributes only the text of its first child node. Goldmark's
    text nodes end at a delimiter that did not pair (merged into the node before) and before a
    node of another kind, so '**a_b c**' gives 'a_' and '[l_k](u)' gives 'l_'. Autolinks, raw HTML
    tags and footnote references contribute nothing; math contributes nothing when Hugo's
    passthrough extension holds it (its delimiter is one passthrough names), and its text otherwise.
    Must run before markdown-it's text_join, while escapes are still tokens of their own.
    """

    def __init__(self, *, typographer: bool, passthrough: bool, goldmark_math: tuple[str, ...] = ()) -> None:
        self.typographer = typographer
        self.passthrough = passthrough
        self.goldmark_math = goldmark_math   # the openings passthrough does not hold

    def _passed_through(self, token: Token) -> bool:
        return self.passthrough and token.markup not in self.goldmark_math

    def of(self, children: Sequence[Token]) -> str:
        """The whole heading's text: every top-level node in full."""
        parts: list[str] = []
        index = 0
        while index < len(children):
            token = children[index]
            if token.nesting == 1:
                close = closing_index(children, index)
                parts.append(self._container(token, children[index + 1:close]))
                index = close + 1
                continue
            parts.append(self._leaf(token))
            index += 1
        return "".join(parts)

    def _leaf(self, token: Token) -> str:
        kind = token.type
        if kind in ("text", "text_special", "code_inline"):
            return token.content
        if kind in ("math_inline", "math_display_inline"):
            return "" if self._passed_through(token) else f"{token.markup}{token.content}{_closing(token.markup)}"
        if kind == "image":
            return self._first(token.children or [])
        if kind == "emoji":
            return token.markup
        if kind in ("softbreak", "hardbreak"):
            return " "
        return ""   # raw HTML, footnote references, anything without text of its own

    def _container(self, opening: Token, inner: Sequence[Token]) -> str:
        if opening.type == "link_open" and opening.markup in ("autolink", "linkify"):
            return ""
        return self._first(inner)

    def _first(self, inner: Sequence[Token]) -> str:
        """The text of the first goldmark node among inner tokens."""
        # markdown-it leaves empty text tokens where pending text was flushed; goldmark has no such node.
        inner = [token for token in inner if token.type != "text" or token.content]
        if not inner:
            return ""
        first = inner[0]
        if first.nesting == 1:
            return self._container(first, inner[1:closing_index(inner, 0)])
        if not self._is_text(first):
            return self._leaf(first)
        pieces: list[str] = []
        for token in inner:
            if not self._is_text(token):
                break
            text = self._leaf(token)
            if token.type == "text_special":
                pieces.append(text)   # an escaped character stays inside the text node
                continue
            cut = self._cut(text, token.meta.get(UNTYPED) if self.typographer else None, first=not pieces)
            if cut is not None:
                pieces.append(text[:cut])
                return "".join(pieces)
            pieces.append(text)
        return "".join(pieces)

    def _is_text(self, token: Token) -> bool:
        if token.type in ("text", "text_special"):
            return True
        return token.type in ("math_inline", "math_display_inline") and not self._passed_through(token)

    def _cut(self, text: str, untyped: str | None, *, first: bool) -> int | None:
        """Where goldmark's first node ends in text (after a delimiter run, before a node, before the
        typographer's first change to untyped; after that change when it is the first node), or None."""
        typed = _first_difference(text, untyped) if untyped is not None else None
        if typed == 0 and first:
            return 1   # the typographer's node (one character: a quote, a dash, an ellipsis) comes first
        for position, character in enumerate(text):
            if position == typed or character in _NODE_STARTS:
                return position
            if character in _DELIMITERS:
                end = position
                while end < len(text) and text[end] == character:
                    end += 1
                return end
        return None


def _first_difference(text: str, untyped: str) -> int | None:
    """The first position where text and untyped differ, or None when they are equal."""
    for position, (character, original) in enumerate(zip(text, untyped, strict=False)):
        if character != original:
            return position
    return None if len(text) == len(untyped) else min(len(text), len(untyped))


def _closing(markup: str) -> str:
    return {"\\(": "\\)", "\\[": "\\]"}.get(markup, markup)
