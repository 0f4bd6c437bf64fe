"""One build of a site at a time (site_lock.py): a second `blogbuild build` started while one runs either
runs after it or exits 1 with one line naming the running build's pid, never a traceback; a killed build's
lock is taken by the next build. Real processes on a copy of tests/sites/basic."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from blogbuild.disk.site_lock import lock_path, site_lock
from support.files import read_tree
from support.processes import Server, basic_site, blogbuild

BUSY = re.compile(r"error: another build of this site is running \(pid \d+\); wait for it or stop it")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return basic_site(tmp_path)


def start_build(site: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "blogbuild", "build", "-j", "2", *args], cwd=site,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def edit(site: Path, number: int) -> tuple[Path, str]:
    post = sorted((site / "content").rglob("*.md"))[-1]
    text = f"Edit number {number}."
    post.write_text(re.sub(r"\nEdit number \d+\.\n|$", f"\n{text}\n", post.read_text(encoding="utf-8"), count=1),
                    encoding="utf-8")
    return post, text


def test_two_builds_at_once_never_fail_with_a_traceback(site: Path) -> None:
    assert blogbuild(site).returncode == 0
    paths = set(read_tree(site / "public"))
    for number in range(10):
        _, text = edit(site, number)
        if number % 3 == 2:   # now and then a whole build, not one that carries on from the last
            for record in (site / ".blogbuild-cache").glob("last-build-*.json"):
                record.unlink()
        first = start_build(site)
        time.sleep(number * 0.3 / 9)   # the second starts 0 to 300 ms after the first
        second = start_build(site)
        outcomes = [(process.wait(timeout=300), *process.communicate()) for process in (first, second)]
        for code, _, err in outcomes:
            assert "Traceback" not in err, err
            assert code in (0, 1), err
            if code == 1:
                assert BUSY.fullmatch(err.strip()), err
        assert 0 in [code for code, _, _ in outcomes], outcomes
        tree = read_tree(site / "public")
        assert set(tree) == paths
        assert any(text.encode() in data for data in tree.values()), "the published tree has the last edit"
    fresh = blogbuild(site, "--no-cache", "-o", "fresh")
    assert fresh.returncode == 0, fresh.stderr
    assert read_tree(site / "public") == read_tree(site / "fresh")


def test_a_build_while_the_lock_is_held_exits_1_with_one_line(site: Path) -> None:
    with site_lock(site):
        result = blogbuild(site)
    assert result.returncode == 1
    assert result.stderr == f"error: another build of this site is running (pid {os.getpid()}); wait for it or stop it\n"
    assert not (site / "public").exists()
    assert blogbuild(site).returncode == 0


def test_a_killed_build_leaves_a_lock_the_next_build_takes(site: Path) -> None:
    for record in (site / ".blogbuild-cache").glob("last-build-*.json"):
        record.unlink()
    process = start_build(site)
    lock = lock_path(site)
    while not (lock.exists() and lock.read_text().strip() == str(process.pid)):   # it holds the lock
        assert process.poll() is None, process.communicate()
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    fresh = blogbuild(site, "--no-cache", "-o", "fresh")
    assert fresh.returncode == 0, fresh.stderr
    assert read_tree(site / "public") == read_tree(site / "fresh")


def test_a_lock_file_naming_a_dead_process_is_taken(site: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    lock = lock_path(site)
    lock.parent.mkdir(parents=True)
    lock.write_text(dead.stdout)
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    assert lock.read_text().strip() != dead.stdout.strip()   # the build wrote its own pid


def test_serve_takes_the_lock_for_its_builds_and_lets_go_between_them(site: Path) -> None:
    server = Server(site)
    try:
        # Its first build held the lock (its pid is in the file); idle, it holds none: a build runs.
        assert lock_path(site).read_text().strip() == str(server.process.pid)
        result = blogbuild(site)
        assert result.returncode == 0, result.stderr
    finally:
        server.stop()
