"""A Hugo site's own layouts after an edit: what a rebuild publishes is what a cold build of the same files
publishes. A layout may show anything of any page (a param of the front matter, a date, a summary, a word count,
the text), so a page is made again whenever anything it showed of another page changed, and only then.

The site is written by the tests: a home page listing every post with a param of its own front matter, its
lastmod, its summary and word count; a feed page holding every post's plain text; post pages showing their own
content and the next post's title."""
from __future__ import annotations

from pathlib import Path

import pytest

from blogbuild.cli import main

LAYOUTS = {
    "_default/baseof.html": "<!doctype html><html><body>{{ block \"main\" . }}{{ end }}</body></html>\n",
    "index.html": ("{{ define \"main\" }}{{ range site.RegularPages }}<p>{{ .Title }}: {{ .Params.subtitle }}, "
                   "{{ .Lastmod.Format \"2006-01-02\" }}, {{ .WordCount }} words: {{ .Summary }}</p>"
                   "{{ end }}{{ end }}\n"),
    "_default/list.html": "{{ define \"main\" }}{{ range .Pages }}<a href=\"{{ .RelPermalink }}\">{{ .Title }}</a>"
                          "{{ end }}{{ end }}\n",
    "_default/single.html": ("{{ define \"main\" }}<h1>{{ .Title }}</h1>{{ .Content }}"
                             "{{ with .NextInSection }}<a href=\"{{ .RelPermalink }}\">{{ .Title }}</a>{{ end }}"
                             "{{ end }}\n"),
    "page/texts.html": "{{ define \"main\" }}{{ range site.RegularPages }}<pre>{{ .Plain }}</pre>{{ end }}{{ end }}\n",
}


def _post(number: int, subtitle: str = "", body: str = "") -> str:
    return (f"---\ntitle: Post {number}\ndate: 2024-01-0{number}\nsubtitle: {subtitle or f'sub {number}'}\n---\n"
            f"{body or f'The words of post {number}.'}\n")


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "content" / "posts").mkdir(parents=True)
    (site / "hugo.toml").write_text('baseURL = "https://example.org/"\ntitle = "Edits"\n', encoding="utf-8")
    for name, text in LAYOUTS.items():
        path = site / "layouts" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for number in range(1, 6):
        (site / "content" / "posts" / f"p{number}.md").write_text(_post(number), encoding="utf-8")
    (site / "content" / "texts.md").write_text("---\ntitle: Texts\nlayout: texts\n---\n", encoding="utf-8")
    return site


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def _cold(site: Path, tmp_path: Path) -> dict[str, bytes]:
    cold = tmp_path / "cold"
    assert main(["build", "--root", str(site), "--no-cache", "--quiet", "--output", str(cold)]) == 0
    return _tree(cold)


EDITS = {
    "a param another page shows": lambda text: text.replace("subtitle: sub 2", "subtitle: changed"),
    "a lastmod another page shows": lambda text: text.replace("date: 2024-01-02", "date: 2024-01-02\n"
                                                             "lastmod: 2024-03-04"),
    "the title the page before shows": lambda text: text.replace("title: Post 2", "title: Renamed"),
    "the body: its summary, count and text": lambda text: text.replace("The words of post 2.",
                                                                       "Other words of the second post, more of them."),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_rebuild_after_an_edit_publishes_what_a_cold_build_does(tmp_path: Path, edit: str) -> None:
    site = _site(tmp_path)
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    post = site / "content" / "posts" / "p2.md"
    post.write_text(EDITS[edit](post.read_text(encoding="utf-8")), encoding="utf-8")
    assert main(["build", "--root", str(site), "--quiet"]) == 0   # a new process: the cache and the last output
    assert _tree(site / "public") == _cold(site, tmp_path)


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_servers_rebuild_after_an_edit_publishes_what_a_cold_build_does(tmp_path: Path, edit: str) -> None:
    from blogbuild.config import load_config
    from blogbuild.pipeline import Builder
    site = _site(tmp_path)
    builder = Builder(load_config(None, root=site), use_cache=True)
    assert builder.build().ok
    post = site / "content" / "posts" / "p2.md"
    post.write_text(EDITS[edit](post.read_text(encoding="utf-8")), encoding="utf-8")
    again = builder.build([str(post)])   # serve's rebuild of the edited file
    assert again.ok, again.errors
    files = {path: item.data if not item.source else Path(item.source).read_bytes()
             for path, item in again.files.items() if path.endswith(".html")}
    cold = _cold(site, tmp_path)
    assert files == {path: data for path, data in cold.items() if path.endswith(".html")}
