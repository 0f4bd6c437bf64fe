"""posts.py: a Post from a file's front matter and rendered body: fields checked at the key's line, URLs."""
from __future__ import annotations

import pytest
from support.posts import post_from_text, site_config

from blogbuild.core.errors import SourceError
from blogbuild.content.posts import clean_url, default_url


@pytest.mark.parametrize("rel_path, slug, expected", [
    ("posts/x.md", None, ("posts", "x", "/posts/x/")),
    ("posts/x/index.md", None, ("posts", "x", "/posts/x/")),
    ("posts/Ring Attention.md", None, ("posts", "ring-attention", "/posts/ring-attention/")),
    ("about.md", None, ("", "about", "/about/")),
    ("about/index.md", None, ("", "about", "/about/")),   # a bundle at the top is in no section
    ("docs/guide/deep/index.md", None, ("docs", "deep", "/docs/guide/deep/")),
    ("posts/x.md", "other", ("posts", "other", "/posts/other/")),
])
def test_default_url_follows_hugos_rules(rel_path, slug, expected) -> None:
    assert default_url(rel_path, slug) == expected


@pytest.mark.parametrize("value, expected", [("about", "/about/"), ("/a/b", "/a/b/"), ("/feed.xml", "/feed.xml"),
                                             ("./a//b/", "/a/b/"), ("/", "/")])
def test_clean_url_makes_a_site_relative_url(value, expected) -> None:
    assert clean_url(value, path="p.md", line=3) == expected


@pytest.mark.parametrize("value", ["https://elsewhere.example/", "//host/x", "../../etc", "/a/../../b"])
def test_clean_url_refuses_to_leave_the_site(value) -> None:
    with pytest.raises(SourceError) as raised:
        clean_url(value, path="p.md", line=3)
    assert (raised.value.path, raised.value.line) == ("p.md", 3)


def test_every_field_reaches_the_post(tmp_path) -> None:
    text = ('---\ntitle: "Paged KV cache"\ndate: 2025-03-02T09:00:00+08:00\ntags: ["vllm", "memory"]\n'
            'series: ["serving"]\nseries_order: 2\ndescription: "How pages are found"\naliases: ["/old/kv/"]\n'
            'draft: true\ntoc: false\nowner: "someone"\n---\n\n## Blocks\n\nText with $x^2$.\n')
    post, warnings = post_from_text("posts/kv.md", text, site_config(tmp_path))
    assert warnings == ()
    assert (post.title, post.url, post.section, post.slug) == ("Paged KV cache", "/posts/kv/", "posts", "kv")
    assert post.date is not None and post.date.isoformat() == "2025-03-02T09:00:00+08:00"
    assert post.date_text == "2025-03-02T09:00:00+08:00"
    assert (post.tags, post.series, post.series_order) == (("vllm", "memory"), ("serving",), 2)
    assert (post.description, post.aliases, post.draft, post.toc_enabled) == ("How pages are found",
                                                                              ("/old/kv/",), True, False)
    assert post.params["owner"] == "someone"   # unknown keys reach templates
    assert post.has_math and [entry.text for entry in post.toc] == ["Blocks"]


@pytest.mark.parametrize("header, line, fragment", [
    ('title: "T"\ndate: 2025-13-01', 3, "date"),
    ('title: "T"\nseries_order: first', 3, "series_order must be a whole number"),
    ('title: "T"\ndraft: maybe', 3, "draft must be true or false"),
    ('title: "T"\nurl: "https://elsewhere.example/"', 3, "must be a path on this site"),
])
def test_a_bad_field_is_an_error_at_its_own_line(tmp_path, header, line, fragment) -> None:
    with pytest.raises(SourceError) as raised:
        post_from_text("posts/bad.md", f"---\n{header}\n---\nbody\n", site_config(tmp_path))
    assert (raised.value.path, raised.value.line) == ("content/posts/bad.md", line)
    assert fragment in raised.value.message


@pytest.mark.parametrize("header, math, toc", [
    ("toc:\n  enable: false\n  auto: true\nmath:\n  enable: true", True, False),   # a map: by its enable
    ("toc:\n  auto: false\nmath: {Enable: 'yes'}", True, True),                      # no enable: the default
    ("toc: no\nmath: yes", True, False),
])
def test_a_themes_switch_written_as_a_map_is_read_by_its_enable(tmp_path, header, math, toc) -> None:
    post, warnings = post_from_text("posts/x.md", f'---\ntitle: "T"\n{header}\n---\nbody\n', site_config(tmp_path))
    assert (post.math, post.toc_enabled, warnings) == (math, toc, ())
    assert isinstance(post.params["toc"], (dict, bool))   # a theme's layouts see the param as written


def test_a_themes_switch_that_is_no_switch_is_its_default_with_a_warning(tmp_path) -> None:
    post, warnings = post_from_text("posts/x.md", '---\ntitle: "T"\ntoc: auto\nmath: [1]\n---\nbody\n',
                                    site_config(tmp_path))
    assert (post.math, post.toc_enabled) == (False, True)
    assert [(warning.line, warning.message.split(",")[0]) for warning in warnings] == \
        [(4, "math is '[1]'"), (3, "toc is 'auto'")]


@pytest.mark.parametrize("aliases, line", [
    ('aliases:\n  - /ok/\n  - /fine/\n  - "https://elsewhere.example/x"', 6),
    ('aliases: ["/ok/", "//elsewhere.example/x"]', 3),
    ('aliases:\n  - /ok/\n  - ../../etc', 5),
])
def test_a_bad_alias_is_an_error_at_its_entrys_line(tmp_path, aliases, line) -> None:
    with pytest.raises(SourceError) as raised:
        post_from_text("posts/bad.md", f'---\ntitle: "T"\n{aliases}\n---\nbody\n', site_config(tmp_path))
    assert raised.value.line == line


@pytest.mark.parametrize("written, shown", [
    ("20250101", "2025-01-01"), ("2025-01-01", "2025-01-01"),
    ("20250101T093000+0800", "2025-01-01T09:30:00+08:00"), ("2025-03-02T09:00:00+08:00", "2025-03-02T09:00:00+08:00"),
])
def test_a_date_in_iso_basic_form_is_kept_in_extended_form(tmp_path, written, shown) -> None:
    """date_text is what index.json and the archive show: the extended form, not the digits as typed."""
    post, _ = post_from_text("posts/d.md", f'---\ntitle: "T"\ndate: "{written}"\n---\nbody\n', site_config(tmp_path))
    assert post.date_text == shown
    assert post.date is not None and post.date.isoformat().startswith(shown[:10])


def test_a_missing_title_is_a_warning_with_a_title_from_the_file_name(tmp_path) -> None:
    post, warnings = post_from_text("posts/ring-attention.md", "---\ndate: 2025-01-01\n---\nbody\n",
                                    site_config(tmp_path))
    assert post.title == "ring attention"
    assert [(warning.line, "no title" in warning.message) for warning in warnings] == [(1, True)]


def test_an_unsafe_slug_is_made_safe_with_a_warning_at_its_line(tmp_path) -> None:
    post, warnings = post_from_text("posts/x.md", '---\ntitle: "T"\nslug: "../Etc Passwd"\n---\nbody\n',
                                    site_config(tmp_path))
    assert post.url == "/posts/etc-passwd/"
    assert [warning.line for warning in warnings] == [3]


def test_a_written_summary_replaces_the_cut_one(tmp_path) -> None:
    post, _ = post_from_text("posts/x.md", '---\ntitle: "T"\nsummary: "Short & sweet"\n---\nA long body.\n',
                             site_config(tmp_path))
    assert post.summary_html == "<p>Short &amp; sweet</p>" and post.truncated
    assert post.summary_text == "Short & sweet"


@pytest.mark.parametrize("body, has_images, has_links", [
    ("Plain 文字 and [a link](https://example.org/) and [an anchor](#part).\n", False, False),
    ("![diagram](arch.png)\n", True, True),              # a content-path src the links stage resolves
    ("[home](/about/)\n", False, True),                  # root-relative: rebased under a base path
    ('[other]({{< ref "other.md" >}})\n', False, True),  # a ref marker
    ("[doc](other.md#part)\n", False, True),             # a content path
])
def test_the_content_is_packed_and_its_facts_noted_for_the_later_stages(tmp_path, body, has_images,
                                                                         has_links) -> None:
    post, _ = post_from_text("posts/x.md", f'---\ntitle: "x"\n---\n\n{body}', site_config(tmp_path))
    assert isinstance(post.packed_html, bytes) and post.content_html.startswith("<p>")
    assert len(post.packed_html) < len(post.content_html.encode("utf-8")) + 16
    assert (post.has_images, post.has_links) == (has_images, has_links)
