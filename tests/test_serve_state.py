"""serve.state.next_state: how one build changes what the server shows, with no server running."""
from __future__ import annotations

from pathlib import Path

from blogbuild.pipeline import BuildResult
from blogbuild.core.errors import SourceError
from blogbuild.core.model import OutputFile
from blogbuild.serve import BuildAttempt, ServedState, error_report, next_state
from blogbuild.serve.watch import WatchPlan


def plan(root: Path) -> WatchPlan:
    return WatchPlan(str(root), str(root / "content"), str(root / "templates"), str(root / "static"), "")


def result(files: dict[str, OutputFile], changed: frozenset[str] = frozenset(),
           errors: tuple = ()) -> BuildResult:
    return BuildResult(files, None, errors, (), changed, frozenset())


def test_the_first_good_build_changes_every_file(tmp_path: Path) -> None:
    files = {"index.html": OutputFile("index.html", b"home"), "a/index.html": OutputFile("a/index.html", b"a")}
    step = next_state(ServedState(), BuildAttempt(result(files)), (), frozenset(), False, plan(tmp_path))
    assert step.state.result is not None and step.state.generation == 1
    assert step.changed == frozenset(files) and step.in_sync and step.touched == frozenset()
    assert step.state.page_generations == {"index.html": 1, "a/index.html": 1}


def test_a_failed_build_keeps_the_last_good_one_and_the_touched_paths(tmp_path: Path) -> None:
    good = ServedState(result(({"index.html": OutputFile("index.html", b"home")})), 3, {"index.html": 3})
    error = SourceError("content/a.md", 2, "broken", stage="front matter")
    reports = (error_report(error, str(tmp_path)),)
    touched = frozenset({str(tmp_path / "content" / "a.md")})
    step = next_state(good, BuildAttempt(result({}, errors=(error,))), reports, touched, True, plan(tmp_path))
    assert step.state.result is good.result and step.state.generation == 3
    assert step.state.errors == reports and not step.state.ok
    assert not step.in_sync and step.touched == touched and step.changed == frozenset()


def test_in_sync_the_builder_list_counts_plus_static_files_touched_on_disk(tmp_path: Path) -> None:
    static = tmp_path / "static" / "site.css"
    files = {"index.html": OutputFile("index.html", b"new"), "site.css": OutputFile("site.css", source=str(static))}
    good = ServedState(result(files), 1, {})
    step = next_state(good, BuildAttempt(result(files, changed=frozenset({"index.html"}))), (),
                      frozenset({str(static)}), True, plan(tmp_path))
    assert step.changed == frozenset({"index.html", "site.css"}) and step.state.generation == 2


def test_out_of_sync_the_outputs_are_compared(tmp_path: Path) -> None:
    old = {"index.html": OutputFile("index.html", b"old"), "gone.html": OutputFile("gone.html", b"x"),
           "same.html": OutputFile("same.html", b"same")}
    new = {"index.html": OutputFile("index.html", b"new"), "same.html": OutputFile("same.html", b"same")}
    # The builder's own list (empty here) is not trusted after a failed build: the files are compared.
    step = next_state(ServedState(result(old), 4, {}), BuildAttempt(result(new)), (), frozenset(), False,
                      plan(tmp_path))
    assert step.changed == frozenset({"index.html"}) and step.removed == frozenset({"gone.html"})
    assert step.state.generation == 5 and step.state.page_generations == {"index.html": 5}


def test_a_build_that_changes_nothing_keeps_the_generation(tmp_path: Path) -> None:
    files = {"index.html": OutputFile("index.html", b"home")}
    step = next_state(ServedState(result(files), 2, {}), BuildAttempt(result(files)), (), frozenset(), True,
                      plan(tmp_path))
    assert step.state.generation == 2 and step.changed == frozenset()
