"""Walking markdown-it's flat token stream: where a container's tokens end."""
from __future__ import annotations

from typing import Sequence

from markdown_it.token import Token


def closing_index(tokens: Sequence[Token], index: int) -> int:
    """The index of the token closing tokens[index] (an opening token), or the last index."""
    depth = 0
    for position in range(index, len(tokens)):
        depth += tokens[position].nesting
        if depth == 0:
            return position
    return len(tokens) - 1
