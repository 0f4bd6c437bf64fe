"""What a Builder keeps between builds, typed, and its files in .blogbuild-cache/ (the cache end of the disk).

The rendered posts, shared by the configurations that render posts alike (`build` and `serve`), and per
configuration its saved BuilderState and the keys of its published pages (see DiskCache).
A cache is never trusted: its files are data (cache_codec), never code, and anything unreadable, of another
format or of other code is ignored and rebuilt.
"""
from __future__ import annotations

import gc
import os
import shutil
import time
from contextlib import contextmanager
from dataclasses import field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple

from ..disk import cache_codec
from ..core.atomic import atomic_writer
from ..core.cache_keys import STATE_FORMAT as CACHE_FORMAT
from ..disk.cache_codec import NotACacheFile, RecordTypes
from ..core.errors import BlogbuildError, SourceError, SourceWarning
from ..core.model import OutputFile, Post, Site, SourceFile, TemplateFacts
from ..core.names import TEMPORARY_SUFFIX
from ..disk.sources import ContentTree, FoundFile
from ..publish.site_files import SearchMemo
from ..core.records import dataclass
from .state_delta import DamagedPatch, StateBase, change_of, changed, entry_blobs


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
    """A page of the published tree: the key it was made from, and its size and mtime when written; with an engine
    that tracks them, the posts whose body its render read (core/page_reads.py)."""

    key: str
    size: int
    mtime_ns: int
    reads: "tuple[str, str] | None" = None   # core/page_reads.py's Reads


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
    search: SearchMemo = field(default_factory=SearchMemo)                # what the search outputs keep
    plain_posts: frozenset[str] = frozenset()                             # see links.resolve_links
    templates_key: str = ""
    closure: TemplateFacts = field(default_factory=TemplateFacts)          # the page engine's closures
    output_keys: dict[str, str] = field(default_factory=dict)             # output path -> key it was made from
    static_count: int = 0
    previous: Mapping[str, OutputFile] = field(default_factory=dict)      # the last good build's output

    def without_texts(self) -> "BuilderState":
        """A copy whose sources have no text: a source is reused by identity, never re-hashed, and one
        wanted afresh is read again (reading.refill). A source without text already is kept as it is (a
        resumed build's sources but the edited ones)."""
        hollow: dict[int, SourceFile] = {}

        def thin(item: Any) -> Any:
            if isinstance(item, SourceFile) and item.has_text:
                if id(item) not in hollow:
                    hollow[id(item)] = replace(item, text="", has_text=False)
                return hollow[id(item)]
            return item

        return replace(self, sources=_thinned(self.sources, "item", thin),
                       remembered=_thinned(self.remembered, "source", thin))

    def saved(self) -> "BuilderState":
        """A copy to save: sources without their text, no output (SavedState keeps its names) and no known
        files (the tree's, made again by relocated()). The posts are shared with the posts cache, not copied."""
        return replace(self.without_texts(), rendered={}, previous={}, known={})

    def relocated(self, old_root: str, new_root: str) -> "BuilderState":
        """This saved state taken up in new_root, the folder its site is in now (a fresh clone's, or the one
        it was made in): absolute paths in old_root follow it, and its known files are made from its tree."""

        moved: dict[int, FoundFile] = {}   # the tree and known share their FoundFiles: each moved once

        def move(found: FoundFile) -> FoundFile:
            done = moved.get(id(found))
            if done is None:   # not replace(): ten times the cost, for every file of the site
                done = moved[id(found)] = FoundFile(new_root + found.path[len(old_root):], found.rel_path,
                                                    found.size, found.mtime_ns) \
                    if found.path.startswith(old_root + os.sep) else found
            return done

        tree = self.tree
        if tree is None:
            return replace(self, known={})
        # A site built in the working folder has relative paths: nothing moves, the tree stays as it is.
        if old_root != new_root and (any(move(found) is not found for found, _, _ in tree.pages)
                                     or any(move(found) is not found for found in tree.files)):
            tree = ContentTree(tuple((move(found), kind, resources) for found, kind, resources in tree.pages),
                               tuple(move(found) for found in tree.files), tree.skipped, tree.warnings)
        # As reading.read_sources makes them (a moved path is absolute and normal already: new_root is).
        working = os.getcwd()
        known = {_absolute(found.path, working): KnownSource(found, kind, resources)
                 for found, kind, resources in tree.pages}
        return replace(self, tree=tree, known=known)

    def published_at(self, publish_dir: str, outputs: Iterable[str]) -> "BuilderState":
        """This (saved) state with its output, these paths, read from the published tree in publish_dir."""
        # Each file made as the cache codec makes a record, its fields set without __init__ (a frozen class's
        # sets each through object.__setattr__): a 1,000-post site has 4,600 files.
        fields, new = OutputFile("", source="").__dict__, object.__new__
        previous = {}
        for path in outputs:
            item = previous[path] = new(OutputFile)
            item.__dict__.update(fields, path=path, source=f"{publish_dir}/{path}")
        return replace(self, previous=previous)


def _absolute(path: str, working: str) -> str:
    """os.path.abspath(path) in the working folder, without its normalisation for a path that needs none (a
    walked file's relative path)."""
    if not path or path.startswith(("/", ".")) or "//" in path or "/." in path or path.endswith("/"):
        return os.path.abspath(path)
    return working.rstrip("/") + "/" + path


def _thinned(entries: dict[str, Any], name: str, thin: Callable[[Any], Any]) -> dict[str, Any]:
    """entries (NamedTuples) with the field `name` of each thinned; an entry whose field thin keeps is kept."""
    out = dict(entries)
    for key, entry in entries.items():
        value = getattr(entry, name)
        thinned = thin(value)
        if thinned is not value:
            out[key] = entry._replace(**{name: thinned})
    return out


@dataclass(frozen=True)
class SavedState:
    """A BuilderState as saved with the posts cache, under the id of the build it belongs to, the absolute
    site folder it was made in, and the paths of its output (the state's own `previous` is saved empty: its
    files are the published tree's, which BuilderState.published_at names again)."""

    build_id: str
    state: BuilderState
    root: str
    outputs: tuple[str, ...]


# Every record class a cache file may hold (cache_codec.RecordTypes): the state, the posts and the Site
# they make, with the configuration the Site carries and what the search outputs keep.
CACHE_RECORDS = RecordTypes([
    *(f"{__name__}:{name}" for name in ("RenderOutcome", "SourceEntry", "KnownSource", "RememberedRender",
                                         "PublishedPage", "LastGood", "BuilderState", "SavedState")),
    *(f"blogbuild.core.model:{name}" for name in ("SourceFile", "FrontMatter", "TocEntry", "SourceMark", "RenderedMarkdown",
                                             "TextMetrics", "Post", "Term", "Taxonomy", "SeriesNav", "PostNav",
                                             "Section", "ArchiveMonth", "ArchiveYear", "Site", "Paginator",
                                             "OutputFile", "TemplateFacts")),
    "blogbuild.core.errors:SourceWarning", "blogbuild.core.errors:Location",
    "blogbuild.disk.sources:FoundFile", "blogbuild.disk.sources:SkippedLink", "blogbuild.disk.sources:ContentTree",
    "blogbuild.config:SiteConfig", "blogbuild.config:MenuItem",
    "blogbuild.themes.options:ThemeOptions", "blogbuild.themes.options:Intro", "blogbuild.themes.options:Cover",
    "blogbuild.config.markup:MarkupConfig", "blogbuild.config.integrations:Comments", "blogbuild.config.integrations:Analytics",
    "blogbuild.config.cards:CardOptions", "blogbuild.config.images:ImageOptions",
    "blogbuild.publish.search_index:SearchIndex", "blogbuild.publish.search_index:RangeShards",
    "blogbuild.publish.site_files:SearchMemo",
])


IGNORED_CACHE_FILE = "not a blogbuild cache file of this version, ignored and rebuilt"


def site_warnings(warnings: Iterable[SourceWarning]) -> list[SourceWarning]:
    """The warnings about the site, without those about cache files a build ignored: those files are
    rebuilt, so the record of the build (which the next "Up to date" repeats) does not keep them."""
    return [warning for warning in warnings if warning.message != IGNORED_CACHE_FILE]


def _write_file(path: Path, kind: str, value: Any, references: Mapping[int, Any] | None = None) -> None:
    # The collector off while the file is encoded: the encoding is a container per value, and each
    # collection they trigger would walk the whole site again.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        parts = cache_codec.dump_parts(value, kind, CACHE_RECORDS, references or {})
    finally:
        if was_enabled:
            gc.enable()
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_writer(path) as handle:
        handle.writelines(parts)


def _read_file(path: Path, kind: str, resolve: Callable[[Any], Any] | None = None,
               made: list[Any] | None = None) -> Any:
    """What the cache file holds, None when there is none; NotACacheFile when it is not one of this
    version and kind (and OSError when it cannot be read). made receives its records (cache_codec.loads)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    return cache_codec.loads(data, kind, CACHE_RECORDS, resolve or cache_codec.unresolved, made)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a cache is read, and what was read frozen (left out of later
    collections, as the builder does with the site it made): reading makes millions of long-lived objects,
    and every collection they trigger walks them all again."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


class _MissingPost(Exception):
    """A saved state names a post the posts cache no longer holds: the state cannot be used (not damage)."""


# A saved state's reference to a post's whole render (RememberedRender.outcome), not to the post alone.
_RENDER_REFERENCE = "render:"


def _post_resolver(posts: Mapping[str, RenderOutcome], named: set[str] | None = None
                   ) -> Callable[[Any], Post | RenderOutcome]:
    """What a saved state's {"p": key} stands for: the post of that fingerprint in the loaded posts cache, or
    (the key "render:" and the fingerprint) its render. named receives each fingerprint resolved."""
    def post(key: Any) -> Post | RenderOutcome:
        render = isinstance(key, str) and key.startswith(_RENDER_REFERENCE)
        fingerprint = key[len(_RENDER_REFERENCE):] if render else key
        outcome = posts.get(fingerprint) if isinstance(fingerprint, str) else None
        if outcome is None or outcome.post is None:
            raise _MissingPost(key)
        if named is not None:
            named.add(fingerprint)
        return outcome if render else outcome.post
    return post


def _post_references(posts: Mapping[str, RenderOutcome]) -> dict[int, Any]:
    """The posts of the posts cache and their renders by identity: a state stores each as its fingerprint, not a
    copy. The very object the cache holds, not an equal one: links and images make new Post objects."""
    references = {id(outcome.post): fingerprint for fingerprint, outcome in posts.items() if outcome.post is not None}
    references.update((id(outcome), _RENDER_REFERENCE + fingerprint) for fingerprint, outcome in posts.items()
                      if outcome.post is not None)
    return references


def _is_saved_state(saved: Any) -> bool:
    return (type(saved) is SavedState and type(saved.state) is BuilderState and isinstance(saved.build_id, str)
            and isinstance(saved.root, str) and isinstance(saved.outputs, tuple))


def _all_of(mapping: Any, kind: type) -> bool:
    return isinstance(mapping, dict) and all(type(value) is kind for value in mapping.values())


@dataclass
class LoadedCache:
    """What the disk cache held for this code and configuration."""

    rendered: dict[str, RenderOutcome] = field(default_factory=dict)
    state: SavedState | None = None
    published: dict[str, PublishedPage] = field(default_factory=dict)
    output_dir: str | None = None
    warnings: list[SourceWarning] = field(default_factory=list)


# The state and page keys of this many configurations are kept (the most recently saved), so that
# `build` and `serve` (another base URL, drafts shown) do not throw each other's away.
KEEP_CONFIGURATIONS = 4
# A server's own tree (serve/warm.py) is the size of the site's output: the current configuration's and
# one other are kept.
KEEP_SERVED_TREES = 2
# A rendered post that no save of the posts cache has used for this many saves is dropped: a state saved
# a few saves ago (a build's, before a serve session) still finds every post it names.
KEEP_SAVES = 4
# Posts rendered since the full posts file was written go in a file of their own while they are at most this
# many, or a tenth of the full file's: past that the full file is written again.
DELTA_POSTS = 16
# The state is saved as a delta of its full file while it changes at most this many entries and values, or a
# tenth of the full file's records.
DELTA_CHANGES = 64
# A temporary file this old in the cache folder was left by a killed process (a live one renames its
# own within seconds).
STALE_TEMPORARY_SECONDS = 3600.0


class DiskCache:
    """The cache files of one configuration under .blogbuild-cache/, named by the code that wrote them, each
    in cache_codec's data format (read back without running anything it holds).

    `posts-<code>-<posts key>.cache`: rendered posts by fingerprint, shared by every configuration that
    renders posts alike (build and serve differ in base URL, which no post depends on); with each post the
    save it was last used in. `state-<code>-<config>.cache`: one configuration's BuilderState, its posts
    stored as references into the posts cache. `pages-<code>-<config>.cache`: the keys of its published
    pages."""

    def __init__(self, cache_dir: Path, config_key: str, posts_key: str, code_key: str) -> None:
        self.code_key = code_key
        self.folder = cache_dir
        code = code_key[:8]
        self.posts_file = cache_dir / f"posts-{code}-{posts_key[:16]}.cache"
        # The posts rendered since posts_file was written in full, written alone when they are few: a
        # one-post edit at 10,000 posts then writes one post, not 200 MB (see save_posts).
        self.delta_file = cache_dir / f"posts-{code}-{posts_key[:16]}.delta.cache"
        self.state_file = cache_dir / f"state-{code}-{config_key[:16]}.cache"
        # The state's changes since state_file was written in full (state_delta.py): a one-post edit writes
        # the entries it changed, not the whole state.
        self.state_delta_file = cache_dir / f"state-{code}-{config_key[:16]}.delta.cache"
        self.pages_file = cache_dir / f"pages-{code}-{config_key[:16]}.cache"
        self.pages_delta_file = cache_dir / f"pages-{code}-{config_key[:16]}.delta.cache"
        # What `blogbuild serve` publishes for itself when it stops (serve/warm.py): its pages, and the
        # record that says the tree is intact and names the state saved with it.
        self.served_dir = cache_dir / f"served-{code}-{config_key[:16]}"
        self.served_record = cache_dir / f"served-{code}-{config_key[:16]}.json"
        self._held: dict[str, RenderOutcome] = {}   # the posts cache as loaded or last saved
        self._base: frozenset[str] = frozenset()    # the fingerprints posts_file holds
        self._base_id = ""                          # the id the delta names posts_file by
        self._used: dict[str, int] = {}             # fingerprint -> the save that last used it
        self._saves = 0                             # how many times the posts cache was saved
        self._held_stat: tuple[Any, ...] | None = None   # the posts and delta files' stats when they held _held
        self._state_base: StateBase | None = None   # state_file as read, the base of a delta
        self._state_posts: set[str] = set()           # the fingerprints state_file names
        self._pages_base: tuple[str, str, dict[str, PublishedPage]] | None = None   # pages_file's id, output, pages

    def _valid(self, stored: Any, key: str, kind: type) -> bool:
        return (isinstance(stored, dict) and stored.get("format") == CACHE_FORMAT
                and stored.get("code") == self.code_key and isinstance(stored.get(key), kind))

    def _damaged(self, path: Path, warnings: list[SourceWarning]) -> None:
        warnings.append(SourceWarning(str(path), 0, IGNORED_CACHE_FILE))

    def _read(self, path: Path, kind: str, key: str, warnings: list[SourceWarning],
              resolve: Callable[[Any], Any] | None = None, made: list[Any] | None = None) -> dict | None:
        """The file's record when it is one of this code's (its key of the right type); None when there is
        none, and a warning naming the file when it is not a cache file of this version."""
        try:
            stored = _read_file(path, kind, resolve, made)
        except (NotACacheFile, DamagedPatch, OSError):
            self._damaged(path, warnings)
            return None
        if stored is None:
            return None
        if not self._valid(stored, key, {"state": SavedState, "change": list}.get(key, dict)):
            self._damaged(path, warnings)
            return None
        return stored

    def load(self) -> LoadedCache:
        """Whatever valid cache there is; damage is a warning and an empty cache, never an error."""
        loaded = LoadedCache()
        # Stated before reading: a save by another process meanwhile then tells as a changed file.
        before = self._files_stat()
        with _collector_paused():
            return self._load(loaded, before)

    def _load(self, loaded: LoadedCache, before: tuple[Any, ...]) -> LoadedCache:
        stored = self._read(self.posts_file, "posts", "posts", loaded.warnings)
        if stored is not None and not (_all_of(stored["posts"], RenderOutcome)
                                       and isinstance(stored.get("used"), dict)
                                       and isinstance(stored.get("saves"), int) and isinstance(stored.get("id"), str)):
            self._damaged(self.posts_file, loaded.warnings)
            stored = None
        if stored is not None:
            loaded.rendered = self._held = stored["posts"]
            self._used, self._saves = stored["used"], stored["saves"]
            self._base, self._base_id = frozenset(stored["posts"]), stored["id"]
            self._apply_delta(loaded)
            self._held_stat = before
        if loaded.rendered:
            loaded.state = self._load_state(loaded)
        pages = self._read(self.pages_file, "pages", "pages", loaded.warnings)
        if pages is not None:
            if _all_of(pages["pages"], PublishedPage) and isinstance(pages.get("output"), str) \
                    and isinstance(pages.get("id"), str):
                self._pages_base = (pages["id"], pages["output"], pages["pages"])
                loaded.published, loaded.output_dir = self._published_with_delta(loaded.warnings)
            else:
                self._damaged(self.pages_file, loaded.warnings)
        return loaded

    def _published_with_delta(self, warnings: list[SourceWarning]) -> tuple[dict[str, PublishedPage], str]:
        """The published pages of the full pages file read, with its delta when that is of it."""
        assert self._pages_base is not None
        base_id, output, pages = self._pages_base
        delta = self._read(self.pages_delta_file, "pages-delta", "pages", warnings)
        if delta is None or delta.get("base") != base_id:
            return dict(pages), output
        removed = delta.get("removed")
        if not (_all_of(delta["pages"], PublishedPage) and isinstance(removed, list)
                and isinstance(delta.get("output"), str)):
            self._damaged(self.pages_delta_file, warnings)
            return dict(pages), output
        gone = set(removed)
        published = {path: page for path, page in pages.items() if path not in gone}
        published.update(delta["pages"])
        return published, delta["output"]

    def _apply_delta(self, loaded: LoadedCache) -> None:
        """The posts rendered since the full file was written, when the delta is of that very file: posts
        the last save no longer kept are left out, as a full save leaves them out."""
        delta = self._read(self.delta_file, "delta", "posts", loaded.warnings)
        if delta is None or delta.get("base") != self._base_id:   # another file's delta: not applied
            return
        if not (_all_of(delta["posts"], RenderOutcome) and isinstance(delta.get("used"), dict)
                and isinstance(delta.get("saves"), int)):
            self._damaged(self.delta_file, loaded.warnings)
            return
        used: dict[str, int] = delta["used"]
        posts = {fingerprint: outcome for fingerprint, outcome in self._held.items() if fingerprint in used}
        posts.update(delta["posts"])
        loaded.rendered = self._held = posts
        self._used, self._saves = used, delta["saves"]

    def _load_state(self, loaded: LoadedCache) -> SavedState | None:
        """The saved state of this configuration (the full file, with its delta when that is of it), its
        posts taken from the loaded posts cache; None when there is none or it names a post the cache has
        dropped; damage is a warning. The full file's state is kept as read, the base of the next delta."""
        records: list[Any] = []
        named: set[str] = set()
        try:
            stored = self._read(self.state_file, "state", "state", loaded.warnings,
                                _post_resolver(loaded.rendered, named), records)
        except _MissingPost:
            return None
        if stored is None:
            return None
        saved = stored["state"]
        if not (_is_saved_state(saved) and isinstance(stored.get("id"), str)):
            self._damaged(self.state_file, loaded.warnings)
            return None
        base = StateBase(stored["id"], saved.state, saved.outputs, records, entry_blobs(saved.state))
        self._state_base, self._state_posts = base, named
        try:
            delta = self._read(self.state_delta_file, "state-delta", "change", loaded.warnings,
                               base.resolver(_post_resolver(loaded.rendered)))
        except _MissingPost:
            return None
        if delta is None or delta.get("base") != base.base_id:   # another full file's delta: not applied
            return replace(saved, state=changed(saved.state, ["r", {}]))
        try:
            outputs = delta["outputs"]
            saved = SavedState(delta["build_id"], changed(saved.state, delta["change"]), delta["root"],
                               saved.outputs if outputs is None else outputs)
        except (DamagedPatch, KeyError, TypeError, ValueError):
            saved = None
        if not _is_saved_state(saved):
            self._damaged(self.state_delta_file, loaded.warnings)
            return None
        return saved

    def save_published(self, output_dir: str, published: Mapping[str, PublishedPage]) -> None:
        """Write the keys of the published pages (atomically); output_dir relative to the site folder when
        inside it, so that a fresh clone in another folder finds its own published pages. When few differ
        from the full pages file's, only those (and the paths gone) are written, in its delta."""
        base = self._pages_base
        if base is not None:
            kept = base[2]
            changed = {path: page for path, page in published.items() if kept.get(path) != page}
            removed = [path for path in kept if path not in published]
            if len(changed) + len(removed) <= max(DELTA_CHANGES, len(kept) // 10):
                _write_file(self.pages_delta_file, "pages-delta", {
                    "format": CACHE_FORMAT, "code": self.code_key, "base": base[0], "output": output_dir,
                    "pages": changed, "removed": removed})
                return
        import uuid
        pages = dict(published)
        self._pages_base = (uuid.uuid4().hex, output_dir, pages)
        _write_file(self.pages_file, "pages", {"format": CACHE_FORMAT, "code": self.code_key, "output": output_dir,
                                               "pages": pages, "id": self._pages_base[0]})
        self.pages_delta_file.unlink(missing_ok=True)   # it names the old file: never applied to this one

    def save_posts(self, rendered: Mapping[str, RenderOutcome], state: SavedState | None) -> None:
        """Write the rendered posts, then (with a state) this configuration's state, each atomically: a
        process killed between the two leaves the older state, whose posts the cache still holds (KEEP_SAVES).
        Then remove what other code wrote and the least recently saved configurations beyond
        KEEP_CONFIGURATIONS. When the posts file still holds every post given (no process wrote it since
        this one read or wrote it), it is not written again (200 MB at 10,000 posts)."""
        if self._holds(rendered):
            self._save_state(self._held, state)
            return
        saves = self._saves + 1
        posts = dict(rendered)
        used = dict.fromkeys(posts, saves)
        for fingerprint, outcome in self._held.items():
            last = self._used.get(fingerprint, 0)
            # A post the full state file names stays while that file does (its delta replaced it).
            if fingerprint not in posts and (saves - last < KEEP_SAVES or fingerprint in self._state_posts):
                posts[fingerprint], used[fingerprint] = outcome, last
        added = {fingerprint: outcome for fingerprint, outcome in posts.items() if fingerprint not in self._base}
        dropped = len(self._base) - (len(posts) - len(added))
        if self._base_id and len(added) <= max(DELTA_POSTS, len(self._base) // 10) and \
                dropped <= len(self._base) // 4:
            # Few posts since the full file: write them alone (the full file stays as it is).
            _write_file(self.delta_file, "delta", {"format": CACHE_FORMAT, "code": self.code_key, "base": self._base_id,
                                            "posts": added, "used": used, "saves": saves})
        else:
            import uuid
            base_id = uuid.uuid4().hex
            _write_file(self.posts_file, "posts", {"format": CACHE_FORMAT, "code": self.code_key, "posts": posts,
                                            "used": used, "saves": saves, "id": base_id})
            self.delta_file.unlink(missing_ok=True)   # it names the old file: never applied to this one
            self._base, self._base_id = frozenset(posts), base_id
        self._held, self._used, self._saves = posts, used, saves
        self._held_stat = self._files_stat()
        self._save_state(posts, state)

    def _files_stat(self) -> tuple[Any, ...]:
        """The posts file's and the delta's (size, mtime, inode), None for one that is not there: another
        process's save changes one of them."""
        stats: list[Any] = []
        for path in (self.posts_file, self.delta_file):
            try:
                status = path.stat()
            except OSError:
                stats.append(None)
                continue
            stats.append((status.st_size, status.st_mtime_ns, status.st_ino))
        return tuple(stats)

    def _holds(self, rendered: Mapping[str, RenderOutcome]) -> bool:
        """Whether the posts file is as this process last read or wrote it and holds every one of these posts."""
        return (self._held_stat is not None and self._held_stat == self._files_stat()
                and all(fingerprint in self._held for fingerprint in rendered))   # a fingerprint names its render

    def _save_state(self, posts: Mapping[str, RenderOutcome], state: SavedState | None) -> None:
        """Write the state (its posts as references into posts, the posts file's content): as a delta of the
        full state file read when its changes are few, else in full; then prune."""
        if state is not None:
            base = self._state_base
            counted = [0]
            change = change_of(base.state, state.state, counted) if base is not None else None
            if base is not None and counted[0] <= max(DELTA_CHANGES, len(base.records) // 10):
                _write_file(self.state_delta_file, "state-delta", {
                    "format": CACHE_FORMAT, "code": self.code_key, "base": base.base_id, "build_id": state.build_id,
                    "root": state.root, "outputs": None if state.outputs == base.outputs else state.outputs,
                    "change": change}, {**_post_references(posts), **base.references()})
            else:
                import uuid
                _write_file(self.state_file, "state", {"format": CACHE_FORMAT, "code": self.code_key,
                                                       "state": state, "id": uuid.uuid4().hex},
                            _post_references(posts))
                self.state_delta_file.unlink(missing_ok=True)   # it names the old file: never applied to this one
                # What this process holds are not the new file's records: its next save is a full one.
                self._state_base, self._state_posts = None, set()
        self.prune()

    def prune(self) -> None:
        """Remove the cache files of other code, the least recently saved configurations beyond
        KEEP_CONFIGURATIONS, files of formats this code never reads (pickles, compiled templates), and
        temporary files killed processes left."""
        code = self.code_key[:8]
        mine = (self.posts_file, self.delta_file, self.state_file, self.state_delta_file, self.pages_file,
                self.pages_delta_file, self.served_dir, self.served_record)
        for path in [*self.folder.glob("*.pickle"), *self.folder.glob("jinja-*")]:
            _remove(path)
        kept: dict[str, list[tuple[float, Path]]] = {}
        for path in [*self.folder.glob("*.cache"), *self.folder.glob("served-*")]:
            prefix, _, rest = path.name.partition("-")
            kind = prefix + "".join(path.suffixes)   # a served tree and its record, posts and delta counted apart
            try:
                modified = path.stat().st_mtime
            except OSError:
                continue
            if not rest.startswith(f"{code}-"):
                _remove(path)
            elif path not in mine:
                kept.setdefault(kind, []).append((modified, path))
        for kind, others in kept.items():
            limit = KEEP_SERVED_TREES if kind.startswith("served") else KEEP_CONFIGURATIONS
            for _, path in sorted(others, reverse=True)[limit - 1:]:
                _remove(path)
        for spare in self.folder.glob(".blogbuild-spare-served-*"):   # write_output's spare of a tree now gone
            if not (self.folder / spare.name.removeprefix(".blogbuild-spare-")).is_dir():
                _remove(spare)
        stale_before = time.time() - STALE_TEMPORARY_SECONDS
        for temporary in self.folder.glob(f".*{TEMPORARY_SUFFIX}"):
            try:
                if temporary.stat().st_mtime < stale_before:
                    temporary.unlink()
            except OSError:
                pass
