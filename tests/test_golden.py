"""Golden output trees: tests/sites/NAME builds to exactly tests/sites/NAME.expected (pytest --update-goldens)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from blogbuild.cli import main
from support.files import read_tree

SITES = Path(__file__).parent / "sites"
NAMES = sorted(path.name for path in SITES.iterdir() if path.is_dir() and not path.name.endswith(".expected"))


@pytest.mark.parametrize("name", NAMES)
def test_site_matches_golden_tree(name: str, tmp_path: Path, update_goldens: bool) -> None:
    site = tmp_path / name
    shutil.copytree(SITES / name, site)
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1"]) == 0
    built = read_tree(site / "public")
    expected_dir = SITES / f"{name}.expected"
    if update_goldens:
        shutil.rmtree(expected_dir, ignore_errors=True)
        shutil.copytree(site / "public", expected_dir)
    expected = read_tree(expected_dir)
    assert sorted(built) == sorted(expected), "output files differ from the golden tree"
    for path in sorted(expected):
        assert built[path] == expected[path], f"{path} differs from {expected_dir.name}/{path}"
