"""The real corpus (corpus/*.txt, the user's three listing dumps) and the repo's content/, which is
their import: the importer's acceptance list."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

import blogbuild
from blogbuild.content import katex
from blogbuild.cli import main
from blogbuild.importer import MANIFEST_NAME, ImportedPost, import_dumps

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / "corpus").glob("*.txt"))
CONTENT = ROOT / "content" / "posts"
NODE_MODULES = ROOT / "tests" / "node" / "node_modules"
JS = Path(blogbuild.__file__).parent / "js"

# Written by hand from reading the dumps.
EXPECTED_HEADERS: dict[str, dict[str, Any]] = {
    "cloudmatrix384": {
        "title": "昇腾超节点CloudMatrix384论文拆解",
        "date": "2025-08-07T10:40:12+08:00",
        "tags": ["AIInfra", "ascend"],
    },
    "rl4llm-rl-slime": {
        "title": "[RL4LLM] 异步RL框架: Slime",
        "date": "2025-08-07T17:10:12+08:00",
        "tags": ["framework", "LLM", "RL"],
        "series": ["rl4llm"],
    },
    "verl-multi-turn-rl-1": {
        "title": "[VeRL] Multi-Turn RL训练源码走读（1）",
        "date": "2025-08-03T15:30:12+08:00",
        "tags": ["framework", "verl", "sglang"],
        "series": ["verl"],
    },
    "aiinfra-flashattention": {
        "title": "[AIInfra] FlashAttention 深度解析：从数学原理到工程实现",
        "date": "2025-09-15T11:30:12+08:00",
        "tags": ["flashattention"],
        "series": ["aiinfra"],
    },
    "docker-fundamentals-namespace": {
        "title": "Docker Fundamentals: Namespace",
        "date": "2021-04-01T11:22:18+08:00",
        "hero": "/images/posts/k8s-docker.jpg",
        "menu": {"sidebar": {"name": "Docker Fundamentals (Namespace)", "identifier": "docker-namespace",
                             "parent": "cloud-computing", "weight": 10}},
        "draft": False,
    },
}
HEADERLESS = {"areal-rl-ppo", "part-1-verl", "traditional-infrastructure"}
_IMPORT_KEYS = {"excerpt", "needs_review", "import_sources"}


@pytest.fixture(scope="module")
def posts() -> dict[str, ImportedPost]:
    imported = import_dumps([(path.name, path.read_text(encoding="utf-8")) for path in CORPUS])
    return {post.slug: post for post in imported}


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    else:
        yield str(value)


def test_three_dumps_hold_eight_posts_five_with_a_header(posts: dict[str, ImportedPost]) -> None:
    assert len(CORPUS) == 3
    assert len(posts) == 8
    assert {slug for slug, post in posts.items() if post.has_header} == set(EXPECTED_HEADERS)
    assert {slug for slug, post in posts.items() if not post.has_header} == HEADERLESS


@pytest.mark.parametrize("slug", sorted(EXPECTED_HEADERS))
def test_header_exact_field_by_field(posts: dict[str, ImportedPost], slug: str) -> None:
    metadata = {key: value for key, value in posts[slug].metadata.items() if key not in _IMPORT_KEYS}
    expected = EXPECTED_HEADERS[slug]
    for key, value in expected.items():
        assert metadata.get(key) == value, key
    assert set(metadata) == set(expected)
    # Dates are written exactly as in the dump, offset included.
    text = (CONTENT / f"{slug}.md").read_text(encoding="utf-8")
    assert f"\ndate: {expected['date']}\n" in text


def test_no_damage_left_in_metadata(posts: dict[str, ImportedPost]) -> None:
    for slug, post in posts.items():
        assert "math" not in post.metadata, slug
        for text in _strings(dict(post.metadata)):
            for bad in ("math: true", "—", "“", "”", "‘", "’"):
                assert bad not in text, (slug, text)


def test_no_math_true_left_in_any_post_text(posts: dict[str, ImportedPost]) -> None:
    for path in CONTENT.glob("*.md"):
        assert "math: true" not in path.read_text(encoding="utf-8"), path.name
        assert "math" not in yaml.safe_load(path.read_text(encoding="utf-8").split("\n---\n")[0][4:])
    for post in posts.values():
        assert "math: true" not in post.body.markdown


def test_copies_are_merged_and_sources_recorded(posts: dict[str, ImportedPost]) -> None:
    assert posts["verl-multi-turn-rl-1"].sources == (
        "000_7a4205b4c1bdee6f.txt (Posts)", "002_07e3da96783fc805.txt", "003_0c59e5e892700dd0.txt (AI Infra)")
    assert posts["cloudmatrix384"].sources == ("000_7a4205b4c1bdee6f.txt (Posts)",
                                               "003_0c59e5e892700dd0.txt (AI Infra)")
    # Part 2 of the VeRL walk-through shares part 1's diagram but is its own post.
    assert posts["part-1-verl"].body.diagrams == posts["verl-multi-turn-rl-1"].body.diagrams
    for slug in HEADERLESS:
        post = posts[slug]
        assert post.needs_review and post.metadata["needs_review"] is True and "date" not in post.metadata
    assert all(post.body.truncated and post.metadata["excerpt"] is True for post in posts.values())


def test_structure_is_restored(posts: dict[str, ImportedPost]) -> None:
    assert {slug: len(post.body.diagrams) for slug, post in posts.items() if post.body.diagrams} == {
        "rl4llm-rl-slime": 1, "verl-multi-turn-rl-1": 1, "part-1-verl": 1, "areal-rl-ppo": 1}
    assert len(posts["cloudmatrix384"].body.display_math) == 6
    assert len(posts["aiinfra-flashattention"].body.display_math) == 3
    assert posts["aiinfra-flashattention"].body.rules == 1
    areal = posts["areal-rl-ppo"].body.diagrams[0].split("\n")
    assert areal[0] == "graph TD" and "    %% MasterWorker训练流程" in areal and areal[-1] == "    style N fill:#f1f8e9"
    slime = posts["rl4llm-rl-slime"].body.markdown
    assert "A3-->|资源分配|A2\n```\n\n各模块视角的关系图" in slime


def test_content_is_the_import_of_the_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "posts"
    assert main(["import", *map(str, CORPUS), "--out", str(out), "--quiet"]) == 0
    fresh = {path.name: path.read_bytes() for path in out.iterdir()}
    committed = {path.name: path.read_bytes() for path in CONTENT.iterdir()}
    assert fresh == committed
    assert MANIFEST_NAME in committed


def test_content_builds_with_tag_and_series_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    shutil.copytree(ROOT / "content", site / "content")
    assert main(["build", "--root", str(site), "--quiet"]) == 0, capsys.readouterr().err
    public = site / "public"
    for tag in ("aiinfra", "ascend", "flashattention"):
        assert (public / "tags" / tag / "index.html").exists(), tag
    for series in ("rl4llm", "verl", "aiinfra"):
        assert (public / "series" / series / "index.html").exists(), series
    assert len(list((public / "posts").glob("*/index.html"))) == 8


# ---- node: mermaid's and KaTeX's own parsers --------------------------------------------------

def _run_node(script: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None or not NODE_MODULES.is_dir():
        pytest.skip("node or tests/node/node_modules missing: run `npm ci` in tests/node (CI does)")
    result = subprocess.run([node, str(JS / script), "--node-modules", str(NODE_MODULES)],
                            input=json.dumps(items), capture_output=True, text=True, timeout=120,
                            env={**os.environ, "NODE_NO_WARNINGS": "1"})
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


def _content_texts() -> dict[str, str]:
    return {path.stem: path.read_text(encoding="utf-8") for path in sorted(CONTENT.glob("*.md"))}


@pytest.mark.node
def test_every_restored_diagram_parses_with_mermaid() -> None:
    items = [{"id": f"{slug}#{index}", "text": match.group(1)}
             for slug, text in _content_texts().items()
             for index, match in enumerate(re.finditer(r"```mermaid\n(.*?)\n```", text, re.S))]
    assert len(items) == 4
    # A known-bad diagram rides along, so the test proves the checker can say no.
    results = _run_node("check_mermaid.mjs", [*items, {"id": "known-bad", "text": "graph TD\nA -->"}])
    failed = [result for result in results if not result["ok"]]
    assert [result["id"] for result in failed] == ["known-bad"] and "Parse error" in failed[0]["error"]
    assert len(results) == 5


def test_every_math_span_renders_with_katex() -> None:
    items: list[dict[str, Any]] = []
    for slug, text in _content_texts().items():
        body = re.sub(r"```.*?```", "", text.split("\n---\n", 1)[1], flags=re.S)
        for index, match in enumerate(re.finditer(r"^\$\$\n(.*?)\n\$\$$", body, re.S | re.M)):
            items.append({"id": f"{slug}$${index}", "tex": match.group(1), "display": True})
        inline_body = re.sub(r"^\$\$\n.*?\n\$\$$", "", body, flags=re.S | re.M)
        for index, match in enumerate(re.finditer(r"(?<!\$)\$([^$\n]+)\$(?!\$)", inline_body)):
            items.append({"id": f"{slug}${index}", "tex": match.group(1), "display": False})
    assert sum(item["display"] for item in items) == 9
    assert sum(not item["display"] for item in items) == 8
    # In-process KaTeX (blogbuild.content.katex, the build's own engine); a known-bad formula proves it can say no.
    items.append({"id": "known-bad", "tex": "\\frac{a", "display": True})
    renders = katex.typeset([(item["tex"], item["display"]) for item in items])
    failed = [item["id"] for item in items if renders[(item["tex"], item["display"])].html is None]
    assert failed == ["known-bad"]
    assert "KaTeX parse error" in (renders[("\\frac{a", True)].error or "")
