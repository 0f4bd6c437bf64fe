"""The typed state one render of one body carries through markdown-it's rules and renderer."""
from __future__ import annotations

import re
from collections.abc import MutableMapping
from dataclasses import field
from typing import Any, Callable

from ..core.model import TocEntry
from ..core.records import dataclass

# markdown-it passes one mutable mapping (its "env") to every rule; its plugins keep their own keys
# there (references, footnotes). Ours travel as one typed object under this single key.
_KEY = "blogbuild"


@dataclass
class RenderEnvironment:
    """What the rules of one render read and collect: warnings, the TOC, heading ids, placeholders."""

    # Heading ids already taken: shared with the renders of shortcodes' inner markdown, so that an
    # id is unique on the whole page.
    used_ids: set[str] = field(default_factory=set)
    # Puts shortcode source text back where a placeholder landed inside code or math.
    restore: Callable[[str], str] | None = None
    # Matches this body's shortcode placeholders; None when the body has no shortcode.
    placeholder: re.Pattern[str] | None = None
    warnings: list[tuple[int, str]] = field(default_factory=list)   # (0-based body line, message)
    toc: list[TocEntry] = field(default_factory=list)
    # The last number tried per heading id base, so that many equal headings stay linear.
    next_number: dict[str, int] = field(default_factory=dict)
    # The 0-based body line of the inline content being parsed (None outside inline parsing).
    inline_line: int | None = None
    # Raw HTML blocks whose end was searched for and not found: (kind, end line, indent) ->
    # (first line, last line walked).
    unclosed_html_walks: dict[tuple[str, int, int], tuple[int, int]] = field(default_factory=dict)
    # Whether this body was already warned of math written with a delimiter the site does not typeset.
    warned_uncovered_math: bool = False
    # A Hugo site's render hooks for this page (hugo.gotemplate.hooks.RenderHooks), when its layouts render it.
    hooks: Any = None
    hooked_math: int = 0     # math elements a passthrough hook drew (no KaTeX needed for them)
    hooked_mermaid: int = 0  # mermaid blocks a code block hook drew (no mermaid needed for them)
    code_blocks: int = 0     # fenced code blocks met so far, when no render hooks count them

    def code_block_ordinal(self) -> int:
        """The 0-based place of the fence being rendered among the page's code blocks (the hooks count every
        fence, drawn by a hook or not, when the page has them)."""
        if self.hooks is not None:
            return max(self.hooks.ordinals.get("codeblock", 1) - 1, 0)
        self.code_blocks += 1
        return self.code_blocks - 1

    def warn(self, line: int, message: str) -> None:
        """Record a warning at a 0-based body line."""
        self.warnings.append((line, message))

    def restore_text(self, text: str) -> str:
        """Shortcode placeholders inside code or math go back to the source text."""
        return self.restore(text) if self.restore is not None else text

    def as_env(self) -> dict[str, Any]:
        """A fresh markdown-it env holding this environment."""
        return {_KEY: self}


def environment_of(env: MutableMapping[str, Any]) -> RenderEnvironment:
    """The RenderEnvironment of a markdown-it env (an empty one when it has none, as in highlight_html)."""
    environment = env.get(_KEY)
    if not isinstance(environment, RenderEnvironment):
        environment = env[_KEY] = RenderEnvironment()
    return environment
