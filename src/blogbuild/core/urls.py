"""Slugs and URLs, one home: the URL segment rule (urlize), ASCII slugs for new files, URL <-> output path."""
from __future__ import annotations

import functools
import hashlib
import posixpath
import re
import unicodedata

_WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"] + [f"com{digit}" for digit in range(10)] + [f"lpt{digit}" for digit in range(10)]
)
_MAX_CHARACTERS = 100
# A path segment is also a file or folder name: 255 bytes on most file systems. 100 CJK characters
# are 300 bytes of UTF-8, so bytes are capped too, with room for a suffix.
_MAX_BYTES = 200
_SEPARATORS = frozenset("/\\|:;,")
_KEPT_PUNCTUATION = frozenset("-_.+~")
_EDGE_JUNK = "-._~"


@functools.lru_cache(maxsize=65536)
def urlize(text: str) -> str:
    """Hugo-style URL segment for a term, title or file name: lowercase, spaces to '-', CJK kept, unsafe
    characters gone; always one safe path segment (and file name)."""
    normalized = unicodedata.normalize("NFC", str(text)).lower()
    characters = []
    for character in normalized:
        category = unicodedata.category(character)
        if character.isspace() or character in _SEPARATORS:
            characters.append("-")
        elif category[0] in "LNM" or character in _KEPT_PUNCTUATION:
            characters.append(character)
        # Everything else (quotes, ?, #, %, <, >, *, emoji, controls, NUL) is dropped, as Hugo does.
    # NFC again: a dropped character may have stood between a letter and its combining mark ("N<\u0300").
    segment = re.sub(r"-{2,}", "-", unicodedata.normalize("NFC", "".join(characters))).strip(_EDGE_JUNK)
    segment = _cap(segment)
    if not segment:
        # Nothing usable was left ("???", "..", ""): a stable name from the text itself.
        digest = hashlib.sha1(str(text).encode("utf-8", "surrogatepass")).hexdigest()[:8]
        segment = f"x-{digest}"
    stem, dot, rest = segment.partition(".")
    if stem in _WINDOWS_RESERVED:
        # "con", "nul.txt": Windows refuses these names with any extension; a suffix on the stem fixes it.
        segment = f"{stem}_{dot}{rest}"
    return segment


def _cap(segment: str) -> str:
    segment = segment[:_MAX_CHARACTERS]
    while len(segment.encode("utf-8", "surrogatepass")) > _MAX_BYTES:
        segment = segment[:-1]
    return segment.strip(_EDGE_JUNK)


def ascii_slug(title: str, *, max_length: int = 60) -> str:
    """A readable ASCII slug from a title: its Latin words and numbers, lower case, by hyphens ("" if none)."""
    folded = unicodedata.normalize("NFKD", title)
    words = re.findall(r"[a-z0-9]+", "".join(char for char in folded if ord(char) < 128).lower())
    slug = ""
    for word in dict.fromkeys(words):     # a word once: "part-1-verl", not "part-1-verl-verl"
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > max_length:
            break
        slug = candidate
    return slug


def url_to_output_path(url: str) -> str:
    """The output file a site URL is served from: '/posts/x/' -> 'posts/x/index.html'; '/feed.xml' -> 'feed.xml'."""
    path = url.lstrip("/")
    if not path or path.endswith("/"):
        return path + "index.html"
    if "." in posixpath.basename(path):
        return path
    return path + "/index.html"


def output_path_to_url(output_path: str) -> str:
    """The site URL an output file is served at: 'posts/x/index.html' -> '/posts/x/'; 'index.html' -> '/'."""
    if output_path == "index.html":
        return "/"
    if output_path.endswith("/index.html"):
        return "/" + output_path[: -len("index.html")]
    return "/" + output_path
