"""A one-shot build of a site whose layouts render lists to plan them (a Hugo layout's pager) renders the posts'
pages in a pool while the planner works (pools.PagesAhead): the output is the one a build without it makes, and
a page rendered ahead that the plan does not have under the same key is never published."""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from blogbuild.hugo.gotemplate import compile_ahead
from blogbuild.hugo.gotemplate.environment import compiled
from blogbuild.pipeline import pools
from blogbuild.pipeline.pages import _with_ahead
from blogbuild.publish.outputs import PlannedPage
from support.files import write_files

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="a pool needs fork")


def _tree(folder: Path) -> dict[Path, bytes]:
    return {path.relative_to(folder): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def test_a_build_renders_the_posts_ahead_and_equals_one_without(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from blogbuild.cli import main
    site = tmp_path / "site"
    shutil.copytree(Path(__file__).resolve().parent / "hugo_sites" / "own_layouts", site)
    write_files(site, {f"content/posts/p{number:02d}.md": f"---\ntitle: Post {number}\ndate: 2024-02-{number:02d}\n"
                       f"tags: [t{number % 3}]\n---\n\nText {number}.\n" for number in range(1, 25)})
    monkeypatch.setattr(pools, "PAGES_PER_POOL", 5)
    started: list[int] = []
    real = pools.pages_ahead

    def counted(*arguments: Any) -> Any:
        ahead = real(*arguments)
        started.append(len(ahead.pages) if ahead is not None else 0)
        return ahead

    monkeypatch.setattr(pools, "pages_ahead", counted)
    for jobs in ("2", "1"):
        monkeypatch.setattr(compile_ahead, "_AHEAD", None)
        compiled.cache_clear()
        assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", jobs,
                     "--output", str(tmp_path / f"jobs{jobs}")]) == 0
    assert started[0] >= 24 and started[1:] == [0]   # only the build with two processes rendered ahead
    two, one = _tree(tmp_path / "jobs2"), _tree(tmp_path / "jobs1")
    assert len(two) > 30 and two == one


class _Engine:
    def render(self, name: str, context: Any, *, page: str = "", source: str = "", key: str = "") -> str:
        return f"{name}:{key}"

    def preload(self, names: Any) -> None:
        pass


class _Ahead:
    def __init__(self, pages: list[PlannedPage], spooled: dict[str, str]) -> None:
        self.pages = pages
        self._spooled = spooled

    def results(self) -> dict[str, tuple[str, Any]]:
        return {page.output_path: (page.key, self._spooled[page.output_path]) for page in self.pages}


def _page(path: str, key: str) -> PlannedPage:
    return PlannedPage(path, "/" + path, "single.html", {}, key, "", "post")


def test_a_page_rendered_ahead_under_another_key_is_rendered_again_and_an_unplanned_one_dropped(
        tmp_path: Path) -> None:
    stage = tmp_path / "stage"
    spooled = {}
    for path in ("a/index.html", "b/index.html", "gone/index.html"):
        spooled[path] = pools.spool(f"ahead {path}".encode(), str(stage), path)
    pools.forget_spool_folders()
    ahead = _Ahead([_page("a/index.html", "k1"), _page("b/index.html", "old"), _page("gone/index.html", "k3")],
                   spooled)
    planned = [_page("a/index.html", "k1"), _page("b/index.html", "new"), _page("list/index.html", "k4")]
    outcomes = _with_ahead(_Engine(), planned, 1, str(stage), ahead)  # type: ignore[arg-type]
    assert set(outcomes) == {"a/index.html", "b/index.html", "list/index.html"}
    assert outcomes["a/index.html"] == spooled["a/index.html"]                 # taken from ahead
    assert (stage / "a/index.html").read_bytes() == b"ahead a/index.html"
    assert (stage / "b/index.html").read_bytes() == b"single.html:new"        # rendered again under its key
    assert (stage / "list/index.html").read_bytes() == b"single.html:k4"
    assert not (stage / "gone/index.html").exists()                           # not planned: not published
