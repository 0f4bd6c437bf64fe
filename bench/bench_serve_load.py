"""Latency of `blogbuild serve` under many readers: p50/p95/p99 of GET requests over concurrent connections,
without saves and while a post is saved every few hundred milliseconds.

    python bench/bench_serve_load.py [--n 100] [--requests 2000] [--connections 50] [--save-every 0.25]
                                     [--out DIR]

Writes a synthetic site (bench/synth.py), starts `blogbuild serve` on 127.0.0.1 as a subprocess (loopback only,
nothing else is contacted), and once it answers sends the requests from this process: `--connections` client
processes at once, each with one kept-alive HTTP/1.1 connection, asking in turn for the site's pages and assets
(home, posts, lists, stylesheets, scripts, the reload script). Each request's time is from sending it to its
last byte. Then the same again while a post is appended to every `--save-every` seconds (each save a rebuild).
Prints the load (`uptime`), the server's CPU seconds over each round, and per round p50, p95, p99 and max in
milliseconds, with the requests that failed. A script that prints figures, not a test: it never asserts a time.
"""
from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synth  # noqa: E402  (bench/synth.py, beside this file)

TIMEOUT = 30.0    # per request: a bound on a broken run, not a figure


def _free_port() -> int:
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _fetch(connection: http.client.HTTPConnection, path: str) -> tuple[int, bytes]:
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read()


def _reader(port: int, paths: list[str], count: int, start: "multiprocessing.synchronize.Event",
            results: "multiprocessing.Queue[list[tuple[float, int]]]") -> None:
    """One client: one kept-alive connection, `count` requests; puts [(seconds, status)] on results."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    times: list[tuple[float, int]] = []
    start.wait()
    for index in range(count):
        path = paths[index % len(paths)]
        began = time.perf_counter()
        try:
            status, _ = _fetch(connection, path)
        except (OSError, http.client.HTTPException):
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
            status = 0
        times.append((time.perf_counter() - began, status))
    connection.close()
    results.put(times)


def _process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process and its waited-for children, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(value) for value in fields[11:15]) / ticks


def _round(port: int, paths: list[str], requests: int, connections: int) -> list[tuple[float, int]]:
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    results: multiprocessing.Queue = context.Queue()
    share, extra = divmod(requests, connections)
    workers = [context.Process(target=_reader, args=(port, paths[index:] + paths[:index],
                                                     share + (1 if index < extra else 0), start, results))
               for index in range(connections)]
    for worker in workers:
        worker.start()
    time.sleep(1.0)   # every client started and connected before the first request
    start.set()
    gathered: list[tuple[float, int]] = []
    for _ in workers:
        gathered += results.get(timeout=TIMEOUT * requests)
    for worker in workers:
        worker.join()
    return gathered


def _report(name: str, times: list[tuple[float, int]], cpu: float) -> None:
    good = sorted(seconds * 1000 for seconds, status in times if status == 200)
    failed = sum(1 for _, status in times if status != 200)
    if not good:
        print(f"{name:>12}: every request failed ({failed})")
        return
    quantiles = statistics.quantiles(good, n=100, method="inclusive")
    print(f"{name:>12}: {len(times)} requests, p50 {quantiles[49]:.1f} ms, p95 {quantiles[94]:.1f} ms, "
          f"p99 {quantiles[98]:.1f} ms, max {good[-1]:.1f} ms, {failed} failed; server CPU {cpu:.2f} s")


def _site_paths(site: Path, port: int) -> list[str]:
    """Pages and assets of the built site, as a reader's browser would ask for them."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    _, home = _fetch(connection, "/")
    connection.close()
    assets = sorted(set(re.findall(rb'(?:href|src)="(/[^"#?]*\.(?:css|js|svg|png))"', home)))
    posts = sorted(f"/posts/{path.stem}/" for path in (site / "content/posts").glob("*.md"))[:20]
    return ["/", "/posts/", "/tags/", "/archives/", *posts, *(asset.decode() for asset in assets),
            "/__blogbuild/reload.js"]


def _saver(post: Path, every: float, stop: threading.Event) -> int:
    saves = 0
    text = post.read_text(encoding="utf-8")
    while not stop.wait(every):
        saves += 1
        post.write_text(text + f"\n\nSaved line {saves}.\n", encoding="utf-8")
    return saves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100, help="posts in the synthetic site (default: 100)")
    parser.add_argument("--requests", type=int, default=2000, help="requests per round (default: 2000)")
    parser.add_argument("--connections", type=int, default=50, help="concurrent connections (default: 50)")
    parser.add_argument("--save-every", type=float, default=0.25, help="seconds between saves (default: 0.25)")
    parser.add_argument("--out", help="site folder (default: a temporary one)")
    args = parser.parse_args(argv)
    folder = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="bench-serve-load-"))
    site = synth.write_blogbuild(synth.generate(args.n, 1), folder / "site")
    port = _free_port()
    log = open(folder / "serve.log", "wb")
    server = subprocess.Popen([sys.executable, "-m", "blogbuild", "serve", "--port", str(port), "-q"], cwd=site,
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 600
        while True:
            if server.poll() is not None:
                raise SystemExit(f"blogbuild serve exited with {server.returncode}; see {folder / 'serve.log'}")
            try:
                paths = _site_paths(site, port)
                break
            except (OSError, http.client.HTTPException):
                if time.monotonic() > deadline:
                    raise SystemExit("blogbuild serve did not answer within 600 s") from None
                time.sleep(0.2)
        print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min); "
              f"{args.n} posts, {len(paths)} paths, {args.connections} connections, {args.requests} requests a round")
        cpu = _process_cpu(server.pid)
        quiet = _round(port, paths, args.requests, args.connections)
        _report("no saves", quiet, _process_cpu(server.pid) - cpu)
        post = sorted((site / "content/posts").glob("*.md"))[0]
        stop = threading.Event()
        saves: list[int] = []
        saver = threading.Thread(target=lambda: saves.append(_saver(post, args.save_every, stop)))
        cpu = _process_cpu(server.pid)
        saver.start()
        try:
            busy = _round(port, paths, args.requests, args.connections)
        finally:
            stop.set()
            saver.join()
        _report("with saves", busy, _process_cpu(server.pid) - cpu)
        print(f"{'':>12}  ({saves[0] if saves else 0} saves, one every {args.save_every} s)")
        print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
