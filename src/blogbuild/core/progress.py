"""What a long build or check is doing.

On a terminal (stderr a tty), once the run has lasted longer than a moment, one line rewritten in place
names the stage and, where the stage counts its work, how far it is (`images 312/723`); the line is
cleared before anything else is printed. A run that lasted long (terminal or not) ends with one line
giving each stage's time. A short run prints nothing of this; --quiet shows neither.

The stages call stage() and count(); with no run being shown (serve, tests, --quiet) they do nothing.
Only the process that started the run draws: forked workers never call these.
"""
from __future__ import annotations

import sys
import time
from typing import TextIO

SHOW_AFTER = 0.5     # seconds: a run quicker than this draws no line at all
LONG_RUN = 10.0      # seconds: a run at least this long ends with its stages' times
REDRAW_EVERY = 0.1   # seconds between two drawings of a count


class Progress:
    """One run's stages: their times, and the line drawn on a terminal while it lasts."""

    def __init__(self, stream: TextIO, live: bool) -> None:
        self.stream = stream
        self.live = live                     # draw the line (stream is a terminal)
        self.started = time.perf_counter()
        self.times: dict[str, float] = {}    # stage -> seconds, in the order the stages ran
        self._stage = ""
        self._stage_started = self.started
        self._drawn_at = 0.0
        self._drawn = False

    def stage(self, name: str) -> None:
        """A stage begins (the one before it ends)."""
        now = time.perf_counter()
        self._close(now)
        self._stage, self._stage_started = name, now
        self._draw(name, now)

    def count(self, done: int, total: int) -> None:
        """The stage has done done of total items."""
        now = time.perf_counter()
        if done >= total or now - self._drawn_at >= REDRAW_EVERY:
            self._draw(f"{self._stage} {done}/{total}", now)

    def clear(self) -> None:
        """Remove the line and draw no more (the run's own output comes next); stages are still timed."""
        if self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._drawn = False
        self.live = False

    def finish(self) -> str | None:
        """End the last stage and clear the line; each stage's time as one line when the run lasted long."""
        now = time.perf_counter()
        self._close(now)
        self.clear()
        if now - self.started < LONG_RUN or not self.times:
            return None
        stages = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in self.times.items())
        return f"Stages: {stages} ({now - self.started:.1f} s in all)"

    def _draw(self, text: str, now: float) -> None:
        if not self.live or now - self.started < SHOW_AFTER:
            return
        self.stream.write(f"\r{text}\033[K")
        self.stream.flush()
        self._drawn_at, self._drawn = now, True

    def _close(self, now: float) -> None:
        if self._stage:
            self.times[self._stage] = self.times.get(self._stage, 0.0) + now - self._stage_started
        self._stage = ""


_ACTIVE: Progress | None = None


def start(quiet: bool, stream: TextIO | None = None) -> Progress | None:
    """Show this run's stages (on stream, stderr by default), unless quiet; the Progress, or None."""
    global _ACTIVE
    if quiet:
        _ACTIVE = None
        return None
    stream = stream if stream is not None else sys.stderr
    try:
        live = stream.isatty()
    except (AttributeError, ValueError):
        live = False
    _ACTIVE = Progress(stream, live)
    return _ACTIVE


def stop() -> str | None:
    """End the run being shown: its stages' line when it lasted long (see Progress.finish), else None."""
    global _ACTIVE
    active, _ACTIVE = _ACTIVE, None
    return active.finish() if active is not None else None


def clear() -> None:
    """Clear the line of the run being shown, before the run prints its own output."""
    if _ACTIVE is not None:
        _ACTIVE.clear()


def stage(name: str) -> None:
    """A stage of the run being shown begins (nothing when none is)."""
    if _ACTIVE is not None:
        _ACTIVE.stage(name)


def count(done: int, total: int) -> None:
    """The stage being shown has done done of total items (nothing when no run is shown)."""
    if _ACTIVE is not None:
        _ACTIVE.count(done, total)
