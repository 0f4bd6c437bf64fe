"""Faults the server and the build see: a file made unreadable and readable again, an unreadable static folder,
the content folder deleted while serving.

Real processes and real permission changes. As root, permissions bind no one, so the build or server under test
runs without the capabilities that let root read anything (util-linux `setpriv`), as any writer's process runs."""
from __future__ import annotations

import http.client
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from blogbuild.commands.serve import ServeOptions
from blogbuild.serve import DevServer

WAIT_SECONDS = 60.0   # a bound on waiting for a rebuild, not a performance claim
SITE = {
    "blogbuild.yaml": "title: Faults\n",
    "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-01T10:00:00+08:00\n---\nFirst words.\n",
    "content/posts/b.md": "---\ntitle: B\ndate: 2024-01-02T10:00:00+08:00\n---\nSecond words.\n",
    "static/img/logo.txt": "logo\n",
}


def _write_site(root: Path) -> Path:
    for relative, text in SITE.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _unprivileged() -> list[str]:
    """The command prefix that makes permissions bind this process's children, as they bind a writer's."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without util-linux setpriv: permissions cannot be made to bind")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _status(port: int) -> dict | None:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/__blogbuild/status")
        body = connection.getresponse().read()
        connection.close()
        return json.loads(body)
    except (OSError, ValueError, http.client.HTTPException):
        return None


def _wait(predicate, message: str):
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {message}")


def test_a_chmod_cycle_shows_the_read_error_and_clears_it(tmp_path):
    site = _write_site(tmp_path / "site")
    port = _free_port()
    server = subprocess.Popen([*_unprivileged(), sys.executable, "-m", "blogbuild", "serve", "--port", str(port),
                               "-q"], cwd=site, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              start_new_session=True)
    post = site / "content/posts/a.md"
    try:
        _wait(lambda: (_status(port) or {}).get("ok") and _status(port)["generation"] >= 1, "the first build")
        post.chmod(0)
        failed = _wait(lambda: (lambda status: status if status and not status["ok"] else None)(_status(port)),
                       "the read error after chmod 000")
        assert any(error["path"] == "content/posts/a.md" and "cannot read" in error["message"]
                   for error in failed["errors"]), failed
        post.chmod(0o644)
        _wait(lambda: (_status(port) or {}).get("ok"), "the error to clear after chmod 644")
    finally:
        post.chmod(0o644)
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


def test_an_unreadable_static_folder_is_an_error_not_a_silent_drop(tmp_path):
    site = _write_site(tmp_path / "site")
    folder = site / "static/img"
    folder.chmod(0)
    try:
        completed = subprocess.run([*_unprivileged(), sys.executable, "-m", "blogbuild", "build", "-q", "-j", "1"],
                                   cwd=site, capture_output=True, text=True, timeout=300)
    finally:
        folder.chmod(0o755)
    assert completed.returncode == 1, completed.stdout + completed.stderr
    assert "static/img" in completed.stderr and "cannot read this folder" in completed.stderr, completed.stderr
    assert "chmod u+rx" in completed.stderr and "Traceback" not in completed.stderr
    assert not (site / "public").exists()   # nothing published without the folder's files
    completed = subprocess.run([sys.executable, "-m", "blogbuild", "build", "-q", "-j", "1"], cwd=site,
                               capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr   # the fix, applied, removes the message
    assert (site / "public/img/logo.txt").read_text(encoding="utf-8") == "logo\n"


def test_deleting_the_content_folder_while_serving_is_an_error_that_clears(tmp_path):
    site = _write_site(tmp_path / "site")
    server = DevServer(ServeOptions(root=str(site), port=0, quiet=True), out=io.StringIO(), quiet_seconds=0.05)
    with server:
        kept = tmp_path / "kept-content"
        count = server.rebuilds
        shutil.move(str(site / "content"), str(kept))
        _wait(lambda: server.rebuilds > count and not server.state.ok, "the failed build")
        assert any("content folder is missing" in error.message for error in server.state.errors)
        assert server.state.result is not None and "posts/a/index.html" in server.state.result.files
        count = server.rebuilds
        shutil.move(str(kept), str(site / "content"))
        _wait(lambda: server.rebuilds > count and server.state.ok, "the good build after the folder came back")
        assert "posts/a/index.html" in server.state.result.files
