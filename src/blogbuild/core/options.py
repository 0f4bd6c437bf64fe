"""What `blogbuild build` and `blogbuild serve` were asked for: frozen dataclasses cli.py fills from argv.

They live below every stage so that the stages they steer (the manifest, the pipeline, the server) can name
them without importing a command; commands/build.py and commands/serve.py run them.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any
from .records import dataclass


@dataclass(frozen=True)
class SiteLocation:
    """Which site a build publishes and what the command line said of it: the site folder, the folders and
    config file it names, and the flags that change what is published. The manifest (the no-op check and the
    build record) works from this alone; how a command runs (jobs, quiet, the cache) is not part of it."""

    root: str = "."
    source: str | None = None
    output: str | None = None
    config: str | None = None
    drafts: bool = False
    future: bool = False
    expired: bool = False
    base_url: str | None = None
    strict: bool = False

    def config_overrides(self) -> dict[str, Any]:
        """The site config keys these flags set (None: keep the config file's value)."""
        # A flag left off keeps the config's value (Hugo's buildDrafts/buildFuture/buildExpired): None, not False.
        return {"drafts": self.drafts or None, "future": self.future or None, "expired": self.expired or None,
                "strict": self.strict, "base_url": self.base_url, "source_dir": self.source, "output_dir": self.output}


@dataclass(frozen=True)
class BuildOptions(SiteLocation):
    """Options of `blogbuild build`: the site it publishes (SiteLocation's fields), and how the command runs."""

    quiet: bool = False
    jobs: int = 0
    no_cache: bool = False

    @property
    def location(self) -> SiteLocation:
        """The site these options build, without how the command runs."""
        return SiteLocation(**{item.name: getattr(self, item.name) for item in fields(SiteLocation)})


@dataclass(frozen=True)
class ServeOptions:
    """Options of `blogbuild serve`."""

    root: str = "."
    source: str | None = None
    config: str | None = None
    output: str | None = None
    port: int = 1313
    bind: str = "127.0.0.1"
    drafts: bool = True
    future: bool = False
    expired: bool = False
    open_browser: bool = False
    quiet: bool = False
    allowed_hosts: tuple[str, ...] = ()   # host names answered beside IP addresses and localhost

    def config_overrides(self) -> dict[str, Any]:
        """The site config keys these flags set (None: keep the config file's value)."""
        return {"drafts": self.drafts, "future": self.future or None, "expired": self.expired or None, "strict": False, "base_url": None,
                "source_dir": self.source, "output_dir": self.output}
