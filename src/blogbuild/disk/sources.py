"""Find and read the content files, the templates' folders and the static files (the disk's reading end)."""
from __future__ import annotations

import errno
import fnmatch
import itertools
import os
import re
from dataclasses import replace
from pathlib import Path
from stat import S_ISDIR, S_ISREG
from typing import Callable, Container, Sequence

from ..config import SiteConfig
from ..core.errors import SourceError, SourceWarning
from ..core.model import SourceFile
from ..core.names import (HUGO_CONFIG_NAMES, VENDOR_FOLDER, data_folders, is_inside, is_skipped, is_skipped_static,
                          layout_folders, theme_folders)
from ..themes import Theme
from ..themes.default import DEFAULT_THEME
from ..core.records import dataclass

MARKDOWN_SUFFIXES = (".md", ".markdown")
# Editor droppings and OS files never count as content.
# One page of markdown larger than this is a mistake (a pasted dump, a log, a data file), not a post: rendering
# it would take a minute and make a page no browser opens comfortably, so it is refused before reading.
MAX_SOURCE_BYTES = 8 * 1024 * 1024

_WILDCARD = re.compile(r"[*?\[]")


@dataclass(frozen=True)
class FoundFile:
    """A file found under a folder: absolute path, path relative to that folder, size and mtime."""

    path: str
    rel_path: str
    size: int
    mtime_ns: int


@dataclass(frozen=True)
class SkippedLink:
    """A symbolic link a walk did not follow: the link (as shown in messages), its target, and why."""

    link: str
    target: str
    reason: str

    def warning(self) -> SourceWarning:
        """The one warning line that names the link and its target."""
        return SourceWarning(self.link, 0, f"symbolic link to {self.target} skipped: {self.reason}")


_OUTSIDE = ("it points outside the site folder, and a build reads nothing outside it; "
            "copy the file into the site instead of linking to it")
_LOOP = "a symbolic link loop (it leads back into a folder that contains it); remove the link"
_CYCLE = "a symbolic link loop (links that point at each other); remove the link"
_BROKEN = "its target does not exist; remove the link or restore the file"
_AGAIN = "the folder it points to is read already through another path; link it once"


def site_folders(config: SiteConfig) -> tuple[str, ...]:
    """The real paths a build may read: the site folder, and the folders its config names (content, static,
    templates), each resolved, so a folder symlinked in whole (as Hugo allows for its root folders) is the
    site's too."""
    root = Path(config.root)
    names = ("", config.source_dir, config.static_dir, config.templates_dir)
    return tuple(dict.fromkeys(os.path.realpath(root / name) for name in names))


def unreadable_folder(folder: str, error: OSError, shown_from: str | None) -> SourceError:
    """The error of a folder a walk cannot list (permissions, vanished mid-walk): its files would be missing."""
    shown = display_path(folder, shown_from) if shown_from else folder
    return SourceError(shown, 0, f"cannot read this folder: {error.strerror or error}; its files would be "
                       "missing from the site: make it readable (chmod u+rx) or move it out of the site",
                       stage="read")


def walk_files(root: Path, *, inside: Sequence[str] = (), skipped: list[SkippedLink] | None = None,
               shown_from: str | None = None, unreadable: list[SourceError] | None = None,
               skip_name: Callable[[str], bool] = is_skipped) -> list[FoundFile]:
    """Every non-ignored file below root (skip_name: the names left out, is_skipped_static in a static/ folder),
    sorted by relative path (so discovery order never matters).

    A symbolic link is followed only when its real path is below root or one of the folders inside names
    (site_folders()): a link out of the site, a loop, a dangling link or a second path to a folder already
    read is skipped and noted in skipped (paths shown relative to shown_from); a folder that cannot be listed
    is noted in unreadable."""
    found: list[FoundFile] = []
    if not root.is_dir():
        return found
    real_root = os.path.realpath(root)
    allowed = (real_root, *inside)
    walked = {real_root}
    # (folder as walked, the real folders on the way to it): a link back into one of them is a loop.
    pending: list[tuple[str, tuple[str, ...]]] = [(str(root), (real_root,))]

    def skip(path: str, target: str, reason: str) -> None:
        if skipped is not None:
            skipped.append(SkippedLink(display_path(path, shown_from) if shown_from else path, target, reason))

    while pending:
        folder, chain = pending.pop()
        try:
            with os.scandir(folder) as scanned:
                entries = list(scanned)
        except OSError as error:
            if unreadable is not None:
                unreadable.append(unreadable_folder(folder, error, shown_from))
            continue
        for entry in entries:
            if skip_name(entry.name):
                continue
            full = entry.path
            try:
                if entry.is_symlink():
                    target = os.path.realpath(full)
                    try:
                        stat = os.stat(full)
                    except OSError as error:
                        skip(full, os.readlink(full), _CYCLE if error.errno == errno.ELOOP else _BROKEN)
                        continue
                    if not is_inside(target, allowed):
                        skip(full, target, _OUTSIDE)
                        continue
                    if S_ISDIR(stat.st_mode):
                        if any(is_inside(real, (target,)) for real in chain):
                            skip(full, target, _LOOP)
                        elif target in walked:
                            skip(full, target, _AGAIN)
                        else:
                            walked.add(target)
                            pending.append((full, (*chain, target)))
                        continue
                elif entry.is_dir(follow_symlinks=False):
                    pending.append((full, (*chain, os.path.join(chain[-1], entry.name))))
                    continue
                else:
                    stat = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not S_ISREG(stat.st_mode):
                continue
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            found.append(FoundFile(full, rel, stat.st_size, stat.st_mtime_ns))
    found.sort(key=lambda item: item.rel_path)
    if skipped is not None:
        skipped.sort(key=lambda item: item.link)
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
    skipped: tuple[SkippedLink, ...] = ()                         # links not followed (walk_files)
    warnings: tuple[SourceWarning, ...] = ()                      # markdown files that are no page, and why
    errors: tuple[SourceError, ...] = ()                          # folders that cannot be read


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
    skipped: list[SkippedLink] = []
    unreadable: list[SourceError] = []
    found = walk_files(root, inside=site_folders(config), skipped=skipped, shown_from=config.root,
                       unreadable=unreadable)
    markdown = [item for item in found if item.rel_path.lower().endswith(MARKDOWN_SUFFIXES)]
    others = [item for item in found if not item.rel_path.lower().endswith(MARKDOWN_SUFFIXES)]
    if config.languages:
        others = _not_in_other_bundles(others, markdown, config)
        markdown = _of_language(markdown, config)
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
        elif _name(item) in BRANCH_NAMES:   # a branch bundle: the files beside its _index.md are its resources
            branch = item.rel_path.rsplit("/", 1)[0] + "/" if "/" in item.rel_path else ""
            pages.append((item, "section", tuple(other.rel_path for other in others
                                                 if (other.rel_path.rsplit("/", 1)[0] + "/" if "/" in other.rel_path
                                                     else "") == branch and not leaf_bundle(other.rel_path, bundles))))
        else:
            pages.append((item, "page", ()))
        if item.rel_path.lower() in LEAF_NAMES:
            warnings.append(SourceWarning(display_path(item.path, config.root), 1,
                                          "Hugo makes an index.md at the top of content/ the home page and hides "
                                          "every other page behind it; blogbuild publishes it at /index/: rename it "
                                          "to _index.md for the home page's text, or move it into a folder"))
    return ContentTree(tuple(pages), tuple(others), tuple(skipped), tuple(warnings), tuple(unreadable))


def content_language(rel_path: str, config: SiteConfig) -> tuple[str, str]:
    """(language key, path without it) of a markdown file of a multilingual site, as Hugo reads its name:
    'posts/x.en.md' and 'posts/x/index.en.md' are English at 'posts/x.md', 'posts/x/index.md'. A file whose name
    carries no language's key ('x.md', and 'x.fr.md' when fr is no language of the site) is the language of the
    content folder it is in: the first language (the default first) whose folder it is."""
    folder, _, name = rel_path.rpartition("/")
    stem, dot, suffix = name.rpartition(".")
    base, _, key = stem.rpartition(".")
    if base and dot and any(language.key == key for language in config.languages):
        return key, f"{folder}/{base}.{suffix}" if folder else f"{base}.{suffix}"
    owner = next((language.key for language in config.languages
                  if language.value("source_dir", config.source_dir) == config.source_dir), config.language)
    return owner, rel_path


def _not_in_other_bundles(others: list[FoundFile], markdown: list[FoundFile], config: SiteConfig) -> list[FoundFile]:
    """The files a language's site has: those of a leaf bundle only the other languages have (an index.fr.md
    alone) are their pages' resources, not this language's files to publish."""
    bundles: dict[str, bool] = {}   # folder -> whether this language has the bundle's page
    for item in markdown:
        key, path = content_language(item.rel_path, config)
        if "/" in path and path.rsplit("/", 1)[1].lower() in LEAF_NAMES:
            folder = path.rsplit("/", 1)[0] + "/"
            bundles[folder] = bundles.get(folder, False) or key == config.language
    return [item for item in others if bundles.get(leaf_bundle(item.rel_path, bundles), True)]


def _of_language(markdown: list[FoundFile], config: SiteConfig) -> list[FoundFile]:
    """The markdown files of the language config builds, each at its path without the language key."""
    kept = []
    for item in markdown:
        key, rel_path = content_language(item.rel_path, config)
        if key == config.language:
            kept.append(replace(item, rel_path=rel_path) if rel_path != item.rel_path else item)
    return kept


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


def theme_static_dirs(config: SiteConfig) -> list[Path]:
    """A Hugo site's themes' static/ folders, the first theme's first (published under the site's static/ when
    its own layouts render it)."""
    return [folder / "static" for folder in theme_folders(Path(config.root), config.hugo_themes)]


def static_files(config: SiteConfig, skipped: list[SkippedLink] | None = None,
                 unreadable: list[SourceError] | None = None, theme: Theme = DEFAULT_THEME) -> list[FoundFile]:
    """Theme static files overlaid by the site's static/ (the site wins), sorted by path; links the walk did
    not follow are noted in skipped, folders it could not list in unreadable."""
    merged: dict[str, FoundFile] = {}
    for item in walk_files(theme.static_dir) if theme.own_files else ():
        merged[item.rel_path] = item
    if theme.engine is not None:   # a Hugo site's own layouts: its themes' static/ too, the first theme's over the next
        for folder in reversed(theme_static_dirs(config)):
            for item in walk_files(folder, inside=site_folders(config), skipped=skipped, shown_from=config.root,
                                   unreadable=unreadable, skip_name=is_skipped_static):
                merged[item.rel_path] = item
    for item in walk_files(Path(config.root) / config.static_dir, inside=site_folders(config), skipped=skipped,
                           shown_from=config.root, unreadable=unreadable, skip_name=is_skipped_static):
        merged[item.rel_path] = item
    return [merged[key] for key in sorted(merged)]


def skipped_templates(config: SiteConfig) -> list[SkippedLink]:
    """The links among the site's templates that are not followed (the template loader skips the same)."""
    skipped: list[SkippedLink] = []
    walk_files(Path(config.root) / config.templates_dir, inside=site_folders(config), skipped=skipped,
               shown_from=config.root)
    return skipped


def _pattern_folder(root: Path, pattern: str) -> Path:
    """The folder of a file pattern: its path before the first part with a wildcard."""
    parts = pattern.replace("\\", "/").strip("/").split("/")[:-1]
    return root.joinpath(*itertools.takewhile(lambda part: not _WILDCARD.search(part), parts))


def stylesheet_folders(config: SiteConfig, *, existing: bool = True) -> list[Path]:
    """The folders the site's own stylesheets (theme.extended_css) are found in, so that a change there (a file
    added, edited or removed) is seen by the build record and the server's watcher; existing: only those that
    exist (the server also watches for the others to appear)."""
    root = Path(config.root)
    folders = dict.fromkeys(_pattern_folder(root, pattern) for pattern in config.theme.extended_css)
    return [folder for folder in folders if folder.is_dir() or not existing]


def stylesheet_files(config: SiteConfig) -> list[FoundFile]:
    """The site's own stylesheets in the order they are published: each theme.extended_css pattern's files in
    name order (as PaperMod's resources.Match), a file once; a link out of the site is not followed."""
    root = Path(config.root)
    found: dict[str, FoundFile] = {}
    for written in config.theme.extended_css:
        pattern = written.replace("\\", "/").strip("/")
        folder = _pattern_folder(root, pattern)
        prefix = folder.relative_to(root).as_posix()
        for item in walk_files(folder, inside=site_folders(config)):
            relative = item.rel_path if prefix == "." else f"{prefix}/{item.rel_path}"
            if relative.count("/") == pattern.count("/") and fnmatch.fnmatchcase(relative, pattern):
                found.setdefault(relative, replace(item, rel_path=relative))
    return list(found.values())


def stylesheet_bundle(config: SiteConfig) -> tuple[bytes, list[SourceWarning]]:
    """The site's own stylesheets as one file (each on its own lines, in publishing order: PaperMod concatenates
    them so), and a warning for a file that could not be read; b"" when the site has none."""
    parts: list[bytes] = []
    warnings: list[SourceWarning] = []
    for item in stylesheet_files(config):
        try:
            parts.append(Path(item.path).read_bytes().rstrip(b"\n") + b"\n")
        except OSError as error:
            warnings.append(SourceWarning(display_path(item.path, config.root), 0,
                                          f"stylesheet not published: {error.strerror or error}"))
    return b"".join(parts), warnings


def theme_config_files(config: SiteConfig) -> list[Path]:
    """The files besides the site's config that make a Hugo site's config: the list of vendored modules (which
    says where each theme is read from) and each theme's own config files (their params lie beneath the site's),
    whether they exist or not."""
    if not config.hugo_themes:
        return []
    root = Path(config.root)
    return [root / VENDOR_FOLDER / "modules.txt",
            *(folder / config_name for folder in theme_folders(root, config.hugo_themes)
              for config_name in HUGO_CONFIG_NAMES)]


def go_template_folders(config: SiteConfig) -> list[Path]:
    """A Hugo site's Go template folders (layouts/, themes/*/layouts/, the vendored modules') and i18n/: what its
    Go shortcodes and partials are read from (gotemplate/), so a change there renders the posts again; with them,
    the assets folders its layouts' Hugo Pipes read (assets/, each theme's assets/) and the data folders
    hugo.Data reads (data/, each theme's data/)."""
    root = Path(config.root)
    layouts = layout_folders(root)
    assets = [root / "assets", *(folder / "assets" for folder in theme_folders(root, config.hugo_themes))] \
        if layouts else []
    return [*layouts, *([root / "i18n"] if (root / "i18n").is_dir() else []),
            *(folder for folder in assets if folder.is_dir()), *data_folders(root)]


def template_dirs(config: SiteConfig, theme: Theme = DEFAULT_THEME) -> list[Path]:
    """Template folders in lookup order: the site's templates/ first, then the theme's."""
    site_templates = Path(config.root) / config.templates_dir
    dirs = [site_templates] if site_templates.is_dir() else []
    if theme.own_files:
        dirs.append(theme.templates_dir)
    return dirs
