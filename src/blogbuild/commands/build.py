"""`blogbuild build`: publish content/ to public/, or say that nothing changed since the last build."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BuildOptions:
    """Options of `blogbuild build`."""

    root: str = "."
    source: str | None = None
    output: str | None = None
    config: str | None = None
    drafts: bool = False
    future: bool = False
    expired: bool = False
    base_url: str | None = None
    strict: bool = False
    quiet: bool = False
    jobs: int = 0
    no_cache: bool = False

    def config_overrides(self) -> dict[str, Any]:
        """The site config keys these flags set (None: keep the config file's value)."""
        # A flag left off keeps the config's value (Hugo's buildDrafts/buildFuture/buildExpired): None, not False.
        return {"drafts": self.drafts or None, "future": self.future or None, "expired": self.expired or None, "strict": self.strict,
                "base_url": self.base_url,
                "source_dir": self.source, "output_dir": self.output}


def run(options: BuildOptions) -> int:
    """Build and publish; exit code 0 on success, 1 when any content error was reported or another build
    of the site is running (one line, site_lock.py)."""
    import sys

    from pathlib import Path

    from ..core.names import CONFIG_NAMES, HUGO_CONFIG_NAMES
    from ..disk.site_lock import SiteBusy, site_lock
    root = Path(options.root or ".")
    if not (options.config or options.source or (root / "content").is_dir()
            or any((root / name).is_file() for name in (*CONFIG_NAMES, *HUGO_CONFIG_NAMES))):
        return _run(options)   # no site here: the build says so, and no lock file is left behind
    try:
        with site_lock(root):
            return _run(options)
    except SiteBusy as busy:
        print(f"error: {busy}", file=sys.stderr)
        return 1


def _run(options: BuildOptions) -> int:
    # Nothing changed since the last build: say so after a stat pass, before importing the pipeline.
    from ..disk.manifest import run_if_up_to_date
    done, examination = run_if_up_to_date(options)
    if done is not None:
        return done
    from ..pipeline import run as build_and_publish
    return build_and_publish(options, examination)
