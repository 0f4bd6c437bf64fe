"""The images stage: every local image a post shows gets its intrinsic width and height, and raster images
wider than the theme's column get resized variants (the original format and WebP) offered through srcset/sizes.

An image's size comes from its header (turned by its EXIF orientation); only an image that gets variants is
decoded, and those are made in forked worker processes, one image a job, on every core the build may use.
Pillow does the decoding and resizing at build time; an SVG's size comes from its root element
(svg_size.py) and it gets no variants. Everything the stage finds is kept in .blogbuild-cache/images/
under the image's content hash (and the settings), and the hash itself under the file's size and mtime,
so a warm build reads no image at all. Remote, data: and .svgz images, and an SVG that states no size, are
left as written; a missing or unreadable image is a warning at the line the post writes it on. The
original is always published (it is the srcset's largest entry and the fallback src).
"""
from __future__ import annotations

import functools
import hashlib
import html
import io
import json
import os
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote, urljoin, urlsplit

from ..config.images import ImageOptions
from ..core import progress
from ..core.cache_keys import IMAGES_FORMAT, SVG_FORMAT
from ..core.errors import SourceWarning
from ..core.model import Post, pack_html
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..config import SiteConfig

IMAGE_CACHE = "images"          # below .blogbuild-cache/
_RESIZABLE = {"JPEG": "jpg", "PNG": "png"}   # animated GIFs and the rest keep their one size
_IMG_TAG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_ATTRIBUTE = re.compile(r"""([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
DEVICE_PIXEL_RATIO = 2          # the densest screens variants are made for: a 2x screen shows twice the column
# The encoders' settings (bench/bench_encoders.py measures them): WebP's effort 2 takes 0.4x the time of 4 for
# 3% more bytes; JPEG's optimized Huffman tables 0.5x the time of progressive for 3% more; PNG's optimize 5x the
# time for 2% fewer bytes, so it is off.
WEBP_OPTIONS = {"method": 2}
JPEG_OPTIONS = {"optimize": True}
PNG_OPTIONS: dict[str, Any] = {}
_ROTATED = (5, 6, 7, 8)         # EXIF orientations that turn the image a quarter: width and height swap


@dataclass(frozen=True)
class ImageInfo:
    """What the cache knows of one image file: size as displayed, and the variants made of it."""

    width: int
    height: int
    format: str                                      # Pillow's name: JPEG, PNG, GIF, WEBP...
    variants: tuple[tuple[int, str, str], ...] = ()   # (width, extension, cache file name)


@dataclass
class ImageStats:
    """What one run of the stage did: images decoded, taken from the cache, variant files written."""

    decoded: int = 0
    cached: int = 0
    written: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def count(self, name: str, amount: int = 1) -> None:
        """Add to one counter (the stage's threads share the stats)."""
        with self._lock:
            setattr(self, name, getattr(self, name) + amount)


@dataclass(frozen=True)
class ImageResult:
    """The stage's output for a set of posts' HTML."""

    html: Mapping[str, str]                          # post key -> rewritten HTML
    files: Mapping[str, str]                         # output path -> cache file to publish (the variants)
    warnings: tuple[SourceWarning, ...]
    stats: ImageStats = field(default_factory=ImageStats)


def _settings_key(options: ImageOptions) -> str:
    from PIL import __version__ as pillow_version
    return hashlib.sha256(repr((IMAGES_FORMAT, pillow_version.split(".")[0], options.widths, options.webp,
                                options.quality, sorted(WEBP_OPTIONS.items()), sorted(JPEG_OPTIONS.items()),
                                sorted(PNG_OPTIONS.items()), column_width(options.sizes))).encode()).hexdigest()[:12]


def column_width(sizes: str) -> int | None:
    """The widest a sizes attribute lays an image out, in CSS pixels: its last entry when that is a length
    in px, rem or em (a rem or em as 16 px: "46rem" is 736), else None (a vw or calc() width: unknown)."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(px|rem|em)", sizes.rsplit(",", 1)[-1].strip())
    if match is None:
        return None
    return round(float(match.group(1)) * (1 if match.group(2) == "px" else 16))


def variant_targets(width: int, extension: str, options: ImageOptions) -> list[tuple[int, str]]:
    """The (width, extension) variants an image this wide gets: none when the column is known and the image
    is no wider (a page never shows it smaller than it is, but on a phone), else each of images.widths
    below its width in its own format and in WebP, and a WebP at its own width unless a smaller WebP
    already fills the column on a 2x screen."""
    column = column_width(options.sizes)
    smaller = [target for target in options.widths if target < width]
    if not smaller or (column is not None and width <= column):
        return []
    targets = [(target, extension) for target in smaller]
    if options.webp:
        targets += [(target, "webp") for target in smaller]
        if column is None or max(smaller) < column * DEVICE_PIXEL_RATIO:
            targets.append((width, "webp"))
    return sorted(targets)


class ImageCache:
    """Image facts and variant files by content hash, on disk below the site's cache folder."""

    def __init__(self, folder: Path, options: ImageOptions) -> None:
        self.folder = folder
        self.options = options
        self.settings = _settings_key(options)
        self._hashes: dict[str, tuple[int, int, str]] = {}   # absolute path -> (size, mtime_ns, sha256)
        self._infos: dict[str, ImageInfo | str] = {}         # key -> info, or the reason it cannot be read
        self._dirty = False
        try:
            stored = json.loads((folder / "hashes.json").read_text(encoding="utf-8"))
            if isinstance(stored, dict):
                self._hashes = {path: tuple(entry) for path, entry in stored.items()}
        except (OSError, ValueError):
            pass   # no cache yet, or a damaged one: hash again

    def content_hash(self, path: str) -> str:
        """sha256 of the file, remembered under its size and mtime (a warm build only stats it)."""
        status = os.stat(path)
        known = self._hashes.get(path)
        if known is not None and known[0] == status.st_size and known[1] == status.st_mtime_ns:
            return known[2]
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        self._hashes[path] = (status.st_size, status.st_mtime_ns, digest)
        self._dirty = True
        return digest

    def key(self, path: str) -> str:
        """The image's cache key: its content hash and the settings its record was made with."""
        is_svg = path.lower().endswith(".svg")
        return f"{self.content_hash(path)[:32]}-{SVG_FORMAT if is_svg else self.settings}"

    def known(self, key: str, stats: ImageStats) -> ImageInfo | str | None:
        """What this run or the cache on disk knows of the image under key (with all its variant files), or None."""
        known = self._infos.get(key)
        if known is not None:
            return known
        try:
            data = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
            result = ImageInfo(data["width"], data["height"], data["format"],
                               tuple(tuple(item) for item in data["variants"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not all((self.folder / name).is_file() for _, _, name in result.variants):
            return None
        stats.count("cached")
        self._infos[key] = result
        return result

    def remember(self, key: str, result: ImageInfo | str) -> None:
        """Keep what was found of an image for this run, and on disk when it could be read."""
        if isinstance(result, ImageInfo):
            self.folder.mkdir(parents=True, exist_ok=True)
            _write_atomic(self.folder / f"{key}.json", json.dumps({
                "width": result.width, "height": result.height, "format": result.format,
                "variants": [list(item) for item in result.variants]}).encode())
        self._infos[key] = result

    def info(self, path: str, stats: ImageStats) -> ImageInfo | str:
        """The image's facts and variants (made now, in this process, if the cache has none), or why it cannot be read."""
        key = self.key(path)
        result = self.known(key, stats)
        if result is None:
            result = self.make(path, key, stats)
            self.remember(key, result)
        return result

    def make(self, path: str, key: str, stats: ImageStats) -> ImageInfo | str:
        """Read the image (an SVG or a raster one) and write its variants into the cache folder."""
        return _measure_svg(path, stats) if path.lower().endswith(".svg") else self._make(path, key, stats)

    def _make(self, path: str, key: str, stats: ImageStats) -> ImageInfo | str:
        from PIL import Image, ImageOps, UnidentifiedImageError
        stats.count("decoded")
        try:
            with Image.open(path) as opened:
                image_format = opened.format or ""
                animated = getattr(opened, "is_animated", False)
                # Browsers show a photo turned by its EXIF orientation: the size they lay out is the turned one.
                width, height = opened.size
                rotated = opened.getexif().get(0x0112) in _ROTATED
                if rotated:
                    width, height = height, width
                extension = _RESIZABLE.get(image_format)
                targets = variant_targets(width, extension, self.options) if extension and not animated else []
                if not targets:   # the header says all the page needs: the pixels are not decoded
                    return ImageInfo(width, height, image_format)
                names = {target: f"{key}-{target[0]}.{target[1]}" for target in targets}
                to_write = [target for target in targets if not (self.folder / names[target]).is_file()]
                if to_write:
                    # A JPEG is decoded at the smallest scale (1/2, 1/4, 1/8) still as wide as its widest variant.
                    widest = max(target for target, _ in to_write)
                    wanted = (widest, max(1, round(height * widest / width)))
                    opened.draft(opened.mode, wanted[::-1] if rotated else wanted)
                    image = ImageOps.exif_transpose(opened)
                    image.load()
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError) as error:
            return f"cannot be read as an image ({type(error).__name__}: {error})"
        self.folder.mkdir(parents=True, exist_ok=True)
        # Widest first, each width resized from the one before it (from the decoded image for the widest).
        resized: dict[int, Any] = {}
        for target, suffix in sorted(to_write, reverse=True):
            if target not in resized:
                image = resized[target] = _resized(image, target, round(height * target / width))
            _write_atomic(self.folder / names[target, suffix], _encode(resized[target], suffix, self.options.quality))
            stats.count("written")
        return ImageInfo(width, height, image_format, tuple((target, suffix, names[target, suffix])
                                                            for target, suffix in targets))

    def save(self) -> None:
        """Write the hash index back when it changed (an unwritable cache is not an error: it only costs time)."""
        if not self._dirty:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            _write_atomic(self.folder / "hashes.json", json.dumps(self._hashes, sort_keys=True).encode())
            self._dirty = False
        except OSError:
            pass


def _measure_svg(path: str, stats: ImageStats) -> ImageInfo | str:
    """An SVG's facts: its size as its root element gives it (0 x 0 when it states none), no variants."""
    from .svg_size import svg_size
    stats.count("decoded")
    try:
        size = svg_size(path)
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    width, height = size if size is not None else (0, 0)
    return ImageInfo(width, height, "SVG")


def _resized(image: Any, width: int, height: int) -> Any:
    """The image at width x height with Lanczos (after a box reduction to no less than 3x the size, which a
    large downscale cannot tell from Lanczos alone at a fraction of the time)."""
    from PIL import Image
    if image.size == (width, height):
        return image
    return image.resize((width, max(1, height)), Image.Resampling.LANCZOS, reducing_gap=3.0)


def _encode(resized: Any, suffix: str, quality: int) -> bytes:
    """One variant's bytes: no metadata, the same bytes for the same input."""
    buffer = io.BytesIO()
    if suffix == "jpg":
        if resized.mode not in ("RGB", "L"):
            resized = resized.convert("RGB")
        resized.save(buffer, "JPEG", quality=quality, **JPEG_OPTIONS)
    elif suffix == "png":
        resized.save(buffer, "PNG", **PNG_OPTIONS)
    else:
        if resized.mode not in ("RGB", "RGBA"):
            resized = resized.convert("RGBA" if "A" in resized.mode or "transparency" in resized.info else "RGB")
        resized.save(buffer, "WEBP", quality=quality, **WEBP_OPTIONS)
    return buffer.getvalue()


def _write_atomic(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


@dataclass(frozen=True)
class PostImages:
    """One post's HTML and what the stage needs to place its images: where it is shown, where it came from."""

    key: str             # what the result's html is keyed by (the post's rel_path)
    html: str
    url: str             # the post's site-relative url, what relative srcs resolve against
    source: str          # the post's path as shown in messages
    source_text: str | Callable[[], str]   # the file's text (or how to read it), to find an image's line
    marks: tuple[tuple[str, int], ...] = ()  # (URL as written, file line) of each link and image, in order


def process_images(posts: Iterable[PostImages], published: Mapping[str, str], cache: ImageCache, *,
                   base_path: str = "/", jobs: int = 1,
                   worker_start: Callable[[int], None] | None = None) -> ImageResult:
    """Rewrite every local raster <img> of the posts with width/height and srcset; collect the variants.

    published maps output paths (posix, relative to public/) to the files the build publishes there, so a
    src resolves exactly as the browser will resolve it. With jobs > 1 and a worker_start (what a forked
    worker runs first, given the parent's pid), images are read in forked worker processes."""
    posts = list(posts)
    stats = ImageStats()
    wanted: dict[str, None] = {}
    for post in posts:
        for tag in _IMG_TAG.findall(post.html):
            target = _output_path(_attributes(tag).get("src", ""), post.url, base_path)
            if target is not None and target in published:
                wanted[published[target]] = None
    infos = _image_infos(list(wanted), cache, stats, jobs, worker_start)
    cache.save()
    rewritten: dict[str, str] = {}
    files: dict[str, str] = {}
    warnings: list[SourceWarning] = []
    for post in posts:
        lines = _ImageLines(post, base_path)

        def one(match: re.Match[str], post: PostImages = post, lines: _ImageLines = lines) -> str:
            return _rewrite(match.group(0), post, lines, published, infos, cache, base_path, files, warnings)
        rewritten[post.key] = _IMG_TAG.sub(one, post.html) if "<img" in post.html else post.html
    return ImageResult(rewritten, files, tuple(warnings), stats)


IMAGES_PER_POOL = 4   # fewer images to read than this are read in this process

# The cache and the images a forked pool reads: set before forking, so workers inherit them.
_FORKED: tuple[ImageCache, Sequence[tuple[str, str]]] | None = None


def _make_forked(index: int) -> tuple[ImageInfo | str, int, int]:
    assert _FORKED is not None, "a worker makes images only after the pool forked"
    cache, jobs = _FORKED
    stats = ImageStats()
    path, key = jobs[index]
    return cache.make(path, key, stats), stats.decoded, stats.written


def _image_infos(paths: list[str], cache: ImageCache, stats: ImageStats, jobs: int,
                 worker_start: Callable[[int], None] | None) -> dict[str, ImageInfo | str]:
    """Each image's facts: from the cache, else read (and its variants made) now, in forked worker
    processes (each started with worker_start(parent's pid)), the largest files first, when there are
    several, more than one job may run and worker_start is given (the system can fork)."""
    global _FORKED
    infos: dict[str, ImageInfo | str] = {}
    missing: dict[str, str] = {}   # key -> a path with that content
    keys = {path: cache.key(path) for path in paths}
    for path, key in keys.items():
        if key in missing:
            continue
        known = cache.known(key, stats)
        if known is None:
            missing[key] = path
    todo = sorted(((path, key) for key, path in missing.items()), key=lambda job: -os.path.getsize(job[0]))
    if len(todo) >= IMAGES_PER_POOL and jobs > 1 and worker_start is not None:
        import gc
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        cache.folder.mkdir(parents=True, exist_ok=True)
        _FORKED = (cache, todo)
        try:
            gc.freeze()   # the workers' collections then skip (and do not copy) the inherited heap
            with ProcessPoolExecutor(min(jobs, len(todo)), mp_context=multiprocessing.get_context("fork"),
                                     initializer=worker_start, initargs=(os.getpid(),)) as pool:
                made: list[tuple[ImageInfo | str, int, int]] = []
                for outcome in pool.map(_make_forked, range(len(todo))):
                    made.append(outcome)
                    progress.count(len(made), len(todo))
        finally:
            _FORKED = None
        for (_, key), (result, decoded, written) in zip(todo, made, strict=True):
            stats.count("decoded", decoded)
            stats.count("written", written)
            cache.remember(key, result)
    else:
        for done, (path, key) in enumerate(todo, 1):
            cache.remember(key, cache.make(path, key, stats))
            progress.count(done, len(todo))
    for path, key in keys.items():
        known = cache.known(key, stats)
        infos[path] = known if known is not None else "cannot be read"
    return infos


def _output_path(src: str, page_url: str, base_path: str) -> str | None:
    """The output path a src points at on this site, or None for remote, data: and .svgz images."""
    src = html.unescape(src).strip()
    if not src or src.startswith(("data:", "//")) or "://" in src.split("?", 1)[0] or "{{" in src:
        return None
    path = urlsplit(urljoin(page_url, src)).path
    if path.lower().endswith(".svgz"):   # gzip: its size would take decompressing it
        return None
    if base_path != "/" and path.startswith(base_path):
        path = "/" + path[len(base_path):]
    return unquote(path).lstrip("/")


def _attributes(tag: str) -> dict[str, str]:
    inner = tag[4:].rstrip(">").rstrip("/")
    return {match.group(1).lower(): html.unescape(next((group for group in match.groups()[1:] if group is not None), ""))
            for match in _ATTRIBUTE.finditer(inner)}


class _ImageLines:
    """The file line of each <img> of one post, in document order: the n-th image showing a file is the
    n-th mark (a link or image the markdown stage saw) naming that file. The marks hold URLs as written,
    before the links stage rewrote them, so both sides are compared as the output path they point at."""

    def __init__(self, post: PostImages, base_path: str) -> None:
        self.by_target: dict[str, list[int]] = {}
        for value, line in post.marks:
            target = _output_path(value, post.url, base_path)
            if target is not None:
                self.by_target.setdefault(target, []).append(line)
        self.taken: dict[str, int] = {}

    def take(self, target: str) -> int:
        """The line of the next image showing target, 0 when the marks have none (a template's image)."""
        lines = self.by_target.get(target, ())
        index = self.taken.get(target, 0)
        self.taken[target] = index + 1
        return lines[index] if index < len(lines) else (lines[-1] if lines else 0)


def _line_of(text: str | Callable[[], str], src: str) -> int:
    """The first line of the post's file that mentions src (as written or decoded); 1 when none does."""
    if callable(text):
        try:
            text = text()
        except OSError:
            return 1
    for candidate in (src, unquote(src)):
        position = text.find(candidate) if candidate else -1
        if position >= 0:
            return text.count("\n", 0, position) + 1
    return 1


def _rewrite(tag: str, post: PostImages, lines: _ImageLines, published: Mapping[str, str],
             infos: Mapping[str, ImageInfo | str], cache: ImageCache, base_path: str, files: dict[str, str],
             warnings: list[SourceWarning]) -> str:
    attributes = _attributes(tag)
    src = attributes.get("src", "")
    target = _output_path(src, post.url, base_path)
    if target is None:   # remote, data: or .svgz: as written
        return tag
    line = lines.take(target) or _line_of(post.source_text, src)
    if "srcset" in attributes:   # an author's own srcset: as written
        return tag
    if target not in published:
        warnings.append(SourceWarning(post.source, line,
                                      f"image {src!r} not found (looked for {target} in the site's output); "
                                      "check the file name, or put the file beside the post or in static/"))
        return tag
    info = infos.get(published[target])
    if not isinstance(info, ImageInfo):
        warnings.append(SourceWarning(post.source, line,
                                      f"image {src!r} {info or 'cannot be read'}; published as it is"))
        return tag
    if not info.width:   # an SVG that states no size: the browser sizes it, as written
        return tag
    extra = {}
    if "width" not in attributes and "height" not in attributes:
        extra["width"], extra["height"] = str(info.width), str(info.height)
    if "loading" not in attributes:
        extra["loading"] = "lazy"
    if "decoding" not in attributes:
        extra["decoding"] = "async"
    if not info.variants:
        return _with_attributes(tag, extra)
    folder, _, name = target.rpartition("/")
    stem = name.rsplit(".", 1)[0]
    source_src = src.split("?", 1)[0].split("#", 1)[0]
    prefix = source_src.rsplit("/", 1)[0] + "/" if "/" in source_src else ""

    def entry(width: int, suffix: str, cache_name: str) -> str:
        file_name = f"{stem}-{width}w.{cache_name.split('-', 1)[0][:8]}.{suffix}"
        files[f"{folder}/{file_name}" if folder else file_name] = str(cache.folder / cache_name)
        return f"{prefix}{quote(file_name)} {width}w"

    original_suffix = _RESIZABLE[info.format]
    fallback = [entry(*variant) for variant in info.variants if variant[1] == original_suffix]
    fallback.append(f"{quote(source_src, safe='/%:@&=+$;~!*()')} {info.width}w")
    extra["srcset"] = ", ".join(fallback)
    extra["sizes"] = cache.options.sizes
    image = _with_attributes(tag, extra)
    webp = [entry(*variant) for variant in info.variants if variant[1] == "webp"]
    if not webp:
        return image
    sizes = html.escape(cache.options.sizes)
    return f'<picture><source type="image/webp" srcset="{html.escape(", ".join(webp))}" sizes="{sizes}">{image}</picture>'


def _with_attributes(tag: str, extra: Mapping[str, str]) -> str:
    if not extra:
        return tag
    added = "".join(f' {name}="{html.escape(value)}"' for name, value in extra.items())
    end = len(tag) - (2 if tag.endswith("/>") else 1)
    head = tag[:end].rstrip()
    return f"{head}{added}{' />' if tag.endswith('/>') else '>'}"


def image_stage(posts: Sequence[Post], config: SiteConfig, published: Mapping[str, str], cache_folder: Path,
                jobs: int = 1, worker_start: Callable[[int], None] | None = None
                ) -> tuple[list[Post], dict[str, str], list[SourceWarning], ImageStats]:
    """The stage as the build calls it: posts with their images sized (content and summary), the variant
    files to publish (output path -> cached file), warnings, and what it did."""
    progress.stage("images")
    if not config.images.enabled:
        return list(posts), {}, [], ImageStats()
    content_folder = Path(config.root) / config.source_dir
    items = []
    for post in posts:
        content = post.content_html if post.has_images else ""
        if "<img" not in content:
            continue
        source_file = content_folder / post.rel_path
        reader = functools.partial(Path.read_text, source_file, encoding="utf-8", errors="replace")
        marks = tuple((mark.value, mark.line) for mark in post.marks if mark.kind == "url")
        items.append(PostImages(post.rel_path, content, post.url, post.source, reader, marks))
        if "<img" in post.summary_html:
            items.append(PostImages("\0summary:" + post.rel_path, post.summary_html, post.url, post.source, reader,
                                    marks))
    if not items:
        return list(posts), {}, [], ImageStats()
    cache = ImageCache(cache_folder, config.images)
    result = process_images(items, published, cache, base_path=config.base_path, jobs=jobs,
                            worker_start=worker_start)
    changed = []
    for post in posts:
        if post.rel_path not in result.html:
            changed.append(post)
            continue
        content = result.html[post.rel_path]
        summary = result.html.get("\0summary:" + post.rel_path, post.summary_html)
        if content != post.content_html or summary != post.summary_html:
            post = replace(post, packed_html=pack_html(content), summary_html=summary,
                           fingerprint=hashlib.blake2b(f"{post.fingerprint}\0{content}\0{summary}".encode(
                               "utf-8", "surrogatepass"), digest_size=16).hexdigest())
        changed.append(post)
    # A summary repeats the content's images: warn once per place.
    warnings = list(dict.fromkeys(result.warnings))
    return changed, dict(result.files), warnings, result.stats


def published_sources(posts: Sequence[Post], static: Iterable[Any], content_files: Iterable[Any]) -> dict[str, str]:
    """Output path -> source file of every file the build copies (static files, then content files, a
    bundle's resources at its page's URL): where a post's <img src> lands, as the assemble stage places it."""
    published = {item.rel_path: item.path for item in static}
    resources = {resource: post for post in posts for resource in post.resources}
    for item in content_files:
        post = resources.get(item.rel_path)
        if post is not None:
            bundle_folder = post.rel_path.rsplit("/", 1)[0] + "/"
            published[post.url.lstrip("/") + item.rel_path[len(bundle_folder):]] = item.path
        else:
            published[item.rel_path] = item.path
    return published
