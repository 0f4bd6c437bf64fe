"""bench/: every benchmark script still runs against today's blogbuild, on a tiny corpus.

The scripts reach into blogbuild's internals (the Builder's templates, the card maker, the stages), so a
refactor can break one without any other test noticing.
Nothing here looks at a timing; a script passes when it exits 0 and prints its table.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def run_script(script: str, *arguments: str, cwd: Path) -> str:
    """The script's standard output; the test fails with its output when it exits non-zero."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    completed = subprocess.run([sys.executable, str(BENCH / script), *arguments], cwd=cwd, env=environment,
                               capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, f"{script} exited {completed.returncode}:\n{completed.stdout}\n{completed.stderr}"
    return completed.stdout


@pytest.mark.parametrize("script, arguments, printed", [
    ("bench_render.py", ("--n", "12", "--runs", "1"), "render_post"),
    ("bench_cards.py", ("--n", "6"), "ms CPU per card: draw"),
    ("bench_pages.py", ("--sizes", "20", "--sample", "4"), "| 20 | 20 | 20 |"),
    ("bench_math.py", ("--n", "8", "--runs", "1", "--jobs", "1", "--work", "{tmp}/math"), "| cold |"),
    ("bench_highlight.py", (str(BENCH.parent / "tests" / "hugo_sites" / "chroma_code" / "content"),),
     "blocks: chroma first"),
], ids=["render", "cards", "pages", "math", "highlight"])
def test_an_in_process_bench_prints_its_figures(script, arguments, printed, tmp_path):
    output = run_script(script, *(argument.format(tmp=tmp_path) for argument in arguments), cwd=tmp_path)
    assert printed in output, output


def test_bench_stages_times_every_stage_of_a_build(tmp_path):
    subprocess.run([sys.executable, str(BENCH / "synth.py"), "--n", "12", "--out", str(tmp_path / "corpus")],
                   check=True, capture_output=True)
    output = run_script("bench_stages.py", str(tmp_path / "corpus" / "blogbuild"), "--jobs", "1", "--quiet",
                        cwd=tmp_path)
    assert "exit 0" in output and "| render_posts |" in output and "| PageStore.make_all |" in output, output


def test_bench_build_measures_blogbuild_and_finds_every_output_identical(tmp_path):
    output = run_script("bench_build.py", "--n", "12", "--runs", "1", "--tools", "blogbuild", "--jobs", "1",
                        "--work", str(tmp_path / "work"), cwd=tmp_path)
    for case in ("cold, --jobs 1", "warm no-op", "one post changed", "fresh clone + restored cache"):
        assert f"| blogbuild | {case}" in output, (case, output)
    assert output.count("IDENTICAL") == 3 and "DIFFERENT" not in output, output


def test_bench_serve_measures_a_save_through_a_real_server(tmp_path):
    output = run_script("bench_serve.py", "--n", "12", "--runs", "1", "--no-hugo", "--out", str(tmp_path / "site"),
                        cwd=tmp_path)
    assert "save-to-new-HTML latency, 12 posts" in output and "blogbuild serve  median" in output, output


def test_bench_serve_load_prints_percentiles_with_and_without_saves(tmp_path):
    output = run_script("bench_serve_load.py", "--n", "6", "--requests", "40", "--connections", "4",
                        "--save-every", "0.5", "--out", str(tmp_path / "load"), cwd=tmp_path)
    for name in ("no saves", "with saves"):
        assert f"{name}: 40 requests, p50 " in output and "0 failed" in output, output


def test_bench_real_blogs_builds_a_hugo_blog_cold_and_warm(tmp_path):
    """A Hugo blog of two posts and three pictures (one wider than the column), blogbuild's side only."""
    from PIL import Image
    blog = tmp_path / "tiny"
    (blog / "content" / "posts" / "pictures").mkdir(parents=True)
    (blog / "hugo.yaml").write_text("baseURL: https://example.org/\ntitle: Tiny\nlanguageCode: en\n", encoding="utf-8")
    for name, width in (("wide.jpg", 1200), ("narrow.png", 600), ("icon.png", 64)):
        Image.new("RGB", (width, width // 2), (200, 120, 40)).save(blog / "content" / "posts" / "pictures" / name)
    (blog / "content" / "posts" / "pictures" / "index.md").write_text(
        "---\ntitle: Pictures\ndate: 2024-01-02\n---\n![wide](wide.jpg)\n\n![narrow](narrow.png) ![icon](icon.png)\n",
        encoding="utf-8")
    (blog / "content" / "posts" / "words.md").write_text("---\ntitle: Words\ndate: 2024-01-01\n---\nWords.\n",
                                                         encoding="utf-8")
    output = run_script("bench_real_blogs.py", "--runs", "1", "--jobs", "1", "--no-hugo", str(blog), cwd=tmp_path)
    assert "| tiny | cold | - | - |" in output and "| tiny | warm | - | - |" in output, output
    assert "| Builder._media |" in output, output
    assert not (blog / "public").exists() and (blog / ".blogbuild-cache").is_dir()


def test_make_image_blog_makes_page_bundles_of_distinct_pictures(tmp_path):
    from PIL import Image
    (tmp_path / "photos").mkdir()
    Image.effect_noise((900, 600), 50).convert("RGB").save(tmp_path / "photos" / "noise.jpg")
    (tmp_path / "PaperMod").mkdir()
    run_script("make_image_blog.py", "--out", str(tmp_path / "blog"), "--theme", str(tmp_path / "PaperMod"),
               "--posts", "2", "--images", "3", str(tmp_path / "photos"), cwd=tmp_path)
    pictures = sorted((tmp_path / "blog" / "content" / "posts").rglob("img*.jpg"))
    assert len(pictures) == 6 and len({picture.read_bytes() for picture in pictures}) == 6
    assert "![picture 2](img2.jpg)" in (tmp_path / "blog" / "content" / "posts" / "post-001" / "index.md").read_text()


@pytest.mark.parametrize("mode", ["--pages-only", "--deploy"])
def test_bench_instructions_counts_two_checkouts_alike(tmp_path, mode):
    """The same source counted twice (as this checkout and as the other) gives the same count, to a part in a
    thousand: the figure does not move with the machine (a pages-only build, and a deploy: a fresh clone with
    the cache restored and one post edited)."""
    if shutil.which("valgrind") is None:
        from support.tools import missing_tool
        missing_tool("valgrind is not installed (Debian's valgrind package; .ci/setup installs it)")
    subprocess.run([sys.executable, str(BENCH / "synth.py"), "--n", "4", "--out", str(tmp_path / "corpus")],
                   check=True, capture_output=True)
    output = run_script("bench_instructions.py", str(tmp_path / "corpus" / "blogbuild"), mode,
                        "--other", str(BENCH.parent / "src"), cwd=tmp_path)
    counts = [int(count.replace(",", "")) for count in re.findall(r"\| (?:this checkout|other) \| ([\d,]+) \|", output)]
    assert len(counts) == 2 and abs(counts[0] - counts[1]) < counts[0] / 1000, output
