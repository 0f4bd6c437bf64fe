"""The pages stage: every planned output as a file, from the page cache, the published tree or a fresh render.

A page is rendered only when no earlier build made it from the same key: the bytes this process kept
(PageStore.cache), or the published file of the last build when it is untouched since (a new process).
"""
from __future__ import annotations

import os
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING, Mapping, Sequence

from ..core.errors import SourceError
from ..core.model import OutputFile
from .pools import render_pages
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
        self.cache: dict[str, tuple[str, bytes]] = {}       # output path -> (key, bytes)
        self.published: dict[str, PublishedPage] = {}
        self.published_dir: str | None = None

    def published_copy(self, path: str, key: str) -> str | None:
        """The file of the last published build for this output when it was made from the same key and is
        untouched since (size and mtime as recorded): a warm build copies it instead of rendering again."""
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
        return target

    def record(self, output_dir: Path, output_keys: Mapping[str, str],
               stats: Mapping[str, list | None] | None = None) -> None:
        """Remember each written page's key, size and mtime (stats: manifest.snapshot_outputs() of the same
        tree, when taken, so no file is stated twice)."""
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
            published[path] = PublishedPage(key, size, mtime)
        self.published = published
        self.published_dir = base

    def _cached(self, path: str, key: str) -> bytes | None:
        entry = self.cache.get(path)
        return entry[1] if entry is not None and entry[0] == key else None

    def _keep(self, path: str, key: str, outcome: bytes | str, cache: dict[str, tuple[str, bytes]]) -> OutputFile:
        """The output of a fresh render: bytes are remembered for the next build; a path means the page was
        spooled to the stage folder and is linked in."""
        if isinstance(outcome, str):
            return OutputFile(path, source=outcome, staged=True)
        cache[path] = (key, outcome)
        return OutputFile(path, outcome)

    def make_all(self, templates: "PageEngine", pages: Sequence["PlannedPage"], data: Sequence["PlannedData"],
                 jobs: int, stage: str | None) -> PageFiles:
        """Every planned output, reusing what a build made from the same key; the cache then holds exactly
        these outputs."""
        on_disk: dict[str, str] = {}
        planned: list[PlannedPage | PlannedData] = [*pages, *data]
        for item in planned:
            if self._cached(item.output_path, item.key) is None:
                published = self.published_copy(item.output_path, item.key)
                if published is not None:
                    on_disk[item.output_path] = published
        stale = [page for page in pages
                 if self._cached(page.output_path, page.key) is None and page.output_path not in on_disk]
        fresh = render_pages(templates, stale, jobs, stage)
        new_cache: dict[str, tuple[str, bytes]] = {}
        outputs: dict[str, OutputFile | SourceError] = {}
        rendered = 0
        for page in pages:
            path = page.output_path
            body = self._cached(path, page.key)
            if body is not None:
                new_cache[path] = (page.key, body)
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
            body = self._cached(path, item.key)
            if body is None and path in on_disk:
                outputs[path] = OutputFile(path, source=on_disk[path])
                continue
            if body is None:   # a feed, the sitemap, the search index: made by a function, not a template
                body = item.make()
            new_cache[path] = (item.key, body)
            outputs[path] = OutputFile(path, body)
        self.cache = new_cache
        return PageFiles(outputs, rendered, len(pages) - len(stale))

    def make_affected(self, templates: "PageEngine", pages: Sequence["PlannedPage"],
                      data: Sequence["PlannedData"], jobs: int, stage: str | None) -> PageFiles:
        """Only the planned outputs whose key changed (the rest stay as the last build made them); the cache
        keeps every other page too."""
        stale = [page for page in pages if self._cached(page.output_path, page.key) is None]
        fresh = render_pages(templates, stale, jobs, stage)
        outputs: dict[str, OutputFile | SourceError] = {}
        for page in stale:
            outcome = fresh[page.output_path]
            outputs[page.output_path] = outcome if isinstance(outcome, SourceError) else \
                self._keep(page.output_path, page.key, outcome, self.cache)
        for item in data:
            if self._cached(item.output_path, item.key) is None:
                body = item.make()
                self.cache[item.output_path] = (item.key, body)
                outputs[item.output_path] = OutputFile(item.output_path, body)
        return PageFiles(outputs, len(stale), len(pages) - len(stale))
