"""Hugo's typographer: dashes, ellipses, guillemets (markdown-it's smart quotes do the quotes)."""
from __future__ import annotations

import re
import unicodedata
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


# Goldmark's typographer quotes (extension/typographer.go), for a Hugo site its own layouts render: each ' and "
# decided where it stands (the characters before and after it, CommonMark's flanking rules, a count of the quotes
# its paragraph opened), apostrophes ('90s, 'twas, Alice's, Smiths') as goldmark writes them, where markdown-it's
# smart quotes pair quotes instead.
_MARKUP_STAND_IN = "*"   # what goldmark sees of inline markup next to a quote: a punctuation character


def _is_punct(character: str) -> bool:   # Go's unicode.IsPunct
    return unicodedata.category(character).startswith("P")


def _is_punct_or_symbol(character: str) -> bool:   # goldmark's util.IsPunctRune
    return unicodedata.category(character)[0] in "PS"


def _is_space(character: str) -> bool:
    return character.isspace()


def _around(children: list[Token], index: int, position: int) -> tuple[str, str]:
    """(the character before the quote at position of children[index], the rest of its line from the quote), as
    goldmark's reader sees them in the source: inline markup next to it reads as punctuation, a line break ends
    the line."""
    token = children[index]
    if position:
        before = token.content[position - 1]
    else:
        before = "\n"
        for previous in reversed(children[:index]):
            if previous.type == "text" and previous.content:
                before = previous.content[-1]
                break
            if previous.type in ("text", "text_special") and not previous.content:
                continue
            before = "\n" if previous.type in ("softbreak", "hardbreak") else _MARKUP_STAND_IN
            break
    line = token.content[position:]
    for following in children[index + 1:]:
        if len(line) > 8:
            break
        if following.type in ("softbreak", "hardbreak"):
            line += "\n"
            break
        line += following.content if following.type in ("text", "text_special") else _MARKUP_STAND_IN
    return before, line


def _flanking(line: str, before: str) -> tuple[bool, bool]:
    """(can open, can close) of the run of quotes line starts with (goldmark's parser.ScanDelimiter)."""
    run = len(line) - len(line.lstrip(line[0]))
    after = line[run] if run < len(line) else " "
    before_punct, before_space = _is_punct_or_symbol(before), _is_space(before)
    after_punct, after_space = _is_punct_or_symbol(after), _is_space(after)
    left = not after_space and (not after_punct or before_space or before_punct)
    right = not before_space and (not before_punct or after_space or after_punct)
    return left, right


def _goldmark_quote(line: str, before: str, counter: list[int]) -> str | None:
    """What goldmark writes for the quote line starts with: one of ’ ‘ “ ”, or None to leave it as it is."""
    can_open, can_close = _flanking(line, before)
    second = line[1] if len(line) > 1 else ""
    third = line[2] if len(line) > 2 else ""
    if line[0] == "'":
        if can_open and not can_close and len(line) > 3 and line[1:3].isascii() and line[1:3].isdigit() \
                and line[3] == "s":
            after = line[4] if len(line) > 4 else " "
            if _is_space(after) or _is_punct_or_symbol(after):
                return "\u2019"                                   # '90s
        if second and (_is_punct(before) or _is_space(before)) and second in "tenl":
            return "\u2019"                                       # 'twas, 'em, 'net
        if second and (unicodedata.category(before) == "Nd" or before.isalpha()) and second.isalpha():
            return "\u2019"                                       # an apostrophe between letters
        if can_open and not can_close:
            closing = (second in ("s", "m", "t", "d") and (len(line) < 3 or _ascii_punct(third)
                                                           or third in _ASCII_SPACE)) \
                or (line[1:3] in ("ve", "ll", "re") and (len(line) < 4 or _ascii_punct(line[3])
                                                         or line[3] in _ASCII_SPACE))
            if not closing:
                counter[0] += 1
            return "\u2019" if closing else "\u2018"
        if len(line) > 2 and unicodedata.category(second) != "Nd":
            return "\u2019"                                       # Smiths', doin'
        if counter[0] > 0:
            maybe = can_close and can_open and len(line) > 1 and _is_punct(second) and \
                (len(line) == 2 or _ascii_punct(third) or third in _ASCII_SPACE)
            if (can_close and not can_open) or maybe:
                counter[0] -= 1
                return "\u2019"
        return None
    if can_open and not can_close:
        counter[1] += 1
        return "\u201c"
    if counter[1] > 0:
        maybe = can_close and can_open and len(line) > 1 and _is_punct(second) and \
            (len(line) == 2 or _ascii_punct(third) or third in _ASCII_SPACE)
        if (can_close and not can_open) or maybe:
            if second == '"' and unicodedata.category(before) == "Nd":
                return None                                       # "Monitor 21""
            counter[1] -= 1
            return "\u201d"
    return None


_ASCII_SPACE = " \t\n\v\f\r"


def _ascii_punct(character: str) -> bool:
    return len(character) == 1 and character.isascii() and not character.isalnum() and not character.isspace() \
        and character.isprintable()


def goldmark_quotes(state: StateCore) -> None:
    """Replace ' and " in each paragraph's text as goldmark's typographer does, noting where it wrote one
    (TYPOGRAPHER_MARKS). Its count of the quotes opened and not yet closed runs through the whole document, as
    Hugo's goldmark keeps it: a quote a paragraph, heading, list item, quote or table cell leaves open is closed by
    the next one that can close ('a "b' then '做"减法"。' closes with ”), code is not read."""
    if not state.md.options.get("typographer"):
        return
    counter = [0, 0]   # single, double quotes opened and not yet closed, in the document
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        children = token.children
        inside_autolink = 0
        for index, child in enumerate(children):
            if child.type == "link_open" and child.info == "auto":
                inside_autolink += 1
            elif child.type == "link_close" and inside_autolink:
                inside_autolink -= 1
            if child.type != "text" or inside_autolink or ("'" not in child.content and '"' not in child.content):
                continue
            out = list(child.content)
            marks = child.meta.get(TYPOGRAPHER_MARKS) or []
            for position, character in enumerate(child.content):
                if character not in "'\"":
                    continue
                before, line = _around(children, index, position)
                replaced = _goldmark_quote(line, before, counter)
                if replaced is not None:
                    out[position] = replaced
                    marks.append(position)
            child.content = "".join(out)
            child.meta[TYPOGRAPHER_MARKS] = marks
