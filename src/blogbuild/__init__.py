"""blogbuild: a static blog generator for math, mermaid and CJK prose."""
from __future__ import annotations

from .core.version import __version__

__all__ = ["__version__", "build", "load_config"]


def __getattr__(name: str):
    # Lazy, so that `blogbuild --version` does not import markdown-it, Jinja and Pygments.
    if name == "build":
        from .pipeline import build
        return build
    if name == "load_config":
        from .config import load_config
        return load_config
    raise AttributeError(name)
