"""The Theme seam: a second theme (tests/themes/plain/, two templates) renders a site through the same Planner
and Builder as the default theme, which the Planner only asks for each page kind's template."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.files import write_files

from blogbuild.config import load_config
from blogbuild.pipeline import Builder
from blogbuild.themes import PAGE_KINDS, Theme
from blogbuild.themes.default import DEFAULT_THEME

PLAIN = Theme("plain", Path(__file__).resolve().parent / "themes" / "plain",
              {kind: "single.html" if kind == "post" else "list.html" for kind in PAGE_KINDS})

POST = "---\ntitle: {title}\ndate: 2025-03-0{day}T09:00:00+08:00\ntags: [notes]\n{extra}---\n\nBody of {title}.\n"


def _site(tmp_path: Path) -> Path:
    return write_files(tmp_path / "site", {
        "blogbuild.yaml": "title: Plain\nbase_url: https://example.org/\n",
        "content/posts/first.md": POST.format(title="First", day=1, extra="aliases: [/old-first/]\n"),
        "content/posts/second.md": POST.format(title="Second", day=2, extra=""),
    })


def test_a_second_theme_renders_a_site_through_the_same_seam(tmp_path: Path) -> None:
    result = Builder(load_config(None, root=_site(tmp_path)), theme=PLAIN).build()
    assert result.ok, result.errors
    files = result.files
    post = files["posts/first/index.html"].data.decode()
    assert "<article><h1>First</h1>" in post and "Body of First." in post and "/plain.css" in post
    home = files["index.html"].data.decode()
    assert "<h1>home: Plain</h1>" in home
    assert home.index('href="/posts/second/"') < home.index('href="/posts/first/"')   # newest first
    assert "<h1>term: notes</h1>" in files["tags/notes/index.html"].data.decode()
    assert "<h1>terms: Tags</h1>" in files["tags/index.html"].data.decode()
    assert 'href="https://example.org/posts/first/">moved' in files["old-first/index.html"].data.decode()
    assert "<h1>404: " in files["404.html"].data.decode()
    # The theme's static files, not the default theme's.
    assert "plain.css" in files and not any(path.startswith("js/") for path in files)


def test_the_default_theme_names_a_template_for_every_page_kind() -> None:
    assert {kind: DEFAULT_THEME.template_for(kind) for kind in PAGE_KINDS} == {
        kind: f"{kind}.html" for kind in PAGE_KINDS}
    assert "post.html" not in DEFAULT_THEME.page_templates and "base.html" in DEFAULT_THEME.page_templates
    assert DEFAULT_THEME.templates_dir.joinpath("post.html").is_file()


def test_a_theme_must_name_a_template_for_every_page_kind() -> None:
    with pytest.raises(ValueError, match="names no template for search, 404"):
        Theme("half", PLAIN.folder, {kind: "list.html" for kind in PAGE_KINDS if kind not in ("search", "404")})
