"""Writing a file so that no reader ever sees half of it: temporary file in the same folder, then rename.

The one rule for blogbuild's temporary files: `.NAME.RANDOM.tmp` beside the file they become. The leading
dot and the suffix (names.TEMPORARY_SUFFIX) make the build and the watcher skip them.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import BinaryIO, Iterator

from .names import TEMPORARY_SUFFIX


def _temporary_beside(path: Path) -> tuple[int, str]:
    """A new file `.NAME.RANDOM.tmp` beside path, open for writing and private (as tempfile.mkstemp makes it,
    without importing tempfile and random on every build's start)."""
    for _ in range(100):
        temporary = os.path.join(path.parent, f".{path.name}.{os.urandom(6).hex()}{TEMPORARY_SUFFIX}")
        try:
            return os.open(temporary, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator[BinaryIO]:
    """A binary stream whose bytes replace path whole when the block ends without an error (else nothing)."""
    handle, temporary = _temporary_beside(path)
    try:
        with os.fdopen(handle, "wb") as stream:
            yield stream
        # mkstemp makes the file private; give it the mode a plain open() would (or the old file's).
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def write_atomically(path: Path, data: bytes) -> None:
    """Write data to path through a temporary file in the same folder, so no reader sees half a file."""
    with atomic_writer(path) as stream:
        stream.write(data)
