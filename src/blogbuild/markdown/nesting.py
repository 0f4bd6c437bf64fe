"""Deep nesting: content deeper than markdown-it's limit becomes plain paragraphs, with a warning."""
from __future__ import annotations

import re
from typing import Callable

from markdown_it.common.utils import mdTrim
from markdown_it.rules_block import StateBlock

from .environment import environment_of

# Deep enough for any real post (a list in a quote in a list ...), shallow enough that
# markdown-it's recursive block rules stay far below Python's recursion limit. Block
# content deeper than this is flattened into plain paragraphs by tokenize_blocks (with a
# warning) instead of being dropped, as markdown-it itself would do.
MAX_NESTING = 50

# The list and quote markers that open the containers of a flattened line: ">", "-", "+",
# "*" and "1." / "1)" followed by a space. Possessive, so a long run never backtracks.
_CONTAINER_MARKERS = re.compile(r"(?:[ \t]*+(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)))++[ \t]*+")


def tokenize_blocks(state: StateBlock, start_line: int, end_line: int,
                    tokenize: Callable[[StateBlock, int, int], None]) -> None:
    """markdown-it's block tokenizer, except that content deeper than MAX_NESTING is
    flattened into paragraphs (markdown-it drops it) and a warning names its first line."""
    if state.level < MAX_NESTING:
        tokenize(state, start_line, end_line)
        return
    # The same lines markdown-it's loop would take: up to the end of this container.
    line = state.skipEmptyLines(start_line)
    first = line
    paragraphs: list[tuple[int, int, list[str]]] = []
    current: list[str] = []
    current_start = line
    while line < end_line:
        if state.isEmpty(line):
            if current:
                paragraphs.append((current_start, line, current))
                current = []
            line += 1
            continue
        if state.sCount[line] < state.blkIndent:
            break
        text = state.src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]]
        markers = _CONTAINER_MARKERS.match(text)
        if markers:
            text = text[markers.end():]
        if text.strip():
            if not current:
                current_start = line
            current.append(text)
        elif current:
            # A line of markers only (">>>") is the blank line of a deep quote.
            paragraphs.append((current_start, line, current))
            current = []
        line += 1
    if current:
        paragraphs.append((current_start, line, current))
    state.line = line
    if first >= line:
        return
    environment_of(state.env).warn(first,
                                   f"nesting {MAX_NESTING} levels deep or more (a quote counts one level, a list two) is "
                                   "flattened into plain paragraphs from here; nest the lists and quotes less deeply")
    for begin, end, texts in paragraphs:
        token = state.push("paragraph_open", "p", 1)
        token.map = [begin, end]
        token = state.push("inline", "", 0)
        token.content = mdTrim("\n".join(texts))
        token.map = [begin, end]
        token.children = []
        state.push("paragraph_close", "p", -1)
