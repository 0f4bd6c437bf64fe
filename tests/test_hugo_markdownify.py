"""markdownify in a Hugo site's own layouts: a text's HTML is kept for the build while no render hook that may
draw it could draw it differently the next time (site_theme.GoPageEngine._markdown). A hook that reads the
clock is such a hook: every call renders again."""
from __future__ import annotations

import re
from pathlib import Path

from support.hugo_build import blogbuild_files

HOME = """<main>
<p class="a">{{ site.Params.note | markdownify }}</p>
<p class="b">{{ site.Params.note | markdownify }}</p>
<p class="c">{{ site.Params.plain | markdownify }}</p>
<p class="d">{{ site.Params.plain | markdownify }}</p>
</main>
"""


def _site(folder: Path, link_hook: str) -> Path:
    (folder / "layouts" / "_markup").mkdir(parents=True)
    (folder / "layouts" / "_default").mkdir()
    (folder / "content" / "posts").mkdir(parents=True)
    (folder / "content" / "posts" / "one.md").write_text('---\ntitle: "One"\ndate: 2024-01-02\n---\nWords.\n',
                                                         encoding="utf-8")
    for name in ("single.html", "list.html"):
        (folder / "layouts" / "_default" / name).write_text("<main>{{ .Title }}</main>\n", encoding="utf-8")
    (folder / "hugo.toml").write_text('baseURL = "https://example.org/"\ntitle = "Notes"\n'
                                      '[params]\nnote = "See [the guide](https://guide.example/) first"\n'
                                      'plain = "Only *plain* words"\n', encoding="utf-8")
    (folder / "layouts" / "index.html").write_text(HOME, encoding="utf-8")
    (folder / "layouts" / "_markup" / "render-link.html").write_text(link_hook, encoding="utf-8")
    return folder


def _paragraphs(html: str) -> dict[str, str]:
    return dict(re.findall(r'<p class="(\w)">(.*?)</p>', html, re.S))


def test_a_hook_that_reads_the_clock_draws_every_markdownify_again(tmp_path: Path) -> None:
    hook = '<a href="{{ .Destination }}" data-at="{{ now.UnixNano }}">{{ .Text }}</a>'
    files, warnings = blogbuild_files(_site(tmp_path / "site", hook))
    assert warnings == []
    shown = _paragraphs(files["index.html"].decode())
    stamps = [re.search(r'data-at="(\d+)"', shown[name]) for name in "ab"]
    assert all(stamps), shown
    assert stamps[0].group(1) != stamps[1].group(1)   # rendered twice, not kept
    assert shown["c"] == shown["d"] == "Only <em>plain</em> words"   # no link: the clock's hook never runs


def test_a_pure_hook_s_markdownify_is_the_same_html_each_time(tmp_path: Path) -> None:
    hook = '<a class="out" href="{{ .Destination | safeURL }}">{{ .Text }}</a>'
    files, _ = blogbuild_files(_site(tmp_path / "site", hook))
    shown = _paragraphs(files["index.html"].decode())
    assert shown["a"] == shown["b"] == 'See <a class="out" href="https://guide.example/">the guide</a> first'
