"""Errors and warnings that name a place in a file."""
from __future__ import annotations

from typing import Iterable
from .records import dataclass


class BlogbuildError(Exception):
    """Any error the CLI reports as a message, never as a traceback."""


@dataclass(frozen=True)
class Location:
    """A place in a source file: path as the user wrote it, 1-based line, optional column."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        text = self.path
        if self.line:
            text += f":{self.line}"
            if self.column:
                text += f":{self.column}"
        return text


class SourceError(BlogbuildError):
    """A content, template or config error at path:line, with a hint on what to do."""

    def __init__(self, path: str, line: int, message: str, *, stage: str = "", column: int = 0,
                 source_line: str | None = None) -> None:
        self.location = Location(str(path), line, column)
        self.message = message
        self.stage = stage
        self.source_line = source_line
        super().__init__(str(self))

    def __reduce__(self):
        # Errors travel back from worker processes: pickle the fields, not the formatted text.
        return (_rebuild_source_error, (self.location.path, self.location.line, self.message, self.stage,
                                        self.location.column, self.source_line))

    @property
    def path(self) -> str:
        return self.location.path

    @property
    def line(self) -> int:
        return self.location.line

    def __str__(self) -> str:
        prefix = f"{self.stage}: " if self.stage else ""
        return f"{self.location}: {prefix}{self.message}"


def _rebuild_source_error(path: str, line: int, message: str, stage: str, column: int,
                          source_line: str | None) -> SourceError:
    return SourceError(path, line, message, stage=stage, column=column, source_line=source_line)


@dataclass(frozen=True)
class SourceWarning:
    """A recoverable problem: the build goes on, the warning is counted and printed."""

    path: str
    line: int
    message: str
    column: int = 0

    def __str__(self) -> str:
        location = Location(self.path, self.line, self.column)
        return f"{location}: warning: {self.message}"


def in_file_order(warnings: "Iterable[SourceWarning]") -> list[SourceWarning]:
    """Warnings as printed: by file, then line (stable: a line's warnings keep the build's order)."""
    return sorted(warnings, key=lambda warning: (warning.path, warning.line))


def parser_problem(error: BaseException, *, prefer_context: bool = False) -> tuple[int | None, str]:
    """What tomllib, json or PyYAML said, as blogbuild prints it beside its own path:line: the 0-based line
    the parser names in the text it was given (None when it names none), and its message without the parser's
    own positions ("at line 1, column 8", '"<unicode string>", line 1'), which count from another start."""
    import re
    marks = (getattr(error, "context_mark", None), getattr(error, "problem_mark", None))
    mark = (marks if prefer_context else marks[::-1])[0] or marks[0] or marks[1]
    if hasattr(error, "problem_mark"):   # PyYAML: where it failed, or (prefer_context) where the construct opened
        problem = getattr(error, "problem", None) or "cannot be read"
        context = getattr(error, "context", None)
        return (mark.line if mark is not None else None), (f"{problem} ({context})" if context else problem)
    line_number, json_message = getattr(error, "lineno", None), getattr(error, "msg", None)
    if isinstance(line_number, int) and isinstance(json_message, str):   # json.JSONDecodeError
        return line_number - 1, json_message
    message = str(error)
    match = re.search(r"\s*\(at line (\d+), column \d+\)$", message)
    if match:   # tomllib
        return int(match.group(1)) - 1, message[:match.start()]
    return None, re.sub(r"\s*\(at end of document\)$", " (at the end)", message)


def describe_chain(error: BaseException) -> str:
    """The error and its causes, one per line, for printing without a traceback."""
    lines = [str(error)]
    seen = {id(error)}
    cause = _cause_of(error)
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        text = str(cause).strip()
        if text and text not in lines[-1]:
            lines.append(f"  caused by: {text}")
        cause = _cause_of(cause)
    return "\n".join(lines)


def _cause_of(error: BaseException) -> BaseException | None:
    # `raise ... from None` means the message already says everything: honour it, as tracebacks do.
    if error.__cause__ is not None:
        return error.__cause__
    return None if error.__suppress_context__ else error.__context__
