"""Hugo's absolute URLs in an RSS feed: Hugo always makes the site-relative URLs of an RSS output absolute
after rendering it, whatever its template wrote. Every `src=`, `href=`, `url=` and `action=` whose value
(after an optional quote) starts with a single "/" gets the base URL in place of that slash (the base URL's
path once, when the URL starts with it already), and so does each "/…" URL of a quoted `srcset=`. In XML the
quotes are the escaped `&#34;` and `&#39;` (an item's HTML is escaped text there); a URL starting "//" is
left alone, as is anything else.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

_XML_QUOTES = ("&#34;", "&#39;")
_PREFIXES = re.compile(r"src=|href=|url=|action=|srcset=")
_MAX_SRCSET = 2000   # Hugo's bound on a srcset value it rewrites


def absolute_urls_in_xml(text: str, base_url: str) -> str:
    """text with each site-relative URL of its (escaped) attributes made absolute against base_url."""
    base = base_url if base_url.endswith("/") else base_url + "/"
    root = urlsplit(base).path.lstrip("/")
    out: list[str] = []
    start = 0      # text[start:] is not written yet
    position = 0
    while True:
        match = _PREFIXES.search(text, position)
        if match is None:
            break
        position = match.end()
        quote = next((mark for mark in _XML_QUOTES if text.startswith(mark, position)), "")
        position += len(quote)
        if not text.startswith("/", position) or text.startswith("//", position) or position + 1 >= len(text):
            continue
        if match.group() != "srcset=":
            out.append(text[start:position])
            position += 1
            if root and text.startswith(root, position):
                position += len(root)
            out.append(base)
            start = position
            continue
        if not quote:   # a srcset is rewritten only when it is quoted
            continue
        end = text.find(quote, position)
        if end < 0 or end - position > _MAX_SRCSET:
            continue
        out.append(text[start:position])
        fields = text[position:end + 1].split()
        out.append(" ".join(base + (field[1 + len(root):] if root and field[1:].startswith(root) else field[1:])
                            if field.startswith("/") else field for field in fields))
        position = start = end + 1
    out.append(text[start:])
    return "".join(out)
