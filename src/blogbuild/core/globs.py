"""Hugo's globs (gobwas/glob with `/` separating), as regular expressions: a resource's name
(`.Resources.Match`, hugo/gotemplate/page_resources.py) and a cascade's target (core/cascade.py)."""
from __future__ import annotations

import functools
import re


class GlobError(ValueError):
    """A glob with an unclosed `{` or `[`."""


@functools.lru_cache(maxsize=512)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """The glob, lower-cased, as a pattern to fullmatch a lower-cased text: `**` any run of characters, `*` and `?`
    within one segment, `{a,b}` either (each a glob), `[…]` a class (`[!…]` its complement)."""
    text = pattern.lower()
    parts: list[str] = []
    index, depth = 0, 0
    while index < len(text):
        char = text[index]
        if text.startswith("**", index):
            parts.append(".*")
            index += 2
            continue
        if char == "*":
            parts.append("[^/]*")
        elif char == "?":
            parts.append("[^/]")
        elif char == "{":
            parts.append("(?:")
            depth += 1
        elif char == "}" and depth:
            parts.append(")")
            depth -= 1
        elif char == "," and depth:
            parts.append("|")
        elif char == "[":
            end = text.find("]", index)
            if end < 0:
                raise GlobError(f"the glob {pattern!r} has an unclosed [")
            body = text[index + 1:end]
            parts.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            index = end
        else:
            parts.append(re.escape(char))
        index += 1
    if depth:
        raise GlobError(f"the glob {pattern!r} has an unclosed {{")
    return re.compile("".join(parts), re.DOTALL)
