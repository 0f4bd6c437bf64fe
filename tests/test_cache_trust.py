"""A cache file never runs code: a file planted under any name a build or a server reads from
.blogbuild-cache/ (a pickle or a marshalled code object that would run a command when loaded) runs
nothing; the build succeeds, says once which file it ignored, and publishes what a fresh build does."""
from __future__ import annotations

import marshal
import os
import pickle
from pathlib import Path
from typing import Any, Callable

import pytest

from support.files import read_tree
from support.processes import Server, basic_site, blogbuild, free_port

CACHE = ".blogbuild-cache"
IGNORED = "warning: not a blogbuild cache file of this version, ignored and rebuilt"


class _Command:
    """Unpickled, it runs a shell command."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self) -> Any:
        return (os.system, (self.command,))


def planted_pickle(marker: Path) -> bytes:
    return pickle.dumps({"format": 5, "posts": _Command(f"touch {marker}")}, protocol=pickle.HIGHEST_PROTOCOL)


def planted_bytecode(marker: Path) -> bytes:
    """What Jinja's bytecode cache reads: its magic, a pickled checksum (here a command), marshalled code."""
    import jinja2.bccache
    code = compile(f"import os; os.system('touch {marker}')", "planted", "exec")
    return jinja2.bccache.bc_magic + planted_pickle(marker) + marshal.dumps(code)


def only(folder: Path, pattern: str) -> Path:
    found = [path for path in folder.glob(pattern) if ".delta." not in path.name]
    assert len(found) == 1, found
    return found[0]


# Where a planted file goes, given the cache folder after a build (each a name that build or the next reads).
PLACES: dict[str, Callable[[Path], Path]] = {
    "posts": lambda cache: only(cache, "posts-*.cache"),
    "delta": lambda cache: only(cache, "posts-*.cache").with_suffix(".delta.cache"),
    "state": lambda cache: only(cache, "state-*.cache"),
    "state delta": lambda cache: only(cache, "state-*.cache").with_suffix(".delta.cache"),
    "pages": lambda cache: only(cache, "pages-*.cache"),
    "pages delta": lambda cache: only(cache, "pages-*.cache").with_suffix(".delta.cache"),
    # What older versions wrote and read: pickles, and Jinja's compiled templates.
    "old posts pickle": lambda cache: only(cache, "posts-*.cache").with_suffix(".pickle"),
    "old state pickle": lambda cache: only(cache, "state-*.cache").with_suffix(".pickle"),
    "compiled template": lambda cache: cache / only(cache, "state-*.cache").name.replace("state-", "jinja-")
    .removesuffix(".cache") / "__jinja2_0123456789abcdef0123456789abcdef01234567.cache",
}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return basic_site(tmp_path)


@pytest.mark.parametrize("place", list(PLACES))
def test_a_planted_cache_file_runs_nothing_and_is_rebuilt(site: Path, place: str) -> None:
    first = blogbuild(site)
    assert first.returncode == 0, first.stderr
    if "delta" in place:   # a delta is read beside its full file: an edit and a build make one
        post = next((site / "content").rglob("*.md"))
        post.write_text(post.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
        assert blogbuild(site).returncode == 0
    expected = read_tree(site / "public")
    marker = site.parent / "ran"
    target = PLACES[place](site / CACHE)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(planted_bytecode(marker) if place == "compiled template" else planted_pickle(marker))
    for record in (site / CACHE).glob("last-build-*.json"):   # so the build reads the cache, not "up to date"
        record.unlink()
    result = blogbuild(site)
    assert not marker.exists(), "a cache file ran a command"
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning:" in line]
    if place.startswith(("old", "compiled")):   # never read: removed
        assert warnings == [] and not target.exists(), warnings
    else:
        assert warnings == [f"{CACHE}/{target.name}: {IGNORED}"], result.stderr   # blogbuild ran in the site
    assert read_tree(site / "public") == expected
    again = blogbuild(site)   # rebuilt: the next build reads it and says nothing
    assert again.returncode == 0 and "warning:" not in again.stderr, again.stderr


def test_a_planted_saved_state_does_not_run_when_a_server_starts(site: Path) -> None:
    port = free_port()   # the same address: the same configuration, whose state the next server reads
    Server(site, port).stop()   # leaves its tree, its record and the state the next server carries on from
    marker = site.parent / "ran"
    state = only(site / CACHE, "state-*.cache")
    state.write_bytes(planted_pickle(marker))
    server = Server(site, port)
    try:
        assert not marker.exists(), "a cache file ran a command"
        warnings = [line.strip() for line in server.lines if "warning:" in line]
        assert len(warnings) == 1 and warnings[0].endswith(f"{CACHE}/{state.name}: {IGNORED}"), server.lines
        assert b"<html" in server.get("/")
    finally:
        server.stop()
    assert not marker.exists()
