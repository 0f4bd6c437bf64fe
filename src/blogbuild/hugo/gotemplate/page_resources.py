"""A page bundle's `.Resources` as Hugo's templates see them: the bundle's files (each at the URL blogbuild
publishes it, beside the page), in Hugo's order (by resource type, then name), with `.GetMatch`, `.Match`
(Hugo's globs: case-insensitive, `*` within a folder, `**` across folders, `{a,b}`), `.ByType`, `.Get`; each
resource with `.Name`, `.Title`, `.RelPermalink`, `.Permalink`, `.MediaType`, `.ResourceType`, `.Params`, and
for a raster image `.Width` and `.Height` (read from the file) and Hugo's image processing (`.Resize`, `.Fit`,
`.Fill`, `.Crop`, made by pipes.py, published beside the page). A file of a type Hugo's media types do not name
and front matter's `resources` metadata are UnsupportedFields.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .objects import GoObject, Params, UnsupportedField

# Hugo's default media types by suffix (the ones a bundle commonly holds).
MEDIA_TYPES = {
    "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
    "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff", "svg": "image/svg+xml", "avif": "image/avif",
    "ico": "image/x-icon", "pdf": "application/pdf", "json": "application/json", "xml": "application/xml",
    "js": "text/javascript", "css": "text/css", "csv": "text/csv", "txt": "text/plain", "html": "text/html",
    "wasm": "application/wasm", "mp4": "video/mp4", "webm": "video/webm", "ogg": "audio/ogg", "mp3": "audio/mpeg",
    "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf", "yaml": "application/yaml",
    "yml": "application/yaml", "toml": "application/toml", "scss": "text/x-scss", "sass": "text/x-sass",
}
# The image types whose size Hugo reads (its processable formats).
_RASTER = frozenset({"jpg", "jpeg", "png", "gif", "webp", "bmp", "tif", "tiff"})
# What processes a bundle's image (.Resize, .Fit, .Fill, .Crop): pipes.py adds its processing here when it is
# imported (with Hugo's functions), so this module imports nothing of it. Called (target, file, name, action, spec).
IMAGE_PROCESSORS: list[Callable[[str, Path, str, str, Any], Any]] = []


class MediaType(GoObject):
    """A resource's media type: prints as `image/png`; `.Type`, `.MainType`, `.SubType`, `.Suffixes`."""

    kind = "media.Type"

    def __init__(self, media_type: str, suffix: str) -> None:
        self.Type = media_type
        self.MainType, _, self.SubType = media_type.partition("/")
        self.Suffixes = [name for name, value in MEDIA_TYPES.items() if value == media_type]
        self.FirstSuffix = _Suffix(self.Suffixes[0] if self.Suffixes else suffix)

    def __str__(self) -> str:
        return self.Type

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(self.Type)


class _Suffix(GoObject):
    kind = "media.SuffixInfo"

    def __init__(self, suffix: str) -> None:
        self.Suffix = suffix
        self.FullSuffix = "." + suffix


class PageResource(GoObject):
    """One file of a page bundle."""

    kind = "Resource"

    def __init__(self, name: str, path: Path, rel_url: str, permalink: str, target: str = "") -> None:
        suffix = name.rsplit(".", 1)[-1].lower() if "." in name.rsplit("/", 1)[-1] else ""
        media = MEDIA_TYPES.get(suffix)
        if media is None:
            raise UnsupportedField(f".Resources: the media type of {name!r} is not one blogbuild knows as Hugo's")
        self.Name = name
        self.Title = name
        self.RelPermalink = rel_url
        self.Permalink = permalink
        self.MediaType = MediaType(media, suffix)
        self.ResourceType = self.MediaType.MainType
        self.Params = Params()
        self.Data = Params()
        self._path = path
        self._suffix = suffix
        self.target = target or name   # its path in the output (the page's folder and its name)

    def __repr__(self) -> str:
        return f"PageResource({self.Name})"

    @functools.cached_property
    def _size(self) -> tuple[int, int]:
        if self._suffix not in _RASTER:
            raise UnsupportedField(f"Resource.Width of {self.Name!r}: Hugo reads the size of raster images only")
        from PIL import Image
        with Image.open(self._path) as image:
            return image.size

    @property
    def Width(self) -> int:  # noqa: N802
        return self._size[0]

    @property
    def Height(self) -> int:  # noqa: N802
        return self._size[1]

    def _process(self, action: str, spec: Any) -> Any:
        if self._suffix not in _RASTER:
            raise UnsupportedField(f"Resource.{action.title()} of {self.Name!r}: Hugo processes raster images only")
        if not IMAGE_PROCESSORS:
            raise UnsupportedField(f"Resource.{action.title()} of {self.Name!r}: no image processing is loaded")
        return IMAGE_PROCESSORS[0](self.target, self._path, self.Name, action, spec)

    def Resize(self, spec: Any) -> Any:  # noqa: N802 - Hugo's image processing (pipes.py)
        return self._process("resize", spec)

    def Fit(self, spec: Any) -> Any:  # noqa: N802
        return self._process("fit", spec)

    def Fill(self, spec: Any) -> Any:  # noqa: N802
        return self._process("fill", spec)

    def Crop(self, spec: Any) -> Any:  # noqa: N802
        return self._process("crop", spec)

    def Filter(self, *filters: Any) -> Any:  # noqa: N802
        return self._process("filter", filters)

    @property
    def Content(self) -> str:  # noqa: N802 - a text file's text, as Hugo gives it
        if self.ResourceType == "image":
            raise UnsupportedField(f"Resource.Content of the image {self.Name!r} is not supported")
        return self._path.read_text(encoding="utf-8")


class PageResources(list, GoObject):
    """A page's resources (a list, as range sees it) with Hugo's lookups."""

    kind = "Resources"

    def ByType(self, kind: Any) -> "PageResources":  # noqa: N802
        return PageResources(item for item in self if item.ResourceType == str(kind))

    def Get(self, name: Any) -> PageResource | None:  # noqa: N802
        wanted = str(name).lower().lstrip("/")
        return next((item for item in self if item.Name.lower() == wanted), None)

    def GetMatch(self, pattern: Any) -> PageResource | None:  # noqa: N802
        matches = _glob(str(pattern))
        return next((item for item in self if matches(item.Name)), None)

    def Match(self, pattern: Any) -> "PageResources":  # noqa: N802
        matches = _glob(str(pattern))
        return PageResources(item for item in self if matches(item.Name))

    @property
    def Len(self) -> int:  # noqa: N802
        return len(self)


def page_resources(files: Iterable[str], bundle_folder: str, content: Path, page_url: str,
                   site_url: Callable[[str], str], absolute_url: Callable[[str], str]) -> PageResources:
    """The resources of one bundle: its files (paths under content/), published beside the page's URL."""
    found = []
    for file in files:
        name = file[len(bundle_folder):]
        url = quote(page_url + name, safe="/:@!$&'()*+,;=-._~")
        found.append(PageResource(name, content / file, site_url(url), absolute_url(url),
                                  (page_url + name).lstrip("/")))
    return PageResources(sorted(found, key=lambda item: (item.ResourceType, item.Name)))


def bundle_resources(rel_path: str, files: Iterable[str], params: Mapping[str, Any], content: Path, page_url: str,
                     site_url: Callable[[str], str], absolute_url: Callable[[str], str]) -> PageResources | str:
    """A page's `.Resources`: a leaf bundle's (its index.md's) files, none for a page of its own file; or why
    blogbuild cannot give them as Hugo does (front matter's resources metadata, the bundle's other content
    files)."""
    folder = content / rel_path.rsplit("/", 1)[0] if "/" in rel_path else content
    if rel_path.rsplit("/", 1)[-1] == "_index.md" and folder.is_dir() and \
            any(path.is_file() and path.suffix != ".md" for path in folder.iterdir()):
        return f"a branch bundle's .Resources ({rel_path}) are not supported"
    if rel_path != "index.md" and not rel_path.endswith("/index.md"):
        return PageResources()
    if "resources" in params:
        return "front matter's resources metadata is not supported by blogbuild's translation"
    bundle = rel_path.rsplit("/", 1)[0] + "/" if "/" in rel_path else ""
    if any(path.name != "index.md" for path in (content / bundle).rglob("*.md")):
        return f"a bundle's content files as .Resources ({bundle}) are not supported"
    return page_resources(files, bundle, content, page_url, site_url, absolute_url)


@functools.lru_cache(maxsize=256)
def _glob(pattern: str) -> Callable[[str], bool]:
    """Hugo's glob over a resource name (both lower-cased, each with a leading slash; `/` separates)."""
    text = "/" + pattern.lower().lstrip("/")
    parts: list[str] = []
    index = 0
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
            end = text.find("}", index)
            if end < 0:
                raise UnsupportedField(f"the glob {pattern!r} has an unclosed {{")
            parts.append("(?:" + "|".join(re.escape(choice) for choice in text[index + 1:end].split(",")) + ")")
            index = end + 1
            continue
        elif char == "[":
            end = text.find("]", index)
            if end < 0:
                raise UnsupportedField(f"the glob {pattern!r} has an unclosed [")
            body = text[index + 1:end]
            parts.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            index = end + 1
            continue
        else:
            parts.append(re.escape(char))
        index += 1
    compiled = re.compile("".join(parts) + r"\Z")
    return lambda name: compiled.match("/" + name.lower().lstrip("/")) is not None
