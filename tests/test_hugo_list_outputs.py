"""A Hugo config's outputs per kind of list: tests/hugo_sites/list_outputs names RSS for the home page and the
taxonomies but not for sections and terms; built by the hugo binary and by blogbuild, the same feeds are written
(none of a section or a term) and every page's DOM is Hugo's (a layout's .AlternativeOutputFormats and
`.OutputFormats.Get "rss"` see RSS only where it is written)."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "list_outputs"


def test_a_list_has_a_feed_only_when_its_kinds_outputs_name_rss(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert sorted(set(ours) - {"css/syntax.css"}) == sorted(hugo) and warnings == []
    assert "index.xml" in ours and "tags/index.xml" in ours
    assert "posts/index.xml" not in ours and "tags/go/index.xml" not in ours
    assert differing_pages(hugo, ours) == []
    assert b"/tags/go/index.xml" not in ours["tags/go/index.html"] and b'href="/index.xml"' in ours["index.html"]
