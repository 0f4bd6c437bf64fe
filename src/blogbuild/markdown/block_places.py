"""What a table's or a blockquote's tokens do not say and Hugo's render hooks are given: the column its first
line starts at (`.Position`), and which of a table's body cells its row left out (markdown-it fills a short
row with empty cells aligned as their column; goldmark's filled cells have no alignment).

Both rules wrap markdown-it's own and only add to the meta of the tokens it pushed: the HTML is the same.
"""
from __future__ import annotations

from typing import Callable

from markdown_it.rules_block import StateBlock
from markdown_it.rules_block.table import escapedSplit

_BlockRule = Callable[[StateBlock, int, int, bool], bool]


def _column(state: StateBlock, line: int) -> int:
    """The 1-based column, in characters, where the block starting on line starts (after its containers'
    markers: a quote's '>' or a list item's indent). markdown-it gives a line these marks back once the
    block's rule is done, so they are read after it."""
    position = state.bMarks[line] + state.tShift[line]
    return position - (state.src.rfind("\n", 0, position) + 1) + 1


def blockquote_places(rule: _BlockRule) -> _BlockRule:
    """markdown-it's blockquote rule, recording the column of the quote's '>' on its blockquote_open."""

    def placed(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        first = len(state.tokens)
        found = rule(state, start_line, end_line, silent)
        if found and not silent and first < len(state.tokens):
            state.tokens[first].meta["column"] = _column(state, start_line)
        return found

    return placed


def table_places(rule: _BlockRule) -> _BlockRule:
    """markdown-it's table rule, recording the table's column on its table_open and marking each body cell
    its row left out (meta "filled")."""

    def placed(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        first = len(state.tokens)
        found = rule(state, start_line, end_line, silent)
        if not found or silent or first >= len(state.tokens):
            return found
        state.tokens[first].meta["column"] = _column(state, start_line)
        written = cell = 0
        for token in state.tokens[first:]:
            if token.type == "tr_open" and token.map and token.map[0] > start_line:
                written, cell = _cells_written(state, token.map[0]), 0
            elif token.type == "td_open":
                if cell >= written:
                    token.meta["filled"] = True
                cell += 1
        return found

    return placed


def _cells_written(state: StateBlock, line: int) -> int:
    """How many cells a table row's line has, counted as markdown-it's table rule counts them."""
    start = state.bMarks[line] + state.tShift[line]
    columns = escapedSplit(state.src[start:state.eMarks[line]].strip())
    if columns and columns[0] == "":
        columns.pop(0)
    if columns and columns[-1] == "":
        columns.pop()
    return len(columns)
