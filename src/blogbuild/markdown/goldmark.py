"""What Hugo writes differently from markdown-it, for a Hugo site its own layouts render. Footnotes as goldmark
writes them: `<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup>`, and at the
end `<div class="footnotes" role="doc-endnotes"><hr><ol><li id="fn:1">…&#160;<a href="#fnref:1"
class="footnote-backref" role="doc-backlink">&#x21a9;&#xfe0e;</a></li></ol></div>` (markdown-it's footnote plugin
parses them; these rules draw them); a table cell's alignment as Hugo's embedded table hook writes it
(`style="text-align: center"`); a table whose header row has fewer cells than its delimiter row."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from markdown_it.rules_block import StateBlock
from markdown_it.rules_block.table import escapedSplit
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from .block_places import _column

_DELIMITER_ROW = re.compile(r"^[|:-][|:\s-]*$")
_DELIMITER_CELL = re.compile(r"^:?-+:?$")


def _number(tokens: Sequence[Token], index: int) -> str:
    return str(tokens[index].meta["id"] + 1)


def _reference_id(tokens: Sequence[Token], index: int) -> str:
    """A reference's id: fnref:N, a later reference to the same note fnrefK:N, as goldmark numbers them."""
    sub = tokens[index].meta.get("subId", -1)
    return f"fnref{sub if sub > 0 else ''}:{_number(tokens, index)}"


def render_reference(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    number = _number(tokens, index)
    return (f'<sup id="{_reference_id(tokens, index)}"><a href="#fn:{number}" class="footnote-ref" '
            f'role="doc-noteref">{number}</a></sup>')


def render_block_open(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    return '<div class="footnotes" role="doc-endnotes">\n<hr>\n<ol>\n'


def render_block_close(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    return "</ol>\n</div>\n"


def render_open(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    return f'<li id="fn:{_number(tokens, index)}">\n'


def render_close(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    return "</li>\n"


def render_backlink(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    return (f'&#160;<a href="#{_reference_id(tokens, index)}" class="footnote-backref" '
            'role="doc-backlink">&#x21a9;&#xfe0e;</a>')


FOOTNOTE_RULES = (("footnote_ref", render_reference), ("footnote_block_open", render_block_open),
                  ("footnote_block_close", render_block_close), ("footnote_open", render_open),
                  ("footnote_close", render_close), ("footnote_anchor", render_backlink))


def render_strikethrough_open(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any,
                              env: Any) -> str:
    return "<del>"   # goldmark's strikethrough element (markdown-it writes <s>)


def render_strikethrough_close(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any,
                               env: Any) -> str:
    return "</del>"


STRIKETHROUGH_RULES = (("s_open", render_strikethrough_open), ("s_close", render_strikethrough_close))


def unwrap_standalone_images(state: StateCore) -> None:
    """goldmark's wrapStandAloneImageWithinParagraph = false: a paragraph holding one image and nothing else is
    not written; the image is a block (a render-image hook's .IsBlock)."""
    tokens = state.tokens
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        opening = tokens[index]
        if opening.type == "paragraph_open" and index + 2 < len(tokens) and tokens[index + 1].type == "inline" \
                and tokens[index + 2].type == "paragraph_close":
            inline = tokens[index + 1]
            children = inline.children or []
            if len(children) == 1 and children[0].type == "image":
                children[0].meta["block"] = True
                kept.append(inline)   # the paragraph's own tokens left out: nothing written around the image
                index += 3
                continue
        kept.append(opening)
        index += 1
    state.tokens = kept


def task_lists(state: StateCore) -> None:
    """A task list as goldmark's tasklist extension writes it: no classes on the list and its items, the
    checkbox `<input checked="" disabled="" type="checkbox">` (themes rewrite exactly that, LoveIt into icons)."""
    for token in state.tokens:
        if token.type in ("bullet_list_open", "ordered_list_open", "list_item_open") and \
                token.attrGet("class") in ("contains-task-list", "task-list-item"):
            del token.attrs["class"]
        elif token.type == "inline" and token.children and token.children[0].type == "html_inline" and \
                token.children[0].content.startswith('<input class="task-list-item-checkbox"'):
            checked = ' checked="checked"' in token.children[0].content
            mark = ' checked=""' if checked else ""
            token.children[0].content = f'<input{mark} disabled="" type="checkbox">'


def table_alignment(state: StateCore) -> None:
    """A table cell's alignment as Hugo's embedded table hook writes it: style="text-align: center"; a cell its
    row left out (goldmark fills it) has none."""
    for token in state.tokens:
        if token.type == "inline" or not token.type.startswith(("th_", "td_")):
            continue
        if token.meta.get("filled") and token.attrs:
            token.attrs.pop("style", None)
            continue
        style = token.attrGet("style")
        if isinstance(style, str) and style.startswith("text-align:") and not style.startswith("text-align: "):
            token.attrSet("style", "text-align: " + style.removeprefix("text-align:"))


def short_header_tables(rule: Callable[[StateBlock, int, int, bool], bool]) -> Callable[[StateBlock, int, int, bool], bool]:
    """The table rule as goldmark reads a table: a header row with fewer cells than the delimiter row has (`| a |`
    over `| --- | --- |`, a row broken over two lines by an editor) is a table whose header is padded with empty
    cells; markdown-it asks for as many cells as the delimiter row has and leaves the lines a paragraph. The rule
    runs on the header line padded with the cells it lacks, its text put back afterwards. As in goldmark, a table
    that ends a paragraph (lines before it, no blank line between) is placed where that paragraph starts (its
    hook's .Position)."""

    def table(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        first = len(state.tokens)
        if rule(state, start_line, end_line, silent) or _padded(state, start_line, end_line, silent):
            if not silent and first >= 3 and state.tokens[first - 1].type == "paragraph_close":
                opening = state.tokens[first - 3]   # the paragraph the table ends: goldmark's table starts there
                if opening.map and opening.map[1] == start_line:
                    state.tokens[first].meta["position_line"] = opening.map[0]
                    state.tokens[first].meta["column"] = opening.meta.get("column") or _column(state, opening.map[0])
            return True
        return False

    def _padded(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        missing = _missing_header_cells(state, start_line, end_line)
        if missing <= 0:
            return False
        header = state.src[state.bMarks[start_line] + state.tShift[start_line]:state.eMarks[start_line]].rstrip()
        padding = ("" if header.endswith("|") else "|") + " |" * missing
        at, shift = state.eMarks[start_line], len(padding)
        saved = state.src, list(state.bMarks), list(state.eMarks)
        state.src = state.src[:at] + padding + state.src[at:]
        state.eMarks[start_line] += shift
        for line in range(start_line + 1, len(state.bMarks)):
            state.bMarks[line] += shift
            state.eMarks[line] += shift
        try:
            return rule(state, start_line, end_line, silent)
        finally:
            state.src, state.bMarks, state.eMarks = saved

    return table


def _missing_header_cells(state: StateBlock, start_line: int, end_line: int) -> int:
    """How many cells the line at start_line lacks to head a table over the delimiter row after it (0 when that
    line is no table's header, or has as many cells or more)."""
    if start_line + 1 >= end_line:
        return 0
    def line(number: int) -> str:
        return state.src[state.bMarks[number] + state.tShift[number]:state.eMarks[number]].strip()
    header, delimiter = line(start_line), line(start_line + 1)
    if "|" not in header or not _DELIMITER_ROW.match(delimiter):
        return 0
    columns = [cell.strip() for cell in delimiter.split("|")]
    if columns and columns[0] == "":
        columns.pop(0)
    if columns and columns[-1] == "":
        columns.pop()
    cells = escapedSplit(header)
    if cells and cells[0].strip() == "":
        cells.pop(0)
    if cells and cells[-1].strip() == "":
        cells.pop()
    return len(columns) - len(cells) if all(_DELIMITER_CELL.match(column) for column in columns) else 0


_COMMENTS_ONLY = re.compile(r"\s*(?:<!--.*?-->\s*)+", re.S)
_SUMMARY_DIVIDER = re.compile(r"\s*<!--\s*more\s*-->\s*", re.I)


def drop_comments(state: StateCore) -> None:
    """HTML comments as goldmark writes them without its unsafe renderer (Hugo's default): an HTML block of
    comments only, and a comment inside a paragraph, are left out (so a page's summary, description and word
    count do not start with one); Hugo's summary divider <!--more--> stays. (Other raw HTML, which goldmark then
    writes as <!-- raw HTML omitted -->, blogbuild keeps.)"""
    kept = []
    for token in state.tokens:
        if token.type == "html_block" and _COMMENTS_ONLY.fullmatch(token.content) \
                and not _SUMMARY_DIVIDER.fullmatch(token.content):
            continue
        if token.type == "inline" and token.children:
            token.children = [child for child in token.children
                              if not (child.type == "html_inline" and child.content.startswith("<!--")
                                      and not _SUMMARY_DIVIDER.fullmatch(child.content))]
        kept.append(token)
    state.tokens = kept


_DIVIDER = "<!--more-->"


def hugo_summary_divider(body: str) -> str:
    """The first <!--more--> in a page's source as Hugo's page lexer takes it, wherever it is (in code too): the
    white space after it is eaten, so what follows starts a block at its first column (an indented ```lang then
    opens a fence), and the divider stands as a block of its own. Lines are kept where Hugo's own line breaks
    allow it: a divider on a line of its own, followed by a blank line, changes no line number."""
    start = body.find(_DIVIDER)
    if start < 0:
        return body
    end = start + len(_DIVIDER)
    rest = body[end:]
    after = rest[:len(rest) - len(rest.lstrip())]
    breaks = max(after.count("\n"), 2)
    before = "" if start == 0 or body[start - 1] == "\n" else "\n\n"
    return body[:start] + before + _DIVIDER + "\n" * breaks + rest[len(after):]

