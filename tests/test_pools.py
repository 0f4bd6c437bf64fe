"""build/pools.py's InBackground: a function run in a forked process, its result read back whole, and any
failure there (an exception, an exit, a kill) a None the caller answers by doing the work itself."""
from __future__ import annotations

import os
import signal
import sys

import pytest

from blogbuild.pipeline.pools import InBackground, can_fork

pytestmark = pytest.mark.skipif(not can_fork(), reason="forked workers are Linux only")


def test_the_result_comes_back_whole_even_past_a_pipe_buffer() -> None:
    big = {"cards": [(f"posts/{number}/card.png", "x" * 300) for number in range(5000)]}   # ~1.6 MB
    assert InBackground(lambda: big).result() == big


def test_the_work_runs_in_another_process() -> None:
    assert InBackground(os.getpid).result() != os.getpid()


def failing() -> None:
    raise ValueError("a bug in the background")


def exiting() -> None:
    sys.exit(3)


def killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize("function", [failing, exiting, killed])
def test_any_failure_is_none(function) -> None:
    assert InBackground(function).result() is None


def test_a_result_that_cannot_be_pickled_is_none() -> None:
    assert InBackground(lambda: (lambda: None)).result() is None
