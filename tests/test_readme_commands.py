"""The README's own lines work in the order written on a machine that has only Python (and maybe node, but
not the npm packages): the line that builds the bundled site and the fast tier's set-up and test lines, run
word for word with the machine's own python3 (Debian's, which refuses installs outside a venv) on a copy of
the working tree (tracked and new files, nothing ignored: no tests/node/node_modules, no caches, no .venv).

Marked `setup`: minutes long, so the fast tier leaves it out (it would run itself) and .ci/run runs it."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.setup

REPO = Path(__file__).resolve().parent.parent


def readme_block_after(marker: str) -> list[str]:
    """The lines of the first ```sh block after the README paragraph that contains marker."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index(marker)
    block = re.search(r"```sh\n(.*?)```", text[start:], re.S)
    assert block, f"no ```sh block after {marker!r} in README.md"
    return [line for line in block.group(1).splitlines() if line.strip()]


def copy_working_tree(target: Path) -> None:
    """Tracked and untracked-but-not-ignored files of the checkout, as a fresh clone of this state has them."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode("utf-8").split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)


def _system_python_environment(tmp_path: Path) -> dict[str, str]:
    """The environment of a newcomer's shell: no virtual environment active, and `python3` the machine's own
    (Debian's /usr/bin/python3 when there is one, which refuses `pip install` outside a venv: PEP 668)."""
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER", "CI")}
    system = Path("/usr/bin/python3")
    binaries = tmp_path / "system-bin"
    binaries.mkdir()
    (binaries / "python3").symlink_to(system if system.exists() else Path(sys.executable))
    environment["PATH"] = str(binaries) + os.pathsep + environment.get("PATH", "")
    return environment


def _run_lines(lines: list[str], clone: Path, environment: dict[str, str]) -> subprocess.CompletedProcess:
    completed = None
    for line in lines:
        completed = subprocess.run(["bash", "-c", line + "\nexit $?"], cwd=clone, env=environment,
                                   capture_output=True, text=True, timeout=3600)
        tail = (completed.stdout[-3000:] + "\n" + completed.stderr[-3000:])
        assert completed.returncode == 0, f"README line failed: {line}\n{tail}"
    assert completed is not None
    return completed


def _fresh_clone(tmp_path: Path) -> Path:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs a git checkout (the test copies its files)")
    clone = tmp_path / "clone"
    copy_working_tree(clone)
    assert not (clone / "tests" / "node" / "node_modules").exists() and not (clone / ".venv").exists()
    return clone


def test_the_build_command_builds_the_bundled_site_with_the_system_python(tmp_path: Path) -> None:
    lines = readme_block_after("Build the bundled site")
    assert len(lines) == 1 and "venv" in lines[0], lines
    clone = _fresh_clone(tmp_path)
    _run_lines(lines, clone, _system_python_environment(tmp_path))
    assert (clone / "public" / "index.html").is_file() and (clone / ".venv" / "bin" / "blogbuild").exists()


def test_fast_tier_lines_pass_in_a_fresh_venv(tmp_path: Path) -> None:
    lines = readme_block_after("run the fast tier")
    assert lines[0].startswith("python3 -m venv .venv") and "[test]" in lines[0], lines
    clone = _fresh_clone(tmp_path)
    # A developer's machine, not CI: a missing optional tool is a skip there (CI=true makes it a failure).
    environment = _system_python_environment(tmp_path)
    snapshot = REPO.parent / "shared" / "papermod"   # beside the checkout, not beside the copy
    if "PAPERMOD_THEME" not in environment and (snapshot / "layouts").is_dir():
        environment["PAPERMOD_THEME"] = str(snapshot)
    completed = _run_lines(lines, clone, environment)
    # The test line joins pytest, ruff and mypy with ';' (each runs whatever the others say), so its status is
    # mypy's: read what each printed.
    output = completed.stdout
    assert re.search(r"\d+ passed", output) and not re.search(r"\d+ (failed|errors?)\b", output), output[-3000:]
    assert "All checks passed!" in output and "Success: no issues found" in output, output[-3000:]
