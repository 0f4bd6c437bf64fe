"""build/pools.py's InBackground: a function run in a forked process, its result read back whole, and any
failure there (an exception, an exit, a kill) a None the caller answers by doing the work itself."""
from __future__ import annotations

import os
import signal
import sys
import time

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


def test_a_markdown_pool_s_workers_inherit_the_lexers_of_the_languages_its_fences_name() -> None:
    """A Hugo site's code is highlighted by Chroma's lexers, whose rules compile on first use (10-60 ms a
    language): the process compiles those its posts' fences name before it forks the markdown workers, so that
    they (and the page workers forked later, whose hooks highlight again) inherit them compiled."""
    from pathlib import Path

    from blogbuild.config import load_config
    from blogbuild.core.model import SourceFile
    from blogbuild.markdown.chroma.registry import get_lexer
    from blogbuild.pipeline.pools import language_of, render_in_pool

    config = load_config(None, root=Path(__file__).resolve().parent / "hugo_sites" / "chroma_code")
    assert config.markup.render_hooks
    named = {"verilog": "fenced", "lua": "quoted", "kotlin": "listed", "autohotkey": "tilde"}
    lexers = {name: get_lexer(name) for name in named}
    for lexer in lexers.values():   # as a new process has them: not compiled yet
        assert lexer is not None
        lexer._rules = None
    texts = ["---\ntitle: A\n---\n```verilog\nmodule m; endmodule\n```\n",
             "---\ntitle: B\n---\n> ```lua {linenos=true}\n> print(1)\n> ```\n",
             "---\ntitle: C\n---\n1. item\n\n   ```kotlin\n   fun f() = 1\n   ```\n",
             "---\ntitle: D\n---\n~~~autohotkey\nMsgBox hi\n~~~\n"]
    sources = [(0, SourceFile(f"content/posts/{index}.md", f"posts/{index}.md", text), "key")
               for index, text in enumerate(texts)]
    outcomes = render_in_pool([language_of(config)], sources, 2)
    assert all(outcome.post is not None for outcome in outcomes), outcomes
    assert {name: lexer._rules is not None for name, lexer in lexers.items()} == dict.fromkeys(named, True)


def test_a_shared_map_gives_every_result_in_order_and_shares_the_work() -> None:
    """This process and a forked helper take chunks of the indexes from one pipe of tickets: the results come
    back in order whoever made them, a helper's past a pipe's buffer, and both made some."""
    from blogbuild.pipeline.pools import shared_map

    def made(index: int) -> tuple[int, int, str]:
        if index % 40 == 0:
            time.sleep(0.01)   # a slower chunk: the other process takes the next ones meanwhile
        return index, os.getpid(), "x" * 2000

    results = shared_map(made, 400, 2)
    assert [index for index, _, _ in results] == list(range(400))
    assert {pid for _, pid, _ in results} - {os.getpid()}, "no helper made any of them"
    assert os.getpid() in {pid for _, pid, _ in results}, "this process waited instead of working"


def test_what_a_failed_helper_took_is_made_here() -> None:
    """A helper that dies (a bug, a kill) after taking a chunk loses nothing: this process makes what it did
    not send back."""
    from blogbuild.pipeline.pools import shared_map
    parent = os.getpid()

    def made(index: int) -> int:
        if os.getpid() != parent and index % 7 == 3:
            os.kill(os.getpid(), signal.SIGKILL)
        return index * index

    assert shared_map(made, 300, 3) == [index * index for index in range(300)]


def test_an_error_here_raises_and_ends_the_helpers(tmp_path) -> None:
    """A bug in this process's share raises from shared_map as it would without helpers, and no helper is left
    working (or unreaped) after it."""
    from blogbuild.pipeline.pools import shared_map
    parent = os.getpid()

    def made(index: int) -> int:
        if os.getpid() == parent:
            while not list(tmp_path.iterdir()):   # the helper has started
                time.sleep(0.01)
            raise ValueError("a bug")
        (tmp_path / str(os.getpid())).touch()
        time.sleep(0.5)
        return index

    started = time.monotonic()
    with pytest.raises(ValueError, match="a bug"):
        shared_map(made, 400, 2)
    assert time.monotonic() - started < 30   # the helper was killed, not waited for through 400 half-seconds
    helpers = [int(path.name) for path in tmp_path.iterdir()]
    assert helpers
    for pid in helpers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)   # ended and reaped
