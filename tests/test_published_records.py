"""The records of what each page's render published through Hugo Pipes (hugo/published_records.py): a record
written by one process is read by another (a forked worker's by the parent, a build's by the next), a torn
line is skipped, and a whole build's compaction keeps exactly its pages' records in one journal."""
from __future__ import annotations

import os
from pathlib import Path

from blogbuild.hugo.gotemplate.pipes import safe_target
from blogbuild.hugo.published_records import PublishedRecords

CSS = ("css/a.css", "a" * 64)
JS = ("js/b.js", "b" * 64)


def _records(folder: Path) -> PublishedRecords:
    records = PublishedRecords(safe_target)
    records.keep_in(folder)
    return records


def test_a_record_reaches_another_process_through_the_journal(tmp_path: Path) -> None:
    writer = _records(tmp_path)
    writer.record("page-1", {"css/a.css": CSS[1]})
    writer.record("page-2", {"js/b.js": JS[1], "css/a.css": CSS[1]})
    writer.record("page-3", {})   # nothing published: nothing recorded
    reader = _records(tmp_path)
    assert reader.get("page-1") == (CSS,)
    assert reader.get("page-2") == (CSS, JS)
    assert reader.get("page-3") == () and reader.get("unknown") == ()
    assert len(os.listdir(tmp_path)) == 1   # one journal for the process, not a file per page


def test_a_forked_worker_writes_a_journal_of_its_own(tmp_path: Path) -> None:
    records = _records(tmp_path)
    records.record("parent", {"css/a.css": CSS[1]})
    pid = os.fork()
    if pid == 0:   # the worker: its record goes to its own journal, read by the parent afterwards
        try:
            records.record("child", {"js/b.js": JS[1]})
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert records.get("child") == (JS,) and records.get("parent") == (CSS,)
    assert len(os.listdir(tmp_path)) == 2


def test_a_torn_or_unsafe_line_is_skipped(tmp_path: Path) -> None:
    writer = _records(tmp_path)
    writer.record("good", {"css/a.css": CSS[1]})
    journal = next(tmp_path.iterdir())
    with open(journal, "ab") as handle:
        handle.write(b'["bad",[["../../etc/passwd","' + b"c" * 64 + b'"]]]\n["torn",[["css/x.css"')
    reader = _records(tmp_path)
    assert reader.get("good") == (CSS,)
    assert reader.get("bad") == () and reader.get("torn") == ()


def test_a_whole_builds_compaction_keeps_only_its_pages(tmp_path: Path) -> None:
    first = _records(tmp_path)
    first.record("old", {"css/a.css": CSS[1]})
    second = _records(tmp_path)
    second.record("kept", {"js/b.js": JS[1]})
    second.compact({"kept"})
    assert len(os.listdir(tmp_path)) == 1
    reader = _records(tmp_path)
    assert reader.get("kept") == (JS,) and reader.get("old") == ()
