"""Another language's site in `.Sites` on a multilingual site its own layouts render: `.Sites.Default.GetPage`
(an old PaperMod header asks the first site whether a menu entry's page has the search layout) finds that
language's page by its content path (its title, layout, URLs, language, kind and params; none for a path it has
not), and `.Home` is that language's home page. A language's own `_index.zh.md` cascades to that language's
pages only. tests/hugo_sites/sites_get_page built by the hugo binary and by
blogbuild: every page the same DOM, the Chinese pages showing the English search page's front matter."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "sites_get_page"


def test_another_languages_site_finds_its_pages(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert not [warning for warning in warnings if "default theme" in str(warning)]
    assert differing_pages(hugo, ours) == []
    chinese = ours["zh/index.html"].decode()
    assert '<p class="first">Search|search|/search/|https://example.org/search/|en|page|Find a post|true</p>' in chinese
    assert '<p class="first-post">First /posts/first/</p>' in chinese
    assert '<p class="missing">none</p>' in chinese
    assert '<a href="/">English</a>' in chinese and '<a href="/zh/">中文</a>' in chinese
    assert '<p class="zone">[zh-zone]</p>' in ours["zh/posts/first/index.html"].decode()
    assert '<p class="zone">[]</p>' in ours["posts/first/index.html"].decode()
