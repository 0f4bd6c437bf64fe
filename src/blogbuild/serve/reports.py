"""Build errors as the overlay and the terminal show them: the message and a few source lines around it."""
from __future__ import annotations

import os
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..core.errors import BlogbuildError, describe_chain, in_file_order
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..core.errors import SourceWarning

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


def warning_lines(warnings: "Sequence[SourceWarning]", saved: "Sequence[str]", root: str, *,
                  is_rebuild: bool) -> list[str]:
    """What the terminal shows of a build's warnings: all of them after the first build; after a save, the
    saved files' warnings in full and one line counting the others (they were shown before and still hold),
    so the warning about the file just saved is never buried. A cache file the build ignored is news too:
    always said in full."""
    warnings = in_file_order(warnings)
    if not is_rebuild:
        return [str(warning) for warning in warnings]
    from ..pipeline.state import IGNORED_CACHE_FILE
    own = [warning for warning in warnings if warning.message == IGNORED_CACHE_FILE or is_saved(warning.path, saved, root)]
    lines = [str(warning) for warning in own]
    others = len(warnings) - len(own)
    if others:
        files = len({warning.path for warning in warnings if warning not in own})
        lines.append(f"{others} more warning{'s' if others != 1 else ''} in {files} other "
                     f"file{'s' if files != 1 else ''} (unchanged; `blogbuild build` lists them all)")
    return lines


def saved_file_warnings(warnings: "Sequence[SourceWarning]", saved: "Sequence[str]", root: str) -> list["SourceWarning"]:
    """The warnings about the files just saved (absolute paths), by file and line."""
    return [warning for warning in in_file_order(warnings) if is_saved(warning.path, saved, root)]


def is_saved(shown_path: str, saved: "Sequence[str]", root: str) -> bool:
    """Whether a path as warnings and posts show it (relative to the site) is one of the saved absolute paths."""
    return os.path.normpath(shown_path) in {os.path.normpath(os.path.relpath(path, root)) for path in saved}
