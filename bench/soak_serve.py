"""Soak `blogbuild serve`: many edits over a few minutes, memory sampled from /proc; a script, not a test.

    python bench/soak_serve.py [--edits 200] [--interval 0.8] [--posts 60] [--out DIR] [--keep]

Writes a small site (posts with tags, series, math and code), starts `python -m blogbuild serve` on a free
loopback port as a subprocess, and then, every --interval seconds, makes one edit, cycling through kinds:
append a line to a post, retitle a post, add a post, delete a post it added, break a post's front matter
(the rebuild must fail and keep serving the last good site), fix it again, touch a template. After each edit
it polls /__blogbuild/status until the generation moves (or the failure shows), fetches two pages, checks them
for the edit (never a 5xx, never a half page), and samples VmRSS and VmHWM of the server from /proc/PID/status.

Prints a table every 20 edits and a summary: RSS after warm-up, at the end, the growth per 100 edits (a
least-squares slope over the second half), the peak, rebuild latency median and p95, and any failures.
Exit 1 when a check failed or memory grew more than --max-growth-mb per 100 edits.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    """A port that was free a moment ago on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post_text(number: int, title: str, extra: str = "") -> str:
    """One post of the soak site."""
    return (f'---\ntitle: "{title}"\ndate: 2025-01-{number % 28 + 1:02d}T10:00:00+08:00\n'
            f'tags: ["t{number % 6}", "soak"]\nseries: ["s{number % 3}"]\n---\n'
            f"Post {number} with math $a_{number}^2$ and some words. " * 5
            + f"\n\n```python\nprint({number})\n```\n\n中文段落，用来测试。{extra}\n")


def make_site(root: Path, posts: int) -> None:
    """The site the server watches."""
    (root / "content" / "posts").mkdir(parents=True)
    (root / "templates").mkdir()
    (root / "blogbuild.yaml").write_text('title: "Soak"\npaginate: 10\n', encoding="utf-8")
    for number in range(posts):
        (root / "content" / "posts" / f"p{number:03d}.md").write_text(post_text(number, f"Post {number}"),
                                                                       encoding="utf-8")


def memory_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process in kB, from /proc/PID/status."""
    values = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as handle:
        for line in handle:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0])
    return values["VmRSS"], values["VmHWM"]


def fetch(url: str, timeout: float = 10.0) -> tuple[int, bytes]:
    """GET url; (status, body); HTTP errors are returned, not raised."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def status(base: str) -> dict:
    """The server's /__blogbuild/status JSON."""
    code, body = fetch(base + "__blogbuild/status")
    if code != 200:
        raise RuntimeError(f"status answered {code}")
    return json.loads(body)


def wait_for(base: str, predicate, timeout: float) -> dict | None:
    """Poll the status until predicate(status) holds; the status, or None after timeout seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            current = status(base)
            if predicate(current):
                return current
        except (OSError, RuntimeError, ValueError):
            pass
        time.sleep(0.02)
    return None


def main() -> int:
    """Run the soak and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.8, help="seconds between edits (default 0.8)")
    parser.add_argument("--posts", type=int, default=60)
    parser.add_argument("--out", help="site folder to use (default: a temp folder)")
    parser.add_argument("--keep", action="store_true", help="keep the temp site folder")
    parser.add_argument("--max-growth-mb", type=float, default=5.0,
                        help="fail when RSS grows more than this per 100 edits (default 5)")
    options = parser.parse_args()

    root = Path(options.out) if options.out else Path(tempfile.mkdtemp(prefix="blogbuild-soak-"))
    if root.exists() and any(root.iterdir()):
        print(f"{root} is not empty", file=sys.stderr)
        return 2
    make_site(root, options.posts)
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen([sys.executable, "-m", "blogbuild", "serve", "--port", str(port), "--quiet"],
                              cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    failures: list[str] = []
    samples: list[tuple[int, int, int]] = []     # (edit number, rss kB, hwm kB)
    latencies: list[float] = []
    started = time.monotonic()
    try:
        first = wait_for(base, lambda current: current["ok"], 120)
        if first is None:
            raise RuntimeError("the server did not come up with a good build in 120 s")
        samples.append((0, *memory_kb(server.pid)))
        posts_dir = root / "content" / "posts"
        added: list[Path] = []
        broken: Path | None = None
        print(f"site {root}, {options.posts} posts, server pid {server.pid} on {base}")
        print(f"{'edit':>5} {'kind':<10} {'rss MB':>8} {'peak MB':>8} {'rebuild s':>9}")
        for edit in range(1, options.edits + 1):
            before = status(base)["generation"]
            kind = ("append", "retitle", "add", "remove", "break", "fix", "template")[edit % 7]
            number = edit % options.posts
            marker = f"soak-edit-{edit}"
            page = f"posts/p{number:03d}/"
            expect_ok = True
            if kind == "append":
                (posts_dir / f"p{number:03d}.md").write_text(post_text(number, f"Post {number}", marker),
                                                             encoding="utf-8")
            elif kind == "retitle":
                (posts_dir / f"p{number:03d}.md").write_text(post_text(number, f"Post {number} {marker}"),
                                                             encoding="utf-8")
            elif kind == "add":
                path = posts_dir / f"added-{edit}.md"
                path.write_text(post_text(edit, f"Added {marker}"), encoding="utf-8")
                added.append(path)
                page = f"posts/added-{edit}/"
            elif kind == "remove" and added:
                added.pop(0).unlink()
                page, marker = "", ""
            elif kind == "break":
                broken = posts_dir / f"p{number:03d}.md"
                broken.write_text('---\ntitle: [never closed\n---\nbody\n', encoding="utf-8")
                expect_ok, page, marker = False, "", ""
            elif kind == "fix" and broken is not None:
                broken.write_text(post_text(number, f"Post {number}", marker), encoding="utf-8")
                page = "posts/" + broken.stem + "/"
                broken = None
            else:   # a template change rebuilds every post page
                (root / "templates" / "notice.txt").write_text(marker, encoding="utf-8")
                (root / "templates" / "404.html").write_text(
                    '{% extends "base.html" %}{% block content %}<p>' + marker + "</p>{% endblock %}\n",
                    encoding="utf-8")
                page = "404.html"
            edited = time.monotonic()
            current = wait_for(base, lambda state, before=before, expect_ok=expect_ok: state["generation"] != before or
                               (not expect_ok and not state["ok"]), 60)
            if current is None:
                failures.append(f"edit {edit} ({kind}): no rebuild seen within 60 s")
            else:
                latencies.append(time.monotonic() - edited)
                if current["ok"] != expect_ok:
                    failures.append(f"edit {edit} ({kind}): ok={current['ok']}, expected {expect_ok}")
            for url in ("", page):
                code, body = fetch(base + url)
                if code >= 500:
                    failures.append(f"edit {edit} ({kind}): {code} for /{url}")
                elif url.endswith(("/", ".html")) and code == 200 and b"</html>" not in body:
                    failures.append(f"edit {edit} ({kind}): half page for /{url}")
                elif url and marker and code == 200 and marker.encode() not in body:
                    failures.append(f"edit {edit} ({kind}): /{url} does not show the edit")
            rss, hwm = memory_kb(server.pid)
            samples.append((edit, rss, hwm))
            if edit % 20 == 0:
                print(f"{edit:>5} {kind:<10} {rss / 1024:>8.1f} {hwm / 1024:>8.1f} "
                      f"{latencies[-1] if latencies else 0:>9.2f}")
            time.sleep(max(0.0, options.interval - (time.monotonic() - edited)))
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if not options.out and not options.keep:
            shutil.rmtree(root, ignore_errors=True)
    elapsed = time.monotonic() - started
    second_half = samples[len(samples) // 2:]
    xs = [float(edit) for edit, _, _ in second_half]
    ys = [rss / 1024 for _, rss, _ in second_half]
    slope = statistics.linear_regression(xs, ys).slope * 100 if len(second_half) > 2 else 0.0
    warm = samples[min(20, len(samples) - 1)][1] / 1024
    print(f"\n{len(samples) - 1} edits in {elapsed:.0f} s on {os.cpu_count()} cores")
    print(f"RSS after start {samples[0][1] / 1024:.1f} MB, after 20 edits {warm:.1f} MB, "
          f"at the end {samples[-1][1] / 1024:.1f} MB, peak {max(hwm for _, _, hwm in samples) / 1024:.1f} MB")
    print(f"RSS growth over the second half: {slope:+.2f} MB per 100 edits")
    if latencies:
        ordered = sorted(latencies)
        print(f"rebuild seen after: median {statistics.median(ordered):.2f} s, "
              f"p95 {ordered[int(len(ordered) * 0.95) - 1]:.2f} s, max {ordered[-1]:.2f} s")
    print(f"failures: {len(failures)}")
    for failure in failures[:20]:
        print("  " + failure)
    if slope > options.max_growth_mb:
        print(f"memory grows faster than {options.max_growth_mb} MB per 100 edits")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
