"""The record of the last published build, so that a build with nothing to do stops after a stat pass, and
one that changed a few posts knows which, without reading the others.

A successful `blogbuild build` writes `.blogbuild-cache/last-build-<meaning>.json`, keyed by what its options
mean once the config fills them in (`-o public` and the default are one build; `build-keys.json` remembers
which meaning each spelling of the options had with the config files as they were, so a no-op need not
read the config): the size and mtime of every file it read (config, content/, templates/, static/, the
theme) and the names in every folder it read, every file and folder it published, and a hash of
blogbuild's code and the libraries that shape its output. The next build with the same options stats
those paths first (examine()): when every one matches, the published site is exactly what a build would
write, so it says so and stops, without importing markdown-it, Jinja or Pygments; when only some posts
changed, the build is told which.

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
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Mapping

from ..core.atomic import write_atomically
from ..core.cache_keys import CACHE_DIR, RECORD_FORMAT, bytes_digest, code_key
from ..core.names import config_paths, data_folders
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..core.options import SiteLocation
    from ..config import SiteConfig, SiteOptions

_MAX_ALIASES = 64   # spellings of the options remembered (build-keys.json), the latest kept
RACY_SECONDS = 2.0

# An input file is [size, mtime_ns, "digest of its bytes"] ([..., "racy"] for one too young for its stat to
# be trusted); when its size and mtime differ from the record (a fresh clone: every mtime is new) or it
# was racy, its bytes are hashed and compared, so only a real edit counts. An output file is
# [size, mtime_ns]; an output folder [-1, mtime_ns]; an input folder [-1, "digest of its names"] (so a file
# copied in with the folder's old mtime restored, as `rsync -a` does, is still noticed); None: not there.
Entry = list
_LINK = -3   # [-3, the link's target as written]: a symbolic link the build does not follow
_THEME = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "theme")
_THEME_PREFIX = "<theme>"
# Digests this process has computed or verified: path -> (size, mtime_ns, digest); examine() fills it, and the
# snapshot of the same files that follows reuses it instead of reading them again.
_DIGESTS: dict[str, tuple[int, int, str]] = {}


def _digest_of(values: Mapping[str, object]) -> str:
    return hashlib.blake2b(json.dumps(values, sort_keys=True).encode("utf-8", "surrogatepass"),
                           digest_size=8).hexdigest()


def _config_choice(site: SiteLocation, root: str) -> str:
    """Which config file the options name, relative to the site; "" for the one blogbuild looks for. (--config
    naming that very file is another build: its record watches that file only, not the others looked for.)"""
    return "" if site.config is None else _portable(os.path.abspath(site.config), root)


def _in_site(value: str | None, root: str) -> str | None:
    """A folder option as the site-relative path it means (relative ones count from the site folder)."""
    return None if value is None else _portable(os.path.abspath(os.path.join(root, value)), root)


def _options_key(site: SiteLocation) -> str:
    """The options as typed (paths resolved): the key under which the meaning key of the last build with this
    spelling is remembered. The site folder is left out: the record lives in it, and a fresh clone of the
    site in another folder must find it."""
    # The options that change what a build publishes; jobs, quiet and no_cache do not.
    root = _site_root(site)
    return _digest_of({"root": ".", "source": _in_site(site.source, root), "output": _in_site(site.output, root),
                       "config": _config_choice(site, root), "drafts": site.drafts, "future": site.future,
                       "expired": site.expired,
                       "base_url": site.base_url, "strict": site.strict})


def meaning_key(site: SiteLocation, config: SiteConfig) -> str:
    """What the options mean once the config has filled in what they leave out: the folders read and
    written, drafts, future, expired, strict, base_url. `build -o public` and `build` (public/ by default) are one
    build, with one record, which `serve` finds too."""
    root = _site_root(site)
    return _digest_of({"root": ".", "source": _in_site(config.source_dir, root),
                       "output": _in_site(config.output_dir, root),
                       "config": _config_choice(site, root), "drafts": config.drafts, "future": config.future,
                       "expired": config.expired,
                       "base_url": config.base_url, "strict": config.strict})


def _aliases_path(site: SiteLocation) -> Path:
    return Path(site.root or ".") / CACHE_DIR / "build-keys.json"


def _config_stamp(site: SiteLocation) -> str:
    """The content of every config file these options may read (a few small files): what a spelling of the
    options means holds only while they are as they were."""
    digest = hashlib.blake2b(digest_size=8)
    for path in config_candidates(site):
        try:
            data = Path(path).read_bytes() if os.path.isfile(path) else b"folder" if os.path.isdir(path) else b"-"
        except OSError:
            data = b"?"
        digest.update(f"\x1f{path}\x1f".encode("utf-8", "surrogateescape") + data)
    return digest.hexdigest()


def _read_aliases(site: SiteLocation) -> dict[str, list]:
    try:
        with open(_aliases_path(site), encoding="utf-8") as handle:
            aliases = json.load(handle)
    except (OSError, ValueError):
        return {}
    return {key: value for key, value in aliases.items() if isinstance(value, list) and len(value) == 2} \
        if isinstance(aliases, dict) else {}


def _remember(site: SiteLocation, meaning: str) -> None:
    """Note what these options meant with the config files as they are now (best effort: a lost note costs
    one config read next time)."""
    aliases = _read_aliases(site)
    spelling = _options_key(site)
    noted = [meaning, _config_stamp(site)]
    if aliases.get(spelling) == noted:
        return
    aliases.pop(spelling, None)
    aliases[spelling] = noted
    try:
        _write_json(_aliases_path(site), dict(list(aliases.items())[-_MAX_ALIASES:]))
    except OSError:
        pass


# The config the no-op check read, with the entries (content digests) of the config files it read: the build
# that follows takes it instead of reading the config again (a Hugo site's config reads its layouts), while
# those files are as they were.
_EXAMINED_CONFIG: dict[str, tuple[dict[str, Entry | None], SiteConfig]] = {}


def examined_config(site: SiteLocation, config_files: Mapping[str, Entry | None]) -> SiteConfig | None:
    """The config examine() read for these options, when the config files are still what it read (their
    entries, taken before each read, are equal); None otherwise. Taken once."""
    examined = _EXAMINED_CONFIG.pop(_options_key(site), None)
    return examined[1] if examined is not None and examined[0] == dict(config_files) else None


def _record_key(site: SiteLocation) -> str | None:
    """The meaning key of these options: remembered from the last build with this spelling while the config
    files are unchanged, else found by reading the config (the no-op check imports no config reader). None
    when the config cannot be read: the build then reports why."""
    known = _read_aliases(site).get(_options_key(site))
    if known is not None and known[1] == _config_stamp(site):
        return str(known[0])
    from ..config import load_config
    from ..core.errors import BlogbuildError
    config_files = stat_files(config_candidates(site))
    try:
        config = load_config(site.config, root=Path(site.root or "."), overrides=site.config_overrides())
    except (BlogbuildError, OSError):
        return None
    _EXAMINED_CONFIG[_options_key(site)] = (config_files, config)
    if not (Path(config.root) / config.source_dir).is_dir():
        return None   # not a site folder: the build says so, and leaves no cache folder behind
    meaning = meaning_key(site, config)
    _remember(site, meaning)
    return meaning


@functools.lru_cache(maxsize=4096)
def _portable_folder(folder: str, root: str) -> str:
    absolute = os.path.abspath(folder)
    for base, prefix in ((root, "."), (_THEME, _THEME_PREFIX)):
        if absolute == base:
            return prefix
        if absolute.startswith(base + os.sep):
            relative = os.path.relpath(absolute, base).replace(os.sep, "/")
            return relative if prefix == "." else f"{prefix}/{relative}"
    return absolute


def _plain(path: str) -> bool:
    """Whether a path is already in normal form (no '.', '..' or empty part, no trailing slash): then the
    string operations below give what os.path's normalising functions would, at a fraction of the cost
    (a 10,000-post record holds 50,000 paths, most in folders of their own)."""
    return os.sep == "/" and not path.endswith("/") and "//" not in path and "/./" not in path and \
        "/../" not in path and not path.startswith(("./", "../")) and not path.endswith(("/.", "/..")) and \
        path not in (".", "..")


def _portable(path: str, root: str) -> str:
    """A recorded path as it is kept on disk: relative to the site folder (root, absolute), or to the theme,
    when inside them, so that a fresh clone in another folder, or another install of blogbuild, reads the
    same record. Folders are worked out once each (a record holds thousands of files in a few folders)."""
    if _plain(path) and _plain(root):
        absolute = path if os.path.isabs(path) else f"{os.getcwd()}/{path}"
        if absolute.startswith(root + "/") and _plain(absolute) and not absolute.startswith(_THEME + "/"):
            return absolute[len(root) + 1:]
    folder, name = os.path.split(path)
    if not name:
        return _portable_folder(path, root)
    base = _portable_folder(folder or ".", root)
    return name if base == "." else f"{base}/{name}"


def _portable_all(entries: Mapping[str, Entry | None], root: str) -> dict[str, Entry | None]:
    """entries with their paths made portable (_portable). When the working folder is the site folder, the
    usual case, a relative path in normal form is already portable: 41,677 outputs of a 10,000-post site
    take 0.015 s instead of 0.085 (a call and a getcwd per path)."""
    cwd = os.getcwd()
    if not (_plain(root) and _plain(cwd) and cwd == root and not _THEME.startswith(root + "/")):
        return {_portable(path, root): entry for path, entry in entries.items()}
    return {path if path and not path.startswith("/") and _plain(path) else _portable(path, root): entry
            for path, entry in entries.items()}


def _local(path: str, root: str) -> str:
    """A recorded path back as a path of this machine (see _portable), in the form the build's own walk
    gives (relative to the working folder when the site folder was given relative)."""
    if path == _THEME_PREFIX or path.startswith(_THEME_PREFIX + "/"):
        return os.path.join(_THEME, path[len(_THEME_PREFIX) + 1:]) if path != _THEME_PREFIX else _THEME
    if os.path.isabs(path):
        return path
    if _plain(path) and (root == "." or _plain(root)):
        return path if root == "." else f"{root}/{path}"
    return os.path.normpath(os.path.join(root, path))


def _local_all(entries: Mapping[str, Entry | None], root: str) -> dict[str, Entry | None]:
    """entries with their paths made local (_local). In the site folder (root "."), the usual case, a relative
    path in normal form is already local: 5,600 paths of a 1,000-post record without a call each."""
    if root != ".":
        return {_local(path, root): entry for path, entry in entries.items()}
    return {path if path and path[0] not in "/<" and _plain(path) else _local(path, root): entry
            for path, entry in entries.items()}


def record_path(site: SiteLocation, key: str) -> Path:
    """Where the record of a build with this meaning key lives (meaning_key())."""
    return Path(site.root or ".") / CACHE_DIR / f"last-build-{key}.json"


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


def _output_entry(path: str) -> Entry | None:
    """As _entry, for a file or folder inside the output: not following links (a link placed there, however
    alike in size and mtime, is never taken for the file the build wrote)."""
    try:
        stat = os.lstat(path)
    except OSError:
        return None
    if stat_module.S_ISDIR(stat.st_mode):
        return [-1, stat.st_mtime_ns]
    if not stat_module.S_ISREG(stat.st_mode):
        return None
    return [stat.st_size, stat.st_mtime_ns]


def _file_digest(path: str) -> str:
    return bytes_digest(path).hex()


def _input_entry(path: str, size: int, mtime_ns: int, racy: bool) -> Entry | None:
    """An input file's entry: its stat and the digest of its bytes (read now unless this process already
    verified them at this stat and the file is old enough for its stat to be trusted)."""
    known = _DIGESTS.get(path)
    if known is not None and known[:2] == (size, mtime_ns) and not racy:
        digest = known[2]
    else:
        try:
            digest = _file_digest(path)
        except OSError:
            return None
        _DIGESTS[path] = (size, mtime_ns, digest)
    return [size, mtime_ns, digest, "racy"] if racy else [size, mtime_ns, digest]


def _walk(folder: str, entries: dict[str, Entry | None], racy_after: int, inside: tuple[str, ...] = ()) -> None:
    """Every folder (by its names) and file below folder; hidden and ignored ones too: noticing more is
    only slower, never wrong. A symbolic link is followed as sources.walk_files follows it (into folder or
    the folders inside names, each real folder once); any other link is recorded by its target text alone,
    so nothing outside the site is read and a loop ends."""
    top = _entry(folder)
    if top is None or top[0] != -1:
        entries[folder] = top   # not there (or not a folder): its appearing later is a change
        return
    allowed = (os.path.realpath(folder), *inside)
    walked = {allowed[0]}
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
                if child.is_symlink():
                    target = os.path.realpath(child.path)
                    if target in walked or not any(target == base or target.startswith(base.rstrip(os.sep) + os.sep)
                                                   for base in allowed):
                        entries[child.path] = [_LINK, os.readlink(child.path)]
                        continue
                stat = child.stat(follow_symlinks=True)
            except OSError:
                entries[child.path] = None
                continue
            if stat_module.S_ISDIR(stat.st_mode):
                if child.is_symlink():
                    walked.add(target)
                stack.append(child.path)
            else:
                entries[child.path] = _input_entry(child.path, stat.st_size, stat.st_mtime_ns,
                                                   stat.st_mtime_ns >= racy_after)


def _link_entry(path: str) -> Entry | None:
    try:
        return [_LINK, os.readlink(path)]
    except OSError:
        return None


def config_candidates(site: SiteOptions) -> list[str]:
    """The config files a build with these options may read (stat them before reading the config)."""
    if site.config:
        return [str(site.config)]
    return config_paths(site.root or ".")


def input_folders(config: SiteConfig) -> list[str]:
    """The folders a build reads below the config: content, templates, static, the theme's, and a Hugo
    site's Go templates, i18n strings, assets and data (its layouts/, i18n/, assets/, data/: data/ named when
    it is not there, so that its appearing is a change), its themes' static/ folders, and the folders of its own
    stylesheets (theme.extended_css: PaperMod's assets/css/extended/)."""
    from .sources import go_template_folders, stylesheet_folders, theme_static_dirs
    root = Path(config.root)
    languages = [str(root / folder) for folder in dict.fromkeys(language.value("source_dir", config.source_dir)
                                                                for language in config.languages)
                 if folder != config.source_dir]   # a multilingual site's other content folders
    return list(dict.fromkeys([
            str(root / config.source_dir), *languages, str(root / config.templates_dir), str(root / config.static_dir),
            _THEME,
            *(str(folder) for folder in go_template_folders(config)),
            *(str(folder) for folder in data_folders(root, existing=False)),
            *(str(folder) for folder in theme_static_dirs(config)),
            *(str(folder) for folder in stylesheet_folders(config))]))


def input_files(config: SiteConfig) -> list[str]:
    """The files a build reads outside the config and the input folders: the social cards' own font (a new
    font must redraw the cards, not leave a no-op build up to date), and a Hugo site's list of vendored modules
    and its themes' own config files (their params lie beneath the site's)."""
    from ..config.cards import site_font_file
    from .sources import theme_config_files
    font = site_font_file(config.cards, config.root)
    return [*([font] if font else []), *(str(path) for path in theme_config_files(config))]


def snapshot_site(config: SiteConfig, config_files: dict[str, Entry | None], started_ns: int, *,
                  absolute: bool = False) -> dict[str, Entry | None]:
    """snapshot_inputs of everything a build of config reads: the config files (stated before it was read), the
    files outside the input folders (input_files) and the input folders; paths as the config names them, or
    absolute (as a server's watcher names them)."""
    from .sources import site_folders
    named: Callable[[str], str] = os.path.abspath if absolute else str
    files = {**config_files, **stat_files(named(path) for path in input_files(config))}
    return snapshot_inputs(files, [named(folder) for folder in input_folders(config)], started_ns, site_folders(config))


def snapshot_inputs(config_files: dict[str, Entry | None], folders: Iterable[str],
                    started_ns: int, inside: Iterable[str] = ()) -> dict[str, Entry | None]:
    """Sizes and mtimes of the config files (stated earlier, before the config was read) and every folder
    and file below the input folders, taken before the build reads them; files younger than RACY_SECONDS
    at started_ns are marked so that they never match."""
    racy_after = started_ns - int(RACY_SECONDS * 1e9)
    entries = {path: (entry + ["racy"] if entry is not None and entry[0] != -1 and entry[1] >= racy_after
                      and entry[-1] != "racy" else entry) for path, entry in config_files.items()}
    for folder in folders:
        _walk(str(folder), entries, racy_after, tuple(inside))
    return entries


def stat_files(paths: Iterable[str]) -> dict[str, Entry | None]:
    """Input entries (size, mtime, digest) of these files, None where missing."""
    entries: dict[str, Entry | None] = {}
    for path in paths:
        entry = _entry(path)
        entries[path] = entry if entry is None or entry[0] == -1 else _input_entry(path, entry[0], entry[1], True)
    return entries


def snapshot_outputs(output_dir: Path, paths: Iterable[str]) -> dict[str, Entry | None]:
    """Sizes and mtimes of every published file and every folder holding one (a file added to a folder
    changes the folder's mtime, so strays are noticed without listing the folders)."""
    base = str(output_dir)
    entries: dict[str, Entry | None] = {base: _entry(base)}
    folders: set[str] = set()
    for path in paths:
        entries[f"{base}/{path}"] = _output_entry(f"{base}/{path}")
        folder = path.rpartition("/")[0]
        while folder and folder not in folders:
            folders.add(folder)
            folder = folder.rpartition("/")[0]
    for folder in folders:
        entries[f"{base}/{folder}"] = _output_entry(f"{base}/{folder}")
    return entries


def _site_root(site: SiteLocation) -> str:
    return os.path.abspath(site.root or ".")


def write_record(site: SiteLocation, config: SiteConfig, *, inputs: dict[str, Entry | None],
                 outputs: dict[str, Entry | None], summary: str, warnings: list[str], valid_until: float | None,
                 output_dir: str, build_id: str, notes: list[str] | None = None) -> None:
    """Save the record of a build that was just published (atomically: a torn record is never read).
    build_id names the saved builder state that goes with it (build.py). Paths are kept relative to the
    site folder (see _portable)."""
    root = _site_root(site)
    record = {"format": RECORD_FORMAT, "code": code_key(),
              "inputs": _portable_all(inputs, root), "outputs": _portable_all(outputs, root), "summary": summary,
              "warnings": warnings, "valid_until": valid_until, "output_dir": output_dir, "build_id": build_id,
              "notes": notes or []}
    meaning = meaning_key(site, config)
    _write_json(record_path(site, meaning), record)
    _remember(site, meaning)


def portable_entries(entries: dict[str, Entry | None], root: str) -> dict[str, Entry | None]:
    """Entries keyed by the paths a record keeps (see _portable); root is the site folder, absolute."""
    return _portable_all(entries, root)


def local_entries(entries: dict, root: str) -> dict[str, Entry | None]:
    """A record's entries keyed by this machine's paths again (see _local)."""
    return _local_all(entries, root)


def trust_digests(entries: dict[str, Entry | None]) -> None:
    """Take the digests of a record's input files as known at their recorded stat (never racy ones), so a
    snapshot of the same files hashes only those whose stat moved."""
    for path, entry in entries.items():
        if isinstance(entry, list) and len(entry) == 3 and entry[0] >= 0 and isinstance(entry[2], str):
            _DIGESTS.setdefault(path, (entry[0], entry[1], entry[2]))


def _same_content(before: Entry | None, now: Entry | None) -> bool:
    """Whether two input entries say the same content: a file by size and digest (its mtime and
    raciness aside), a folder by its names."""
    if isinstance(before, list) and isinstance(now, list) and len(before) >= 3 and len(now) >= 3:
        return before[0] == now[0] and before[2] == now[2]
    return before == now


def changed_between(recorded: dict[str, Entry | None], current: dict[str, Entry | None]) -> list[str]:
    """The paths whose content differs between a recorded snapshot of the inputs and a new one (both with
    local paths), or that only one of them holds."""
    missing = ["missing"]
    return sorted(path for path in recorded.keys() | current.keys()
                  if not _same_content(recorded.get(path, missing), current.get(path, missing)))


def _write_json(path: Path, record: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _same_input(path: str, expected: Entry, verified: dict[str, Entry]) -> bool:
    """Whether an input file holds what the record says: by stat when it is trusted, else by digest (then
    the fresh entry goes into verified, so the record can be brought up to date)."""
    current = _entry(path)
    if current is None or current[0] != expected[0]:
        return False
    if current[1] == expected[1] and expected[-1] != "racy":
        return True
    try:
        digest = _file_digest(path)
    except OSError:
        return False
    _DIGESTS[path] = (current[0], current[1], digest)
    if digest != expected[2]:
        return False
    verified[path] = [current[0], current[1], digest]
    return True


def _differing(entries: dict, verified: dict[str, Entry] | None = None) -> list[str]:
    """The recorded paths whose content (size and digest, or size and mtime for outputs) or folder names
    are not what the record says."""
    changed = []
    verified = verified if verified is not None else {}
    for path, expected in entries.items():
        if isinstance(expected, list) and len(expected) >= 3 and isinstance(expected[2], str):
            if not _same_input(path, expected, verified):
                changed.append(path)
            continue
        if isinstance(expected, list) and expected and expected[0] == _LINK:
            if _link_entry(path) != expected:
                changed.append(path)
            continue
        listing = isinstance(expected, list) and len(expected) == 2 and isinstance(expected[1], str)
        if _entry(path, listing) != expected:
            changed.append(path)
    return changed


@dataclass(frozen=True)
class Examination:
    """What changed since the last published build, when its record can be trusted at all."""

    record: dict
    changed_inputs: tuple[str, ...]   # recorded input paths that differ now (files and folders), local
    verified: dict[str, Entry] = field(default_factory=dict)   # same content under a new stat (a fresh clone)
    key: str = ""                     # the record's meaning key (meaning_key())


def _read_record(site: SiteLocation, key: str) -> dict | None:
    path = record_path(site, key)
    try:
        with open(path, encoding="utf-8") as handle:
            record = json.load(handle)
    except OSError:
        return None
    except ValueError:   # damaged: never trusted, and said so
        print(f"{path}: warning: build record unreadable; ignored, building in full", file=sys.stderr)
        return None
    if not (isinstance(record, dict) and record.get("format") == RECORD_FORMAT and isinstance(record.get("inputs"), dict)
            and isinstance(record.get("outputs"), dict) and isinstance(record.get("summary"), str)
            and isinstance(record.get("warnings"), list) and isinstance(record.get("build_id"), str)):
        return None
    return record


def examine(site: SiteLocation) -> Examination | None:
    """Compare the last build's record with the disk. None when it cannot be used at all (no record, an
    unreadable or foreign one, other code, a post whose date has come, published files changed): the
    caller then builds in full, which is always correct."""
    key = _record_key(site)
    record = _read_record(site, key) if key is not None else None
    if record is None or key is None:
        return None
    valid_until = record.get("valid_until")
    if valid_until is not None and (not isinstance(valid_until, (int, float)) or time.time() >= valid_until):
        return None   # a post dated in the future is due now: it must appear
    root = site.root or "."
    if _differing(_local_all(record["outputs"], root)):
        return None
    if record.get("code") != code_key():
        return None
    verified: dict[str, Entry] = {}
    inputs = _local_all(record["inputs"], root)
    return Examination(record, tuple(_differing(inputs, verified)), verified, key)


def refresh(site: SiteLocation, found: Examination) -> None:
    """Bring the record's stats up to date for inputs verified by content (a fresh clone's new mtimes), so
    the next no-op is a stat pass again; young files stay racy."""
    root = _site_root(site)
    racy_after = time.time_ns() - int(RACY_SECONDS * 1e9)
    inputs = dict(found.record["inputs"])
    for path, entry in found.verified.items():
        inputs[_portable(path, root)] = entry + ["racy"] if entry[1] >= racy_after else entry
    _write_json(record_path(site, found.key), {**found.record, "inputs": inputs})


def published_files(site: SiteLocation, found: Examination, output_dir: Path) -> list[str]:
    """The files of the published tree in found's record, relative to output_dir."""
    prefix = _portable(str(output_dir), _site_root(site)) + "/"
    return [path[len(prefix):] for path, entry in found.record["outputs"].items()
            if path.startswith(prefix) and isinstance(entry, list) and entry[0] >= 0]
