"""Goldmark's linkify (what Hugo links): scheme URLs, www. hosts and e-mail addresses, never a bare name.tld.

markdown-it's linkify (linkify-it) also links any name ending in a country domain, so that SKILL.md,
train.py and deeplearning.ai became links to http://SKILL.md and so on. Goldmark's rule, which this
module follows, is narrower: a link starts only at the start of a line, right after another inline
node, or after a space or one of `*_~(`; and it is an http, https or ftp URL whose host has a dot, a
www. host, or an e-mail address (goldmark's extension/linkify.go, as Hugo 0.168 runs it).
"""
from __future__ import annotations

import itertools
import re
import unicodedata
from typing import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

# goldmark's urlRegexp and wwwURLRegxp: the host has a dot and ends in lowercase letters.
_URL = re.compile(r"(?:http|https|ftp)://[-a-zA-Z0-9@:%._+~#=]{1,256}\.[a-z]+(?::\d+)?"
                  r"(?:[/#?][-a-zA-Z0-9@:%_+.~#$!?&/=();,'\">^{}\[\]`]*)?")
_WWW = re.compile(r"www\.[-a-zA-Z0-9@:%._+~#=]{1,256}\.[a-z]+"
                  r"(?:[/#?][-a-zA-Z0-9@:%_+.~#!?&/=();,'\">^{}\[\]`]*)?")
# goldmark's findEmailIndex: RFC 5322's atext (and dots) before the '@', then a host of labels.
_EMAIL = re.compile(r"[-!#$%&'*+/=?^_`{|}~.a-zA-Z0-9]+@"
                    r"[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*")
# The characters after which a link may start (goldmark's triggers; ' ' stands for any ASCII space).
_TRIGGERS = frozenset(" \t\n\v\f\r*_~(")
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# Trailing characters goldmark leaves out of a link.
_TRAILING = "?!.,:*_~"
# Text that holds none of these holds no link: the cheap test every text token passes first.
_MAY_HOLD_LINK = re.compile(r"://|www\.|@")
# Inline tokens after which the text does not start a new goldmark node: math is goldmark's text when
# Hugo's passthrough is off. (Escapes and entities are text too: they join the text around them.)
_NOT_A_NODE: frozenset[str] = frozenset()
_MATH = frozenset({"math_inline", "math_display_inline"})


def _trim_url(text: str, end: int) -> int:
    """goldmark's corrections of a URL's end: its final ?!.,:*_~ left out, then (once) as many final ')' as are
    unbalanced, or a final entity: '(https://x.org/a).' links https://x.org/a, '(https://x.org/a.)' https://x.org/a.
    (tests/test_hugo_accept.py checks a table of ends against Hugo)."""
    end = _without_trailing(text, end)
    last = text[end - 1]
    if last == ")":
        closing = text[:end].count(")") - text[:end].count("(")
        return end - closing if closing > 0 else end
    if last == ";":
        index = end - 2
        while index >= 0 and text[index].isascii() and text[index].isalnum():
            index -= 1
        if index != end - 2 and index >= 0 and text[index] == "&":
            return index
    return end


def _email_end(text: str) -> int | None:
    """Where an e-mail address at the start of text ends, or None when there is none."""
    if not text or text[0] in _ASCII_PUNCTUATION:
        return None
    match = _EMAIL.match(text)
    if match is None:
        return None
    end = match.end()
    if "." not in text[text.index("@"):end - 1]:
        return None
    if end < len(text) and text[end] in "-_":
        return None
    return end


def link_at(text: str) -> tuple[int, str] | None:
    """(length, kind) of the link goldmark sees at the start of text ('url', 'www' or 'email'), or None."""
    kind = "url"
    match = _URL.match(text) if text.startswith(("http:", "https:", "ftp:")) else None
    if match is None and text.startswith("www."):
        match = _WWW.match(text)
        kind = "www"
    if match is not None:
        end = _trim_url(text, match.end())
    else:
        email_end = _email_end(text)
        if email_end is None:
            return None
        end, kind = _without_trailing(text, email_end), "email"
    return (end, kind) if end > 0 else None


def _without_trailing(text: str, end: int) -> int:
    while end > 1 and text[end - 1] in _TRAILING:
        end -= 1
    return end


def _link_tokens(label: str, kind: str, protocol: str, md: MarkdownIt, level: int) -> list[Token]:
    """link_open, label, link_close of one link, marked as markdown-it marks its linkify links."""
    href = {"www": f"{protocol}://{label}", "email": f"mailto:{label}"}.get(kind, label)
    opening = Token("link_open", "a", 1, markup="linkify", info="auto", level=level)
    opening.attrSet("href", md.normalizeLink(href))
    # The label is the source as written: a text_special, which the typographer's quotes leave alone.
    text = Token("text_special", "", 0, content=label, markup=label, info="linkify", level=level + 1)
    closing = Token("link_close", "a", -1, markup="linkify", info="auto", level=level)
    return [opening, text, closing]


def _after_typographer_node(text: str, position: int) -> bool:
    """Whether text[:position] ends in what goldmark's typographer makes a node of (a link may follow)."""
    before = text[position - 1]
    if before == "'" or text.endswith(("--", "...", "<<", ">>"), 0, position):
        return True
    # A double quote between two words is left as it is (it could open and close).
    return before == '"' and (position < 2 or text[position - 2].isspace()
                              or unicodedata.category(text[position - 2])[0] in "PS")


def _source(token: Token) -> str:
    """What a text, text_special or emoji token was in the source (an escape, an entity or `:name:` as written)."""
    if token.type == "emoji":
        return f":{token.markup}:"
    return token.markup if token.type == "text_special" else token.content


def _link_spans(source: str, special: list[bool], at_head: bool, typographer: bool,
                node_ends: frozenset[int] = frozenset()) -> list[tuple[int, int, str]]:
    """(start, end, kind) of each link goldmark finds in source; special marks escapes' and entities' characters,
    node_ends the positions right after an emoji (a node, after which a link may start)."""
    spans: list[tuple[int, int, str]] = []
    position = 0
    head = at_head
    while position < len(source):
        starts = head or position in node_ends or (not special[position - 1] and (
            source[position - 1] in _TRIGGERS or (typographer and _after_typographer_node(source, position))))
        found = link_at(source[position:]) if starts and not special[position] else None
        if found is not None and not (position + found[0] < len(source) and special[position + found[0]]
                                      and special[position + found[0] - 1]):
            spans.append((position, position + found[0], found[1]))
            position += found[0]
            head = True   # goldmark starts again after a node, as at a line's start
            continue
        head = False
        position += 1
    return spans


def _linkified(run: list[Token], at_head: bool, typographer: bool, protocol: str, md: MarkdownIt) -> list[Token]:
    """A run of text, text_special and emoji tokens with goldmark's links made into link tokens.

    goldmark's linkify reads a link's text from the source, so an emoji name inside a link is the link's text
    (and a name the link's end cuts is text); a link may start right after an emoji."""
    pieces = [_source(token) for token in run]
    source = "".join(pieces)
    if _MAY_HOLD_LINK.search(source) is None:
        return run
    special = [token.type == "text_special" for token, piece in zip(run, pieces, strict=True) for _ in piece]
    ends = itertools.accumulate(len(piece) for piece in pieces)
    node_ends = frozenset(end for token, end in zip(run, ends, strict=True) if token.type == "emoji")
    spans = _link_spans(source, special, at_head, typographer, node_ends)
    if not spans:
        return run
    result: list[Token] = []
    offset = 0
    for token, piece in zip(run, pieces, strict=True):
        start, end = offset, offset + len(piece)
        offset = end
        covering = [(first, last, kind) for first, last, kind in spans if first < end and start < last]
        if token.type == "text_special" or (token.type == "emoji" and not covering):
            if not covering:
                result.append(token)
            continue
        cursor = start
        for first, last, kind in covering:
            if first >= start:
                if first > cursor:
                    result.append(Token("text", "", 0, content=source[cursor:first], level=token.level))
                result.extend(_link_tokens(source[first:last], kind, protocol, md, token.level))
            cursor = min(last, end)
        if cursor < end:
            result.append(Token("text", "", 0, content=source[cursor:end], level=token.level))
    return result


def goldmark_linkify(protocol: str, passthrough: bool, typographer: bool) -> Callable[[StateCore], None]:
    """The core rule (markdown-it's linkify's place) linking what goldmark links; www. hosts get protocol."""
    not_a_node = _NOT_A_NODE if passthrough else _NOT_A_NODE | _MATH

    def rule(state: StateCore) -> None:
        for block in state.tokens:
            if block.type != "inline" or not block.children or _MAY_HOLD_LINK.search(block.content) is None:
                continue
            children: list[Token] = []
            run: list[Token] = []
            at_head = True
            inside_link = 0
            for child in block.children:
                if child.type in ("text", "text_special", "emoji") and not inside_link:
                    run.append(child)
                    continue
                if run:
                    children.extend(_linkified(run, at_head, typographer, protocol, state.md))
                    run = []
                inside_link += {"link_open": 1, "link_close": -1}.get(child.type, 0)
                at_head = child.type not in not_a_node
                children.append(child)
            if run:
                children.extend(_linkified(run, at_head, typographer, protocol, state.md))
            block.children = children

    return rule
