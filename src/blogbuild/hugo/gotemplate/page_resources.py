"""A page bundle's `.Resources` as Hugo's templates see them: the bundle's files (each at the URL blogbuild
publishes it, beside the page), in Hugo's order (by resource type, then name), with `.GetMatch`, `.Match`
(Hugo's globs: case-insensitive, `*` within a folder, `**` across folders, `{a,b}`), `.ByType`, `.Get`; each
resource with `.Name`, `.Title`, `.RelPermalink`, `.Permalink`, `.MediaType`, `.ResourceType`, `.Params`, and
for a raster image `.Width` and `.Height` (read from the file) and Hugo's image processing (`.Resize`, `.Fit`,
`.Fill`, `.Crop`, made by pipes.py, published beside the page). Front matter's `resources` metadata names, titles
and gives params to them as Hugo does. A file's media type is Hugo's (media_types.py).
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ...core.globs import GlobError, glob_regex
from .media_types import RASTER_FORMATS, media_type_of, suffix_of
from .objects import GoObject, Params, UnsupportedField

# The image types whose size Hugo reads (its processable formats).
_RASTER = frozenset(RASTER_FORMATS)
# What processes a bundle's image (.Resize, .Fit, .Fill, .Crop): pipes.py adds its processing here when it is
# imported (with Hugo's functions), so this module imports nothing of it. Called (target, file, name, action, spec).
IMAGE_PROCESSORS: list[Callable[[str, Path, str, str, Any], Any]] = []
# What of a bundle's content file is read for its front matter (the header is at its start).
MAX_CONTENT_RESOURCE = 1 << 20


class PageResource(GoObject):
    """One file of a page bundle."""

    kind = "Resource"

    def __init__(self, name: str, path: Path, rel_url: str, permalink: str, target: str = "") -> None:
        self.Name = name
        self.Title = name
        self.RelPermalink = rel_url
        self.Permalink = permalink
        self.MediaType = media_type_of(name)
        self.ResourceType = self.MediaType.MainType
        self.Params = Params()
        self.Data = Params()
        self._path = path
        self._suffix = suffix_of(name)
        self.original = name   # its path in the bundle, which .Get and .GetMatch also find it by when renamed
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

    @functools.cached_property
    def Colors(self) -> list[Any]:  # noqa: N802 - the dominant colours, as Hugo finds them
        if self._suffix not in _RASTER:
            raise UnsupportedField(f"Resource.Colors of {self.Name!r}: Hugo reads the colours of raster images only")
        from .image_colors import colors_of
        return colors_of(self._path.read_bytes, f"the bundle's image {self.Name}")

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

    def Process(self, spec: Any) -> Any:  # noqa: N802 - Hugo 0.119's: an action and its options in one text
        return self._process(*process_action(spec, lambda: (self.Width, self.Height)))

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

    def Get(self, name: Any) -> PageResource | None:  # noqa: N802 - by name, else by its path in the bundle
        wanted = str(name).lower().lstrip("/")
        return next((item for item in self if item.Name.lower() == wanted), None) or \
            next((item for item in self if _original(item).lower() == wanted), None)

    def GetMatch(self, pattern: Any) -> PageResource | None:  # noqa: N802 - by name, else by its path in the bundle
        matches = _glob(str(pattern))
        return next((item for item in self if matches(item.Name)), None) or \
            next((item for item in self if matches(_original(item))), None)

    def Match(self, pattern: Any) -> "PageResources":  # noqa: N802
        matches = _glob(str(pattern))
        return PageResources(item for item in self if matches(item.Name))

    @property
    def Len(self) -> int:  # noqa: N802
        return len(self)


def _original(resource: Any) -> str:
    """A resource's path in its bundle (its name, for an asset)."""
    return str(vars(resource).get("original") or resource.Name)


def page_resources(files: Iterable[str], bundle_folder: str, content: Path, page_url: str,
                   site_url: Callable[[str], str], absolute_url: Callable[[str], str],
                   metadata: Any = None, shared: Callable[[str], tuple[str, str, str] | None] | None = None,
                   prefix: str = "", pages: Iterable[str] = ()) -> PageResources:
    """The resources of one bundle: its files (paths under content/), published beside the page's URL, with
    front matter's `resources` metadata, in Hugo's order; shared(file) gives (URL on the host, permalink, path in
    the whole site) of a file another language's page publishes; prefix: the page's language's folder ("fr/"),
    where the others are (and what Hugo Pipes make of them: a processed image beside its file); pages: a leaf
    bundle's other content files (paths in the bundle), each a resource of type page."""
    found: list[PageResource] = [ContentResource(name, content / bundle_folder / name) for name in pages]
    # Hugo walks a bundle in the order of its content tree, whose keys are the lower-cased paths
    for file in sorted(files, key=lambda path: path.lower().split("/")):
        name = file[len(bundle_folder):]
        url = quote(page_url + name, safe="/:@!$&'()*+,;=-._~")
        elsewhere = shared(name) if shared is not None else None
        found.append(PageResource(name, content / file, elsewhere[0] if elsewhere else site_url(url),
                                  elsewhere[1] if elsewhere else absolute_url(url),
                                  elsewhere[2] if elsewhere else prefix + (page_url + name).lstrip("/")))
    if metadata is not None:
        assign_metadata(found, metadata)
    return PageResources(go_stable_sort(found, _resource_less))


class ContentResource(PageResource):
    """A leaf bundle's other content file (`notes.md` beside `index.md`), as Hugo lists it among the page's
    resources: of type page, its title and params its front matter's, never published (no URL). Its content is not
    rendered: a template that reads it is told so."""

    kind = "Page"

    def __init__(self, name: str, path: Path) -> None:
        super().__init__(name, path, "", "")
        self.ResourceType = "page"
        self.MediaType = media_type_of(name.rsplit(".", 1)[0])   # Hugo's page: application/octet-stream
        data = _front_matter(path)
        title = data.get("title")
        self.Title = str(title) if isinstance(title, (str, int, float)) else ""   # a page's: "" without one
        self.Params = Params({str(key).lower(): value for key, value in data.items()})

    @property
    def Kind(self) -> str:  # noqa: N802
        return "page"

    @property
    def Content(self) -> str:  # noqa: N802
        return self.__getattr__("Content")

    def __getattr__(self, name: str) -> Any:
        if name[:1].isupper():   # .Content, .Summary, .Date, ... of a bundle's content file
            raise UnsupportedField(f"{name} of the bundle's content file {self.Name!r} is not supported (its title "
                                   "and params are)")
        raise AttributeError(name)


def _front_matter(path: Path) -> Mapping[str, Any]:
    """A bundle's content file's front matter (empty when it has none or it cannot be read)."""
    from ...core.errors import SourceError
    from ...disk.frontmatter import split_front_matter
    try:
        data = split_front_matter(path.read_text(encoding="utf-8", errors="replace")[:MAX_CONTENT_RESOURCE],
                                  path=str(path)).data
    except (OSError, SourceError):
        return {}
    return data if isinstance(data, Mapping) else {}


_ACTIONS = ("resize", "fit", "fill", "crop")


def process_action(spec: Any, size: Callable[[], tuple[int, int]]) -> tuple[str, str]:
    """`.Process SPEC` as the action it names and that action's options: "fit 600x400 webp" is Fit "600x400 webp";
    without an action, options alone ("webp q80") keep the image's size (size()), and a size is an error, as in
    Hugo."""
    from .escape import go_string
    from .function_error import HugoFunctionError
    text = go_string(spec).strip()
    words = text.split()
    if words and words[0].lower() in _ACTIONS:
        return words[0].lower(), " ".join(words[1:])
    if any(re.fullmatch(r"\d*x\d*", word.lower()) for word in words):
        raise HugoFunctionError(f".Process {text!r}: a width or height needs an action (resize, fit, fill or crop "
                                "first), as in Hugo")
    width, height = size()
    return "resize", f"{width}x{height} {text}".strip()


def _resource_less(one: PageResource, other: PageResource) -> bool:
    """Hugo's order of a page's resources (as its sort compares two: a smaller type first, else by name)."""
    return one.ResourceType < other.ResourceType or one.Name < other.Name


_COUNTER = ":counter"


def assign_metadata(resources: list[PageResource], metadata: Any) -> None:
    """Front matter's `resources`, as Hugo applies it to a bundle's files (in their path order): each entry's
    `src` a glob over the file's path; the first matching entry with a `name` names it and the first with a
    `title` titles it (`:counter` counting the files each entry named, or titled, so far); every matching
    entry's `params` are merged in, a later entry's value replacing an earlier one's. The title stays the path
    when no entry gives one."""
    if not isinstance(metadata, list) or not all(isinstance(entry, Mapping) for entry in metadata):
        raise UnsupportedField("front matter's resources must be a list of maps with src, name, title, params")
    counters: dict[str, int] = {}
    for resource in resources:
        named = titled = False
        merged: dict[str, Any] = {}
        for entry in metadata:
            keyed = {str(key).lower(): value for key, value in entry.items()}
            if "src" not in keyed:
                raise UnsupportedField("front matter's resources: an entry has no src")
            source = str(keyed["src"]).lower()
            if not _glob(source)(resource.original):
                continue
            for field, done in (("name", named), ("title", titled)):
                if done or field not in keyed:
                    continue
                text = str(keyed[field])
                if _COUNTER in text:
                    counter_key = f"{field}_{source}"
                    counters[counter_key] = counters.get(counter_key, 0) + 1
                    text = text.replace(_COUNTER, str(counters[counter_key]))
                if field == "name":
                    resource.Name, named = text, True
                else:
                    resource.Title, titled = text, True
            params = keyed.get("params")
            if isinstance(params, Mapping):
                merged.update(Params.of(params))
        resource.Params = Params(merged)


def go_stable_sort(items: list[Any], less: Callable[[Any, Any], bool]) -> list[Any]:
    """Go's sort.SliceStable with the comparison given (insertion sort of blocks of 20, then merges in place),
    step for step, so a comparison that is no strict order gives what Go's gives."""
    return _GoStableSort(list(items), less).sorted()


class _GoStableSort:
    """Go's stable sort (sort/zsortfunc.go: insertionSort, symMerge, rotate, swapRange) over one list."""

    def __init__(self, data: list[Any], less: Callable[[Any, Any], bool]) -> None:
        self.data = data
        self.less = less

    def sorted(self) -> list[Any]:
        size, block = len(self.data), 20
        low, high = 0, block
        while high <= size:
            self.insertion(low, high)
            low, high = high, high + block
        self.insertion(low, size)
        while block < size:
            low, high = 0, 2 * block
            while high <= size:
                self.sym_merge(low, low + block, high)
                low, high = high, high + 2 * block
            if low + block < size:
                self.sym_merge(low, low + block, size)
            block *= 2
        return self.data

    def insertion(self, low: int, high: int) -> None:
        data, less = self.data, self.less
        for index in range(low + 1, high):
            place = index
            while place > low and less(data[place], data[place - 1]):
                data[place], data[place - 1] = data[place - 1], data[place]
                place -= 1

    def swap_range(self, first: int, second: int, count: int) -> None:
        data = self.data
        for offset in range(count):
            data[first + offset], data[second + offset] = data[second + offset], data[first + offset]

    def rotate(self, low: int, middle: int, high: int) -> None:
        left, right = middle - low, high - middle
        while left != right:
            if left > right:
                self.swap_range(middle - left, middle, right)
                left -= right
            else:
                self.swap_range(middle - left, middle + right - left, left)
                right -= left
        self.swap_range(middle - left, middle, left)

    def sym_merge(self, low: int, middle: int, high: int) -> None:
        data, less = self.data, self.less
        if middle - low == 1:
            start, end = middle, high
            while start < end:
                half = (start + end) // 2
                if less(data[half], data[low]):
                    start = half + 1
                else:
                    end = half
            for index in range(low, start - 1):
                data[index], data[index + 1] = data[index + 1], data[index]
            return
        if high - middle == 1:
            start, end = low, middle
            while start < end:
                half = (start + end) // 2
                if not less(data[middle], data[half]):
                    start = half + 1
                else:
                    end = half
            for index in range(middle, start, -1):
                data[index], data[index - 1] = data[index - 1], data[index]
            return
        mid = (low + high) // 2
        total = mid + middle
        if middle > mid:
            start, bound = total - high, mid
        else:
            start, bound = low, middle
        last = total - 1
        while start < bound:
            cut = (start + bound) // 2
            if not less(data[last - cut], data[cut]):
                start = cut + 1
            else:
                bound = cut
        end = total - start
        if start < middle < end:
            self.rotate(start, middle, end)
        if low < start < mid:
            self.sym_merge(low, start, mid)
        if mid < end < high:
            self.sym_merge(mid, end, high)


def language_files(files: Iterable[str], language: str, languages: Collection[str]) -> list[str]:
    """A bundle's files as one language's page has them, as Hugo assigns them: a file whose name carries a
    language's key (`map.fr.png`) is that language's only, and replaces the file of the same name without it
    (`map.png`) there; every other file is every language's."""
    own: dict[str, str] = {}
    shared: list[str] = []
    for file in files:
        folder, _, name = file.rpartition("/")
        stem, dot, suffix = name.rpartition(".")
        base, _, key = stem.rpartition(".")
        if dot and base and key in languages:
            if key == language:
                own[f"{folder}/{base}.{suffix}" if folder else f"{base}.{suffix}"] = file
            continue
        shared.append(file)
    return [file for file in shared if file not in own] + list(own.values())


def bundle_resources(rel_path: str, files: Iterable[str], params: Mapping[str, Any], content: Path, page_url: str,
                     site_url: Callable[[str], str], absolute_url: Callable[[str], str], *, language: str = "",
                     languages: Collection[str] = (), shared_at: tuple[str, str] | None = None,
                     prefix: str = "") -> PageResources | str:
    """A page's `.Resources`: a leaf bundle's (its index.md's) files, a branch bundle's (the files beside its
    _index.md), none for a page of its own file; or why blogbuild cannot give them as Hugo does (front matter's
    resources metadata, the bundle's other content files). shared_at: (URL on the host, permalink) of the page in
    another language beside which the files every language shares are published (site.shared_files_page);
    prefix: this page's language's folder ("fr/")."""
    bundle = rel_path.rsplit("/", 1)[0] + "/" if "/" in rel_path else ""
    top = site_url("/")   # the whole site's path on the host: this language's without its folder
    top = top[:-len(prefix)] if prefix and top.endswith(prefix) else top

    def shared(name: str) -> tuple[str, str, str] | None:
        if shared_at is None or _named_for(name.rpartition("/")[2], languages):
            return None
        target = (shared_at[0][len(top):] if shared_at[0].startswith(top) else shared_at[0].lstrip("/")) + name
        return quote(shared_at[0] + name, safe="/:@!$&'()*+,;=-._~"), shared_at[1] + quote(name, safe="/"), target
    if rel_path.rsplit("/", 1)[-1] == "_index.md":   # a branch bundle: the files beside it (its pages are pages)
        files = language_files(files, language, languages) if languages else list(files)
        return page_resources(files, bundle, content, page_url, site_url, absolute_url, params.get("resources"),
                              shared, prefix)
    if rel_path != "index.md" and not rel_path.endswith("/index.md"):
        return PageResources()
    translations = {f"index.{key}.md" for key in languages}   # the page in other languages: none of its resources
    pages = sorted(path for path in (content / bundle).rglob("*.md") if path.name != "index.md"
                   and path.name not in translations)
    if languages:
        files = language_files(files, language, languages)
    found = page_resources(files, bundle, content, page_url, site_url, absolute_url, params.get("resources"), shared,
                           prefix, [path.relative_to(content / bundle).as_posix() for path in pages])
    for resource in found:   # map.fr.png is the French page's map.png: .Get and .GetMatch find it by that path too
        stem, dot, suffix = resource.original.rpartition(".")
        base, _, key = stem.rpartition(".")
        if dot and base and key == language and resource.original == resource.Name:
            resource.original = f"{base}.{suffix}"
    return found


def _named_for(name: str, languages: Collection[str]) -> bool:
    """Whether a file's name carries a language's key (map.fr.png)."""
    stem, dot, _ = name.rpartition(".")
    base, _, key = stem.rpartition(".")
    return bool(dot and base and key in languages)


@functools.lru_cache(maxsize=256)
def _glob(pattern: str) -> Callable[[str], bool]:
    """Hugo's glob over a resource name (both lower-cased, each with a leading slash; `/` separates)."""
    try:
        compiled = glob_regex("/" + pattern.lower().lstrip("/"))
    except GlobError as error:
        raise UnsupportedField(str(error)) from None
    return lambda name: compiled.fullmatch("/" + name.lower().lstrip("/")) is not None
