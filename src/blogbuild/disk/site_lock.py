"""One build of a site at a time: the lock `blogbuild build` holds while it runs and `serve` holds around each
of its rebuilds and publishes.

The lock is `.blogbuild-cache/build.lock`, taken with flock(2) and holding the holder's pid. The kernel
releases it when the holder ends, however it ends (a killed build's lock is simply taken by the next one),
so a lock file left behind means nothing by itself. Processes a holder forked (its worker pools) share its
lock: when the pid in the file is dead but the lock is still held, those are a killed build's workers
ending, and the lock is waited for a moment."""
from __future__ import annotations

import fcntl
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..core.errors import BlogbuildError
from ..core.cache_keys import CACHE_DIR

LOCK_NAME = "build.lock"
# How long a killed holder's forked workers are waited for before the lock is reported as held.
ORPHANS_WAIT_SECONDS = 10.0


class SiteBusy(BlogbuildError):
    """Another process holds the site's build lock."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        holder = f" (pid {pid})" if pid is not None else ""
        super().__init__(f"another build of this site is running{holder}; wait for it or stop it")


def lock_path(root: str | Path) -> Path:
    """The site's lock file."""
    return Path(root) / CACHE_DIR / LOCK_NAME


def _holder(descriptor: int) -> int | None:
    """The pid the lock file holds; read again for a moment while it holds none (a holder writes its pid
    just after it takes the lock)."""
    for _ in range(50):
        try:
            text = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            return None
        if text.isdigit():
            return int(text)
        time.sleep(0.01)
    return None


def process_alive(pid: int) -> bool:
    """Whether a process of this number runs (another user's counts: it is not ours to judge)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):   # gone, or no process number at all
        return False
    except PermissionError:   # another user's process
        return True
    return True


def _take(descriptor: int, wait: bool) -> None:
    """Lock descriptor's file, or raise SiteBusy naming the holder (wait: block until it is free)."""
    if wait:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        return
    deadline = None
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pid = _holder(descriptor)
            if pid is None or process_alive(pid):
                raise SiteBusy(pid) from None
            deadline = deadline if deadline is not None else time.monotonic() + ORPHANS_WAIT_SECONDS
            if time.monotonic() > deadline:
                raise SiteBusy(pid) from None
            time.sleep(0.05)   # the dead holder's workers are ending


@contextmanager
def site_lock(root: str | Path, *, wait: bool = False) -> Iterator[None]:
    """Hold the site's build lock for the block; SiteBusy when another process holds it (wait: block
    until it is free instead)."""
    path = lock_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        _take(descriptor, wait)
        record = f"{os.getpid():>10}\n".encode("ascii")   # one width: a reader never sees two pids mixed
        os.pwrite(descriptor, record, 0)
        os.ftruncate(descriptor, len(record))
        yield
    finally:
        os.close(descriptor)   # releases the lock (its forked workers, if any, have ended)
