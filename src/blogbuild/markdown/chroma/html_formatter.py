"""Chroma's HTML formatter (formatters/html/html.go) as Hugo configures it: lines in 'line' and 'cl' spans, line
numbers inline or in a table's first column, highlighted lines, linkable numbers; each element with its CSS class,
or (noClasses) with the inline style of a Chroma style (styles.py)."""
from __future__ import annotations

from .lexer import Token
from .styles import (CODE_LINE, LINE, LINE_HIGHLIGHT, LINE_LINK, LINE_NUMBERS, LINE_NUMBERS_TABLE, LINE_TABLE,
                     LINE_TABLE_TD, PRE_WRAPPER, inline_styles, style_attribute)
from .token_types import css_class
from ...core.records import dataclass

_GO_ESCAPES = str.maketrans({"&": "&amp;", "'": "&#39;", "<": "&lt;", ">": "&gt;", '"': "&#34;"})


def escape(text: str) -> str:
    """Go's html.EscapeString, as Chroma and Hugo escape code and attribute values: &#39; and &#34; for quotes."""
    return text.translate(_GO_ESCAPES)


@dataclass(frozen=True)
class FormatOptions:
    """What the formatter is asked for (html.Option's Hugo passes)."""

    line_numbers: bool = False
    in_table: bool = False
    base_line: int = 1
    highlight_ranges: tuple[tuple[int, int], ...] = ()
    linkable: bool = False
    id_prefix: str = ""
    inline_code: bool = False
    style: str = ""          # a Chroma style's name: inline styles instead of classes (Hugo's noClasses)
    tab_width: int = 4


class _Attributes:
    """Formatter.styleAttr: ' class="…"', or ' style="…"' from the style's CSS (nothing for a type without)."""

    def __init__(self, options: FormatOptions) -> None:
        self.styles = (inline_styles(options.style, options.tab_width, bool(options.highlight_ranges))
                       if options.style else None)

    def __call__(self, token_type: int, *extra: str) -> str:
        if self.styles is None:
            name = css_class(token_type)
            return f' class="{name}"' if name else ""
        return style_attribute(self.styles, token_type, *extra)

    def highlighted_line(self) -> str:
        if self.styles is None:
            return ' class="line hl"'
        return f' style="{self.styles.get(LINE, "")} {self.styles.get(LINE_HIGHLIGHT, "")}"'


def split_lines(tokens: list[Token]) -> list[list[Token]]:
    """chroma.SplitTokensIntoLines: each line's tokens, its newline kept inside the token it ends."""
    out: list[list[Token]] = []
    line: list[Token] = []
    for kind, value in tokens:
        while "\n" in value:
            head, value = value.split("\n", 1)
            line.append((kind, head + "\n"))
            out.append(line)
            line = []
            if not value:
                break
        else:
            line.append((kind, value))
            continue
        if value:
            line.append((kind, value))
    if line:
        out.append(line)
    if out and len(out[-1]) == 1 and out[-1][0][1] == "":
        out.pop()
    return out


def _should_highlight(ranges: tuple[tuple[int, int], ...], index: int, line: int) -> tuple[bool, bool]:
    moved = False
    while index < len(ranges) and line > ranges[index][1]:
        index += 1
        moved = True
    if index < len(ranges) and ranges[index][0] <= line <= ranges[index][1]:
        return True, moved
    return False, moved


def _title(options: FormatOptions, attribute: _Attributes, digits: int, line: int) -> str:
    title = str(line).rjust(digits)
    if not options.linkable:
        return title
    return f'<a{attribute(LINE_LINK)} href="#{escape(options.id_prefix)}{line}">{title}</a>'


def _id(options: FormatOptions, line: int) -> str:
    return f' id="{escape(options.id_prefix)}{line}"' if options.linkable else ""


def format_html(tokens: list[Token], options: FormatOptions, pre_start: tuple[str, str], pre_end: str) -> str:
    """The formatted code; pre_start is the wrapper's start for (the numbers column, the code), with {} where the
    pre's class or style goes."""
    return "".join(format_parts(tokens, options, pre_start, pre_end))


def format_parts(tokens: list[Token], options: FormatOptions, pre_start: tuple[str, str],
                 pre_end: str) -> tuple[str, str, str]:
    """format_html in three parts: up to the code's pre start, the lines of code, from the code's pre end (the
    inner part is HighlightResult.Inner)."""
    attribute = _Attributes(options)
    pre_attribute = attribute(PRE_WRAPPER)
    ranges = tuple(sorted(options.highlight_ranges, key=lambda pair: pair[0]))
    table = options.line_numbers and options.in_table
    lines = split_lines(tokens)
    digits = len(str(options.base_line + len(lines) - 1))
    out: list[str] = []
    if table:
        out.append(f"<div{pre_attribute}>\n<table{attribute(LINE_TABLE)}><tr><td{attribute(LINE_TABLE_TD)}>\n")
        out.append(pre_start[0].format(pre_attribute))
        index = 0
        for number in range(len(lines)):
            line = options.base_line + number
            marked, moved = _should_highlight(ranges, index, line)
            index += moved
            if marked:
                out.append(f"<span{attribute(LINE_HIGHLIGHT)}>")
            out.append(f"<span{attribute(LINE_NUMBERS_TABLE)}{_id(options, line)}>"
                       f"{_title(options, attribute, digits, line)}\n</span>")
            if marked:
                out.append("</span>")
        out.append(pre_end)
        out.append(f"</td>\n<td{attribute(LINE_TABLE_TD, 'width:100%')}>\n")
    out.append(pre_start[1].format(pre_attribute))
    head = "".join(out)
    out = []
    index = 0
    for number, line_tokens in enumerate(lines):
        line = options.base_line + number
        marked, moved = _should_highlight(ranges, index, line)
        index += moved
        if not options.inline_code:
            out.append(f"<span{attribute.highlighted_line() if marked else attribute(LINE)}>")
            if options.line_numbers and not table:
                out.append(f"<span{attribute(LINE_NUMBERS)}{_id(options, line)}>"
                           f"{_title(options, attribute, digits, line)}</span>")
            out.append(f"<span{attribute(CODE_LINE)}>")
        for kind, value in line_tokens:
            kind_attribute = attribute(kind)
            text = escape(value)
            out.append(f"<span{kind_attribute}>{text}</span>" if kind_attribute else text)
        if not options.inline_code:
            out.append("</span></span>")
    inner = "".join(out)
    tail = pre_end + ("</td></tr></table>\n</div>\n" if table else "")
    return head, inner, tail
