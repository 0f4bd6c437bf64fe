"""markdown-it's fixture format: a title line, '.', the input, '.', the expected HTML, '.'."""
from __future__ import annotations

from pathlib import Path


def read_fixtures(path: Path) -> list[tuple[str, str, str]]:
    """(title, markdown, expected HTML) of each case in a fixture file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    cases = []
    index = 0
    while index < len(lines):
        if not lines[index].strip():
            index += 1
            continue
        title = lines[index]
        assert lines[index + 1] == ".", f"{path.name}: '.' expected after the title {title!r}"
        parts = []
        cursor = index + 2
        for _ in range(2):
            part = []
            while lines[cursor] != ".":
                part.append(lines[cursor])
                cursor += 1
            parts.append("\n".join(part) + "\n")
            cursor += 1
        cases.append((title, parts[0], parts[1]))
        index = cursor
    return cases
