"""The author's own CSS (theme.extended_css; on a PaperMod site assets/css/extended/*.css): published as one file
after the theme's stylesheet, picked up by a warm build and watched by the server, and no longer named as unused."""
from __future__ import annotations

import contextlib
import io
import os
import shutil
from pathlib import Path

import pytest

from blogbuild.cli import main
from blogbuild.config import load_config
from blogbuild.core.errors import BlogbuildError
from blogbuild.serve.watch import ChangeKind, classify, plan_for

POST = "---\ntitle: One\ndate: 2024-01-01\n---\nText.\n"
PAPERMOD = "title: PM\nbaseURL: https://example.org/\ntheme: PaperMod\n"


def _site(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _build(root: Path, *flags: str) -> str:
    """Build (with the cache unless flags say otherwise); the build's warnings."""
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        assert main(["build", "--root", str(root), "--quiet", *flags]) == 0, errors.getvalue()
    return errors.getvalue()


def _links(root: Path) -> list[str]:
    html = (root / "public" / "posts" / "one" / "index.html").read_text(encoding="utf-8")
    return [line for line in html.splitlines() if line.startswith('<link rel="stylesheet"')]


def _touch_later(path: Path, text: str) -> None:
    """Write text and move the mtime on, so a stat pass sees the change even within one clock tick."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 2_000_000_000, before + 2_000_000_000))


def test_a_warm_build_picks_up_an_edited_an_added_and_a_removed_stylesheet(tmp_path: Path) -> None:
    root = _site(tmp_path / "site", {"config.yml": PAPERMOD, "content/posts/one.md": POST,
                                     "assets/css/extended/b.css": ".b { color: blue; }\n"})
    warnings = _build(root)
    sheet = root / "public" / "css" / "extended.css"
    assert sheet.read_text(encoding="utf-8") == ".b { color: blue; }\n"
    assert _links(root)[-1] == '<link rel="stylesheet" href="/css/extended.css">', "after the theme's CSS"
    assert "extended/b.css" not in warnings, "a published stylesheet is not named as unused"
    _touch_later(root / "assets/css/extended/b.css", ".b { color: navy; }\n")
    _build(root)
    assert sheet.read_text(encoding="utf-8") == ".b { color: navy; }\n"
    _touch_later(root / "assets/css/extended/a.css", ".a { margin: 0; }\n")
    _build(root)
    assert sheet.read_text(encoding="utf-8") == ".a { margin: 0; }\n.b { color: navy; }\n", "name order, as PaperMod"
    (root / "assets/css/extended/a.css").unlink()
    (root / "assets/css/extended/b.css").unlink()
    _build(root)
    assert not sheet.exists() and not any("extended" in link for link in _links(root))


def test_the_server_watches_the_stylesheets_as_files_every_build_reads(tmp_path: Path) -> None:
    root = _site(tmp_path / "site", {"config.yml": PAPERMOD, "content/posts/one.md": POST,
                                     "assets/css/extended/a.css": ".a {}\n", "assets/js/x.js": ""})
    plan = plan_for(load_config(root=root))
    assert os.path.abspath(root / "assets/css/extended") in plan.folders()
    assert classify(str(root / "assets/css/extended/a.css"), plan) is ChangeKind.STATIC
    assert classify(str(root / "assets/js/x.js"), plan) is None


def test_a_blogbuild_site_names_its_own_stylesheets(tmp_path: Path) -> None:
    config = "title: Mine\ntheme:\n  extended_css: [css/own/*.css, extra.css]\n"
    root = _site(tmp_path / "site", {"blogbuild.yaml": config, "content/posts/one.md": POST,
                                     "css/own/z.css": "z {}\n", "css/own/deeper/no.css": "no {}\n",
                                     "extra.css": "extra {}\n"})
    _build(root, "--no-cache")
    assert (root / "public/css/extended.css").read_text(encoding="utf-8") == "z {}\nextra {}\n"
    (root / "blogbuild.yaml").write_text("title: Mine\ntheme:\n  extended_css: [../outside.css]\n", encoding="utf-8")
    with pytest.raises(BlogbuildError, match="under the site folder"):
        load_config(root=root)


def test_only_papermods_stylesheets_leave_the_unused_inventory(tmp_path: Path) -> None:
    from blogbuild.hugo.config import read_hugo_config
    root = _site(tmp_path / "site", {"config.yml": PAPERMOD, "assets/css/extended/a.css": "",
                                     "assets/css/custom.css": "", "assets/js/x.js": ""})
    hugo = read_hugo_config(root)
    assert hugo is not None
    assert hugo.site_files == ("assets/css/custom.css", "assets/js/x.js")
    other = _site(tmp_path / "other", {"config.yml": "title: T\ntheme: ananke\n", "assets/css/extended/a.css": ""})
    assert read_hugo_config(other).site_files == ("assets/css/extended/a.css",), "only PaperMod bundles them"


@pytest.mark.parametrize("folders", ["extended", "assets"])
def test_the_server_sees_a_stylesheet_folder_made_after_it_started(tmp_path: Path, folders: str) -> None:
    """A real server and real file events: the author's extended/ folder (or all of assets/) does not exist when
    `serve` starts; making it with a stylesheet in it publishes the stylesheet, and later edits are seen too."""
    import http.client
    import time

    from blogbuild.commands.serve import ServeOptions
    from blogbuild.serve import DevServer

    files = {"config.yml": PAPERMOD, "content/posts/one.md": POST}
    if folders == "extended":
        files["assets/css/other.css"] = ""
    root = _site(tmp_path / "site", files)

    def fetched(server: DevServer, target: str) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            connection.request("GET", target)
            response = connection.getresponse()
            return response.status, response.read().decode("utf-8", "replace")
        finally:
            connection.close()

    def wait_for(predicate, message: str) -> None:
        deadline = time.monotonic() + 60   # a bound on waiting for a rebuild, not a performance claim
        while not predicate():
            assert time.monotonic() < deadline, f"timed out waiting for {message}"
            time.sleep(0.05)

    with DevServer(ServeOptions(root=str(root), port=0, quiet=True), out=io.StringIO()) as server:
        assert fetched(server, "/css/extended.css")[0] == 404
        folder = root / "assets/css/extended"
        folder.mkdir(parents=True)
        (folder / "mine.css").write_text(".mine { color: teal; }\n", encoding="utf-8")
        wait_for(lambda: fetched(server, "/css/extended.css") == (200, ".mine { color: teal; }\n"), "the new sheet")
        assert "/css/extended.css" in fetched(server, "/posts/one/")[1]
        (folder / "mine.css").write_text(".mine { color: navy; }\n", encoding="utf-8")
        wait_for(lambda: fetched(server, "/css/extended.css") == (200, ".mine { color: navy; }\n"), "the edit")
        # Removed and made again at once (a checkout of another branch): the new folder is watched, not the old one.
        shutil.rmtree(folder)
        folder.mkdir()
        (folder / "again.css").write_text(".again { color: plum; }\n", encoding="utf-8")
        wait_for(lambda: fetched(server, "/css/extended.css") == (200, ".again { color: plum; }\n"), "the new folder")
        (folder / "again.css").write_text(".again { color: gold; }\n", encoding="utf-8")
        wait_for(lambda: fetched(server, "/css/extended.css") == (200, ".again { color: gold; }\n"),
                 "an edit in the new folder")
