"""Building a site: the recipe (builder.py), its state and cache, the worker pools, the pages stage,
assembling the output, the incremental policy, and what a build session shares (session.py); `blogbuild build` runs it
(commands/build.py).

    sources -> posts -> links -> site -> plan -> pages -> assemble -> write
"""
from __future__ import annotations

from ..core.cache_keys import CACHE_DIR
from .builder import Builder, config_key
from .session import build, load_site_config, next_due
from .pools import render_source
from .result import BuildResult, BuildStats

__all__ = ["CACHE_DIR", "Builder", "BuildResult", "BuildStats", "build", "config_key", "load_site_config",
           "next_due", "render_source"]
