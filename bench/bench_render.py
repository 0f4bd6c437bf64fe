"""CPU time of the per-post stage (front matter, markdown, text metrics) over a synthetic corpus.

    python bench/bench_render.py --n 1000 --runs 3

One process, no pools, time.process_time(); the median of the runs is printed. Two ways through:
"render_post" is what a build does (HTML and text measures from one parse; the measures are the
difference to render_markdown alone), "html" measures by parsing the rendered HTML (text_metrics).
A figure, not a test: results are written into docs/performance.md by hand.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import synth  # noqa: E402  (bench/ is not a package)

from blogbuild.config import SiteConfig  # noqa: E402
from blogbuild.disk.frontmatter import parse_front_matter  # noqa: E402
from blogbuild.markdown import render_markdown, render_post  # noqa: E402
from blogbuild.core.model import SourceFile  # noqa: E402
from blogbuild.content.text import text_metrics  # noqa: E402


def one_run(sources: list[SourceFile], config: SiteConfig) -> tuple[float, float, float, float]:
    """(front matter, markdown, text metrics from the HTML, render_post) CPU seconds over all sources."""
    front_matter_seconds = markdown_seconds = text_seconds = post_seconds = 0.0
    for source in sources:
        started = time.process_time()
        front_matter = parse_front_matter(source)
        parsed = time.process_time()
        rendered = render_markdown(front_matter.body, path=source.path, line_offset=front_matter.body_line - 1,
                                   config=config)
        rendered_at = time.process_time()
        text_metrics(rendered.html, config=config)
        measured = time.process_time()
        render_post(front_matter.body, path=source.path, line_offset=front_matter.body_line - 1, config=config)
        posted = time.process_time()
        front_matter_seconds += parsed - started
        markdown_seconds += rendered_at - parsed
        text_seconds += measured - rendered_at
        post_seconds += posted - measured
    return front_matter_seconds, markdown_seconds, text_seconds, post_seconds


def main(argv: list[str] | None = None) -> int:
    """Print the median CPU seconds per stage."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args(argv)
    posts = synth.generate(n=options.n, seed=options.seed)
    sources = [SourceFile(path=f"content/posts/{index}.md", rel_path=f"posts/{index}.md",
                          text=synth.front_matter_text(post)) for index, post in enumerate(posts)]
    config = SiteConfig()
    one_run(sources[:50], config)   # warm the caches every build process warms (lexers, the parser)
    runs = [one_run(sources, config) for _ in range(options.runs)]
    names = ("front matter", "render_markdown", "text_metrics(html)", "render_post")
    print(f"{options.n} posts, seed {options.seed}, median of {options.runs} runs (CPU seconds, one process)")
    for index, name in enumerate(names):
        values = [run[index] for run in runs]
        print(f"  {name:19} {statistics.median(values):7.3f}   runs: {', '.join(f'{v:.3f}' for v in values)}")
    from_tokens = [run[3] - run[1] for run in runs]
    print(f"  {'measures from tokens (render_post - render_markdown)':19} {statistics.median(from_tokens):7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
