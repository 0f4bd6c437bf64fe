"""build(): the pipeline top to bottom — sources, posts, site, pages, write."""
from __future__ import annotations

import gc
import os
import pickle
import re
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from .atomic import atomic_writer
from .config import SiteConfig, SiteOptions, load_config
from .errors import BlogbuildError, SourceError, SourceWarning
from .manifest import CACHE_DIR, code_key
from .model import OutputFile, Post, SourceFile, Site
from .posts import fingerprint_of
from .urls import url_to_output_path

if TYPE_CHECKING:
    from .commands.build import BuildOptions
    from .manifest import Examination

_MEDIA_SCRATCH: str | None = None   # image variants and cards of builds without a cache (Builder._media_cache)
_ROOT_LINK = re.compile(r'\b(href|src)="/(?!/)')
_CACHE_FORMAT = 1


def _rebase_links(html: str, base_path: str) -> str:
    """Root-relative href/src in content get the site's base path ('/x/' -> '/blog/x/')."""
    return _ROOT_LINK.sub(lambda match: f'{match.group(1)}="{base_path}', html)


@dataclass(frozen=True)
class BuildStats:
    """Counts for the closing summary."""

    pages_by_kind: Mapping[str, int] = field(default_factory=dict)
    static_files: int = 0
    rendered_pages: int = 0
    reused_pages: int = 0
    markdown_rendered: int = 0
    markdown_reused: int = 0
    seconds: float = 0.0
    partial: bool = False   # only the pages that can show edited posts were planned (a body edit)


@dataclass(frozen=True)
class BuildResult:
    """Everything one build made: the output in memory, the Site, and every error and warning."""

    files: Mapping[str, OutputFile]
    site: Site | None
    errors: tuple[BlogbuildError, ...]
    warnings: tuple[SourceWarning, ...]
    changed: frozenset[str]
    removed: frozenset[str]
    stats: BuildStats = BuildStats()

    @property
    def ok(self) -> bool:
        return not self.errors


def load_site_config(options: SiteOptions) -> SiteConfig:
    """The SiteConfig for a command's options (build, serve or check): config file plus overrides."""
    root = Path(options.root or ".")
    overrides = options.config_overrides()
    config_path = options.config
    config = load_config(config_path, root=root, overrides=overrides)
    source = Path(config.root) / config.source_dir
    if not source.is_dir():
        raise BlogbuildError(f"content folder '{source}' not found; run blogbuild in a site folder or pass "
                             "--source DIR")
    return config


def _config_key(config: SiteConfig) -> str:
    return fingerprint_of(repr(replace(config, drafts=False, future=False, strict=False)))


# --- the per-file stage: front matter, markdown, text metrics (runs in worker processes) -------------

_WORKER_SHORTCODES: Any = None


def _init_worker(template_dirs: list[str]) -> None:
    global _WORKER_SHORTCODES
    from .markdown.shortcodes import load_shortcodes
    _WORKER_SHORTCODES = load_shortcodes([Path(folder) for folder in template_dirs])


def render_source(source: SourceFile, config: SiteConfig, shortcodes: Any,
                  fingerprint: str) -> tuple[Post | None, tuple[SourceWarning, ...], tuple[BlogbuildError, ...]]:
    """One content file through front matter, markdown and text metrics; errors are returned, not raised."""
    from .frontmatter import parse_front_matter
    from .markdown import render_post
    from .posts import make_post
    try:
        front_matter = parse_front_matter(source)
        try:
            # The text measures come from the same tokens as the HTML: one parse per post.
            rendered, metrics = render_post(front_matter.body, path=source.path,
                                            line_offset=front_matter.body_line - 1, config=config,
                                            shortcodes=shortcodes)
        except SourceError as error:   # a repaired text's line: name the file's own
            if not front_matter.line_map or error.path != source.path:
                raise
            raise SourceError(error.path, front_matter.file_line(error.line), error.message, stage=error.stage,
                              column=error.location.column, source_line=error.source_line) from error.__cause__
        post, warnings = make_post(source, front_matter, rendered, metrics, config, fingerprint)
        return post, warnings, ()
    except SourceError as error:
        return None, (), (error,)
    except RecursionError:
        return None, (), (SourceError(source.path, 1, "too deeply nested to render (quotes or lists "
                                      "thousands of levels deep); flatten the nesting", stage="markdown"),)


def _render_in_worker(job: tuple[SourceFile, SiteConfig, str]):
    source, config, fingerprint = job
    return render_source(source, config, _WORKER_SHORTCODES, fingerprint)


class Builder:
    """Keeps caches between builds (for serve and warm builds); each build() re-reads what changed."""

    def __init__(self, config: SiteConfig, *, jobs: int = 1, use_cache: bool = False,
                 stage_dir: str | None = None, keep_state: bool = False, resume: str | None = None,
                 output_dir: Path | None = None) -> None:
        self.config = config
        # keep_state: save this builder's warm state with the cache (one-shot CLI builds), so the next
        # process can carry on where it stopped; resume: the id of the saved state to carry on from, which
        # the caller has checked against the build record (manifest.py). output_dir: where it publishes.
        self.keep_state = keep_state and use_cache
        self._resume = resume if use_cache else None
        self._publish_dir = output_dir
        self.resumed = False
        self._static_count = 0
        self._restored_closure: dict[str, tuple[str, bool]] = {}
        self.stage_dir = stage_dir     # spool rendered pages here (one-shot CLI builds) instead of memory
        self.jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
        self.use_cache = use_cache
        self.root = Path(config.root)
        self._sources: dict[str, tuple[int, int, SourceFile | SourceError]] = {}
        self._rendered: dict[str, tuple[Post | None, tuple, tuple]] = {}
        self._pages: dict[str, tuple[str, bytes]] = {}
        self._previous: Mapping[str, OutputFile] = {}
        self._templates_key = ""
        self._templates: Any = None
        self._shortcodes: Any = None
        self._list_keys: dict[str, str] = {}
        self._code_key = code_key()
        self._config_key = _config_key(config)
        self._cache_file = self.root / CACHE_DIR / f"posts-{self._config_key[:16]}.pickle"
        self._pages_file = self.root / CACHE_DIR / f"pages-{self._config_key[:16]}.pickle"
        self._output_keys: dict[str, str] = {}
        self._published: dict[str, tuple[str, int, int]] = {}
        self._output_dir: str | None = None
        self._published_dirty = False
        self._cache_warnings: list[SourceWarning] = []
        self._tree: Any = None
        self._known: dict[str, tuple] = {}
        self._last_good: tuple[str, dict[str, Post], Site] | None = None   # templates key, posts, site
        self._memo: dict = {}
        self._source_fingerprints: dict[str, tuple[SourceFile, str, str, tuple]] = {}
        self._plain_posts: set[str] = set()
        self._cache_dirty = False
        self._card_warnings: list[SourceWarning] = []
        self.cards_drawn = 0
        self.image_stats: Any = None
        if use_cache:
            self._load_cache()

    # -- persistent cache ---------------------------------------------------------------------------
    def _load_cache(self) -> None:
        try:
            with open(self._cache_file, "rb") as handle:
                stored = pickle.load(handle)
            if not (isinstance(stored, dict) and stored.get("format") == _CACHE_FORMAT
                    and stored.get("code") == self._code_key and isinstance(stored.get("posts"), dict)):
                return
            self._rendered.update(stored["posts"])
            state = stored.get("state")
            if self._resume is not None and isinstance(state, dict) and state.get("build_id") == self._resume:
                self._restore(state)
            pages = self._read_pickle(self._pages_file)
            if (isinstance(pages, dict) and pages.get("format") == _CACHE_FORMAT
                    and pages.get("code") == self._code_key and isinstance(pages.get("pages"), dict)
                    and isinstance(pages.get("output"), str)):
                self._published, self._output_dir = pages["pages"], pages["output"]
        except FileNotFoundError:
            return
        except Exception as error:  # a cache is never trusted: any damage means rebuild
            self._cache_warnings.append(SourceWarning(str(self._cache_file), 0, f"cache unreadable ({type(error).__name__}); "
                                                      "ignored and rebuilt"))

    def _published_copy(self, path: str, key: str) -> str | None:
        """The file of the last published build for this output when it was made from the same key and is
        untouched since (size and mtime as recorded): a warm build copies it instead of rendering again."""
        if self._output_dir is None:
            return None
        entry = self._published.get(path)
        if entry is None or entry[0] != key:
            return None
        target = os.path.join(self._output_dir, path)
        try:
            stat = os.stat(target)
        except OSError:
            return None
        if (stat.st_size, stat.st_mtime_ns) != (entry[1], entry[2]):
            return None
        return target

    def record_published(self, output_dir: Path, stats: Mapping[str, list | None] | None = None) -> None:
        """Remember each written page's key, size and mtime, so the next process can reuse it (see save_cache).
        stats: manifest.snapshot_outputs() of the same tree, when taken, so no file is stated twice."""
        if not self.use_cache:
            return
        published = {}
        base = str(output_dir)
        for path, key in self._output_keys.items():
            if stats is not None:
                entry = stats.get(f"{base}/{path}")
                if entry is None:
                    continue
                size, mtime = entry[0], entry[1]
            else:
                try:
                    stat = os.stat(output_dir / path)
                except OSError:
                    continue
                size, mtime = stat.st_size, stat.st_mtime_ns
            published[path] = (key, size, mtime)
        self._published = published
        self._output_dir = str(output_dir)
        self._published_dirty = True

    def published(self, output_dir: Path) -> None:
        """The last build's output is now the published tree: let go of its bytes (the feeds and the search
        index, 40 MB at 10,000 posts), so saving the cache does not hold them too (the peak of a build)."""
        base = str(output_dir)
        self._previous = {path: OutputFile(path, source=f"{base}/{path}") for path in self._previous}
        self._pages.clear()

    def save_cache(self, build_id: str | None = None) -> None:
        """Write the rendered-posts cache and the published-page keys (atomically) when they changed; with
        build_id (and keep_state), the builder's state too, under that id."""
        if not self.use_cache:
            return
        if self._published_dirty:
            self._write_pickle(self._pages_file, {"format": _CACHE_FORMAT, "code": self._code_key,
                                                  "output": self._output_dir, "pages": self._published})
            self._published_dirty = False
        if not self._cache_dirty and build_id is None:
            return
        self._cache_file.parent.mkdir(parents=True, exist_ok=True)
        for old in self._cache_file.parent.glob("*.pickle"):
            if old not in (self._cache_file, self._pages_file):
                old.unlink(missing_ok=True)
        for old in self._cache_file.parent.glob("jinja-*"):   # compiled by other versions of blogbuild
            if old.name != f"jinja-{self._code_key[:16]}":
                shutil.rmtree(old, ignore_errors=True)
        live = {entry[0].fingerprint: entry for entry in self._rendered.values() if entry[0] is not None}
        stored = {"format": _CACHE_FORMAT, "code": self._code_key, "posts": live}
        if build_id is not None and self.keep_state and self._last_good is not None:
            stored["state"] = self._state(build_id)
        self._write_pickle(self._cache_file, stored)
        self._cache_dirty = False

    def _state(self, build_id: str) -> dict[str, Any]:
        """What a new process needs to carry on as if it had made this build: sources (their text left out:
        a source is reused by identity, never re-hashed), the site model, page keys and memos. One pickle
        with the posts cache, so the Post objects are shared, not copied."""
        hollow: dict[int, SourceFile] = {}

        def thin(item: Any) -> Any:
            if isinstance(item, SourceFile):
                if id(item) not in hollow:
                    hollow[id(item)] = replace(item, text="", has_text=False)
                return hollow[id(item)]
            return item

        return {
            "build_id": build_id,
            "sources": {rel: (size, mtime, thin(item)) for rel, (size, mtime, item) in self._sources.items()},
            "fingerprints": {rel: (thin(entry[0]), *entry[1:]) for rel, entry in self._source_fingerprints.items()},
            "tree": self._tree, "known": self._known, "last_good": self._last_good,
            "list_keys": self._list_keys, "memo": self._memo, "plain_posts": self._plain_posts,
            # Not self._pages (the feeds' and search index's bytes, 40 MB at 10,000 posts): they are published,
            # and a body edit makes the few it touches afresh.
            "templates_key": self._templates_key, "output_keys": self._output_keys,
            "static_count": self._static_count, "outputs": sorted(self._previous),
            "closure": dict(self._templates._closure) if self._templates is not None else {},
        }

    def _restore(self, state: dict[str, Any]) -> None:
        """Take up a saved state (see _state); the published files stand in for the last build's output."""
        self._sources = state["sources"]
        self._source_fingerprints = state["fingerprints"]
        self._tree, self._known, self._last_good = state["tree"], state["known"], state["last_good"]
        self._list_keys, self._memo, self._plain_posts = state["list_keys"], state["memo"], state["plain_posts"]
        self._templates_key = state["templates_key"]
        self._output_keys, self._static_count = state["output_keys"], state["static_count"]
        self._restored_closure = state["closure"]
        base = str(self._publish_dir)
        self._previous = {path: OutputFile(path, source=f"{base}/{path}") for path in state["outputs"]}
        self.resumed = True

    @staticmethod
    def _write_pickle(path: Path, value: Any) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_writer(path) as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)

    @staticmethod
    def _read_pickle(path: Path) -> Any:
        try:
            with open(path, "rb") as handle:
                return pickle.load(handle)
        except FileNotFoundError:
            return None

    # -- stages -------------------------------------------------------------------------------------
    def _shown(self, path: str) -> str:
        from .sources import display_path
        return display_path(path, str(self.root))

    def _read_one(self, found: Any, kind: str, resources: tuple[str, ...]) -> SourceFile | SourceError:
        """One content file, or the error that says why it cannot be read."""
        from .sources import read_source
        try:
            return read_source(found, kind=kind, resources=resources, shown_path=self._shown(found.path))
        except SourceError as error:
            return error
        except OSError as error:
            return SourceError(self._shown(found.path), 0, f"cannot read: {error.strerror}", stage="read")

    def _read_changed_only(self, changed: set[str]) -> tuple[list[SourceFile], list[BlogbuildError], Any] | None:
        """When the watcher names only known markdown files, re-read just those: no walk of the tree."""
        from .sources import FoundFile
        if not changed or self._tree is None or not all(path in self._known for path in changed):
            return None
        for path in changed:
            found, kind, resources = self._known[path]
            try:
                stat = os.stat(path)
            except OSError:
                return None   # deleted: let the full walk see it
            fresh = FoundFile(found.path, found.rel_path, stat.st_size, stat.st_mtime_ns)
            self._sources[found.rel_path] = (fresh.size, fresh.mtime_ns, self._read_one(fresh, kind, resources))
        sources = [entry[2] for entry in self._sources.values() if isinstance(entry[2], SourceFile)]
        errors = [entry[2] for entry in self._sources.values() if not isinstance(entry[2], SourceFile)]
        return sources, errors, self._tree

    def _read_sources(self, changed: set[str] | None) -> tuple[list[SourceFile], list[BlogbuildError], Any]:
        from .sources import scan_content
        if changed is not None:
            quick = self._read_changed_only(changed)
            if quick is not None:
                return quick
        tree = scan_content(self.config)
        sources: list[SourceFile] = []
        errors: list[BlogbuildError] = []
        seen: dict[str, tuple[int, int, SourceFile | SourceError]] = {}
        for found, kind, resources in tree.pages:
            cached = self._sources.get(found.rel_path)
            fresh = (cached is not None and cached[0] == found.size and cached[1] == found.mtime_ns
                     and (changed is None or os.path.abspath(found.path) not in changed)
                     and (not isinstance(cached[2], SourceFile) or cached[2].resources == resources))
            if fresh:
                entry = cached
            else:
                entry = (found.size, found.mtime_ns, self._read_one(found, kind, resources))
            seen[found.rel_path] = entry
            if isinstance(entry[2], SourceFile):
                sources.append(entry[2])
            else:
                errors.append(entry[2])
        self._sources = seen
        self._tree = tree
        self._known = {os.path.abspath(found.path): (found, kind, resources) for found, kind, resources in tree.pages}
        return sources, errors, tree

    def _refill(self, source: SourceFile) -> SourceFile | SourceError:
        """Read again a source whose text a resumed state left out."""
        for found, kind, resources in self._tree.pages:
            if found.rel_path == source.rel_path:
                return self._read_one(found, kind, resources)
        return SourceError(source.path, 0, "vanished while building; build again", stage="read")

    def _load_templates(self) -> tuple[Any, Any]:
        from .sources import template_dirs, walk_files
        dirs = template_dirs(self.config)
        parts = []
        for folder in dirs:
            for item in walk_files(folder):
                parts.append(f"{folder}/{item.rel_path}:{item.size}:{item.mtime_ns}")
        key = fingerprint_of(*parts)
        if key != self._templates_key or self._templates is None:
            from .render import TemplateSet, make_environment
            from .markdown.shortcodes import load_shortcodes
            bytecode = self.root / CACHE_DIR / f"jinja-{self._code_key[:16]}" if self.use_cache else None
            self._templates = TemplateSet(make_environment(self.config, dirs, bytecode))
            self._shortcodes = load_shortcodes(dirs)
            if key == self._templates_key:   # a resumed state: same templates, known closures
                self._templates._closure.update(self._restored_closure)
            else:
                self._pages.clear()
            self._templates_key = key
        return self._templates, self._shortcodes

    def _render_posts(self, sources: list[SourceFile], shortcodes: Any) -> tuple[list[Post], list[SourceWarning],
                                                                                   list[BlogbuildError], int, int]:
        from .sources import template_dirs
        base = fingerprint_of(self._code_key, self._config_key, self._templates_key)
        jobs_needed: list[tuple[SourceFile, str]] = []
        results: dict[str, tuple] = {}
        known = self._source_fingerprints
        self._source_fingerprints = {}
        for source in sources:
            remembered = known.get(source.rel_path)
            if remembered is not None and remembered[0] is source and remembered[1] == base:
                # The same SourceFile object as last build: its outcome cannot have changed.
                self._source_fingerprints[source.rel_path] = remembered
                results[source.rel_path] = remembered[3]
                continue
            if not source.has_text:   # a resumed state's source, wanted afresh (templates changed): read it
                refilled = self._refill(source)
                if not isinstance(refilled, SourceFile):
                    results[source.rel_path] = (None, (), (refilled,))
                    continue
                source = refilled
            # Hashed only here, for a source that is not the very object the last build saw (checked above).
            fingerprint = fingerprint_of(base, source.rel_path, source.path, source.text, "|".join(source.resources))
            cached = self._rendered.get(fingerprint)
            if cached is not None:
                results[source.rel_path] = cached
                self._source_fingerprints[source.rel_path] = (source, base, fingerprint, cached)
            else:
                jobs_needed.append((source, fingerprint))
        if len(jobs_needed) >= 64 and self.jobs > 1:
            import multiprocessing
            context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
            chunk = max(1, len(jobs_needed) // (self.jobs * 8))
            gc.freeze()   # before forking: workers' collections then skip (and do not touch) the inherited heap
            with ProcessPoolExecutor(self.jobs, mp_context=context, initializer=_init_worker,
                                     initargs=([str(d) for d in template_dirs(self.config)],)) as pool:
                outcomes = list(pool.map(_render_in_worker, [(s, self.config, f) for s, f in jobs_needed],
                                         chunksize=chunk))
        else:
            outcomes = [render_source(source, self.config, shortcodes, fingerprint)
                        for source, fingerprint in jobs_needed]
        kept: dict[str, tuple] = {}
        for (source, fingerprint), outcome in zip(jobs_needed, outcomes, strict=True):
            results[source.rel_path] = outcome
            self._source_fingerprints[source.rel_path] = (source, base, fingerprint, outcome)
            if outcome[0] is not None:
                self._cache_dirty = True
        for source in sources:
            outcome = results[source.rel_path]
            if outcome[0] is not None:
                kept[outcome[0].fingerprint] = outcome
        self._rendered = kept
        posts, warnings, errors = [], [], []
        for source in sources:
            post, post_warnings, post_errors = results[source.rel_path]
            warnings.extend(post_warnings)
            errors.extend(post_errors)
            if post is not None:
                posts.append(post)
        return posts, warnings, errors, len(jobs_needed), len(sources) - len(jobs_needed)

    def build(self, changed_paths: Iterable[str] | None = None) -> BuildResult:
        """Build everything, reusing what did not change; content errors are in the result, not raised."""
        started = time.perf_counter()
        config = self.config
        changed = {os.path.abspath(path) for path in changed_paths} if changed_paths is not None else None
        errors: list[BlogbuildError] = []
        warnings: list[SourceWarning] = list(self._cache_warnings)
        warnings += [SourceWarning(config.config_path, 1, notice) for notice in config.notices]
        self._cache_warnings = []
        try:
            templates, shortcodes = self._load_templates()
        except BlogbuildError as error:
            return self._failed([error], warnings, started)
        sources, read_errors, tree = self._read_sources(changed)
        errors += read_errors
        posts, post_warnings, post_errors, rendered_count, reused_count = self._render_posts(sources, shortcodes)
        warnings += post_warnings
        errors += post_errors
        posts = self._resolve_refs(posts, errors, warnings, {source.rel_path: source for source in sources})
        posts, media, media_warnings = self._media(posts, tree)
        warnings += media_warnings
        from .site import build_site, replace_posts
        # The structure-keeping path only when nothing but known markdown files changed: a new static file,
        # template or folder needs the full plan (so a file added to static/ while serving is published).
        only_posts = changed is not None and all(path in self._known for path in changed)
        edited = self._content_only_edits(posts) if not errors and only_posts else None
        if edited is not None and any(path not in self._previous for path in media):
            edited = None   # an edit shows a new image: its variants must join the output

        if edited is not None:
            site = replace_posts(self._last_good[2], {post.url: post for post in edited})
            files, page_stats, render_errors = self._render_affected(site, templates, edited)
        else:
            site = build_site(posts, config, now=datetime.now(timezone.utc))
            conflict_errors, conflicted = _url_conflicts(site)
            errors += conflict_errors
            files, page_stats, render_errors = self._render_outputs(site, templates, tree, conflicted, media)
        errors += render_errors
        warnings += self._card_warnings
        self._card_warnings = []
        if config.strict and warnings:
            errors += [SourceError(w.path, w.line, f"{w.message} (--strict makes warnings errors)", stage="strict")
                       for w in warnings]
        if errors:
            return self._failed(errors, warnings, started, site)
        if edited is not None:   # only the files _render_affected replaced can differ
            changed_files = frozenset(path for path, item in files.items()
                                      if item is not self._previous.get(path) and self._previous.get(path) != item)
            removed: frozenset[str] = frozenset()
            stale = {self._last_good[1][post.rel_path].fingerprint for post in edited}
            for key in [key for key in self._memo if key[1] in stale]:
                del self._memo[key]
        else:
            changed_files = frozenset(path for path, item in files.items()
                                      if self._previous.get(path) != item)
            removed = frozenset(set(self._previous) - set(files))
            live = {post.fingerprint for post in posts}
            self._memo = {key: value for key, value in self._memo.items() if key[1] in live or key[1] == ""}
        self._previous = files
        self._last_good = (self._templates_key, {post.rel_path: post for post in posts}, site)
        # The site model is millions of long-lived objects: freeze them, so that the cyclic GC does not walk
        # them again on every later allocation burst of a rebuild.
        gc.freeze()
        stats = BuildStats(pages_by_kind=page_stats["kinds"], static_files=page_stats["static"],
                           rendered_pages=page_stats["rendered"], reused_pages=page_stats["reused"],
                           markdown_rendered=rendered_count, markdown_reused=reused_count,
                           seconds=time.perf_counter() - started, partial=edited is not None)
        return BuildResult(files, site, (), tuple(warnings), changed_files, removed, stats)

    def _content_only_edits(self, posts: list[Post]) -> list[Post] | None:
        """The posts whose body changed but whose front matter, file and URL did not, when that is the only
        change since the last good build (then the Site's structure is the same); else None."""
        if self._last_good is None or self._last_good[0] != self._templates_key:
            return None
        previous = self._last_good[1]
        if len(previous) != len(posts):
            return None
        edited = []
        for post in posts:
            old = previous.get(post.rel_path)
            if old is None:
                return None
            if old.fingerprint == post.fingerprint:
                continue
            if (post.kind != "page" or old.kind != "page" or post.url != old.url or post.params != old.params
                    or post.resources != old.resources or post.title != old.title):
                return None
            edited.append(post)
        published = {page.url for page in self._last_good[2].pages}
        return [post for post in edited if post.url in published]

    def _keep(self, path: str, key: str, outcome: bytes | str,
              cache: dict[str, tuple[str, bytes]] | None = None) -> OutputFile:
        """The output for a freshly rendered page: bytes are remembered for the next build (in cache, or
        the live page cache); a path means the page was spooled to the stage folder and is linked in."""
        if isinstance(outcome, str):
            return OutputFile(path, source=outcome, staged=True)
        (self._pages if cache is None else cache)[path] = (key, outcome)
        return OutputFile(path, outcome)

    def _render_affected(self, site: Site, templates: Any, edited: list[Post]) -> tuple[dict[str, OutputFile],
                                                                                          dict, list]:
        """Re-plan only the outputs that can show the edited posts; reuse every other file as it was."""
        from .render import Planner
        errors: list[BlogbuildError] = []
        files = dict(self._previous)
        pages, data = Planner(site, templates, self._list_key, self._memo).plan_affected(edited)
        for item in [*pages, *data]:   # what record_published keeps for the next process's reuse check
            self._output_keys[item.output_path] = item.key
        stale = [page for page in pages if self._pages.get(page.output_path, ("",))[0] != page.key]
        bodies = self._render_pages(templates, stale)
        for page in stale:
            outcome = bodies[page.output_path]
            if isinstance(outcome, SourceError):
                errors.append(outcome)
                continue
            files[page.output_path] = self._keep(page.output_path, page.key, outcome)
        for item in data:
            cached = self._pages.get(item.output_path)
            if cached is None or cached[0] != item.key:
                body = item.make()
                self._pages[item.output_path] = (item.key, body)
                files[item.output_path] = OutputFile(item.output_path, body)
        kinds: dict[str, int] = {}
        for page in pages:
            kinds[page.context["page"].kind] = kinds.get(page.context["page"].kind, 0) + 1
        return files, {"kinds": kinds, "static": self._static_count, "rendered": len(stale),
                       "reused": len(pages) - len(stale)}, errors

    def _failed(self, errors: list[BlogbuildError], warnings: list[SourceWarning], started: float,
                site: Site | None = None) -> BuildResult:
        unique: list[BlogbuildError] = []
        seen = set()
        for error in errors:
            if str(error) not in seen:
                seen.add(str(error))
                unique.append(error)
        return BuildResult(self._previous, site, tuple(unique), tuple(warnings), frozenset(), frozenset(),
                           BuildStats(seconds=time.perf_counter() - started))

    def _resolve_refs(self, posts: list[Post], errors: list[BlogbuildError], warnings: list[SourceWarning],
                      sources: Mapping[str, SourceFile]) -> list[Post]:
        from .content_links import content_paths, has_content_links, resolve_content_links
        from .markdown.shortcodes import resolve_refs
        by_path = {post.rel_path: post.url for post in posts}
        paths = content_paths(posts)

        def resolve(target: str) -> str | None:
            target = target.strip().lstrip("/")
            for candidate in (target, f"{target}.md", f"{target}/index.md", f"{target}/_index.md"):
                if candidate in by_path:
                    return self.config.site_url(by_path[candidate])
            matches = [url for rel, url in by_path.items() if rel.endswith("/" + target) or
                       rel.rsplit(".", 1)[0].endswith("/" + target)]
            return self.config.site_url(matches[0]) if len(matches) == 1 else None

        resolved = []
        base_path = self.config.base_path
        plain = self._plain_posts
        self._plain_posts = set()
        for post in posts:
            if post.fingerprint in plain:   # seen before with no ref and nothing to rebase: skip the scan
                self._plain_posts.add(post.fingerprint)
                resolved.append(post)
                continue
            # Links to content paths ('x.md', bundle files) depend on which pages exist: such a post is never
            # marked plain, so a page added later resolves its links.
            linkable = has_content_links(post.content_html)
            if base_path == "/" and "{{bbref:" not in post.content_html and not linkable:
                self._plain_posts.add(post.fingerprint)
                resolved.append(post)
                continue
            html = post.content_html
            summary_html = post.summary_html
            if linkable:
                html, missing = resolve_content_links(html, post.rel_path, paths)
                summary_html, _ = resolve_content_links(summary_html, post.rel_path, paths)
                warnings += [_missing_link(post, target, sources.get(post.rel_path)) for target in missing]
            html, ref_errors = resolve_refs(html, resolve, path=post.source)
            errors.extend(ref_errors)
            if base_path != "/":
                # Root-relative links in content mean "on this site": give them the base path, as Hugo does.
                html = _rebase_links(html, base_path)
            if html != post.content_html:
                # The summary was cut from the unresolved HTML: resolve it too (its errors are the same ones).
                summary, _ = resolve_refs(summary_html, resolve, path=post.source)
                if base_path != "/":
                    summary = _rebase_links(summary, base_path)
                post = replace(post, content_html=html, summary_html=summary,
                               fingerprint=fingerprint_of(post.fingerprint, html, summary))
            resolved.append(post)
        return resolved

    def _list_key(self, post: Post) -> str:
        key = self._list_keys.get(post.fingerprint)
        if key is None:
            from .render import post_list_key
            key = post_list_key(post)
            self._list_keys[post.fingerprint] = key
        return key

    def _render_pages(self, templates: Any, pages: list) -> dict[str, bytes | SourceError]:
        """Render pages, in forked worker processes when there are many (they inherit the Site, nothing is
        pickled but the bytes coming back); a template that fails once is not tried again."""
        from .render import render_template
        global _FORKED_PAGES
        stage = self.stage_dir
        if len(pages) >= 200 and self.jobs > 1 and sys.platform.startswith("linux"):
            import multiprocessing
            _FORKED_PAGES = (templates, pages, stage)
            try:
                gc.freeze()   # the workers inherit the Site: their collections need not walk it
                with ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("fork")) as pool:
                    bodies = list(pool.map(_render_forked, range(len(pages)),
                                           chunksize=max(1, len(pages) // (self.jobs * 8))))
            finally:
                _FORKED_PAGES = None
            return {page.output_path: body for page, body in zip(pages, bodies, strict=True)}
        results: dict[str, bytes | SourceError] = {}
        failed: dict[str, SourceError] = {}
        for page in pages:
            if page.template in failed:
                results[page.output_path] = failed[page.template]
                continue
            try:
                body = render_template(templates, page)
            except SourceError as error:
                failed[page.template] = error
                results[page.output_path] = error
                continue
            results[page.output_path] = _spool(body, stage, page.output_path) if stage else body
        return results

    def _media_cache(self) -> Path:
        """Where image variants and cards are kept: the site's cache, or without a cache a scratch folder
        shared by the process's builders (content-addressed files, so sharing is safe) and removed at exit."""
        if self.use_cache:
            return self.root / CACHE_DIR
        global _MEDIA_SCRATCH
        if _MEDIA_SCRATCH is None:
            import atexit
            import tempfile
            _MEDIA_SCRATCH = tempfile.mkdtemp(prefix="blogbuild-media-")
            atexit.register(shutil.rmtree, _MEDIA_SCRATCH, True)
        return Path(_MEDIA_SCRATCH)

    def _media(self, posts: list[Post], tree: Any) -> tuple[list[Post], dict[str, str], list[SourceWarning]]:
        """The images stage: posts' images sized, their variants (output path -> cached file)."""
        from .images import IMAGE_CACHE, image_stage, published_sources
        from .sources import static_files
        published = published_sources(posts, static_files(self.config), tree.files)
        posts, files, warnings, self.image_stats = image_stage(posts, self.config, published,
                                                               self._media_cache() / IMAGE_CACHE, self.jobs)
        return posts, files, warnings

    def _render_outputs(self, site: Site, templates: Any, tree: Any, conflicted: frozenset[str] = frozenset(),
                        media: Mapping[str, str] | None = None) -> tuple[dict[str, OutputFile], dict, list]:
        from .markdown import highlight_css
        from .render import Planner
        from .sources import static_files
        errors: list[BlogbuildError] = []
        files: dict[str, OutputFile] = {}
        claims: dict[str, str] = {}

        def claim(path: str, item: OutputFile, owner: str) -> None:
            if path in claims and claims[path] != owner and path not in conflicted:
                errors.append(SourceError(owner, 0, f"output {path} is also written by {claims[path]}; "
                                          "rename one of them or change its slug/url", stage="output"))
                return
            claims[path] = owner
            files[path] = item

        for item in static_files(self.config):
            claim(item.rel_path, OutputFile(item.rel_path, source=item.path), self._shown(item.path))
        resources = {resource: post for post in site.pages for resource in post.resources}
        for item in tree.files:
            post = resources.get(item.rel_path)
            if post is not None:
                bundle_folder = post.rel_path.rsplit("/", 1)[0] + "/"
                path = post.url.lstrip("/") + item.rel_path[len(bundle_folder):]
            else:
                path = item.rel_path
            claim(path, OutputFile(path, source=item.path), self._shown(item.path))
        for variant_path, variant_file in (media or {}).items():
            claim(variant_path, OutputFile(variant_path, source=variant_file), "<image variants>")
        from .cards import CARD_CACHE, card_stage
        cards, card_warnings, self.cards_drawn = card_stage(site, self.config, self._media_cache() / CARD_CACHE,
                                                            self.jobs)
        self._card_warnings = card_warnings
        for card_output, card_file in cards:
            claim(card_output, OutputFile(card_output, source=card_file), "<social cards>")
        css = highlight_css(self.config.code_style_light, self.config.code_style_dark).encode("utf-8")
        claim("css/syntax.css", OutputFile("css/syntax.css", css), "<syntax highlighting>")
        try:
            pages, data = Planner(site, templates, self._list_key, self._memo).plan()
        except SourceError as error:   # a template that does not parse: report it with the content errors
            errors.append(error)
            return files, {"kinds": {}, "static": 0, "rendered": 0, "reused": 0}, errors
        kinds: dict[str, int] = {}
        rendered = reused = 0
        static_count = len(files) - 1
        self._static_count = static_count
        failed_templates: set[str] = set()
        new_cache: dict[str, tuple[str, bytes]] = {}
        self._output_keys = {}
        on_disk: dict[str, str] = {}
        for item in [*pages, *data]:
            self._output_keys[item.output_path] = item.key
            if self._pages.get(item.output_path, ("",))[0] != item.key:
                published = self._published_copy(item.output_path, item.key)
                if published is not None:
                    on_disk[item.output_path] = published
        stale = [page for page in pages if self._pages.get(page.output_path, ("",))[0] != page.key
                 and page.output_path not in on_disk]
        fresh_bodies = self._render_pages(templates, stale)
        for page in pages:
            kinds[page.context["page"].kind] = kinds.get(page.context["page"].kind, 0) + 1
            cached = self._pages.get(page.output_path)
            if cached is not None and cached[0] == page.key:
                body = cached[1]
                reused += 1
            elif page.output_path in on_disk:
                reused += 1
                claim(page.output_path, OutputFile(page.output_path, source=on_disk[page.output_path]),
                      page.source or page.url)
                continue
            elif page.template in failed_templates:
                continue
            else:
                outcome = fresh_bodies[page.output_path]
                if isinstance(outcome, SourceError):
                    failed_templates.add(page.template)
                    errors.append(outcome)
                    continue
                rendered += 1
                claim(page.output_path, self._keep(page.output_path, page.key, outcome, new_cache),
                      page.source or page.url)
                continue
            new_cache[page.output_path] = (page.key, body)
            claim(page.output_path, OutputFile(page.output_path, body), page.source or page.url)
        for item in data:
            cached = self._pages.get(item.output_path)
            if cached is not None and cached[0] == item.key:
                body = cached[1]
            elif item.output_path in on_disk:
                claim(item.output_path, OutputFile(item.output_path, source=on_disk[item.output_path]),
                      item.source or "/" + item.output_path)
                continue
            else:
                body = item.make()
            new_cache[item.output_path] = (item.key, body)
            claim(item.output_path, OutputFile(item.output_path, body), item.source or "/" + item.output_path)
        self._pages = new_cache
        return files, {"kinds": kinds, "static": static_count, "rendered": rendered, "reused": reused}, errors


_FORKED_PAGES: tuple[Any, list] | None = None


def _render_forked(index: int) -> bytes | str | SourceError:
    from .render import render_template
    templates, pages, stage = _FORKED_PAGES
    try:
        body = render_template(templates, pages[index])
    except SourceError as error:
        return error
    return _spool(body, stage, pages[index].output_path) if stage else body


_SPOOL_FOLDERS: set[str] = set()   # folders this process has made in the stage (saves a syscall a page)


def _spool(body: bytes, stage: str, output_path: str) -> str:
    """Write a rendered page into the stage folder at its output path and return that path: the build
    keeps paths, not bytes (a 10,000-post build does not hold half a gigabyte of HTML), and when there is
    no spare tree the stage becomes the new output tree as it is (output.write_output). Workers make the
    folders, in parallel. A path that would leave the folder is written aside under a name no page has;
    write_output refuses that page before anything is published."""
    from .errors import BlogbuildError
    from .output import check_output_path
    try:
        check_output_path(output_path)
        path = os.path.join(stage, output_path)
    except BlogbuildError:
        path = os.path.join(stage, f".refused-{fingerprint_of(output_path)}")
    folder = os.path.dirname(path)
    if folder not in _SPOOL_FOLDERS:
        os.makedirs(folder, exist_ok=True)
        _SPOOL_FOLDERS.add(folder)
    with open(path, "wb") as handle:
        handle.write(body)
    return path


def _missing_link(post: Post, target: str, source: SourceFile | None) -> SourceWarning:
    """The warning for a `.md` link that names no page, at the line that writes it."""
    from .content_links import link_line
    text = ""
    if source is not None and source.has_text:
        text = source.text
    else:   # a source kept without its text (a saved build state): read the file for the line only
        try:
            text = Path(post.source).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
    return SourceWarning(post.source, link_line(text, target) if text else 1,
                         f"link to {target}: no page at that path; fix the path (relative to this file) "
                         "or link to the page's URL")


def _url_conflicts(site: Site) -> tuple[list[BlogbuildError], frozenset[str]]:
    """Two pages that claim one URL: name both, so the author can rename one (and the output paths)."""
    owners: dict[str, Post] = {}
    errors: list[BlogbuildError] = []
    paths: set[str] = set()
    for post in sorted(site.pages, key=lambda post: post.rel_path):
        for url in (post.url, *post.aliases):
            path = url_to_output_path(url)
            other = owners.get(path)
            if other is not None and other is not post:
                errors.append(SourceError(post.source, 1, f"URL {url} is also claimed by {other.source}; "
                                          "give one of them another slug or url", stage="assemble"))
                paths.add(path)
            else:
                owners[path] = post
    return errors, frozenset(paths)


def build(config: SiteConfig, *, jobs: int = 1, use_cache: bool = False) -> BuildResult:
    """Build a site once, in memory; see write_site() to publish it."""
    builder = Builder(config, jobs=jobs, use_cache=use_cache)
    result = builder.build()
    builder.save_cache()
    return result


def _summary(result: BuildResult, output: Path) -> str:
    stats = result.stats
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(stats.pages_by_kind.items()))
    total = sum(stats.pages_by_kind.values())
    warnings = len(result.warnings)
    tail = f"{warnings} warning{'s' if warnings != 1 else ''} in {stats.seconds * 1000:.0f} ms -> {output}/"
    if stats.partial:
        edited = stats.markdown_rendered
        return (f"Updated {total} pages ({kinds}) for {edited} edited post{'s' if edited != 1 else ''}, "
                f"the rest as published, {tail}")
    return f"Built {total} pages ({kinds}), {stats.static_files} static files, {tail}"


def run(options: BuildOptions, examination: Examination | None = None) -> int:
    """`blogbuild build`: build, report every error and warning, publish atomically; exit code.

    examination: what manifest.examine() found against the last build's record; when only known posts
    changed since, the build carries on from the state that build saved instead of reading every source."""
    from . import manifest
    from .sources import THEME_DIR
    started_ns = time.time_ns()
    # Stat the config before reading it and the input folders before the build reads them (manifest.py).
    config_files = manifest.stat_files(manifest.config_candidates(options))
    config = load_site_config(options)
    output = Path(config.root) / config.output_dir
    inputs = None
    if not options.no_cache:
        root = Path(config.root)
        inputs = manifest.snapshot_inputs(config_files, [root / config.source_dir, root / config.templates_dir,
                                                         root / config.static_dir, THEME_DIR], started_ns)
    import uuid
    # Unique per build: a stage given to a detached remover must never be the next build's stage.
    stage = output.resolve().parent / f".blogbuild-stage-{output.name}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    _SPOOL_FOLDERS.clear()
    for stale in stage.parent.glob(f".blogbuild-stage-{output.name}-*"):
        shutil.rmtree(stale, ignore_errors=True)
    code = 1
    try:
        stage.mkdir(parents=True)
        code = _build_and_publish(options, config, output, str(stage), inputs, examination)
        return code
    finally:
        if stage.exists():   # not taken as the new tree
            if code == 0:   # its pages are linked into the new tree: the build need not wait for the rest
                from .output import remove_later
                remove_later(stage)
            else:   # a failed build leaves nothing behind, not even for a moment
                shutil.rmtree(stage, ignore_errors=True)


def _edited_posts(examination: Examination | None, config: SiteConfig) -> list[str] | None:
    """The absolute paths of the posts edited since the last build, when that is all that changed: each
    an existing markdown file in the content folder (a new, deleted or renamed file changes its folder's
    names, which is not a post). None otherwise."""
    if examination is None or not examination.changed_inputs:
        return None
    from .sources import MARKDOWN_SUFFIXES
    content = os.path.abspath(Path(config.root) / config.source_dir) + os.sep
    paths = [os.path.abspath(path) for path in examination.changed_inputs]
    if all(path.startswith(content) and path.lower().endswith(MARKDOWN_SUFFIXES) and os.path.isfile(path)
           for path in paths):
        return paths
    return None


def _build_and_publish(options: BuildOptions, config: SiteConfig, output: Path, stage: str,
                       inputs: dict | None = None, examination: Examination | None = None) -> int:
    import uuid
    from . import manifest
    from .output import MARKER, write_output
    edited = _edited_posts(examination, config)
    builder = Builder(config, jobs=options.jobs, use_cache=not options.no_cache,
                      stage_dir=stage, keep_state=True, output_dir=output,
                      resume=examination.record["build_id"] if edited is not None else None)
    result = builder.build(edited if builder.resumed else None)
    quiet = options.quiet
    for warning in result.warnings:
        print(str(warning), file=sys.stderr)
    if result.errors:
        for error in result.errors:
            print(f"{error}", file=sys.stderr)
        count = len(result.errors)
        print(f"Error: build failed with {count} error{'s' if count != 1 else ''}; {output}/ was left as it was",
              file=sys.stderr)
        return 1
    protected = [Path(config.root) / config.source_dir, Path(config.root) / config.templates_dir,
                 Path(config.root) / config.static_dir, Path(config.root)]
    write_output(result.files, output, protected=protected, prepared=Path(stage))
    outputs = manifest.snapshot_outputs(output, [*result.files, MARKER]) if inputs is not None else None
    builder.record_published(output, outputs)
    result = replace(result, files={})   # the summary needs only the counts
    builder.published(output)
    if inputs is not None:
        build_id = uuid.uuid4().hex
        builder.save_cache(build_id)   # the state first: a record always names a state that exists
        stats = result.stats
        total = sum(stats.pages_by_kind.values())
        summary = f"{total} pages, {stats.static_files} static files"
        if stats.partial:   # counts of the pages this build looked at; the site's are the last full build's
            summary = examination.record["summary"]
        manifest.write_record(options, inputs=inputs, outputs=outputs, summary=summary,
                              warnings=[str(warning) for warning in result.warnings],
                              valid_until=_next_due(builder, config), output_dir=str(output), build_id=build_id)
    else:
        builder.save_cache()
    if not quiet:
        print(_summary(result, output))
    return 0


def _next_due(builder: Builder, config: SiteConfig) -> float | None:
    """When the earliest post dated in the future comes due (it must then appear), as a Unix time."""
    if config.future or builder._last_good is None:
        return None
    now = datetime.now(timezone.utc)
    due = [post.date.timestamp() for post in builder._last_good[1].values()
           if post.date is not None and post.date > now]
    return min(due) if due else None
