"""Which of a Hugo site's layout files renders a page, as Hugo 0.146+ chooses (Hugo 0.168's template store).

The layout folders are the site's `layouts/` first, then each theme's (`themes/NAME/layouts/`, as the
config's `theme` names them, first wins); a path in an earlier folder hides the same path in a later one.
Every file is read as Hugo reads it: the classic structure (`_default/single.html`, `index.html`,
`SECTION/list.html`, `taxonomy/tag.html`, `_default/terms.html`, `SECTION-baseof.html`, `partials/`, …) is
first mapped to the new one (`single.html`, `home.html`, `SECTION/section.html`, `tags/term.html`,
`taxonomy.html`, `baseof.SECTION.html`, `_partials/`, …). A file's folder is the part of the content tree
it serves, its name's identifiers (`NAME.LAYOUT.LANG.FORMAT.EXT`, read from the right) are a page kind
(home, page, section, taxonomy, term), a layout (single, list, all or a custom one), an output format
(html, rss, 404, …) and a language. For a page, every file whose folder is on the page's path (the
content path, its first folder replaced by the page's `type:`) and whose identifiers fit the page is
weighed: kind 5, custom layout (front matter `layout:`) 6, single/list 4, all 2, output format 4, media
type 1, language 1, with the nearer folder winning unless it is a weaker kind of match. The chosen file
renders through a `baseof.html` when its first action is a `define` (the same weighing over the base
templates on the page's path).

Pure: the folders are listed and a chosen file's first bytes read, nothing is rendered. Hugo's embedded
templates (its RSS and sitemap) are not files: no candidate there means Hugo's own.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core.names import theme_folders

# Page kinds, and the output formats Hugo defines by default: name -> (media type, file suffix).
KINDS = {"page": "page", "home": "home", "section": "section", "taxonomy": "taxonomy", "term": "term",
         "taxonomyterm": "taxonomy"}
OUTPUT_FORMATS = {"html": ("text/html", "html"), "amp": ("text/html", "html"), "404": ("text/html", "html"),
                  "rss": ("application/rss+xml", "xml"), "json": ("application/json", "json"),
                  "sitemap": ("application/xml", "xml"), "sitemapindex": ("application/xml", "xml"),
                  "robots": ("text/plain", "txt"), "calendar": ("text/calendar", "ics"), "csv": ("text/csv", "csv"),
                  "webappmanifest": ("application/manifest+json", "webmanifest")}
# A suffix's first media type (Hugo sorts its media types): index.xml is RSS.
_MEDIA_BY_SUFFIX = {"html": "text/html", "htm": "text/html", "xml": "application/rss+xml", "json": "application/json",
                    "txt": "text/plain", "ics": "text/calendar", "csv": "text/csv", "css": "text/css",
                    "js": "text/javascript", "webmanifest": "application/manifest+json"}
_STANDARD_LAYOUTS = frozenset({"all", "list", "single"})
_CONTAINERS = ("_partials", "_shortcodes", "_markup", "partials", "shortcodes")
DEFAULT_TAXONOMIES = {"tag": "tags", "category": "categories"}

_TERM_MAPPINGS = [   # (classic path, target folder, kind), best first
    ("/PLURAL/term", "/PLURAL"), ("/PLURAL/SINGULAR", "/PLURAL"), ("/term/term", ""), ("/term/SINGULAR", "/PLURAL"),
    ("/term/taxonomy", "/PLURAL"), ("/term/list", ""), ("/taxonomy/term", ""), ("/taxonomy/SINGULAR", "/PLURAL"),
    ("/SINGULAR/term", "/PLURAL"), ("/SINGULAR/SINGULAR", "/PLURAL"), ("/_default/SINGULAR", "/PLURAL"),
    ("/_default/taxonomy", "")]
_TAXONOMY_MAPPINGS = [
    ("/PLURAL/SINGULAR.terms", "/PLURAL"), ("/PLURAL/terms", "/PLURAL"), ("/PLURAL/taxonomy", "/PLURAL"),
    ("/PLURAL/list", "/PLURAL"), ("/SINGULAR/SINGULAR.terms", "/PLURAL"), ("/SINGULAR/terms", "/PLURAL"),
    ("/SINGULAR/taxonomy", "/PLURAL"), ("/SINGULAR/list", "/PLURAL"), ("/taxonomy/SINGULAR.terms", "/PLURAL"),
    ("/taxonomy/terms", ""), ("/taxonomy/taxonomy", ""), ("/taxonomy/list", ""), ("/_default/SINGULAR.terms", ""),
    ("/_default/terms", ""), ("/_default/taxonomy", "")]
_SECTION_MAPPINGS = [
    ("/THESECTION/THESECTION", "/THESECTION"), ("/SECTIONKIND/THESECTION", "/THESECTION"),
    ("/SECTIONKIND/SECTIONKIND", ""), ("/SECTIONKIND/list", ""), ("/_default/THESECTION", "/THESECTION")]


@dataclass(frozen=True)
class Descriptor:
    """What a template file serves, or what a page asks for."""
    kind: str = ""
    layout: str = ""            # from the file's name (single, list, all, a custom one); a page's default
    user_layout: str = ""       # a page's front matter layout
    output_format: str = ""
    media_type: str = ""
    language: str = ""


@dataclass(frozen=True)
class Template:
    """A layout file as Hugo stores it: the folder key it serves, baseof or layout, what it matches."""
    path: str                   # its path under the layout folder, as written ("_default/single.html")
    folder: Path
    key: str                    # "" for the root, "/posts"
    baseof: bool
    descriptor: Descriptor
    ordinal: int                # 0 the site's folder, 1… the themes'
    identifiers: int = 0

    @property
    def file(self) -> Path:
        return self.folder / self.path


@dataclass(frozen=True)
class PageQuery:
    """A page as the lookup sees it. kind: home, page, section, taxonomy, term, or the standalone 404 and
    sitemap; path: its content path without extension ("posts/one", "posts" for a section, "tags/go" for a
    term, "" for home, "404", "sitemap"); type and layout: its front matter's."""
    kind: str
    path: str = ""
    type: str = ""
    layout: str = ""
    output_format: str = "html"
    language: str = ""


@dataclass(frozen=True)
class Choice:
    """The lookup's answer: the files that fit, best first, the one Hugo renders and its base template."""
    candidates: tuple[Path, ...]
    template: Path | None
    base: Path | None = None


@dataclass
class _Weight:
    w1: int = 0
    w2: int = 0
    w3: int = 0
    wsm: int = 0
    distance: int = 0

    def equal(self, other: _Weight) -> bool:
        return (self.w1, self.w2, self.w3) == (other.w1, other.w2, other.w3)


_NO_MATCH = _Weight()


def layout_folders(root: Path, theme: str | Sequence[str] | None = None) -> list[Path]:
    """The layout folders of the site at root in Hugo's order: layouts/, then each named theme's (under themes/,
    or vendored under _vendor/)."""
    names = [theme] if isinstance(theme, str) else list(theme or ())
    folders = [root / "layouts", *(folder / "layouts" for folder in theme_folders(root, [str(name) for name in names
                                                                                            if name]))]
    return [folder for folder in folders if folder.is_dir()]


def partial_file(folders: Sequence[Path], name: str) -> Path | None:
    """The file `partial "name"` renders: the first folder with `_partials/NAME.html` or `partials/NAME.html`,
    the new spelling first within a folder (name without .html is the same, unless a file has that very name:
    svg/time.svg, as partial_key decides)."""
    containers = ("_partials", "partials")
    named = None if name.endswith(".html") else _first_file(folders, containers, name)
    return named or _first_file(folders, containers, name if name.endswith(".html") else name + ".html")


def shortcode_file(folders: Sequence[Path], name: str) -> Path | None:
    """The file shortcode `name` renders in HTML: `_shortcodes/NAME.html` or `shortcodes/NAME.html`, first
    folder first, the new spelling first within a folder."""
    return _first_file(folders, ("_shortcodes", "shortcodes"), name + ".html")


def partial_key(partials: Mapping[str, Any], name: str) -> str:
    """The key of a partial called by name: the file of that name (svg/time.svg, foo.html), else NAME.html."""
    return name if name.endswith(".html") or name in partials else name + ".html"


def _first_file(folders: Sequence[Path], containers: tuple[str, ...], relative: str) -> Path | None:
    if relative.startswith("/") or ".." in relative.split("/"):
        return None
    for folder in folders:
        for container in containers:
            path = folder / container / relative
            if path.is_file():
                return path
    return None


# ---------------------------------------------------------------------------- reading a file's name

@dataclass
class _Name:
    dir: str
    base: str = ""              # the name without identifiers ("baseof", "single", …)
    ext: str = ""
    kind: str = ""
    layout: str = ""
    output_format: str = ""
    language: str = ""
    baseof: bool = False
    count: int = 0


def _read_name(path: str, languages: frozenset[str]) -> _Name:
    """A layout path's identifiers, read from the right as Hugo's path parser reads them."""
    folder, _, name = path.rpartition("/")
    pieces = name.split(".")
    parsed = _Name(folder, ext=pieces[-1] if len(pieces) > 1 else "")
    if len(pieces) > 1 and pieces[-1] in OUTPUT_FORMATS:
        parsed.output_format = pieces[-1]
    kept: list[str] = []
    for index in range(len(pieces) - 2, -1, -1):
        piece = pieces[index].lower()
        parsed.count += 1
        if not parsed.language and len(pieces) > 2 and piece in languages:
            parsed.language = piece
            continue
        if piece in OUTPUT_FORMATS and OUTPUT_FORMATS[piece][1] == parsed.ext:
            parsed.output_format = piece
            continue
        kept.insert(0, pieces[index])
        if not parsed.kind and piece in KINDS:
            parsed.kind = KINDS[piece]
        elif piece == "baseof":
            parsed.baseof = True
        else:
            parsed.layout = piece
    parsed.base = kept[0].lower() if kept else ""
    return parsed


def _media_type(output_format: str, ext: str) -> str:
    if output_format in OUTPUT_FORMATS:
        return OUTPUT_FORMATS[output_format][0]
    return _MEDIA_BY_SUFFIX.get(ext, "")


def _from_legacy(path: str) -> str:
    """A classic path in the new structure: _default/ is the root, list-baseof.html is baseof.list.html."""
    path = path.removeprefix("/_default")
    folder, _, name = path.rpartition("/")
    if "-baseof" in name and name.index("-") > 0:
        identifier, rest = name.split("-", 1)
        rest = rest[len("baseof"):]
        path = f"{folder}/baseof.{identifier}{rest if rest.startswith('.') else '.' + rest}"
    return path


def _descriptor(name: _Name) -> tuple[str, Descriptor]:
    """The folder key and descriptor of a file (Hugo's toKeyCategoryAndDescriptor)."""
    layout = name.layout
    kind = name.kind
    if layout == name.output_format:
        layout = ""
    if layout == "index":
        kind = kind or "home"
        layout = ""
    if layout == kind:
        layout = ""
    key = name.dir.removeprefix("/_default").lower()
    return key, Descriptor(kind, layout, "", name.output_format, _media_type(name.output_format, name.ext),
                           name.language)


# ---------------------------------------------------------------------------- the store

def _files(folders: Sequence[Path]) -> list[tuple[str, Path, int]]:
    """(path under its folder, folder, ordinal) of every layout file; an earlier folder's path hides a later's.
    Symlinked folders are followed once (a loop is not walked again); dot files and backups~ are not layouts."""
    seen: set[str] = set()
    found = []
    for ordinal, folder in enumerate(folders):
        walked: set[str] = set()
        for directory, subdirectories, names in os.walk(folder, followlinks=True):
            real = os.path.realpath(directory)
            if real in walked:
                subdirectories.clear()
                continue
            walked.add(real)
            subdirectories.sort()
            for name in sorted(names):
                relative = (Path(directory) / name).relative_to(folder).as_posix()
                if relative in seen or name.startswith(".") or name.endswith("~") \
                        or not (Path(directory) / name).is_file():
                    continue
                seen.add(relative)
                found.append((relative, folder, ordinal))
    return sorted(found, key=lambda item: (item[2], item[0]))


class LayoutStore:
    """The page layouts and base templates of a site's layout folders, keyed as Hugo keys them."""

    def __init__(self, folders: Sequence[Path], *, taxonomies: Mapping[str, str] | None = None,
                 languages: Sequence[str] = (), paths: Sequence[str] | None = None) -> None:
        """paths: file paths to read as if they were in one folder (instead of listing folders)."""
        self.taxonomies = dict(DEFAULT_TAXONOMIES if taxonomies is None else taxonomies)
        self.languages = frozenset(language.lower() for language in languages)
        self.templates: dict[tuple[str, bool, Descriptor], Template] = {}
        self.choices: dict[tuple[Descriptor, tuple[str, ...], int], Choice] = {}   # lookup()'s answers
        self._terms, self._taxonomies = self._expand(_TERM_MAPPINGS), self._expand(_TAXONOMY_MAPPINGS)
        mapped: dict[tuple[str, bool, str, str, str], tuple[int, Template]] = {}
        listed = _files(folders) if paths is None else [(path, Path(), 0) for path in paths]
        for relative, folder, ordinal in listed:
            original = "/" + relative.lower()
            if original.split("/")[1] in _CONTAINERS or any(f"/{name}/" in original for name in _CONTAINERS[:3]):
                continue      # partials, shortcodes and render hooks are looked up by name, not for pages
            path = _from_legacy(original)
            name = _read_name(path, self.languages)
            key, descriptor = _descriptor(name)
            template = Template(relative, folder, key, name.baseof, descriptor, ordinal, name.count)
            self._insert(template, replace_=False)
            if path.count("/") <= 2:
                self._legacy(original, path, template, mapped)
        for (target, baseof, kind, _, _), (_, template) in mapped.items():
            descriptor = replace(template.descriptor, kind=kind, layout="")
            self._insert(replace(template, key=target, baseof=baseof, descriptor=descriptor), replace_=True)
        self._keys = tuple(sorted({template.key for template in self.templates.values()}))

    def _insert(self, template: Template, *, replace_: bool) -> None:
        slot = (template.key, template.baseof, template.descriptor)
        existing = self.templates.get(slot)
        if existing is not None and not replace_:
            if template.ordinal >= existing.ordinal and template.identifiers >= existing.identifiers:
                return
        self.templates[slot] = template

    def memo_key(self, page: Descriptor, page_key: str) -> tuple[Descriptor, tuple[str, ...], int]:
        """What the lookup's answer for a page depends on: what it asks for, the folder keys of the templates
        on its path and its depth (pages of one section share it: they are looked up once)."""
        return page, tuple(key for key in self._keys if _in_path(page_key, key)), page_key.count("/")

    def _legacy(self, original: str, path: str, template: Template,
                mapped: dict[tuple[str, bool, str, str, str], tuple[int, Template]]) -> None:
        """The classic taxonomy, term and section paths (Hugo's legacy mappings), best ordinal kept."""
        plain = self._plain(original)
        descriptor = template.descriptor

        def handle(ordinal: int, target: str, kind: str, baseof: bool) -> None:
            slot = (target, baseof, kind, descriptor.output_format, template.path.rsplit(".", 1)[-1])
            if slot not in mapped or ordinal < mapped[slot][0]:
                mapped[slot] = (ordinal, template)

        for mappings, kind in ((self._terms, "term"), (self._taxonomies, "taxonomy")):
            if plain in mappings:
                handle(*mappings[plain], kind, False)
        name = _read_name(path, self.languages)
        section = path.split("/")[1] if path.count("/") >= 2 else ""
        identifiers = list(dict.fromkeys(part for part in (name.layout, name.kind) if part))
        if section and section not in ("taxonomy", *self.taxonomies, *self.taxonomies.values()) \
                and section not in identifiers:
            identifiers.append(section)
        sections = [(source + suffix, target, suffix != "") for source, target in _SECTION_MAPPINGS
                    for suffix in ("", "-baseof")]
        for identifier in identifiers:
            for tokens in _section_tokens(plain, identifier):
                for ordinal, (source, target, baseof) in enumerate(sections):
                    if source == tokens:
                        handle(ordinal, target.replace("THESECTION", identifier), "section", baseof)

    def _expand(self, mappings: list[tuple[str, str]]) -> dict[str, tuple[int, str]]:
        """The classic paths for the site's taxonomies: path -> (ordinal, target folder); a path that comes
        twice (a taxonomy whose singular is its plural) keeps its later place, as Hugo's map does."""
        out: dict[str, tuple[int, str]] = {}
        ordinal = 0
        for source, target in mappings:
            pairs = self.taxonomies.items() if "SINGULAR" in source + target or "PLURAL" in source + target \
                else [("SINGULAR", "PLURAL")]
            for singular, plural in pairs:
                out[source.replace("SINGULAR", singular).replace("PLURAL", plural)] = \
                    (ordinal, target.replace("SINGULAR", singular).replace("PLURAL", plural))
                ordinal += 1
        return out

    @staticmethod
    def _plain(original: str) -> str:
        """The path without its extension ("/_default/terms"; "/_default/list.rss" keeps its format, so
        the classic mappings take only a format's own ext, as Hugo's do)."""
        folder, _, name = original.rpartition("/")
        return f"{folder}/{name.rsplit('.', 1)[0] if '.' in name else name}"


def _section_tokens(base: str, identifier: str) -> list[str]:
    """Hugo's /SECTIONKIND/THESECTION forms of a classic path for one identifier."""
    kind_only = identifier in _STANDARD_LAYOUTS
    out = []
    first = base if kind_only else base.replace(identifier, "THESECTION")
    first = first.replace("section", "SECTIONKIND")
    if first != base:
        out.append(first)
    second = base.replace("section", "SECTIONKIND")
    second = second if kind_only else second.replace(identifier, "THESECTION")
    if second != base and second not in out:
        out.append(second)
    return out


# ---------------------------------------------------------------------------- weighing

def _compare(this: Descriptor, other: Descriptor, *, baseof: bool) -> _Weight:
    """How well a template (other) fits a page (this); w1 0 when it does not (Hugo's doCompare)."""
    if other.kind and other.kind != this.kind:
        return _NO_MATCH
    if other.layout and other.layout != "all":
        if (not this.user_layout or this.user_layout != other.layout) and other.layout != this.layout:
            return _NO_MATCH
    if other.language and other.language != this.language:
        return _NO_MATCH
    if other.output_format and other.output_format != this.output_format:
        if this.media_type != other.media_type:
            return _NO_MATCH
        skip = not baseof and (not this.kind or (this.kind != other.kind and this.layout != other.layout
                                                 and other.layout != "all"))
        if this.user_layout:
            skip = skip and this.user_layout != other.layout
        if skip:
            return _NO_MATCH
    if other.media_type != this.media_type:
        return _NO_MATCH
    weight = _Weight(w1=1)
    if other.kind and other.kind == this.kind:
        weight.w1 += 5
        weight.w2 = 1
    if other.layout and other.layout == this.layout:
        weight.w1 += 4
        weight.w2 = 1
    elif other.layout == "all":
        weight.w1 += 2
        weight.w2 = 1
    if this.user_layout and this.user_layout == other.layout:
        weight.w1 += 6
        weight.w2 = 2
    weight.w1 += 1                               # every template serves the page's language
    weight.wsm = 2 if other.language else 1
    if other.output_format and other.output_format == this.output_format:
        weight.w1 += 4
        weight.w3 += 1
    if other.media_type and other.media_type == this.media_type:
        weight.w1 += 1
        weight.w3 += 1
    return weight


def _better(weight: _Weight, template: Template, best: tuple[_Weight, Template] | None) -> bool:
    """Hugo's bestMatch.isBetter."""
    if best is None:
        return True
    best_weight, best_template = best
    if weight.w1 <= 0:
        return best_weight.w1 <= 0 and template.path < best_template.path
    if weight.distance < best_weight.distance:
        if weight.wsm < best_weight.wsm or weight.w2 < best_weight.w2 or weight.w3 < best_weight.w3:
            return False
    elif weight.w1 < best_weight.w1:
        return False
    if weight.equal(best_weight):
        if weight.distance < best_weight.distance:
            return True
        return template.path < best_template.path
    return True


def _in_path(page_key: str, key: str) -> bool:
    return key == page_key or page_key.startswith(key + "/") or key == ""


def _page_key(query: PageQuery) -> str:
    """The content path the lookup walks down, its first folder replaced by the page's type."""
    parts = [part for part in query.path.lower().strip("/").split("/") if part]
    section = parts[0] if len(parts) > 1 or query.kind != "page" and parts else ""
    kind_type = query.type.lower()
    if kind_type and kind_type != section:
        parts = [kind_type, *parts[1:]] if section else [kind_type]
    return "/" + "/".join(parts) if parts else ""


def page_descriptor(query: PageQuery) -> Descriptor:
    """What a page asks for: its kind, single or list, its front matter layout, output format, language."""
    kind = KINDS.get(query.kind.lower(), "")
    output_format = query.kind if query.kind in ("404", "sitemap") else query.output_format.lower()
    layout = ("single" if kind == "page" else "list") if kind else ""
    return Descriptor(kind, layout, query.layout.lower(), output_format, _media_type(output_format, ""),
                      query.language.lower())


# ---------------------------------------------------------------------------- the lookup

def _ranked(page_key: str, weighed: list[tuple[_Weight, Template]]) -> list[tuple[_Weight, Template]]:
    """The fitting templates best first: each is the one Hugo's walk (root folder first) keeps of the rest."""
    remaining = sorted((item for item in weighed if item[0].w1 > 0),
                       key=lambda item: (-item[0].distance, item[1].path))
    ranked = []
    while remaining:
        best: tuple[_Weight, Template] | None = None
        for item in remaining:
            if _better(item[0], item[1], best):
                best = item
        assert best is not None
        ranked.append(best)
        remaining.remove(best)
    return ranked


def _weighed(store: LayoutStore, page: Descriptor, page_key: str, *, baseof: bool,
             fits: Template | None = None) -> list[tuple[_Weight, Template]]:
    out = []
    depth = page_key.count("/")
    for template in store.templates.values():
        if template.baseof != baseof or not _in_path(page_key, template.key):
            continue
        if fits is not None and not (_kind_in_layout(template.descriptor, fits.descriptor.layout)
                                     and _compare(fits.descriptor, template.descriptor, baseof=True).w1 > 0):
            continue
        weight = _compare(page, template.descriptor, baseof=baseof)
        weight.distance = depth - template.key.count("/")
        out.append((weight, template))
    return out


def _kind_in_layout(descriptor: Descriptor, layout: str) -> bool:
    if not descriptor.kind:
        return True
    if descriptor.kind != "page":
        return layout != "single"
    return layout != "list"


def lookup(store: LayoutStore, query: PageQuery) -> Choice:
    """The layout files that fit the page, best first, the one Hugo renders it with (None: none fits, Hugo
    warns or uses its embedded template) and the baseof.html it renders through (None: the layout alone)."""
    page = page_descriptor(query)
    page_key = _page_key(query)
    memo = store.memo_key(page, page_key)
    choice = store.choices.get(memo)
    if choice is None:
        choice = store.choices[memo] = _choice(store, page, page_key,
                                               _ranked(page_key, _weighed(store, page, page_key, baseof=False)))
    return choice


def content_view(store: LayoutStore, query: PageQuery, name: str) -> Choice:
    """`.Render NAME` of the page: the layout files named NAME that fit it, best first (a type's or section's
    folder before the root, `NAME.KIND.html` before `NAME.html`, as for the page's own layout), the one Hugo
    renders and its base template (when the file's first action is a define)."""
    view = replace(query, layout=name)
    page = page_descriptor(view)
    page_key = _page_key(view)
    named = [item for item in _weighed(store, page, page_key, baseof=False)
             if item[1].descriptor.layout == name.lower()]
    return _choice(store, page, page_key, _ranked(page_key, named))


def _choice(store: LayoutStore, page: Descriptor, page_key: str, ranked: list[tuple[_Weight, Template]]) -> Choice:
    """The lookup's answer from the fitting templates, best first: the first, and the base it pairs with."""
    if not ranked:
        return Choice((), None)
    chosen = ranked[0][1]
    candidates = tuple(template.file for _, template in ranked)
    if not needs_base(_head(chosen.file)):
        return Choice(candidates, chosen.file)
    bases = _ranked(page_key, _weighed(store, page, page_key, baseof=True, fits=chosen))
    return Choice(candidates, chosen.file, bases[0][1].file if bases else None)


def search_order(query: PageQuery, *, taxonomies: Mapping[str, str] | None = None,
                 languages: Sequence[str] = ()) -> tuple[str, ...]:
    """Every path (in the new structure, below a layout folder) where a layout for the page can go, in
    Hugo's order of preference when all of them exist: for a message that says where to put one. Hugo's
    weighing is not one order over every set of files (a nearer folder wins only on an equal kind of
    match), so which of several existing files renders the page is lookup()'s answer, not this order's."""
    page = page_descriptor(query)
    key = _page_key(query)
    folders = [""] + ["/".join(key.strip("/").split("/")[:depth]) + "/" for depth in range(1, key.count("/") + 1)]
    if page.output_format == "html":
        formats = [("", "html")]
    else:
        suffix = OUTPUT_FORMATS.get(page.output_format, ("", "html"))[1]
        formats = [("." + page.output_format, suffix), ("", suffix)]
    names = {page.kind, page.layout, page.user_layout, "all", page.output_format} - {"", "html"}
    languages_here = ["", "." + page.language] if page.language else [""]
    paths = [f"{folder}{name}{language}{identifier}.{suffix}" for folder in folders for name in sorted(names)
             for language in languages_here for identifier, suffix in formats]
    store = LayoutStore((), taxonomies=taxonomies, languages=languages or ([page.language] if page.language else ()),
                        paths=[path for path in paths if not path.startswith(("_", "partials/", "shortcodes/"))])
    ranked = _ranked(key, _weighed(store, page, key, baseof=False))
    return tuple(template.path for _, template in ranked)


def _head(path: Path) -> str:
    try:
        with path.open(encoding="utf-8-sig", errors="replace") as file:
            return file.read(65536)
    except OSError:
        return ""


_DEFINE_FIRST = re.compile(r"\{\{-?\s*define")


def needs_base(source: str) -> bool:
    """Hugo's test for a layout that renders through a base template: its first action, after white space
    and comments written `{{/* … */}}` or `{{- /* … */ -}}`, is a define."""
    index, in_comment, length = 0, False, len(source)
    while index < length:
        if not in_comment and source.startswith("{{/*", index):
            in_comment, index = True, index + 4
        elif not in_comment and source.startswith("{{- /*", index):
            in_comment, index = True, index + 6
        elif in_comment and source.startswith("*/}}", index):
            in_comment, index = False, index + 4
        elif in_comment and source.startswith("*/ -}}", index):
            in_comment, index = False, index + 6
        elif not in_comment:
            if source.startswith("{{", index):
                return _DEFINE_FIRST.match(source, index) is not None
            if not source[index].isspace():
                return False
            index += 1
        else:
            index += 1
    return False
