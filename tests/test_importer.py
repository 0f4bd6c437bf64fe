"""importer.py: merging copies across dumps, slugs, front matter, and `blogbuild import` in-process
(--dry-run, --force, refusing to overwrite, idempotence)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from blogbuild.cli import main
from blogbuild.importer import (MANIFEST_NAME, import_dumps, merge_copies, parse_copies,
                                render_post_file)
from blogbuild.importer.dump import split_dump

DUMPS = Path(__file__).parent / "fixtures" / "dumps"


def _fixture_dumps() -> list[tuple[str, str]]:
    return [(path.name, path.read_text(encoding="utf-8")) for path in sorted(DUMPS.glob("*.txt"))]


def _front_matter(text: str) -> dict:
    assert text.startswith("---\n")
    header, _ = text[4:].split("\n---\n", 1)
    return yaml.safe_load(header)


def test_copies_merge_across_dumps() -> None:
    posts = import_dumps(_fixture_dumps())
    assert len(posts) == 3
    ring = next(post for post in posts if post.slug == "infra-ring-attention-notes-part-1")
    # The header comes from the copy that has one, the text from the longest copy.
    assert ring.metadata["title"] == "[Infra] Ring attention: notes (part 1)"
    assert ring.metadata["series"] == ["long-context"]
    assert ring.sources == ("more.txt", "notes.txt (Notes)")
    assert "比另一个副本更长" in ring.body.markdown
    assert ring.body.truncated and ring.metadata["excerpt"] is True
    assert ring.body.diagrams == ("graph TD\n    A[Query 块] -->|发送| B[KV 块]\n    B --> C{合并}\n"
                                  "    %% 合并在本地完成\n    C --> D[输出]",)
    assert "needs_review" not in ring.metadata


def test_headerless_post_gets_a_derived_title_and_needs_review() -> None:
    posts = {post.slug: post for post in import_dumps(_fixture_dumps())}
    tiny = posts["tinyserve"]
    assert tiny.title_derived and tiny.metadata["title"] == "TinyServe 一个极小的推理服务 它只有三个模块"
    assert tiny.metadata["needs_review"] is True and "date" not in tiny.metadata
    menus = posts["menus-and-weights"]
    assert menus.metadata["menu"] == {"sidebar": {"name": "Menus (Part 2)", "identifier": "menus-2",
                                                  "parent": "notes", "weight": 20}}
    assert menus.metadata["draft"] is True and "excerpt" not in menus.metadata


def test_posts_sharing_only_a_diagram_stay_apart() -> None:
    diagram = "flowchart LR A[x] --> B[y] B --> C[z]"
    dump = f"第一篇的开头完全不同，讲初始化。 {diagram} 结尾。\n\n第二篇讲训练过程，开头也不同。 {diagram} 结尾。\n"
    groups = merge_copies(parse_copies(split_dump(dump, name="d.txt")))
    assert len(groups) == 2


def test_front_matter_is_stable_valid_yaml() -> None:
    posts = import_dumps(_fixture_dumps())
    text = render_post_file(next(post for post in posts if post.slug == "menus-and-weights"))
    assert text.split("\n---\n")[0] == "\n".join([
        "---",
        'title: "Menus and weights"',
        "date: 2024-01-02T03:04:05-05:00",
        "draft: true",
        'hero: "/images/a.jpg"',
        "menu:",
        "  sidebar:",
        '    name: "Menus (Part 2)"',
        '    identifier: "menus-2"',
        '    parent: "notes"',
        "    weight: 20",
        'import_sources: ["notes.txt (Notes)"]',
    ])
    assert _front_matter(text)["menu"]["sidebar"]["weight"] == 20


def test_slugs_are_ascii_readable_and_unique() -> None:
    dump = "math: true title: “全中文标题” —math: true 正文一。\n\nmath: true title: “全中文标题二” —math: true 正文二。\n\n" \
           "math: true title: “Same” —math: true one\n\nmath: true title: “Same!” —math: true two, a different post\n"
    slugs = [post.slug for post in import_dumps([("d.txt", dump)])]
    assert len(set(slugs)) == 4 and all(slug.isascii() for slug in slugs)
    assert "same" in slugs and "same-2" in slugs


_value = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=200, deadline=None)
@given(title=_value, tag=_value, body=st.text(max_size=80))
def test_written_front_matter_reads_back(title: str, tag: str, body: str) -> None:
    flat = "math: true title: " + json.dumps(title.replace("\n", " "), ensure_ascii=False) + \
           f" tags: [“{tag.replace('”', '').replace('“', '')}”] —math: true 正文 {body}"
    for post in import_dumps([("d.txt", flat)]):
        data = _front_matter(render_post_file(post))
        assert data["import_sources"] == ["d.txt"]
        assert data["title"] == post.metadata["title"]
        assert data.get("tags") == post.metadata.get("tags")


_dump_piece = st.sampled_from([
    "math: true title: “A: b” date: 2025-01-01T00:00:00+08:00 tags: [“x”] —math: true ",
    "正文一句。 ", "flowchart LR A[x] --> B ", "subgraph S ", "end ", "$$a$$ ", "$b$ ", "—math: true ",
    "https://example.org/a ", "... ", "\n\n", "Posts\n\n", "text ", "menu: sidebar: name: n weight: 3 ",
])


@settings(max_examples=80, deadline=None)
@given(dumps=st.lists(st.lists(_dump_piece, max_size=12).map("".join), min_size=1, max_size=3))
def test_import_is_idempotent(dumps: list[str]) -> None:
    named = [(f"{index}.txt", text) for index, text in enumerate(dumps)]
    first = [(post.slug, render_post_file(post)) for post in import_dumps(named)]
    second = [(post.slug, render_post_file(post)) for post in import_dumps(named)]
    assert first == second
    assert len({slug for slug, _ in first}) == len(first)
    for _, text in first:
        _front_matter(text)


# ---- the command, in-process ----------------------------------------------------------------

def _import(out: Path, *extra: str) -> int:
    return main(["import", *(str(path) for path in sorted(DUMPS.glob("*.txt"))), "--out", str(out), *extra])


def _tree(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())} if folder.exists() else {}


def test_import_writes_reports_and_is_idempotent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "posts"
    assert _import(out) == 0
    report = capsys.readouterr().out
    assert "written" in report and "sources: more.txt, notes.txt (Notes)" in report
    assert "fields missing: title, date, tags, series" in report and "diagrams restored: 1" in report
    assert "needs review: yes: no header" in report
    first = _tree(out)
    assert set(first) == {"infra-ring-attention-notes-part-1.md", "menus-and-weights.md", "tinyserve.md",
                          MANIFEST_NAME}
    assert _import(out) == 0
    assert "3 unchanged" in capsys.readouterr().out
    assert _tree(out) == first


def test_dry_run_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "posts"
    assert _import(out, "--dry-run") == 0
    assert "would write" in capsys.readouterr().out
    assert not out.exists()


def test_refuses_to_overwrite_files_it_did_not_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "posts"
    out.mkdir()
    mine = out / "tinyserve.md"
    mine.write_text("---\ntitle: mine\n---\nmy words\n", encoding="utf-8")
    assert _import(out) == 1
    assert "not written by blogbuild import" in capsys.readouterr().err
    # Nothing at all is written while a conflict stands.
    assert _tree(out) == {"tinyserve.md": b"---\ntitle: mine\n---\nmy words\n"}


def test_refuses_to_overwrite_an_imported_file_the_user_edited(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "posts"
    assert _import(out) == 0
    edited = out / "tinyserve.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nMy own addition.\n", encoding="utf-8")
    before = _tree(out)
    capsys.readouterr()
    assert _import(out) == 1
    assert "edited since the import wrote it" in capsys.readouterr().err
    assert _tree(out) == before


def test_force_overwrites_and_keeps_the_users_version(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "posts"
    out.mkdir()
    (out / "tinyserve.md").write_text("my words\n", encoding="utf-8")
    assert _import(out, "--force") == 0
    assert "overwritten (--force)" in capsys.readouterr().out
    assert (out / "tinyserve.md.bak").read_text(encoding="utf-8") == "my words\n"
    assert _front_matter((out / "tinyserve.md").read_text(encoding="utf-8"))["needs_review"] is True
    # Now the file is the importer's again: a plain re-run is quiet and changes nothing.
    before = _tree(out)
    assert _import(out) == 0
    assert _tree(out) == before


def test_import_updates_its_own_untouched_files(tmp_path: Path) -> None:
    out = tmp_path / "posts"
    assert _import(out) == 0
    manifest = json.loads((out / MANIFEST_NAME).read_text(encoding="utf-8"))
    # Simulate an older import: the file differs but its hash is the one the importer recorded.
    old = b"---\ntitle: older import\n---\n"
    (out / "tinyserve.md").write_bytes(old)
    manifest["files"]["tinyserve.md"] = hashlib.sha256(old).hexdigest()
    (out / MANIFEST_NAME).write_text(json.dumps(manifest), encoding="utf-8")
    assert _import(out) == 0
    assert (out / "tinyserve.md").read_bytes() != old


def test_missing_dump_is_an_error_with_its_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "out")]) == 1
    assert f"{tmp_path / 'nope.txt'}: import: cannot read the dump" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
