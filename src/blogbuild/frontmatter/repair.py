"""The damaged-header repair every build runs: give back the text as it was before the `math: true` damage.

A pure function over strings; `blogbuild fix` (commands/fix.py) writes its result back to the file.
"""
from __future__ import annotations

import re

from ..errors import SourceWarning

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
