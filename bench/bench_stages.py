"""One `blogbuild build` in this process, with the wall and CPU time of each stage of the recipe.

Where bench_build.py says how long a build takes against Hugo's, this says where its time goes: when each
stage started, its wall time, the CPU of this (the parent) process meanwhile, and the CPU of the worker
processes that ended during it (a pool's workers end with the stage that forked them; a stage with much
wall and little CPU of either waited on the disk). It prints and asserts nothing.

    python bench/bench_stages.py SITE [blogbuild build options...]
    python bench/bench_stages.py /tmp/corpus/blogbuild --jobs 2 --quiet

The site is built as it is: clear its .blogbuild-cache/ and output first for a cold build.
"""
from __future__ import annotations

import functools
import importlib
import resource
import sys
import time
from typing import Any, Callable

STARTED = time.perf_counter()

# (module, attribute): the recipe's stages, in the order a full build runs them.
STAGES = (
    ("blogbuild.disk.manifest", "examine"),
    ("blogbuild.pipeline.builder", "Builder._load_cache"),
    ("blogbuild.pipeline.builder", "Builder._load_templates"),
    ("blogbuild.pipeline.builder", "read_sources"),
    ("blogbuild.pipeline.builder", "render_posts"),
    ("blogbuild.pipeline.builder", "resolve_links"),
    ("blogbuild.pipeline.builder", "Builder._media"),
    ("blogbuild.site.site", "build_site"),
    ("blogbuild.publish.planner", "Planner.plan"),
    ("blogbuild.publish.planner", "Planner.plan_affected"),
    ("blogbuild.pipeline.pages", "PageStore.make_all"),
    ("blogbuild.pipeline.pages", "PageStore.make_affected"),
    ("blogbuild.pipeline.builder", "Builder._with_cards"),
    ("blogbuild.disk.output", "write_output"),
    ("blogbuild.disk.manifest", "snapshot_outputs"),
    ("blogbuild.pipeline.builder", "Builder.save_cache"),
    ("blogbuild.disk.manifest", "write_record"),
)

rows: list[tuple[float, str, float, float, float]] = []


def children_cpu() -> float:
    """User + system seconds of the ended (and reaped) child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """function, noting when it started, its wall time, this process's CPU time and its workers'."""
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        wall, cpu, workers = time.perf_counter(), time.process_time(), children_cpu()
        try:
            return function(*args, **kwargs)
        finally:
            rows.append((wall - STARTED, label, time.perf_counter() - wall, time.process_time() - cpu,
                         children_cpu() - workers))
    return wrapper


def instrument() -> None:
    """Wrap each stage where the code that runs it looks it up (a module global or a class attribute)."""
    for module_name, attribute in STAGES:
        owner: Any = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        setattr(owner, name, timed(attribute, getattr(owner, name)))


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    site, options = argv[0], argv[1:]
    sys.dont_write_bytecode = False   # as bench_build.py runs the tools: users' installs cache bytecode
    imports = time.perf_counter()
    instrument()
    from blogbuild.cli import main as blogbuild_main
    imported = time.perf_counter() - imports
    code = blogbuild_main(["build", "--root", site, *options])
    total = time.perf_counter() - STARTED
    print(f"\nblogbuild build {' '.join(options)} in {site}: exit {code}, {total:.2f} s wall, "
          f"{time.process_time():.2f} s CPU in this process ({imported:.2f} s importing the stages first)\n")
    print("| stage | started at s | wall s | this process's CPU s | workers' CPU s |\n|---|---:|---:|---:|---:|")
    for started, label, wall, cpu, workers in sorted(rows):
        print(f"| {label} | {started:.2f} | {wall:.2f} | {cpu:.2f} | {workers:.2f} |")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
