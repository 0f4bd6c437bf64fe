"""bench/synth.py: the synthetic corpus is deterministic, shaped like ours, and builds."""
from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load_synth():
    spec = importlib.util.spec_from_file_location("bench_synth", BENCH / "synth.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # dataclasses need the module registered
    spec.loader.exec_module(module)
    return module


synth = _load_synth()


def _tree_digest(root: Path) -> dict[str, str]:
    return {path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("*")) if path.is_file()}


def test_same_seed_same_bytes_different_seed_different_posts(tmp_path):
    assert synth.main(["--n", "25", "--seed", "3", "--out", str(tmp_path / "a"), "--hugo", "--pelican"]) == 0
    assert synth.main(["--n", "25", "--seed", "3", "--out", str(tmp_path / "b"), "--hugo", "--pelican"]) == 0
    first, second = _tree_digest(tmp_path / "a"), _tree_digest(tmp_path / "b")
    assert first == second
    assert len([name for name in first if name.startswith("blogbuild/content/posts/")]) == 25
    assert len([name for name in first if name.startswith("pelican/content/")]) == 25
    assert "hugo/hugo.toml" in first and "hugo/layouts/baseof.html" in first
    assert synth.generate(25, 4) != synth.generate(25, 3)


def test_corpus_has_the_shape_of_ours():
    posts = synth.generate(300, 1)
    sizes = [len(synth.front_matter_text(post).encode()) for post in posts]
    assert 3400 < sum(sizes) / len(sizes) < 4200          # mean ~3.8 kB per post
    bodies = "\n".join(post.body for post in posts)
    for fence in ("```python", "```bash", "```yaml", "```cpp", "```mermaid"):
        assert fence in bodies
    assert "$$\n" in bodies and "| --- |" in bodies
    assert sum("```mermaid" in post.body for post in posts) < len(posts) / 2    # only some posts
    assert len({tag for post in posts for tag in post.tags}) <= 40
    assert all(post.date.endswith("+08:00") for post in posts)
    assert len({post.date[:4] for post in posts}) >= 5                       # spread over years
    assert len({post.slug for post in posts}) == len(posts)
    # series_order runs 1..m within each of the 8 series.
    orders: dict[str, list[int]] = {}
    for post in posts:
        if post.series:
            orders.setdefault(post.series, []).append(post.series_order)
    assert len(orders) == 8
    assert all(sorted(values) == list(range(1, len(values) + 1)) for values in orders.values())
    cjk = Counter(char for char in bodies if "\u4e00" <= char <= "\u9fff")
    assert sum(cjk.values()) > len(bodies) / 5                              # mostly Chinese prose


def test_front_matter_is_yaml_the_tools_read(tmp_path):
    posts = synth.generate(20, 9)
    synth.write_blogbuild(posts, tmp_path / "site")
    for post in posts:
        text = (tmp_path / "site" / "content" / "posts" / post.file_name).read_text(encoding="utf-8")
        header = text.split("---\n")[1]
        data = yaml.safe_load(header)
        assert data["title"] == post.title
        assert list(data["tags"]) == list(post.tags)
        assert data.get("series_order") == post.series_order
        pelican = synth.pelican_text(post)
        assert pelican.startswith(f"Title: {post.title}\n") and pelican.endswith(post.body)


def test_the_synthetic_site_builds_with_blogbuild(tmp_path):
    pytest.importorskip("blogbuild.pipeline", reason="blogbuild build is not in this tree yet")
    from blogbuild.cli import main

    posts = synth.generate(30, 5)
    site = synth.write_blogbuild(posts, tmp_path / "site")
    output = tmp_path / "public"
    code = main(["build", "--root", str(site), "--source", str(site / "content"), "--output", str(output),
                 "--quiet", "--jobs", "1", "--no-cache"])
    assert code == 0
    for post in posts:
        assert (output / "posts" / post.slug / "index.html").is_file()
    assert (output / "index.xml").is_file() and (output / "sitemap.xml").is_file()


def test_code_series_corpus_has_twice_the_code_and_every_post_in_a_series(tmp_path):
    code = re.compile(r"```(?:python|bash|yaml|cpp)\n.*?```", re.S)

    def code_per_post(posts) -> float:
        return sum(len(match) for post in posts for match in code.findall(post.body)) / len(posts)

    blog, heavy = synth.generate(400, 1), synth.generate(400, 1, "code-series")
    assert 1.7 < code_per_post(heavy) / code_per_post(blog) < 2.5
    assert all(post.series in synth.SERIES for post in heavy)
    assert len({post.series for post in heavy}) == 8
    sizes = [len(synth.front_matter_text(post).encode()) for post in heavy]
    assert 3400 < sum(sizes) / len(sizes) < 4400
    assert synth.main(["--n", "12", "--corpus", "code-series", "--out", str(tmp_path), "--hugo"]) == 0
    text = (tmp_path / "hugo" / "content" / "posts" / f"{heavy[0].slug}.md").read_text(encoding="utf-8")
    assert "series_order:" in text
