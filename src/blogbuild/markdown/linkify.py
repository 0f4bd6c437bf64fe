"""Goldmark's linkify (what Hugo links): scheme URLs, www. hosts and e-mail addresses, never a bare name.tld.

markdown-it's linkify (linkify-it) also links any name ending in a country domain, so that SKILL.md,
train.py and deeplearning.ai became links to http://SKILL.md and so on. Goldmark's rule, which this
module follows, is narrower: a link starts only at the start of a line, right after another inline
node, or after a space or one of `*_~(`; and it is an http, https or ftp URL whose host has a dot, a
www. host, or an e-mail address (goldmark's extension/linkify.go, as Hugo 0.168 runs it).
"""
from __future__ import annotations

import re
from typing import Callable

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
# Inline tokens after which the text does not start a new goldmark node: an escape or an entity is
# part of goldmark's text, and so is math when Hugo's passthrough is off.
_NOT_A_NODE = frozenset({"text_special"})
_MATH = frozenset({"math_inline", "math_display_inline"})


def _trim_url(text: str, end: int) -> int:
    """goldmark's corrections of a URL's end: a final dot, unbalanced ')', a final entity."""
    last = text[end - 1]
    if last == ".":
        return end - 1
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
        end, kind = email_end, "email"
    while end > 1 and text[end - 1] in _TRAILING:
        end -= 1
    return (end, kind) if end > 0 else None


def _link_tokens(text: str, kind: str, protocol: str, level: int) -> list[Token]:
    """link_open, text, link_close of one link, marked as markdown-it marks its linkify links."""
    href = {"www": f"{protocol}://{text}", "email": f"mailto:{text}"}.get(kind, text)
    opening = Token("link_open", "a", 1, markup="linkify", info="auto", level=level)
    opening.attrSet("href", href)
    label = Token("text", "", 0, content=text, level=level + 1)
    closing = Token("link_close", "a", -1, markup="linkify", info="auto", level=level)
    return [opening, label, closing]


def _split(token: Token, at_head: bool, protocol: str) -> list[Token] | None:
    """token (a text) as text and link tokens, or None when it holds no link."""
    text = token.content
    pieces: list[Token] = []
    start = 0
    position = 0
    head = at_head
    while position < len(text):
        if head or text[position - 1] in _TRIGGERS:
            found = link_at(text[position:])
            if found is not None:
                length, kind = found
                if position > start:
                    pieces.append(Token("text", "", 0, content=text[start:position], level=token.level))
                pieces.extend(_link_tokens(text[position:position + length], kind, protocol, token.level))
                position = start = position + length
                head = True   # goldmark starts again after a node, as at a line's start
                continue
        head = False
        position += 1
    if not pieces:
        return None
    if start < len(text):
        pieces.append(Token("text", "", 0, content=text[start:], level=token.level))
    return pieces


def goldmark_linkify(protocol: str, passthrough: bool) -> Callable[[StateCore], None]:
    """The core rule (markdown-it's linkify's place) linking what goldmark links; www. hosts get protocol."""
    not_a_node = _NOT_A_NODE if passthrough else _NOT_A_NODE | _MATH

    def rule(state: StateCore) -> None:
        for block in state.tokens:
            if block.type != "inline" or not block.children or _MAY_HOLD_LINK.search(block.content) is None:
                continue
            children: list[Token] = []
            inside_link = 0
            for index, child in enumerate(block.children):
                if child.type == "link_open":
                    inside_link += 1
                elif child.type == "link_close":
                    inside_link -= 1
                elif child.type == "text" and not inside_link and _MAY_HOLD_LINK.search(child.content):
                    previous = block.children[index - 1] if index else None
                    at_head = previous is None or previous.type not in not_a_node
                    if previous is not None and previous.type == "text":
                        at_head = previous.content[-1:] in _TRIGGERS
                    split = _split(child, at_head, protocol)
                    if split is not None:
                        children.extend(split)
                        continue
                children.append(child)
            block.children = children

    return rule
