"""A list page's .Data as Hugo gives it: .Data.Term on a term page is the term as first written, nil on every
other page (PaperMod's list.html reads it on every list: a home page or section must not fail on it);
.Data.Singular and .Data.Plural on taxonomy and term pages. tests/hugo_sites/page_data built by the hugo
binary and by blogbuild: every page the same HTML."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "page_data"


def test_every_lists_data_is_hugos(tmp_path: Path) -> None:
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert "tags/machine-learning/index.html" in pages and "index.html" in pages
    assert [path for path in pages if ours.get(path) != hugo[path]] == [] and warnings == []
    assert b"term=[Machine Learning]" in ours["tags/machine-learning/index.html"]
