"""importer/dump.py and importer/mermaid.py: the pure readers of flattened dumps (headers, bodies, mermaid, titles)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from blogbuild.importer.dump import derive_title, read_flat_header, restore_body, split_dump
from blogbuild.importer.mermaid import restore_mermaid


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
