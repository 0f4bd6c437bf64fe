"""`blogbuild check`: build in memory, then check links, anchors, math, mermaid and repaired headers."""
from __future__ import annotations

import os
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any
from ..core.records import dataclass


@dataclass(frozen=True)
class CheckOptions:
    """Options of `blogbuild check`."""

    root: str = "."
    source: str | None = None
    config: str | None = None
    drafts: bool = True     # drafts are what is being written: checked unless --no-drafts
    future: bool = False
    expired: bool = False
    quiet: bool = False

    def config_overrides(self) -> dict[str, Any]:
        """The site config keys these flags set (None: keep the config file's value)."""
        return {"drafts": self.drafts, "future": self.future or None, "expired": self.expired or None, "strict": False, "base_url": None,
                "source_dir": self.source, "output_dir": None}


def _said_by_build(problem: Any, warnings: Any) -> bool:
    """Whether the build already warned of this problem (same file and line, naming the same 'target'): the
    build's line, which says what to do, is the one printed."""
    quoted = re.search(r"'([^']+)'", problem.message)
    return quoted is not None and any(
        warning.path == problem.path and warning.line == problem.line and f"'{quoted.group(1)}'" in warning.message
        for warning in warnings)


def _cache_writable(root: Path) -> bool:
    """Whether check may add image variants and cards to the site's cache folder (or make it)."""
    from ..core.cache_keys import CACHE_DIR
    cache = root / CACHE_DIR
    return os.access(cache if cache.is_dir() else root, os.W_OK | os.X_OK)


def run(options: CheckOptions) -> int:
    """Print every problem as path:line: message; exit 1 when there is any."""
    from ..core import progress
    from ..pipeline import Builder, load_site_config
    from ..pipeline.check import check_site
    from ..pipeline.pools import tune_collector
    from ..core.errors import in_file_order
    tune_collector()
    # Math left as TeX in the pages (browser mode): the checker reads each formula's TeX and runs KaTeX itself.
    config = replace(load_site_config(options), math_render="browser")
    progress.start(options.quiet)
    try:
        # From the site's cache (its own configuration's state; posts shared when math renders alike), saving
        # none of it: only images and cards are added, content-addressed, as any build adds them. A site
        # folder it cannot write to (a read-only checkout) is checked without the cache.
        result = Builder(config, jobs=0, use_cache=_cache_writable(Path(config.root))).build()
        progress.stage("checks")
        report = check_site(config, site_pages=result.site.pages if result.site else (),
                            files=result.files if result.ok else None)
    finally:
        stages = progress.stop()
    quiet = options.quiet
    build_errors = [str(error) for error in result.errors]
    repair_lines = {(warning.path, warning.line, warning.message) for warning in report.repairs}
    # Which problems are in drafts: check reads them (they are what is being written) and says so.
    drafts = sorted({post.source for post in (result.site.pages if result.site else ()) if post.draft})
    # Every warning the build gave is a problem of the site (repaired headers are listed apart, with their fix);
    # each line is printed once, even when the build and a check found the same thing.
    lines: list[str] = []
    for warning in in_file_order(result.warnings):
        if (warning.path, warning.line, warning.message) not in repair_lines:
            lines.append(f"{warning} (a draft)" if warning.path in drafts else str(warning))
    lines += build_errors
    lines += [f"{problem} (a draft)" if problem.path in drafts else str(problem) for problem in report.problems
              if not _said_by_build(problem, result.warnings)]
    lines = list(dict.fromkeys(lines))
    if not quiet:
        for note in report.notes:
            print(f"note: {note}")
        if report.repairs:
            print(f"Repaired headers ({len(report.repairs)}); `blogbuild fix PATH` rewrites them in place:")
            for warning in report.repairs:
                print(f"  {warning}")
    for line in lines:
        print(line)
    total = len(lines)
    counts = report.counts
    named = ", ".join(drafts[:5]) + (f" and {len(drafts) - 5} more" if len(drafts) > 5 else "")
    checked_drafts = f" (drafts among them: {named})" if drafts else ""
    summary = (f"checked {counts.get('pages', 0)} pages{checked_drafts}, {counts.get('links', 0)} links, "
               f"{counts.get('math', 0)} formulas, {counts.get('diagrams', 0)} diagrams"
               + (" (not checked: see the note above)" if counts.get("diagrams_unchecked") else ""))
    if total:
        print(f"Error: {summary}: {total} problem{'s' if total != 1 else ''}", file=sys.stderr)
        return 1
    if not quiet:
        print(f"{summary}: no problems")
        if stages:
            print(stages)
    return 0
