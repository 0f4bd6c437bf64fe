"""What build-time math costs: cold and warm builds with math typeset by KaTeX (math_render: build)
against the same builds leaving the TeX for the browser (math_render: browser, the pre-KaTeX pipeline).

    python bench/bench_math.py --n 1000 --runs 3                 # the bench corpus (synth.py)
    python bench/bench_math.py --n 1000 --runs 3 --dense 30      # plus ~30 formulas per post, many repeated
    python bench/bench_math.py --n 10000 --runs 1
    python bench/bench_math.py --engine 3000                     # the engine alone, per formula

Cases, each run in a fresh `blogbuild build` subprocess, the two modes alternating run by run:
cold (output and .blogbuild-cache removed), warm no-op (the same build again), and "formula cache only"
(the post cache removed, .blogbuild-cache/katex-*.sqlite kept: every post is rendered again, as after an
upgrade, but no formula is typeset again). Prints a markdown table of median wall seconds and the cost
per formula typeset (distinct formulas per post, summed over posts). A script, not a test: it asserts
nothing about time.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import synth  # noqa: E402  (bench/ is a folder of scripts, not a package)


def _dense_paragraph(rng: random.Random, count: int) -> str:
    """count formulas, drawn from synth's pools (so many repeat within a post and across posts)."""
    pieces = []
    for index in range(count):
        if index % 6 == 5:
            pieces.append("\n\n$$\n" + rng.choice(synth.MATH_DISPLAY) + "\n$$\n\n")
        else:
            pieces.append(f"其中 ${rng.choice(synth.MATH_INLINE)}$ 是第 {index} 个量。")
    return "\n\n" + "".join(pieces) + "\n"


def make_corpus(n: int, seed: int, dense: int, folder: Path, mode: str) -> Path:
    """The synthetic site for one mode (its own folder: the modes' caches must not meet)."""
    site = folder / f"site-{mode}"
    if site.exists():
        shutil.rmtree(site)
    posts = synth.generate(n=n, seed=seed)
    if dense:
        rng = random.Random(seed)
        posts = [replace(post, body=post.body + _dense_paragraph(rng, dense), math=True) for post in posts]
    synth.write_blogbuild(posts, site)
    config = site / "blogbuild.yaml"
    config.write_text(config.read_text(encoding="utf-8") + f"\nmath_render: {mode}\n", encoding="utf-8")
    return site


def count_formulas(site: Path) -> tuple[int, int]:
    """(formulas written, distinct formulas per post summed): what KaTeX is asked to typeset cold."""
    total = distinct = 0
    for path in (site / "content").rglob("*.md"):
        body = path.read_text(encoding="utf-8").split("\n---\n", 1)[-1]
        body = re.sub(r"```.*?```", "", body, flags=re.DOTALL)
        found = re.findall(r"\$\$\n(.*?)\n\$\$", body, flags=re.DOTALL)
        found += re.findall(r"(?<!\$)\$([^$\n]+)\$(?!\$)", re.sub(r"\$\$\n.*?\n\$\$", "", body, flags=re.DOTALL))
        total += len(found)
        distinct += len(set(found))
    return total, distinct


def run_build(site: Path, jobs: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process tree) of one `blogbuild build` subprocess."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "blogbuild", "build", "--root", str(site), "--quiet",
                             "--jobs", str(jobs)], capture_output=True, text=True, env=environment, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"build failed in {site}:\n{result.stderr[-2000:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def clear(site: Path, *, keep_formulas: bool = False) -> None:
    """Remove the output and the caches (all, or all but the formula cache)."""
    for name in ("public",):
        shutil.rmtree(site / name, ignore_errors=True)
    for spare in site.glob(".blogbuild-spare-*"):
        shutil.rmtree(spare, ignore_errors=True)
    cache = site / ".blogbuild-cache"
    if not cache.exists():
        return
    for item in cache.iterdir():
        if keep_formulas and item.name.startswith("katex-"):
            continue
        if item.is_dir():
            shutil.rmtree(item)
        else:
            item.unlink()


def measure(sites: dict[str, Path], runs: int, jobs: int) -> dict[str, dict[str, list[tuple[float, float]]]]:
    """Every case for both modes, alternating the modes within each run."""
    times: dict[str, dict[str, list[tuple[float, float]]]] = {
        mode: {"cold": [], "warm": [], "formula cache only": []} for mode in sites}
    for _ in range(runs):
        for mode, site in sites.items():
            clear(site)
            times[mode]["cold"].append(run_build(site, jobs))
            times[mode]["warm"].append(run_build(site, jobs))
            clear(site, keep_formulas=True)
            times[mode]["formula cache only"].append(run_build(site, jobs))
    return times


def measure_engine(count: int) -> None:
    """KaTeX in V8 alone: start-up, then distinct formulas one per call and all in one call."""
    from blogbuild.content import katex
    katex.set_cache_file(None)
    started = time.perf_counter()
    katex.typeset([("x", False)])
    print(f"engine start (V8 isolate + KaTeX loaded, first formula): {time.perf_counter() - started:.3f} s")
    pool = synth.MATH_INLINE + synth.MATH_DISPLAY
    for label, batch in (("one formula per call", 1), ("one call per 30 formulas", 30)):
        formulas = [(f"{pool[index % len(pool)]} + y_{{{index}}}", index % 7 == 0) for index in range(count)]
        katex.forget_renders()
        started = time.perf_counter()
        for start in range(0, count, batch):
            katex.typeset(formulas[start:start + batch])
        elapsed = time.perf_counter() - started
        print(f"{label}: {elapsed / count * 1000:.3f} ms per distinct formula ({count} formulas)")
    formulas = [(pool[index % len(pool)], False) for index in range(count)]
    started = time.perf_counter()
    for start in range(0, count, 30):
        katex.typeset(formulas[start:start + 30])
    print(f"repeated formulas (remembered by the process): "
          f"{(time.perf_counter() - started) / count * 1000:.4f} ms per formula")


def main(argv: list[str]) -> int:
    """Build the corpus, measure, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--dense", type=int, default=0, help="add this many formulas to every post")
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--engine", type=int, metavar="N", default=0,
                        help="measure the engine alone on N distinct formulas instead of builds")
    options = parser.parse_args(argv)
    if options.engine:
        measure_engine(options.engine)
        return 0
    work = options.work or Path(f"/tmp/blogbuild-bench-math-n{options.n}-d{options.dense}")
    work.mkdir(parents=True, exist_ok=True)
    sites = {mode: make_corpus(options.n, options.seed, options.dense, work, mode) for mode in ("browser", "build")}
    total, distinct = count_formulas(sites["build"])
    times = measure(sites, options.runs, options.jobs)
    print(f"{options.n} posts, {total} formulas ({distinct} distinct per post, summed), --jobs {options.jobs}, "
          f"{options.runs} runs\n")
    print("| case | browser: wall s | build: wall s (runs) | wall cost | browser: CPU s | build: CPU s "
          "| CPU cost | CPU per formula |")
    print("|---|---|---|---|---|---|---|---|")
    for case in ("cold", "warm", "formula cache only"):
        wall = [statistics.median(value[0] for value in times[mode][case]) for mode in ("browser", "build")]
        cpu = [statistics.median(value[1] for value in times[mode][case]) for mode in ("browser", "build")]
        per_formula = (cpu[1] - cpu[0]) / distinct * 1000 if distinct else 0.0
        runs = ", ".join(f"{value[0]:.2f}" for value in times["build"][case])
        print(f"| {case} | {wall[0]:.2f} | {wall[1]:.2f} ({runs}) | {100 * (wall[1] - wall[0]) / wall[0]:+.1f}% "
              f"| {cpu[0]:.2f} | {cpu[1]:.2f} | {100 * (cpu[1] - cpu[0]) / cpu[0]:+.1f}% | {per_formula:.3f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
