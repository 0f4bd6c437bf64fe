"""More of Hugo's page model: `.ContentWithoutSummary` (after the divider or the automatic summary, all of the
content after a front matter summary), `isCJKLanguage` in front matter deciding how words are counted whatever the
site's hasCJKLanguage, a pager's `.Pages` a page list (`.GroupByDate`, `.ByTitle`), and a namespace function's
value read as fields (`time.Now.Unix`). tests/hugo_sites/page_methods built by the hugo binary and by blogbuild:
every page the same DOM."""
from __future__ import annotations

from pathlib import Path

from support.dom import dom_tokens
from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "page_methods"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


def test_page_methods_are_hugos(tmp_path: Path) -> None:
    hugo, ours, _ = built_by_both(FIXTURE, tmp_path)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert "posts/page/3/index.html" in pages
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []
    rest = ours["posts/divider/index.html"].decode().split('<section class="rest">')[1]
    assert rest.startswith("<p>The rest of it.</p>")
    assert "1 words" in ours["posts/not-cjk/index.html"].decode()
    assert "after 2023" in ours["posts/short/index.html"].decode()
