"""frontmatter/repair.py and `blogbuild fix`: the `math: true` header damage (fixtures, properties)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from blogbuild.cli import main
from blogbuild.disk.frontmatter import parse_front_matter, split_front_matter
from blogbuild.disk.frontmatter.repair import repair_damaged_header
from blogbuild.core.errors import SourceError
from blogbuild.core.model import SourceFile

MANGLED = Path(__file__).parent / "fixtures" / "frontmatter" / "mangled"
FLATTENED = Path(__file__).parent / "fixtures" / "frontmatter" / "flattened"
CASES = sorted(path.stem for path in MANGLED.glob("*.md") if not path.name.endswith(".expected.md"))


def _expected_warnings(name: str, folder: Path = MANGLED) -> list[tuple[int, str]]:
    path = folder / f"{name}.warnings"
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
    repaired, warnings = result.text, result.warnings
    assert repaired == expected.read_text(encoding="utf-8")
    # Every line of the repaired text is the file's own line that line_map names (byte for byte).
    damaged_lines = source.read_text(encoding="utf-8").split("\n")
    assert [damaged_lines[line - 1] for line in result.line_map] == repaired.split("\n")
    wanted = _expected_warnings(name)
    assert [(warning.line, warning.path) for warning in warnings] == [(line, shown) for line, _ in wanted]
    for warning, (_, fragment) in zip(warnings, wanted, strict=True):
        assert fragment in warning.message
        assert f"run `blogbuild fix {shown}`" in warning.message
    # Repairing is done once: the repaired text is healthy.
    assert repair_damaged_header(repaired, path=shown) is None


def test_fixture_set_has_the_code_fence_case() -> None:
    assert {"issue-example", "code-fence", "message-queues", "healthy"} <= set(CASES)


# ---- properties -----------------------------------------------------------------------------

def _damage(text: str) -> str:
    """What the broken tool did: `math: true` above the opening `---`, and every other line that
    begins with `---` rewritten as `<line>math: true` with the original line kept after it."""
    lines = text.split("\n")
    out = ["math: true", "---"]
    for line in lines[1:]:
        if line.startswith("---"):
            out.extend([line + "math: true", line])
        else:
            out.append(line)
    return "\n".join(out)


_body_line = st.one_of(
    st.sampled_from(["---", "------ Output --------", "```", "~~~", "", "text", "- item", "# Heading",
                     "  ---", "----", "math: true", "--- a/x.py", "---math: true", "--- ", "-----"]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=20)
    .filter(lambda line: not line.startswith("---")),
)
_header_line = st.sampled_from(['title: "T"', "date: 2025-01-02T03:04:05+08:00", 'tags: ["a", "b"]',
                                "draft: false", 'description: "x: y"'])


@settings(max_examples=200, deadline=None)
@given(header=st.lists(_header_line, min_size=1, max_size=4), body=st.lists(_body_line, max_size=12))
def test_repair_undoes_the_damage(header: list[str], body: list[str]) -> None:
    original = "\n".join(["---", *header, "---", *body])
    damaged = _damage(original)
    result = repair_damaged_header(damaged, path="p.md")
    assert result is not None
    assert result.text == original   # byte for byte
    assert len(result.warnings) == 2 + sum(1 for line in body if line.startswith("---"))
    assert [damaged.split("\n")[line - 1] for line in result.line_map] == original.split("\n")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["---", "math: true", "\n", " ", "x", "`", "~", "title: a", "\r"]),
                max_size=60).map("".join) | st.text(max_size=200))
def test_repair_never_raises(text: str) -> None:
    result = repair_damaged_header(text, path="p.md")
    if result is not None:
        assert result.text.startswith("---\n") and result.warnings
        assert len(result.line_map) == result.text.count("\n") + 1


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
    assert f"--- {target}" in out and "\n-math: true\n" in out and "\n----math: true\n" in out
    assert "\n+" not in out.split(f"+++ {target} (fixed)", 1)[1]   # the fix only removes damaged lines
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


# ---- line numbers after a repair --------------------------------------------------------------

def test_warnings_after_a_repair_name_the_files_own_lines(make_site, capsys: pytest.CaptureFixture[str]) -> None:
    damaged = ("math: true\n---\ntitle: \"T\"\ndate: 2025-01-01\n---math: true\n---\n\nPara.\n\n"
               "---math: true\n---\n\nKill the <pid> now.\n")
    assert damaged.split("\n")[12] == "Kill the <pid> now."   # the file's line 13
    site = make_site({"content/posts/x.md": damaged})
    assert main(["build", "--root", str(site), "--no-cache"]) == 0
    err = capsys.readouterr().err
    assert "content/posts/x.md:13: warning: '<pid>' is not an HTML element" in err
    assert "content/posts/x.md:10: warning: restored thematic break" in err


def test_a_yaml_error_in_a_repaired_header_names_the_files_line() -> None:
    damaged = "math: true\n---\ntitle: \"T\"\ntags: [a\n---math: true\n---\nbody\n"
    with pytest.raises(SourceError) as raised:
        parse_front_matter(SourceFile("p.md", "p.md", damaged))
    assert raised.value.line == 4   # the unclosed list is the file's line 4 (line 3 of the repaired text)


# ---- a header flattened onto one line -------------------------------------------------------------

FLAT_CASES = sorted(path.stem for path in FLATTENED.glob("*.md") if not path.name.endswith(".expected.md"))


@pytest.mark.parametrize("name", FLAT_CASES)
def test_flattened_header_is_read_as_the_importer_reads_it(name: str) -> None:
    text = (FLATTENED / f"{name}.md").read_text(encoding="utf-8")
    front_matter = parse_front_matter(SourceFile(f"content/posts/{name}.md", f"posts/{name}.md", text))
    expected = split_front_matter((FLATTENED / f"{name}.expected.md").read_text(encoding="utf-8"), path="x")
    assert front_matter.format == "flat"
    assert dict(front_matter.data) == dict(expected.data)
    assert front_matter.body == expected.body
    wanted = _expected_warnings(name, FLATTENED)
    assert [warning.line for warning in front_matter.repairs] == [line for line, _ in wanted]
    for warning, (_, fragment) in zip(front_matter.repairs, wanted, strict=True):
        assert fragment in warning.message
    # Lines the importer restored name the header's line; lines after it keep their own.
    assert front_matter.file_line(1) == 1
    assert front_matter.file_line(front_matter.body.count("\n") + 1) == text.count("\n") + 1


def test_flattened_header_post_is_titled_not_shown_as_text(make_site) -> None:
    text = (FLATTENED / "one-line.md").read_text(encoding="utf-8")
    site = make_site({"content/posts/flat.md": text})
    assert main(["build", "--root", str(site), "--no-cache", "--quiet"]) == 0
    page = (site / "public" / "posts" / "flat" / "index.html").read_text(encoding="utf-8")
    assert "<title>Ring Attention 原理" in page
    assert "title:" not in page and "—math: true" not in page


def test_prose_that_merely_starts_with_math_true_is_not_a_header() -> None:
    text = "math: true is what the tool wrote everywhere.\n"
    front_matter = parse_front_matter(SourceFile("p.md", "p.md", text))
    assert front_matter.format == "none" and front_matter.body == text


@pytest.mark.parametrize("name", FLAT_CASES)
def test_fix_writes_a_flattened_header_as_yaml(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / f"{name}.md"
    target.write_bytes((FLATTENED / f"{name}.md").read_bytes())
    assert main(["fix", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == (FLATTENED / f"{name}.expected.md").read_text(encoding="utf-8")
    assert f"{target}:1: read a header flattened onto one line" in capsys.readouterr().out
    assert main(["fix", str(target)]) == 0
    assert "no damaged header; left alone" in capsys.readouterr().out


@pytest.mark.parametrize(("name", "math"), [("issue-example", True), ("message-queues", True),
                                            ("dashed-opening", False)])
def test_a_repaired_header_keeps_the_math_the_tool_meant_to_set(name: str, math: bool) -> None:
    # The damage was a tool turning math on for every post; the author's own `math:` (dashed-opening says
    # false) wins. A Hugo layout's `{{ if .Params.math }}` then sees what the default theme sees.
    text = (MANGLED / f"{name}.md").read_text(encoding="utf-8")
    front_matter = parse_front_matter(SourceFile(f"content/posts/{name}.md", f"posts/{name}.md", text))
    assert front_matter.repairs and front_matter.data["math"] is math
    healthy = parse_front_matter(SourceFile("content/posts/h.md", "posts/h.md", "---\ntitle: H\n---\nBody.\n"))
    assert "math" not in healthy.data
