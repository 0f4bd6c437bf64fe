"""Hugo's timeZone (tests/hugo_sites/time_zone, Europe/Oslo), built by the hugo binary and by blogbuild, every page
the same DOM: a date written without an offset (front matter in YAML and TOML, date only or with a time, lastmod,
time.AsTime, dateFormat of a string) is in the site's zone, with the zone's offset at that date (CET in winter,
CEST in summer) and its abbreviation as Go formats it; a time the clocks pass twice is the later one, and one they
skip is moved on by the gap (02:30 on the spring-forward night is 03:30 CEST), as Go's time.Date decides; a date
with an offset keeps it; .PublishDate is front matter's publishDate; time.Format of a time (not a string) writes
its zone by its offset ("+0100"), as Hugo's conversion leaves it. A zone the system does not know is a warning
at the config, and the dates are then UTC."""
from __future__ import annotations

import shutil
from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "time_zone"


def test_dates_without_an_offset_are_in_the_sites_time_zone(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert not [warning for warning in warnings if "default theme" in str(warning)], warnings
    assert differing_pages(hugo, ours) == []
    assert '<time datetime="2024-07-01T10:30:00&#43;02:00">' in ours["posts/summer/index.html"].decode()
    assert "2024-01-15 00:00:00 &#43;0100 CET" in ours["posts/winter/index.html"].decode()
    assert "2024-03-31 03:30:00 &#43;0200 CEST" in ours["posts/gap/index.html"].decode()


def test_an_unknown_time_zone_is_named_and_the_dates_are_utc(tmp_path: Path) -> None:
    from blogbuild.config import load_config
    from blogbuild.pipeline.builder import Builder
    site = tmp_path / "site"
    shutil.copytree(FIXTURE, site)
    config = site / "hugo.toml"
    config.write_text(config.read_text().replace('timeZone = "Europe/Oslo"', 'timeZone = "Europe/Atlantis"'))
    result = Builder(load_config(None, root=site)).build()
    assert [warning for warning in result.warnings if "timeZone 'Europe/Atlantis' is no time zone" in str(warning)]
    page = result.files["posts/winter/index.html"]
    text = page.data.decode() if page.data else Path(page.source).read_text(encoding="utf-8")
    assert "2024-01-15 00:00:00 &#43;0000 UTC" in text
