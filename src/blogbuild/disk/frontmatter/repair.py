"""The damaged-header repair every build runs: give back the text as it was before the damage, byte for byte.

Two damages are known, both from tools run over the blog's sources:
- the `math: true` damage: a tool meant to turn math on for every post wrote `math: true` on a line before
  the opening `---` (or turned that `---` into `---math: true` followed by the original `---`), and rewrote
  every other line that began with `---` as that line plus `math: true`, keeping the original line after it.
  That hit the closing `---` of the header, thematic breaks, and code lines that start with dashes.
  Removing each damaged line gives the original back; the text's lines are then the file's lines minus
  the removed ones, which is how messages still name the file's own lines (Repair.line_map).
- a header flattened onto one line, as the listing dumps have it (`math: true title: “…” date: … —math: true
  Body…`): read as `blogbuild import` reads a dump post (importer/dump.py), with a warning.

Pure functions over strings; `blogbuild fix` (commands/fix.py) writes a repaired text back to its file.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from ...core.errors import SourceWarning
from ...core.records import dataclass

_MATH_ON = "math: true"
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class Repair:
    """A damaged text as its author wrote it, one warning per repaired line, and where its lines come from."""

    text: str
    warnings: tuple[SourceWarning, ...]
    line_map: tuple[int, ...]     # the file's line number of each line of text, in order


def _damaged_dash_line(line: str) -> str | None:
    """The line as its author wrote it, if the tool turned it into `<line>math: true`."""
    if line.startswith("---") and line.endswith(_MATH_ON) and len(line) > len(_MATH_ON):
        return line[: -len(_MATH_ON)]
    return None


def _is_rule(line: str) -> bool:
    return line.rstrip() == "---"


def _next_filled(lines: list[str], start: int) -> int:
    index = start
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def _is_copy(damaged: str, lines: list[str], index: int) -> bool:
    """Whether the line after a damaged one is the original the damage kept."""
    original = damaged[: -len(_MATH_ON)]
    return index + 1 < len(lines) and lines[index + 1].rstrip() == original.rstrip()


def _opening(lines: list[str], first: int, path: str, hint: str) -> tuple[int, list[int], SourceWarning] | None:
    """The opening `---` of a damaged header, the damaged lines before it, and the warning; None if healthy."""
    if lines[first].strip() == _MATH_ON:
        opening = _next_filled(lines, first + 1)
        if opening >= len(lines) or not _is_rule(lines[opening]):
            return None
        return opening, [first], SourceWarning(path, first + 1, "repaired damaged front matter: `math: true` "
                                               f"stood before the opening `---`; removed it; {hint}")
    if _damaged_dash_line(lines[first].rstrip()) == "---" and first + 1 < len(lines) and _is_rule(lines[first + 1]):
        return first + 1, [first], SourceWarning(path, first + 1, "repaired damaged front matter: the opening "
                                                 f"`---` read `---math: true`; removed that line; {hint}")
    return None


def repair_damaged_header(text: str, *, path: str) -> Repair | None:
    """The text as it was before the `math: true` damage, with a warning per repair; None when not damaged."""
    lines = text.split("\n")
    first = _next_filled(lines, 0)
    if first >= len(lines):
        return None
    hint = f"run `blogbuild fix {path}` to rewrite the file"
    opened = _opening(lines, first, path, hint)
    if opened is None:
        return None
    opening, removed, warning = opened
    warnings = [warning]
    # The closing must carry the damage too; a file with only a `math: true` line above a `---`
    # could be a healthy setext heading, and healthy files are never touched.
    closing = None
    for index in range(opening + 1, len(lines)):
        if _damaged_dash_line(lines[index].rstrip()) == "---" and index + 1 < len(lines) and _is_rule(lines[index + 1]):
            closing = index
            break
        if _is_rule(lines[index]):
            return None
    if closing is None:
        return None
    removed.append(closing)
    warnings.append(SourceWarning(path, closing + 1, "repaired damaged front matter: the closing `---` "
                                  f"read `---math: true` above the original `---`; removed that line; {hint}"))
    restored = _repair_body(lines, closing + 1, path, hint, removed, warnings)
    dropped = set(removed)
    kept = [index for index in range(len(lines)) if index not in dropped]
    line_map = tuple(index + 1 for index in kept)
    repaired = "\n".join(restored.get(index, lines[index]) for index in kept)
    return Repair(repaired, tuple(warnings), line_map)


def _repair_body(lines: list[str], start: int, path: str, hint: str, removed: list[int],
                 warnings: list[SourceWarning]) -> dict[int, str]:
    """Undo the damage below the header: remove each damaged line that stands above its original, and
    give back the original of one that does not. Returns the lines given back, by index."""
    restored: dict[int, str] = {}
    fence: str | None = None
    index = start
    while index < len(lines):
        line = lines[index]
        original = _damaged_dash_line(line)
        if original is not None:
            if fence is not None:
                what = f"restored code line `{original}`"
            elif original.rstrip() == "---":
                what = "restored thematic break `---`"
            else:
                what = f"restored line `{original}`"
            if _is_copy(line, lines, index):
                removed.append(index)
                warnings.append(SourceWarning(path, index + 1, f"{what}: removed `{line}`, a damaged copy of "
                                              f"the line after it; {hint}"))
                index += 1   # the original, kept as it is (even if it too ends with `math: true`)
                line = lines[index]
            else:
                restored[index] = original
                warnings.append(SourceWarning(path, index + 1, f"{what} (it read `{line}`); {hint}"))
                line = original
        opened = _FENCE_OPEN.match(line)
        if opened:
            marker = opened.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip()[len(marker):].strip():
                fence = None
        index += 1
    return restored


# ---- a header flattened onto one line ----------------------------------------------------------

_FLAT_START = re.compile(r"math:\s*true\s+[A-Za-z_]")
_FLAT_END = re.compile(r"(?:[—–]|-{2,3})\s?math:\s*true\b")


@dataclass(frozen=True)
class FlatRepair:
    """A content file whose header was flattened onto one line, read back as the importer reads it."""

    data: Mapping[str, Any]
    body: str
    warnings: tuple[SourceWarning, ...]
    line_map: tuple[int, ...]     # the file's line number of each line of body


def read_flattened_header(text: str, *, path: str) -> FlatRepair | None:
    """The metadata and body of a file whose first line is a flattened header; None for any other file."""
    lines = text.split("\n")
    first = _next_filled(lines, 0)
    if first >= len(lines) or not _FLAT_START.match(lines[first]) or not _FLAT_END.search(lines[first]):
        return None
    from ...importer.dump import derive_title, read_flat_header, restore_body
    header = read_flat_header(lines[first])
    if not header.found:
        return None
    data = dict(header.data)
    data["math"] = True if data.get("math") in (None, "true", True) else data["math"]   # what the tool meant
    restored = restore_body(header.body).markdown.rstrip("\n")
    hint = f"run `blogbuild fix {path}` to write it as YAML between `---` lines"
    warnings = [SourceWarning(path, first + 1, f"read a header flattened onto one line as `blogbuild import` "
                              f"reads a dump; {hint}")]
    warnings.extend(SourceWarning(path, first + 1, f"flattened header: {note}") for note in header.notes)
    if not str(data.get("title", "")).strip():
        data["title"] = derive_title(header.body)
        warnings.append(SourceWarning(path, first + 1, f"flattened header without a title; using "
                                      f"'{data['title']}' from the first words; add a title"))
    restored_lines = restored.split("\n") if restored else []
    rest = lines[first + 1:]
    body = "\n".join(restored_lines + rest)
    line_map = tuple([first + 1] * len(restored_lines) + list(range(first + 2, first + 2 + len(rest))))
    return FlatRepair(data, body, tuple(warnings), line_map)
