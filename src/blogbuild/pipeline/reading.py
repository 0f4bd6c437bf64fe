"""The sources stage with memory: read what changed since the last build, reuse every other SourceFile object.

A reused SourceFile is the same object as last time, which is how the posts stage knows, without hashing
its text, that its post cannot have changed.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..config import SiteConfig
from ..core.errors import BlogbuildError, SourceError
from ..core.model import SourceFile
from ..disk.sources import ContentTree, FoundFile
from .state import BuilderState, KnownSource, SourceEntry
from ..core.records import dataclass


@dataclass(frozen=True)
class ReadSources:
    """The content files that could be read, the errors of those that could not, and the walked tree."""

    sources: list[SourceFile]
    errors: list[BlogbuildError]
    tree: ContentTree


def read_one(found: FoundFile, kind: str, resources: tuple[str, ...], root: str) -> SourceFile | SourceError:
    """One content file, or the error that says why it cannot be read."""
    from ..disk.sources import display_path, read_source
    try:
        return read_source(found, kind=kind, resources=resources, shown_path=display_path(found.path, root))
    except SourceError as error:
        return error
    except OSError as error:
        return SourceError(display_path(found.path, root), 0, f"cannot read: {error.strerror}", stage="read")


def _entries(state: BuilderState, tree: ContentTree) -> ReadSources:
    sources = [entry.item for entry in state.sources.values() if isinstance(entry.item, SourceFile)]
    errors: list[BlogbuildError] = [entry.item for entry in state.sources.values()
                                    if not isinstance(entry.item, SourceFile)]
    return ReadSources(sources, errors, tree)


def _read_changed_only(state: BuilderState, changed: set[str], root: str) -> ReadSources | None:
    """When the watcher names only known markdown files, re-read just those: no walk of the tree."""
    if not changed or state.tree is None or not all(path in state.known for path in changed):
        return None
    for path in changed:
        found, kind, resources = state.known[path]
        try:
            stat = os.stat(path)
        except OSError:
            return None   # deleted: let the full walk see it
        fresh = FoundFile(found.path, found.rel_path, stat.st_size, stat.st_mtime_ns)
        state.sources[found.rel_path] = SourceEntry(fresh.size, fresh.mtime_ns,
                                                    read_one(fresh, kind, resources, root))
    return _entries(state, state.tree)


def read_sources(state: BuilderState, config: SiteConfig, changed: set[str] | None) -> ReadSources:
    """Every content file, read again only when its size, mtime or resources changed or the watcher named it."""
    from ..core import progress
    from ..disk.sources import scan_content
    progress.stage("read")
    root = str(Path(config.root))
    if changed is not None:
        quick = _read_changed_only(state, changed, root)
        if quick is not None:
            return quick
    tree = scan_content(config)
    seen: dict[str, SourceEntry] = {}
    for found, kind, resources in tree.pages:
        cached = state.sources.get(found.rel_path)
        fresh = (cached is not None and cached.size == found.size and cached.mtime_ns == found.mtime_ns
                 and (changed is None or os.path.abspath(found.path) not in changed)
                 and (not isinstance(cached.item, SourceFile) or cached.item.resources == resources))
        seen[found.rel_path] = cached if fresh and cached is not None else \
            SourceEntry(found.size, found.mtime_ns, read_one(found, kind, resources, root))
    state.sources = seen
    state.tree = tree
    state.known = {os.path.abspath(found.path): KnownSource(found, kind, resources)
                   for found, kind, resources in tree.pages}
    return _entries(state, tree)


def refill(state: BuilderState, source: SourceFile, root: str) -> SourceFile | SourceError:
    """Read again a source whose text a resumed state left out."""
    if state.tree is not None:
        for found, kind, resources in state.tree.pages:
            if found.rel_path == source.rel_path:
                return read_one(found, kind, resources, root)
    return SourceError(source.path, 0, "vanished while building; build again", stage="read")
