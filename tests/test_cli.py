"""cli.py, in-process: argv becomes a command's options, errors become exit codes, never a traceback."""
from __future__ import annotations

from pathlib import Path

import pytest

from blogbuild import version
from blogbuild.cli import main, make_parser

POST = "---\ntitle: One\ndate: 2024-01-02\ntags: [a]\n---\nHello *world*.\n"


def test_version_prints_the_version_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out.strip() == f"blogbuild {version.__version__}"


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: blogbuild" in capsys.readouterr().err


def test_unknown_flag_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["build", "--no-such-flag"])
    assert stopped.value.code == 2
    assert "unrecognized arguments: --no-such-flag" in capsys.readouterr().err


def test_every_command_has_a_module_in_commands() -> None:
    parser = make_parser()
    choices = next(action for action in parser._actions if action.dest == "command").choices
    assert choices is not None
    commands = Path(__file__).resolve().parent.parent / "src" / "blogbuild" / "commands"
    modules = {path.stem.rstrip("_") for path in commands.glob("*.py") if path.stem != "__init__"}
    assert set(choices) <= modules


def test_build_flags_reach_the_build(make_site, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/posts/one.md": POST})
    assert main(["build", "--root", str(site), "--output", "out", "--base-url", "https://example.org/blog/",
                 "--quiet", "--no-cache"]) == 0
    assert capsys.readouterr().out == ""   # --quiet
    page = (site / "out" / "posts" / "one" / "index.html").read_text(encoding="utf-8")
    assert "https://example.org/blog/posts/one/" in page
    assert not (site / "public").exists()   # --output
    assert not (site / ".blogbuild-cache").exists()   # --no-cache


def test_content_error_exits_1_with_path_line_and_no_traceback(make_site,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/posts/bad.md": "---\ntitle: [unclosed\n---\nbody\n"})
    assert main(["build", "--root", str(site)]) == 1
    err = capsys.readouterr().err
    assert "bad.md:2" in err
    assert "Traceback" not in err


def test_missing_content_folder_is_an_error_not_a_traceback(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: content folder") and "--source DIR" in err
    assert "Traceback" not in err


def test_new_splits_tags_and_honours_section_and_source(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "site-content"
    assert main(["new", "A title", "--tags", " x, ,y ", "--section", "notes", "--source", str(source)]) == 0
    path = source / "notes" / "a-title.md"
    assert capsys.readouterr().out.strip() == path.as_posix()
    assert 'tags: ["x", "y"]\n' in path.read_text(encoding="utf-8")


def test_fix_dry_run_flag_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damaged = "math: true\n---\ntitle: T\n---math: true\n---\nbody\n"
    path = tmp_path / "post.md"
    path.write_text(damaged, encoding="utf-8")
    assert main(["fix", "--dry-run", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == damaged
    assert "+++ " in capsys.readouterr().out
