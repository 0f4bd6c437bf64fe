"""Build the repo's bundled site (content/, blogbuild.yaml, templates/, static/) in a temporary folder.

The browser, validity and deploy tests all start from the real site the project ships, copied so
that a test never writes into the working tree.
"""
from __future__ import annotations

import contextlib
import http.server
import io
import shutil
import threading
from functools import partial
from pathlib import Path
from typing import Iterator

from blogbuild.cli import main as blogbuild_main

REPO = Path(__file__).resolve().parent.parent.parent
SITE_PARTS = ("content", "blogbuild.yaml", "templates", "static")


def copy_bundled_site(target: Path) -> Path:
    """Copy the parts of the bundled site that exist into target; returns target."""
    target.mkdir(parents=True, exist_ok=True)
    for name in SITE_PARTS:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns(".blogbuild-cache"))
        elif source.is_file():
            shutil.copyfile(source, target / name)
    return target


def build_site(site_root: Path, base_url: str) -> Path:
    """Run `blogbuild build` in-process on site_root with base_url; returns the public/ folder."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = blogbuild_main(["build", "--root", str(site_root), "--base-url", base_url, "--no-cache",
                               "--jobs", "1", "--quiet"])
    if code != 0:
        raise AssertionError(f"blogbuild build failed with exit {code}:\n{stderr.getvalue()}")
    return site_root / "public"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:   # noqa: A002 (the base class's name)
        pass


@contextlib.contextmanager
def serve_folder(folder: Path, handler_class: type[http.server.SimpleHTTPRequestHandler] | None = None
                 ) -> Iterator[str]:
    """Serve folder over HTTP on 127.0.0.1 (a free port) in a thread; yields the base url 'http://…/'."""
    handler = partial(handler_class or _QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
