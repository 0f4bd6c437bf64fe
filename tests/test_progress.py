"""A long build shows what it is doing: a line on a terminal rewritten in place, its stages' times at the end."""
from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from blogbuild.core import progress


def picture_heavy_site(root: Path, images: int) -> Path:
    """A site whose build lasts by its size: one post showing many photos wider than the column."""
    folder = root / "content" / "posts" / "album"
    folder.mkdir(parents=True)
    (root / "blogbuild.yaml").write_text("title: Album\nbase_url: https://example.org/\ncards: false\n",
                                         encoding="utf-8")
    lines = ["---\ntitle: Album\ndate: 2024-01-02\n---\n"]
    for number in range(images):
        Image.effect_noise((1800, 1200), 60 + number).convert("RGB").save(folder / f"photo{number}.jpg", quality=90)
        lines.append(f"![photo {number}](photo{number}.jpg)\n")
    (folder / "index.md").write_text("\n".join(lines), encoding="utf-8")
    return root


def run_on_a_terminal(arguments: list[str], cwd: Path) -> tuple[int, str, bytes]:
    """Run blogbuild with its stderr a pseudo-terminal: (exit status, stdout, every byte the terminal got)."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "blogbuild", *arguments], cwd=cwd, stdout=subprocess.PIPE,
                               stderr=terminal, stdin=subprocess.DEVNULL)
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:   # EIO: the process closed its end
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    stdout = process.stdout.read().decode() if process.stdout else ""
    return process.wait(), stdout, shown


def test_a_long_build_on_a_terminal_shows_its_stage_and_count_then_clears_the_line(tmp_path):
    root = picture_heavy_site(tmp_path / "site", 12)
    code, stdout, shown = run_on_a_terminal(["build", "--root", str(root), "--jobs", "1"], tmp_path)
    assert code == 0, (stdout, shown)
    counts = re.findall(rb"\rimages (\d+)/12\x1b\[K", shown)
    assert counts and counts[-1] == b"12", shown
    assert [int(done) for done in counts] == sorted(int(done) for done in counts)
    assert shown.endswith(b"\r\x1b[K"), shown   # cleared at the end: nothing of it stays on the screen
    assert stdout.startswith("Built ") and "images" not in stdout.split("\n", 1)[0]


def test_quiet_shows_no_line_even_on_a_terminal(tmp_path):
    root = picture_heavy_site(tmp_path / "site", 4)
    code, stdout, shown = run_on_a_terminal(["build", "--root", str(root), "--jobs", "1", "--quiet"], tmp_path)
    assert code == 0 and stdout == "" and shown == b"", (stdout, shown)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """time.perf_counter as a clock the test moves on."""
    fake = Clock()
    monkeypatch.setattr(time, "perf_counter", fake)
    return fake


def test_without_a_terminal_only_a_long_run_prints_its_stages(clock):
    stream = io.StringIO()
    quick = progress.Progress(stream, live=False)
    quick.stage("read")
    clock.now += 2
    quick.count(1, 2)
    assert quick.finish() is None and stream.getvalue() == ""
    long = progress.Progress(stream, live=False)
    long.stage("markdown")
    clock.now += 1.25
    long.stage("images")
    clock.now += progress.LONG_RUN
    long.count(5, 5)
    assert long.finish() == "Stages: markdown 1.2 s, images 10.0 s (11.2 s in all)"
    assert stream.getvalue() == ""


def test_on_a_terminal_a_moment_draws_nothing_and_later_counts_are_drawn_in_place(clock):
    stream = io.StringIO()
    shown = progress.Progress(stream, live=True)
    shown.stage("images")
    shown.count(1, 3)
    assert stream.getvalue() == ""
    clock.now += progress.SHOW_AFTER
    shown.count(2, 3)
    shown.count(3, 3)
    assert shown.finish() is None
    assert stream.getvalue() == "\rimages 2/3\x1b[K\rimages 3/3\x1b[K\r\x1b[K"


@pytest.mark.parametrize("quiet", [True, False])
def test_the_stages_do_nothing_when_no_run_is_shown(quiet):
    """serve and tests build with no run shown: stage() and count() are no-ops; --quiet starts none."""
    assert progress.stop() is None
    progress.stage("read")
    progress.count(1, 2)
    started = progress.start(quiet, io.StringIO())
    assert (started is None) == quiet
    assert progress.stop() is None
