"""cli.py, in-process: argv becomes a command's options, errors become exit codes, never a traceback."""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from blogbuild.core import version
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
    # --no-cache: no cache file is written (the folder holds the build lock only, site_lock.py)
    assert [path.name for path in (site / ".blogbuild-cache").iterdir()] == ["build.lock"]


def test_a_build_without_a_cache_leaves_no_scratch_folder_and_removes_a_killed_one_s(make_site, tmp_path: Path) -> None:
    """Without a cache, image variants and cards go to a scratch folder in the system's temporary folder,
    named for the process: the build removes its own at exit, and one a killed build left behind (its
    process gone); a folder of a living process, or not named so, stays."""
    site = make_site({"content/posts/one.md": POST})
    temp = tmp_path / "temp"
    temp.mkdir()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    (temp / f"blogbuild-media-{gone.stdout.strip()}-x1" / "cards").mkdir(parents=True)   # a killed build's
    (temp / f"blogbuild-media-{os.getpid()}-x2").mkdir()   # a living process's
    (temp / "blogbuild-media-other").mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    subprocess.run([sys.executable, "-m", "blogbuild", "build", "--root", str(site), "--quiet", "--no-cache"],
                   env=env, check=True)
    assert (site / "public" / "posts" / "one" / "index.html").is_file()
    assert sorted(path.name for path in temp.iterdir()) == sorted(["blogbuild-media-other", f"blogbuild-media-{os.getpid()}-x2"])


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
    assert err.startswith(f"Error: {tmp_path} is not a site folder") and "`blogbuild init`" in err
    assert "Traceback" not in err
    assert not (tmp_path / ".blogbuild-cache").exists()   # nothing left behind in a folder that is no site
    assert main(["build", "--root", str(tmp_path)]) == 1
    assert "is not a site folder" in capsys.readouterr().err and not (tmp_path / ".blogbuild-cache").exists()
    (tmp_path / "blogbuild.yaml").write_text("title: T\n", encoding="utf-8")
    assert main(["check", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: content folder") and "mkdir content" in err and "--source DIR" in err


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


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    action = next(action for action in make_parser()._actions if isinstance(action, argparse._SubParsersAction))
    return dict(action.choices)


def _options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [action for action in parser._actions if not isinstance(action, argparse._HelpAction)]


@pytest.mark.parametrize("command", sorted(_subparsers()))
def test_every_option_has_help_that_shows_its_default(command: str) -> None:
    for action in _options(_subparsers()[command]):
        name = "/".join(action.option_strings) or action.dest
        assert action.help, f"{command} {name} has no help"
        if not action.option_strings:
            continue   # a positional argument has no default
        if action.required:
            assert "(required" in action.help, f"{command} {name}: help does not say it is required"
            continue
        assert re.search(r"\(default: [^)]+\)", action.help), f"{command} {name}: no '(default: …)' in its help"
        default = action.default
        if isinstance(default, (int, str)) and not isinstance(default, bool) and default not in (0, ""):
            assert f"default: {default}" in action.help, f"{command} {name}: help does not show {default!r}"


def test_top_level_help_lists_each_command_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in _subparsers():
        line = next((line for line in out.splitlines() if line.strip().startswith(command + " ")), "")
        assert len(line.split()) > 2, f"no one-line description of {command} in blogbuild --help"


@pytest.mark.parametrize("command", sorted(_subparsers()))
def test_each_command_has_its_own_description(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, "--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: blogbuild {command}")
    description = out.split("\n\n")[1]
    assert not description.startswith(("positional arguments", "options")), f"{command} --help has no description"
    assert " ".join(description.split()) == _subparsers()[command].description


@pytest.mark.parametrize(("argv", "hints"), [
    (["check", "--strict"], ["usage: blogbuild check", "--strict is an option of build, not of check"]),
    (["build", "--draft"], ["usage: blogbuild build", "did you mean --drafts?"]),
    (["serve", "--prot", "8000"], ["usage: blogbuild serve", "did you mean --port?"]),
    (["new", "T", "--tag", "a"], ["usage: blogbuild new", "did you mean --tags?"]),
    (["init", "--from-hgo"], ["usage: blogbuild init", "did you mean --from-hugo?"]),
    (["build", "--no-drafts"], ["usage: blogbuild build", "--no-drafts is an option of serve and check, not of build",
                                "--drafts is the opposite, and off by default"]),
])
def test_a_wrong_flag_gets_the_command_usage_and_a_hint(argv: list[str], hints: list[str], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)   # were a flag taken after all (an abbreviation), nothing lands in the repository
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    for hint in hints:
        assert hint in err, err
    assert "usage: blogbuild [-h]" not in err


def test_a_misspelt_command_gets_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["biuld"])
    assert stopped.value.code == 2
    assert "did you mean 'build'?" in capsys.readouterr().err


def test_serve_takes_drafts_as_build_and_check_do() -> None:
    parser = make_parser()
    assert parser.parse_args(["serve"]).drafts is True
    assert parser.parse_args(["serve", "--drafts"]).drafts is True
    assert parser.parse_args(["serve", "--no-drafts"]).drafts is False


def test_quiet_means_errors_only_for_init_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "hugo.toml").write_text('title = "T"\ntheme = "PaperMod"\n', encoding="utf-8")
    (tmp_path / "layouts" / "partials").mkdir(parents=True)
    (tmp_path / "layouts" / "partials" / "x.html").write_text("{{ . }}\n", encoding="utf-8")
    assert main(["init", "--from-hugo", "--root", str(tmp_path), "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    assert (tmp_path / "blogbuild.yaml").is_file()


def test_serve_output_help_says_what_the_readme_says() -> None:
    help_text = next(action.help for action in _subparsers()["serve"]._actions if "--output" in action.option_strings)
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `blogbuild serve"))
    assert "[--output DIR]" in row
    assert help_text is not None and "served from memory" in help_text and "served from memory" in readme
