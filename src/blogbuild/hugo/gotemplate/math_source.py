"""A formula typeset at build time, read back as the TeX a Hugo page carries (Hugo leaves math to the reader's
browser): what Hugo's summary counts and its plainify shows of a page with math."""
from __future__ import annotations

import re

_KATEX_START = re.compile(r'<span class="katex(?:-display)?">')
_SPAN = re.compile(r"<span\b|</span>")
_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)


def math_as_tex(html: str) -> str:
    """html with each formula typeset at build time (KaTeX's HTML) back as its TeX, between $ (a display
    formula between $$), as Hugo counts and plainifies it: Hugo's pages carry the TeX, not its typesetting."""
    if "katex" not in html:
        return html
    out: list[str] = []
    position = 0
    while True:
        found = _KATEX_START.search(html, position)
        if found is None:
            break
        depth, end = 0, len(html)
        for tag in _SPAN.finditer(html, found.start()):
            depth += 1 if tag.group(0) == "<span" else -1
            if depth == 0:
                end = tag.end()
                break
        annotation = _ANNOTATION.search(html, found.start(), end)
        out.append(html[position:found.start()])
        fence = "$$" if found.group(0).endswith('-display">') else "$"
        out.append(f"{fence}{annotation.group(1)}{fence}" if annotation else "")
        position = end
    out.append(html[position:])
    return "".join(out)
