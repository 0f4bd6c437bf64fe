"""Build real Hugo blogs with Hugo and with blogbuild, cold and warm, in turn, and print the figures.

Each FOLDER is a Hugo site (its theme under themes/). A round builds every folder with Hugo cold, blogbuild
cold, Hugo warm, blogbuild warm, in that order, so a change in the machine's load falls on both tools; cold
means no cache on either side (blogbuild's .blogbuild-cache/ and output removed; Hugo's resources/_gen, its
cache folder and its output removed: renamed aside, and deleted when the bench ends, so that no timed build
writes beside thousands of files deleted a moment before, which costs both tools seconds of system time on a
file system without a journal: bench_build.remove), warm is the same build again at once. Each run is a child process
reaped with wait4, so its CPU seconds (user + system) include its worker processes. Figures are medians
over --runs rounds, with the load average beside them. The timed blogbuild runs are the command a writer runs
(`python -m blogbuild build`); after the rounds each blog is built once more cold and warm through
bench_stages.py (untimed: it imports every stage first), whose per-stage tables are printed too. It prints
and asserts nothing.

    python bench/bench_real_blogs.py [--runs 3] [--jobs 0] [--no-hugo] FOLDER...
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from bench_build import find_hugo, remove, set_aside_in  # noqa: E402  (bench/ is a folder of scripts, not a package)


@dataclass
class Runs:
    """The runs of one tool on one blog, cold or warm: wall and CPU seconds, load average at the start."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    load: list[float] = field(default_factory=list)
    stages: str = ""          # blogbuild: the stages table of the last run

    def median(self, name: str) -> float:
        return statistics.median(getattr(self, name))


def timed(command: list[str], cwd: Path) -> tuple[float, float, int, str]:
    """Run command; (wall s, CPU s of it and its reaped children, exit status, standard output)."""
    import time
    with tempfile.TemporaryFile() as output:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=output, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, process.returncode, output.read().decode("utf-8", "replace")


def stages_table(output: str) -> str:
    return "\n".join(line for line in output.splitlines() if line.startswith("|"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", type=Path, metavar="FOLDER")
    parser.add_argument("--runs", type=int, default=3, help="rounds (default: 3)")
    parser.add_argument("--jobs", type=int, default=0, help="blogbuild's --jobs (default: 0, every core)")
    parser.add_argument("--no-hugo", action="store_true", help="build with blogbuild only")
    parser.add_argument("--hugo-bin", metavar="PATH")
    args = parser.parse_args()
    hugo = None if args.no_hugo else find_hugo(args.hugo_bin)
    if not args.no_hugo and hugo is None:
        parser.error("no hugo found: give --hugo-bin, or --no-hugo")
    work = Path(tempfile.mkdtemp(prefix="bench-real-blogs-"))
    set_aside_in(work / "set-aside")   # removed trees renamed there (bench_build.remove), deleted at the end
    results: dict[tuple[str, str, str], Runs] = {}
    try:
        for _ in range(args.runs):
            for folder in args.folders:
                folder = folder.resolve()
                hugo_out, hugo_cache = work / folder.name / "public", work / folder.name / "cache"
                blogbuild = [sys.executable, "-m", "blogbuild", "build", "--jobs", str(args.jobs), "--quiet",
                             "--output", str(work / folder.name / "blogbuild")]
                hugo_command = [hugo or "hugo", "--quiet", "--source", str(folder), "--destination", str(hugo_out),
                                "--cacheDir", str(hugo_cache)]
                for case in ("cold", "warm"):
                    for tool in ("hugo", "blogbuild"):
                        if tool == "hugo" and hugo is None:
                            continue
                        if case == "cold":
                            for path in ((folder / "resources" / "_gen", hugo_out, hugo_cache) if tool == "hugo"
                                         else (folder / ".blogbuild-cache", work / folder.name / "blogbuild")):
                                remove(path)
                        load = os.getloadavg()[0]
                        wall, cpu, code, output = timed(hugo_command if tool == "hugo" else blogbuild, folder)
                        if code != 0:
                            print(f"{tool} exited {code} on {folder} ({case}):\n{output}", file=sys.stderr)
                            return 1
                        runs = results.setdefault((folder.name, case, tool), Runs())
                        runs.wall.append(wall)
                        runs.cpu.append(cpu)
                        runs.load.append(load)
        for folder in args.folders:
            folder = folder.resolve()
            staged = [sys.executable, str(BENCH / "bench_stages.py"), str(folder), "--jobs", str(args.jobs),
                      "--quiet", "--output", str(work / folder.name / "blogbuild")]
            for case in ("cold", "warm"):
                if case == "cold":
                    for path in (folder / ".blogbuild-cache", work / folder.name / "blogbuild"):
                        remove(path)
                results[folder.name, case, "blogbuild"].stages = stages_table(timed(staged, folder)[3])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{args.runs} rounds, blogbuild --jobs {args.jobs}, {os.cpu_count()} cores; medians; "
          "CPU = user + system of the process and its workers\n")
    print("| blog | build | Hugo wall s | Hugo CPU s | blogbuild wall s | blogbuild CPU s | wall ratio | CPU ratio "
          "| load average |\n|---|---|---:|---:|---:|---:|---:|---:|---|")
    for folder in args.folders:
        for case in ("cold", "warm"):
            ours = results[folder.resolve().name, case, "blogbuild"]
            theirs = results.get((folder.resolve().name, case, "hugo"))
            loads = ours.load + (theirs.load if theirs else [])
            hugo_cells = f"{theirs.median('wall'):.2f} | {theirs.median('cpu'):.2f}" if theirs else "- | -"
            ratios = (f"{ours.median('wall') / theirs.median('wall'):.2f}x | {ours.median('cpu') / theirs.median('cpu'):.2f}x"
                      if theirs else "- | -")
            print(f"| {folder.resolve().name} | {case} | {hugo_cells} | {ours.median('wall'):.2f} | "
                  f"{ours.median('cpu'):.2f} | {ratios} | {min(loads):.2f}-{max(loads):.2f} |")
    for folder in args.folders:
        for case in ("cold", "warm"):
            print(f"\nblogbuild's stages, {folder.resolve().name}, {case} (one more run, through bench_stages.py):\n")
            print(results[folder.resolve().name, case, "blogbuild"].stages)
    return 0


if __name__ == "__main__":
    sys.exit(main())
