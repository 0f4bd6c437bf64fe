"""Hugo's code-fence attributes: ```go {linenos=true hl_lines=[2,"4-5"] linenostart=10}, and the line markup they give."""
from __future__ import annotations

import re

from markdown_it.common.utils import unescapeAll
from ..core.records import dataclass

# key=value pairs inside the braces; a value is a [list], a quoted string or a bare word.
_OPTION = re.compile(r"""([A-Za-z_][\w-]*)\s*=\s*(\[[^\]]*\]|"[^"]*"|'[^']*'|[^\s,}]+)""")
_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


@dataclass(frozen=True)
class FenceOptions:
    """What a fence's attributes ask for, over the site's highlight defaults."""

    line_numbers: bool = False
    table: bool = False
    start: int = 1
    highlighted: frozenset[int] = frozenset()   # 1-based line numbers of the code, before start is applied


def _lines(value: str) -> frozenset[int]:
    """hl_lines=[2,"4-5"] or hl_lines="2 4-5": the line numbers it names."""
    numbers: set[int] = set()
    for part in re.split(r"[\s,\[\]\"']+", value):
        match = _RANGE.match(part)
        if match:
            first = int(match.group(1))
            last = int(match.group(2) or first)
            numbers.update(range(first, min(last, first + 10000) + 1))
    return frozenset(numbers)


def fence_options(info: str, *, line_numbers: bool = False, table: bool = False, start: int = 1) -> FenceOptions:
    """The options of a fence's info string, starting from the site's defaults (markup.highlight)."""
    info = unescapeAll(info) if info else ""
    brace = info.find("{")
    highlighted: frozenset[int] = frozenset()
    if brace >= 0:
        for key, raw in _OPTION.findall(info[brace:]):
            key = key.lower()
            value = raw.strip("\"'")
            if key == "linenos":
                line_numbers = value.lower() not in ("false", "0", "")
                if value.lower() in ("table", "inline"):
                    table = value.lower() == "table"
            elif key == "linenostart" and value.isdigit():
                start = int(value)
            elif key == "hl_lines":
                highlighted = _lines(raw)
    return FenceOptions(line_numbers, table, start, highlighted)


def number_lines(html: str, options: FenceOptions) -> tuple[str, str]:
    """(numbers, code): the code's HTML lines wrapped as Hugo's Chroma wraps them ('line', 'hl', 'ln', 'cl');
    numbers is the separate column of a table layout, '' otherwise. html's tags never span lines
    (Pygments closes and reopens them at each line end)."""
    lines = html.splitlines(keepends=True) or [""]
    code: list[str] = []
    numbers: list[str] = []
    for index, line in enumerate(lines, 1):
        number = options.start + index - 1
        marked = index in options.highlighted
        line_class = "line hl" if marked else "line"
        if options.line_numbers and options.table:
            numbers.append(f'<span class="lnt{" hl" if marked else ""}">{number}\n</span>')
            code.append(f'<span class="{line_class}"><span class="cl">{line}</span></span>')
        elif options.line_numbers:
            code.append(f'<span class="{line_class}"><span class="ln">{number}</span><span class="cl">{line}</span></span>')
        else:
            code.append(f'<span class="{line_class}"><span class="cl">{line}</span></span>')
    return "".join(numbers), "".join(code)


def needs_lines(options: FenceOptions) -> bool:
    """Whether a fence needs its lines wrapped at all."""
    return options.line_numbers or bool(options.highlighted)
