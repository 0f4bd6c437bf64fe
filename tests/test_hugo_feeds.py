"""A Hugo site's feeds, robots.txt and sitemap are Hugo's, byte for byte, when its own layouts render it.
tests/hugo_sites/feeds has no RSS layout but a section's own (layouts/notes/rss.xml): Hugo's RSS template
writes the feed of the home page, the other section, each taxonomy (its terms) and each term, with the
author's name and email, the copyright and services.rss.limit; site-relative URLs in every feed become
absolute (a base URL with a path: /blog/), srcset included, a protocol-relative one not; robots.txt and
sitemap.xml are Hugo's own. Built by the hugo binary and by blogbuild: the same files, those bytes equal."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "feeds"
_EXTRA = {"css/syntax.css"}   # blogbuild's stylesheet of its code highlighting (Hugo's is inline)


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("feeds")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)
    assert warnings == []   # services.rss.limit is honoured, so not named as unused


def test_every_feed_is_hugos_byte_for_byte(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    feeds = sorted(path for path in hugo if path.endswith(".xml") and path != "sitemap.xml")
    assert feeds == ["categories/index.xml", "categories/meta/index.xml", "index.xml", "notes/index.xml",
                     "posts/index.xml", "tags/go/index.xml", "tags/index.xml", "tags/rss-feeds/index.xml"]
    assert [path for path in feeds if ours[path] != hugo[path]] == []


def test_hugos_rss_template_limits_and_makes_urls_absolute(
        both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    home = ours["index.xml"].decode()
    assert home.count("<item>") == 3                                  # services.rss.limit
    assert "<managingEditor>tom@example.org (Tom)</managingEditor>" in home
    posts = ours["posts/index.xml"].decode()
    assert "href=&#34;https://example.org/blog/posts/second/&#34;" in posts      # /blog/… made absolute once
    assert "<description>Recent content in Posts &amp; essays on Tom &amp; Jerry&#39;s notes</description>" in posts
    notes = ours["notes/index.xml"].decode()   # the section's own layout: the URLs of its escaped HTML made absolute
    assert '<image><url>/blog/logo.png</url><link href="/blog/">home</link></image>' in notes   # not an escaped quote
    assert "href=&#34;https://example.org/blog/notes/&#34;" in notes                   # an item's link: absolute
    assert "(limit 3)" in notes
    go = ours["tags/go/index.xml"].decode()
    assert "srcset=&#34;https://example.org/blog/small.png 1x, https://example.org/blog/large.png 2x&#34;" in go
    assert "href=&#34;//cdn.example.org/x.js&#34;" in go                        # protocol-relative: kept


def test_robots_txt_and_the_sitemap_are_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    assert ours["robots.txt"] == hugo["robots.txt"] == b"User-agent: *\n"
    assert ours["sitemap.xml"] == hugo["sitemap.xml"]
    sitemap = ours["sitemap.xml"].decode()
    assert sitemap.count("<url>") == 14 and "notes/alpha/" not in sitemap               # its sitemap: disable
    assert "<changefreq>monthly</changefreq>\n    <priority>0.8</priority>" in sitemap     # the page's own
    assert sitemap.count("<changefreq>weekly</changefreq>\n    <priority>0.5</priority>") == 13   # the site's


SITEMAP_LAYOUT = Path(__file__).resolve().parent / "hugo_sites" / "sitemap_layout"


def test_a_sites_own_sitemap_layout_renders_the_sitemap(tmp_path: Path) -> None:
    """tests/hugo_sites/sitemap_layout: its sitemap.xml layout ranges over .Data.Pages (every page, the
    gallery section left out by the layout) with .Sitemap's settings (the site's, a page's own)."""
    hugo = hugo_files(copy_site(SITEMAP_LAYOUT, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(SITEMAP_LAYOUT, tmp_path / "blogbuild-site"))
    assert sorted(set(ours) - _EXTRA) == sorted(hugo) and warnings == []
    assert ours["sitemap.xml"] == hugo["sitemap.xml"]
    sitemap = ours["sitemap.xml"].decode()
    assert "<changefreq>yearly</changefreq>\n    <priority>1</priority>" in sitemap        # the page's own
    assert "<priority>0.3</priority>" in sitemap and "gallery" not in sitemap.split("<!--")[0]
