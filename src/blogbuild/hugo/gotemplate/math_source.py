"""A formula typeset at build time, read back as the TeX a Hugo page carries (Hugo leaves math to the reader's
browser): what Hugo's summary counts and its plainify shows of a page with math."""
from __future__ import annotations

import re

_KATEX_START = re.compile(r'<span class="katex(?:-display)?">')
_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)


def math_as_tex(html: str) -> str:
    """html with each formula typeset at build time (KaTeX's HTML) back as its TeX, between $ (a display
    formula between $$), as Hugo counts and plainifies it: Hugo's pages carry the TeX, not its typesetting."""
    if "katex" not in html:
        return html
    out: list[str] = []
    position = 0
    found = _KATEX_START.search(html)
    while found is not None:
        start = found.start()
        end = _closing(html, found.end())
        annotation = _ANNOTATION.search(html, start, end)
        out.append(html[position:start])
        fence = "$$" if found.group(0).endswith('-display">') else "$"
        out.append(f"{fence}{annotation.group(1)}{fence}" if annotation else "")
        position = end
        found = _KATEX_START.search(html, end)
    out.append(html[position:])
    return "".join(out)


def _closing(html: str, position: int) -> int:
    """Where a span whose start tag ends at position closes (the end of its end tag); the end of html when it
    never does. From each point, as many end tags as the depth there are passed at once, and the depth is then
    the spans started among them: a formula's hundred spans counted by str.find and str.count, not one by one
    (KaTeX writes no tag that starts "<span" but a span's)."""
    depth = 1
    while depth:
        after = position
        for _ in range(depth):
            after = html.find("</span>", after)
            if after < 0:
                return len(html)
            after += 7
        depth = html.count("<span", position, after)
        position = after
    return position
