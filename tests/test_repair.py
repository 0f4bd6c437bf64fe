"""frontmatter/repair.py and `blogbuild fix`: the `math: true` header damage (fixtures, properties)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from blogbuild.cli import main
from blogbuild.frontmatter.repair import repair_damaged_header

MANGLED = Path(__file__).parent / "fixtures" / "frontmatter" / "mangled"
CASES = sorted(path.stem for path in MANGLED.glob("*.md") if not path.name.endswith(".expected.md"))


def _expected_warnings(name: str) -> list[tuple[int, str]]:
    path = MANGLED / f"{name}.warnings"
    if not path.exists():
        return []
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        number, fragment = line.split("\t", 1)
        pairs.append((int(number), fragment))
    return pairs


@pytest.mark.parametrize("name", CASES)
def test_mangled_fixture(name: str) -> None:
    source = MANGLED / f"{name}.md"
    expected = MANGLED / f"{name}.expected.md"
    shown = f"content/posts/{name}.md"
    result = repair_damaged_header(source.read_text(encoding="utf-8"), path=shown)
    if not expected.exists():
        assert result is None, "a healthy file must never be touched"
        return
    assert result is not None
    repaired, warnings = result
    assert repaired == expected.read_text(encoding="utf-8")
    wanted = _expected_warnings(name)
    assert [(warning.line, warning.path) for warning in warnings] == [(line, shown) for line, _ in wanted]
    for warning, (_, fragment) in zip(warnings, wanted):
        assert fragment in warning.message
        assert f"run `blogbuild fix {shown}`" in warning.message
    # Repairing is done once: the repaired text is healthy.
    assert repair_damaged_header(repaired, path=shown) is None


def test_fixture_set_has_the_code_fence_case() -> None:
    assert {"issue-example", "code-fence", "healthy"} <= set(CASES)


# ---- properties -----------------------------------------------------------------------------

def _damage(text: str) -> str:
    """What the broken tool did: `math: true` above the opening `---`, and every other line that
    begins with `---` rewritten as `<line>math: true` plus a new `---` line."""
    lines = text.split("\n")
    out = ["math: true", "---"]
    for line in lines[1:]:
        if line.startswith("---"):
            out.extend([line + "math: true", "---"])
        else:
            out.append(line)
    return "\n".join(out)


_body_line = st.one_of(
    st.sampled_from(["---", "------ Output --------", "```", "~~~", "", "text", "- item", "# Heading",
                     "  ---", "----", "math: true"]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=20)
    .filter(lambda line: not line.startswith("---")),
)
_header_line = st.sampled_from(['title: "T"', "date: 2025-01-02T03:04:05+08:00", 'tags: ["a", "b"]',
                                "draft: false", 'description: "x: y"'])


@settings(max_examples=200, deadline=None)
@given(header=st.lists(_header_line, min_size=1, max_size=4), body=st.lists(_body_line, max_size=12))
def test_repair_undoes_the_damage(header: list[str], body: list[str]) -> None:
    original = "\n".join(["---", *header, "---", *body])
    result = repair_damaged_header(_damage(original), path="p.md")
    assert result is not None
    repaired, warnings = result
    assert repaired == "\n".join(["---", *header, "math: true", "---", *body])
    assert len(warnings) == 2 + sum(1 for line in body if line.startswith("---"))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["---", "math: true", "\n", " ", "x", "`", "~", "title: a", "\r"]),
                max_size=60).map("".join) | st.text(max_size=200))
def test_repair_never_raises(text: str) -> None:
    result = repair_damaged_header(text, path="p.md")
    if result is not None:
        repaired, warnings = result
        assert repaired.startswith("---\n") and warnings


@settings(max_examples=200, deadline=None)
@given(header=st.lists(_header_line, min_size=1, max_size=4), body=st.lists(_body_line, max_size=12))
def test_healthy_files_are_left_alone(header: list[str], body: list[str]) -> None:
    assert repair_damaged_header("\n".join(["---", *header, "---", *body]), path="p.md") is None


# ---- blogbuild fix ----------------------------------------------------------------------------

def _damaged_copy(tmp_path: Path, name: str = "code-fence") -> Path:
    target = tmp_path / f"{name}.md"
    target.write_bytes((MANGLED / f"{name}.md").read_bytes())
    return target


def test_fix_rewrites_in_place_and_keeps_a_backup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = _damaged_copy(tmp_path)
    original = target.read_bytes()
    assert main(["fix", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == (MANGLED / "code-fence.expected.md").read_text(encoding="utf-8")
    assert (tmp_path / "code-fence.md.bak").read_bytes() == original
    out = capsys.readouterr().out
    assert f"{target}:12: restored code line" in out and "fixed 4 damaged lines" in out
    # A second run finds nothing to do and keeps the backup as it is.
    assert main(["fix", str(target)]) == 0
    assert "no damaged header; left alone" in capsys.readouterr().out
    assert (tmp_path / "code-fence.md.bak").read_bytes() == original


def test_fix_dry_run_prints_the_diff_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = _damaged_copy(tmp_path, "issue-example")
    before = target.read_bytes()
    assert main(["fix", "--dry-run", str(target)]) == 0
    out = capsys.readouterr().out
    assert f"--- {target}" in out and "-math: true" in out and "----math: true" in out and "+math: true" in out
    assert target.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["issue-example.md"]


def test_fix_refuses_to_clobber_a_different_backup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = _damaged_copy(tmp_path)
    before = target.read_bytes()
    (tmp_path / "code-fence.md.bak").write_text("my own notes\n", encoding="utf-8")
    assert main(["fix", str(target)]) == 1
    assert "a different backup already exists" in capsys.readouterr().err
    assert target.read_bytes() == before
    assert (tmp_path / "code-fence.md.bak").read_text(encoding="utf-8") == "my own notes\n"


def test_fix_leaves_healthy_files_and_reports_unreadable_ones(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    healthy = tmp_path / "healthy.md"
    healthy.write_bytes((MANGLED / "healthy.md").read_bytes())
    missing = tmp_path / "missing.md"
    latin1 = tmp_path / "latin1.md"
    latin1.write_bytes(b"---\ntitle: caf\xe9\n---\n")
    assert main(["fix", str(healthy), str(missing), str(latin1)]) == 1
    captured = capsys.readouterr()
    assert f"{healthy}: ok, no damaged header; left alone" in captured.out
    assert f"{missing}: cannot read" in captured.err
    assert f"{latin1}:2: fix: not UTF-8 text" in captured.err
    assert not (tmp_path / "healthy.md.bak").exists()


def test_fix_keeps_crlf_newlines_and_walks_folders(tmp_path: Path) -> None:
    folder = tmp_path / "posts"
    folder.mkdir()
    text = (MANGLED / "issue-example.md").read_text(encoding="utf-8")
    (folder / "windows.md").write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    assert main(["fix", str(folder)]) == 0
    expected = (MANGLED / "issue-example.expected.md").read_text(encoding="utf-8")
    assert (folder / "windows.md").read_bytes() == expected.replace("\n", "\r\n").encode("utf-8")
