"""Hugo's markdown attributes: `{.class #id key=value}` after a heading's text (title) or on the line after a block."""
from __future__ import annotations

import re
from typing import Callable

from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.attrs.parse import ParseError, parse

# An attribute list at the end of a line: "{" ... "}" with nothing after it but spaces.
_TRAILING = re.compile(r"(?:^|[ \t])(\{[^{}\n]*\})[ \t]*$")


def parse_attributes(text: str) -> dict[str, str] | None:
    """The attributes of one '{...}' (mdit-py-plugins' parser, Pandoc's syntax), or None if it is not one."""
    try:
        end, attributes = parse(text)
    except ParseError:
        return None
    return attributes if end == len(text) - 1 else None   # end is the index of the closing brace


def _apply(token: Token, attributes: dict[str, str]) -> None:
    for name, value in attributes.items():
        if name == "class" and token.attrGet("class"):
            value = f"{token.attrGet('class')} {value}"
        token.attrSet(name, value)


def _title_attributes(tokens: list[Token]) -> None:
    """'## Title {#id .class}': the attributes go to the heading, the text loses them."""
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[index + 1]
        match = _TRAILING.search(inline.content)
        if match is None:
            continue
        attributes = parse_attributes(match.group(1))
        if attributes is None:
            continue
        inline.content = inline.content[:match.start()].rstrip(" \t")
        _apply(token, attributes)


def _container_of(tokens: list[Token], index: int) -> int | None:
    """The index of the outermost open container (quote or list) around tokens[index], or None."""
    depth = 0
    outermost = None
    for position in range(index - 1, -1, -1):
        token = tokens[position]
        depth -= token.nesting
        if depth < 0 and token.type in ("blockquote_open", "bullet_list_open", "ordered_list_open"):
            outermost = position
            depth = 0
        elif depth < 0:
            depth = 0
    return outermost


def _block_attributes(tokens: list[Token], lines: list[str]) -> list[Token]:
    """A paragraph's last line '{.note #id}' gives the paragraph those attributes; when that line is a
    lazy continuation of a quote or a list (written at the left margin), the quote or list gets them."""
    removed: set[int] = set()
    for index, token in enumerate(tokens):
        if token.type != "paragraph_open" or token.map is None:
            continue
        inline = tokens[index + 1]
        content_lines = inline.content.split("\n")
        attributes = parse_attributes(content_lines[-1].strip())
        if attributes is None or not content_lines[-1].strip().startswith("{"):
            continue
        last_line = token.map[1] - 1
        raw = lines[last_line] if 0 <= last_line < len(lines) else ""
        container = _container_of(tokens, index) if raw.startswith("{") else None
        if len(content_lines) == 1 and container is None:
            # A line of only '{...}': it belongs to the block just above (a heading, a table), and to
            # nothing after a blank line; either way it is not shown, as in Hugo.
            above = _block_above(tokens, index)
            if above is not None and above.map is not None and above.map[1] == token.map[0]:
                _apply(above, attributes)
            removed.update((index, index + 1, index + 2))
            continue
        inline.content = "\n".join(content_lines[:-1])
        _apply(tokens[container] if container is not None else token, attributes)
    return [token for position, token in enumerate(tokens) if position not in removed]


def _block_above(tokens: list[Token], index: int) -> Token | None:
    """The opening token of the block just before tokens[index] at the same level, or None."""
    if index == 0:
        return None
    previous = tokens[index - 1]
    if previous.nesting == 0:
        return previous if previous.level == tokens[index].level and previous.block else None
    if previous.nesting != -1:
        return None
    depth = 0
    for position in range(index - 1, -1, -1):
        depth += tokens[position].nesting
        if depth == 0:
            return tokens[position]
    return None


def _table_attributes(tokens: list[Token], lines: list[str]) -> list[Token]:
    """A table's last line '{.class}' (no pipe) is read by markdown-it as one more row; in Hugo it is
    the table's attributes."""
    result: list[Token] = []
    for token in tokens:
        result.append(token)
        if token.type != "table_close":
            continue
        row_start = max((position for position, item in enumerate(result) if item.type == "tr_open"), default=-1)
        table_start = max((position for position, item in enumerate(result) if item.type == "table_open"), default=-1)
        if row_start < 0 or table_start < 0 or row_start < table_start:
            continue
        row = result[row_start]
        raw = lines[row.map[0]].strip() if row.map and row.map[0] < len(lines) else ""
        attributes = parse_attributes(raw) if raw.startswith("{") and "|" not in raw else None
        if attributes is None:
            continue
        closing = result[-1]
        # Drop the row (and the body, when that row was all of it), then close the table again.
        del result[row_start:]
        if result[-1].type == "tbody_open":
            result.pop()
        else:
            body_close = Token("tbody_close", "tbody", -1)
            body_close.block = True
            result.append(body_close)
        result.append(closing)
        _apply(result[table_start], attributes)
    return result


def attributes_rule(block: bool, title: bool) -> Callable[[StateCore], None]:
    """The core rule (between block and inline parsing) for the enabled kinds of attributes."""

    def rule(state: StateCore) -> None:
        if title:
            _title_attributes(state.tokens)
        if block:
            lines = state.src.split("\n")
            state.tokens = _block_attributes(_table_attributes(state.tokens, lines), lines)

    return rule
