"""A resource's media type as Hugo gives it: by its file's suffix, from Hugo's own media types, else from the
system's MIME database as Go's `mime.TypeByExtension` reads it, else none.

Hugo (0.168, checked against the binary on bundles and assets of ~40 suffixes): a file without a suffix is
`application/octet-stream`; a suffix one of Hugo's default media types lists (any case: `PIC.JPG`) gives that
type, with the type's suffixes (`.jpe` is `image/jpeg`, `[jpg jpeg jpe jif jfif]`, first suffix `jpg`; `.xml`
is `application/xml`, not `application/rss+xml`); any other suffix is looked up, lower-cased, in Go's MIME
table (`.py` `text/x-python`, `.zip` `application/zip`, `.ipynb` `application/x-ipynb+json`), the type then
having that one suffix; a suffix found in neither (`.code-workspace`, `.drawio`) gives the zero type: it prints
as "", and so do its main type, subtype and the resource's type. Go's table is its few built-in types, then the
freedesktop database (`/usr/local/share/mime/globs2`, else `/usr/share/mime/globs2`: each `*.ext` glob, the
first of a suffix kept), else the `mime.types` files Apache's and Debian's packages install, read once per
process: the same machine gives the same answers as Hugo there.
"""
from __future__ import annotations

import functools
from .objects import GoObject

# Hugo's default media types and their suffixes, as `hugo config` lists them.
HUGO_TYPES: dict[str, tuple[str, ...]] = {
    "application/json": ("json",), "application/manifest+json": ("webmanifest",),
    "application/octet-stream": (), "application/pdf": ("pdf",), "application/rss+xml": ("xml", "rss"),
    "application/source-map": ("map",), "application/toml": ("toml",), "application/wasm": ("wasm",),
    "application/xml": ("xml",), "application/yaml": ("yaml", "yml"), "font/otf": ("otf",), "font/ttf": ("ttf",),
    "font/woff": ("woff",), "font/woff2": ("woff2",), "image/avif": ("avif",), "image/bmp": ("bmp",),
    "image/gif": ("gif",), "image/heic": ("heic",), "image/heif": ("heif",),
    "image/jpeg": ("jpg", "jpeg", "jpe", "jif", "jfif"), "image/png": ("png",), "image/svg+xml": ("svg",),
    "image/tiff": ("tif", "tiff"), "image/webp": ("webp",), "text/asciidoc": ("adoc", "asciidoc", "ad"),
    "text/calendar": ("ics",), "text/css": ("css",), "text/csv": ("csv",), "text/html": ("html", "htm"),
    "text/javascript": ("js", "jsm", "mjs"), "text/jsx": ("jsx",), "text/markdown": ("md", "mdown", "markdown"),
    "text/org": ("org",), "text/pandoc": ("pandoc", "pdc"), "text/plain": ("txt",), "text/rst": ("rst",),
    "text/tsx": ("tsx",), "text/typescript": ("ts",), "text/x-gotmpl": ("gotmpl",), "text/x-sass": ("sass",),
    "text/x-scss": ("scss",), "video/3gpp": ("3gpp", "3gp"), "video/mp4": ("mp4",), "video/mpeg": ("mpg", "mpeg"),
    "video/ogg": ("ogv",), "video/webm": ("webm",), "video/x-msvideo": ("avi",),
}


def _by_suffix() -> dict[str, str]:
    """A suffix's Hugo type: the first type listing it, but `xml` is application/xml (as Hugo answers)."""
    found = {"xml": "application/xml"}
    for media_type, suffixes in HUGO_TYPES.items():
        for suffix in suffixes:
            found.setdefault(suffix, media_type)
    return found


BY_SUFFIX = _by_suffix()
OCTET_STREAM = "application/octet-stream"
# The raster images Hugo reads the size of and processes, by suffix, with the format a processed one is written in
# unless converted.
RASTER_FORMATS = {"jpg": "jpg", "jpeg": "jpg", "jpe": "jpg", "jif": "jpg", "jfif": "jpg", "png": "png", "gif": "gif",
                  "webp": "webp", "tif": "tif", "tiff": "tif", "bmp": "bmp"}

# Go's built-in table (mime/type.go), which the system's files do not override in a globs2 database.
_GO_BUILTIN = {
    ".avif": "image/avif", ".css": "text/css; charset=utf-8", ".gif": "image/gif",
    ".htm": "text/html; charset=utf-8", ".html": "text/html; charset=utf-8", ".jpeg": "image/jpeg",
    ".jpg": "image/jpeg", ".js": "text/javascript; charset=utf-8", ".json": "application/json",
    ".mjs": "text/javascript; charset=utf-8", ".pdf": "application/pdf", ".png": "image/png",
    ".svg": "image/svg+xml", ".wasm": "application/wasm", ".webp": "image/webp", ".xml": "text/xml; charset=utf-8",
}
_GLOBS = ("/usr/local/share/mime/globs2", "/usr/share/mime/globs2")
_TYPE_FILES = ("/etc/mime.types", "/etc/apache2/mime.types", "/etc/apache/mime.types", "/etc/httpd/conf/mime.types")
_MOST = 8 << 20   # bytes read of a system table: they are tens of kilobytes


def suffix_of(name: str) -> str:
    """The lower-cased suffix of a file's name ("gz" of "a.tar.gz"), "" without one."""
    last = name.rsplit("/", 1)[-1]
    return last.rsplit(".", 1)[-1].lower() if "." in last else ""


def media_type_of(name: str) -> "MediaType":
    """The media type Hugo gives a resource of this file name."""
    suffix = suffix_of(name)
    if not suffix:
        return MediaType(OCTET_STREAM, "")
    if suffix in BY_SUFFIX:
        return MediaType(BY_SUFFIX[suffix], suffix)
    return MediaType(type_by_extension("." + suffix), suffix)


def type_by_extension(extension: str) -> str:
    """Go's mime.TypeByExtension: the exact extension, else its lower case; "" when the table has neither."""
    exact, lower = _go_table()
    return exact.get(extension) or lower.get(extension.lower(), "")


@functools.cache
def _go_table() -> tuple[dict[str, str], dict[str, str]]:
    exact, lower = dict(_GO_BUILTIN), dict(_GO_BUILTIN)
    for path in _GLOBS:
        lines = _lines(path)
        if lines is None:
            continue
        for line in lines:   # weight:type:glob[:flags], heaviest first: a suffix's first entry is kept
            fields = line.split(":")
            if len(fields) < 3 or not fields[0] or len(fields[2]) < 3 or fields[0].startswith("#") \
                    or not fields[2].startswith("*."):
                continue
            extension = fields[2][1:]
            if any(mark in extension for mark in "?*[") or extension in exact:
                continue
            _store(exact, lower, extension, fields[1])
        return exact, lower
    for path in _TYPE_FILES:   # no database: the mime.types files, a later entry replacing an earlier
        for line in _lines(path) or ():
            fields = line.split()
            if len(fields) <= 1 or fields[0].startswith("#"):
                continue
            for extension in fields[1:]:
                if extension.startswith("#"):
                    break
                _store(exact, lower, "." + extension, fields[0])
    return exact, lower


def _lines(path: str) -> list[str] | None:
    try:
        with open(path, "rb") as handle:
            return handle.read(_MOST).decode("utf-8", "replace").splitlines()
    except OSError:
        return None


def _store(exact: dict[str, str], lower: dict[str, str], extension: str, mime: str) -> None:
    if mime.startswith("text/") and "charset=" not in mime:   # Go gives a text type its charset
        mime += "; charset=utf-8"
    exact[extension] = mime
    lower[extension.lower()] = mime


class MediaType(GoObject):
    """A resource's media type: prints as `image/png` ("" for none), as `.String` does; `.Type`, `.MainType`, `.SubType`,
    `.Suffixes`, `.FirstSuffix`. A Hugo type has its own suffixes; one from the MIME table the file's suffix."""

    kind = "media.Type"

    def __init__(self, media_type: str, suffix: str) -> None:
        main, _, rest = media_type.split(";", 1)[0].strip().lower().partition("/")
        sub, _, mime_suffix = rest.partition("+")
        self.MainType, self.SubType = (main, sub) if rest else ("", "")
        self.Type = f"{main}/{sub}" + (f"+{mime_suffix}" if mime_suffix else "") if rest else ""
        known = HUGO_TYPES.get(self.Type)
        self.Suffixes = list(known) if known is not None else [suffix] if self.Type and suffix else []
        self.FirstSuffix = _Suffix(self.Suffixes[0] if self.Suffixes else "")

    def __str__(self) -> str:
        return self.Type

    @property
    def String(self) -> str:  # noqa: N802 - Hugo's media.Type.String()
        return self.Type

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(self.Type)


class _Suffix(GoObject):
    kind = "media.SuffixInfo"

    def __init__(self, suffix: str) -> None:
        self.Suffix = suffix
        self.FullSuffix = "." + suffix if suffix else ""
