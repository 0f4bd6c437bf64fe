"""Request paths to output files, content types, and the live-reload script tag (no server, no disk)."""
from __future__ import annotations

import mimetypes
import os
import urllib.parse
from importlib import resources
from typing import Any, Mapping
from ..core.records import dataclass

EVENTS_PATH = "/__blogbuild/events"
STATUS_PATH = "/__blogbuild/status"
SCRIPT_PATH = "/__blogbuild/reload.js"


@dataclass(frozen=True)
class Resolved:
    """Where a request path leads: 200 and an output path, 301 and a location, 400 or 404."""

    status: int
    path: str = ""
    location: str = ""


def resolve_request_path(target: str, files: Mapping[str, Any]) -> Resolved:
    """Map a request target to a file of the build; anything that tries to leave the site is 400."""
    raw_path, _, query = target.partition("?")
    raw_path = raw_path.partition("#")[0]
    # Only origin-form paths; no absolute URLs, backslashes, NULs, doubled slashes or encoded separators.
    if not raw_path.startswith("/") or "\\" in raw_path or "\x00" in raw_path or "//" in raw_path:
        return Resolved(400)
    lowered = raw_path.lower()
    if "%00" in lowered or "%2f" in lowered or "%5c" in lowered:
        return Resolved(400)
    try:
        path = urllib.parse.unquote(raw_path, errors="strict")
    except UnicodeDecodeError:
        return Resolved(400)
    if any(ord(character) < 32 or ord(character) == 127 for character in path):
        return Resolved(400)
    if any(segment in (".", "..") for segment in path.split("/")):
        return Resolved(400)
    relative = path[1:]
    if relative == "" or relative.endswith("/"):
        index = relative + "index.html"
        return Resolved(200, index) if index in files else Resolved(404)
    if relative in files:
        return Resolved(200, relative)
    if relative + "/index.html" in files:
        # Like Hugo and every static host: /posts/x -> /posts/x/ so relative links keep working.
        return Resolved(301, location=raw_path + "/" + ("?" + query if query else ""))
    return Resolved(404)


_TYPES = {
    ".html": "text/html", ".htm": "text/html", ".css": "text/css", ".js": "text/javascript",
    ".mjs": "text/javascript", ".json": "application/json", ".map": "application/json",
    ".xml": "application/xml", ".xsl": "application/xslt+xml", ".txt": "text/plain", ".md": "text/plain",
    ".svg": "image/svg+xml", ".webmanifest": "application/manifest+json", ".png": "image/png",
    ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
    ".avif": "image/avif", ".ico": "image/x-icon", ".woff2": "font/woff2", ".woff": "font/woff",
    ".ttf": "font/ttf", ".otf": "font/otf", ".pdf": "application/pdf", ".wasm": "application/wasm",
    ".mp4": "video/mp4", ".webm": "video/webm",
}
_TEXT_TYPES = frozenset({"application/json", "application/xml", "application/xslt+xml", "image/svg+xml",
                         "application/manifest+json", "application/javascript"})


def content_type(path: str) -> str:
    """The Content-Type of an output path, with charset=utf-8 for text."""
    suffix = os.path.splitext(path)[1].lower()
    kind = _TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind in _TEXT_TYPES:
        return f"{kind}; charset=utf-8"
    return kind


def inject_reload_script(html: bytes, generation: int, page: str) -> bytes:
    """The page with the live-reload script tag before its last </body> (appended when there is none)."""
    # Percent-encoded with only "/" kept, so the attribute needs no HTML escaping.
    tag = (f'<script src="{SCRIPT_PATH}" data-generation="{generation}" '
           f'data-page="{urllib.parse.quote(page, safe="/")}"></script>').encode()
    index = html.lower().rfind(b"</body>")
    if index < 0:
        return html + tag
    return html[:index] + tag + html[index:]


_SCRIPT_CACHE: dict[str, bytes] = {}


def reload_script() -> bytes:
    """The bytes of js/reload.js (package data)."""
    if "script" not in _SCRIPT_CACHE:
        _SCRIPT_CACHE["script"] = resources.files("blogbuild").joinpath("js/reload.js").read_bytes()
    return _SCRIPT_CACHE["script"]


