"""Hugo's rewriting of site-relative URLs after a page is rendered, whatever its template wrote: always in an
RSS feed (made absolute), and in every HTML page of a site with canonifyURLs (absolute) or relativeURLs
(relative to the page: "../../" from posts/a/index.html, "./" from the top). Every `src=`, `href=`, `url=`
and `action=` (found anywhere: `data-url=` too, as Hugo's scan finds it) whose value, after an optional
quote, starts with a single "/" gets the new start in place of that slash (an absolute one drops the base
URL's path once, when the URL starts with it already), and so does each "/…" URL of a quoted `srcset=`. In
XML the quotes are the escaped `&#34;` and `&#39;` (an item's HTML is escaped text there); a URL starting
"//" is left alone, as is anything else.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

_XML_QUOTES = ("&#34;", "&#39;")
_HTML_QUOTES = ('"', "'")
# Where a rewrite may be: a prefix, its quote if any, and a "/" with something after it other than "/". Only
# these are visited: the other prefixes (most of a page's, "https://…" and "#…") are passed over by the scan.
# (No prefix can begin inside another or its quote, so the scan meets the same rewrites as one that visits every
# prefix.)
_CANDIDATES: dict[tuple[str, ...], re.Pattern[str]] = {
    quotes: re.compile("(src=|href=|url=|action=|srcset=)(" + "|".join(map(re.escape, quotes)) + ")?/(?=[^/])",
                       re.DOTALL)
    for quotes in (_HTML_QUOTES, _XML_QUOTES)}
_MAX_SRCSET = 2000   # Hugo's bound on a srcset value it rewrites


def absolute_urls_in_xml(text: str, base_url: str) -> str:
    """text with each site-relative URL of its (escaped) attributes made absolute against base_url."""
    base = base_url if base_url.endswith("/") else base_url + "/"
    return _rewrite(text, base, urlsplit(base).path.lstrip("/"), _XML_QUOTES)


def site_urls_in_html(html: str, start: str, *, absolute: bool) -> str:
    """A page's HTML with each site-relative URL of its attributes starting with start instead of "/": the
    base URL (canonifyURLs; absolute) or the way up to the top of the site from the page ("../../",
    relativeURLs)."""
    if absolute:
        start = start if start.endswith("/") else start + "/"
        return _rewrite(html, start, urlsplit(start).path.lstrip("/"), _HTML_QUOTES)
    return _rewrite(html, start, "", _HTML_QUOTES)


def dotted_path(output_path: str) -> str:
    """Hugo's way up from a published file to the top of the site: "./" from index.html or 404.html,
    "../../" from posts/a/index.html."""
    folders = output_path.strip("/").count("/")
    return "../" * folders if folders else "./"


def _rewrite(text: str, base: str, root: str, quotes: tuple[str, ...]) -> str:
    out: list[str] = []
    start = 0      # text[start:] is not written yet
    position = 0
    candidates = _CANDIDATES[quotes]
    while True:
        match = candidates.search(text, position)
        if match is None:
            break
        quote = match.group(2) or ""
        position = match.end() - 1   # at the "/"
        if match.group(1) != "srcset=":
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
