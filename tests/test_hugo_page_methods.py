"""More of Hugo's page model: `.ContentWithoutSummary` (after the divider or the automatic summary, all of the
content after a front matter summary), `isCJKLanguage` in front matter deciding how words are counted whatever the
site's hasCJKLanguage, a pager's `.Pages` a page list (`.GroupByDate`, `.ByTitle`), and a namespace function's
value read as fields (`time.Now.Unix`), a page's date from publishDate or modified when it writes no date, and
its title as written (spaces and all). tests/hugo_sites/page_methods built by the hugo binary and by blogbuild:
every page the same DOM."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "page_methods"


def test_page_methods_are_hugos(tmp_path: Path) -> None:
    hugo, ours, _ = built_by_both(FIXTURE, tmp_path)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert "posts/page/3/index.html" in pages
    assert differing_pages(hugo, ours) == []
    rest = ours["posts/divider/index.html"].decode().split('<section class="rest">')[1]
    assert rest.startswith("<p>The rest of it.</p>")
    assert "1 words" in ours["posts/not-cjk/index.html"].decode()
    assert "after 2023" in ours["posts/short/index.html"].decode()
    published = ours["posts/published-only/index.html"].decode()
    assert "title=\"Spaced title \"" in published and "2021-05-06 10:00:00 &#43;0800" in published
