"""mangled.py: the `math: true` header damage (fixtures, properties, `blogbuild fix`) and the
pure readers of flattened dumps (headers, mermaid, bodies)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from blogbuild.cli import main
from blogbuild.mangled import (derive_title, read_flat_header, repair_damaged_header, restore_body,
                               restore_mermaid, split_dump)

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


# ---- flattened headers ------------------------------------------------------------------------

def test_flat_header_with_colons_parentheses_and_a_nested_menu() -> None:
    header = read_flat_header("math: true title: “Docker Fundamentals: Namespace” date: 2021-04-01T11:22:18+08:00 "
                              "hero: /images/posts/k8s-docker.jpg menu: sidebar: name: Docker Fundamentals "
                              "(Namespace) identifier: docker-namespace parent: cloud-computing weight: 10 "
                              "draft: false —math: true 容器技术出现已经很久。")
    assert header.found and not header.notes
    assert header.data == {
        "title": "Docker Fundamentals: Namespace", "date": "2021-04-01T11:22:18+08:00",
        "hero": "/images/posts/k8s-docker.jpg",
        "menu": {"sidebar": {"name": "Docker Fundamentals (Namespace)", "identifier": "docker-namespace",
                             "parent": "cloud-computing", "weight": 10}},
        "draft": False,
    }
    assert header.body == "容器技术出现已经很久。"


def test_flat_header_lists_without_spaces_and_inner_quotes() -> None:
    header = read_flat_header("math: true title: “The “best” cache” tags: [“framework”,“verl”,“sglang”] "
                              "series: [“verl”] —math: true body")
    assert header.data == {"title": 'The "best" cache', "tags": ["framework", "verl", "sglang"], "series": ["verl"]}
    assert header.body == "body"


def test_headerless_post_is_all_body() -> None:
    header = read_flat_header("https://github.com/x/y 一个框架 graph TD A --> B ...")
    assert not header.found and header.data == {} and header.body.startswith("https://")


def test_flat_header_without_its_end_is_flagged() -> None:
    header = read_flat_header("math: true title: “No end” date: 2025-01-01T00:00:00+08:00 body words")
    assert header.found and header.notes
    assert header.data["title"] == "No end"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["math: true ", "title: ", "“", "”", "[", "]", ",", " ", "—math: true",
                                 "menu: ", "sidebar: ", "name: ", "weight: 1", "x", "中", ":", '"']),
                max_size=40).map("".join) | st.text(max_size=200))
def test_flat_header_reader_never_crashes(text: str) -> None:
    header = read_flat_header(text)
    assert isinstance(header.body, str)
    if not header.found:
        assert header.data == {}


# ---- dumps and bodies -----------------------------------------------------------------------

def test_split_dump_takes_the_listing_name_from_the_first_line() -> None:
    posts = split_dump("AI Infra\n\nfirst post words ...\n\n\nsecond post\ncontinued\n", name="d.txt")
    assert [(post.listing, post.line, post.text) for post in posts] == [
        ("AI Infra", 3, "first post words ..."), ("AI Infra", 6, "second post continued")]
    assert split_dump("一段很长的文字，不是列表名。\n\n第二篇。", name="d.txt")[0].listing == ""


def test_restore_body_rules_math_paragraphs_and_cut() -> None:
    restored = restore_body("第一句。 第二句！ —math: true 公式：$$a+b$$接着 $x$ 写。 ...")
    assert restored.markdown == "第一句。\n\n第二句！\n\n---\n\n公式：\n\n$$\na+b\n$$\n\n接着 $x$ 写。\n\n...\n"
    assert restored.rules == 1 and restored.truncated
    assert restored.display_math == ("a+b",) and restored.inline_math == ("x",)


def test_restore_mermaid_ends_where_the_prose_resumes() -> None:
    text = ("见下图 flowchart LR subgraph S[阶段 一] direction TB A1[甲<br>乙]-->|数据|B1 end %% 注释 说明 "
            "B1 -.->|异步| C((圆)) style C fill:#fff 之后是正文 A 和 B。")
    source, end = restore_mermaid(text, text.index("flowchart"))
    assert source.split("\n") == ["flowchart LR", "    subgraph S[阶段 一]", "        direction TB",
                                  "        A1[甲<br>乙]-->|数据|B1", "    end", "    %% 注释 说明",
                                  "    B1 -.->|异步| C((圆))", "    style C fill:#fff"]
    assert text[end:].strip() == "之后是正文 A 和 B。"


def test_unclosed_subgraph_stays_prose() -> None:
    restored = restore_body("前文 graph TD subgraph X A --> B ...")
    assert not restored.diagrams and restored.notes
    assert "graph TD subgraph X A --> B" in restored.markdown


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["graph TD ", "flowchart LR ", "subgraph ", "end ", "A", "B[x]", " --> ",
                                 "-.->", "|l|", "%% ", "style A fill:#fff ", "direction TB ", "中文 ",
                                 "(", ")", "{", "}", "[", "]", '"', "&", " "]), max_size=40).map("".join))
def test_mermaid_restorer_never_crashes(text: str) -> None:
    restored = restore_body(text)
    for diagram in restored.diagrams:
        assert diagram.split("\n")[0].split()[0] in ("graph", "flowchart")
        assert diagram.count("\n    end") <= diagram.count("subgraph")


def test_derived_titles() -> None:
    assert derive_title("https://github.com/inclusionAI/AReaL 纯异步RL方案 graph TD A-->B") == "AReaL 纯异步RL方案"
    assert derive_title("短句。 后文") == "短句"
    long = "近期看到一些关于传统基础设施（Traditional Infrastructure）与人工智能基础设施（AI Infrastructure，尤其大模型领域）差异的评论。"
    assert derive_title(long) == "近期看到一些关于传统基础设施（Traditional Infrastructure）"
