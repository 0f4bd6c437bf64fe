"""site.py: the site model from posts, pure (no disk): publishing, order, taxonomies, series, neighbours."""
from __future__ import annotations

from datetime import datetime, timezone

from support.posts import post_file, posts_from_files, site_config

from blogbuild.site.site import build_site

NOW = datetime(2025, 6, 1, tzinfo=timezone.utc)


def _site(tmp_path, files, **overrides):
    config = site_config(tmp_path, **overrides)
    return build_site(posts_from_files(files, config), config, now=NOW)


def test_posts_are_newest_first_and_drafts_and_future_posts_are_left_out(tmp_path) -> None:
    site = _site(tmp_path, {
        "posts/old.md": post_file("Old", "2024-01-01T00:00:00+08:00"),
        "posts/new.md": post_file("New", "2025-05-01T00:00:00+08:00"),
        "posts/draft.md": post_file("Draft", "2025-04-01T00:00:00+08:00", draft=True),
        "posts/later.md": post_file("Later", "2025-07-01T00:00:00+08:00"),
    })
    assert [post.title for post in site.posts] == ["New", "Old"]
    with_flags = _site(tmp_path, {"posts/draft.md": post_file("Draft", "2025-04-01T00:00:00+08:00", draft=True),
                                  "posts/later.md": post_file("Later", "2025-07-01T00:00:00+08:00")},
                       drafts=True, future=True)
    assert [post.title for post in with_flags.posts] == ["Later", "Draft"]


def test_terms_that_urlize_alike_are_one_term_shown_as_first_written(tmp_path) -> None:
    site = _site(tmp_path, {
        "posts/a.md": post_file("A", "2025-01-01T00:00:00+08:00", tags=["AI Infra", "vllm"]),
        "posts/b.md": post_file("B", "2025-02-01T00:00:00+08:00", tags=["ai infra"]),
    })
    tags = site.taxonomy("tags")
    assert tags is not None
    by_slug = {term.slug: term for term in tags.terms}
    assert set(by_slug) == {"ai-infra", "vllm"}
    assert [post.title for post in by_slug["ai-infra"].posts] == ["B", "A"]
    assert by_slug["ai-infra"].url == "/tags/ai-infra/"


def test_series_navigation_follows_series_order_not_dates(tmp_path) -> None:
    site = _site(tmp_path, {
        "posts/one.md": post_file("Part one", "2025-03-01T00:00:00+08:00", series=["serving"], series_order=1),
        "posts/two.md": post_file("Part two", "2025-01-01T00:00:00+08:00", series=["serving"], series_order=2),
        "posts/solo.md": post_file("Solo", "2025-02-01T00:00:00+08:00"),
    })
    first = next(post for post in site.posts if post.title == "Part one")
    (series,) = site.nav(first).series
    assert (series.index, series.total) == (1, 2)
    assert series.previous is None and series.next is not None and series.next.title == "Part two"
    # Newer and older neighbours are by date across the whole site.
    assert site.nav(first).newer is None
    assert site.nav(first).older is not None and site.nav(first).older.title == "Solo"


def test_sections_and_archives_group_posts(tmp_path) -> None:
    site = _site(tmp_path, {
        "posts/a.md": post_file("A", "2024-05-01T00:00:00+08:00"),
        "notes/b.md": post_file("B", "2025-05-01T00:00:00+08:00"),
        "notes/_index.md": '---\ntitle: "Field notes"\n---\nShort things.\n',
    })
    sections = {section.name: section for section in site.sections}
    assert set(sections) == {"posts", "notes"}
    assert sections["notes"].title == "Field notes"
    assert sections["notes"].url == "/notes/"
    assert [year.year for year in site.archives] == [2025, 2024]


def test_the_order_posts_are_found_in_does_not_change_the_site(tmp_path) -> None:
    files = {f"posts/p{number}.md": post_file(f"P{number}", f"2025-01-{number:02d}T00:00:00+08:00",
                                              tags=["t", f"t{number % 3}"]) for number in range(1, 10)}
    config = site_config(tmp_path)
    posts = posts_from_files(files, config)
    forward = build_site(posts, config, now=NOW)
    backward = build_site(list(reversed(posts)), config, now=NOW)
    assert forward.posts == backward.posts
    assert forward.taxonomies == backward.taxonomies
    assert forward.navigation == backward.navigation
