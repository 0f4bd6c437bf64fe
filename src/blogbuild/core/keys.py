"""The line a key is written on (front matter, a config file, nested markup settings), for messages.

One home for the rule: a key is found at the start of a line as YAML `key:`, TOML `key =` or JSON `"key":`.
"""
from __future__ import annotations

import functools
import re


def key_line(source_text: str, key: str, default: int = 1, *, max_lines: int | None = None) -> int:
    """The 1-based line of a top-level key (YAML `key:`, TOML `key =`, JSON `"key":`), for messages about
    its value; front matter is searched in its first lines only, a config file (max_lines=0) whole."""
    limit = _KEY_SEARCH_LINES if max_lines is None else max_lines
    if _SIMPLE_KEY_RE.fullmatch(key):
        return _key_lines(source_text, limit).get(key, default)
    pattern = re.compile(rf"^\s*['\"]?{re.escape(key)}['\"]?\s*[:=]")
    lines = source_text.split("\n")
    for number, line in enumerate(lines[:limit] if limit else lines, 1):
        if pattern.match(line):
            return number
    return default


# Keys are looked for in the first lines only: a header longer than this is not a header.
_KEY_SEARCH_LINES = 401
_SIMPLE_KEY_RE = re.compile(r"[\w-]+")
# For a key of word characters and '-', "the line matches the key's pattern" is the same as "this
# pattern matches the line and captures the key": the key starts after the spaces and quote and
# cannot stop before the end of its run of word characters. So one pass finds every such key.
_ANY_KEY_RE = re.compile(r"^\s*['\"]?([\w-]+)['\"]?\s*[:=]")


@functools.lru_cache(maxsize=16)
def _key_lines(source_text: str, limit: int) -> dict[str, int]:
    """{key: first line} for every simple key in the first `limit` lines of a file (0: all), in one pass."""
    found: dict[str, int] = {}
    lines = source_text.split("\n", limit)[:limit] if limit else source_text.split("\n")
    for number, line in enumerate(lines, 1):
        match = _ANY_KEY_RE.match(line)
        if match is not None:
            found.setdefault(match.group(1), number)
    return found


_TOML_TABLE = re.compile(r"^\s*\[\[?([^\]]+)\]")


def nested_key_line(text: str, names: tuple[str, ...]) -> int:
    """The line of a nested key (markup, goldmark, renderer, hardWraps) in YAML or TOML text, any case; a TOML
    table header ([markup.goldmark.renderer]) stands for every name it spells; the deepest line found, 1 when
    none is."""
    lines = text.splitlines()
    start = found = index = 0
    while index < len(names):
        name = names[index].lower()
        pattern = re.compile(rf"""^\s*["']?{re.escape(name)}["']?\s*[:=]""", re.IGNORECASE)
        for number in range(start, len(lines)):
            table = _TOML_TABLE.match(lines[number])
            parts = [part.strip().strip("\"'").lower() for part in table.group(1).split(".")] if table else []
            if name in parts:
                at, taken = parts.index(name), 1
                while (index + taken < len(names) and at + taken < len(parts)
                       and parts[at + taken] == names[index + taken].lower()):
                    taken += 1
                index += taken
            elif table is None and pattern.search(lines[number]):
                index += 1
            else:
                continue
            found = start = number + 1
            break
        else:
            return found or 1
    return found or 1
