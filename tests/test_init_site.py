"""`blogbuild init` with no flag: a new site that builds and serves at once, never over an existing file."""
from __future__ import annotations

import io
import urllib.request
from pathlib import Path

import pytest

from blogbuild.cli import main
from blogbuild.commands.serve import ServeOptions
from blogbuild.serve import DevServer

WRITTEN = ("blogbuild.yaml", "content/posts/hello-world.md", "templates/README.md", "static/README.md")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_init_writes_a_site_that_builds_at_once(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init"]) == 0
    out = capsys.readouterr().out
    for name in WRITTEN:
        assert (folder / name).is_file(), name
        assert f"wrote {name}" in out
    assert "blogbuild serve" in out
    assert (folder / "templates" / "README.md").read_text(encoding="utf-8").count("\n") == 1
    assert (folder / "static" / "README.md").read_text(encoding="utf-8").count("\n") == 1
    assert main(["build", "--no-cache"]) == 0
    page = (folder / "public" / "posts" / "hello-world" / "index.html").read_text(encoding="utf-8")
    assert "Hello, world" in page and 'class="katex' in page and "mermaid" in page
    assert ", 0 warnings" in capsys.readouterr().out


def test_init_serves_at_once(folder: Path) -> None:
    assert main(["init", "--quiet"]) == 0
    server = DevServer(ServeOptions(root=str(folder), port=0), out=io.StringIO())
    server.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/posts/hello-world/", timeout=30) as response:
            assert response.status == 200 and b"Hello, world" in response.read()
    finally:
        server.stop()


def test_init_refuses_to_overwrite_and_writes_nothing(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (folder / "blogbuild.yaml").write_text("title: Mine\n", encoding="utf-8")
    assert main(["init"]) == 1
    err = capsys.readouterr().err
    assert "blogbuild.yaml already exists; nothing was written" in err and "--force" in err
    assert (folder / "blogbuild.yaml").read_text(encoding="utf-8") == "title: Mine\n"
    assert not (folder / "content").exists()
    assert main(["init", "--force"]) == 0
    assert "My Blog" in (folder / "blogbuild.yaml").read_text(encoding="utf-8")


def test_init_in_a_hugo_site_points_to_from_hugo(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (folder / "hugo.toml").write_text('title = "T"\n', encoding="utf-8")
    assert main(["init"]) == 1
    assert "init --from-hugo" in capsys.readouterr().err
    assert not (folder / "blogbuild.yaml").exists()


def test_init_with_root_writes_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "--root", str(tmp_path / "blog")]) == 0
    assert "--root" in capsys.readouterr().out
    assert main(["build", "--root", str(tmp_path / "blog"), "--quiet", "--no-cache"]) == 0
    assert (tmp_path / "blog" / "public" / "posts" / "hello-world" / "index.html").is_file()


def test_init_writes_a_gitignore_of_the_published_tree_the_cache_and_a_venv(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init"]) == 0
    assert (folder / ".gitignore").read_text(encoding="utf-8") == "public/\n.blogbuild-cache/\n.venv/\n"
    assert "wrote .gitignore (public/, .blogbuild-cache/, .venv/)" in capsys.readouterr().out


def test_init_adds_the_missing_lines_to_a_gitignore_and_keeps_the_rest(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (folder / ".gitignore").write_text("# mine\n*.log\n/public\n.venv/", encoding="utf-8")
    assert main(["init"]) == 0
    assert (folder / ".gitignore").read_text(encoding="utf-8") == "# mine\n*.log\n/public\n.venv/\n.blogbuild-cache/\n"
    assert "added .blogbuild-cache/ to .gitignore" in capsys.readouterr().out


def test_init_leaves_a_gitignore_that_ignores_everything_already(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = ".blogbuild-cache/\npublic/\n.venv\n"
    (folder / ".gitignore").write_text(text, encoding="utf-8")
    before = (folder / ".gitignore").stat().st_mtime_ns
    assert main(["init"]) == 0
    assert (folder / ".gitignore").read_text(encoding="utf-8") == text
    assert (folder / ".gitignore").stat().st_mtime_ns == before
    assert "kept .gitignore: it ignores public/, .blogbuild-cache/, .venv/ already" in capsys.readouterr().out
