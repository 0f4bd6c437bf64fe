"""Recovery of damaged sources: the `math: true` header damage (build time, `blogbuild fix`)
and flattened listing dumps (`blogbuild import`).

Everything here is a pure function over strings except run_fix(), which is the `fix` command.
Nothing is guessed silently: every repair comes back as a warning or a note for the report.
"""
from __future__ import annotations

import difflib
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .errors import SourceError, SourceWarning

# ---------------------------------------------------------------------------------------------
# Part 1: damaged headers in .md files.
#
# A tool meant to turn math on for every post and instead (a) wrote `math: true` on a line before
# the opening `---`, and (b) rewrote every line that began with `---` as that line plus
# `math: true`, followed by a new `---` line. That hit the closing `---` of the header, thematic
# breaks in the body, and code lines that start with dashes.
# ---------------------------------------------------------------------------------------------

_MATH_ON = "math: true"
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _damaged_dash_line(line: str) -> str | None:
    """The line as its author wrote it, if the tool turned it into `<line>math: true`."""
    stripped = line.rstrip()
    if stripped.startswith("---") and stripped.endswith(_MATH_ON) and len(stripped) > len(_MATH_ON):
        return stripped[: -len(_MATH_ON)]
    return None


def _is_rule(line: str) -> bool:
    return line.rstrip() == "---"


def _next_filled(lines: list[str], start: int) -> int:
    index = start
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def repair_damaged_header(text: str, *, path: str) -> tuple[str, tuple[SourceWarning, ...]] | None:
    """The text as its author meant it, plus one warning per repair; None when text is not damaged."""
    lines = text.split("\n")
    first = _next_filled(lines, 0)
    if first >= len(lines):
        return None
    hint = f"run `blogbuild fix {path}` to rewrite the file"
    warnings: list[SourceWarning] = []
    # The opening: `math: true` then `---` (the damage seen in the wild), or `---math: true` then `---`.
    if lines[first].strip() == _MATH_ON:
        opening = _next_filled(lines, first + 1)
        if opening >= len(lines) or not _is_rule(lines[opening]):
            return None
        warnings.append(SourceWarning(path, first + 1, "repaired damaged front matter: `math: true` stood "
                                      f"before the opening `---`; moved it into the header; {hint}"))
    elif _damaged_dash_line(lines[first]) == "---" and first + 1 < len(lines) and _is_rule(lines[first + 1]):
        opening = first + 1
        warnings.append(SourceWarning(path, first + 1, "repaired damaged front matter: the opening `---` "
                                      f"read `---math: true`; {hint}"))
    else:
        return None
    # The closing must carry the damage too; a file with only a `math: true` line above a `---`
    # could be a healthy setext heading, and healthy files are never touched.
    closing = None
    for index in range(opening + 1, len(lines)):
        if _damaged_dash_line(lines[index]) == "---" and index + 1 < len(lines) and _is_rule(lines[index + 1]):
            closing = index
            break
        if _is_rule(lines[index]):
            return None
    if closing is None:
        return None
    warnings.append(SourceWarning(path, closing + 1, "repaired damaged front matter: the closing `---` "
                                  f"read `---math: true` followed by an extra `---`; {hint}"))
    header = lines[opening + 1:closing]
    if not any(re.match(r"\s*math\s*:", line) for line in header):
        header.append(_MATH_ON)
    body: list[str] = []
    fence: str | None = None
    index = closing + 2
    while index < len(lines):
        line = lines[index]
        original = _damaged_dash_line(line)
        if original is not None:
            extra = index + 1 < len(lines) and _is_rule(lines[index + 1])
            if fence is not None:
                what = f"restored code line `{original}`"
            elif original == "---":
                what = "restored thematic break `---`"
            else:
                what = f"restored line `{original}`"
            detail = " and removed the extra `---` after it" if extra else ""
            warnings.append(SourceWarning(path, index + 1, f"{what} (it read `{line.rstrip()}`){detail}; {hint}"))
            body.append(original)
            index += 2 if extra else 1
            continue
        opened = _FENCE_OPEN.match(line)
        if opened:
            marker = opened.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip()[len(marker):].strip():
                fence = None
        body.append(line)
        index += 1
    repaired = "\n".join(["---", *header, "---", *body])
    return repaired, tuple(warnings)


def _fix_targets(paths: tuple[str, ...]) -> list[Path]:
    targets: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            targets.extend(sorted(candidate for candidate in path.rglob("*.md") if candidate.is_file()))
        else:
            targets.append(path)
    return targets


def write_atomically(path: Path, data: bytes) -> None:
    """Write data to path through a temporary file in the same folder, so no reader sees half a file."""
    handle, temporary = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _decode_source(data: bytes, path: str) -> tuple[str, str, str]:
    """Text with "\\n" newlines, plus the BOM and newline style to write it back with."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise SourceError(path, line, "not UTF-8 text; save the file as UTF-8 and run fix again",
                          stage="fix") from error
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    text = text[len(bom):]
    newline = "\r\n" if "\r\n" in text else "\n"
    return text.replace("\r\n", "\n"), bom, newline


def run_fix(paths: tuple[str, ...], *, dry_run: bool) -> int:
    """`blogbuild fix PATH…`: rewrite damaged files in place (PATH.bak beside), or show the diff."""
    status = 0
    for path in _fix_targets(paths):
        shown = str(path)
        try:
            data = path.read_bytes()
            text, bom, newline = _decode_source(data, shown)
        except OSError as error:
            print(f"{shown}: cannot read: {error.strerror or error}; check the path", file=sys.stderr)
            status = 1
            continue
        except SourceError as error:
            print(str(error), file=sys.stderr)
            status = 1
            continue
        result = repair_damaged_header(text, path=shown)
        if result is None:
            print(f"{shown}: ok, no damaged header; left alone")
            continue
        repaired, warnings = result
        for warning in warnings:
            print(f"{shown}:{warning.line}: {warning.message.split('; run `blogbuild fix')[0]}")
        if dry_run:
            diff = difflib.unified_diff(text.splitlines(keepends=True), repaired.splitlines(keepends=True),
                                        fromfile=shown, tofile=f"{shown} (fixed)")
            sys.stdout.writelines(line if line.endswith("\n") else line + "\n" for line in diff)
            continue
        backup = path.with_name(path.name + ".bak")
        try:
            if backup.exists():
                if backup.read_bytes() != data:
                    print(f"{backup}: a different backup already exists; move it away, then run "
                          f"`blogbuild fix {shown}` again", file=sys.stderr)
                    status = 1
                    continue
            else:
                write_atomically(backup, data)
            write_atomically(path, (bom + repaired.replace("\n", newline)).encode("utf-8"))
        except OSError as error:
            print(f"{shown}: cannot write: {error.strerror or error}; check permissions", file=sys.stderr)
            status = 1
            continue
        print(f"{shown}: fixed {len(warnings)} damaged line{'s' if len(warnings) != 1 else ''} "
              f"(original kept in {backup})")
    return status
