"""Atomic output under kill -9: a build killed at random moments leaves public/ as the previous complete build
(or, once the swap happened, the new complete build), never a mix; an import killed midway leaves no partial
files. Processes are real subprocesses, killed with SIGKILL; the random moments come from a fixed seed."""
from __future__ import annotations

import importlib.util
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from blogbuild.core.names import TEMPORARY_SUFFIX
from support.files import read_tree, write_files

KILLS = 6
SEED = 7


def make_corpus(root: Path, count: int, marker: str) -> None:
    """A site big enough that a build takes a noticeable moment: posts with tags, series, code and math."""
    files: dict[str, str] = {"blogbuild.yaml": 'title: "Atomic"\npaginate: 5\n'}
    for number in range(count):
        files[f"content/posts/post-{number:03d}.md"] = (
            f'---\ntitle: "Post {number} {marker}"\ndate: 2025-01-{number % 28 + 1:02d}T10:00:00+08:00\n'
            f'tags: ["t{number % 7}", "shared"]\nseries: ["s{number % 3}"]\n---\n'
            f"Paragraph {marker} with $x_{number}$ math.\n\n```python\nprint({number})\n```\n\n"
            + "Some more text to render. " * 40 + "\n")
    for number in range(20):
        files[f"static/files/file-{number}.txt"] = f"static {number} {marker}\n" * 50
    write_files(root, files)


def run_build(site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "blogbuild", "build", "-q", "-j", "1", "--no-cache"], cwd=site,
                          capture_output=True, text=True, timeout=300)


def start_build(site: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "blogbuild", "build", "-q", "-j", "1", "--no-cache"], cwd=site,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def kill_after(process: subprocess.Popen, delay: float) -> None:
    """SIGKILL the process after delay seconds (or when it has already exited, nothing)."""
    try:
        process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()


def kill_while_writing(process: subprocess.Popen, site: Path, delay: float) -> None:
    """SIGKILL the process delay seconds after output.py's temp folder (or build.py's stage, which becomes
    the new tree when there is no spare) appears, i.e. while it renders, writes or swaps."""
    while process.poll() is None:
        if any(path.name.startswith((".blogbuild-tmp-", ".blogbuild-stage-")) for path in site.iterdir()):
            kill_after(process, delay)
            return
        time.sleep(0.002)


def test_kill_9_during_build_never_leaves_a_mixed_public(tmp_path: Path) -> None:
    """Build A; change every page to B; start builds of B and kill -9 each at a random moment: public/ is
    always exactly A's tree or exactly B's tree; a last build cleans any stale temp folder."""
    old_site, new_site = tmp_path / "old", tmp_path / "new"
    make_corpus(old_site, 60, "alpha")
    assert run_build(old_site).returncode == 0
    old_tree = read_tree(old_site / "public")
    make_corpus(new_site, 60, "beta")
    started = time.monotonic()
    assert run_build(new_site).returncode == 0
    full_duration = time.monotonic() - started
    new_tree = read_tree(new_site / "public")
    assert old_tree != new_tree

    saved = tmp_path / "old-public-copy"
    shutil.copytree(old_site / "public", saved)
    make_corpus(old_site, 60, "beta")   # the site now holds B's sources, public/ still A's output
    chooser = random.Random(SEED)
    outcomes = []
    for _ in range(KILLS):
        # Spread the kills over the whole run, including the last part where output.py writes and swaps.
        # Half the kills land anywhere in the run, half inside the write-and-swap phase, which is short.
        if len(outcomes) % 2:
            kill_while_writing(start_build(old_site), old_site, chooser.uniform(0.0, 0.3))
        else:
            kill_after(start_build(old_site), chooser.uniform(0.05, full_duration * 1.1))
        tree = read_tree(old_site / "public")
        assert tree in (old_tree, new_tree), "public/ is a mix of two builds"
        outcomes.append("new" if tree == new_tree else "old")
        if tree == new_tree:   # the build finished before the kill: put A back so the next kill can lose it
            shutil.rmtree(old_site / "public")
            shutil.copytree(saved, old_site / "public")
    print("kill outcomes:", outcomes, f"full build {full_duration:.2f} s")
    assert "old" in outcomes   # at least one kill landed before the swap
    result = run_build(old_site)
    assert result.returncode == 0, result.stderr
    assert read_tree(old_site / "public") == new_tree
    assert not [path.name for path in old_site.iterdir() if path.name.startswith(".blogbuild-tmp-")]
    # The replaced tree is removed by a detached `rm` after the swap: it goes, without the build waiting.
    deadline = time.monotonic() + 60
    while [path for path in old_site.iterdir() if path.name.startswith(".blogbuild-trash-")]:
        assert time.monotonic() < deadline, "the replaced output tree was never removed"
        time.sleep(0.05)


def _flattened_post(number: int) -> str:
    return (f"math: true title: “Imported post {number}” date: 2025-02-{number % 28 + 1:02d}T08:00:00+08:00 "
            f"tags: [“t{number % 5}”, “shared”] series: [“s{number % 2}”] —math: true "
            f"First words of post {number}. " + f"Sentence {number} goes on and on. " * 30)


@pytest.mark.skipif(importlib.util.find_spec("blogbuild.importer") is None,
                    reason="blogbuild.importer is not installed")
def test_kill_9_during_import_leaves_no_partial_files(tmp_path: Path) -> None:
    """Kill `blogbuild import` at random moments: every file in --out is byte-identical to the file a complete
    import writes, and no other file (temp or half-written) is left behind."""
    dump = tmp_path / "dump.txt"
    dump.write_text("Posts\n\n" + "\n\n".join(_flattened_post(number) for number in range(120)) + "\n",
                    encoding="utf-8")
    complete_out = tmp_path / "complete"
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "blogbuild", "import", str(dump), "--out", str(complete_out),
                             "--quiet"], capture_output=True, text=True, timeout=300)
    duration = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    complete = read_tree(complete_out)
    assert len(complete) >= 100
    chooser = random.Random(SEED)
    for attempt in range(KILLS):
        out = tmp_path / f"killed-{attempt}"
        process = subprocess.Popen([sys.executable, "-m", "blogbuild", "import", str(dump), "--out", str(out),
                                    "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kill_after(process, chooser.uniform(0.05, duration * 1.1))
        left = read_tree(out) if out.exists() else {}
        # A kill between a temporary file and its rename may leave that file (hidden, TEMPORARY_SUFFIX):
        # never under a post's name, and the next import removes it.
        temporary = sorted(path for path in left if _is_temporary(path))
        extra = sorted(set(left) - set(complete) - set(temporary))
        assert not extra, f"files a complete import does not write: {extra[:5]}"
        damaged = sorted(path for path, data in left.items() if path not in temporary and data != complete[path])
        assert not damaged, f"partial files: {damaged[:5]}"
        if temporary:
            rerun = subprocess.run([sys.executable, "-m", "blogbuild", "import", str(dump), "--out", str(out),
                                    "--quiet"], capture_output=True, text=True, timeout=300)
            assert rerun.returncode == 0, rerun.stderr
            assert read_tree(out) == complete, "a second import finishes the folder and removes the leftovers"


def _is_temporary(relative: str) -> bool:
    name = relative.rsplit("/", 1)[-1]
    return name.startswith(".") and name.endswith(TEMPORARY_SUFFIX)


def test_the_spare_tree_is_reused_and_never_trusted(tmp_path: Path) -> None:
    """The tree a swap replaces is kept and the next build starts from it: damage in it (a changed, a missing
    and a stray file, a stray folder) never reaches public/, and files it shares with the live tree by hard
    link are replaced, never written into (the tree it came from keeps its bytes)."""
    site = tmp_path / "site"
    make_corpus(site, 12, "alpha")
    assert run_build(site).returncode == 0
    make_corpus(site, 12, "beta")
    assert run_build(site).returncode == 0
    spare = site / ".blogbuild-spare-public"
    assert spare.is_dir(), "the replaced tree is kept as the spare"
    beta_tree = read_tree(site / "public")
    pages = sorted(spare.rglob("index.html"))
    pages[0].unlink()
    pages[0].write_text("defaced")
    pages[1].unlink()
    (spare / "stray.html").write_text("not ours")
    (spare / "stray-folder" / "deep").mkdir(parents=True)
    (spare / "stray-folder" / "deep" / "x.txt").write_text("x")

    make_corpus(site, 12, "gamma")
    (site / "content" / "posts" / "post-011.md").unlink()   # one page fewer: its folder must go
    assert run_build(site).returncode == 0
    fresh = subprocess.run([sys.executable, "-m", "blogbuild", "build", "-q", "--no-cache", "-o",
                            str(tmp_path / "fresh")], cwd=site, capture_output=True, text=True, timeout=300)
    assert fresh.returncode == 0, fresh.stderr
    assert read_tree(site / "public") == read_tree(tmp_path / "fresh")
    folders = {path.relative_to(site / "public") for path in (site / "public").rglob("*") if path.is_dir()}
    assert folders == {path.relative_to(tmp_path / "fresh") for path in (tmp_path / "fresh").rglob("*")
                       if path.is_dir()}, "no empty folders left from the spare (stray, or a deleted post's)"
    assert read_tree(spare) == beta_tree   # the beta tree, now the spare, was never written through


def _children(pid: int) -> set[int]:
    """The processes whose parent is pid, from /proc."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_build_leaves_no_worker_running(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_corpus(site, 400, "workers")
    process = subprocess.Popen([sys.executable, "-m", "blogbuild", "build", "-q", "-j", "2", "--no-cache"],
                               cwd=site, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    deadline = time.monotonic() + 300
    while not workers and process.poll() is None and time.monotonic() < deadline:
        workers = _children(process.pid)
        time.sleep(0.01)
    assert workers, "the build finished before its worker processes were seen; make the corpus larger"
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers), "workers outlived the killed build"


def test_a_small_tree_is_removed_at_once_and_a_large_one_by_a_detached_remover(tmp_path: Path) -> None:
    """An edit's stage (a few pages) is removed by the build itself, no process started; a whole build's stage
    is renamed to trash at once and removed by a detached `rm -rf`."""
    from blogbuild.disk.output import SMALL_TREE, remove_later
    small = tmp_path / "small" / ".blogbuild-stage-public-1"
    (small / "posts" / "a").mkdir(parents=True)
    (small / "posts" / "a" / "index.html").write_text("page")
    remove_later(small)
    assert list(small.parent.iterdir()) == []   # no trash left for a remover

    large = tmp_path / "large" / ".blogbuild-stage-public-2"
    for number in range(SMALL_TREE + 1):
        (large / f"page-{number}").mkdir(parents=True)
    remove_later(large)
    assert not large.exists()
    for _ in range(300):   # the detached remover: wait for it, never for long
        if not any(large.parent.iterdir()):
            break
        time.sleep(0.1)
    assert list(large.parent.iterdir()) == []
