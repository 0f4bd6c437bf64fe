"""Find and read the content files, the templates' folders and the static files (the disk's reading end)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .config import SiteConfig
from .errors import SourceError
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


@dataclass(frozen=True)
class ContentTree:
    """The content folder classified: markdown pages, section indexes, and other files to copy."""

    pages: tuple[tuple[FoundFile, str, tuple[str, ...]], ...]   # (file, kind, bundle resources)
    files: tuple[FoundFile, ...]                                  # non-markdown files, copied as they are


def scan_content(config: SiteConfig) -> ContentTree:
    """Classify the content folder into pages (with bundle resources) and plain files."""
    root = Path(config.root) / config.source_dir
    found = walk_files(root)
    markdown = [item for item in found if item.rel_path.lower().endswith(MARKDOWN_SUFFIXES)]
    others = [item for item in found if not item.rel_path.lower().endswith(MARKDOWN_SUFFIXES)]
    pages = []
    for item in markdown:
        name = item.rel_path.rsplit("/", 1)[-1].lower()
        kind = "section" if name in ("_index.md", "_index.markdown") else "page"
        resources: tuple[str, ...] = ()
        if kind == "page" and name in ("index.md", "index.markdown") and "/" in item.rel_path:
            folder = item.rel_path.rsplit("/", 1)[0] + "/"
            resources = tuple(other.rel_path for other in others if other.rel_path.startswith(folder))
        pages.append((item, kind, resources))
    return ContentTree(tuple(pages), tuple(others))


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
