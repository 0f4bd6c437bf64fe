"""Old Hugo settings as Hugo 0.168 reads them: pygmentsOptions, pygmentsUseClasses, pygmentsCodeFences and
pygmentsCodefencesGuessSyntax fill markup.highlight where it leaves Hugo's default (line numbers in a table, classes,
a fence without a language guessed), `.Site.Hugo` is `hugo`, and the top-level paginate is gone (10 to a page).
tests/hugo_sites/legacy_config built by the hugo binary and by blogbuild: every page the same DOM, and blogbuild
names paginate among the settings it does not use, with what to write instead."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "legacy_config"


def test_old_settings_are_read_as_hugo_reads_them(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert "posts/post-1/index.html" in pages and "posts/page/2/index.html" not in pages   # 5 posts: one page
    assert differing_pages(hugo, ours) == []
    post = ours["posts/post-1/index.html"].decode()
    assert '<table class="lntable">' in post and 'class="chroma"' in post and "language-fallback" in post
    said = " ".join(warning.message for warning in warnings)
    assert "paginate (hugo.toml:6): Hugo 0.128 replaced it with pagination.pagerSize" in said
    assert "pygments" not in said
