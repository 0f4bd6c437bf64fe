"""Make a Hugo blog that its own page layouts render: the layouts, partials and config of
tests/hugo_sites/own_layouts (the classic structure, our own), or with --papermod of
tests/hugo_sites/papermod_own under PaperMod (the snapshot beside the repository, copied into themes/PaperMod),
over N synthetic posts (synth.py's blog corpus), for bench_real_blogs.py to build with Hugo and with blogbuild.

    python bench/make_own_layouts_blog.py [--n 1000] [--seed 1] [--papermod] --out DIR
    python bench/bench_real_blogs.py --runs 3 DIR
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import synth  # noqa: E402  (bench/ is a folder of scripts, not a package)

FIXTURE = BENCH.parent / "tests" / "hugo_sites" / "own_layouts"
PAPERMOD_FIXTURE = BENCH.parent / "tests" / "hugo_sites" / "papermod_own"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="synthetic posts (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="the blog folder to write (replaced)")
    parser.add_argument("--papermod", action="store_true",
                        help="PaperMod's own templates ($PAPERMOD_THEME, else ../shared/papermod) under the site's")
    options = parser.parse_args()
    if options.out.exists():
        shutil.rmtree(options.out)
    fixture = PAPERMOD_FIXTURE if options.papermod else FIXTURE
    shutil.copytree(fixture, options.out)
    if options.papermod:
        import os
        theme = Path(os.environ.get("PAPERMOD_THEME") or BENCH.parent.parent / "shared" / "papermod")
        shutil.copytree(theme, options.out / "themes" / "PaperMod")
    scratch = options.out.parent / f".{options.out.name}-synth"
    shutil.rmtree(scratch, ignore_errors=True)
    synth.write_hugo(synth.generate(options.n, options.seed), scratch)
    for post in sorted((scratch / "content" / "posts").glob("*.md")):
        shutil.copy2(post, options.out / "content" / "posts" / post.name)
    shutil.rmtree(scratch)
    print(f"{options.out}: {options.n} synthetic posts under the layouts of {fixture.relative_to(BENCH.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
