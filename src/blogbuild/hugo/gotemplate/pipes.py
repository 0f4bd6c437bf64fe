"""Hugo Pipes for a site's own page layouts: the `resources` namespace (Get, GetMatch, Match, ByType,
FromString, Concat, Minify, Fingerprint, ExecuteAsTemplate, ToCSS), `minify`, `fingerprint`, `css.Sass` /
`toCSS` (sass.py compiles), `js.Build` (with esbuild when the site or the PATH has it, else for a script whose
one import is `@params`), and image processing
(`.Resize`, `.Fit`, `.Fill`, `.Crop`) of assets and of a bundle's images.

Assets are read from the site's `assets/`, then each theme's `themes/NAME/assets/` (first wins, Hugo's union
file system), only where their real path is inside the site. A resource is published when a template reads
its `.RelPermalink` or `.Permalink` (never for `.Content`), at Hugo's target path: the asset's own, Concat's
and FromString's target, `.min` before the extension after Minify, `.<hex digest>` after fingerprint,
`NAME_hu_<hash>.EXT` for a processed image, `.css` for `.scss` after css.Sass (its source map, `.css.map`, goes
with the CSS and whatever is made of it, and with its `.Content`, as Hugo publishes it when it compiles). What a render publishes is recorded (target path -> sha256 of the
bytes, the bytes kept once by their digest in the engine's folder): the page engine makes those records output
files beside the page (hugo/site_theme.py).

Every read is bounded (MAX_ASSET_BYTES, MAX_IMAGE_PIXELS, MAX_RESOURCES); an asset blogbuild cannot give as
Hugo does is a HugoFunctionError naming the function and the asset.
"""
from __future__ import annotations

import base64
import contextlib
import contextvars
import functools
import hashlib
import json
import os
import posixpath
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2

from ...core.names import is_inside, theme_folders
from .escape import go_string
from .objects import GoObject, HugoFunctionError, Params, UnsupportedField, _Namespace, truthy
from .media_types import RASTER_FORMATS, MediaType, media_type_of, suffix_of
from .site_files import IMAGE_CONFIG
from .page_resources import _RASTER, IMAGE_PROCESSORS, PageResource, PageResources, _glob, process_action
from .parse import GoTemplateError
from .image_filters import NAMES as FILTER_NAMES, ImageFilter, apply_filter
from .sass import QuotedString, SassOptions, SassPlace, SassSource, UnquotedString, compile_sass, sass_options

MAX_ASSET_BYTES = 32 * 1024 * 1024       # an asset (or a concatenation) larger than this is refused
MAX_IMAGE_PIXELS = 64 * 1024 * 1024      # an image with more pixels than this is not decoded
MAX_IMAGE_SIDE = 16384                   # nor one asked to be processed to a side longer than this
MAX_RESOURCES = 20000                    # resources one engine makes (a template making them in a loop stops)
MAX_ASSET_FILES = 20000                  # files listed in the assets folders

# Hugo's names of image formats in a processing spec, with the suffix and Pillow's format.
_FORMATS = {"jpg": ("jpg", "JPEG"), "jpeg": ("jpg", "JPEG"), "png": ("png", "PNG"), "gif": ("gif", "GIF"),
            "webp": ("webp", "WEBP"), "tif": ("tif", "TIFF"), "tiff": ("tif", "TIFF"), "bmp": ("bmp", "BMP")}
_ANCHORS = {"smart", "center", "topleft", "top", "topright", "left", "right", "bottomleft", "bottom",
            "bottomright"}
_FILTERS = {"nearestneighbor", "box", "linear", "hermite", "mitchellnetravali", "catmullrom", "bspline",
            "gaussian", "lanczos", "hann", "hamming", "blackman", "bartlett", "welch", "cosine"}
_HINTS = {"picture", "photo", "drawing", "icon", "text"}


@dataclass
class AssetFiles:
    """The assets folders in lookup order (the site's, then each theme's) and the real folders a read may
    reach."""

    folders: tuple[Path, ...]
    allowed: tuple[str, ...]
    roots: tuple[Path, ...] = ()     # the site folder, then each theme's (where Sass's includePaths are)
    _names: list[tuple[str, Path]] | None = field(default=None, repr=False, compare=False)
    _found: dict[str, Path | None] = field(default_factory=dict, repr=False, compare=False)

    def find(self, name: str) -> Path | None:
        """The file of that name under the first folder that has it, when its real path is allowed. Looked up
        once per name (every page's head asks for the same stylesheets): the folders' files are part of the
        templates key, so an engine, made again when they change, sees one set of files."""
        if name in self._found:
            return self._found[name]
        found = self._find(name)
        self._found[name] = found   # a link out of the site raised: asked again, it raises again
        return found

    def _find(self, name: str) -> Path | None:
        name = name.strip().lstrip("/")
        if not name or any(part in ("", ".", "..") for part in name.split("/")):
            return None
        for folder in self.folders:
            path = folder / name
            if path.is_file():
                if not is_inside(os.path.realpath(path), self.allowed):
                    raise HugoFunctionError(f"the asset {name!r} is a link out of the site (to "
                                            f"{os.path.realpath(path)}); a build reads nothing outside the site "
                                            "folder: copy the file into assets/")
                return path
        return None

    def names(self) -> list[tuple[str, Path]]:
        """Every asset (name, file), the union of the folders, first wins, sorted by name (lower-cased first, as
        Hugo walks them); links out of the site are left out. Listed once: the folders' files are part of the
        templates key, so an engine (made again when they change) sees one listing."""
        if self._names is None:
            self._names = self._list()
        return self._names

    @functools.cached_property
    def published_names(self) -> list[tuple[str, Path]]:
        """The assets `resources.Match` and `ByType` look through: every one (a suffix Hugo has no type for
        gives the zero type, media_types.py)."""
        return self.names()

    def _list(self) -> list[tuple[str, Path]]:
        found: dict[str, Path] = {}
        count = 0
        for folder in self.folders:
            if not folder.is_dir():
                continue
            for directory, subfolders, files in os.walk(folder, followlinks=False):   # a linked folder is not walked
                subfolders.sort()
                for file in sorted(files):
                    path = Path(directory) / file
                    count += 1
                    if count > MAX_ASSET_FILES:
                        raise HugoFunctionError(f"the assets folders hold more than {MAX_ASSET_FILES} files")
                    if not path.is_file() or not is_inside(os.path.realpath(path), self.allowed):
                        continue
                    found.setdefault(path.relative_to(folder).as_posix(), path)
        # In the order of Hugo's file tree, whose keys are the lower-cased paths (what resources.Match returns
        # of a folder's files of one media type).
        return sorted(found.items(), key=lambda item: (item[0].lower(), item[0]))

    def digest(self) -> str:
        """A digest of every asset's name and bytes: what the pages that use assets depend on (each file's bytes
        digested once a process while its status stands: the templates key has read them already)."""
        from ...core.cache_keys import file_digest
        digest = hashlib.blake2b(digest_size=16)
        try:
            for name, path in self.names():
                digest.update(f"\x00{name}\x00".encode("utf-8", "surrogateescape"))
                digest.update(file_digest(str(path)))
        except (OSError, HugoFunctionError) as error:
            digest.update(f"\x00unreadable {error}".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()


def asset_files(root: Path, themes: Sequence[str], allowed: tuple[str, ...]) -> AssetFiles:
    """A Hugo site's assets folders: assets/, then each configured theme's assets/ (themes/NAME/ or its vendored
    module's folder)."""
    roots = [root, *theme_folders(root, themes)]
    return AssetFiles(tuple(folder / "assets" for folder in roots), allowed, tuple(roots))


@dataclass
class Pipes:
    """One engine's Hugo Pipes: its assets, the site's URL rules, where published bytes are kept by digest
    (None: in memory), and the resources made so far (each made once, by what it is made of)."""

    assets: AssetFiles
    site_url: Callable[[str], str]           # "/css/x.css" -> the URL a page links (with the base path)
    absolute_url: Callable[[str], str]
    # A Go template's text as its translation (translate.Translation) or GoTemplateError: ExecuteAsTemplate's.
    translate: Callable[[str], Any] | None = None
    store: Path | None = None
    made: dict[str, "Resource"] = field(default_factory=dict)
    matched: dict[str, Any] = field(default_factory=dict)   # resources.Match's assets by pattern, as made
    kept: dict[str, bytes] = field(default_factory=dict)   # digest -> bytes when there is no store

    def new_build(self) -> None:
        """A new build's resources are made again (an asset or a bundle's image may have changed)."""
        self.made.clear()
        self.matched.clear()

    def resource(self, key: str, make: Callable[[], "Resource"]) -> "Resource":
        known = self.made.get(key)
        if known is None:
            if len(self.made) >= MAX_RESOURCES:
                raise HugoFunctionError(f"the templates make more than {MAX_RESOURCES} resources")
            known = self.made[key] = make()
        return known

    def keep(self, data: bytes) -> str:
        """The bytes kept once by their digest; the digest."""
        digest = hashlib.sha256(data).hexdigest()
        if self.store is None:
            self.kept.setdefault(digest, data)
            return digest
        path = self.stored(digest)
        if not path.exists():
            from ...core.atomic import write_atomically
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, data)
        return digest

    def stored(self, digest: str) -> Path:
        assert self.store is not None
        return self.store / digest[:2] / digest

    def __getstate__(self) -> dict[str, Any]:
        # A worker process is given the assets, the URL rules and the store; resources are made again there.
        return {**self.__dict__, "made": {}, "matched": {}}


_RENDER: contextvars.ContextVar[tuple[Pipes, dict[str, str]] | None] = contextvars.ContextVar("pipes", default=None)


@contextlib.contextmanager
def publishing(pipes: Pipes) -> Iterator[dict[str, str]]:
    """A render with Hugo Pipes: what it publishes (target path -> digest) fills the dict; the images it had
    processed in threads are made before it ends (an error in one is the render's)."""
    published: dict[str, str] = {}
    token = _RENDER.set((pipes, published))
    try:
        yield published
    finally:
        _RENDER.reset(token)
        for target, digest in published.items():
            if isinstance(digest, Future):
                published[target] = digest.result()


_THREADS: tuple[int, ThreadPoolExecutor] | None = None


def _image_threads() -> ThreadPoolExecutor:
    """This process's threads for image processing (a forked worker makes its own: threads do not fork): one a
    core, at most four, so that the pictures decoded at once stay a few (a 2,880 px photo is ~25 MB of pixels)."""
    global _THREADS
    if _THREADS is None or _THREADS[0] != os.getpid():
        _THREADS = (os.getpid(), ThreadPoolExecutor(max_workers=min(os.cpu_count() or 1, 4),
                                                    thread_name_prefix="blogbuild-images"))
    return _THREADS[1]


def publish_recorded(files: Sequence[tuple[str, str]]) -> None:
    """Files a page's content published when the markdown stage rendered it ((target, digest), kept in the store),
    published by the render that reads that content, as Hugo publishes them when a template renders it."""
    current = _RENDER.get()
    if current is not None and files:
        current[1].update(files)


def publishing_active() -> bool:
    """Whether this render publishes through Hugo Pipes (a site's own layouts, and the content of their pages)."""
    return _RENDER.get() is not None


def _current(what: str) -> tuple[Pipes, dict[str, str]]:
    current = _RENDER.get()
    if current is None:
        raise UnsupportedField(f"{what} runs where the site's own page layouts render it (its layouts, their "
                               "partials, and its pages' shortcodes and render hooks), not under blogbuild's "
                               "default theme nor in an extension partial")
    return current


def safe_target(path: str) -> bool:
    """Whether a target path stays inside the output folder (no '..', no absolute path, no empty segment)."""
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and "\\" not in path and \
        all(part not in ("", ".", "..") for part in parts)


def _target(text: Any, what: str) -> str:
    """A target path as a template writes it ("assets/css/x.css", "/js/app.js"), checked."""
    path = go_string(text).strip().lstrip("/")
    if not safe_target(path):
        raise HugoFunctionError(f"{what}: the target path {go_string(text)!r} leaves the site's output folder or "
                                "is empty; give a path like css/site.css")
    return path


_PIPES_CALL = re.compile(r"\b(?:resources\.[A-Z]\w*|js\.Build|css\.Sass|toCSS|fingerprint|minify)\b")


def pipes_outside_layouts(text: str) -> str:
    """Where a template that does not render pages (a shortcode, an extension partial the default theme runs)
    uses Hugo Pipes, as "line:col: message"; "" when it does not."""
    found = _PIPES_CALL.search(text)
    if found is None:
        return ""
    line = text.count("\n", 0, found.start()) + 1
    column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
    return (f"{line}:{column}: {found.group(0)}: blogbuild runs Hugo Pipes in a site's own page layouts only, not "
            "in a partial the default theme runs")



class Resource(GoObject):
    """A resource of Hugo Pipes: its bytes made on first need; published when its URL is read."""

    kind = "Resource"

    def __init__(self, name: str, target: str, make: Callable[[], bytes], *, what: str,
                 integrity: str = "", media: MediaType | None = None,
                 sidecars: Sequence["Resource"] = ()) -> None:
        self.Name = self.Title = name   # an asset's "/css/x.css", a bundle file's "photo.jpg", as in Hugo
        self.target = target.lstrip("/")
        # The asset it was made from, through resources.ExecuteAsTemplate: where Sass resolves its imports.
        self.origin = self.target
        self.MediaType = media or media_type_of(target)
        self.ResourceType = self.MediaType.MainType
        self.Params = Params()
        self.Data = Params({"Integrity": integrity} if integrity else {})
        self.what = what          # how the resource was made, for messages
        self.file: Path | None = None    # an asset's file
        self.sidecars = tuple(sidecars)  # published with it (a stylesheet's source map)
        self._make = make
        self._bytes: bytes | None = None
        self._made = threading.Lock()    # made once, whichever thread asks first (ImageResource)
        self._kept: Any = None   # the digest of the bytes once they are kept (an image's: a Future of it)

    def __repr__(self) -> str:
        return f"Resource({self.target})"

    def bytes(self) -> bytes:
        with self._made:
            if self._bytes is None:
                data = self._make()
                if len(data) > MAX_ASSET_BYTES:
                    raise HugoFunctionError(f"{self.what}: {self.target} is larger than {MAX_ASSET_BYTES} bytes")
                self._bytes = data
        return self._bytes

    def _publish(self) -> str:
        pipes, published = _current(f"the URL of {self.target}")
        if self._kept is None:   # once per resource: a stylesheet every page links is hashed and stored once
            self._kept = pipes.keep(self.bytes())
        published[self.target] = self._kept
        for sidecar in self.sidecars:
            sidecar._publish()
        return quote("/" + self.target, safe="/:@!$&'()*+,;=-._~")

    @property
    def RelPermalink(self) -> str:  # noqa: N802 - Hugo's names
        pipes, _ = _current("RelPermalink")
        return pipes.site_url(self._publish())

    @property
    def Permalink(self) -> str:  # noqa: N802
        pipes, _ = _current("Permalink")
        return pipes.absolute_url(self._publish())

    @property
    def Publish(self) -> str:  # noqa: N802 - publishes the resource at its path, and prints nothing, as in Hugo
        self._publish()
        return ""

    @property
    def Content(self) -> str:  # noqa: N802 - a text resource's text; publishes nothing, as in Hugo
        if self.ResourceType == "image" and suffix_of(self.target) in _RASTER:   # an SVG's is its text
            raise HugoFunctionError(f"{self.what}: .Content of the image {self.target} is not supported")
        if self.sidecars and _RENDER.get() is not None:   # Hugo publishes a source map when it compiles
            for sidecar in self.sidecars:
                sidecar._publish()
        try:
            return self.bytes().decode("utf-8")
        except UnicodeDecodeError:
            raise HugoFunctionError(f"{self.what}: {self.target} is not UTF-8 text") from None

    # -- images ------------------------------------------------------------------------------------
    def _image(self) -> "ImageSource":
        if suffix_of(self.target) not in _RASTER:
            raise HugoFunctionError(f"{self.what}: {self.target} is not an image Hugo processes")
        return self._image_source

    @functools.cached_property
    def _image_source(self) -> "ImageSource":
        return ImageSource(self.target, self.bytes, self.what)

    @property
    def Width(self) -> int:  # noqa: N802
        return self._image().size[0]

    @property
    def Height(self) -> int:  # noqa: N802
        return self._image().size[1]

    @functools.cached_property
    def Colors(self) -> list[Any]:  # noqa: N802 - the dominant colours, as Hugo finds them
        from .image_colors import colors_of
        return colors_of(self._image().data, self.what)

    def Resize(self, spec: Any) -> "Resource":  # noqa: N802
        return process(self._image(), "resize", spec, self.Name)

    def Fit(self, spec: Any) -> "Resource":  # noqa: N802
        return process(self._image(), "fit", spec, self.Name)

    def Fill(self, spec: Any) -> "Resource":  # noqa: N802
        return process(self._image(), "fill", spec, self.Name)

    def Crop(self, spec: Any) -> "Resource":  # noqa: N802
        return process(self._image(), "crop", spec, self.Name)

    def Filter(self, *filters: Any) -> "Resource":  # noqa: N802
        return process(self._image(), "filter", filters, self.Name)

    def Process(self, spec: Any) -> "Resource":  # noqa: N802 - Hugo 0.119's: an action and its options in one text
        return process(self._image(), *process_action(spec, lambda: self._image().size), self.Name)


class ImageResource(Resource):
    """A processed image: its size known from the spec, its pixels made when it is published, in a thread of the
    process beside the render (Pillow decodes, resizes and encodes without the interpreter's lock, so a page
    listing twenty pictures has them made on every core while its templates go on); the render waits for them
    when it ends (publishing)."""

    def __init__(self, name: str, target: str, make: Callable[[], bytes], *, what: str,
                 size: tuple[int, int]) -> None:
        super().__init__(name, target, make, what=what)
        self._size = size
        # A filtered image's source and filters: filtering it again filters the source once with all of them
        # (a theme drawing a card in ten .Filter steps decodes and encodes it once, not ten times).
        self.filtered: "tuple[ImageSource, tuple[ImageFilter, ...]] | None" = None

    def Filter(self, *filters: Any) -> "Resource":  # noqa: N802
        if self.filtered is None:
            return super().Filter(*filters)
        source, earlier = self.filtered
        return process(source, "filter", (*earlier, *_filters(filters, self.what)), self.Name)

    def _publish(self) -> str:
        pipes, published = _current(f"the URL of {self.target}")
        if self._kept is None:
            self._kept = _image_threads().submit(lambda: pipes.keep(self.bytes()))
        published[self.target] = self._kept   # its digest when publishing ends
        return quote("/" + self.target, safe="/:@!$&'()*+,;=-._~")

    @property
    def Width(self) -> int:  # noqa: N802
        return self._size[0]

    @property
    def Height(self) -> int:  # noqa: N802
        return self._size[1]


@dataclass
class ImageSource:
    """An image to process: its target path (the processed files go beside it), its bytes and what it is."""

    target: str
    data: Callable[[], bytes]
    what: str

    @functools.cached_property
    def size(self) -> tuple[int, int]:
        """Its width and height, read from its header (an image of more than MAX_IMAGE_PIXELS is refused)."""
        import io

        from PIL import Image, UnidentifiedImageError
        try:
            with Image.open(io.BytesIO(self.data())) as image:
                width, height = image.size
        except (UnidentifiedImageError, OSError, ValueError) as error:
            raise HugoFunctionError(f"{self.what}: {self.target} is not an image Pillow reads ({error})") from None
        if width * height > MAX_IMAGE_PIXELS:
            raise HugoFunctionError(f"{self.what}: {self.target} has more than {MAX_IMAGE_PIXELS} pixels")
        return width, height


# ---------------------------------------------------------------------------- image processing

@dataclass(frozen=True)
class _Spec:
    width: int
    height: int
    format: str            # the output suffix: jpg, png, webp, …
    quality: int
    rotate: int
    anchor: str
    background: str


def _parse_spec(spec: str, action: str, source_suffix: str, what: str) -> _Spec:
    width = height = 0
    form, quality, rotate, anchor, background = RASTER_FORMATS.get(source_suffix, "png"), 75, 0, "smart", ""
    sized = False
    for token in spec.lower().split():
        size = re.fullmatch(r"(\d*)x(\d*)", token)
        if size:
            width, height = int(size.group(1) or 0), int(size.group(2) or 0)
            sized = True
        elif token in _FORMATS:
            form = _FORMATS[token][0]
        elif re.fullmatch(r"q\d{1,3}", token) and 1 <= int(token[1:]) <= 100:
            quality = int(token[1:])
        elif re.fullmatch(r"r-?\d{1,3}", token):
            rotate = int(token[1:]) % 360
            if rotate % 90:
                raise HugoFunctionError(f"{what}: .{action.title()} {spec!r}: blogbuild turns images by multiples of "
                                        "90 degrees only")
        elif token in _ANCHORS:
            anchor = token
        elif re.fullmatch(r"#[0-9a-f]{3}(?:[0-9a-f]{3})?", token):
            background = token
        elif token in _FILTERS or token in _HINTS:
            continue
        else:
            raise HugoFunctionError(f"{what}: .{action.title()} {spec!r}: {token!r} is not an image option "
                                    "Hugo knows")
    if not sized or (width == 0 and height == 0):
        raise HugoFunctionError(f"{what}: .{action.title()} {spec!r} needs a size (WIDTHx, xHEIGHT or WIDTHxHEIGHT)")
    if action != "resize" and (width == 0 or height == 0):
        raise HugoFunctionError(f"{what}: .{action.title()} {spec!r} needs both a width and a height")
    if max(width, height) > MAX_IMAGE_SIDE:
        raise HugoFunctionError(f"{what}: .{action.title()} {spec!r} is larger than {MAX_IMAGE_SIDE} pixels a side")
    return _Spec(width, height, form, quality, rotate, anchor, background)


def _round(value: float) -> int:
    return max(1, int(value + 0.5))


def _target_size(source: tuple[int, int], action: str, spec: _Spec) -> tuple[int, int]:
    """The processed image's size, as Hugo computes it."""
    width, height = source
    if spec.rotate in (90, 270):
        width, height = height, width
    if action == "resize":
        if spec.width and spec.height:
            return spec.width, spec.height
        if spec.width:
            return spec.width, _round(height * spec.width / width)
        return _round(width * spec.height / height), spec.height
    if action == "fit":
        if width <= spec.width and height <= spec.height:
            return width, height
        if width / height > spec.width / spec.height:
            return spec.width, _round(height * spec.width / width)
        return _round(width * spec.height / height), spec.height
    if action == "fill":
        return spec.width, spec.height
    if spec.anchor == "smart" and spec.width > width and spec.height > height:
        # Hugo's smart crop of a box larger than the image both ways: the box scaled down into the image
        scale = min(width / spec.width, height / spec.height)
        return min(width, _round(spec.width * scale)), min(height, _round(spec.height * scale))
    return min(spec.width, width), min(spec.height, height)   # crop: the box, cut to the image


def process(image: ImageSource, action: str, spec: Any, name: str, version: str = "") -> Resource:
    """Image processing (Resize, Fit, Fill, Crop) as a resource published beside the image, named
    `NAME_hu_<hash>.EXT` as Hugo names it (the hash is blogbuild's); version tells two states of one file
    apart (a bundle's image edited while serving)."""
    pipes, _ = _current(f".{action.title()}")
    source_suffix = suffix_of(image.target)
    filters: tuple[ImageFilter, ...] = ()
    if action == "filter":
        filters = _filters(spec, image.what)
        text = " ".join(item.describe() for item in filters)
        parsed = _Spec(0, 0, RASTER_FORMATS.get(source_suffix, "png"), 75, 0, text, "")
    else:
        text = go_string(spec)
        parsed = _parse_spec(text, action, source_suffix, image.what)
    key = f"image\x00{action}\x00{text}\x00{image.target}\x00{version}"

    def make() -> Resource:
        source_digest = hashlib.sha256(image.data()).hexdigest()
        size = _filtered_size(image, filters) if action == "filter" else _target_size(image.size, action, parsed)
        if max(size) > MAX_IMAGE_SIDE or size[0] * size[1] > MAX_IMAGE_PIXELS:
            raise HugoFunctionError(f"{image.what}: .{action.title()} {text!r} would make an image of "
                                    f"{size[0]}x{size[1]} pixels, more than blogbuild makes")
        tag = hashlib.sha256(f"{source_digest}\x00{action}\x00{parsed}".encode()).hexdigest()[:16]
        folder, _, file = image.target.rpartition("/")
        stem, _, written = file.rpartition(".")
        stem = re.sub(r"_hu_[0-9a-f]{16}$", "", stem)   # a processed image's: its source's name
        # The source's suffix as written (.jpeg, .JPG) while the format stays its own, as Hugo keeps it.
        suffix = written if stem and parsed.format == RASTER_FORMATS.get(source_suffix) else parsed.format
        target = (folder + "/" if folder else "") + f"{stem}_hu_{tag}.{suffix}"
        made = ImageResource(name, target, lambda: _processed(image, action, parsed, size, filters),
                             what=f"{image.what} .{action.title()} {text!r}", size=size)
        made.filtered = (image, filters) if action == "filter" else None
        return made
    return pipes.resource(key, make)


def _processed(image: ImageSource, action: str, spec: _Spec, size: tuple[int, int],
               filters: Sequence[ImageFilter] = ()) -> bytes:
    import io

    from PIL import Image, ImageOps
    image.size   # noqa: B018 - the bound on pixels, before decoding
    with Image.open(io.BytesIO(image.data())) as opened:
        opened.load()
        # A palette or one-bit image is scaled in full colour (Pillow scales those by the nearest pixel).
        picture = opened.convert("RGBA") if opened.mode in ("P", "PA", "1", "LA") else opened.copy()
    if spec.rotate:   # Hugo's rN turns counter-clockwise
        picture = picture.rotate(spec.rotate, expand=True)
    width, height = size
    if action == "filter":   # the filters, in the order given (AutoOrient turns the pixels as the EXIF says)
        for item in filters:
            picture = apply_filter(picture, item)
    elif action in ("resize", "fit"):
        picture = picture.resize((width, height), Image.Resampling.LANCZOS)
    elif action == "fill":
        picture = ImageOps.fit(picture, (width, height), Image.Resampling.LANCZOS,
                               centering=_centering(spec.anchor))
    else:
        cx, cy = _centering(spec.anchor)
        left = int((picture.width - width) * cx)
        top = int((picture.height - height) * cy)
        picture = picture.crop((left, top, left + width, top + height))
    form = next(value[1] for value in _FORMATS.values() if value[0] == spec.format)
    if form in ("JPEG", "BMP") and picture.mode not in ("RGB", "L"):   # no transparency: on the background
        converted = picture.convert("RGBA")
        background = Image.new("RGB", picture.size, spec.background or "#ffffff")
        background.paste(converted, mask=converted.split()[-1])
        picture = background
    out = io.BytesIO()
    options: dict[str, Any] = {"quality": spec.quality} if form in ("JPEG", "WEBP") else {}
    picture.save(out, format=form, **options)
    return out.getvalue()


_KNOWN_FILTERS = frozenset(FILTER_NAMES)


def _filters(given: Any, what: str) -> tuple[ImageFilter, ...]:
    """The filters of a Filter call, nested lists flattened (Hugo's rule); one blogbuild lacks is an error."""
    found: list[ImageFilter] = []
    for item in given if isinstance(given, (list, tuple)) else [given]:
        if isinstance(item, (list, tuple)):
            found += _filters(item, what)
        elif isinstance(item, ImageFilter) and item.name in _KNOWN_FILTERS:
            found.append(item)
        else:
            raise HugoFunctionError(f"{what}: .Filter of {go_string(item)!r}: blogbuild applies images.AutoOrient, "
                                    "Brightness, Contrast, Gamma, GaussianBlur, Grayscale, Hue, Invert, Opacity, "
                                    "Overlay, Pixelate, Saturation, Sepia and Text")
    if not found:
        raise HugoFunctionError(f"{what}: .Filter needs at least one filter")
    return tuple(found)


def _filtered_size(image: "ImageSource", filters: Sequence[ImageFilter]) -> tuple[int, int]:
    """The size of the image once filtered: AutoOrient's turn (once: the turned image has no orientation left),
    Padding's margins; the other filters keep it."""
    width, height = image.size
    turned = False
    for item in filters:
        if item.name == "autoorient" and not turned:
            turned = True
            if _oriented_size(image) != image.size:
                width, height = height, width
        elif item.name == "padding":
            width, height = width + item.args[1] + item.args[3], height + item.args[0] + item.args[2]
    if width < 1 or height < 1:
        raise HugoFunctionError(f"{image.what}: images.Padding leaves an image of {width}x{height} pixels")
    return width, height


def _oriented_size(image: "ImageSource") -> tuple[int, int]:
    """The image's size once turned as its EXIF orientation says (5 to 8 swap width and height)."""
    import io

    from PIL import Image
    width, height = image.size
    with Image.open(io.BytesIO(image.data())) as opened:
        orientation = opened.getexif().get(0x0112, 1)
    return (height, width) if orientation in (5, 6, 7, 8) else (width, height)


def _images_filter(*arguments: Any) -> Resource:
    """images.Filter FILTERS… IMAGE: the image with the filters applied."""
    if len(arguments) < 2:
        raise HugoFunctionError("images.Filter takes one or more filters, then an image")
    image = arguments[-1]
    apply = getattr(image, "Filter", None)
    if apply is None:
        raise HugoFunctionError(f"images.Filter: {go_string(image)!r} is not an image resource")
    return apply(*arguments[:-1])


def _centering(anchor: str) -> tuple[float, float]:
    """Where Fill and Crop cut: the anchor's point (Hugo's `smart` finds the interesting part; blogbuild's is
    the centre)."""
    x = 0.0 if "left" in anchor else 1.0 if "right" in anchor else 0.5
    y = 0.0 if anchor.startswith("top") else 1.0 if anchor.startswith("bottom") else 0.5
    return x, y


# ---------------------------------------------------------------------------- resources.*

def _read(path: Path, name: str) -> Callable[[], bytes]:
    def read() -> bytes:
        try:
            size = path.stat().st_size
            if size > MAX_ASSET_BYTES:
                raise HugoFunctionError(f"resources.Get: the asset {name} is larger than {MAX_ASSET_BYTES} bytes")
            with open(path, "rb") as handle:
                return handle.read(MAX_ASSET_BYTES + 1)
        except OSError as error:
            raise HugoFunctionError(f"resources.Get: cannot read the asset {name}: {error.strerror}") from None
    return read


def _asset(pipes: Pipes, name: str, path: Path) -> Resource:
    def make() -> Resource:
        made = Resource("/" + name, name, _read(path, name), what=f"the asset {name}")
        made.file = path
        return made
    return pipes.resource(f"get\x00{name}", make)


def _get(name: Any) -> Resource | None:
    """resources.Get: the asset, or nil when there is none (as in Hugo)."""
    pipes, _ = _current("resources.Get")
    text = go_string(name).strip().lstrip("/")
    path = pipes.assets.find(text)
    return None if path is None else _asset(pipes, text, path)


def _all() -> PageResources:
    pipes, _ = _current("resources")
    return PageResources(_asset(pipes, name, path) for name, path in pipes.assets.published_names)


def _match(pattern: Any) -> PageResources:
    """resources.Match: the assets whose name the glob matches, found once per build (PaperMod's head asks on
    every page)."""
    pipes, _ = _current("resources.Match")
    text = go_string(pattern)
    found = pipes.matched.get(text)
    if found is None:
        matches = _glob(text)
        found = pipes.matched[text] = PageResources(item for item in _all() if matches(item.Name))
    return found


def _get_match(pattern: Any) -> Resource | None:
    found = _match(pattern)
    return found[0] if found else None


def _by_type(kind: Any) -> PageResources:
    return PageResources(item for item in _all() if item.ResourceType == go_string(kind))


def _resource(value: Any, what: str) -> Resource:
    if isinstance(value, Resource):
        return value
    if value is None:
        raise HugoFunctionError(f"{what}: got nil, not a resource (is an asset missing? resources.Get gives nil "
                                "for a file that is in no assets folder)")
    if isinstance(value, PageResource):
        return _page_resource(value, what)
    raise HugoFunctionError(f"{what}: {go_string(value)[:60]!r} is not a resource")


def file_version(path: Path) -> str:
    """A file's size and mtime: which state of a content file a resource was made from."""
    try:
        stat = path.stat()
    except OSError:
        return ""
    return f"{stat.st_size}:{stat.st_mtime_ns}"


def page_image(target: str, path: Path, name: str, action: str, spec: Any) -> Resource:
    """A bundle's image (target: its path under the site's URL) processed, as process() does for assets."""
    read = _read(path, target)
    return process(ImageSource(target, functools.cache(read), f"the page resource {target}"), action, spec, name,
                   file_version(path))


def _page_resource(value: Any, what: str) -> Resource:
    """A bundle's file as a resource of Hugo Pipes (its bytes read from the content folder)."""
    pipes, _ = _current(what)
    target = getattr(value, "target", "")
    path = getattr(value, "_path", None)
    if not target or path is None:
        raise HugoFunctionError(f"{what}: {value!r} is not a resource blogbuild can transform")
    return pipes.resource(f"page\x00{target}\x00{file_version(path)}",
                          lambda: Resource(value.Name, target, _read(path, target), what=f"the page resource {target}"))


def _from_string(target: Any, content: Any) -> Resource:
    pipes, _ = _current("resources.FromString")
    name = _target(target, "resources.FromString")
    data = go_string(content).encode("utf-8")
    return pipes.resource(f"string\x00{name}\x00{hashlib.sha256(data).hexdigest()}",
                          lambda: Resource("/" + name, name, lambda: data, what=f"resources.FromString {name}"))


def _copy(target: Any, value: Any) -> Resource:
    """resources.Copy TARGET RESOURCE: the resource published at the target path instead (a processed image stays
    an image of its size)."""
    pipes, _ = _current("resources.Copy")
    name = _target(target, "resources.Copy")
    source = _resource(value, "resources.Copy")

    def make() -> Resource:
        what = f"resources.Copy {name}"
        if isinstance(source, ImageResource):
            return ImageResource(source.Name, name, source.bytes, what=what, size=(source.Width, source.Height))
        return Resource("/" + name, name, source.bytes, what=what, media=source.MediaType, sidecars=source.sidecars)
    return pipes.resource(f"copy\x00{name}\x00{id(source)}", make)


def _concat_key(name: str, parts: list[Any]) -> str:
    """A concatenation's key among the build's resources: its target and the very resources it joins."""
    return f"concat\x00{name}\x00" + "\x00".join(str(id(part)) for part in parts)


def _concat(target: Any, items: Any) -> Resource:
    pipes, _ = _current("resources.Concat")
    name = _target(target, "resources.Concat")
    flat: list[Any] = []
    for item in items or ():   # a list inside the list (append of a slice) gives its resources
        flat.extend(item if isinstance(item, (list, tuple)) else [item])
    if flat and all(type(item) is Resource for item in flat):   # made by an earlier call (every page's head)
        known = pipes.made.get(_concat_key(name, flat))
        if known is not None:
            return known
    parts = [_resource(item, f"resources.Concat {name}") for item in flat]
    if not parts:
        raise HugoFunctionError(f"resources.Concat {name}: no resources to concatenate")
    kinds = {str(part.MediaType) for part in parts}
    if len(kinds) > 1:
        raise HugoFunctionError(f"resources.Concat {name}: resources of different media types ({', '.join(sorted(kinds))})")
    media = media_type_of(name)

    def join() -> bytes:
        out = bytearray()
        for index, part in enumerate(parts):
            data = part.bytes()
            if index and str(media) == "text/javascript":
                out += b"\n;\n"   # Hugo's separator between two scripts
            out += data
            if len(out) > MAX_ASSET_BYTES:
                raise HugoFunctionError(f"resources.Concat {name}: larger than {MAX_ASSET_BYTES} bytes")
        return bytes(out)
    return pipes.resource(_concat_key(name, parts),   # each made once
                          lambda: Resource("/" + name, name, join, what=f"resources.Concat {name}", media=media,
                                           sidecars=[sidecar for part in parts for sidecar in part.sidecars]))


def _minify(value: Any) -> Resource:
    source = _resource(value, "resources.Minify")
    pipes, _ = _current("resources.Minify")
    folder, _, file = source.target.rpartition("/")
    stem, dot, suffix = file.rpartition(".")
    target = (folder + "/" if folder else "") + (f"{stem}.min.{suffix}" if dot else f"{file}.min")
    kind = str(source.MediaType)

    def minified() -> bytes:
        text = source.bytes().decode("utf-8", "replace")
        return minify_text(text, kind, source.what).encode("utf-8")
    return pipes.resource(f"minify\x00{id(source)}", lambda: Resource(
        source.Name, target, minified, what=f"resources.Minify of {source.target}", media=source.MediaType,
        sidecars=source.sidecars))


def minify_text(text: str, media_type: str, what: str) -> str:
    """CSS with rcssmin, JavaScript with rjsmin, JSON re-encoded without spaces, SVG, HTML and XML with comments and
    white space between tags dropped. The bytes are not those of Hugo's minifier (tdewolff/minify)."""
    try:
        if media_type == "text/css":
            import rcssmin  # type: ignore[import-not-found,import-untyped,unused-ignore]
            return str(rcssmin.cssmin(text))
        if media_type == "text/javascript":
            import rjsmin  # type: ignore[import-not-found,import-untyped,unused-ignore]
            return str(rjsmin.jsmin(text)).strip()
    except ImportError as error:
        raise HugoFunctionError(f"{what}: the minifier {error.name} is not installed (reinstall blogbuild: it "
                                "is one of its dependencies)") from None
    if media_type == "application/json":
        try:
            return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
        except ValueError as error:
            raise HugoFunctionError(f"{what}: not JSON ({error})") from None
    if media_type in ("text/html", "image/svg+xml", "application/xml"):
        return re.sub(r">\s+<", "><", re.sub(r"<!--.*?-->", "", text, flags=re.S)).strip()
    raise HugoFunctionError(f"{what}: blogbuild does not minify {media_type}")


_ALGORITHMS = {"sha256": "sha256", "sha384": "sha384", "sha512": "sha512", "md5": "md5"}


def _fingerprint(*arguments: Any) -> Resource:
    if not arguments or len(arguments) > 2:
        raise HugoFunctionError("fingerprint takes a resource and, before it, an algorithm")
    algorithm = go_string(arguments[0]) if len(arguments) == 2 else "sha256"
    source = _resource(arguments[-1], "resources.Fingerprint")
    if algorithm not in _ALGORITHMS:
        raise HugoFunctionError(f"resources.Fingerprint: {algorithm!r} is not one of Hugo's algorithms "
                                "(sha256, sha384, sha512, md5)")
    pipes, _ = _current("resources.Fingerprint")

    def make() -> Resource:
        data = source.bytes()
        digest = hashlib.new(algorithm, data).digest()
        folder, _, file = source.target.rpartition("/")
        stem, dot, suffix = file.rpartition(".")
        named = f"{stem}.{digest.hex()}.{suffix}" if dot else f"{file}.{digest.hex()}"
        integrity = f"{algorithm}-{base64.b64encode(digest).decode()}"
        return Resource(source.Name, (folder + "/" if folder else "") + named, lambda: data,
                        what=f"resources.Fingerprint of {source.target}", integrity=integrity,
                        media=source.MediaType, sidecars=source.sidecars)
    return pipes.resource(f"fingerprint\x00{algorithm}\x00{id(source)}", make)


def _execute_as_template(context: jinja2.runtime.Context, target: Any, dot: Any, value: Any) -> Resource:
    """resources.ExecuteAsTemplate: the resource's text run as a Go template (text/template: no HTML
    escaping) with dot."""
    source = _resource(value, "resources.ExecuteAsTemplate")
    pipes, _ = _current("resources.ExecuteAsTemplate")
    name = _target(target, "resources.ExecuteAsTemplate")
    state = context["_state"]
    text = source.Content
    if pipes.translate is None:
        raise UnsupportedField("resources.ExecuteAsTemplate needs the translator of a page engine")
    translation = pipes.translate(text)
    if isinstance(translation, GoTemplateError):
        raise HugoFunctionError(f"resources.ExecuteAsTemplate: {source.target}:{translation.line}:"
                                f"{translation.column}: {translation.message}")
    rendered = _as_text(context.environment, translation.main).render(dot=dot, site=state.site, _state=state)
    data = rendered.encode("utf-8")
    def make() -> Resource:
        made = Resource(source.Name, name, lambda: data, what=f"resources.ExecuteAsTemplate {name}",
                        media=media_type_of(name))
        made.origin = source.origin   # Hugo's Sass finds the imports beside the template's asset
        return made
    return pipes.resource(f"template\x00{name}\x00{source.origin}\x00{hashlib.sha256(data).hexdigest()}", make)


@functools.lru_cache(maxsize=64)
def _as_text(environment: jinja2.Environment, jinja_source: str) -> jinja2.Template:
    """A translation compiled as text/template runs it: the same names and functions as the environment's,
    values printed as they are (no HTML escaping, no escaper for what html/template would call an attribute)."""
    return _text_environment(environment).from_string(jinja_source)


@functools.lru_cache(maxsize=4)
def _text_environment(environment: jinja2.Environment) -> jinja2.Environment:
    text = environment.overlay(autoescape=False, finalize=go_string)
    text.filters = {name: _as_it_is for name in environment.filters}
    return text


def _as_it_is(value: Any, *arguments: Any) -> Any:
    return value


# ---------------------------------------------------------------------------- css.Sass

def _to_css(*arguments: Any) -> Resource:
    """css.Sass (toCSS, resources.ToCSS): a .scss or .sass resource compiled by LibSass as Hugo compiles it
    (sass.py), published at `targetPath` or at the source's path with `.css`."""
    if not arguments or len(arguments) > 2:
        raise HugoFunctionError("css.Sass takes a resource and, before it, an options map or a target path")
    source = _resource(arguments[-1], "css.Sass")
    what = f"css.Sass of {source.target}"
    options = sass_options(arguments[0] if len(arguments) == 2 else None, what)
    pipes, _ = _current("css.Sass")
    if options.target_path:
        target = _target(options.target_path, "css.Sass")
    else:
        folder, _, file = source.target.rpartition("/")
        target = (folder + "/" if folder else "") + (file.rsplit(".", 1)[0] if "." in file else file) + ".css"

    def make() -> Resource:
        compiled = functools.cache(lambda: _compiled(pipes, source, options, target))
        sidecars = [Resource(source.Name, target + ".map", lambda: (compiled()[1] or "").encode("utf-8"),
                             what=f"the source map of {what}", media=MediaType("application/json", "map"))
                    ] if options.source_map else []
        return Resource(source.Name, target, lambda: compiled()[0].encode("utf-8"), what=what,
                        media=MediaType("text/css", "css"), sidecars=sidecars)
    return pipes.resource(f"sass\x00{id(source)}\x00{target}\x00{options!r}", make)


def _compiled(pipes: Pipes, source: Resource, options: SassOptions, target: str) -> tuple[str, str | None]:
    assets = pipes.assets

    def absolute(path: Path) -> Path:   # LibSass's paths, and the source map's root, are absolute, as in Hugo
        return Path(os.path.abspath(path))

    def find(name: str) -> Path | None:
        found = assets.find(name)
        return None if found is None else absolute(found)
    roots = tuple(absolute(path) for path in assets.roots or (assets.folders[0].parent,))
    site_path = source.target
    if source.file is not None:
        with contextlib.suppress(ValueError):
            site_path = absolute(source.file).relative_to(roots[0]).as_posix()
    place = SassPlace(roots[0], tuple(absolute(folder) for folder in assets.folders), roots[1:], assets.allowed, find)
    entry = SassSource(source.Content, source.origin, site_path, suffix_of(source.target) == "sass")
    return compile_sass(entry, options, place, target.rpartition("/")[2])


# ---------------------------------------------------------------------------- js.Build

_PARAMS_IMPORT = re.compile(
    r"""^[ \t]*import\s+(?:\*\s+as\s+(?P<star>[A-Za-z_$][\w$]*)|(?P<default>[A-Za-z_$][\w$]*)|"""
    r"""\{(?P<names>[^}]*)\})\s+from\s+(?P<quote>['"])@params(?P=quote)\s*;?[ \t]*$""", re.M)
_ANY_IMPORT = re.compile(r"""^[ \t]*(?:import\b(?!\s*\()|export\b)[^\n]*""", re.M)


# What only a bundler transforms (esbuild's loaders in Hugo): TypeScript and JSX.
NEEDS_BUNDLER = frozenset({"ts", "tsx", "jsx"})


def unbundled_script(name: str) -> str:
    """What js.Build of a TypeScript or JSX asset gives without esbuild: a script that says it was not bundled
    (the build warns where a layout asks for it: hugo/page_layouts.py)."""
    return (f"/* js.Build of {name}: not bundled, there is no esbuild to compile TypeScript or JSX; install it in "
            "the site (npm install --save-exact esbuild) or on the PATH */\n")


def _build_arguments(arguments: tuple[Any, ...], what: str, example: str
                     ) -> tuple[Resource, dict[str, Any], Pipes]:
    """js.Build's and css.Build's arguments: (the resource, the options map with lower-case keys, the render's
    Pipes); the options may be left out."""
    if not arguments or len(arguments) > 2:
        raise HugoFunctionError(f"{what} takes a resource and, before it, an options map")
    options = arguments[0] if len(arguments) == 2 else {}
    source = _resource(arguments[-1], what)
    pipes, _ = _current(what)
    if not isinstance(options, Mapping):
        raise HugoFunctionError(f"{what}: the options must be a map ({example})")
    return source, {str(key).lower(): value for key, value in options.items()}, pipes


def _js_build(*arguments: Any) -> Resource:
    """js.Build: with esbuild when there is one (_esbuild); else of a single script whose only import is
    `@params`, an IIFE with the params as a module object (the bytes are not esbuild's), any other import or
    export an error, and TypeScript and JSX give unbundled_script() (a warning names the layout's line)."""
    source, lowered, pipes = _build_arguments(arguments, "js.Build", 'dict "params" …')
    bundler = esbuild_binary(pipes.assets.roots[0] if pipes.assets.roots else None)
    if bundler is not None:
        return _esbuild(pipes, source, lowered, bundler)
    if suffix_of(source.target) in NEEDS_BUNDLER:
        target = _target(lowered["targetpath"], "js.Build") if lowered.get("targetpath") else \
            re.sub(r"\.(?:ts|tsx|jsx)$", ".js", source.target)
        return pipes.resource(f"js\x00{id(source)}\x00{target}", lambda: Resource(
            source.Name, target, lambda: unbundled_script(source.target).encode("utf-8"),
            what=f"js.Build of {source.target}", media=MediaType("text/javascript", "js")))
    unknown = set(lowered) - {"params", "targetpath", "minify", "target", "format", "sourcemap"}
    if unknown:
        raise HugoFunctionError(f"js.Build of {source.target}: the option(s) {', '.join(sorted(unknown))} are not "
                                "supported by blogbuild (it has no bundler)")
    if go_string(lowered.get("format") or "iife") != "iife":
        raise HugoFunctionError(f"js.Build of {source.target}: only the iife format is supported by blogbuild")
    params = lowered.get("params") or {}
    target = _target(lowered["targetpath"], "js.Build") if lowered.get("targetpath") else \
        re.sub(r"\.(?:mjs|jsm|ts|tsx|jsx)$", ".js", source.target)
    minified = bool(lowered.get("minify"))

    def build() -> bytes:
        text = source.Content
        blocks: list[str] = []

        def params_import(match: re.Match[str]) -> str:
            if match.group("star") or match.group("default"):
                blocks.append(f"var {match.group('star') or match.group('default')} = __params;")
            else:
                for part in match.group("names").split(","):
                    name, _, alias = part.strip().partition(" as ")
                    if name.strip():
                        blocks.append(f"var {(alias or name).strip()} = __params[{json.dumps(name.strip())}];")
            return ""
        body = _PARAMS_IMPORT.sub(params_import, text)
        other = _ANY_IMPORT.search(body)
        if other is not None:
            line = text[:text.find(other.group(0).strip())].count("\n") + 1
            raise HugoFunctionError(f"js.Build of {source.target}:{line}: {other.group(0).strip()[:80]!r} is not "
                                    "supported: blogbuild bundles a single script whose only import is '@params' "
                                    "(it has no esbuild); bundle the script yourself and load it with resources.Get")
        encoded = json.dumps(_plain(params), ensure_ascii=False, sort_keys=True, indent=2, default=str)
        script = ("(() => {\n  // @params\n  var __params = Object.freeze(" + encoded.replace("\n", "\n  ")
                  + ");\n  " + "\n  ".join(blocks) + "\n\n  // " + source.target + "\n  "
                  + body.strip("\n").replace("\n", "\n  ") + "\n})();\n")
        if minified:
            script = minify_text(script, "text/javascript", f"js.Build of {source.target}") + "\n"
        return script.encode("utf-8")
    key = f"js\x00{id(source)}\x00{target}\x00{minified}\x00{json.dumps(_plain(params), sort_keys=True, default=str)}"
    return pipes.resource(key, lambda: Resource(source.Name, target, build, what=f"js.Build of {source.target}",
                                                media=MediaType("text/javascript", "js")))


# A CSS @import of a file (not a URL): `@import "x.css";`, `@import url(x.css);`, with its media list kept.
_CSS_IMPORT = re.compile(r"""/\*.*?\*/|@import\s+(?:url\(\s*)?(["']?)([^"')\s;]+)\1\s*\)?\s*([^;]*);[ \t]*\n?""",
                         re.S)   # a comment is passed over as it is
_CSS_IMPORT_DEPTH = 32


def _css_build(*arguments: Any) -> Resource:
    """css.Build: a stylesheet with its @import of the site's assets put in its place (a file once, in order,
    as a bundler does; a URL, or an import under a media query, kept as written and moved first, where CSS
    allows an import), minified when asked, at targetPath; bundled by blogbuild (the bytes are not esbuild's,
    so neither is the fingerprint). A source map is not written."""
    source, lowered, pipes = _build_arguments(arguments, "css.Build", 'dict "minify" true …')
    unknown = set(lowered) - {"minify", "sourcemap", "sourcescontent", "targetpath", "target", "externals"}
    if unknown:
        raise HugoFunctionError(f"css.Build of {source.target}: the option(s) {', '.join(sorted(unknown))} are not "
                                "supported by blogbuild")
    target = _target(lowered["targetpath"], "css.Build") if lowered.get("targetpath") else source.target
    minified = truthy(lowered.get("minify"))
    folder = source.target.rpartition("/")[0]

    kept: list[str] = []   # the imports left to the browser: first in the output, where CSS allows them

    def inlined(text: str, here: str, seen: set[str], depth: int) -> str:
        def one(match: re.Match[str]) -> str:
            if match.group(2) is None:   # a comment
                return match.group(0)
            name, media = match.group(2), match.group(3).strip()
            if media or re.match(r"[a-z][a-z0-9+.-]*:|//", name, re.I):
                kept.append(match.group(0).rstrip() + "\n")   # a URL or a conditional import: the browser's
                return ""
            path = posixpath.normpath(posixpath.join(here, name)) if not name.startswith("/") else name.lstrip("/")
            found = pipes.assets.find(path) or pipes.assets.find(name.lstrip("/"))
            if found is None:
                raise HugoFunctionError(f"css.Build of {source.target}: @import {name!r} is not in the site's "
                                        "assets (assets/, or a theme's)")
            if path in seen:
                return ""
            if depth >= _CSS_IMPORT_DEPTH:
                raise HugoFunctionError(f"css.Build of {source.target}: @import nested deeper than "
                                        f"{_CSS_IMPORT_DEPTH} files")
            seen.add(path)
            return inlined(found.read_text(encoding="utf-8-sig"), path.rpartition("/")[0], seen, depth + 1) + "\n"
        return _CSS_IMPORT.sub(one, text)

    def build() -> bytes:
        kept.clear()
        text = inlined(source.bytes().decode("utf-8-sig", "replace"), folder, {source.target}, 0)
        text = "".join(kept) + text
        if minified:
            text = minify_text(text, "text/css", f"css.Build of {source.target}") + "\n"
        return text.encode("utf-8")
    return pipes.resource(f"css\x00{id(source)}\x00{target}\x00{minified}", lambda: Resource(
        source.Name, target, build, what=f"css.Build of {source.target}", media=MediaType("text/css", "css")))


def esbuild_binary(site: Path | None) -> str | None:
    """The esbuild program js.Build bundles with, as Hugo's embedded esbuild does: the site's own (npm's
    node_modules/.bin/esbuild, inside the site) or one on the PATH; None when there is none (a build never
    downloads it)."""
    if site is not None:
        local = site / "node_modules" / ".bin" / "esbuild"
        if local.is_file() and is_inside(os.path.realpath(local), (os.path.realpath(site),)):
            return str(local)
    import shutil
    return shutil.which("esbuild")


# js.Build's options (lower case) and the esbuild flag each becomes; a map or list option is given per entry.
_ESBUILD_FLAGS = {"format": "--format", "target": "--target", "jsx": "--jsx", "jsxfactory": "--jsx-factory",
                  "jsxfragment": "--jsx-fragment", "jsximportsource": "--jsx-import-source"}
_ESBUILD_TIMEOUT = 120   # seconds one bundle may take


def _esbuild(pipes: Pipes, source: Resource, lowered: Mapping[str, Any], bundler: str) -> Resource:
    """js.Build with esbuild, as Hugo runs its own: bundled (imports followed from the script's own folder),
    IIFE and esnext unless the options say otherwise, `@params` the params as a JSON module, minified when asked;
    Hugo's bytes when the esbuild is Hugo's version."""
    unknown = set(lowered) - {"params", "targetpath", "minify", "sourcemap", "defines", "externals",
                              *_ESBUILD_FLAGS}
    if unknown:
        raise HugoFunctionError(f"js.Build of {source.target}: the option(s) {', '.join(sorted(unknown))} are not "
                                "supported by blogbuild")
    if go_string(lowered.get("sourcemap") or "none") not in ("none", ""):
        raise HugoFunctionError(f"js.Build of {source.target}: sourceMap is not supported by blogbuild; leave it out")
    target = _target(lowered["targetpath"], "js.Build") if lowered.get("targetpath") else \
        re.sub(r"\.(?:mjs|jsm|ts|tsx|jsx)$", ".js", source.target)
    params = json.dumps(_plain(lowered.get("params") or {}), ensure_ascii=False, sort_keys=True)
    flags = [f"{flag}={go_string(lowered[name])}" for name, flag in _ESBUILD_FLAGS.items() if lowered.get(name)]
    flags += [f"--define:{key}={go_string(value)}" for key, value in (lowered.get("defines") or {}).items()]
    flags += [f"--external:{go_string(name)}" for name in (lowered.get("externals") or [])]
    if lowered.get("minify"):
        flags.append("--minify")

    def build() -> bytes:
        return _bundled(source, bundler, params, flags, pipes.assets.folders)
    key = f"esbuild\x00{id(source)}\x00{target}\x00{params}\x00{flags!r}"
    return pipes.resource(key, lambda: Resource(source.Name, target, build, what=f"js.Build of {source.target}",
                                                media=MediaType("text/javascript", "js")))


# esbuild's loader of each script suffix (the script comes on stdin, as Hugo gives it to its esbuild).
_LOADERS = {"ts": "ts", "mts": "ts", "cts": "ts", "tsx": "tsx", "jsx": "jsx"}


def _bundled(source: Resource, bundler: str, params: str, flags: list[str], assets: Sequence[Path]) -> bytes:
    """The script bundled by esbuild (on stdin, as `<stdin>`, its imports followed from its folder; its output
    on stdout); an esbuild error is a HugoFunctionError with its message, which names the file and line. An
    import by a path from the assets folders (`import Gallery from "ts/gallery"`, as Hugo's resolver finds it in
    the site's, then each theme's assets/) is found there: those folders are esbuild's NODE_PATH."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory(prefix="blogbuild-esbuild-") as folder:
        params_file = Path(folder) / "params.json"
        params_file.write_text(params, encoding="utf-8")
        where = source.file.parent if source.file is not None else Path(folder)
        arguments = [bundler, "--bundle", "--format=iife", "--target=esnext", "--log-level=error", "--color=false",
                     f"--loader={_LOADERS.get(suffix_of(source.target), 'js')}", f"--alias:@params={params_file}",
                     *flags]
        try:
            completed = subprocess.run(arguments, input=source.bytes(), capture_output=True,
                                       timeout=_ESBUILD_TIMEOUT, cwd=where, check=False,
                                       env={**os.environ, "NODE_PATH": os.pathsep.join(   # from esbuild's folder
                                           os.path.abspath(folder) for folder in assets if folder.is_dir())})
        except (OSError, subprocess.TimeoutExpired) as error:
            raise HugoFunctionError(f"js.Build of {source.target}: esbuild ({bundler}) did not run: {error}") from None
        if completed.returncode != 0:
            raise HugoFunctionError(f"js.Build of {source.target}: esbuild: "
                                    f"{_esbuild_error(completed.stderr, source.target)}")
        # Unminified, esbuild names each module in a comment: the params as Hugo's are named, not by the folder.
        named = os.path.relpath(params_file, where).replace(os.sep, "/").encode("utf-8")
        return completed.stdout.replace(b"// " + named + b"\n", b"// ns-hugo-params:<stdin>\n")


_ESBUILD_PROBLEM = re.compile(r"\[ERROR\]\s*(?P<message>[^\n]*)(?:\s*\n\s*(?P<place>[^\s:]+:\d+:\d+):)?")


def _esbuild_error(stderr: bytes, name: str) -> str:
    """esbuild's first error as `file:line:col: message` (the script itself by its asset name, an import relative
    to the script's folder)."""
    text = stderr.decode("utf-8", "replace")
    found = _ESBUILD_PROBLEM.search(text)
    if found is None:
        return " ".join(text.split())[:300] or "failed"
    place = f"{found.group('place').replace('<stdin>', name)}: " if found.group("place") else ""
    return place + found.group("message").strip()


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return go_string(value)




def _get_remote(url: Any, settings: Any = None) -> Resource:
    """resources.GetRemote: a build never downloads, so fetching fails as it fails offline in Hugo (`try`
    gives the template the error in .Err, to take its fallback)."""
    raise HugoFunctionError(f"resources.GetRemote {go_string(url)!r}: blogbuild never downloads during a build; "
                            "put the file in assets/ and use resources.Get")


def _number(value: Any, what: str) -> float:
    try:
        return float(go_string(value))
    except ValueError:
        raise HugoFunctionError(f"{what}: {go_string(value)!r} is not a number") from None


def _image_filter_functions() -> dict[str, Callable[..., ImageFilter]]:
    """images.Brightness and the other filters Hugo has that blogbuild draws (image_filters.py), their arguments
    read as Hugo casts them."""
    def numeric(name: str, title: str) -> Callable[..., ImageFilter]:
        def make(*values: Any) -> ImageFilter:
            if len(values) != 1:
                raise HugoFunctionError(f"images.{title} takes one number, not {len(values)} arguments")
            return ImageFilter(name, (_number(values[0], f"images.{title}"),))
        return make
    made: dict[str, Callable[..., ImageFilter]] = {
        title: numeric(title.lower(), title)
        for title in ("Brightness", "Contrast", "Gamma", "GaussianBlur", "Hue", "Opacity", "Pixelate", "Saturation",
                      "Sepia")}
    made.update(Grayscale=lambda: ImageFilter("grayscale"), Invert=lambda: ImageFilter("invert"),
                Text=_text_filter, Overlay=_overlay_filter, Padding=_padding_filter)
    return made


def _text_filter(text: Any, settings: Any = None) -> ImageFilter:
    """images.Text TEXT OPTIONS: color (#ffffff), size (20), x and y (10), alignx (left, center, right), aligny (top,
    center, bottom), linespacing (2), font (a resource of a TrueType font)."""
    given = {str(key).lower(): value for key, value in settings.items()} if isinstance(settings, Mapping) else {}
    align_x, align_y = go_string(given.get("alignx", "left")), go_string(given.get("aligny", "top"))
    if align_x not in ("left", "center", "right") or align_y not in ("top", "center", "bottom"):
        raise HugoFunctionError("images.Text: alignx must be one of left, center, right, and aligny one of top, "
                                "center, bottom")
    font = _resource(given["font"], "images.Text's font") if given.get("font") is not None else None
    return ImageFilter("text", (go_string(text), _color(given.get("color", "#ffffff"), "images.Text color"),
                                _number(given.get("size", 20), "images.Text size"),
                                int(_number(given.get("x", 10), "images.Text x")),
                                int(_number(given.get("y", 10), "images.Text y")), align_x, align_y,
                                int(_number(given.get("linespacing", 2), "images.Text linespacing")),
                                font.target if font is not None else ""),
                       font.bytes if font is not None else None)


def _color(value: Any, what: str) -> str:
    """A colour as Hugo's filters read it: `#RGB`, `#RRGGBB`, with alpha `#RGBA`, `#RRGGBBAA`."""
    text = go_string(value).strip()
    if not re.fullmatch(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})", text):
        raise HugoFunctionError(f"{what}: {text!r} is not a colour; write it in hex notation, like #ffffff")
    return text


def _padding_filter(*values: Any) -> ImageFilter:
    """images.Padding V1 [V2 [V3 [V4]]] [COLOR]: margins as CSS's padding shorthand gives them (top, right, bottom,
    left), then the canvas colour (white unless given, as `#RGB`, `#RRGGBB` or with alpha)."""
    given = list(values)
    color = "#ffffff"
    if given and go_string(given[-1]).strip().startswith("#"):
        color = _color(given.pop(), "images.Padding")
    if not 1 <= len(given) <= 4:
        raise HugoFunctionError("images.Padding takes one to four padding values (CSS's shorthand), then an "
                                "optional colour")
    sides = [int(_number(value, "images.Padding")) for value in given]
    if any(side > 5000 for side in sides):
        raise HugoFunctionError("images.Padding: padding values must not exceed 5000 pixels")
    top, right, bottom, left = (sides * 4)[:4] if len(sides) == 1 else (
        (sides[0], sides[1], sides[0], sides[1]) if len(sides) == 2 else
        (sides[0], sides[1], sides[2], sides[1]) if len(sides) == 3 else tuple(sides))
    return ImageFilter("padding", (top, right, bottom, left, color))


def _overlay_filter(image: Any, x: Any, y: Any) -> ImageFilter:
    """images.Overlay IMAGE X Y: the image drawn over at (x, y)."""
    overlay = _resource(image, "images.Overlay")
    return ImageFilter("overlay", (int(_number(x, "images.Overlay x")), int(_number(y, "images.Overlay y")),
                                   overlay.target), overlay.bytes)


PIPES_FUNCTIONS: dict[str, Callable[..., Any]] = {"fingerprint": _fingerprint, "minify": _minify, "toCSS": _to_css}
PIPES_NAMESPACES: dict[str, Any] = {   # namespaces by name, each with .has (translate.py asks)
    "resources": _Namespace("resources", {
        "Get": _get, "GetMatch": _get_match, "Match": _match, "ByType": _by_type, "FromString": _from_string,
        "Concat": _concat, "Minify": _minify, "Fingerprint": _fingerprint,
        "ExecuteAsTemplate": jinja2.pass_context(_execute_as_template),
        "GetRemote": _get_remote, "Copy": _copy,
        "ToCSS": _to_css,   # Hugo's name before 0.128 (removed in 0.156): themes of that time call it
        # PostProcess runs a resource's transformations once the build ends (PostCSS's purge, with the build's
        # stats): of a resource none of whose transformations waits for them, the resource as it is.
        "PostProcess": lambda value: _resource(value, "resources.PostProcess")}),
    "js": _Namespace("js", {"Build": _js_build}),
    "images": _Namespace("images", {"AutoOrient": lambda: ImageFilter("autoorient"), "Filter": _images_filter,
                                    "Config": IMAGE_CONFIG, **_image_filter_functions()}),
    "css": _Namespace("css", {"Build": _css_build, "Sass": _to_css, "Quoted": lambda text: QuotedString(go_string(text)),
                              "Unquoted": lambda text: UnquotedString(go_string(text))}),
}
IMAGE_PROCESSORS.append(page_image)
