"""V8 isolates (mini-racer), made one way for every use in a build: KaTeX's math (katex.py) and the search
index's term shards (publish/search_engine.py).

The flags are the process's: V8 takes them once, before its first isolate. `--no-opt` leaves out TurboFan;
Maglev still compiles hot loops, and over a build's short calls the optimizing compiler does not pay for
itself (bench/bench_math.py: a fifth less CPU for KaTeX without it, the same for the index builder's loops).
An isolate belongs to the process that made it: V8 does not survive fork, so a forked worker makes its own.
"""
from __future__ import annotations

import atexit
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from py_mini_racer import MiniRacer

V8_FLAGS = ("--single-threaded", "--no-opt")   # mini-racer's default, and no TurboFan

T = TypeVar("T")


class EngineMissing(RuntimeError):
    """mini-racer is not installed (it is a dependency of blogbuild; reinstall to get it)."""


def _outside_any_event_loop(make: Callable[[], T]) -> T:
    """make() run in a thread of its own: a MiniRacer made where an asyncio loop runs (a browser driver's)
    would run its calls on that loop, and fail once the loop is closed; made elsewhere, it runs its own."""
    import threading
    made: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            made.append(make())
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            failed.append(error)
    thread = threading.Thread(target=run, name="v8-isolate")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return made[0]


def new_isolate(missing: str) -> MiniRacer:
    """A new isolate, closed when the process that made it exits (closed later, during interpreter teardown,
    it waits for a V8 thread that is already gone and the process hangs). missing: what to tell the user
    when mini-racer cannot be imported (EngineMissing)."""
    try:
        from py_mini_racer import MiniRacer, init_mini_racer
    except ImportError as error:
        raise EngineMissing(missing) from error
    init_mini_racer(flags=V8_FLAGS, ignore_duplicate_init=True)
    context = _outside_any_event_loop(MiniRacer)
    pid = os.getpid()

    def close() -> None:
        if os.getpid() == pid:
            context.close()
    atexit.register(close)
    return context
