"""A Hugo list grouped by date in the site's language: .GroupByDate's keys name months and weekdays as Hugo's
time.Format writes them in each language ("十月", "周二 10月 2025", "oktober", "di okt 2025"), as PaperMod's
archives page groups a Chinese or Dutch blog's posts. tests/hugo_sites/group_by_date_languages (English,
Chinese and Dutch) built by the hugo binary and by blogbuild: every list the same."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "group_by_date_languages"


def test_group_keys_are_in_the_sites_language(tmp_path: Path) -> None:
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    lists = ["posts/index.html", "zh/posts/index.html", "nl/posts/index.html"]
    assert [ours[path] for path in lists] == [hugo[path] for path in lists]
    assert "[周二 10月 2025]" in ours["zh/posts/index.html"].decode() and warnings == []
