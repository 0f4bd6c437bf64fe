"""`blogbuild import DUMP… --out DIR`: recover posts from flattened listing dumps into markdown files."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable

from ..core.errors import SourceError
from ..core.records import dataclass


@dataclass(frozen=True)
class ImportOptions:
    """Options of `blogbuild import`."""

    dumps: tuple[str, ...]
    out: str
    force: bool = False
    dry_run: bool = False
    quiet: bool = False


def _read_dumps(paths: Iterable[str]) -> tuple[list[tuple[str, str]], list[SourceError]]:
    dumps: list[tuple[str, str]] = []
    errors: list[SourceError] = []
    for name in paths:
        path = Path(name)
        try:
            data = path.read_bytes()
        except OSError as error:
            errors.append(SourceError(name, 0, f"cannot read the dump ({error.strerror or error}); check the path",
                                      stage="import"))
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            errors.append(SourceError(name, line, "the dump is not UTF-8 text; convert it to UTF-8",
                                      stage="import"))
            continue
        # Reports name dumps by file name, so the same dumps give the same files from any folder.
        dumps.append((path.name, text))
    return dumps, errors


def run(options: ImportOptions) -> int:
    """Import the dumps, print the report; exit 1 when a dump is unreadable or a file would be lost."""
    from ..importer import import_dumps, plan_files, report_lines, write_plan
    dumps, errors = _read_dumps(options.dumps)
    for error in errors:
        print(str(error), file=sys.stderr)
    if errors:
        return 1
    posts = import_dumps(dumps)
    folder = Path(options.out)
    if folder.exists() and not folder.is_dir():
        print(f"{folder}: import: --out must be a folder, not a file", file=sys.stderr)
        return 1
    planned = plan_files(posts, folder, force=options.force)
    refused = [item for item in planned if item.action == "refuse"]
    if not options.quiet:
        for line in report_lines(planned, dry_run=options.dry_run):
            print(line)
    for item in refused:
        print(f"{item.path}: import: exists and was {item.reason}; nothing was written. "
              "Move it away or rerun with --force (your version is kept as .bak)", file=sys.stderr)
    if refused:
        return 1
    if options.dry_run:
        if not options.quiet:
            print(f"dry run: {len(planned)} posts, nothing written")
        return 0
    notes = write_plan(planned, folder)
    for note in notes:
        print(note)
    if not options.quiet:
        counts = {action: sum(1 for item in planned if item.action == action)
                  for action in ("new", "update", "overwrite", "unchanged")}
        review = sum(1 for item in planned if item.post.needs_review)
        print(f"imported {len(planned)} posts into {folder}: {counts['new']} new, {counts['update']} updated, "
              f"{counts['overwrite']} overwritten, {counts['unchanged']} unchanged; {review} need review")
    return 0
