"""Strict, bounded YAML (strict_yaml.py): duplicate keys, alias cycles and alias bombs are refused before any
value is built, in front matter (both loaders) and config; hostile sites are bounded in time and memory and
leave the previous public/ as it was. The committed hostile sites (tests/hostile/yaml_*, toml_deep,
config_duplicate_key, hugo_config_alias_bomb) pin the exact messages."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from blogbuild.disk import strict_yaml
from blogbuild.disk.frontmatter import _load_yaml
from blogbuild.disk.strict_yaml import StrictYAMLError

HOSTILE = Path(__file__).parent / "hostile"


def _bomb(levels: int, width: int) -> str:
    """levels nested anchors of width aliases each: width**levels values as a tree."""
    lines = ["n0: &n0 [" + ", ".join(['"lol"'] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"n{level}: &n{level} [" + ", ".join([f"*n{level - 1}"] * width) + "]")
    return "\n".join(lines)


def test_small_aliases_and_merges_are_read_as_before() -> None:
    text = "base: &b {x: 1, y: [1, 2]}\n<<: *b\nx: 2\nlist: [*b, *b]\n"
    data = strict_yaml.load(text)
    assert data == yaml.safe_load(text)
    assert data["x"] == 2 and data["y"] == [1, 2] and data["list"][0] == {"x": 1, "y": [1, 2]}


def test_duplicate_key_names_both_lines_the_first_in_the_file() -> None:
    text = "title: a\nouter:\n  k: 1\n  k: 2\ntitle: b\n"
    with pytest.raises(StrictYAMLError) as caught:
        strict_yaml.load(text)
    assert (caught.value.kind, caught.value.key, caught.value.other_line, caught.value.line) == ("duplicate", "k", 2, 3)
    assert caught.value.describe(1) == "key 'k' is given twice in one mapping (line 3 and line 4); keep one of them"


def test_quoted_and_plain_spellings_of_a_key_are_one_key() -> None:
    with pytest.raises(StrictYAMLError):
        strict_yaml.load('title: a\n"title": b\n')


def test_same_key_in_different_mappings_is_fine() -> None:
    assert strict_yaml.load("a: {x: 1}\nb: {x: 2}\n") == {"a": {"x": 1}, "b": {"x": 2}}


def test_cycle_is_refused() -> None:
    with pytest.raises(StrictYAMLError) as caught:
        strict_yaml.load("a: &x [1, [2, *x]]\n")
    assert caught.value.kind == "cycle"


@pytest.mark.parametrize("levels, width, refused", [(4, 10, False), (5, 9, False), (5, 11, True), (9, 9, True)])
def test_alias_budget(levels: int, width: int, refused: bool) -> None:
    """Expansion is measured without expanding: width**levels values, refused past the budget."""
    text = _bomb(levels, width)
    if refused:
        with pytest.raises(StrictYAMLError) as caught:
            strict_yaml.load(text)
        assert caught.value.kind == "budget" and caught.value.size > strict_yaml.ALIAS_BUDGET
    else:
        assert isinstance(strict_yaml.load(text), dict)


def test_deep_document_without_aliases_is_checked_without_recursion() -> None:
    """The check walks with its own stack: 900 levels (libyaml's own limit is 1,000 in recent PyYAML) pass
    with Python's recursion limit at 200."""
    node = yaml.compose("[" * 900 + "]" * 900, Loader=yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        strict_yaml.check_nodes(node)
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize("header", ["title: a\ndate: 2025-01-02\ntitle: b", "tags: [a]\ntags: [b]"])
def test_front_matter_fast_and_pure_loaders_agree(header: str) -> None:
    """The libyaml path refuses duplicates too (PyYAML then words the error): no header reads differently."""
    with pytest.raises(StrictYAMLError) as caught:
        _load_yaml(header)
    assert caught.value.kind == "duplicate"


# The hostile file of each site: removed for a first, good build, then put back.
BOUNDED = {"yaml_alias_bomb": "content/posts/bomb.md", "yaml_alias_cycle": "content/posts/cycle.md",
           "yaml_duplicate_key": "content/posts/dup.md", "toml_deep": "content/posts/deep.md",
           "config_duplicate_key": "blogbuild.yaml", "hugo_config_alias_bomb": "hugo.yaml"}
LIMITED_BUILD = ("import resource, runpy, sys;"
                 "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30));"
                 "resource.setrlimit(resource.RLIMIT_CPU, (20, 20));"
                 "sys.argv = ['blogbuild', 'build', '-q', '-j', '1'];"
                 "runpy.run_module('blogbuild', run_name='__main__')")


def _tree(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


@pytest.mark.parametrize("name", sorted(BOUNDED))
def test_hostile_header_is_bounded_and_keeps_public(name: str, tmp_path: Path) -> None:
    """In a real process capped at 1 GiB of address space and 20 CPU seconds (a hang guard, not a timing):
    exit 1 with the one message, no traceback, and the previous public/ byte for byte."""
    site = tmp_path / "site"
    shutil.copytree(HOSTILE / name, site, ignore=shutil.ignore_patterns("expected.json"))
    hostile = site / BOUNDED[name]
    text = hostile.read_bytes()
    hostile.unlink()
    first = subprocess.run([sys.executable, "-m", "blogbuild", "build", "-q", "-j", "1"], cwd=site,
                           capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    before = _tree(site / "public")
    hostile.write_bytes(text)
    result = subprocess.run([sys.executable, "-c", LIMITED_BUILD], cwd=site, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    assert result.stderr.startswith(f"{BOUNDED[name]}:") or result.stderr.startswith(f"Error: {BOUNDED[name]}:")
    assert _tree(site / "public") == before
