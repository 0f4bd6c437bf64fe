"""What the server shows, and how a build changes it: a pure function from the served state and one build's
outcome to the next state, so every rule (failures, diffs, generations) is testable without a server."""
from __future__ import annotations

import os
from dataclasses import field, replace
from typing import TYPE_CHECKING, Mapping

from ..core.model import OutputFile
from .watch import ChangeKind, WatchPlan, classify
from .reports import ErrorReport
from .trust import Pin
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..pipeline import BuildResult


@dataclass(frozen=True)
class ServedState:
    """What the server shows: the last good build, its generation, and the latest build's errors."""

    result: "BuildResult | None" = None     # the last good BuildResult, None before the first one
    generation: int = 0                     # counts good builds that changed something
    page_generations: Mapping[str, int] = field(default_factory=dict)   # output path -> last changed in
    errors: tuple[ErrorReport, ...] = ()    # () when the latest build was good
    # While the last build's published tree is served (serve/warm.py): its base URL and the server's.
    rewrite: tuple[bytes, bytes] | None = None
    # The warnings of the files saved for the latest good build ({path, line, message}), for the page's panel.
    saved_warnings: tuple[Mapping[str, object], ...] = ()
    # The copied files of result, each pinned to the file the build saw (serve/trust.py); None: never served.
    pins: Mapping[str, Pin | None] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether the latest build was good."""
        return not self.errors


@dataclass(frozen=True)
class RebuildReport:
    """What one rebuild did, as printed in one terminal line."""

    kinds: tuple[str, ...]
    paths: tuple[str, ...]
    changed: frozenset[str]
    removed: frozenset[str]
    milliseconds: float
    ok: bool
    rendered: int = 0                        # pages the builder rendered (the rest came from its cache)
    posts_rendered: int = 0                  # posts whose markdown was rendered (the rest: from a cache)
    planned: int = 0                         # pages planned (rendered or reused): none when nothing changed
    cpu_seconds: float | None = None         # the build thread's CPU time (said for the first build)

    def summary(self, what: str, is_rebuild: bool) -> str:
        """The terminal line of a good build; what: its kinds of change and paths."""
        cpu = f" (CPU {self.cpu_seconds:.2f} s)" if self.cpu_seconds is not None else ""
        return (f"{'rebuilt' if is_rebuild else 'built'} in {self.milliseconds:.0f} ms{cpu}: {what}; "
                f"{self.posts_rendered} post{'s' if self.posts_rendered != 1 else ''} and {self.rendered} "
                f"pages rendered ({self.planned} planned), {len(self.changed)} files changed, "
                f"{len(self.removed)} removed")


@dataclass(frozen=True)
class BuildAttempt:
    """One build as the server saw it: its result, or what it raised; new_builder after a config change."""

    result: "BuildResult | None"
    raised: tuple[BaseException, ...] = ()
    new_builder: bool = False

    @property
    def ok(self) -> bool:
        """Whether the build ran and had no errors."""
        return not self.raised and self.result is not None and self.result.ok


@dataclass(frozen=True)
class Transition:
    """The next served state, what changed for the browsers, and what the server remembers until the next build."""

    state: ServedState
    changed: frozenset[str]
    removed: frozenset[str]
    in_sync: bool                 # the builder's last build is the served one (its own diff can be trusted)
    touched: frozenset[str]       # paths touched since the served build


def diff_files(old: Mapping[str, OutputFile], new: Mapping[str, OutputFile],
               touched_sources: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Output paths that differ between two builds; copied files count as changed when their source was."""
    changed = set()
    for path, output in new.items():
        before = old.get(path)
        if before is None or before is output:
            if before is None:
                changed.add(path)
            continue
        if before.data != output.data or before.source != output.source:
            changed.add(path)
        elif output.source and os.path.abspath(output.source) in touched_sources:
            changed.add(path)
    removed = frozenset(path for path in old if path not in new)
    return frozenset(changed), removed


def copied_from(files: Mapping[str, OutputFile], touched: frozenset[str]) -> frozenset[str]:
    """Output paths of copied files whose source is among the touched paths."""
    if not touched:
        return frozenset()
    return frozenset(path for path, output in files.items()
                     if output.source and os.path.abspath(output.source) in touched)


def copy_candidates(touched: frozenset[str], plan: WatchPlan) -> frozenset[str]:
    """Touched paths that may be copied as they are: static files and bundle resources, not markdown."""
    return frozenset(path for path in touched
                     if classify(path, plan) is ChangeKind.STATIC
                     or (classify(path, plan) is ChangeKind.CONTENT and not path.endswith((".md", ".markdown"))))


def next_state(previous: ServedState, attempt: BuildAttempt, errors: tuple[ErrorReport, ...],
               touched: frozenset[str], in_sync: bool, plan: WatchPlan) -> Transition:
    """The state after one build. A failure keeps the last good build and shows its errors; a success
    becomes the served build, and its changed files get the next generation.

    touched: every path touched since the served build (this build's too); in_sync: whether the builder's
    previous build is the served one, so its own list of changes is right. Three ways to know what changed:
    everything (the first build), the builder's list plus copied files the watcher saw change (a copied
    file is the same OutputFile when only its bytes on disk changed), or a full comparison (after a
    failed build or a new builder)."""
    result = attempt.result
    if not attempt.ok or result is None:
        return Transition(replace(previous, errors=errors), frozenset(), frozenset(), False, touched)
    removed: frozenset[str]
    if previous.result is None:
        changed, removed = frozenset(result.files), frozenset()
    elif in_sync and not attempt.new_builder:
        changed = frozenset(result.changed) | copied_from(result.files, copy_candidates(touched, plan))
        removed = frozenset(result.removed)
    else:
        changed, removed = diff_files(previous.result.files, result.files, touched)
    generation = previous.generation + 1 if (changed or removed or previous.result is None) \
        else previous.generation
    page_generations = previous.page_generations
    if changed or removed:
        page_generations = dict(page_generations)
        for path in changed:
            page_generations[path] = generation
        for path in removed:
            page_generations.pop(path, None)
    return Transition(ServedState(result=result, generation=generation, page_generations=page_generations),
                      changed, removed, True, frozenset())
