"""Split a content file into front matter (YAML between ---, TOML between +++) and body."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

import yaml

from ...core.errors import SourceError, parser_problem
from ...core.model import FrontMatter, SourceFile
from ..strict_yaml import StrictMixin, StrictYAMLError, load_fast

_FENCES = {"---": "yaml", "+++": "toml"}


_TEXT_TIMESTAMPS = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class _Loader(StrictMixin, yaml.SafeLoader):
    """SafeLoader that keeps timestamps as the text the author wrote (offsets intact); strict and
    bounded (strict_yaml: duplicate keys, alias cycles and alias bombs are errors)."""

    yaml_implicit_resolvers = _TEXT_TIMESTAMPS


# libyaml's scanner is several times faster than the pure-Python one; the resolver and constructor
# (where the timestamp change lives) are the same Python classes in both.
_FastLoader: type | None = None
if getattr(yaml, "__with_libyaml__", False):
    class _FastLoader(StrictMixin, yaml.CSafeLoader):  # type: ignore[no-redef]
        """CSafeLoader with the same resolvers and checks as _Loader."""

        yaml_implicit_resolvers = _TEXT_TIMESTAMPS


def _load_yaml(header: str) -> Any:
    """The YAML header as data, through libyaml when it reads it exactly as PyYAML would (strict_yaml)."""
    return load_fast(header, _FastLoader, _Loader)


def parse_front_matter(source: SourceFile) -> FrontMatter:
    """Read the header of a content file, repairing a known damage with a warning (frontmatter/repair.py)."""
    from .repair import read_flattened_header, repair_damaged_header

    text = source.text
    repair = repair_damaged_header(text, path=source.path)
    if repair is None:
        flat = read_flattened_header(text, path=source.path)
        if flat is not None:
            return FrontMatter(flat.data, flat.body, 1, "flat", flat.warnings, flat.line_map)
        return split_front_matter(text, path=source.path)
    try:
        front_matter = split_front_matter(repair.text, path=source.path)
    except SourceError as error:
        line = repair.line_map[error.line - 1] if 0 < error.line <= len(repair.line_map) else error.line
        raise SourceError(error.path, line, error.message, stage=error.stage, column=error.location.column,
                          source_line=error.source_line) from error.__cause__
    # The damage was a tool turning math on for every post: the repaired header keeps what it meant to set
    # (a Hugo layout's `{{ if .Params.math }}` loads its math), unless the author wrote math themselves.
    data = front_matter.data if "math" in front_matter.data else {**front_matter.data, "math": True}
    return replace(front_matter, data=data, repairs=repair.warnings, line_map=repair.line_map)


def split_front_matter(text: str, *, path: str) -> FrontMatter:
    """Split text into metadata and body; errors name path:line and say what to do."""
    lines = text.split("\n")
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start >= len(lines) or lines[start].rstrip() not in _FENCES:
        return FrontMatter({}, text, 1, "none")
    fence = lines[start].rstrip()
    header_format = _FENCES[fence]
    end = None
    for index in range(start + 1, len(lines)):
        stripped = lines[index].rstrip()
        if stripped == fence or (header_format == "yaml" and stripped == "..."):
            end = index
            break
    if end is None:
        raise SourceError(path, start + 1, f"front matter opened with '{fence}' is never closed; "
                          f"add a line '{fence}' after the last key", stage="front matter",
                          source_line=lines[start])
    header = "\n".join(lines[start + 1:end])
    first_key_line = start + 2
    data = _parse_header(header, header_format, path=path, first_line=first_key_line, lines=lines)
    body = "\n".join(lines[end + 1:])
    return FrontMatter(data, body, end + 2, header_format)


def _parse_header(header: str, header_format: str, *, path: str, first_line: int,
                  lines: list[str]) -> Mapping[str, Any]:
    if header_format == "toml":
        import tomllib
        try:
            data: Any = tomllib.loads(header)
        except RecursionError:
            raise SourceError(path, first_line, "front matter is nested too deeply to read; "
                              "flatten the nested arrays or tables", stage="front matter",
                              source_line=_line_at(lines, first_line)) from None
        except tomllib.TOMLDecodeError as error:
            at, problem = parser_problem(error)
            line = first_line + (at or 0)
            # from None: tomllib's positions count from the header's first line, not the file's.
            raise SourceError(path, line, f"invalid TOML: {problem}; fix that line "
                              "(strings need quotes, dates are bare: date = 2025-01-02T10:00:00+08:00)",
                              stage="front matter", source_line=_line_at(lines, line)) from None
        return _normalise(data)
    try:
        data = _load_yaml(header)
    except StrictYAMLError as error:
        line = first_line + error.line
        raise SourceError(path, line, error.describe(first_line), stage="front matter",
                          source_line=_line_at(lines, line)) from None
    except yaml.YAMLError as error:
        at, problem = parser_problem(error, prefer_context=True)
        line = first_line + (at or 0)
        hint = yaml_hint(error)
        # from None: PyYAML's own text ("<unicode string>", line 1, column 8) counts from the header, not the
        # file, and would be printed beside path:line as a cause (the serve overlay, the CLI) contradicting it.
        raise SourceError(path, line, f"invalid YAML: {problem}; {hint}",
                          stage="front matter", source_line=_line_at(lines, line)) from None
    except RecursionError as error:
        raise SourceError(path, first_line, "front matter is nested too deeply to read",
                          stage="front matter") from error
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise SourceError(path, first_line, "front matter must be key: value lines, "
                          f"not a {type(data).__name__}", stage="front matter",
                          source_line=_line_at(lines, first_line))
    return _normalise(data)


_GENERIC_YAML_HINT = "quote values that contain ': ' or start with [ { * & ! | > ' \" % @ `"


def yaml_hint(error: Any) -> str:
    """What to do about a PyYAML error, named after the mistake it is (an unclosed quote or bracket, a tab, a
    colon in a value), else the general rule for values YAML reads as something else."""
    problem = str(getattr(error, "problem", "") or "")
    context = str(getattr(error, "context", "") or "")
    if "quoted scalar" in context:
        return "a quote opened on this line is never closed; add the closing quote at the end of the value"
    for opener, closer, kind in (("[", "]", "flow sequence"), ("{", "}", "flow mapping")):
        if kind in context:
            return (f"a '{opener}' opened on this line is never closed; add '{closer}' at the end of the list "
                    f"(or quote the value if the '{opener}' is text)")
    if "'\\t'" in problem or "\t" in problem:
        return ("a tab indents this line, and YAML indents with spaces only; remove the tab (or indent with "
                "spaces when the line belongs to the key above)")
    if "mapping values are not allowed" in problem:
        return "this value holds ': ', which YAML reads as a new key; put the value in quotes (title: \"a: b\")"
    return _GENERIC_YAML_HINT


def _normalise(data: Any) -> Any:
    """Keys as strings; TOML dates as ISO text, like the YAML loader keeps them."""
    from datetime import date, datetime, time
    if isinstance(data, Mapping):
        return {str(key): _normalise(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_normalise(value) for value in data]
    if isinstance(data, (datetime, date, time)):
        return data.isoformat()
    return data


def _line_at(lines: list[str], line: int) -> str | None:
    return lines[line - 1] if 0 < line <= len(lines) else None
