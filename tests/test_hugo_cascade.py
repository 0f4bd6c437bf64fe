"""Hugo's cascade (core/cascade.py) on a site its own layouts render: tests/hugo_sites/cascade built by the hugo
binary and by blogbuild, every page the same DOM. The fixture's home page cascades a param, a featured image and
`layout: special` to every page (the home page itself, sections, pages, the taxonomy and its term, 404); its posts
section a list of maps: params with a target path that leaves the section page out, a `type` for the section and
everything below, and a `_target` (the name before Hugo 0.156) reaching one folder's pages; a leaf page's own
cascade reaches the page itself; a term's _index.md cascades to its own page; the config's cascades reach every
page, below every front matter's, one of them only the notes section and its pages (a target of `{…,…}` globs of
path and kind). A page's own field wins (a `layout:` of its own, a param it sets); a section
without _index.md and pages of no content file take what reaches them too. The cascaded image is written inside a
style attribute's `url('…')`, as Ananke's header writes it: a URL's escaping there, not CSS's."""
from __future__ import annotations

import re
from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "cascade"


def _line(files: dict[str, bytes], path: str) -> str:
    found = re.search(r"<p>(.*?)</p>", files[path].decode())
    assert found is not None, path
    return found.group(1)


def test_cascaded_front_matter_reaches_the_pages_hugo_hands_it_to(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert not [warning for warning in warnings if "default theme" in str(warning)]
    assert sorted(path for path in hugo if path.endswith(".html")) == \
        sorted(path for path in ours if path.endswith(".html") and path in hugo)
    assert differing_pages(hugo, ours) == []
    assert "color=own-color" in _line(ours, "posts/a/index.html")
    assert "leaf=leafy" in _line(ours, "posts/a/index.html")
    assert "flag=only-deep" in _line(ours, "posts/deep/b/index.html") and "flag= " in _line(ours, "posts/deep/index.html")
    assert "color=home-color" in _line(ours, "posts/index.html") and "type=article" in _line(ours, "posts/index.html")
    assert _line(ours, "notes/n/index.html").startswith("page ") and "layout=plain" in _line(ours, "notes/n/index.html")
    for page in ("index.html", "notes/index.html", "tags/index.html", "tags/go/index.html", "404.html"):
        assert "cfg=config" in _line(ours, page) and "fi=/home.jpg" in _line(ours, page), page
    assert "term=t" in _line(ours, "tags/go/index.html")
    assert "zone=notes-zone" in _line(ours, "notes/index.html") and "zone=notes-zone" in _line(ours, "notes/n/index.html")
    assert "zone=" in _line(ours, "index.html") and "zone=notes" not in _line(ours, "index.html")
    assert "ARTICLE" in ours["posts/deep/b/index.html"].decode()
    assert "url('https://example.org/home.jpg')" in ours["notes/index.html"].decode()


def test_a_changed_cascade_renders_the_pages_below_it_again(tmp_path: Path) -> None:
    """The cascades are part of the posts' render key: a warm build after an _index.md's cascade changed
    publishes what a cold build of the same files does."""
    import shutil

    from blogbuild.cli import main
    site = tmp_path / "site"
    shutil.copytree(FIXTURE, site)
    assert main(["build", "--quiet", "--root", str(site)]) == 0
    assert "color=posts-color" in (site / "public/posts/deep/b/index.html").read_text()
    index = site / "content/posts/_index.md"
    index.write_text(index.read_text().replace("color: posts-color", "color: teal"))
    assert main(["build", "--quiet", "--root", str(site)]) == 0
    warm = {path.relative_to(site / "public"): path.read_bytes() for path in (site / "public").rglob("*.html")}
    assert "color=teal" in warm[Path("posts/deep/b/index.html")].decode()
    cold = tmp_path / "cold"
    shutil.copytree(site, cold, ignore=shutil.ignore_patterns("public", ".blogbuild-cache"))
    assert main(["build", "--quiet", "--root", str(cold)]) == 0
    assert warm == {path.relative_to(cold / "public"): path.read_bytes() for path in (cold / "public").rglob("*.html")}


def test_a_cascade_that_is_no_map_is_an_error_at_its_line(tmp_path: Path, capsys) -> None:
    """Hugo refuses the site ("expected a map, got 'string'"); blogbuild names the file, the line and the shape to
    write, and leaves the output as it was."""
    import shutil

    from blogbuild.cli import main
    site = tmp_path / "site"
    shutil.copytree(FIXTURE, site)
    (site / "content/notes/n.md").write_text("---\ntitle: N\nlayout: plain\ncascade:\n  - color: red\n  - oops\n---\nN.\n")
    assert main(["build", "--quiet", "--root", str(site)]) == 1
    error = capsys.readouterr().err
    assert "content/notes/n.md:4: cascade must be a map of front matter" in error and "Traceback" not in error
    assert not (site / "public").exists()
