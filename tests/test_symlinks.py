"""A site's files are the site's: symbolic links out of the site folder, loops and dangling links in content,
bundles, static files and templates are skipped with one warning each, and nothing outside the site is read,
published or written (a marker planted outside must appear nowhere in public/)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from blogbuild.cli import main
from support.files import read_tree, write_files

MARKER = "OUTSIDE-THE-SITE-7f3a"
GOOD = '---\ntitle: "Good"\ndate: 2025-01-02\n---\nA good post.\n'
OUTSIDE_ONLY = "it points outside the site folder, and a build reads nothing outside it; copy the file into " \
               "the site instead of linking to it"


def link(path: Path, target: str | Path) -> None:
    """A symbolic link at path to target (as written: relative targets stay relative)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)


def every_entry(root: Path) -> dict[str, bytes]:
    """Files (with their bytes), folders and links below root, links not followed: what a build must not change."""
    entries: dict[str, bytes] = {}
    for folder, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(folder) / name
            relative = path.relative_to(root).as_posix()
            if path.is_symlink():
                entries[relative] = b"link:" + os.readlink(path).encode()
            elif path.is_file():
                entries[relative] = path.read_bytes()
            else:
                entries[relative] = b"dir"
    return entries


def build(site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, *extra: str) -> tuple[int, list[str]]:
    """`blogbuild build` in the site folder: exit code and stderr lines."""
    monkeypatch.chdir(site)
    capsys.readouterr()
    code = main(["build", "-j", "1", *extra])
    return code, capsys.readouterr().err.splitlines()


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the site holding a post, a page bundle's file, a static folder and templates, each with
    the marker."""
    folder = tmp_path / "outside"
    write_files(folder, {
        "leak.md": f'---\ntitle: "Leak {MARKER}"\ndate: 2025-01-03\ntags: [{MARKER}]\n---\n{MARKER} body\n',
        "notes/other.md": f'---\ntitle: "Other"\n---\n{MARKER}\n',
        "photo.txt": MARKER,
        "assets/secret.css": f"/* {MARKER} */",
        "base.html": f"{MARKER} {{% block content %}}{{% endblock %}}",
        "note.html": MARKER,
        "readme.txt": MARKER,
    })
    return folder


def test_links_out_of_the_site_are_skipped_with_one_warning_each(tmp_path: Path, outside: Path,
                                                                   monkeypatch, capsys) -> None:
    site = tmp_path / "site"
    write_files(site, {"content/posts/good.md": GOOD,
                       "content/posts/bundle/index.md": GOOD.replace("Good", "Bundle") + "{{< note >}}\n"})
    link(site / "content/leak.md", outside / "leak.md")                       # a post
    link(site / "content/notes", outside / "notes")                           # a folder of posts
    link(site / "content/posts/bundle/photo.txt", outside / "photo.txt")      # a bundle's file
    link(site / "static/ext", outside / "assets")                             # a static folder
    link(site / "static/readme.txt", outside / "readme.txt")                  # a static file
    link(site / "templates/base.html", outside / "base.html")                 # a page template
    link(site / "templates/shortcodes/note.html", outside / "note.html")      # a shortcode
    before = every_entry(tmp_path)

    code, stderr = build(site, monkeypatch, capsys)

    assert code == 0, stderr
    assert stderr == [   # by file and line, as warnings are printed
        f"content/leak.md: warning: symbolic link to {outside / 'leak.md'} skipped: {OUTSIDE_ONLY}",
        f"content/notes: warning: symbolic link to {outside / 'notes'} skipped: {OUTSIDE_ONLY}",
        # the shortcode the skipped template would have defined is now unknown, and said so
        "content/posts/bundle/index.md:6: warning: unknown shortcode 'note'; add templates/shortcodes/note.html "
        "or remove it",
        f"content/posts/bundle/photo.txt: warning: symbolic link to {outside / 'photo.txt'} skipped: {OUTSIDE_ONLY}",
        f"static/ext: warning: symbolic link to {outside / 'assets'} skipped: {OUTSIDE_ONLY}",
        f"static/readme.txt: warning: symbolic link to {outside / 'readme.txt'} skipped: {OUTSIDE_ONLY}",
        f"templates/base.html: warning: symbolic link to {outside / 'base.html'} skipped: {OUTSIDE_ONLY}",
        f"templates/shortcodes/note.html: warning: symbolic link to {outside / 'note.html'} skipped: {OUTSIDE_ONLY}",
    ]
    published = read_tree(site / "public")
    assert [path for path, data in published.items() if MARKER.encode() in data] == []
    assert "posts/good/index.html" in published and "posts/bundle/index.html" in published
    assert not any(path.startswith(("leak", "notes", "ext/")) or path.endswith("photo.txt") for path in published)
    after = every_entry(tmp_path)
    assert {path: data for path, data in after.items() if not path.startswith(("site/public", "site/.blogbuild-cache"))} \
        == before


def test_links_inside_the_site_are_followed(tmp_path: Path, monkeypatch, capsys) -> None:
    """A link to a file or folder elsewhere in the site folder is the site's own: published as if it were there."""
    site = tmp_path / "site"
    write_files(site, {"content/posts/good.md": GOOD,
                       "drafts/shared.md": '---\ntitle: "Shared"\ndate: 2025-01-04\n---\nShared text.\n',
                       "figures/plot.txt": "plot",
                       "templates-shared/shortcodes/hello.html": "<b>hello {{ args[0] }}</b>"})
    link(site / "content/posts/shared.md", "../../drafts/shared.md")
    link(site / "content/posts/figures", site / "figures")
    link(site / "static/plot.txt", "../figures/plot.txt")
    link(site / "templates/shortcodes", "../templates-shared/shortcodes")
    (site / "content/posts/good.md").write_text(GOOD + '{{< hello "world" >}}\n', encoding="utf-8")

    code, stderr = build(site, monkeypatch, capsys)

    assert (code, stderr) == (0, [])
    published = read_tree(site / "public")
    assert b"Shared text." in published["posts/shared/index.html"]
    assert published["posts/figures/plot.txt"] == b"plot" and published["plot.txt"] == b"plot"
    assert b"<b>hello world</b>" in published["posts/good/index.html"]


def test_a_content_folder_linked_in_whole_is_read(tmp_path: Path, outside: Path, monkeypatch, capsys) -> None:
    """As in Hugo, a root folder (content/, static/) may itself be a link: the config names it, so it is the site's."""
    site = tmp_path / "site"
    write_files(site, {"blogbuild.yaml": "title: Linked\n"})
    write_files(outside, {"content/posts/away.md": GOOD.replace("Good", "Away")})
    link(site / "content", outside / "content")

    code, stderr = build(site, monkeypatch, capsys)

    assert (code, stderr) == (0, [])
    assert (site / "public/posts/away/index.html").is_file()


def test_loops_and_dangling_links_are_warnings(tmp_path: Path, monkeypatch, capsys) -> None:
    site = tmp_path / "site"
    write_files(site, {"content/posts/good.md": GOOD})
    link(site / "content/posts/again", ".")                 # a folder that contains itself
    link(site / "content/a/up", "../../content")            # back to an ancestor, through a parent
    link(site / "content/one.md", "two.md")                 # two links pointing at each other
    link(site / "content/two.md", "one.md")
    link(site / "content/gone.md", "nowhere.md")            # dangling
    link(site / "static/x/y", "../x")

    code, stderr = build(site, monkeypatch, capsys)

    content = os.path.realpath(site / "content")
    loop = "a symbolic link loop (it leads back into a folder that contains it); remove the link"
    cycle = "a symbolic link loop (links that point at each other); remove the link"
    assert code == 0, stderr
    assert stderr == [
        f"content/a/up: warning: symbolic link to {content} skipped: {loop}",
        "content/gone.md: warning: symbolic link to nowhere.md skipped: its target does not exist; remove the link "
        "or restore the file",
        f"content/one.md: warning: symbolic link to two.md skipped: {cycle}",
        f"content/posts/again: warning: symbolic link to {content}/posts skipped: {loop}",
        f"content/two.md: warning: symbolic link to one.md skipped: {cycle}",
        f"static/x/y: warning: symbolic link to {os.path.realpath(site / 'static/x')} skipped: {loop}",
    ]
    assert (site / "public/posts/good/index.html").is_file()


def test_many_links_to_one_folder_are_read_once(tmp_path: Path, monkeypatch, capsys) -> None:
    """Links that fan out (each level linking twice to the next) would make the walk exponential: a folder is
    read through one path only, the others are warnings, and the build ends at once."""
    site = tmp_path / "site"
    write_files(site, {"content/posts/good.md": GOOD, "levels/0/file.txt": "x"})
    for level in range(1, 25):
        link(site / f"levels/{level}/a", f"../{level - 1}")
        link(site / f"levels/{level}/b", f"../{level - 1}")
    link(site / "static/deep", "../levels/24")

    code, stderr = build(site, monkeypatch, capsys)

    assert code == 0, stderr
    assert len(stderr) == 24 and all("read already through another path" in line for line in stderr)
    assert sum(1 for path in (site / "public/deep").rglob("file.txt")) == 1


def test_helpers_that_read_content_outside_a_build_skip_links_out_of_the_site(tmp_path: Path) -> None:
    """`init --from-hugo`'s inventory of shortcode uses and `new --series`'s next order read content too: a link
    out of the site is not read by them either (the outside post uses a shortcode and claims series order 9)."""
    from blogbuild.hugo.config import templates_to_port
    from blogbuild.content.new_post import next_series_order
    site = tmp_path / "site"
    write_files(tmp_path / "outside", {"leak.md": '---\ntitle: "Leak"\nseries: ["s"]\nseries_order: 9\n---\n'
                                                  '{{< secretcode >}}\n'})
    write_files(site, {"content/posts/a.md": '---\ntitle: "A"\nseries: ["s"]\nseries_order: 1\n---\n{{< youtube x >}}\n',
                       # not translatable (resources.PostCSS), so init --from-hugo lists it with its uses
                       "layouts/shortcodes/secretcode.html": '{{ resources.PostCSS "x" }}'})
    link(site / "content" / "posts" / "leak.md", tmp_path / "outside" / "leak.md")
    assert next_series_order(site / "content", "s") == 2
    ported = {item.path: item for item in templates_to_port(site)}
    assert ported["layouts/shortcodes/secretcode.html"].uses == ()
    (site / "content" / "posts" / "leak.md").unlink()
    link(site / "content" / "posts" / "leak.md", "a.md")            # a link inside the site is read
    assert next_series_order(site / "content", "s") == 3
