"""A PaperMod blog looks like itself: tests/hugo_sites/papermod_own (PaperMod's own templates under the author's
overrides, the snapshot copied into themes/PaperMod) built by the hugo binary and by blogbuild, each served on
127.0.0.1 and drawn by Chromium at 1280 and 390 px. Screenshots go to
tests/artifacts/papermod-own-<tool>-<page>-<width>.png, and the two builds' ink (every pixel that is not the
page's background) must overlap on each page: |both| / |either| of at least MIN_OVERLAP. The page with math is
left out: blogbuild typesets its formulas at build time, where Hugo's page shows the TeX."""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.hugo_site_oracle import hugo_binary
from support.papermod import papermod_theme
from support.screenshots import chromium, overlaps, screenshots

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "papermod_own"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PAGES = {"home": "", "page-2": "page/2/", "post": "posts/hello/", "bundle": "posts/ml/kv-cache/",
         "section": "posts/systems/", "tags": "tags/", "tag": "tags/storage/", "archives": "archives/",
         "search": "search/", "404": "404.html"}
WIDTHS = {1280: 900, 390: 844}
MIN_OVERLAP = 0.9


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def _site(root: Path) -> Path:
    shutil.copytree(FIXTURE, root)
    shutil.copytree(papermod_theme(), root / "themes" / "PaperMod")
    return root


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp_path = tmp_path_factory.mktemp("papermod_own_browser")
    hugo = tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(_site(tmp_path / "hugo-site")),
                                "--destination", str(hugo), "--quiet"], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    from blogbuild.cli import main
    site = _site(tmp_path / "blogbuild-site")
    assert main(["build", "--root", str(site), "--quiet", "--no-cache"]) == 0
    return {"hugo": hugo, "blogbuild": site / "public"}


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_both_builds_draw_the_same_pages(browser, builds: dict[str, Path], width: int) -> None:
    shots = screenshots(browser, builds, PAGES, width, WIDTHS[width], ARTIFACTS, "papermod-own")
    found = overlaps(shots)
    assert {name: value for name, value in found.items() if value < MIN_OVERLAP} == {}, found
