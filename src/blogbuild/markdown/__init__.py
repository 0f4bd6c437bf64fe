"""The markdown stage: markdown-it-py with math, mermaid, Pygments, heading ids, a TOC, CJK fixes and shortcodes.

Modules, one job each: parser (the markdown-it set-up, an ordered table of rule changes), environment
(the typed state of one render), math, cjk, headings (ids and TOC), code (highlighting, shared with
shortcodes), raw_html (neutralising raw HTML that would break the page), nesting (content too deep),
gates (rules called only where they can match), shortcodes, render (one body to RenderedMarkdown),
text_tree (the tree text.py measures, from the same tokens) and marks (the lines check reports).

The names below load on first use, so that importing one small module of the package (or the CLI
answering --version) does not import markdown-it, Pygments and Jinja.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .code import highlight_css, highlight_html
    from .headings import slugify_heading
    from .nesting import MAX_NESTING
    from .render import plain_line, render_markdown, render_post

__all__ = ["MAX_NESTING", "highlight_css", "highlight_html", "plain_line", "render_markdown", "render_post", "slugify_heading"]

_HOMES = {"MAX_NESTING": ".nesting", "highlight_css": ".code", "highlight_html": ".code",
          "plain_line": ".render", "render_markdown": ".render", "render_post": ".render", "slugify_heading": ".headings"}


def __getattr__(name: str) -> Any:
    """The public names, imported from their modules on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home, __name__), name)
