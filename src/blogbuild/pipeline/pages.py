"""The pages stage: every planned output as a file, from the page cache, the published tree or a fresh render.

A page is rendered only when no earlier build made it from the same key: the bytes this process kept
(PageStore.cache), or the published file of the last build when it is untouched since (a new process). With an
engine that tracks which posts' bodies a render read (a Hugo site's own layouts), a page's key holds the front
matter of every post, and the page is made again too when the body of a post its last render read changed
(core/page_reads.py): an edit to one post's text makes again the pages that showed its text, not every page.
"""
from __future__ import annotations

import os
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING, Mapping, Sequence

from ..core.errors import SourceError
from ..core.page_reads import NOTHING_READ, Reads, bodies_of, page_reads, reads_hold
from ..core.model import OutputFile
from .pools import PageOutcome, render_pages
from .state import PublishedPage
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..publish.outputs import PlannedData, PlannedPage
    from ..templating import PageEngine


@dataclass(frozen=True)
class PageFiles:
    """Each planned output's file (or why its template failed), and how many were rendered or reused."""

    outputs: Mapping[str, OutputFile | SourceError]
    rendered: int
    reused: int


class PageStore:
    """The rendered pages this process keeps by key, and the keys of the last published tree."""

    def __init__(self) -> None:
        self.cache: dict[str, tuple[str, bytes, Reads | None]] = {}   # output path -> (key, bytes, its reads)
        self.published: dict[str, PublishedPage] = {}
        self.published_dir: str | None = None
        # The bodies of this build's posts (URL -> fingerprint) when the engine tracks reads, else None; and
        # what the render of each output as it now stands read of them (kept in the published pages' records).
        self.bodies: Mapping[str, str] | None = None
        self.reads: dict[str, Reads] = {}

    def _track(self, templates: "PageEngine", pages: Sequence["PlannedPage"]) -> None:
        site = pages[0].context.get("site") if pages and templates.tracks_reads else None
        self.bodies = bodies_of(site) if site is not None else None

    def _holds(self, path: str, reads: Reads | None) -> bool:
        """Whether no post whose body the render read has changed since (always, when the engine does not track
        reads); when so, that render's reads are the output's."""
        if self.bodies is None:
            return True
        if reads is None or not reads_hold(reads, self.bodies):
            return False
        self.reads[path] = reads
        return True

    def published_copy(self, path: str, key: str) -> str | None:
        """The file of the last published build for this output when it was made from the same key (and the
        same bodies read) and is untouched since (size and mtime as recorded): a warm build copies it instead of
        rendering again."""
        if self.published_dir is None:
            return None
        entry = self.published.get(path)
        if entry is None or entry.key != key:
            return None
        target = os.path.join(self.published_dir, path)
        try:
            stat = os.lstat(target)   # a link placed in the output is never the page the build wrote
        except OSError:
            return None
        if not S_ISREG(stat.st_mode) or (stat.st_size, stat.st_mtime_ns) != (entry.size, entry.mtime_ns):
            return None
        return target if self._holds(path, entry.reads) else None

    def record(self, output_dir: Path, output_keys: Mapping[str, str],
               stats: Mapping[str, list | None] | None = None) -> None:
        """Remember each written page's key, size and mtime, and what its render read (stats:
        manifest.snapshot_outputs() of the same tree, when taken, so no file is stated twice)."""
        published: dict[str, PublishedPage] = {}
        base = str(output_dir)
        for path, key in output_keys.items():
            if stats is not None:
                entry = stats.get(f"{base}/{path}")
                if entry is None:
                    continue
                size, mtime = entry[0], entry[1]
            else:
                try:
                    stat = os.lstat(output_dir / path)
                except OSError:
                    continue
                if not S_ISREG(stat.st_mode):
                    continue
                size, mtime = stat.st_size, stat.st_mtime_ns
            before = self.published.get(path)
            reads = self.reads.get(path) if self.bodies is not None else None
            if reads is None and before is not None and before.key == key:   # a page this build did not plan
                reads = before.reads
            published[path] = PublishedPage(key, size, mtime, reads)
        self.published = published
        self.published_dir = base

    def _cached(self, path: str, key: str) -> bytes | None:
        entry = self.cache.get(path)
        return entry[1] if entry is not None and entry[0] == key and self._holds(path, entry[2]) else None

    def _rendered(self, templates: "PageEngine", pages: Sequence["PlannedPage"], jobs: int,
                  stage: str | None) -> dict[str, PageOutcome]:
        """The pages rendered; what each read of the posts' bodies kept, when the engine tracks it."""
        if self.bodies is None:
            return render_pages(templates, pages, jobs, stage)
        reads: dict[str, frozenset[str]] = {}
        fresh = render_pages(templates, pages, jobs, stage, reads)
        for path, urls in reads.items():
            self.reads[path] = page_reads(urls, self.bodies)
        return fresh

    def _keep(self, path: str, key: str, outcome: bytes | str, cache: dict[str, tuple[str, bytes, Reads | None]]
              ) -> OutputFile:
        """The output of a fresh render: bytes are remembered for the next build; a path means the page was
        spooled to the stage folder and is linked in."""
        if isinstance(outcome, str):
            return OutputFile(path, source=outcome, staged=True)
        cache[path] = (key, outcome, self.reads.get(path) if self.bodies is not None else None)
        return OutputFile(path, outcome)

    def make_all(self, templates: "PageEngine", pages: Sequence["PlannedPage"], data: Sequence["PlannedData"],
                 jobs: int, stage: str | None) -> PageFiles:
        """Every planned output, reusing what a build made from the same key; the cache then holds exactly
        these outputs."""
        self._track(templates, pages)
        on_disk: dict[str, str] = {}
        planned: list[PlannedPage | PlannedData] = [*pages, *data]
        # Each output's kept bytes, looked up once (with an engine that tracks reads, the check of its reads hashes
        # the bodies it read).
        cached = {item.output_path: self._cached(item.output_path, item.key) for item in planned}
        for item in planned:
            if cached[item.output_path] is None:
                published = self.published_copy(item.output_path, item.key)
                if published is not None:
                    on_disk[item.output_path] = published
        stale = [page for page in pages if cached[page.output_path] is None and page.output_path not in on_disk]
        fresh = self._rendered(templates, stale, jobs, stage)
        new_cache: dict[str, tuple[str, bytes, Reads | None]] = {}
        outputs: dict[str, OutputFile | SourceError] = {}
        rendered = 0
        for page in pages:
            path = page.output_path
            body = cached[path]
            if body is not None:
                new_cache[path] = self.cache[path]
                outputs[path] = OutputFile(path, body)
            elif path in on_disk:
                outputs[path] = OutputFile(path, source=on_disk[path])
            else:
                outcome = fresh[path]
                outputs[path] = outcome if isinstance(outcome, SourceError) else \
                    self._keep(path, page.key, outcome, new_cache)
                rendered += not isinstance(outcome, SourceError)
        for item in data:
            path = item.output_path
            body = cached[path]
            if body is None and path in on_disk:
                outputs[path] = OutputFile(path, source=on_disk[path])
                continue
            if body is None:   # a feed, the sitemap, the search index: made by a function, not a template
                body = item.make()
            new_cache[path] = (item.key, body, NOTHING_READ)
            self.reads[path] = NOTHING_READ
            outputs[path] = OutputFile(path, body)
        self.cache = new_cache
        return PageFiles(outputs, rendered, len(pages) - len(stale))

    def make_affected(self, templates: "PageEngine", pages: Sequence["PlannedPage"],
                      data: Sequence["PlannedData"], jobs: int, stage: str | None) -> PageFiles:
        """Only the planned outputs whose key changed are rendered; the others are what this process's cache or
        the published tree holds of the same key. The cache keeps every other page too."""
        self._track(templates, pages)
        outputs: dict[str, OutputFile | SourceError] = {}
        stale = []
        for page in pages:
            path = page.output_path
            body = self._cached(path, page.key)
            on_disk = self.published_copy(path, page.key) if body is None else None
            if body is not None or on_disk is not None:
                outputs[path] = OutputFile(path, body) if body is not None else OutputFile(path, source=on_disk or "")
            else:
                stale.append(page)
        fresh = self._rendered(templates, stale, jobs, stage)
        for page in stale:
            outcome = fresh[page.output_path]
            outputs[page.output_path] = outcome if isinstance(outcome, SourceError) else \
                self._keep(page.output_path, page.key, outcome, self.cache)
        for item in data:
            if self._cached(item.output_path, item.key) is None:
                body = item.make()
                self.cache[item.output_path] = (item.key, body, NOTHING_READ)
                self.reads[item.output_path] = NOTHING_READ
                outputs[item.output_path] = OutputFile(item.output_path, body)
        return PageFiles(outputs, len(stale), len(pages) - len(stale))
