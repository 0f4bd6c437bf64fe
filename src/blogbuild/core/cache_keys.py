"""Every key that decides whether something blogbuild kept between builds still holds, in one place.

Where the cache lives, the format version of each kind of kept file (bump one when what it holds changes
shape or meaning), and the keys a kept file is filed under: the running code, the configuration, what a
rendered post depends on, and the template files. A key is computed from contents, never from mtimes or the
site's folder, so a fresh clone or a CI runner with the cache restored keeps its caches.

Who reads them: pipeline/state.py (the posts, delta, state and pages files), disk/manifest.py (the build
records and the no-op check), disk/cache_codec.py (the framing of every cache file), media/images.py (image
variants), media/cards.py (social cards), serve/warm.py (the served tree).
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import sys
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .fingerprint import fingerprint_of

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

CACHE_DIR = ".blogbuild-cache"   # below the site folder

STATE_FORMAT = 9        # the builder's posts, delta, state and pages files (pipeline/state.py)
RECORD_FORMAT = 2       # a build's record of its inputs and outputs (disk/manifest.py)
CODEC_FORMAT = 2        # the header and framing of every cache file (disk/cache_codec.py)
IMAGES_FORMAT = "2"     # raster variants: their encoding, or which variants are made (media/images.py)
SVG_FORMAT = "svg1"     # an SVG's record, in place of the raster settings: bump when its size reading changes
CARDS_FORMAT = "4"      # social cards: bump when the drawing changes (media/cards.py)

# Libraries whose version changes the bytes of a page (highlighting, markdown, templates, YAML).
LIBRARIES = ("markdown_it", "mdit_py_plugins", "jinja2", "markupsafe", "pygments", "yaml")

Config = TypeVar("Config", bound="DataclassInstance")


@functools.cache
def code_key() -> str:
    """A hash of blogbuild's own code and of the libraries it renders with, so that no cache outlives them.
    By content, not mtimes: a fresh install of the same code (a CI runner) keeps its caches. Once per
    process: it describes the code that is running."""
    from .version import __version__
    package = Path(__file__).parent.parent
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{__version__}\x1f{sys.version}".encode())
    for name in _python_files(str(package)):   # every subpackage too
        digest.update(f"\x1f{name}\x1f".encode())
        with open(f"{package}/{name}", "rb") as handle:
            digest.update(handle.read())
    for name in LIBRARIES:
        # A library's __init__ holds its __version__: its bytes change with every release.
        try:
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
            data = Path(origin).read_bytes() if origin else b"-"
        except (ImportError, OSError, ValueError):
            data = b"-"
        digest.update(f"\x1f{name}\x1f".encode())
        digest.update(data)
    return digest.hexdigest()


def _python_files(folder: str) -> list[str]:
    """The .py files below folder, as sorted paths relative to it with "/" (what sorting pathlib's rglob gives,
    without a Path object for each of the package's ~1,000 files)."""
    found: list[str] = []
    pending = [""]
    while pending:
        prefix = pending.pop()
        with os.scandir(f"{folder}/{prefix}" if prefix else folder) as entries:
            for entry in entries:
                if entry.is_dir() and not entry.is_symlink():   # as rglob: no linked folder
                    pending.append(f"{prefix}{entry.name}/")
                elif entry.name.endswith(".py"):
                    found.append(f"{prefix}{entry.name}")
    return sorted(found, key=lambda name: name.split("/"))


def config_key(config: Config) -> str:
    """The key of everything in a site's configuration (config.SiteConfig) that shapes a post: not drafts,
    future, expired or strict, and not where the site is (a fresh clone in another folder keeps its cache)."""
    return fingerprint_of(repr(replace(config, drafts=False, future=False, expired=False, strict=False, root=".",
                                       config_path="")))


def posts_key(config: Config) -> str:
    """The key of what a rendered post depends on: config_key without what only pages and later stages
    read. base_url (and its path) reaches a post only in links.resolve_links and the images stage, which
    run after the posts cache on every build; serving only hides analytics in the page template; the
    output folder is where pages go. So `blogbuild serve` (its own address as base_url) and `blogbuild
    build` share their rendered posts."""
    return config_key(replace(config, base_url="", serving=False, output_dir=""))


def templates_key(files: Iterable[tuple[int, str, str]]) -> str:
    """The key of template files by name and content (not mtimes: a fresh clone keeps its cache): each is
    (its folder's place in the lookup order, its path in that folder, its path on disk), so the site's
    folder and a theme's are told apart. Each file's content is read once in a process while its status
    stands (file_digest): a build asks for the key of the same folders up to three times, each language of
    a multilingual site again, and `serve` on every rebuild."""
    digest = hashlib.blake2b(digest_size=16)
    for index, rel_path, path in files:
        digest.update(f"\x00{index}/{rel_path}\x00".encode("utf-8", "surrogateescape"))
        digest.update(file_digest(path))
    return digest.hexdigest()


# file_digest's memo: path -> (the file's status when it was read, the digest of its bytes).
_FILE_DIGESTS: dict[str, tuple[tuple[int, int, int, int], bytes]] = {}
# A status this recent may not show a second write in the same tick of the file system's clock: not kept.
_RACY_NS = 100_000_000


def bytes_digest(path: str) -> bytes:
    """The digest of a file's bytes (blake2b, 16 bytes), read in blocks of a mebibyte; OSError as it comes."""
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.digest()


def file_digest(path: str) -> bytes:
    """bytes_digest of a file, read again only when its status (size, modification and change times, inode)
    moved since this process last read it, or was too recent then to be trusted; a file that cannot be read
    has a digest of its own."""
    try:
        status = os.stat(path)
    except OSError:
        return b"\x00unreadable"
    stamp = (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)
    known = _FILE_DIGESTS.get(path)
    if known is not None and known[0] == stamp:
        return known[1]
    try:
        digest = bytes_digest(path)
    except OSError:
        return b"\x00unreadable"
    import time
    if time.time_ns() - max(status.st_mtime_ns, status.st_ctime_ns) > _RACY_NS:
        _FILE_DIGESTS[path] = (stamp, digest)
    return digest
