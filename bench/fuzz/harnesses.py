"""The properties each fuzz target checks; shared by the atheris runner (run.py) and the regression test
(tests/test_hostile.py replays bench/fuzz/crashes/ through these). No atheris import here, so the tests
run without it."""
from __future__ import annotations

from typing import Callable

from blogbuild.core.errors import SourceError


def _text(data: bytes) -> str:
    # Files reach the readers as decoded UTF-8 (sources.py refuses the rest), so fuzz in that space.
    return data.decode("utf-8", "replace")


def check_header(data: bytes) -> None:
    """The header reader either returns front matter or raises SourceError with a line inside the file."""
    from blogbuild.disk.frontmatter import parse_front_matter
    from blogbuild.core.model import SourceFile
    text = _text(data).replace("\r\n", "\n").replace("\r", "\n")
    try:
        front_matter = parse_front_matter(SourceFile("fuzz.md", "posts/fuzz.md", text))
    except SourceError as error:
        assert 0 <= error.line <= text.count("\n") + 2, f"error line {error.line} outside the file"
        return
    assert isinstance(front_matter.data, dict)
    assert front_matter.body_line >= 1


def check_importer(data: bytes) -> None:
    """Importing a dump never crashes; every written file reads back with blogbuild's own header reader and
    keeps the title; importing the same dump twice gives identical files."""
    from blogbuild.disk.frontmatter import split_front_matter
    from blogbuild.importer import import_dumps, render_post_file
    dump = _text(data)
    first = [render_post_file(post) for post in import_dumps([("fuzz.txt", dump)])]
    second = [render_post_file(post) for post in import_dumps([("fuzz.txt", dump)])]
    assert first == second, "import is not deterministic"
    for text in first:
        front_matter = split_front_matter(text, path="imported.md")   # SourceError here is a bug: we wrote it
        assert "title" in front_matter.data


def check_mermaid(data: bytes) -> None:
    """The mermaid restorer returns None or (diagram, end) with end inside the text and past the start."""
    from blogbuild.importer.mermaid import restore_mermaid
    text = _text(data)
    for start in (0, len(text) // 2):
        result = restore_mermaid(text, start)
        if result is None:
            continue
        source, end = result
        assert start < end <= len(text), (start, end, len(text))
        assert source.strip() and "\n" in source


TARGETS: dict[str, Callable[[bytes], None]] = {
    "header": check_header,
    "importer": check_importer,
    "mermaid": check_mermaid,
}
