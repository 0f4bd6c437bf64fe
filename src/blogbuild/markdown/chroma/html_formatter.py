"""Chroma's HTML formatter (formatters/html/html.go) with CSS classes, as Hugo configures it: lines in 'line'
and 'cl' spans, line numbers inline or in a table's first column, highlighted lines, linkable numbers."""
from __future__ import annotations

from dataclasses import dataclass
from .lexer import Token
from .token_types import css_class

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


def _title(options: FormatOptions, digits: int, line: int) -> str:
    title = str(line).rjust(digits)
    if not options.linkable:
        return title
    return f'<a class="lnlinks" href="#{escape(options.id_prefix)}{line}">{title}</a>'


def _id(options: FormatOptions, line: int) -> str:
    return f' id="{escape(options.id_prefix)}{line}"' if options.linkable else ""


def format_html(tokens: list[Token], options: FormatOptions, pre_start: tuple[str, str], pre_end: str) -> str:
    """The formatted code; pre_start is the wrapper's start for (the numbers column, the code)."""
    ranges = tuple(sorted(options.highlight_ranges, key=lambda pair: pair[0]))
    table = options.line_numbers and options.in_table
    lines = split_lines(tokens)
    digits = len(str(options.base_line + len(lines) - 1))
    out: list[str] = []
    if table:
        out.append('<div class="chroma">\n<table class="lntable"><tr><td class="lntd">\n')
        out.append(pre_start[0])
        index = 0
        for number in range(len(lines)):
            line = options.base_line + number
            marked, moved = _should_highlight(ranges, index, line)
            index += moved
            if marked:
                out.append('<span class="hl">')
            out.append(f'<span class="lnt"{_id(options, line)}>{_title(options, digits, line)}\n</span>')
            if marked:
                out.append("</span>")
        out.append(pre_end)
        out.append('</td>\n<td class="lntd">\n')
    out.append(pre_start[1])
    index = 0
    for number, line_tokens in enumerate(lines):
        line = options.base_line + number
        marked, moved = _should_highlight(ranges, index, line)
        index += moved
        if not options.inline_code:
            out.append('<span class="line hl">' if marked else '<span class="line">')
            if options.line_numbers and not table:
                out.append(f'<span class="ln"{_id(options, line)}>{_title(options, digits, line)}</span>')
            out.append('<span class="cl">')
        for kind, value in line_tokens:
            name = css_class(kind)
            text = escape(value)
            out.append(f'<span class="{name}">{text}</span>' if name else text)
        if not options.inline_code:
            out.append("</span></span>")
    out.append(pre_end)
    if table:
        out.append("</td></tr></table>\n</div>\n")
    return "".join(out)
