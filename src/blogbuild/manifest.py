"""The record of the last published build, so that a build with nothing to do stops after a stat pass.

A successful `blogbuild build` writes `.blogbuild-cache/last-build-<options>.json`: the size and mtime of
every file and folder it read (config, content/, templates/, static/, the theme), of every file and
folder it published, and of blogbuild's own code and the libraries that shape its output. The next build
with the same options stats those paths first; when every one matches, the published site is exactly what
a build would write, so it says so and stops, without importing markdown-it, Jinja or Pygments.

Only the standard library here: this module runs before anything else is imported.

Why stats can be trusted: inputs are recorded as they were *before* the build read them, so an edit made
during a build shows as a change next time. An edit within the file system's timestamp granularity of the
build's start could keep size and mtime (the "racy" case git knows); so when any input is younger than
RACY_SECONDS at the start, no record is written and the next build runs in full.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat as stat_module
import sys
import time
from pathlib import Path
from typing import Any, Iterable

CACHE_DIR = ".blogbuild-cache"
_FORMAT = 1
RACY_SECONDS = 2.0
# Libraries whose version changes the bytes of a page (highlighting, markdown, templates, YAML).
_LIBRARIES = ("markdown_it", "mdit_py_plugins", "jinja2", "markupsafe", "pygments", "yaml")
_CONFIG_NAMES = ("blogbuild.yaml", "blogbuild.yml", "blogbuild.toml")   # config.CONFIG_NAMES, checked by a test
_OPTION_FIELDS = ("root", "source", "output", "config", "drafts", "future", "base_url", "strict")

# [size, mtime_ns] for a file; for a folder [-1, mtime_ns], or [-1, mtime_ns, number of entries] for an input
# folder (so a file copied in with its folder's old mtime restored, as `rsync -a` does, is still noticed);
# None for "not there".
Entry = list


def code_key() -> str:
    """A hash of blogbuild's own code and of the libraries it renders with, so that no cache outlives them."""
    from . import __version__
    package = Path(__file__).parent
    parts = [__version__, sys.version]
    for path in sorted(package.glob("*.py")):
        stat = path.stat()
        parts.append(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}")
    import importlib.util
    for name in _LIBRARIES:
        try:
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
            stat = os.stat(origin) if origin else None
        except (ImportError, OSError, ValueError):
            stat = None
        parts.append(f"{name}:{stat.st_size}:{stat.st_mtime_ns}" if stat else f"{name}:-")
    return hashlib.blake2b("\x1f".join(parts).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _options_key(options: Any) -> str:
    values = {name: getattr(options, name, None) for name in _OPTION_FIELDS}
    for name in ("root", "source", "output", "config"):   # the same folders reached from another cwd
        if values[name] is not None:
            values[name] = os.path.abspath(values[name])
    return hashlib.blake2b(json.dumps(values, sort_keys=True).encode("utf-8", "surrogatepass"),
                           digest_size=8).hexdigest()


def record_path(options: Any) -> Path:
    """Where the record for a build with these options lives."""
    return Path(getattr(options, "root", ".") or ".") / CACHE_DIR / f"last-build-{_options_key(options)}.json"


def _entry(path: str, count: bool = False) -> Entry | None:
    try:
        stat = os.stat(path)
        if stat_module.S_ISDIR(stat.st_mode):
            return [-1, stat.st_mtime_ns, len(os.listdir(path))] if count else [-1, stat.st_mtime_ns]
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns]


def _walk(folder: str, entries: dict[str, Entry | None]) -> None:
    """Every folder and file below folder (hidden and ignored ones too: noticing more is only slower)."""
    entry = _entry(folder, count=True)
    entries[folder] = entry
    if entry is None or entry[0] != -1:
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
        entries[current][2] = len(children)
        for child in children:
            try:
                stat = child.stat(follow_symlinks=True)
            except OSError:
                entries[child.path] = None
                continue
            if stat_module.S_ISDIR(stat.st_mode):
                entries[child.path] = [-1, stat.st_mtime_ns, 0]
                stack.append(child.path)
            else:
                entries[child.path] = [stat.st_size, stat.st_mtime_ns]


def config_candidates(options: Any) -> list[str]:
    """The config files a build with these options may read (stat them before reading the config)."""
    if getattr(options, "config", None):
        return [str(options.config)]
    root = getattr(options, "root", ".") or "."
    return [os.path.join(root, name) for name in _CONFIG_NAMES]


def snapshot_inputs(config_files: dict[str, Entry | None], folders: Iterable[str]) -> dict[str, Entry | None]:
    """Sizes and mtimes of the config files (stated earlier, before the config was read) and every folder
    and file below the input folders, taken before the build reads them."""
    entries = dict(config_files)
    for folder in folders:
        _walk(str(folder), entries)
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


def is_racy(inputs: dict[str, Entry | None], started_ns: int) -> bool:
    """Whether an input changed so close to the build's start that an equal mtime proves nothing."""
    limit = started_ns - int(RACY_SECONDS * 1e9)
    return any(entry is not None and entry[1] >= limit for entry in inputs.values())


def write_record(options: Any, *, inputs: dict[str, Entry | None], outputs: dict[str, Entry | None],
                 summary: str, warnings: list[str], valid_until: float | None, output_dir: str) -> None:
    """Save the record of a build that was just published (atomically: a torn record is never read)."""
    path = record_path(options)
    record = {"format": _FORMAT, "code": code_key(), "inputs": inputs, "outputs": outputs, "summary": summary,
              "warnings": warnings, "valid_until": valid_until, "output_dir": output_dir}
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    temp.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    os.replace(temp, path)


def forget(options: Any) -> None:
    """Drop the record (a build that did not publish, or one run with --no-cache)."""
    try:
        record_path(options).unlink()
    except OSError:
        pass


def _still_true(entries: Any) -> bool:
    if not isinstance(entries, dict):
        return False
    for path, expected in entries.items():
        if _entry(path, count=expected is not None and len(expected) == 3) != expected:
            return False
    return True


def up_to_date(options: Any) -> dict | None:
    """The record of the last build when nothing it read or wrote has changed since; else None.

    Any doubt (no record, an unreadable or foreign one, other code, a post whose date has come) is None:
    the caller then builds in full, which is always correct."""
    path = record_path(options)
    try:
        with open(path, encoding="utf-8") as handle:
            record = json.load(handle)
    except OSError:
        return None
    except ValueError:   # damaged: never trusted, and said so
        print(f"{path}: warning: build record unreadable; ignored, building in full", file=sys.stderr)
        return None
    if not isinstance(record, dict) or record.get("format") != _FORMAT:
        return None
    valid_until = record.get("valid_until")
    if valid_until is not None and (not isinstance(valid_until, (int, float)) or time.time() >= valid_until):
        return None   # a post dated in the future is due now: it must appear
    if not (_still_true(record.get("inputs")) and _still_true(record.get("outputs"))):
        return None
    if record.get("code") != code_key():
        return None
    if not isinstance(record.get("summary"), str) or not isinstance(record.get("warnings"), list):
        return None
    return record


def run_if_up_to_date(options: Any) -> int | None:
    """`blogbuild build` when nothing changed: print the last build's warnings and a one-line note, exit 0.
    None when a real build is needed."""
    if getattr(options, "no_cache", False):
        return None
    started = time.perf_counter()
    record = up_to_date(options)
    if record is None:
        return None
    for warning in record["warnings"]:
        print(str(warning), file=sys.stderr)
    if not getattr(options, "quiet", False):
        checked = len(record["inputs"]) + len(record["outputs"])
        print(f"Up to date: nothing changed since the last build ({record['summary']}); checked {checked} files "
              f"and folders in {(time.perf_counter() - started) * 1000:.0f} ms -> {record['output_dir']}/")
    return 0
