"""What a Builder keeps between builds, typed, and its pickles in .blogbuild-cache/ (the cache end of the disk).

Two files per configuration: `posts-<config>.pickle` (every rendered post by fingerprint, and with
keep_state the whole BuilderState of the last published build) and `pages-<config>.pickle` (the key of
every published page, so a new process copies a page from the published tree instead of rendering it).
A cache is never trusted: anything unreadable, of another format or of other code is ignored and rebuilt.
"""
from __future__ import annotations

import os
import pickle
import shutil
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping, NamedTuple

from ..atomic import atomic_writer
from ..errors import BlogbuildError, SourceError, SourceWarning
from ..model import OutputFile, Post, Site, SourceFile
from ..sources import ContentTree, FoundFile

CACHE_FORMAT = 3


class RenderOutcome(NamedTuple):
    """One content file through the per-file stage: the post, or None and the errors."""

    post: Post | None
    warnings: tuple[SourceWarning, ...]
    errors: tuple[BlogbuildError, ...]


class SourceEntry(NamedTuple):
    """A content file as last read: its size and mtime then, and the source (or why it cannot be read)."""

    size: int
    mtime_ns: int
    item: SourceFile | SourceError


class KnownSource(NamedTuple):
    """A markdown file of the last walk: found where, as which kind, with which bundle resources."""

    found: FoundFile
    kind: str
    resources: tuple[str, ...]


class RememberedRender(NamedTuple):
    """The outcome of rendering one SourceFile object under one code/config/templates key."""

    source: SourceFile
    base: str
    fingerprint: str
    outcome: RenderOutcome


class PublishedPage(NamedTuple):
    """A page of the published tree: the key it was made from, and its size and mtime when written."""

    key: str
    size: int
    mtime_ns: int


@dataclass(frozen=True)
class LastGood:
    """The last build without errors: under which templates, its posts by content path, its Site, and the
    time the Site was made at (a post dated after it is not published yet)."""

    templates_key: str
    posts: Mapping[str, Post]
    site: Site
    made_at: datetime


@dataclass
class BuilderState:
    """Everything one Builder carries from a build to the next (and, saved, to the next process)."""

    sources: dict[str, SourceEntry] = field(default_factory=dict)          # by content path
    remembered: dict[str, RememberedRender] = field(default_factory=dict)  # by content path
    rendered: dict[str, RenderOutcome] = field(default_factory=dict)       # by post fingerprint
    tree: ContentTree | None = None
    known: dict[str, KnownSource] = field(default_factory=dict)           # by absolute path
    last_good: LastGood | None = None
    list_keys: dict[str, str] = field(default_factory=dict)               # post fingerprint -> list key
    memo: dict[Any, Any] = field(default_factory=dict)                    # the Planner's search-index memo
    plain_posts: frozenset[str] = frozenset()                             # see links.resolve_links
    templates_key: str = ""
    closure: dict[str, tuple[str, bool]] = field(default_factory=dict)    # render.TemplateSet closures
    output_keys: dict[str, str] = field(default_factory=dict)             # output path -> key it was made from
    static_count: int = 0
    previous: Mapping[str, OutputFile] = field(default_factory=dict)      # the last good build's output

    def saved(self) -> "BuilderState":
        """A copy to pickle: sources without their text (a source is reused by identity, never re-hashed), and
        the output as names, not bytes. The posts are shared with the posts cache, not copied."""
        hollow: dict[int, SourceFile] = {}

        def thin(item: Any) -> Any:
            if isinstance(item, SourceFile):
                if id(item) not in hollow:
                    hollow[id(item)] = replace(item, text="", has_text=False)
                return hollow[id(item)]
            return item

        return replace(
            self, rendered={},
            sources={rel: entry._replace(item=thin(entry.item)) for rel, entry in self.sources.items()},
            remembered={rel: entry._replace(source=thin(entry.source)) for rel, entry in self.remembered.items()},
            previous={path: OutputFile(path) for path in self.previous})

    def relocated(self, old_root: str, new_root: str) -> "BuilderState":
        """This state moved with its site to another folder (a fresh clone): absolute paths follow it."""
        if old_root == new_root:
            return self

        def move(found: FoundFile) -> FoundFile:
            if found.path.startswith(old_root + os.sep):
                return replace(found, path=new_root + found.path[len(old_root):])
            return found

        tree = self.tree
        if tree is not None:
            tree = ContentTree(tuple((move(found), kind, resources) for found, kind, resources in tree.pages),
                               tuple(move(found) for found in tree.files))
        known = {os.path.abspath(move(entry.found).path): entry._replace(found=move(entry.found))
                 for entry in self.known.values()}
        return replace(self, tree=tree, known=known)

    def published_at(self, publish_dir: str) -> "BuilderState":
        """This (saved) state with its output read from the published tree in publish_dir."""
        return replace(self, previous={path: OutputFile(path, source=f"{publish_dir}/{path}")
                                       for path in self.previous})


@dataclass(frozen=True)
class SavedState:
    """A BuilderState as pickled with the posts cache, under the id of the build it belongs to, and the
    absolute site folder it was made in."""

    build_id: str
    state: BuilderState
    root: str


def _write_pickle(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_writer(path) as handle:
        pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)


def _read_pickle(path: Path) -> Any:
    try:
        with open(path, "rb") as handle:
            return pickle.load(handle)
    except FileNotFoundError:
        return None


@dataclass
class LoadedCache:
    """What the disk cache held for this code and configuration."""

    rendered: dict[str, RenderOutcome] = field(default_factory=dict)
    state: SavedState | None = None
    published: dict[str, PublishedPage] = field(default_factory=dict)
    output_dir: str | None = None
    warnings: list[SourceWarning] = field(default_factory=list)


class DiskCache:
    """The two pickles of one configuration under .blogbuild-cache/."""

    def __init__(self, cache_dir: Path, config_key: str, code_key: str) -> None:
        self.code_key = code_key
        self.posts_file = cache_dir / f"posts-{config_key[:16]}.pickle"
        self.pages_file = cache_dir / f"pages-{config_key[:16]}.pickle"

    def _valid(self, stored: Any, key: str, kind: type) -> bool:
        return (isinstance(stored, dict) and stored.get("format") == CACHE_FORMAT
                and stored.get("code") == self.code_key and isinstance(stored.get(key), kind))

    def load(self) -> LoadedCache:
        """Whatever valid cache there is; damage is a warning and an empty cache, never an error."""
        loaded = LoadedCache()
        try:
            stored = _read_pickle(self.posts_file)
            if not self._valid(stored, "posts", dict):
                return loaded
            loaded.rendered = stored["posts"]
            if isinstance(stored.get("state"), SavedState):
                loaded.state = stored["state"]
            pages = _read_pickle(self.pages_file)
            if self._valid(pages, "pages", dict) and isinstance(pages.get("output"), str):
                loaded.published, loaded.output_dir = pages["pages"], pages["output"]
        except Exception as error:  # a cache is never trusted: any damage means rebuild
            loaded = LoadedCache(warnings=[SourceWarning(str(self.posts_file), 0, "cache unreadable "
                                                         f"({type(error).__name__}); ignored and rebuilt")])
        return loaded

    def save_published(self, output_dir: str, published: Mapping[str, PublishedPage]) -> None:
        """Write the keys of the published pages (atomically); output_dir relative to the site folder when
        inside it, so that a fresh clone in another folder finds its own published pages."""
        _write_pickle(self.pages_file, {"format": CACHE_FORMAT, "code": self.code_key, "output": output_dir,
                                        "pages": dict(published)})

    def save_posts(self, rendered: Mapping[str, RenderOutcome], state: SavedState | None) -> None:
        """Write the rendered posts (and a saved state) atomically; remove other configurations' pickles and
        bytecode compiled by other versions of blogbuild."""
        folder = self.posts_file.parent
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.pickle"):
            if old not in (self.posts_file, self.pages_file):
                old.unlink(missing_ok=True)
        for old in folder.glob("jinja-*"):
            if old.name != f"jinja-{self.code_key[:16]}":
                shutil.rmtree(old, ignore_errors=True)
        stored: dict[str, Any] = {"format": CACHE_FORMAT, "code": self.code_key, "posts": dict(rendered)}
        if state is not None:
            stored["state"] = state
        _write_pickle(self.posts_file, stored)
