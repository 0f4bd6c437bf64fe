"""blogbuild as real processes: `build` run to its end, `serve` as a process whose lines a test reads."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HOUR_AGO = time.time() - 3600


def blogbuild(site: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "blogbuild", "build", "-j", "1", *args], cwd=site,
                          capture_output=True, text=True, timeout=300)


def basic_site(tmp_path: Path) -> Path:
    """A copy of tests/sites/basic in tmp_path/site, its inputs dated an hour back."""
    import shutil
    root = tmp_path / "site"
    shutil.copytree(Path(__file__).resolve().parent.parent / "sites" / "basic", root)
    age(root)
    return root


def age(folder: Path) -> None:
    """Date every input back, as files edited well before a build are (younger ones are 'racy')."""
    for path in [folder, *folder.rglob("*")]:
        os.utime(path, (HOUR_AGO, HOUR_AGO))


class Server:
    """`blogbuild serve --port 0` as a process: its terminal lines, its address, and how it ends."""

    def __init__(self, site: Path, port: int = 0, *args: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "blogbuild", "serve", "--root", str(site),
                                         "--port", str(port), *args], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        while not any("Ctrl-C to stop" in line for line in self.lines):
            line = self.process.stdout.readline()
            assert line, "serve exited before it was ready:\n" + "".join(self.lines)
            self.lines.append(line)
        ready = self.lines[-1]
        self.url = ready.split(" at ", 1)[1].split(" (", 1)[0]

    @property
    def start_line(self) -> str:
        """The terminal line of the server's own first build."""
        return next(line for line in self.lines if " in " in line and ": start" in line)

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=60) as response:
            return response.read()

    def stop(self, how: int = signal.SIGINT) -> str:
        """Send the signal, wait for the process to end; the rest of its output."""
        self.process.send_signal(how)
        rest, _ = self.process.communicate(timeout=120)
        if how != signal.SIGKILL:
            assert self.process.returncode == 0, "".join(self.lines) + rest
        return rest

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate(timeout=60)


def free_port() -> int:
    """A port free now on 127.0.0.1: two servers given it have the same address, so the same configuration."""
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
