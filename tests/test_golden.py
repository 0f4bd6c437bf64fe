"""Golden output trees: tests/sites/NAME builds to exactly tests/sites/NAME.expected (pytest --update-goldens)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from blogbuild.cli import main
from support.files import read_tree

SITES = Path(__file__).parent / "sites"
NAMES = sorted(path.name for path in SITES.iterdir() if path.is_dir() and not path.name.endswith(".expected"))


# The vendored KaTeX and mermaid (7 MB, copied byte for byte from the package) stay out of the golden
# trees: tests/test_vendor.py checks which builds publish them and that they equal the pinned files.


def _without_vendor(tree: dict[str, bytes]) -> dict[str, bytes]:
    return {path: data for path, data in tree.items() if not path.startswith("vendor/")}


@pytest.mark.parametrize("name", NAMES)
def test_site_matches_golden_tree(name: str, tmp_path: Path, update_goldens: bool) -> None:
    site = tmp_path / name
    shutil.copytree(SITES / name, site)
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1"]) == 0
    built = _without_vendor(read_tree(site / "public"))
    expected_dir = SITES / f"{name}.expected"
    if update_goldens:
        shutil.rmtree(expected_dir, ignore_errors=True)
        shutil.copytree(site / "public", expected_dir,
                        ignore=lambda folder, names: ["vendor"] if Path(folder) == site / "public" else [])
    expected = read_tree(expected_dir)
    assert sorted(built) == sorted(expected), "output files differ from the golden tree"
    for path in sorted(expected):
        assert built[path] == expected[path], f"{path} differs from {expected_dir.name}/{path}"
