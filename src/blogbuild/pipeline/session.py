"""A build session's shared parts: the SiteConfig a command's options mean, one build in memory, and when the
next build is due (a future post's date, an expiry). `blogbuild build` (commands/build.py), `serve` and
`check` use them."""
from __future__ import annotations

from pathlib import Path

from ..config import SiteConfig, SiteOptions, load_config
from ..core.errors import BlogbuildError
from .builder import Builder
from .result import BuildResult


def load_site_config(options: SiteOptions, loaded: SiteConfig | None = None) -> SiteConfig:
    """The SiteConfig for a command's options (build, serve or check): config file plus overrides (loaded:
    that config, read already for these options)."""
    root = Path(options.root or ".")
    config = loaded or load_config(options.config, root=root, overrides=options.config_overrides())
    source = Path(config.root) / config.source_dir
    if not source.is_dir():
        if not config.config_path:   # no config file either: not a site folder at all
            raise BlogbuildError(f"{root.resolve()} is not a site folder (no blogbuild.yaml, no Hugo config, no "
                                 "content/); run `blogbuild init` to make a site here, or run blogbuild in a site "
                                 "folder (or pass --root DIR)")
        raise BlogbuildError(f"content folder '{source}' not found; make it (mkdir {config.source_dir}), or "
                             "pass --source DIR")
    return config


def build(config: SiteConfig, *, jobs: int = 1, use_cache: bool = False) -> BuildResult:
    """Build a site once, in memory; see write_site() to publish it."""
    builder = Builder(config, jobs=jobs, use_cache=use_cache)
    result = builder.build()
    builder.save_cache()
    return result


def next_due(builder: Builder, config: SiteConfig) -> float | None:
    """When the earliest post dated in the future comes due (it must then appear), or the earliest expiryDate
    comes (it must then go), as a Unix time."""
    last_good = builder.last_good
    if last_good is None:
        return None
    # Dated after the moment the site was made, not after now: a post that came due while the build ran
    # was left out, and must make the next build run.
    made_at = last_good.made_at
    due = [] if config.future else [when.timestamp() for post in last_good.posts.values()
                                    if (when := post.publish_date or post.date) is not None and when > made_at]
    due += [] if config.expired else [post.expiry_date.timestamp() for post in last_good.posts.values()
                                      if post.expiry_date is not None and post.expiry_date > made_at]
    return min(due) if due else None
