"""Build errors as the overlay and the terminal show them: the message and a few source lines around it."""
from __future__ import annotations

import os
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import BlogbuildError, describe_chain

EXCERPT_CONTEXT = 2          # source lines shown before and after an error's line


@dataclass(frozen=True)
class ErrorReport:
    """One build error with a few source lines around it, for the overlay and the terminal."""

    path: str
    line: int
    stage: str
    message: str
    text: str
    excerpt: tuple[tuple[int, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The JSON object the browser receives."""
        return {"path": self.path, "line": self.line, "stage": self.stage, "message": self.message,
                "text": self.text, "excerpt": [{"line": number, "text": text} for number, text in self.excerpt]}

    def terminal_text(self) -> str:
        """The same error as text for the terminal: the message, then the numbered lines."""
        lines = [self.text]
        for number, text in self.excerpt:
            marker = ">" if number == self.line else " "
            lines.append(f"  {marker} {number:4d} | {text}")
        return "\n".join(lines)


def _read_excerpt(path: str, line: int, root: str) -> tuple[tuple[int, str], ...]:
    if not path or line <= 0:
        return ()
    for candidate in (Path(path), Path(root) / path):
        try:
            if candidate.is_file() and candidate.stat().st_size < 4_000_000:
                lines = candidate.read_text(encoding="utf-8-sig", errors="replace").splitlines()
                break
        except OSError:
            continue
    else:
        return ()
    first = max(1, line - EXCERPT_CONTEXT)
    last = min(len(lines), line + EXCERPT_CONTEXT)
    return tuple((number, lines[number - 1]) for number in range(first, last + 1))


def error_report(error: BaseException, root: str = ".") -> ErrorReport:
    """An ErrorReport of any build error; SourceErrors bring their path, line and source lines."""
    path = str(getattr(error, "path", "") or "")
    line = int(getattr(error, "line", 0) or 0)
    stage = str(getattr(error, "stage", "") or "")
    message = str(getattr(error, "message", "") or error)
    if isinstance(error, BlogbuildError):
        text = describe_chain(error)
    else:
        # Not a content error: a bug in blogbuild. Say so plainly and keep serving the last good site.
        text = f"internal error: {type(error).__name__}: {error}"
        frames = traceback.extract_tb(error.__traceback__)
        if frames:
            text += f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}; please report it)"
        message = text
    return ErrorReport(path=path, line=line, stage=stage, message=message, text=text,
                       excerpt=_read_excerpt(path, line, root))


