"""A page whose formulas blogbuild typesets at build time reads as Hugo's in text: .Plain, .Summary | plainify
and .WordCount see each formula's TeX between its $ or $$, as on Hugo's page (Hugo leaves math to the reader's
browser), not the typeset formula's letters ("rrr"). tests/hugo_sites/math_plain built by the hugo binary and
by blogbuild: the list of its texts is the same."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "math_plain"


def test_a_typeset_formula_reads_as_its_tex(tmp_path: Path) -> None:
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, _warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    assert b'<span class="katex">' in ours["posts/odds/index.html"]   # typeset at build time
    assert ours["posts/index.html"].decode() == hugo["posts/index.html"].decode()
    assert "($0 &lt; r &lt; 1$)" in ours["posts/index.html"].decode()
