"""Hugo's lt, le, gt and ge compare values of different kinds as its compare package does (a string of a number as
that number, another string against a number as 0, a list or map as its length, true as 1, a time by its instant,
hugo.Version as a version), where Python would refuse to; a partial that is not an .html file (svg/time.svg) is
called by its file's name. tests/hugo_sites/compare_partials built by the hugo binary and by blogbuild: the same
page."""
from __future__ import annotations

from pathlib import Path

from support.dom import dom_tokens
from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "compare_partials"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


def test_comparisons_and_partials_are_hugos(tmp_path: Path) -> None:
    hugo, ours, _ = built_by_both(FIXTURE, tmp_path)
    assert dom_tokens(ours["index.html"].decode(), drop=_GENERATOR) == dom_tokens(hugo["index.html"].decode(),
                                                                                   drop=_GENERATOR)
    assert '<svg class="icon"' in ours["index.html"].decode()
