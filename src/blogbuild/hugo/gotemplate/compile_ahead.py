"""A site's translated templates compiled ahead, in a second process, while the build does other work.

A cold build of a Hugo site compiles the Jinja of its layouts and partials (Jinja's parse and code generation,
then Python's compile): 0.3-0.5 s for PaperMod's thirty templates, on the build's one thread, just when its
first page renders. Their translations are known as soon as the site's layouts are checked (site_theme.py),
before the site's posts are read and rendered; so a one-shot build forks a child that compiles them and sends
each template's code back through a pipe (marshal: code made by this very build's process, never read from a
file), while the build goes on. `take()` gives the code of a template that has arrived; one that has not is
compiled by the build as before, and the child is told so through a second pipe, to skip it (the child works
from the end of the list, the build from where it needs). Only the process that forked the child takes from
it; a pool's workers forked later compile for themselves.
"""
from __future__ import annotations

import marshal
import os
import struct
import threading
from collections.abc import Sequence
from types import CodeType
from typing import Any

from ...core.frames import read_frames, write_frame

_INDEX = struct.Struct("<I")     # a template the build compiled itself: the child skips it


class _Ahead:
    """The child's results as they arrive (a reader thread drains the pipe, so the child never waits)."""

    def __init__(self, sources: Sequence[str], read_end: int, skip_end: int, child: int) -> None:
        self.owner = os.getpid()
        self.sources = list(sources)
        self.places = {source: index for index, source in enumerate(self.sources)}
        self.skip_end = skip_end
        self.arrived: dict[str, bytes] = {}
        self.lock = threading.Lock()
        self.child = child
        self.reader = threading.Thread(target=self._read, args=(read_end,), name="compile-ahead", daemon=True)
        self.reader.start()

    def _read(self, read_end: int) -> None:
        for index, data in read_frames(read_end):
            if index >= len(self.sources):
                break
            with self.lock:
                self.arrived[self.sources[index]] = data
        try:
            os.waitpid(self.child, 0)
        except ChildProcessError:
            pass

    def take(self, source: str) -> CodeType | None:
        with self.lock:
            data = self.arrived.pop(source, None)
        if data is None:
            place = self.places.pop(source, None)
            if place is not None and self.reader.is_alive():
                try:   # the build compiles it now: the child need not
                    os.write(self.skip_end, _INDEX.pack(place))
                except OSError:
                    pass
            return None
        try:
            code = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return None
        return code if isinstance(code, CodeType) else None


_AHEAD: _Ahead | None = None


def start(sources: Sequence[str], environment: Any) -> None:
    """Compile these Jinja sources (translations) in a forked child, in the environment the build compiles them
    in (environment.go_environment()), the last first; nothing on a platform without fork, for fewer than two,
    or when a child already works for this process."""
    global _AHEAD
    if not hasattr(os, "fork") or len(sources) < 2 or (_AHEAD is not None and _AHEAD.owner == os.getpid()):
        return
    read_end, write_end = os.pipe()
    skip_read, skip_write = os.pipe()
    os.set_blocking(skip_read, False)
    os.set_blocking(skip_write, False)   # the build never waits on the child
    try:
        child = os.fork()
    except OSError:
        for end in (read_end, write_end, skip_read, skip_write):
            os.close(end)
        return
    if child == 0:   # the child: compile, send, and leave without running anything of the parent's at exit
        try:
            keep_only(write_end, skip_read)   # not the site's lock, nor any file of the build
            _compile_and_send(environment, sources, write_end, skip_read)
        finally:
            os._exit(0)
    os.close(write_end)
    os.close(skip_read)
    _AHEAD = _Ahead(sources, read_end, skip_write, child)


def keep_only(*descriptors: int) -> None:
    """Close every descriptor of this process but the standard ones and these: a forked child then holds no
    file of its parent open (the site's build lock is released when the build's own descriptor closes)."""
    start = 3
    for descriptor in sorted(set(descriptors)):
        os.closerange(start, descriptor)
        start = descriptor + 1
    os.closerange(start, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1 << 16)


def _skipped(skip_read: int, skipped: set[int]) -> set[int]:
    """skipped with the places the build has said it compiled itself since the last look."""
    while True:
        try:
            data = os.read(skip_read, _INDEX.size * 256)
        except BlockingIOError:
            return skipped
        if not data:
            return skipped
        skipped.update(index for (index,) in _INDEX.iter_unpack(data[:len(data) - len(data) % _INDEX.size]))


def _compile_and_send(environment: Any, sources: Sequence[str], write_end: int, skip_read: int) -> None:
    skipped: set[int] = set()
    parent = os.getppid()
    with os.fdopen(write_end, "wb") as pipe:
        for index in reversed(range(len(sources))):
            if os.getppid() != parent:   # the build has ended: nobody waits for the rest
                return
            if index in _skipped(skip_read, skipped):
                continue
            try:
                code = environment.compile(sources[index])
            except Exception:   # noqa: BLE001 - the build compiles it again and reports the error itself
                continue
            write_frame(pipe, index, marshal.dumps(code))


def take(source: str) -> CodeType | None:
    """The code the child compiled from this very source, if it has arrived (in the process that forked it)."""
    ahead = _AHEAD
    if ahead is None or ahead.owner != os.getpid():
        return None
    return ahead.take(source)
