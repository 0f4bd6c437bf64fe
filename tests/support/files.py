"""Writing a site from a dict of files and reading a tree back: the helpers most test files share."""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

REPO = Path(__file__).resolve().parent.parent.parent


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


def read_tree(root: Path) -> dict[str, bytes]:
    """Every file below root as relative posix path -> bytes."""
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted(root.rglob("*")) if path.is_file()}
