"""Go's path.Clean and the part of net/url Hugo's absURL goes through: a relative URL is parsed as Go parses it,
joined to the base URL's path (path.Join) and written back as url.URL.String() writes it, so its path and
fragment come out percent-encoded ("a b/<x>.png" -> "a%20b/%3Cx%3E.png") while its query stays as written.
"""
from __future__ import annotations

import functools
import re

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_HEX = "0123456789ABCDEF"
# What Go's url.shouldEscape leaves as it is in a path, and in a fragment (which also keeps ? ! ( ) *).
_PATH_KEPT = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~$&+,/:;=@")
_FRAGMENT_KEPT = _PATH_KEPT | frozenset(b"?!()*")


def go_clean(path: str) -> str:
    """Go's path.Clean: one slash between elements, no . or .., no trailing slash; "" is "."."""
    if path == "":
        return "."
    rooted = path.startswith("/")
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts and parts[-1] != "..":
                parts.pop()
            elif not rooted:
                parts.append("..")
            continue
        parts.append(part)
    cleaned = ("/" if rooted else "") + "/".join(parts)
    return cleaned or ("/" if rooted else ".")


def add_context_root(base_path: str, relative: str) -> str:
    """Hugo's paths.AddContextRoot: Go's path.Join of the base path and a relative path, its last slash kept
    (`/blog/` and `x/` is `/blog/x/`, `/blog/` and "" is `/blog`)."""
    joined = go_clean(base_path + "/" + relative)
    return joined + "/" if joined != "/" and relative.endswith("/") else joined


def dot_segments_resolved(path: str) -> str:
    """A path from the root with its `.` and `..` segments resolved, as path.Join cleans what Hugo's relURL joins
    (`/en/../` is `/`), a last slash kept; a path without them as it is."""
    return add_context_root("/", path) if "/." in path else path


def _go_join(first: str, second: str) -> str:
    """Go's path.Join of two elements (empty ones left out, the result cleaned; "" when both are empty)."""
    joined = "/".join(part for part in (first, second) if part)
    return go_clean(joined) if joined else ""


def _unescape(text: str) -> str | None:
    """Go's url unescape of a path or fragment: None when a % is not followed by two hex digits."""
    if "%" not in text:
        return text
    out = bytearray()
    index = 0
    data = text.encode("utf-8", "surrogateescape")
    while index < len(data):
        byte = data[index]
        if byte == 0x25:
            pair = data[index + 1:index + 3]
            if len(pair) < 2 or any(chr(char) not in "0123456789abcdefABCDEF" for char in pair):
                return None
            out.append(int(pair, 16))
            index += 3
            continue
        out.append(byte)
        index += 1
    return out.decode("utf-8", "surrogateescape")


def _escape(text: str, kept: frozenset[int]) -> str:
    data = text.encode("utf-8", "surrogateescape")
    if all(byte in kept for byte in data):
        return text
    return "".join(chr(byte) if byte in kept else f"%{_HEX[byte >> 4]}{_HEX[byte & 15]}" for byte in data)


def is_absolute(url: str) -> bool:
    """Whether Go's url.Parse gives the URL a scheme, or it starts with // (absURL leaves both as they are)."""
    return url.startswith("//") or _SCHEME.match(url) is not None


def make_permalink(base: str, url: str) -> str:
    """_make_permalink's URL, kept for plain text (a page's menu, header and head make the same URLs on every
    page; a marked-safe text is made afresh, so that what is returned keeps the type it was given)."""
    if type(url) is str and type(base) is str:
        return _kept_permalink(base, url)
    return _make_permalink(base, url)


def _make_permalink(base: str, url: str) -> str:
    """Hugo's absURL of a relative url under base (scheme, host and path: the site's base URL, or its host's root
    for a url from the root): Go's url.Parse of url (the url as it is when Go cannot parse it: a control
    character, a bad % escape, a colon in its first segment), its path joined to base's, its query kept, and
    the whole written as url.URL.String() writes it."""
    if any(ord(character) < 0x20 or ord(character) == 0x7F for character in url):
        return url
    rest, hash_mark, fragment_text = url.partition("#")
    path_text, _, query = rest.partition("?")
    if ":" in path_text.split("/", 1)[0]:
        return url   # Go: "first path segment in URL cannot contain colon"
    path = _unescape(path_text)
    fragment = _unescape(fragment_text) if hash_mark else ""
    if path is None or fragment is None:
        return url
    scheme, separator, rest = base.partition("://")
    host, slash, base_path = rest.partition("/")
    prefix = scheme + separator + host
    base_path = slash + base_path
    joined = _go_join(_unescape(base_path) or "", path)
    if (url == "" and base.endswith("/")) or path.endswith("/"):
        joined = joined if joined.endswith("/") else joined + "/"
    if joined and not joined.startswith("/"):
        joined = "/" + joined
    written = prefix + _escape(joined, _PATH_KEPT)
    if query:   # an empty query is dropped: Hugo keeps the RawQuery, not Go's ForceQuery
        written += "?" + query
    if hash_mark and fragment:
        written += "#" + _escape(fragment, _FRAGMENT_KEPT)
    return written


_kept_permalink = functools.lru_cache(maxsize=4096)(_make_permalink)
