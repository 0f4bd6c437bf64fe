"""Find and read the content files, the templates' folders and the static files (the disk's reading end)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Container

from .config import SiteConfig
from .errors import SourceError, SourceWarning
from .model import SourceFile
from .names import is_skipped

MARKDOWN_SUFFIXES = (".md", ".markdown")
# Editor droppings and OS files never count as content.
# One page of markdown larger than this is a mistake (a pasted dump, a log, a data file), not a post: rendering
# it would take a minute and make a page no browser opens comfortably, so it is refused before reading.
MAX_SOURCE_BYTES = 8 * 1024 * 1024

THEME_DIR = Path(__file__).parent / "theme"


@dataclass(frozen=True)
class FoundFile:
    """A file found under a folder: absolute path, path relative to that folder, size and mtime."""

    path: str
    rel_path: str
    size: int
    mtime_ns: int


def walk_files(root: Path) -> list[FoundFile]:
    """Every non-ignored file below root, sorted by relative path (so discovery order never matters)."""
    found: list[FoundFile] = []
    if not root.is_dir():
        return found
    for folder, dirnames, filenames in os.walk(root):
        dirnames[:] = [name for name in dirnames if not is_skipped(name)]
        for name in filenames:
            if is_skipped(name):
                continue
            full = os.path.join(folder, name)
            try:
                stat = os.stat(full)
            except OSError:
                continue
            if not os.path.isfile(full):
                continue
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            found.append(FoundFile(full, rel, stat.st_size, stat.st_mtime_ns))
    found.sort(key=lambda item: item.rel_path)
    return found


def display_path(path: str, root: str) -> str:
    """The path as shown in messages: relative to the site folder when inside it."""
    try:
        rel = os.path.relpath(path, root)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel.replace(os.sep, "/")


def read_source(found: FoundFile, *, kind: str, resources: tuple[str, ...], shown_path: str) -> SourceFile:
    """Read one content file as UTF-8 text (BOM removed, CRLF normalised); errors name the line."""
    if found.size > MAX_SOURCE_BYTES:
        raise SourceError(shown_path, 1, f"file is {found.size / 1048576:.1f} MB, over the "
                          f"{MAX_SOURCE_BYTES // 1048576} MB limit for one page; split it into several posts "
                          "(a series) or move the data out of content/", stage="read")
    data = Path(found.path).read_bytes()
    if b"\x00" in data[:8192]:
        raise SourceError(shown_path, 1, "binary file in content/ (it has NUL bytes); "
                          "move it next to the post as a resource or out of content/", stage="read")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise SourceError(shown_path, line, f"not UTF-8 text (byte 0x{data[error.start]:02x}); "
                          "save the file as UTF-8", stage="read") from error
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return SourceFile(shown_path, found.rel_path, text, kind, resources)


LEAF_NAMES = ("index.md", "index.markdown")       # a folder holding one is a leaf bundle: a page with resources
BRANCH_NAMES = ("_index.md", "_index.markdown")   # a folder holding one is a section (a branch bundle)


@dataclass(frozen=True)
class ContentTree:
    """The content folder classified: markdown pages, section indexes, and other files to copy."""

    pages: tuple[tuple[FoundFile, str, tuple[str, ...]], ...]   # (file, kind, bundle resources)
    files: tuple[FoundFile, ...]                                  # non-markdown files, copied as they are
    warnings: tuple[SourceWarning, ...] = ()                      # markdown files that are no page, and why


def leaf_bundle(rel_path: str, bundles: Container[str]) -> str:
    """The leaf bundle folder ('about/') a content file is inside, the shallowest one as in Hugo, or ''."""
    folders = rel_path.split("/")[:-1]
    for depth in range(1, len(folders) + 1):
        folder = "/".join(folders[:depth]) + "/"
        if folder in bundles:
            return folder
    return ""


def scan_content(config: SiteConfig) -> ContentTree:
    """Classify the content folder into pages (with bundle resources) and plain files.

    As in Hugo, a folder with an index.md is a leaf bundle at any depth (content/about/index.md is the page
    /about/): every other file below it is one of its resources, and markdown there is no page of its own."""
    root = Path(config.root) / config.source_dir
    found = walk_files(root)
    markdown = [item for item in found if item.rel_path.lower().endswith(MARKDOWN_SUFFIXES)]
    others = [item for item in found if not item.rel_path.lower().endswith(MARKDOWN_SUFFIXES)]
    bundles: dict[str, FoundFile] = {}   # folder ('posts/x/') -> its index file
    for item in markdown:
        if "/" in item.rel_path and _name(item) in LEAF_NAMES:
            bundles.setdefault(item.rel_path.rsplit("/", 1)[0] + "/", item)
    resources: dict[str, list[str]] = {folder: [] for folder in bundles}
    for other in others:
        folder = leaf_bundle(other.rel_path, bundles)
        if folder:
            resources[folder].append(other.rel_path)
    pages = []
    warnings = []
    for item in markdown:
        folder = leaf_bundle(item.rel_path, bundles)
        if folder and item.rel_path.rsplit("/", 1)[0] + "/" == folder and _name(item) in LEAF_NAMES:
            pages.append((item, "page", tuple(resources[folder])))
        elif folder:
            warnings.append(_not_a_page(item, bundles[folder], config.root))
        else:
            pages.append((item, "section" if _name(item) in BRANCH_NAMES else "page", ()))
        if item.rel_path.lower() in LEAF_NAMES:
            warnings.append(SourceWarning(display_path(item.path, config.root), 1,
                                          "Hugo makes an index.md at the top of content/ the home page and hides "
                                          "every other page behind it; blogbuild publishes it at /index/: rename it "
                                          "to _index.md for the home page's text, or move it into a folder"))
    return ContentTree(tuple(pages), tuple(others), tuple(warnings))


def _name(item: FoundFile) -> str:
    return item.rel_path.rsplit("/", 1)[-1].lower()


def _not_a_page(item: FoundFile, index: FoundFile, root: str) -> SourceWarning:
    """The warning for a markdown file inside a leaf bundle, which Hugo keeps as an unpublished resource."""
    hint = ("rename that index file to _index.md to make the folder a section" if _name(item) in BRANCH_NAMES
            else "move it out of the bundle's folder, or rename that index file to _index.md to make the folder "
                 "a section")
    return SourceWarning(display_path(item.path, root), 1,
                         f"not published: it is inside the leaf bundle of {display_path(index.path, root)}, whose "
                         f"other files are the page's resources, as in Hugo; {hint}")


def static_files(config: SiteConfig) -> list[FoundFile]:
    """Theme static files overlaid by the site's static/ (the site wins), sorted by path."""
    merged: dict[str, FoundFile] = {}
    for folder in (THEME_DIR / "static", Path(config.root) / config.static_dir):
        for item in walk_files(folder):
            merged[item.rel_path] = item
    return [merged[key] for key in sorted(merged)]


def template_dirs(config: SiteConfig) -> list[Path]:
    """Template folders in lookup order: the site's templates/ first, then the theme's."""
    site_templates = Path(config.root) / config.templates_dir
    dirs = [site_templates] if site_templates.is_dir() else []
    dirs.append(THEME_DIR / "templates")
    return dirs
