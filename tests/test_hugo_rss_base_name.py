"""Hugo's RSS output format renamed (`outputFormats.RSS.baseName = "atom"`, as blogs that publish /atom.xml write
it): every list's feed is written under that name (/atom.xml, /posts/atom.xml, /tags/x/atom.xml), the layouts'
links to it (.OutputFormats.Get "RSS", .AlternativeOutputFormats) and the feed's self link name it, and the setting
is honoured, not named among the settings blogbuild does not use (tests/hugo_sites/rss_base_name, built by the hugo
binary and by blogbuild)."""
from __future__ import annotations

import re
from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "rss_base_name"


def test_every_feed_takes_the_rss_formats_base_name(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert not [warning for warning in warnings if "outputFormats" in str(warning) or "default theme" in str(warning)]
    assert differing_pages(hugo, ours) == []
    feeds = sorted(path for path in hugo if path.endswith(".xml"))
    assert feeds == sorted(path for path in ours if path.endswith(".xml"))
    assert {"atom.xml", "posts/atom.xml", "tags/x/atom.xml", "tags/atom.xml"} <= set(feeds)
    self_link = re.compile(rb'<atom:link href="([^"]+)" rel="self"')
    for feed in feeds:
        assert self_link.findall(ours[feed]) == self_link.findall(hugo[feed]), feed
