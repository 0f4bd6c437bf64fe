"""Which files each page's render published through Hugo Pipes, kept for the processes that did not render it.

A page's record is its (target path, digest) pairs, by the page's dependency key. The process that renders a
page keeps the record in memory; a forked worker, or a later build that reuses the page unrendered, reads it
from the cache folder. Writing a file per page cost half a millisecond a page (a PaperMod page publishes its
stylesheet and script), so each process appends its records to a journal of its own, one line a page, one
write each; a reader loads every journal it has not read yet when it meets a key it does not know. A build that
rendered or reused every page of the site compacts the journals into one holding just those pages' records.

A journal line that does not parse (a process killed while writing) is skipped; its page then has no record
and its render publishes again the next time it is rendered.
"""
from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable
from pathlib import Path

from .local_libraries import vendored_file

# (target path, sha256 of the bytes or a file blogbuild ships: local_libraries.VENDORED), sorted
Record = tuple[tuple[str, str], ...]

JOURNAL_PREFIX = "journal-"
_DIGEST = re.compile(r"[0-9a-f]{64}")


class PublishedRecords:
    """Page key -> record, in memory and, when a folder is given, in its journals."""

    def __init__(self, safe_target: Callable[[str], bool]) -> None:
        self._safe_target = safe_target
        self.folder: Path | None = None
        self._records: dict[str, Record] = {}
        self._journal: int | None = None      # this process's journal, opened on its first record
        self._journal_pid = 0
        self._journal_path: Path | None = None
        self._read: dict[str, int] = {}         # journal file name -> bytes of it read

    def keep_in(self, folder: Path | None) -> None:
        """Keep the journals in folder (one folder per engine: a compaction removes the others' journals)."""
        self.folder = folder
        self._close()
        self._read.clear()

    def record(self, key: str, published: dict[str, str]) -> None:
        """What the render of the page with this key published (nothing is recorded for nothing)."""
        if not key or not published:
            return
        record = tuple(sorted(published.items()))
        if self._records.get(key) == record and self._journal_pid == os.getpid():
            return
        self._records[key] = record
        if self.folder is not None:
            self._append(key, record)

    def get(self, key: str) -> Record:
        """The page's record: known in this process, else from a journal not read yet; () when none."""
        known = self._records.get(key)
        if known is not None or self.folder is None:
            return known or ()
        self._load()
        return self._records.get(key, ())

    def compact(self, keys: set[str]) -> None:
        """Keep on disk only the records of these keys (every page of a whole build), in one journal."""
        if self.folder is None:
            return
        self._load()
        live = {key: record for key, record in self._records.items() if key in keys}
        self._close()
        folder = self.folder
        try:
            folder.mkdir(parents=True, exist_ok=True)
            old = [path for path in folder.iterdir() if path.is_file()]
            from ..core.atomic import write_atomically
            compacted = folder / f"{JOURNAL_PREFIX}{secrets.token_hex(8)}"
            write_atomically(compacted, b"".join(_line(key, record) for key, record in sorted(live.items())))
            for path in old:   # older journals and any other file left in the folder
                path.unlink(missing_ok=True)
        except OSError:
            return   # the journals stay as they were: every record is still there, just more of them
        self._records = dict(live)
        self._read = {compacted.name: compacted.stat().st_size}

    # -- the journals ----------------------------------------------------------------------------------------
    def _append(self, key: str, record: Record) -> None:
        assert self.folder is not None
        if self._journal is None or self._journal_pid != os.getpid():   # a forked worker writes its own
            folder = self.folder
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{JOURNAL_PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
            self._journal = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
            self._journal_pid = os.getpid()
            self._journal_path = path
        line = _line(key, record)
        os.write(self._journal, line)
        if self._journal_path is not None:   # this process knows its own lines already
            self._read[self._journal_path.name] = self._read.get(self._journal_path.name, 0) + len(line)

    def _close(self) -> None:
        if self._journal is not None and self._journal_pid == os.getpid():
            os.close(self._journal)
        self._journal, self._journal_pid, self._journal_path = None, 0, None

    def _load(self) -> None:
        """Read what every journal holds beyond what was read of it already."""
        assert self.folder is not None
        folder = self.folder
        try:
            names = sorted(entry.name for entry in os.scandir(folder)
                           if entry.name.startswith(JOURNAL_PREFIX) and entry.is_file(follow_symlinks=False))
        except OSError:
            return
        for name in names:
            start = self._read.get(name, 0)
            try:
                with open(folder / name, "rb") as handle:
                    handle.seek(start)
                    data = handle.read()
            except OSError:
                continue
            end = data.rfind(b"\n") + 1   # a line being written is read the next time
            self._read[name] = start + end
            for line in data[:end].splitlines():
                self._take(line)

    def _take(self, line: bytes) -> None:
        try:
            key, pairs = json.loads(line)
        except (ValueError, TypeError):
            return
        if not isinstance(key, str) or not isinstance(pairs, list):
            return
        record = tuple((target, digest) for target, digest in (pair for pair in pairs if isinstance(pair, list)
                                                                and len(pair) == 2)
                       if isinstance(target, str) and isinstance(digest, str)
                       and (_DIGEST.fullmatch(digest) or vendored_file(digest) is not None)
                       and self._safe_target(target))
        self._records.setdefault(key, record)


def _line(key: str, record: Record) -> bytes:
    return (json.dumps([key, [list(pair) for pair in record]], ensure_ascii=False, separators=(",", ":"))
            + "\n").encode("utf-8", "surrogatepass")
