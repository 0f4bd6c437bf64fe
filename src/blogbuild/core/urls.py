"""Slugs and URLs, one home: Hugo's two segment rules (urlize for a slug made from a title, path_segment for a
term and a content file's or folder's name), ASCII slugs for new files, URL <-> output path."""
from __future__ import annotations

import functools
import hashlib
import posixpath
import re
import unicodedata

_WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"] + [f"com{digit}" for digit in range(10)] + [f"lpt{digit}" for digit in range(10)]
)
# A path segment is also a file or folder name: 255 bytes on most file systems. A segment is cut to 250 bytes of
# UTF-8 (room for ".html" of an ugly URL); a shorter one is Hugo's whole, however long (a content file's long name).
_MAX_BYTES = 250
_SEPARATORS = frozenset("/\\|:;,")
_KEPT_PUNCTUATION = frozenset("-_.+~")
_PATH_PUNCTUATION = frozenset("-_.+~@")   # Hugo's path characters that are safe in one segment
_EDGE_JUNK = "-._~"


def url_origin(url: str) -> str:
    """The scheme and host of an absolute URL ('https://example.org'), before a path from the host's root; '' when
    the URL names none."""
    scheme, found, rest = str(url).partition("://")
    host = rest.split("/", 1)[0]
    return f"{scheme}://{host}" if found and scheme and host else ""


@functools.lru_cache(maxsize=65536)
def urlize(text: str) -> str:
    """Hugo's urlize, as a slug from a title is made: lowercase, spaces to '-', CJK kept, unsafe characters gone,
    runs of '-' made one and the ends trimmed; always one safe path segment (and file name)."""
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
    return _safe(_cap(segment), text)


@functools.lru_cache(maxsize=65536)
def path_segment(text: str) -> str:
    """Hugo's path of a term or a content file or folder: lowercase, each white-space character a '-', what
    Hugo keeps in a path (letters, digits, marks, . _ + ~ - @) kept, the rest dropped, and no run of '-' made one
    ("rss & atom" -> "rss--atom", "File Name (1).md" -> "file-name-1"); always one safe path segment, so the
    parts between the '/' or '\\' Hugo keeps are joined by '-', a '%' is dropped and so are dots at the end (a
    leading one stays, as in Hugo: ".NET" is ".net"), and a '#' is kept as a URL writes it ('%23')."""
    # A folder separator Hugo keeps joins the named parts by a "-" ("TCP/IP" -> "tcp-ip"; "../x" -> "x").
    parts = [part for part in re.split(r"[/\\]", str(text)) if part.strip() not in ("", ".", "..")]
    normalized = unicodedata.normalize("NFC", "-".join(parts)).lower()
    characters = []
    for character in normalized:
        if character.isspace():
            characters.append("-")
        elif unicodedata.category(character)[0] in "LNM" or character in _PATH_PUNCTUATION:
            characters.append(character)
        elif character == "#":   # Hugo keeps it ("C#" is /tags/c%23/): escaped in the URL, "#" in the file's name
            characters.append("%23")
    # A leading dot stays, as in Hugo (the tag ".NET" is /tags/.net/); trailing ones go (Windows drops them).
    segment = unicodedata.normalize("NFC", "".join(characters)).rstrip(".")
    return _safe(_cap(segment, "").rstrip("."), text)


@functools.lru_cache(maxsize=65536)
def term_path(text: str) -> str:
    """Hugo's path of a taxonomy term: path_segment's, but a "/" in the term is a folder, as Hugo keeps it
    ("TCP/IP" -> "tcp/ip", "移民/移居" -> "移民/移居"); each folder one safe segment, empty and dot folders left out."""
    parts = [path_segment(part) for part in str(text).split("/") if part.strip() not in ("", ".", "..")]
    return "/".join(parts) if len(parts) > 1 else path_segment(text)


def _path_character(text: str, index: int, char: str) -> bool:
    """Hugo's isAllowedPathCharacter: letters, decimal digits, marks, `. / \\ _ # + ~ - @` and a % that starts
    an escape."""
    if char == " ":
        return False
    category = unicodedata.category(char)
    if category[0] in "LM" or category == "Nd" or char in "./\\_#+~-@":
        return True
    return char == "%" and re.fullmatch(r"[0-9A-Fa-f]{2}", text[index + 1:index + 3]) is not None


def hugo_sanitize(text: str) -> str:
    """Hugo's paths.Sanitize: what a path may hold kept, anything else dropped, and white space a hyphen where
    something follows it and no hyphen stands next to it ("a - b" is "a-b", "a--b" stays, " x" is "x")."""
    out: list[str] = []
    pending_hyphen = was_hyphen = False
    for index, char in enumerate(text):
        if _path_character(text, index, char):
            was_hyphen = char == "-"
            if pending_hyphen and not was_hyphen:
                out.append("-")
            pending_hyphen = False
            out.append(char)
        elif out and not was_hyphen and char.isspace():
            pending_hyphen = True
    return "".join(out)


def permalink_path(expanded: str) -> str:
    """A permalink pattern filled in with a page's raw names, as Hugo makes its path (checked against the binary):
    without its trailing "/", the whole path sanitized (hugo_sanitize), decoded as a query string ("+" a space,
    then each %XX escape), sanitized again and lower-cased: "AI+深度" is "ai-深度", "+x" after a "/" is "-x",
    "w + x" is "w--x", "p%2Bq" is "p+q", "50%" is "50". Each folder is then one safe file name (a "#" and a "%"
    dropped, where Hugo writes %23: blogbuild's URLs are the paths themselves; Windows' reserved names and the
    length capped as urlize caps them)."""
    trailing = expanded.endswith("/") and expanded != "/"
    body = expanded.rstrip("/") if trailing else expanded
    sanitized = hugo_sanitize(unescape_path(hugo_sanitize(body).replace("+", " "))).lower()
    segments = []
    for segment in sanitized.split("/"):
        cleaned = segment.replace("\\", "").replace("#", "").replace("%", "")
        segments.append(_safe(_cap(cleaned, "").rstrip("."), segment) if segment else "")
    return "/".join(segments) + ("/" if trailing else "")


_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def unescape_path(text: str) -> str:
    """text with its percent-escapes decoded, as Hugo decodes a permalink's parts ("%E4%BB%8A" is "今", "a%41b" is
    "aAb"); a "%" that starts no escape stays for the path rules to drop ("50%" -> "50"), and bytes that are no
    UTF-8 become U+FFFD, which they drop too."""
    if "%" not in text:
        return text
    return _ESCAPES.sub(lambda found: bytes.fromhex(found.group(0).replace("%", "")).decode("utf-8", "replace"), text)


def _safe(segment: str, text: str) -> str:
    """A segment that can be a file name on every system: a stable name when nothing usable is left, and
    Windows' reserved names ("con", "nul.txt") with a suffix on the stem."""
    if not segment:
        # Nothing usable was left ("???", "..", ""): a stable name from the text itself.
        digest = hashlib.sha1(str(text).encode("utf-8", "surrogatepass")).hexdigest()[:8]
        segment = f"x-{digest}"
    stem, dot, rest = segment.partition(".")
    if stem in _WINDOWS_RESERVED:
        segment = f"{stem}_{dot}{rest}"
    return segment


def _cap(segment: str, edges: str = _EDGE_JUNK) -> str:
    if len(segment) * 4 > _MAX_BYTES:   # only a segment that may pass the cap is measured
        encoded = segment.encode("utf-8", "surrogatepass")
        if len(encoded) > _MAX_BYTES:
            segment = encoded[:_MAX_BYTES].decode("utf-8", "ignore")   # a character cut in two is left out
    return segment.strip(edges)


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
    """The output file a site URL is served from: '/posts/x/' -> 'posts/x/index.html'; '/feed.xml' -> 'feed.xml';
    '/tags/c%23/' -> 'tags/c#/index.html' (the one escape a site's own URLs hold)."""
    path = url.lstrip("/").replace("%23", "#")
    if not path or path.endswith("/"):
        return path + "index.html"
    if "." in posixpath.basename(path):
        return path
    return path + "/index.html"


def output_path_to_url(output_path: str) -> str:
    """The site URL an output file is served at: 'posts/x/index.html' -> '/posts/x/'; 'index.html' -> '/'; a "#" in
    a name escaped ('tags/c#/index.html' -> '/tags/c%23/')."""
    output_path = output_path.replace("#", "%23")
    if output_path == "index.html":
        return "/"
    if output_path.endswith("/index.html"):
        return "/" + output_path[: -len("index.html")]
    return "/" + output_path
