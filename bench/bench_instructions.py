"""The instructions one `blogbuild build` executes, counted by valgrind: a figure the machine's load and speed do
not move (the same build counts the same to a few parts in a million), for judging a change of a few percent that
wall and CPU times on a shared machine cannot show (they move by 20-30% from hour to hour).

Each checkout builds its own copy of the site once (`--jobs 1`, which fills its caches), then the build measured
runs under `valgrind --tool=cachegrind --cache-sim=no`: cold (no cache, no output), `--pages-only` (the posts
cache kept: only the site, the plan and the pages are made again), or `--deploy` (a deploy: the copy built twice
with its first post edited between, so that its cache holds deltas as a deploy's does, then a fresh clone of it in
another folder, its cache and output restored as actions/cache restores them, its 501st post edited, and the
default `blogbuild build` of that clone counted). The checkouts run at the same time: the count does not depend on
it. Python's hash seed is fixed, and each checkout's bytecode is compiled first.

    python bench/bench_instructions.py SITE [--other OTHER/src] [--pages-only | --deploy]
    python bench/make_own_layouts_blog.py --n 100 --papermod --out /tmp/pm100
    python bench/bench_instructions.py /tmp/pm100 --other /tmp/before/src --pages-only
    python bench/synth.py --n 1000 --seed 1 --out /tmp/blog1000   # see docs/performance.md
    python bench/bench_instructions.py /tmp/blog1000 --other /tmp/before/src --deploy

Needs valgrind (Debian's package). It prints and asserts nothing else.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"
_COUNT = re.compile(r"I\s+refs:\s+([\d,]+)")
_CACHE_KEPT_BY_PAGES_ONLY = ("posts-*", "katex-*", "build-keys.json", "cards")


def _environment(source: Path) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    environment.update(PYTHONPATH=str(source), PYTHONHASHSEED="0")
    return environment


def _edit(site: Path, index: int, line: str) -> None:
    posts = sorted((site / "content").rglob("*.md"))
    post = posts[min(index, len(posts) - 1)]
    post.write_bytes(post.read_bytes() + f"\n{line}\n".encode())


def _prepare_deploy(copy: Path, source: Path, folder: Path) -> Path:
    """A fresh clone of copy (built already) after an edit and a build of copy, with one post edited."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_build import restore_archive
    _edit(copy, 0, "The last deploy's edit.")
    subprocess.run([sys.executable, "-m", "blogbuild", "build", "--quiet"], cwd=copy, check=True,
                   env=_environment(source))
    clone = folder / "clone"
    shutil.copytree(copy, clone, ignore=shutil.ignore_patterns("public", ".blogbuild-*"), symlinks=True,
                    copy_function=shutil.copy)   # new mtimes, as a checkout gives
    restore_archive(copy, clone, (".blogbuild-cache", "public"))
    _edit(clone, 500, "This deploy's edit.")
    return clone


def _prepare(site: Path, source: Path, folder: Path, pages_only: bool, deploy: bool = False) -> Path:
    """A copy of site built once by source's blogbuild, then reset (or cloned) for the build to count."""
    copy = folder / "site"
    shutil.copytree(site, copy, ignore=shutil.ignore_patterns("public", ".blogbuild-*"), symlinks=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(source / "blogbuild")], check=True,
                   env=_environment(source), stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, "-m", "blogbuild", "build", "--quiet", "--jobs", "1"], cwd=copy, check=True,
                   env=_environment(source))
    if deploy:
        return _prepare_deploy(copy, source, folder)
    shutil.rmtree(copy / "public", ignore_errors=True)
    cache = copy / ".blogbuild-cache"
    if not pages_only:
        shutil.rmtree(cache, ignore_errors=True)
        return copy
    kept = {path for pattern in _CACHE_KEPT_BY_PAGES_ONLY for path in cache.glob(pattern)}
    for path in cache.iterdir():
        if path not in kept:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    return copy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--other", type=Path, help="another checkout's src/ folder, counted beside this one's")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--pages-only", action="store_true", help="keep the posts cache: count the pages' work")
    mode.add_argument("--deploy", action="store_true",
                      help="count a deploy: a fresh clone, its cache restored, one post edited (a default build)")
    args = parser.parse_args()
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("error: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    sources = [("this checkout", HERE)] + ([("other", args.other.resolve())] if args.other else [])
    with tempfile.TemporaryDirectory(prefix="bench-instructions-") as temporary:
        runs = []
        for index, (name, source) in enumerate(sources):
            folder = Path(temporary) / str(index)
            folder.mkdir()
            copy = _prepare(args.site.resolve(), source, folder, args.pages_only, args.deploy)
            command = [valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                       sys.executable, "-m", "blogbuild", "build", "--quiet",
                       *(() if args.deploy else ("--jobs", "1"))]
            runs.append((name, subprocess.Popen(command, cwd=copy, env=_environment(source), text=True,
                                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)))
        counts = []
        for name, process in runs:
            _, errors = process.communicate()
            found = _COUNT.search(errors)
            if process.returncode != 0 or found is None:
                print(f"error: the build of {name} failed under valgrind:\n{errors[-2000:]}", file=sys.stderr)
                return 1
            counts.append((name, int(found.group(1).replace(",", ""))))
    kind = "pages only (posts cache kept)" if args.pages_only else "a deploy (fresh clone, cache restored, " \
        "one post edited)" if args.deploy else "cold"
    jobs = "" if args.deploy else " --jobs 1"
    print(f"instructions of `blogbuild build{jobs}`, {kind}, {args.site} (valgrind cachegrind, whole process)\n")
    print("| checkout | instructions | against this checkout |")
    print("|---|---:|---:|")
    for name, count in counts:
        print(f"| {name} | {count:,} | {count / counts[0][1]:.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
