"""The record of the last published build, so that a build with nothing to do stops after a stat pass, and
one that changed a few posts knows which, without reading the others.

A successful `blogbuild build` writes `.blogbuild-cache/last-build-<options>.json`: the size and mtime of
every file it read (config, content/, templates/, static/, the theme) and the names in every folder it
read, every file and folder it published, and a hash of blogbuild's code and the libraries that shape its
output. The next build with the same options stats those paths first (examine()): when every one matches,
the published site is exactly what a build would write, so it says so and stops, without importing
markdown-it, Jinja or Pygments; when only some posts changed, the build is told which.

Why stats can be trusted: inputs are recorded as they were *before* the build read them, so an edit made
during a build shows as a change next time. An edit within the file system's timestamp granularity of the
build's start could keep size and mtime (the "racy" case git knows): such young files are recorded as
changed, so the next build reads them again. Folders are recorded by the names they hold, not by mtime.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import stat as stat_module
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from .atomic import write_atomically
from .names import config_paths

if TYPE_CHECKING:
    from .commands.build import BuildOptions

CACHE_DIR = ".blogbuild-cache"
_FORMAT = 1
RACY_SECONDS = 2.0
# Libraries whose version changes the bytes of a page (highlighting, markdown, templates, YAML).
_LIBRARIES = ("markdown_it", "mdit_py_plugins", "jinja2", "markupsafe", "pygments", "yaml")

# [size, mtime_ns] for a file ([size, mtime_ns, "racy"] for one too young to trust: it never matches);
# [-1, mtime_ns] for an output folder; [-1, "digest of its names"] for an input folder (so a file copied
# in with the folder's old mtime restored, as `rsync -a` does, is still noticed); None for "not there".
Entry = list


@functools.cache
def code_key() -> str:
    """A hash of blogbuild's own code and of the libraries it renders with, so that no cache outlives them.
    Once per process: it describes the code that is running (a build asked for it three times)."""
    from .version import __version__
    package = Path(__file__).parent
    parts = [__version__, sys.version]
    for path in sorted(package.rglob("*.py")):   # subpackages too (commands/, frontmatter/, importer/, ...)
        stat = path.stat()
        parts.append(f"{path.relative_to(package).as_posix()}:{stat.st_size}:{stat.st_mtime_ns}")
    import importlib.util
    for name in _LIBRARIES:
        try:
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
            library = os.stat(origin) if origin else None
        except (ImportError, OSError, ValueError):
            library = None
        parts.append(f"{name}:{library.st_size}:{library.st_mtime_ns}" if library else f"{name}:-")
    return hashlib.blake2b("\x1f".join(parts).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _options_key(options: BuildOptions) -> str:
    # The options that change what a build publishes; jobs, quiet and no_cache do not.
    def absolute(folder: str | None) -> str | None:   # the same folders reached from another cwd
        return os.path.abspath(folder) if folder is not None else None

    values = {"root": absolute(options.root), "source": absolute(options.source),
              "output": absolute(options.output), "config": absolute(options.config),
              "drafts": options.drafts, "future": options.future, "base_url": options.base_url,
              "strict": options.strict}
    return hashlib.blake2b(json.dumps(values, sort_keys=True).encode("utf-8", "surrogatepass"),
                           digest_size=8).hexdigest()


def record_path(options: BuildOptions) -> Path:
    """Where the record for a build with these options lives."""
    return Path(options.root or ".") / CACHE_DIR / f"last-build-{_options_key(options)}.json"


def _names_digest(names: Iterable[str]) -> str:
    return hashlib.blake2b("\x00".join(sorted(names)).encode("utf-8", "surrogateescape"),
                           digest_size=8).hexdigest()


def _entry(path: str, listing: bool = False) -> Entry | None:
    try:
        stat = os.stat(path)
        if stat_module.S_ISDIR(stat.st_mode):
            return [-1, _names_digest(os.listdir(path))] if listing else [-1, stat.st_mtime_ns]
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns]


def _walk(folder: str, entries: dict[str, Entry | None], racy_after: int) -> None:
    """Every folder (by its names) and file below folder; hidden and ignored ones too: noticing more is
    only slower, never wrong."""
    top = _entry(folder)
    if top is None or top[0] != -1:
        entries[folder] = top   # not there (or not a folder): its appearing later is a change
        return
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as found:
                children = list(found)
        except OSError:
            entries[current] = None
            continue
        entries[current] = [-1, _names_digest(child.name for child in children)]
        for child in children:
            try:
                stat = child.stat(follow_symlinks=True)
            except OSError:
                entries[child.path] = None
                continue
            if stat_module.S_ISDIR(stat.st_mode):
                stack.append(child.path)
            elif stat.st_mtime_ns >= racy_after:
                entries[child.path] = [stat.st_size, stat.st_mtime_ns, "racy"]
            else:
                entries[child.path] = [stat.st_size, stat.st_mtime_ns]


def config_candidates(options: BuildOptions) -> list[str]:
    """The config files a build with these options may read (stat them before reading the config)."""
    if options.config:
        return [str(options.config)]
    return config_paths(options.root or ".")


def snapshot_inputs(config_files: dict[str, Entry | None], folders: Iterable[str],
                    started_ns: int) -> dict[str, Entry | None]:
    """Sizes and mtimes of the config files (stated earlier, before the config was read) and every folder
    and file below the input folders, taken before the build reads them; files younger than RACY_SECONDS
    at started_ns are marked so that they never match."""
    racy_after = started_ns - int(RACY_SECONDS * 1e9)
    entries = {path: (entry + ["racy"] if entry is not None and entry[0] != -1 and entry[1] >= racy_after
                      else entry) for path, entry in config_files.items()}
    for folder in folders:
        _walk(str(folder), entries, racy_after)
    return entries


def stat_files(paths: Iterable[str]) -> dict[str, Entry | None]:
    """Sizes and mtimes of these paths, None where missing."""
    return {path: _entry(path) for path in paths}


def snapshot_outputs(output_dir: Path, paths: Iterable[str]) -> dict[str, Entry | None]:
    """Sizes and mtimes of every published file and every folder holding one (a file added to a folder
    changes the folder's mtime, so strays are noticed without listing the folders)."""
    base = str(output_dir)
    entries: dict[str, Entry | None] = {base: _entry(base)}
    folders: set[str] = set()
    for path in paths:
        entries[f"{base}/{path}"] = _entry(f"{base}/{path}")
        folder = path.rpartition("/")[0]
        while folder and folder not in folders:
            folders.add(folder)
            folder = folder.rpartition("/")[0]
    for folder in folders:
        entries[f"{base}/{folder}"] = _entry(f"{base}/{folder}")
    return entries


def write_record(options: BuildOptions, *, inputs: dict[str, Entry | None], outputs: dict[str, Entry | None],
                 summary: str, warnings: list[str], valid_until: float | None, output_dir: str,
                 build_id: str) -> None:
    """Save the record of a build that was just published (atomically: a torn record is never read).
    build_id names the saved builder state that goes with it (build.py)."""
    path = record_path(options)
    record = {"format": _FORMAT, "code": code_key(), "inputs": inputs, "outputs": outputs, "summary": summary,
              "warnings": warnings, "valid_until": valid_until, "output_dir": output_dir, "build_id": build_id}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _differing(entries: dict) -> list[str]:
    """The recorded paths whose size, mtime or folder names are not what the record says."""
    changed = []
    for path, expected in entries.items():
        listing = isinstance(expected, list) and len(expected) == 2 and isinstance(expected[1], str)
        if _entry(path, listing) != expected:
            changed.append(path)
    return changed


@dataclass(frozen=True)
class Examination:
    """What changed since the last published build, when its record can be trusted at all."""

    record: dict
    changed_inputs: tuple[str, ...]   # recorded input paths that differ now (files and folders)


def examine(options: BuildOptions) -> Examination | None:
    """Compare the last build's record with the disk. None when it cannot be used at all (no record, an
    unreadable or foreign one, other code, a post whose date has come, published files changed): the
    caller then builds in full, which is always correct."""
    path = record_path(options)
    try:
        with open(path, encoding="utf-8") as handle:
            record = json.load(handle)
    except OSError:
        return None
    except ValueError:   # damaged: never trusted, and said so
        print(f"{path}: warning: build record unreadable; ignored, building in full", file=sys.stderr)
        return None
    if not (isinstance(record, dict) and record.get("format") == _FORMAT and isinstance(record.get("inputs"), dict)
            and isinstance(record.get("outputs"), dict) and isinstance(record.get("summary"), str)
            and isinstance(record.get("warnings"), list) and isinstance(record.get("build_id"), str)):
        return None
    valid_until = record.get("valid_until")
    if valid_until is not None and (not isinstance(valid_until, (int, float)) or time.time() >= valid_until):
        return None   # a post dated in the future is due now: it must appear
    if _differing(record["outputs"]):
        return None
    if record.get("code") != code_key():
        return None
    return Examination(record, tuple(_differing(record["inputs"])))


def run_if_up_to_date(options: BuildOptions) -> tuple[int | None, Examination | None]:
    """`blogbuild build` when nothing changed: print the last build's warnings and a one-line note, exit 0.
    Otherwise (None, what examine() found) for the real build."""
    if options.no_cache:
        return None, None
    started = time.perf_counter()
    found = examine(options)
    if found is None or found.changed_inputs:
        return None, found
    record = found.record
    for warning in record["warnings"]:
        print(str(warning), file=sys.stderr)
    if not options.quiet:
        checked = len(record["inputs"]) + len(record["outputs"])
        print(f"Up to date: nothing changed since the last build ({record['summary']}); checked {checked} files "
              f"and folders in {(time.perf_counter() - started) * 1000:.0f} ms -> {record['output_dir']}/")
    return 0, found
