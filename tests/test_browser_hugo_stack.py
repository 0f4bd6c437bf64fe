"""Stack's demo looks like itself: built by the hugo binary and by blogbuild through Stack's own layouts
(tests/support/stack.py), each served on 127.0.0.1 and drawn by Chromium at 1280 and 390 px. Screenshots go to
tests/artifacts/stack-<tool>-<page>-<width>.png, and the two builds' ink (every pixel that is not the page's
background) must overlap on each page: |both| / |either| of at least MIN_OVERLAP. Stack's scripts are TypeScript:
blogbuild bundles them with the esbuild tests/node installs (Hugo's bytes), and the pages run them; without it
blogbuild's pages have no script, and scripts are off in both. The post with math is left out (blogbuild typesets
it at build time, where Hugo's page leaves it to KaTeX in the browser)."""
from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.hugo_site_oracle import hugo_binary
from support.screenshots import chromium, overlaps, screenshots
from support.stack import esbuild_folder, published, stack_site

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PAGES = {"home": "", "post": "p/markdown-syntax-guide/", "category": "categories/documentation/",
         "tag": "tags/markdown/", "archives": "archives/", "search": "search/", "404": "404.html"}
WIDTHS = {1280: 900, 390: 844}
MIN_OVERLAP = 0.9


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp_path = tmp_path_factory.mktemp("stack_browser")
    site, hugo = stack_site(tmp_path / "hugo-site"), tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(site), "--destination", str(hugo),
                                "--enableGitInfo=false", "--quiet"], capture_output=True, text=True, timeout=300,
                               env={**os.environ, "HUGO_THEMESDIR": str(site / "themes")})
    assert completed.returncode == 0, completed.stderr
    from blogbuild.config import load_config
    from blogbuild.pipeline import Builder
    folder = esbuild_folder()
    with pytest.MonkeyPatch.context() as patch:
        if folder is not None:
            patch.setenv("PATH", os.pathsep.join([str(folder), os.environ.get("PATH", "")]))
        result = Builder(load_config(None, root=stack_site(tmp_path / "blogbuild-site"))).build()
    assert result.ok, result.errors
    ours = tmp_path / "blogbuild-public"
    for path, data in published(result.files).items():
        (ours / path).parent.mkdir(parents=True, exist_ok=True)
        (ours / path).write_bytes(data)
    return {"hugo": hugo, "blogbuild": ours}


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_both_builds_draw_the_same_pages(browser: Any, builds: dict[str, Path], width: int) -> None:
    shots = screenshots(browser, builds, PAGES, width, WIDTHS[width], ARTIFACTS, "stack",
                        scripts=esbuild_folder() is not None)
    found = overlaps(shots)
    assert {name: value for name, value in found.items() if value < MIN_OVERLAP} == {}, found
