"""`blogbuild fix PATH…`: rewrite files with the `math: true` header damage in place, or show the diff."""
from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass
from pathlib import Path

from ..atomic import write_atomically
from ..errors import SourceError
from ..frontmatter.repair import repair_damaged_header


@dataclass(frozen=True)
class FixOptions:
    """Options of `blogbuild fix`."""

    paths: tuple[str, ...]
    dry_run: bool = False


def _fix_targets(paths: tuple[str, ...]) -> list[Path]:
    targets: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            targets.extend(sorted(candidate for candidate in path.rglob("*.md") if candidate.is_file()))
        else:
            targets.append(path)
    return targets


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


def run(options: FixOptions) -> int:
    """Rewrite damaged files in place (PATH.bak beside), or show the diff; exit 1 when a file could not be fixed."""
    status = 0
    for path in _fix_targets(options.paths):
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
        repaired, warnings = result.text, result.warnings
        for warning in warnings:
            print(f"{shown}:{warning.line}: {warning.message.split('; run `blogbuild fix')[0]}")
        if options.dry_run:
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
