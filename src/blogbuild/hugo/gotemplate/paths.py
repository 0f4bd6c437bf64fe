"""Go's `path` and `net/url` as Hugo's templates call them: `path.Join`, `path.Base`, `path.Dir`, `path.Ext`,
`path.Clean`, `path.Split`, `path.BaseName`, `urls.Parse` (Go's url.URL: objects.GoURL), `urls.JoinPath`,
`urls.PathEscape`, `urls.PathUnescape`: PATH_FUNCTIONS and URL_FUNCTIONS by member name."""
from __future__ import annotations

import functools
import re
from typing import Any, Callable

from .arithmetic import HugoFunctionError
from .escape import go_string, url_path_escape
from .go_url import go_clean
from .objects import GoObject, GoURL, UnsupportedField


def _is_list(value: Any) -> bool:
    return isinstance(value, (list, tuple))


def _path_join(*elements: Any) -> str:
    parts: list[str] = []
    for element in elements:
        if _is_list(element):
            parts += [go_string(item) for item in element]
        else:
            parts.append(go_string(element))
    joined = "/".join(part for part in parts if part)
    return go_clean(joined) if joined else ""


def _path_split(path: Any) -> "DirFile":
    value = go_string(path)
    index = value.rfind("/")
    return DirFile(value[:index + 1], value[index + 1:])


def _path_base(path: Any) -> str:
    value = go_string(path)
    if value == "":
        return "."
    value = value.rstrip("/")
    if value == "":
        return "/"
    return value.rsplit("/", 1)[-1]


def _path_dir(path: Any) -> str:
    value = go_string(path)
    return go_clean(value[:value.rfind("/") + 1])


def _path_ext(path: Any) -> str:
    value = go_string(path)
    last = value.rsplit("/", 1)[-1]
    index = last.rfind(".")
    return last[index:] if index >= 0 else ""


def _path_base_name(path: Any) -> str:
    base = _path_base(path)
    extension = _path_ext(base)
    return base[:-len(extension)] if extension else base


class DirFile(GoObject):
    """path.Split's result: .Dir and .File; prints as Dir|File (Hugo's DirFile)."""

    kind = "DirFile"

    def __init__(self, directory: str, file: str) -> None:
        self.Dir = directory
        self.File = file

    def __str__(self) -> str:
        return f"{self.Dir}|{self.File}"


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")


def _unescape(text: str, what: str) -> str:
    from urllib.parse import unquote
    if re.search(r"%(?![0-9A-Fa-f]{2})", text):
        bad = re.search(r"%.{0,2}", text[text.index("%"):])
        raise HugoFunctionError(f'parse "{text}": invalid URL escape "{bad.group(0) if bad else "%"}" in the {what}')
    return unquote(text, errors="strict")


def parse_url(text: Any) -> GoURL:
    """Go's url.Parse: scheme, //authority, path (unescaped), ?query (as written), #fragment (unescaped)."""
    return _parsed_url(go_string(text))


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@functools.lru_cache(maxsize=4096)
def _parsed_url(raw: str) -> GoURL:
    """parse_url's work, kept by the text (a URL is immutable): a theme parses its assets' URLs on every page."""
    if _CONTROL.search(raw):
        raise HugoFunctionError(f'parse "{raw}": net/url: invalid control character in URL')
    rest, _, fragment = raw.partition("#")
    raw_fragment = fragment if "#" in raw else ""
    scheme = ""
    match = re.match(r"([^:/?#]*):", rest)
    if match is not None:
        candidate = match.group(1)
        if candidate == "":
            raise HugoFunctionError(f'parse "{raw}": missing protocol scheme')
        if _SCHEME.fullmatch(candidate):
            scheme, rest = candidate.lower(), rest[len(candidate) + 1:]
    query = ""
    if "?" in rest:
        rest, query = rest.split("?", 1)
    fields: dict[str, str] = {"Scheme": scheme, "RawQuery": query}
    if raw_fragment:
        fields["Fragment"] = _unescape(raw_fragment, "fragment")
        if url_fragment_escape(fields["Fragment"]) != raw_fragment and _valid_encoded(raw_fragment):
            fields["RawFragment"] = raw_fragment
    if scheme and not rest.startswith("/"):
        fields["Opaque"] = rest
        return GoURL(**fields)
    if not scheme and ":" in rest.split("/", 1)[0]:
        raise HugoFunctionError(f'parse "{raw}": first path segment in URL cannot contain colon')
    if rest.startswith("//") and (scheme or not rest.startswith("///")):
        authority, slash, path = rest[2:].partition("/")
        rest = slash + path
        user, at, host = authority.rpartition("@")
        fields["user"] = user if at else ""
        fields["Host"] = _unescape(host, "host") if "%" in host and not host.startswith("[") else host
    fields["Path"] = _unescape(rest, "path")
    if url_path_escape(fields["Path"]) != rest and _valid_encoded(rest):
        fields["RawPath"] = rest
    return GoURL(**fields)


def _valid_encoded(raw: str) -> bool:
    """Go's validEncoded: a raw path or fragment keeps its own escaping only when it holds nothing that
    must be escaped (no space, no character outside ASCII)."""
    return all(char.isascii() and (char.isalnum() or char in "-._~!$&'()*+,;=:@[]%/") for char in raw)


def url_fragment_escape(fragment: str) -> str:
    """Go's escaping of a URL's fragment."""
    from urllib.parse import quote
    return quote(fragment, safe="!$&'()*+,;=:@/?~-._")


def _urls_join_path(*elements: Any) -> str:
    parts: list[str] = []
    for element in elements:
        parts += [go_string(item) for item in element] if _is_list(element) else [go_string(element)]
    if not parts:
        raise HugoFunctionError("urls.JoinPath needs at least one element")
    base = parse_url(parts[0])
    tail = "/".join(parts[1:])
    path = base.Path + ("/" + tail if tail else "")
    trailing = path.endswith("/") and path != "/"
    joined = go_clean("/" + path.lstrip("/")) if (base.Path.startswith("/") or base.Host) else go_clean(path)
    if not base.Path.startswith("/") and not base.Host and joined.startswith("/"):
        joined = joined[1:]
    if trailing and not joined.endswith("/"):
        joined += "/"
    from dataclasses import replace
    return replace(base, Path=joined, RawPath="").String


PATH_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "Join": _path_join, "Base": _path_base, "Dir": _path_dir, "Ext": _path_ext,
    "Clean": lambda path: go_clean(go_string(path)), "Split": _path_split, "BaseName": _path_base_name,
}
URL_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "Parse": parse_url, "JoinPath": _urls_join_path,
    "PathEscape": lambda text: __import__("urllib.parse").parse.quote(go_string(text), safe="!$&'()*+,;=:@~-._"),
    "PathUnescape": lambda text: _unescape(go_string(text), "path"),
}


# Pages' paths as Hugo's page model reads them (site_model.py; another language's site, translations.py).
_ESCAPE = re.compile(r"%[0-9a-f]{2}|[^\x00-\x7f]+", re.IGNORECASE)


def hugo_escapes(url: str) -> str:
    """A page's URL with its non-ASCII characters percent-encoded in upper case, as Hugo's permalinks are
    (`/tags/%E6%98%87/`; html/template's own escaping would write lower case)."""
    return _ESCAPE.sub(lambda found: found.group(0).upper() if found.group(0).startswith("%") else
                       "".join(f"%{byte:02X}" for byte in found.group(0).encode("utf-8")), url)


def logical_path(path: str) -> str:
    """A content path as Hugo's GetPage compares them: lower case, spaces as hyphens (Hugo's normalised paths:
    "/series/storage engines" is the term page /series/storage-engines), a leading slash, no .md, a bundle's index
    file as its folder."""
    text = "/" + path.strip().strip("/").lower().replace(" ", "-")
    for suffix in ("/_index.md", "/index.md", "_index.md", ".md"):
        if text.endswith(suffix):
            text = text[: -len(suffix)]
            break
    return text.rstrip("/") or "/"


def get_page_ref(refs: tuple[Any, ...]) -> str:
    """The one path of GetPage's arguments as Hugo's getPageOldVersion reads them: "" and "/" left out, a
    kind first then a path (the path), "home" or nothing the home page, "section" with an empty path too."""
    given = [str(ref) for ref in refs]
    kept = [ref for ref in given if ref not in ("", "/")]
    if len(kept) > 2:
        raise UnsupportedField(f"too many arguments to .Site.GetPage: {given}")
    if not kept or kept[0] == "home" or (len(kept) == 1 and len(given) == 2 and kept[0] == "section"):
        return "/"
    return kept[-1]
