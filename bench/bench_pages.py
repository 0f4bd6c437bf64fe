"""Per-page template cost as a series and a tag grow: it should stay flat.

    python bench/bench_pages.py [--sizes 250,500,1000,2000,5000] [--sample 200]

One real post is built from synth.py's corpus (so its HTML, TOC and metrics are realistic), then copied
to N posts that all carry one tag, the first min(N, 2000) of them in one series (so at N=5000 a series
of 2,000 parts and a tag on 5,000 posts). The site model and the page plan come from blogbuild's own
build_site and Planner; the templates are the default theme. Printed per size: milliseconds per post
page (a sample spread over the series), per page of the tag's list and of the series page (both
paginated), and the median sizes of a post page and a series page.
In-process, one core; no assertion: a script that prints numbers.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synth  # noqa: E402  (bench/ is a folder of scripts, not a package)

from blogbuild.pipeline import Builder  # noqa: E402
from blogbuild.config import load_config  # noqa: E402
from blogbuild.core.model import Post  # noqa: E402
from blogbuild.publish.outputs import PlannedPage  # noqa: E402
from blogbuild.publish.planner import Planner, post_list_key, render_template  # noqa: E402
from blogbuild.site.site import build_site  # noqa: E402

SERIES_CAP = 2000
START = datetime(2016, 1, 1, tzinfo=timezone(timedelta(hours=8)))


def template_post(folder: Path) -> tuple[Post, object, object]:
    """One post built for real from the corpus, with the Builder's config and templates."""
    synth.write_blogbuild(synth.generate(3, 1, "code-series"), folder)
    config = load_config(None, root=folder)
    builder = Builder(config)
    result = builder.build()
    if not result.ok:
        raise SystemExit("the template site did not build")
    templates = builder._load_templates().templates
    return max(result.site.posts, key=lambda post: len(post.content_html)), config, templates


def copies(post: Post, count: int) -> list[Post]:
    """count posts like post, one tag on all of them, the first SERIES_CAP in one series."""
    made = []
    for number in range(count):
        date = START + timedelta(hours=number)
        in_series = number < SERIES_CAP
        made.append(replace(post, source=f"content/posts/p{number:05d}.md", rel_path=f"posts/p{number:05d}.md",
                            slug=f"p{number:05d}", url=f"/posts/p{number:05d}/", title=f"{post.title} {number}",
                            date=date, date_text=date.isoformat(), tags=("LLM",), categories=("系统",),
                            series=("long",) if in_series else (), series_order=number + 1 if in_series else None,
                            aliases=(), fingerprint=f"copy-{number}"))
    return made


def timed(templates: object, pages: list[PlannedPage]) -> tuple[float, int]:
    """Median milliseconds per page over pages, and the median size in bytes."""
    seconds, sizes = [], []
    for page in pages:
        started = time.perf_counter()
        data = render_template(templates, page)  # type: ignore[arg-type]
        seconds.append(time.perf_counter() - started)
        sizes.append(len(data))
    return 1000 * statistics.median(seconds), int(statistics.median(sizes))


def main(argv: list[str] | None = None) -> int:
    """Print per-page milliseconds at each size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="250,500,1000,2000,5000", help="posts per run, comma-separated")
    parser.add_argument("--sample", type=int, default=200, help="post pages timed per size")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as folder:
        post, config, templates = template_post(Path(folder))
        print("| posts | series parts | tag posts | post page ms | post page bytes | tag list page ms "
              "| series page ms | series page KiB |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for size in (int(value) for value in args.sizes.split(",")):
            site = build_site(copies(post, size), config, now=datetime.now(timezone.utc))
            pages, _ = Planner(site, templates, post_list_key).plan()  # type: ignore[arg-type]
            in_series = [page for page in pages if page.template == "post.html"
                         and page.context["post"].series]
            step = max(1, len(in_series) // args.sample)
            post_ms, post_bytes = timed(templates, in_series[::step][:args.sample])
            tag_pages = [page for page in pages if page.url.startswith("/tags/llm/")]
            tag_ms, _ = timed(templates, tag_pages[::max(1, len(tag_pages) // 50)][:50])
            series_pages = [page for page in pages if page.url.startswith("/series/long/")]
            series_ms, series_bytes = timed(templates, series_pages[::max(1, len(series_pages) // 50)][:50])
            parts = min(size, SERIES_CAP)
            print(f"| {size} | {parts} | {size} | {post_ms:.2f} | {post_bytes} | {tag_ms:.2f} "
                  f"| {series_ms:.2f} | {series_bytes / 1024:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
