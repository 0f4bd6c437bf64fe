"""Rule gates: markdown-it rules called only where they can match, which spares most calls."""
from __future__ import annotations

from typing import Any, Callable

from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline

# The characters a line must start with for each of these markdown-it block rules to match; each
# rule returns False at once on any other line. A paragraph asks every one of them about each of
# its lines ("does this line end me?"), so checking the first character here spares most calls
# of the rule itself, and its debug log. None of them changes the state before that check.
FIRST_CHARACTERS = {
    "fence": "~`",
    "blockquote": ">",
    "hr": "*-_",
    "list": "*-+0123456789",
    "heading": "#",
    "footnote_def": "[",
}


def gated_by_first_character(rule: Callable[[StateBlock, int, int, bool], bool],
                             characters: str) -> Callable[[StateBlock, int, int, bool], bool]:
    """A block rule that is only called on lines starting with one of characters."""

    def gated(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        position = state.bMarks[start_line] + state.tShift[start_line]
        if position < len(state.src) and state.src[position] not in characters:
            return False
        return rule(state, start_line, end_line, silent)

    return gated


def gated_table(rule: Callable[[StateBlock, int, int, bool], bool]) -> Callable[[StateBlock, int, int, bool], bool]:
    """markdown-it's table rule, only called when the next line starts like a delimiter row, which
    the rule checks before anything else: '|', '-' or ':', then one of those or a space, and not
    "- " (a list item, which follows every item of a list)."""

    def gated(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        next_line = start_line + 1
        if next_line >= end_line:
            return False
        position = state.bMarks[next_line] + state.tShift[next_line]
        if position + 1 >= state.eMarks[next_line]:
            return False
        first, second = state.src[position], state.src[position + 1]
        if first not in "|-:" or second not in "|-: \t" or (first == "-" and second in " \t"):
            return False
        return rule(state, start_line, end_line, silent)

    return gated


def with_delimiters_only(rule: Callable[[StateInline], None]) -> Callable[[StateInline], None]:
    """An inline post-processing rule (pairing, strikethrough, emphasis) that is skipped when the
    inline content has no delimiter lists at all: all it does is walk those lists. Delimiter lists
    live in state.delimiters and in the metadata of opening tokens (links), so content without
    either, most of a post's lines, has none."""

    def gated(state: StateInline) -> None:
        if state.delimiters or any(state.tokens_meta):
            rule(state)

    return gated


def wrap_rule(ruler: Any, name: str, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """Replace a rule by wrap(rule), keeping its place and the chains it ends (alt)."""
    current = next(rule for rule in ruler.__rules__ if rule.name == name)
    ruler.at(name, wrap(current.fn), {"alt": list(current.alt)})
