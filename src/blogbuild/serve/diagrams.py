"""Mermaid diagrams of the files just saved, checked by mermaid's own parser in Node while the page already
shows the rebuild (as `blogbuild check` checks them): a syntax error becomes a warning at its file:line in the
terminal and in the page's warning panel, instead of only mermaid's "Syntax error" picture. Without Node or
the mermaid package nothing is checked and nothing is said (the page still shows mermaid's own error)."""
from __future__ import annotations

import shutil
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Sequence

from ..core.errors import SourceWarning
from .reports import is_saved

if TYPE_CHECKING:
    from ..pipeline import BuildResult
    from ..config import SiteConfig


def saved_diagram_warnings(config: "SiteConfig", result: "BuildResult", saved: Sequence[str]) -> list[SourceWarning]:
    """Warnings for the mermaid syntax errors of the saved posts ([] when none, or when Node cannot check)."""
    from ..pipeline.check import mermaid_problems
    node = shutil.which("node")
    if node is None or result.site is None:
        return []
    posts = [post for post in result.site.posts if is_saved(post.source, saved, str(config.root))]
    problems, _note = mermaid_problems(config, posts, node)
    return [SourceWarning(problem.path, problem.line, problem.message) for problem in problems]


def check_in_background(server: Any, result: "BuildResult", saved: Sequence[str], generation: int) -> None:
    """Check the saved posts' diagrams in a thread; when some do not parse and the server still shows that
    build, add them to its saved-file warnings, say them, and tell the pages (they fetch the status)."""
    config = server.config
    if config is None or not any(path.endswith((".md", ".markdown")) for path in saved):
        return

    def run() -> None:
        found = saved_diagram_warnings(config, result, saved)
        state = server.state
        if not found or state.generation != generation or server.stopping:
            return
        server._set_state(replace(state, saved_warnings=state.saved_warnings + tuple(
            {"path": item.path, "line": item.line, "message": item.message} for item in found)))
        for warning in found:
            server.say(str(warning))
        server._broadcast("ok", {"generation": generation})
    threading.Thread(target=run, name="blogbuild-diagrams", daemon=True).start()
