"""File names with a meaning to blogbuild, one home: the config files it reads and the files it skips.

A leaf module (no imports) so that the no-op check (manifest.py) can name the config files cheaply.
"""
from __future__ import annotations

CONFIG_NAMES = ("blogbuild.yaml", "blogbuild.yml", "blogbuild.toml")

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
