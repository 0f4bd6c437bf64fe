"""How long the disk cache takes to save and read a site's posts and state, beside pickle.

Reads the cache a build of SITE left (build it first, with the cache), then writes and reads the posts file
and the state file again, in memory, with blogbuild's cache format (cache_codec) and with pickle
(the state's posts as references into the posts, as the cache stores them): the first time in this
process ("cold": nothing imported or warmed yet) and the best of --runs after it ("warm"). It prints and
asserts nothing.

    python bench/bench_cache.py SITE [--runs 5]
    python bench/bench_cache.py /tmp/corpus/blogbuild
"""
from __future__ import annotations

import argparse
import gc
import io
import pickle
import sys
import time
from pathlib import Path
from typing import Any, Callable


def _timed(function: Callable[[], Any], runs: int) -> tuple[float, float, Any]:
    """(first call's seconds, best of the next runs, the last result), the collector off as the cache has it."""
    times, result = [], None
    for _ in range(runs + 1):
        gc.collect()
        gc.disable()
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
        gc.enable()
    return times[0], min(times[1:]), result


class _Pickler(pickle.Pickler):
    def __init__(self, handle: Any, references: dict[int, str]) -> None:
        super().__init__(handle, protocol=pickle.HIGHEST_PROTOCOL)
        self._references = references

    def reducer_override(self, obj: Any) -> Any:
        key = self._references.get(id(obj))
        return (str, (key,)) if key is not None else NotImplemented


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site")
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    from blogbuild.disk import cache_codec
    from blogbuild.pipeline.state import CACHE_RECORDS, _post_references, _post_resolver

    # The newest files, whichever code wrote them (a file's name carries its code; the format is the same).
    folder = Path(arguments.site) / ".blogbuild-cache"
    newest = {kind: max((path for path in folder.glob(pattern) if (".delta." in path.name) == (kind == "delta")),
                        key=lambda path: path.stat().st_mtime, default=None)
              for kind, pattern in (("posts", "posts-*.cache"), ("delta", "posts-*.delta.cache"),
                                    ("state", "state-*.cache"))}
    if newest["posts"] is None or newest["state"] is None:
        sys.exit(f"{arguments.site}: no posts cache and saved state; build it first (with the cache)")
    posts = cache_codec.loads(newest["posts"].read_bytes(), "posts", CACHE_RECORDS)
    rendered = dict(posts["posts"])
    if newest["delta"] is not None:
        rendered.update(cache_codec.loads(newest["delta"].read_bytes(), "delta", CACHE_RECORDS)["posts"])
    posts["posts"] = rendered
    references = _post_references(rendered)
    resolve = _post_resolver(rendered)
    state = cache_codec.loads(newest["state"].read_bytes(), "state", CACHE_RECORDS, resolve)

    def pickle_state() -> bytes:
        handle = io.BytesIO()
        _Pickler(handle, references).dump(state)
        return handle.getvalue()

    cases: list[tuple[str, Callable[[], bytes], Callable[[bytes], Any]]] = [
        ("posts, cache format", lambda: cache_codec.dumps(posts, "posts", CACHE_RECORDS),
         lambda data: cache_codec.loads(data, "posts", CACHE_RECORDS)),
        ("posts, pickle", lambda: pickle.dumps(posts, protocol=pickle.HIGHEST_PROTOCOL), pickle.loads),
        ("state, cache format", lambda: cache_codec.dumps(state, "state", CACHE_RECORDS, references),
         lambda data: cache_codec.loads(data, "state", CACHE_RECORDS, resolve)),
        ("state, pickle", pickle_state, pickle.loads),   # its posts come back as fingerprints: a lower bound
    ]
    print(f"{arguments.site}: {len(rendered)} rendered posts; milliseconds, cold (first call) / warm (best of "
          f"{arguments.runs})")
    print(f"{'':22} {'save cold':>10} {'save warm':>10} {'load cold':>10} {'load warm':>10} {'MB':>8}")
    for name, save, load in cases:
        save_cold, save_warm, data = _timed(save, arguments.runs)
        load_cold, load_warm, _ = _timed(lambda data=data, load=load: load(data), arguments.runs)
        print(f"{name:22} {save_cold * 1000:10.1f} {save_warm * 1000:10.1f} {load_cold * 1000:10.1f} "
              f"{load_warm * 1000:10.1f} "
              f"{len(data) / 1e6:8.2f}")


if __name__ == "__main__":
    main()
