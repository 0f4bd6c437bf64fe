"""Starting from the last server or build, and saving the server's own state when it stops.

When it stops, the server saves to the disk cache (build/state.py DiskCache) its builder's rendered posts,
which `build` shares, its builder's state, and its pages as a tree (`.blogbuild-cache/served-<code>-<config>/`)
with a record of the tree's files and the id of that state. The next server with the same configuration
(same address) answers from that tree at once, when the record says it is intact, and its builder carries
on from the state: it renders only what changed since, and copies every other page from the tree.

Otherwise, until its own first build is done (seconds to minutes on a big site), it answers from the tree
the last `blogbuild build` of this site published, when that build's record says the tree is intact
(manifest.examine). The published pages carry the site's base URL where the server's carry its own
address: text responses of the published tree get the one replaced by the other (ServedState.rewrite).
Pages then reload onto the server's own build."""
from __future__ import annotations

import json
import os
import threading
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from ..core.atomic import write_atomically
from ..core.errors import BlogbuildError, SourceWarning
from ..core.model import OutputFile
from .state import BuildAttempt
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..pipeline import Builder, BuildResult
    from ..pipeline.state import DiskCache
    from ..core.options import ServeOptions
    from ..config import SiteConfig

SAVE_WAIT_SECONDS = 120.0   # how long stopping waits for a running rebuild before it saves


@dataclass(frozen=True)
class PublishedTree:
    """The last build's published files as a BuildResult, and the base URL to replace in them."""

    result: "BuildResult"
    rewrite: tuple[bytes, bytes] | None   # (the site's base URL, the server's), without trailing slashes


@dataclass(frozen=True)
class SavedServe:
    """What the last server with this configuration left: the id of its saved state, its tree, and the
    snapshot of the inputs that state was built from (manifest.snapshot_site, local paths; None when
    that server did not know it), with the warnings of its build."""

    build_id: str
    tree: Path
    inputs: "dict[str, list | None] | None" = None
    warnings: tuple[SourceWarning, ...] = ()

    def changed_inputs(self, current: "dict[str, list | None]") -> list[str] | None:
        """The inputs whose content differs from the saved state's (a snapshot taken now); None when the
        saved state's are not known."""
        from ..disk.manifest import changed_between
        return None if self.inputs is None else changed_between(self.inputs, current)


def published_tree(options: "ServeOptions", server_url: str) -> PublishedTree | None:
    """The tree the last `blogbuild build` of this site published (with the server's drafts setting, else
    without drafts: it is only shown until the server's own build is done); None when there is none, its
    record does not match the disk, or the site lives under a path (its links would not resolve here)."""
    from ..disk import manifest
    from ..pipeline import BuildResult, load_site_config
    from ..core.options import SiteLocation
    from ..disk.output import MARKER
    for drafts in dict.fromkeys((options.drafts, False)):
        site = SiteLocation(root=options.root, source=options.source, config=options.config, drafts=drafts,
                            future=options.future, expired=options.expired)
        found = manifest.examine(site)
        if found is not None:
            break
    else:
        return None
    # That build hashed its inputs: the server's snapshot of the same files (ServedInputs.take) need not.
    manifest.trust_digests(manifest.local_entries(found.record["inputs"], os.path.abspath(options.root or ".")))
    try:
        config = load_site_config(site)
    except BlogbuildError:
        return None
    if config.base_path != "/":
        return None
    output = Path(config.root) / config.output_dir
    paths = [path for path in manifest.published_files(site, found, output) if path != MARKER]
    if "index.html" not in paths:
        return None
    files = {path: OutputFile(path, source=str(output / path)) for path in paths}
    result = BuildResult(files, None, (), (), frozenset(), frozenset())
    return PublishedTree(result, (config.base_url.rstrip("/").encode(), server_url.rstrip("/").encode()))


def _relative_snapshot(tree: Path, files: list[str]) -> dict[str, list | None]:
    """Sizes and mtimes of the tree's files and folders (manifest.snapshot_outputs), keyed relative to it."""
    from ..disk.manifest import snapshot_outputs
    base = str(tree)
    return {key[len(base) + 1:] or ".": entry for key, entry in snapshot_outputs(tree, files).items()}


def served_tree(config: "SiteConfig") -> tuple[PublishedTree, SavedServe] | None:
    """The tree the last server with this configuration saved when it stopped, and what its builder carries
    on from; None when there is none, or its record is of other code or does not match the disk."""
    from ..pipeline import BuildResult, Builder
    from ..disk.output import MARKER
    cache = Builder.disk_cache_for(config)
    try:
        record = json.loads(cache.served_record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (isinstance(record, dict) and record.get("code") == cache.code_key
            and record.get("drafts") == config.drafts and record.get("future") == config.future
            and record.get("expired") == config.expired
            and isinstance(record.get("build_id"), str) and isinstance(record.get("files"), list)
            and isinstance(record.get("stats"), dict)):
        return None
    files = [path for path in record["files"] if isinstance(path, str)]
    if "index.html" not in files or _relative_snapshot(cache.served_dir, files) != record["stats"]:
        return None
    tree = cache.served_dir
    outputs = {path: OutputFile(path, source=f"{tree}/{path}") for path in files if path != MARKER}
    return (PublishedTree(BuildResult(outputs, None, (), (), frozenset(), frozenset()), None),
            SavedServe(record["build_id"], tree, _recorded_inputs(record, config),
                       _recorded_warnings(record)))


def _recorded_warnings(record: dict) -> tuple[SourceWarning, ...]:
    """The warnings of the saved build, as the record keeps them ([path, line, message] each)."""
    items = record.get("warnings")
    return tuple(SourceWarning(*item) for item in items if isinstance(item, list) and len(item) == 3) \
        if isinstance(items, list) else ()


def _recorded_inputs(record: dict, config: "SiteConfig") -> "dict[str, list | None] | None":
    """The record's snapshot of the inputs with this machine's paths; None when it has none, or a post
    it left out (dated in the future) has come due since."""
    from ..disk.manifest import local_entries
    inputs, valid_until = record.get("inputs"), record.get("valid_until")
    if not isinstance(inputs, dict) or (valid_until is not None and (not isinstance(valid_until, (int, float))
                                                                     or time.time() >= valid_until)):
        return None
    return local_entries(inputs, os.path.abspath(config.root))


def _write_served_tree(cache: "DiskCache", builder: "Builder", result: "BuildResult", build_id: str,
                       inputs: "dict[str, list | None] | None") -> None:
    """Publish the served build as the server's own tree, then save the builder (its pages now read from
    that tree), then the record naming both: written last, so a server killed before it leaves a record
    that does not match (the tree is then only a source of pages whose key and stat match)."""
    from ..disk.output import MARKER, write_output
    tree = cache.served_dir
    config = builder.config
    protected = [Path(config.root) / folder for folder in (config.source_dir, config.templates_dir,
                                                           config.static_dir)]
    write_output(result.files, tree, protected=protected)
    files = sorted([*result.files, MARKER])
    stats = _relative_snapshot(tree, files)
    builder.record_published(tree, {f"{tree}/{path}": entry for path, entry in stats.items() if path != "."})
    builder.published(tree)
    builder.save_cache(build_id)
    # Drafts and future posts are not part of the configuration's key (build.config_key), but the tree
    # shows them or not: a server with other flags does not answer from it.
    record: dict = {"code": cache.code_key, "build_id": build_id, "files": files, "stats": stats,
                    "drafts": config.drafts, "future": config.future,
                    "expired": config.expired}
    if inputs is not None:   # what the next server compares with the disk to carry on without planning
        from ..pipeline.session import next_due
        from ..pipeline.state import site_warnings
        from ..disk.manifest import portable_entries
        record.update(inputs=portable_entries(inputs, os.path.abspath(config.root)),
                      valid_until=next_due(builder, config), warnings=[[item.path, item.line, item.message] for item in site_warnings(result.warnings)])
    write_atomically(cache.served_record, json.dumps(record, separators=(",", ":")).encode("utf-8"))


class ServedInputs:
    """The snapshot of the inputs (manifest.snapshot_site) the server's builder state is built from:
    taken before its first build, its entries taken again for the paths each rebuild reads, and saved with
    the server's tree, so that the next server finds what changed since (SavedServe.changed_inputs)."""

    def __init__(self) -> None:
        self._entries: dict[str, list | None] | None = None   # None: not known (nothing to compare with)
        self._config_files: dict[str, list | None] = {}
        self._started_ns = 0
        self._lock = threading.Lock()

    def before_config(self, options: "ServeOptions") -> None:
        """Stat the config files before the config is read (see manifest.py), absolute as the watcher
        names paths."""
        from ..disk.manifest import config_candidates, stat_files
        self._started_ns = time.time_ns()
        self._config_files = stat_files(os.path.abspath(path) for path in config_candidates(options))

    def take(self, config: "SiteConfig", saved: SavedServe | None) -> list[str] | None:
        """Snapshot the inputs before the first build reads them; the paths whose content changed since
        saved's state was built (None when that is not known)."""
        from ..disk.manifest import snapshot_site, trust_digests
        if saved is not None and saved.inputs is not None:
            trust_digests(saved.inputs)   # only files whose stat moved are hashed again
        entries = snapshot_site(config, self._config_files, self._started_ns, absolute=True)
        with self._lock:
            self._entries = entries
        return saved.changed_inputs(entries) if saved is not None else None

    def note(self, paths: "Iterable[str]", new_builder: bool) -> None:
        """Before a rebuild reads them: these paths' entries, taken now (an edit after this shows as a change
        to the next server). The listing of a folder a file was added to is not taken again (the next server
        then builds in full); nothing is known after a config change (a new builder)."""
        from ..disk.manifest import stat_files
        with self._lock:
            if self._entries is not None and new_builder:
                self._entries = None
            elif self._entries is not None:
                self._entries.update(stat_files(paths))

    def entries(self) -> "dict[str, list | None] | None":
        """A copy of the snapshot (None: not known)."""
        with self._lock:
            return dict(self._entries) if self._entries is not None else None


def carried_on(builder: "Builder", warnings: Iterable[SourceWarning]) -> "BuildResult":
    """The resumed builder state's build as it was published, when nothing it read has changed since: no
    source is read and no page planned. Later builds carry on from it as from one of the builder's own."""
    import gc
    from ..pipeline import BuildResult
    from ..pipeline.result import BuildStats
    last_good = builder.state.last_good
    assert builder.resumed and last_good is not None
    gc.freeze()   # as after a build: the loaded state is millions of long-lived objects
    return BuildResult(builder.state.previous, last_good.site, (), tuple(warnings), frozenset(), frozenset(),
                       BuildStats(markdown_reused=len(last_good.posts), partial=True))


def first_build(builder: "Builder", inputs: ServedInputs, saved: SavedServe | None,
                build: "Callable[[Iterable[str] | None, frozenset | None], BuildAttempt]"
                ) -> "tuple[BuildAttempt, tuple[str, ...]]":
    """The server's own first build, and the inputs that changed since the saved state's (to be said).
    The inputs are snapshotted first; carrying on from the last server's state, nothing changed: its build
    as it is, no page planned; only posts edited: they are read and what they reach re-planned (as
    `blogbuild build` does); else a whole build (build: the server's, with the changed paths and kinds)."""
    if not builder.keep_state:   # nothing is saved at stop: no snapshot to take
        return build(None, None), ()
    changed = inputs.take(builder.config, saved if builder.resumed else None)
    if changed == [] and saved is not None:
        return BuildAttempt(carried_on(builder, saved.warnings)), ()
    from ..pipeline.incremental import edited_posts
    edited = edited_posts(changed, builder.config) if changed else None
    return build(edited, frozenset() if edited is not None else None), tuple(changed or ())


def save_builder_state(whole_builder: Callable[[], "tuple[Builder, BuildResult | None] | None"],
                       build_lock: threading.Lock, say: Callable[..., None],
                       inputs: "Callable[[], dict[str, list | None] | None]" = lambda: None) -> bool:
    """Save the server's builder to the disk cache; True when done. whole_builder gives the builder and,
    when the served build is its last one and good, that build (else None: only the posts are saved), or
    None when its last build did not run to its end (Ctrl-C may have left its state half updated). A
    rebuild still running finishes first. inputs gives the snapshot of the inputs the builder's state
    was built from (None: unknown), read once that rebuild is done. Each file is replaced atomically, so a server killed while
    saving leaves the older cache; a failure is said, never raised."""
    if whole_builder() is None:
        return False
    if not build_lock.acquire(timeout=SAVE_WAIT_SECONDS):
        say("serve: a rebuild is still running; the build state was not saved", always=True)
        return False
    try:
        found = whole_builder()
        if found is None:
            return False
        builder, result = found
        started = time.perf_counter()
        from ..disk.site_lock import site_lock
        with site_lock(builder.config.root, wait=True):   # the cache's files: one writer of the site at a time
            if result is None or not builder.use_cache:
                builder.save_cache()
            else:
                _write_served_tree(builder.disk_cache, builder, result, f"serve-{uuid.uuid4().hex}", inputs())
        say(f"saved the build state in {(time.perf_counter() - started) * 1000:.0f} ms")
        return True
    except (OSError, BlogbuildError, RecursionError) as error:
        say(f"serve: could not save the build state: {error}", always=True)
        return False
    finally:
        build_lock.release()
