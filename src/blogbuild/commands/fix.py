"""`blogbuild fix PATH…`: rewrite files with a damaged header in place (frontmatter/repair.py), or show the diff."""
from __future__ import annotations

import difflib
import sys
from pathlib import Path

from ..core.atomic import write_atomically
from ..core.errors import SourceError, SourceWarning
from ..disk.frontmatter.repair import read_flattened_header, repair_damaged_header
from ..core.records import dataclass


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


def repaired_text(text: str, path: str) -> tuple[str, tuple[SourceWarning, ...]] | None:
    """The file's text with its damaged header repaired, and what was repaired; None for a healthy file."""
    repair = repair_damaged_header(text, path=path)
    if repair is not None:
        return repair.text, repair.warnings
    flat = read_flattened_header(text, path=path)
    if flat is not None:
        from ..importer import front_matter_text
        return front_matter_text(flat.data) + flat.body, flat.warnings
    return None


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
        result = repaired_text(text, shown)
        if result is None:
            print(f"{shown}: ok, no damaged header; left alone")
            continue
        repaired, warnings = result
        for warning in warnings:
            print(f"{shown}:{warning.line}: {warning.message.split('; run `blogbuild fix')[0]}")
        if options.dry_run:
            diff = difflib.unified_diff(text.splitlines(keepends=True), repaired.splitlines(keepends=True),
                                        fromfile=shown, tofile=f"{shown} (fixed)")
            sys.stdout.writelines(line if line.endswith("\n") else line + "\n" for line in diff)
            continue
        if not _write_fixed(path, data, (bom + repaired.replace("\n", newline)).encode("utf-8")):
            status = 1
            continue
        print(f"{shown}: fixed {len(warnings)} damaged line{'s' if len(warnings) != 1 else ''} "
              f"(original kept in {path.with_name(path.name + '.bak')})")
    return status


def _write_fixed(path: Path, original: bytes, fixed: bytes) -> bool:
    """Keep the original as PATH.bak (never over a different backup), then write the fixed file."""
    backup = path.with_name(path.name + ".bak")
    try:
        if backup.exists():
            if backup.read_bytes() != original:
                print(f"{backup}: a different backup already exists; move it away, then run "
                      f"`blogbuild fix {path}` again", file=sys.stderr)
                return False
        else:
            write_atomically(backup, original)
        write_atomically(path, fixed)
    except OSError as error:
        print(f"{path}: cannot write: {error.strerror or error}; check permissions", file=sys.stderr)
        return False
    return True
