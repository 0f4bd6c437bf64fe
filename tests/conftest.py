"""Shared fixtures: make_site() writes a small site from a dict of files; --update-goldens rewrites golden trees."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping

import pytest

REPO = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite tests/sites/*.expected trees")


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


def write_files(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Write a dict of relative path -> text (or bytes) under root."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


@pytest.fixture
def make_site(tmp_path: Path) -> Callable[[Mapping[str, str | bytes]], Path]:
    """make_site({"content/posts/a.md": "...", "blogbuild.yaml": "..."}) -> the site folder."""
    counter = iter(range(1000))

    def make(files: Mapping[str, str | bytes]) -> Path:
        root = tmp_path / f"site{next(counter)}"
        root.mkdir()
        write_files(root, files)
        (root / "content").mkdir(exist_ok=True)
        return root

    return make


def read_tree(root: Path) -> dict[str, bytes]:
    """Every file below root as relative posix path -> bytes."""
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted(root.rglob("*")) if path.is_file()}
