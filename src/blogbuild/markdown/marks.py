"""Where a body's links, images, formulas and diagrams are, from the tokens' line map (for `blogbuild check`)."""
from __future__ import annotations

import html as html_lib
import re
from typing import Callable, Sequence

from markdown_it.token import Token

from ..core.model import SourceMark
from .code import fence_language

# href and src attributes in raw HTML or a shortcode's HTML: what check's scan of the page will find there.
_URL_ATTRIBUTE = re.compile(r"""\s(?:href|src|poster)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)


def html_marks(html: str, line: int) -> list[SourceMark]:
    """The URLs of a piece of HTML that starts at a 0-based body line."""
    return [SourceMark("url", html_lib.unescape(match.group(1) if match.group(1) is not None else match.group(2)),
                       line + html.count("\n", 0, match.start()))
            for match in _URL_ATTRIBUTE.finditer(html)]


def source_marks(tokens: Sequence[Token], lines: Sequence[str], restore: Callable[[str], str]) -> list[SourceMark]:
    """The marks of a token stream, at 0-based body lines (the caller maps them to file lines)."""
    marks: list[SourceMark] = []
    for token in tokens:
        first = token.map[0] if token.map else 0
        if token.type == "inline" and token.children:
            marks.extend(_inline_marks(token.children, first, restore))
        elif token.type == "math_block":
            tex = restore(token.content)
            marks.append(SourceMark("math", tex, _first_tex_line(tex, token, lines)))
        elif token.type == "fence":
            language = fence_language(token.info).lower()
            if language == "mermaid":
                marks.append(SourceMark("mermaid", restore(token.content), first))
            elif language == "math":
                tex = restore(token.content).strip("\n")
                marks.append(SourceMark("math", tex, _first_tex_line(tex, token, lines)))
        elif token.type == "html_block":
            marks.extend(html_marks(token.content, first))
    return marks


def _inline_marks(children: Sequence[Token], line: int, restore: Callable[[str], str]) -> list[SourceMark]:
    """The marks of one block's inline tokens; line counts the line breaks passed."""
    marks: list[SourceMark] = []
    dollars_seen = False
    for child in children:
        kind = child.type
        if kind in ("link_open", "image"):
            for name in ("href", "src"):
                value = child.attrGet(name)
                if value is not None:
                    marks.append(SourceMark("url", str(value), line))
        elif kind in ("math_inline", "math_display_inline"):
            marks.append(SourceMark("math", restore(child.content), line))
        elif kind == "html_inline":
            marks.extend(html_marks(child.content, line))
        elif kind == "text" and not dollars_seen and "$$" in child.content:
            dollars_seen = True
            marks.append(SourceMark("dollars", "", line))
        if kind in ("softbreak", "hardbreak"):
            line += 1
        else:
            line += child.content.count("\n")
    return marks


def _first_tex_line(tex: str, token: Token, lines: Sequence[str]) -> int:
    """The 0-based line of a display formula's first non-empty TeX line (not its '$$' line)."""
    if token.map is None:
        return 0
    begin, end = token.map
    first = next((line.strip() for line in tex.splitlines() if line.strip()), "")
    for number in range(begin, min(end, len(lines))):
        if first and first in lines[number]:
            return number
    return begin
