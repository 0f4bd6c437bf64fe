"""Shared fixtures: make_site() writes a small site from a dict of files; --update-goldens rewrites golden trees."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping

import pytest

from support.files import write_files


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite tests/sites/*.expected trees")


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


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
