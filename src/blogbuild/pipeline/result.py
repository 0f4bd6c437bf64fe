"""What a build returns: the output in memory, the Site, every error and warning, and the counts."""
from __future__ import annotations

from dataclasses import field
from typing import Mapping

from ..core.errors import BlogbuildError, SourceWarning
from ..core.model import OutputFile, Site
from ..core.records import dataclass


@dataclass(frozen=True)
class BuildStats:
    """Counts for the closing summary."""

    pages_by_kind: Mapping[str, int] = field(default_factory=dict)
    static_files: int = 0
    rendered_pages: int = 0
    reused_pages: int = 0
    markdown_rendered: int = 0
    markdown_reused: int = 0
    edited_posts: int = 0   # with partial: how many post files were edited (shown or not)
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
    # A multilingual site: every language's Site by the language's key (site is the default language's); {} else.
    sites: Mapping[str, Site] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether the build had no errors."""
        return not self.errors
