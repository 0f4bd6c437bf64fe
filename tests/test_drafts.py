"""Drafts are never a trap: build says what it left out, check reads drafts too, new writes a post that publishes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from blogbuild.cli import main

PUBLISHED = "---\ntitle: Out\ndate: 2024-01-02\n---\nDone.\n"
DRAFT = "---\ntitle: Work\ndate: 2024-01-03\ndraft: true\n---\nSee [x](/posts/nowhere/).\n"


def test_build_says_how_many_drafts_it_left_out(make_site, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/posts/out.md": PUBLISHED, "content/posts/a.md": DRAFT,
                      "content/posts/b.md": DRAFT.replace("Work", "More")})
    assert main(["build", "--root", str(site)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "2 drafts not published (`--drafts` to include them)"
    assert main(["build", "--root", str(site)]) == 0   # nothing changed: the same closing line
    out = capsys.readouterr().out
    assert out.startswith("Up to date") and out.splitlines()[-1].startswith("2 drafts not published")
    assert main(["build", "--root", str(site), "--drafts", "--output", "all"]) == 0
    assert "not published" not in capsys.readouterr().out
    assert (site / "all" / "posts" / "a" / "index.html").is_file()


def test_build_without_drafts_says_nothing_of_them(make_site, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/posts/out.md": PUBLISHED})
    assert main(["build", "--root", str(site), "--no-cache"]) == 0
    assert "not published" not in capsys.readouterr().out


def test_check_reads_drafts_and_says_which(make_site, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({"content/posts/out.md": PUBLISHED, "content/posts/a.md": DRAFT})
    assert main(["check", "--root", str(site)]) == 1
    captured = capsys.readouterr()
    assert re.search(r"a\.md:6: warning: link '/posts/nowhere/' .*\(a draft\)$", captured.out, re.M), captured.out
    assert "drafts among them: " in captured.err and "a.md" in captured.err
    assert main(["check", "--root", str(site), "--no-drafts"]) == 0
    assert "nowhere" not in capsys.readouterr().out


def test_init_new_build_drafts_publishes_a_cjk_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    assert main(["new", "第一篇"]) == 0
    assert main(["build", "--drafts"]) == 0
    page = tmp_path / "public" / "posts" / "第一篇" / "index.html"
    assert page.is_file()
    html = page.read_text(encoding="utf-8")
    assert "第一篇" in html and 'class="katex' in html and "flowchart LR" in html
    assert "/posts/第一篇/</loc>" in (tmp_path / "public" / "sitemap.xml").read_text(encoding="utf-8")


def test_check_names_five_drafts_and_counts_the_rest(make_site, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site({f"content/posts/d{number}.md": DRAFT.replace("See [x](/posts/nowhere/).", "Fine.")
                      for number in range(7)})
    assert main(["check", "--root", str(site)]) == 0
    out = capsys.readouterr().out
    assert "drafts among them: " in out and out.count("content/posts/d") == 5 and "and 2 more" in out, out
