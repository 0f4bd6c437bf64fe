"""The search page in Chromium with the CPU throttled 4x: what a first query downloads and how long it takes.

    python bench/bench_search.py --n 10000 [--out /tmp/bench-search] [--throttle 4] [--runs 3]

builds bench/synth.py's blog of n posts with `search_index: sharded` (opt-in) (once: an existing OUT/blogbuild/public/ is reused), serves public/
on 127.0.0.1, opens /search/ in Debian's chromium (/usr/bin/chromium, through Playwright) with
Emulation.setCPUThrottlingRate, and times inside the page: focus -> search/meta.json fetched, parsed and
prepared (the `blogbuild:search-ready` event); then submit -> results and the first screen's snippets
shown (the `blogbuild:search` event). Transfer is every response the query caused, raw and gzipped (-9) as a
compressing server would send it; the meta file is counted in the first query's transfer. A second run of
the same query (shards and chunks cached) is timed too. Prints a table; asserts nothing.
"""
from __future__ import annotations

import argparse
import contextlib
import gzip
import http.server
import importlib.util
import os
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

BENCH = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
QUERIES = ["显存", "模型 训练", "the", "a", "kernel", "GPU 显存 带宽", "调度器", "sched 流水线并行", "attention"]


def build(n: int, out: Path) -> Path:
    """OUT/blogbuild/public of the synthetic blog of n posts, built once."""
    public = out / "blogbuild" / "public"
    if (public / "search" / "meta.json").is_file():
        return public
    spec = importlib.util.spec_from_file_location("bench_synth", BENCH / "synth.py")
    synth = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = synth
    spec.loader.exec_module(synth)
    site = synth.write_blogbuild(synth.generate(n, 1), out / "blogbuild")
    config = site / "blogbuild.yaml"   # search_index: sharded (the default is whole)
    config.write_text(config.read_text(encoding="utf-8").rstrip("\n") + "\nsearch_index: sharded\n", encoding="utf-8")
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "blogbuild", "build", "--quiet", "--no-cache"],
                   cwd=out / "blogbuild", check=True)
    print(f"built {n} posts in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return public


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """folder over HTTP on 127.0.0.1; yields the base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


TIME_QUERY = """(query) => new Promise((resolve) => {
  const input = document.getElementById('search-input');
  const list = document.getElementById('search-results');
  const started = performance.now();
  document.addEventListener('blogbuild:search', (event) => {
    resolve({ms: performance.now() - started, count: event.detail.count,
             shown: list.querySelectorAll('.search-result').length,
             marks: list.querySelectorAll('.search-snippet mark').length});
  }, {once: true});
  input.value = query;
  input.form.requestSubmit();
})"""


FOCUS = """() => new Promise((resolve) => {
  const started = performance.now();
  document.addEventListener('blogbuild:search-ready', () => resolve(performance.now() - started), {once: true});
  document.getElementById('search-input').focus();
})"""


def measure(base: str, public: Path, throttle: float, queries: list[str]) -> list[dict]:
    """One fresh page per query: focus (meta), then the query timed twice (cold, then cached)."""
    from playwright.sync_api import sync_playwright
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        for query in queries:
            context = browser.new_context()
            page = context.new_page()
            fetched: list[str] = []
            page.on("requestfinished", lambda request, fetched=fetched: fetched.append(urlsplit(request.url).path))
            session = context.new_cdp_session(page)
            session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            page.goto(base + "search/", wait_until="load")
            before = len(fetched)
            focus_ms = page.evaluate(FOCUS)
            first = page.evaluate(TIME_QUERY, query)
            query_files = [path for path in fetched[before:] if "/search/" in path]
            again = page.evaluate(TIME_QUERY, query)
            files = [public / Path(path.lstrip("/")) for path in dict.fromkeys(query_files)]
            raw = sum(file.stat().st_size for file in files)
            zipped = sum(len(gzip.compress(file.read_bytes(), 9)) for file in files)
            rows.append({"query": query, "focus_ms": focus_ms, "found": first["count"], "shown": first["shown"],
                         "marks": first["marks"],
                         "ms": first["ms"], "again_ms": again["ms"], "files": len(files), "raw": raw, "gzip": zipped})
            context.close()
        browser.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="posts (default 10000)")
    parser.add_argument("--out", default="/tmp/bench-search", help="where the site is generated and built")
    parser.add_argument("--throttle", type=float, default=4.0, help="Chromium CPU slowdown (default 4)")
    parser.add_argument("--runs", type=int, default=1, help="times the query list is run (default 1)")
    options = parser.parse_args(argv)
    public = build(options.n, Path(options.out))
    meta = public / "search" / "meta.json"
    print(f"{options.n} posts, CPU throttled {options.throttle:g}x; meta.json {meta.stat().st_size:,} bytes "
          f"({len(gzip.compress(meta.read_bytes(), 9)):,} gzipped); index.json "
          f"{(public / 'index.json').stat().st_size:,} bytes; load: {os.getloadavg()[0]:.2f}")
    print("| query | found | focus → meta ready ms | first query ms | again ms | files | transfer raw | transfer gzip |")
    print("|---|---|---|---|---|---|---|---|")
    with serve(public) as base:
        for _ in range(options.runs):
            for row in measure(base, public, options.throttle, QUERIES):
                print(f"| {row['query']} | {row['found']} | {row['focus_ms']:.0f} | {row['ms']:.1f} | {row['again_ms']:.1f} | {row['files']} "
                      f"| {row['raw']:,} | {row['gzip']:,} |")
    print(f"load after: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

