"""File names with a meaning to blogbuild, one home: the config files it reads and the files it skips, and
whether a path is inside a folder (the one rule every reader of the site's files applies to real paths).

A leaf module (no blogbuild imports) so that the no-op check (manifest.py) can name the config files cheaply,
and the Go templates, the watcher and the Hugo inventory can check paths without importing sources.py.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

CONFIG_NAMES = ("blogbuild.yaml", "blogbuild.yml", "blogbuild.toml")
# With no blogbuild config, Hugo's is read (hugo_config.py), in Hugo's own lookup order: hugo.* wins over
# config.*, then the config/_default/ folder.
HUGO_CONFIG_NAMES = tuple(f"{stem}.{suffix}" for stem in ("hugo", "config")
                          for suffix in ("toml", "yaml", "yml", "json"))
HUGO_CONFIG_FOLDER = os.path.join("config", "_default")

# The first line of a translation `init --from-hugo` writes into templates/shortcodes/: such a file is the
# author's own from then on, and renders in the Go templates' environment (Hugo's names and escaping).
TRANSLATED_MARK = "{#- blogbuild: translated from "

# Every temporary file blogbuild writes (atomic.py) ends with this, so the build and the watcher skip it.
TEMPORARY_SUFFIX = ".tmp"
# Editor and OS droppings: vim swap files and its 4913 write probe, emacs lock, auto-save and backup files,
# KDE and GNOME save temporaries, merge leftovers, Finder and Explorer litter.
_SKIPPED_SUFFIXES = ("~", ".swp", ".swx", ".swo", ".swn", ".kate-swp", TEMPORARY_SUFFIX, ".bak", ".orig")
_SKIPPED_NAMES = frozenset({"4913", ".DS_Store", "Thumbs.db"})


def is_skipped(name: str) -> bool:
    """True for a file or folder name that is never content, template or static file: hidden names (a
    leading dot, which covers `.#lock` files and `.goutputstream-*`), `#auto-save#` files, editor and OS
    droppings, and blogbuild's own temporary files. The watcher skips the same names: no rebuild for them."""
    return name.startswith((".", "#")) or name.endswith(_SKIPPED_SUFFIXES) or name in _SKIPPED_NAMES


# Version control's folders: never published, not even from static/.
_VCS_FOLDERS = frozenset({".git", ".svn", ".hg", ".bzr", "CVS"})


def is_skipped_static(name: str) -> bool:
    """is_skipped for a name inside a static/ folder, whose hidden files are published as Hugo publishes them
    (.nojekyll, .well-known/, .htaccess, _headers' neighbours): only editor and OS droppings, lock and auto-save
    files, blogbuild's temporaries and version control's folders are left out there."""
    return name in _VCS_FOLDERS or name.startswith(("#", ".#", ".goutputstream-")) \
        or name.endswith(_SKIPPED_SUFFIXES) or name in _SKIPPED_NAMES


def config_paths(root: str) -> list[str]:
    """Every path whose change can change a site's config when no --config is given: blogbuild's config
    files, Hugo's, and Hugo's config/_default/ folder with the files in it (missing ones included: a
    config appearing is a change too)."""
    paths = [os.path.join(root, name) for name in (*CONFIG_NAMES, *HUGO_CONFIG_NAMES)]
    folder = os.path.join(root, HUGO_CONFIG_FOLDER)
    paths.append(folder)
    try:
        with os.scandir(folder) as entries:
            paths.extend(sorted(entry.path for entry in entries if entry.is_file()))
    except OSError:
        pass
    return paths


def is_config_path(path: str, root: str) -> bool:
    """Whether an absolute path is one of config_paths(root): a change to it changes which config applies."""
    folder = os.path.join(root, HUGO_CONFIG_FOLDER)
    if os.path.dirname(path) == folder:
        return True
    return os.path.dirname(path) == root and os.path.basename(path) in (*CONFIG_NAMES, *HUGO_CONFIG_NAMES)


def is_inside(real_path: str, folders: Sequence[str]) -> bool:
    """Whether a path is one of folders or below one (compare real, resolved paths: a link out of a folder
    is not inside it)."""
    return any(real_path == folder or real_path.startswith(folder.rstrip(os.sep) + os.sep) for folder in folders)


# `hugo mod vendor` copies a site's Hugo modules (a theme imported by its Go module path) under _vendor/ and
# lists them in _vendor/modules.txt, one `# PATH VERSION` a line; Hugo then reads each listed module from
# _vendor/PATH, before themes/.
VENDOR_FOLDER = "_vendor"
_MAX_MODULES_LIST = 1_000_000


def vendored_modules(root: Path) -> dict[str, Path]:
    """The site's vendored Hugo modules, {module path: its folder under _vendor/}, in the list's order, read as
    Hugo reads _vendor/modules.txt (a line's `#` and spaces trimmed, then its two fields: path and version; a
    line of other fields is skipped, where Hugo stops). A path leaving _vendor/ (`..`, a link out of the site) or
    naming no folder is left out."""
    vendor = root / VENDOR_FOLDER
    try:
        with open(vendor / "modules.txt", encoding="utf-8", errors="replace") as listing:
            text = listing.read(_MAX_MODULES_LIST)
    except OSError:
        return {}
    inside = (os.path.realpath(vendor),)
    found: dict[str, Path] = {}
    for line in text.splitlines():
        fields = line.strip("# ").split()
        path = fields[0].strip("/") if len(fields) == 2 else ""
        if not path or path in found:
            continue
        folder = vendor / path
        if ".." not in path.split("/") and is_inside(os.path.realpath(folder), inside) and folder.is_dir():
            found[path] = folder
    return found


def theme_folders(root: Path, names: Sequence[str]) -> list[Path]:
    """Where each of a Hugo site's themes (a name under themes/, or a module path from module.imports) is read
    from, in order: its folder under _vendor/ when the site vendored it, else themes/NAME, as Hugo looks."""
    vendored = vendored_modules(root)
    return [vendored.get(name.strip("/"), root / "themes" / name) for name in names]


def data_folders(root: Path, *, existing: bool = True) -> list[Path]:
    """The folders hugo.Data reads: data/, then each theme's data/ (themes/*/data, in name order; then the
    vendored modules' in the order _vendor/modules.txt lists them); existing: only those that exist (else the
    site's data/ whether it does or not, whose appearing is a change)."""
    folders = [root / "data"]
    themes = root / "themes"
    if themes.is_dir():
        folders += sorted(folder for folder in themes.glob("*/data"))
    folders += [folder / "data" for folder in vendored_modules(root).values()]
    return [folder for index, folder in enumerate(folders) if folder.is_dir() or (index == 0 and not existing)]


def layout_folders(root: Path) -> list[Path]:
    """A Hugo site's Go template folders in lookup order: layouts/, then each theme's (themes/*/layouts/, then
    the vendored modules' in the order _vendor/modules.txt lists them). Here, not beside the translator, so that
    whether a site has any is asked without importing it."""
    folders = [root / "layouts"]
    folders += sorted((root / "themes").glob("*/layouts")) if (root / "themes").is_dir() else []
    folders += [folder / "layouts" for folder in vendored_modules(root).values()]
    return [folder for folder in folders if folder.is_dir()]
