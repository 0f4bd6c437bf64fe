"""Whole small sites built in-process: every page kind, publishing rules, invariants, caches, failures."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from blogbuild.pipeline import Builder, CACHE_DIR
from blogbuild.cli import main
from blogbuild.config import load_config
from support.files import read_tree, write_files

SITE = {
    "blogbuild.yaml": (
        "title: Test Blog\nbase_url: https://example.org/blog/\npaginate: 2\n"
        "menu:\n  - {name: Posts, url: /posts/, weight: 1}\n  - {name: Tags, url: /tags/, weight: 2}\n"
    ),
    "content/posts/_index.md": "---\ntitle: All the posts\n---\nSection intro.\n",
    "content/posts/paged-kv.md": (
        "---\ntitle: \"Paged KV cache, explained\"\ndate: 2025-03-02T09:00:00+08:00\n"
        "tags: [\"vllm\", \"memory\"]\ncategories: [\"serving\"]\nseries: [\"serving\"]\nseries_order: 1\n"
        "aliases: [\"/old/paged-kv/\"]\n---\n\n首先，显存是瓶颈。然后 $O(n^2)$ 的注意力。\n\n## 分页\n\nMore text.\n"
    ),
    "content/posts/ring.md": (
        "---\ntitle: Ring attention notes\ndate: 2025-06-01T08:00:00+08:00\ntags: [attention, vllm]\n"
        "series: [serving]\nseries_order: 2\n---\nRing text with $$x^2$$ display.\n"
    ),
    "content/posts/bundle/index.md": (
        "---\ntitle: A bundle\ndate: 2024-01-05\ntags: [memory]\n---\n![diagram](diagram.png)\n"
    ),
    "content/posts/bundle/diagram.png": b"\x89PNG\r\n\x1a\nfake",
    "content/posts/draft.md": "---\ntitle: Draft post\ndate: 2025-01-01\ndraft: true\n---\nNot yet.\n",
    "content/posts/future.md": "---\ntitle: Future post\ndate: 2999-01-01\n---\nLater.\n",
    "content/tags/vllm/_index.md": "---\ntitle: vLLM\n---\nThe vLLM tag.\n",
    "content/about.md": "---\ntitle: About\nlist: false\n---\nAbout me.\n",
    "static/images/logo.txt": "logo",
}


def build(root: Path, *args: str) -> int:
    return main(["build", "--root", str(root), "--quiet", *args])


@pytest.fixture
def site(make_site) -> Path:
    return make_site(SITE)


def test_every_page_kind_is_published(site: Path) -> None:
    assert build(site) == 0
    public = site / "public"
    for path in ["index.html", "page/2/index.html", "posts/index.html", "posts/paged-kv/index.html",
                 "posts/ring/index.html", "posts/bundle/index.html", "posts/bundle/diagram.png", "about/index.html",
                 "tags/index.html", "tags/vllm/index.html", "tags/vllm/index.xml", "categories/serving/index.html",
                 "series/serving/index.html", "series/serving/index.xml", "archives/index.html", "index.xml",
                 "posts/index.xml", "sitemap.xml", "robots.txt", "404.html", "index.json", "css/syntax.css",
                 "css/style.css", "images/logo.txt", "old/paged-kv/index.html", "search/index.html"]:
        assert (public / path).is_file(), path
    assert not (public / "posts/draft").exists()
    assert not (public / "posts/future").exists()


def test_series_order_and_part_numbers(site: Path) -> None:
    build(site)
    series_page = (site / "public/series/serving/index.html").read_text(encoding="utf-8")
    assert series_page.index("Paged KV cache, explained") < series_page.index("Ring attention notes")
    ring = (site / "public/posts/ring/index.html").read_text(encoding="utf-8")
    assert "/blog/posts/paged-kv/" in ring          # previous part, with the base path
    config = load_config(None, root=site)
    result = Builder(config).build()
    nav = result.site.nav(next(post for post in result.site.posts if post.slug == "ring"))
    assert [(part.index, part.total) for part in nav.series] == [(2, 2)]
    assert nav.series[0].previous.slug == "paged-kv" and nav.series[0].next is None


def test_search_index_fields(site: Path) -> None:
    build(site)
    entries = json.loads((site / "public/index.json").read_text(encoding="utf-8"))
    by_title = {entry["title"]: entry for entry in entries}
    assert set(by_title) == {"Ring attention notes", "Paged KV cache, explained", "A bundle"}
    paged = by_title["Paged KV cache, explained"]
    assert paged["date"] == "2025-03-02T09:00:00+08:00"
    assert paged["permalink"] == "https://example.org/blog/posts/paged-kv/"
    assert paged["tags"] == ["vllm", "memory"] and paged["series"] == ["serving"]
    assert "O(n²)" in paged["content"] and "显存是瓶颈" in paged["content"]


@pytest.mark.parametrize("in_subdir", ["false", "true"])
def test_a_multilingual_sites_robots_txt_is_one_file_naming_the_sitemap_index(tmp_path: Path, in_subdir: str) -> None:
    """One robots.txt at the top, the default language's, naming the top sitemap (the index of the languages'),
    whether the default language's pages are at the top or in a folder of their own."""
    files = {"blogbuild.yaml": ("title: ML\nbase_url: https://example.org/blog/\ndefault_language: en\n"
                                f"default_language_in_subdir: {in_subdir}\nlanguages:\n  en: {{title: ML}}\n"
                                "  fr: {title: ML fr}\n"),
             "content/a.md": "---\ntitle: A\ndate: 2024-01-01\n---\nA\n",
             "content/a.fr.md": "---\ntitle: A\ndate: 2024-01-01\n---\nA\n"}
    site = write_files(tmp_path / "site", files)
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    public = site / "public"
    assert sorted(path.relative_to(public).as_posix() for path in public.rglob("robots.txt")) == ["robots.txt"]
    assert (public / "robots.txt").read_text(encoding="utf-8").endswith(
        "Sitemap: https://example.org/blog/sitemap.xml\n")
    assert "<sitemapindex" in (public / "sitemap.xml").read_text(encoding="utf-8")


def test_feeds_sitemap_robots_and_alias(site: Path) -> None:
    build(site)
    public = site / "public"
    feed = (public / "index.xml").read_text(encoding="utf-8")
    assert "<link>https://example.org/blog/posts/ring/</link>" in feed
    assert "Draft post" not in feed and "About" not in feed
    assert "https://example.org/blog/about/" in (public / "sitemap.xml").read_text(encoding="utf-8")
    assert "Sitemap: https://example.org/blog/sitemap.xml" in (public / "robots.txt").read_text(encoding="utf-8")
    alias = (public / "old/paged-kv/index.html").read_text(encoding="utf-8")
    assert "https://example.org/blog/posts/paged-kv/" in alias


def test_drafts_and_future_flags(site: Path) -> None:
    assert build(site, "--drafts", "--future") == 0
    assert (site / "public/posts/draft/index.html").is_file()
    assert (site / "public/posts/future/index.html").is_file()


def test_two_builds_give_identical_bytes(site: Path) -> None:
    build(site)
    first = read_tree(site / "public")
    shutil.rmtree(site / "public")
    shutil.rmtree(site / CACHE_DIR, ignore_errors=True)
    build(site)
    assert read_tree(site / "public") == first


def test_discovery_order_does_not_change_output(make_site) -> None:
    forward = make_site(SITE)
    backward = make_site(dict(reversed(list(SITE.items()))))
    build(forward)
    build(backward)
    assert read_tree(forward / "public") == read_tree(backward / "public")


def test_failed_build_keeps_previous_output_and_lists_every_error(site: Path, capsys) -> None:
    assert build(site) == 0
    before = read_tree(site / "public")
    write_files(site, {
        "content/posts/bad1.md": "---\ntitle: [unclosed\n---\n",
        "content/posts/bad2.md": "---\ntitle: ok\ndate: 2025-13-45\n---\n",
        "content/posts/bad3.md": "---\ntitle: never closed\n",
    })
    assert build(site) == 1
    err = capsys.readouterr().err
    assert "content/posts/bad1.md:2: front matter: invalid YAML" in err
    assert "content/posts/bad2.md:3: front matter: date '2025-13-45' is not a valid date" in err
    assert "content/posts/bad3.md:1: front matter: front matter opened with '---' is never closed" in err
    assert "build failed with 3 errors" in err and "Traceback" not in err
    assert read_tree(site / "public") == before


def test_output_folder_with_foreign_files_is_refused(site: Path, capsys) -> None:
    write_files(site, {"public/precious.txt": "mine"})
    assert build(site) == 1
    assert "holds files blogbuild did not write" in capsys.readouterr().err
    assert (site / "public/precious.txt").read_text() == "mine"


def test_usage_error_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["build", "--no-such-flag"])
    assert caught.value.code == 2


def test_two_posts_claiming_one_url_are_both_named(make_site, capsys) -> None:
    root = make_site({"content/posts/a.md": "---\ntitle: A\nslug: same\n---\n",
                      "content/posts/b.md": "---\ntitle: B\nslug: same\n---\n"})
    assert build(root) == 1
    err = capsys.readouterr().err
    assert "content/posts/b.md" in err and "content/posts/a.md" in err and "/posts/same/" in err


def test_folder_of_markdown_builds_with_defaults(make_site) -> None:
    root = make_site({"content/one.md": "# One\n\nText.\n", "content/two.md": "Two.\n"})
    assert build(root) == 0
    assert (root / "public/one/index.html").is_file() and (root / "public/two/index.html").is_file()


# --- invariants: cold, warm, jobs 1 and 2 give identical trees; caches never trusted blindly ---

def _many_posts(count: int) -> dict[str, str]:
    files = {"blogbuild.yaml": "title: Many\nbase_url: https://example.org/\n"}
    for number in range(count):
        files[f"content/posts/p{number:03d}.md"] = (
            f"---\ntitle: Post {number}\ndate: 2024-{number % 12 + 1:02d}-{number % 27 + 1:02d}T10:00:00+08:00\n"
            f"tags: [t{number % 5}, shared]\nseries: [s{number % 3}]\n---\n"
            f"正文 {number}，含公式 $a_{number}$。\n\n```python\nprint({number})\n```\n")
    return files


def test_cold_warm_and_jobs_give_identical_trees(make_site) -> None:
    root = make_site(_many_posts(70))
    assert build(root, "--jobs", "1", "--no-cache") == 0
    cold = read_tree(root / "public")
    assert build(root, "--jobs", "2") == 0            # cold cache, two processes
    assert read_tree(root / "public") == cold
    assert (root / CACHE_DIR).is_dir()
    assert build(root, "--jobs", "2") == 0            # warm
    assert read_tree(root / "public") == cold


def test_corrupted_cache_is_ignored_with_a_warning(make_site, capsys) -> None:
    root = make_site(_many_posts(3))
    assert build(root) == 0
    expected = read_tree(root / "public")
    damaged = list((root / CACHE_DIR).glob("*.cache"))
    for cache_file in damaged:
        cache_file.write_bytes(b"not a cache file at all")
    for record in (root / CACHE_DIR).glob("last-build-*.json"):   # nothing changed: make the build read the cache
        record.unlink()
    assert main(["build", "--root", str(root)]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert sorted(lines) == sorted(f"{path}: warning: not a blogbuild cache file of this version, ignored and rebuilt"
                                   for path in damaged if not path.name.startswith("state-")), lines
    assert read_tree(root / "public") == expected


def test_templates_are_never_compiled_to_the_cache(make_site) -> None:
    root = make_site(_many_posts(3))
    assert build(root) == 0
    write_files(root, {"content/posts/p001.md": "---\ntitle: Edited\ndate: 2024-01-01\n---\nEdited.\n"})
    assert build(root) == 0
    assert not list((root / CACHE_DIR).glob("jinja-*")), "a compiled template is code: never kept on disk"


def test_changed_template_or_config_invalidates(make_site) -> None:
    root = make_site(_many_posts(3))
    assert build(root) == 0
    write_files(root, {"templates/post.html": "<p>{{ post.title }}</p>\n"})
    assert build(root) == 0
    assert (root / "public/posts/p001/index.html").read_text() == "<p>Post 1</p>\n"
    write_files(root, {"blogbuild.yaml": "title: Renamed\nbase_url: https://example.org/\n"})
    assert build(root) == 0
    assert "Renamed" in (root / "public/index.html").read_text(encoding="utf-8")


def test_cache_holds_nothing_it_cannot_rebuild(make_site) -> None:
    root = make_site(_many_posts(3))
    assert build(root) == 0
    from blogbuild.pipeline.state import CACHE_RECORDS
    from blogbuild.disk.cache_codec import loads
    cache_file = next((root / CACHE_DIR).glob("posts-*.cache"))
    stored = loads(cache_file.read_bytes(), "posts", CACHE_RECORDS)
    assert len(stored["posts"]) == 3


def test_partial_rebuilds_equal_a_full_build(make_site) -> None:
    import random
    root = make_site(_many_posts(12))
    config = load_config(None, root=root)
    builder = Builder(config)
    assert builder.build().ok
    generator = random.Random(7)
    for step in range(15):
        number = generator.randrange(14)
        path = root / f"content/posts/p{number:03d}.md"
        action = generator.choice(["edit", "retitle", "retag", "delete", "create"])
        if action == "delete" and path.exists():
            path.unlink()
        else:
            tags = generator.choice(["[t1]", "[t2, shared]", "[]"])
            title = f"Post {number} v{step}" if action == "retitle" else f"Post {number}"
            path.write_text(f"---\ntitle: {title}\ndate: 2024-02-{number + 1:02d}\ntags: {tags}\n"
                            f"series: [s{number % 2}]\n---\nbody {step} $x_{step}$\n", encoding="utf-8")
            os.utime(path, ns=(step * 10**9, step * 10**9 + number))
        partial = builder.build([str(path)])
        assert partial.ok
        full = Builder(config).build()
        assert {k: v.data or v.source for k, v in partial.files.items()} == \
               {k: v.data or v.source for k, v in full.files.items()}, f"step {step}: {action} p{number}"


def test_a_static_file_added_between_rebuilds_is_published(make_site) -> None:
    """serve names the changed path: a new file in static/ or beside a post is not a post edit."""
    root = make_site(_many_posts(3))
    builder = Builder(load_config(None, root=root))
    assert builder.build().ok
    write_files(root, {"static/fresh.txt": "fresh\n", "content/posts/notes.txt": "notes\n"})
    result = builder.build([str(root / "static/fresh.txt"), str(root / "content/posts/notes.txt")])
    assert result.ok
    assert {"fresh.txt", "posts/notes.txt"} <= set(result.files)


def test_root_relative_links_in_content_get_the_base_path(make_site) -> None:
    """Once: a link that already starts with the base path (a Go shortcode's relURL, a whole path written out)
    is left as it is, as is one to another site; /repository/ is not under /repo/."""
    root = make_site({"blogbuild.yaml": "base_url: https://example.org/repo/\n",
                      "content/posts/a.md": ("---\ntitle: A\n---\nSee [b](/posts/b/) and [ext](//cdn.example/x), "
                                             "[whole](/repo/posts/b/), [top](/repo) and [other](/repository/x).\n"),
                      "content/posts/b.md": "---\ntitle: B\n---\nB.\n"})
    assert build(root) == 0
    page = (root / "public/posts/a/index.html").read_text(encoding="utf-8")
    assert 'href="/repo/posts/b/">b<' in page and 'href="//cdn.example/x"' in page
    assert 'href="/repo/posts/b/">whole<' in page and 'href="/repo">top<' in page
    assert 'href="/repo/repository/x">other<' in page


def test_ref_shortcodes_resolve_in_content_and_summary(make_site) -> None:
    root = make_site({"content/posts/a.md": '---\ntitle: A\n---\nSee [b]({{< ref "posts/b.md" >}}).\n',
                      "content/posts/b.md": "---\ntitle: B\n---\nB.\n"})
    assert build(root) == 0
    home = (root / "public/index.html").read_text(encoding="utf-8")
    page = (root / "public/posts/a/index.html").read_text(encoding="utf-8")
    assert 'href="/posts/b/"' in page and "bbref" not in page and "bbref" not in home


def test_body_only_edits_take_the_short_path_and_equal_a_full_build(make_site) -> None:
    import random
    root = make_site(_many_posts(30))
    config = load_config(None, root=root)
    builder = Builder(config)
    assert builder.build().ok
    generator = random.Random(11)
    for step in range(12):
        number = generator.randrange(30)
        path = root / f"content/posts/p{number:03d}.md"
        text = path.read_text(encoding="utf-8")
        head, _, _ = text.partition("---\n正文")
        body = generator.choice(["短。", "A much longer body " * generator.randrange(1, 60), "$$x^2$$\n\n正文。" * 3])
        path.write_text(f"{head}---\n正文 {step}: {body}\n", encoding="utf-8")
        partial = builder.build([str(path)])
        assert partial.ok
        assert partial.stats.rendered_pages < 40, "a body edit should not re-render the whole site"
        full = Builder(config).build()
        assert {k: v.data or v.source for k, v in partial.files.items()} == \
               {k: v.data or v.source for k, v in full.files.items()}, f"step {step}: p{number}"


def test_warm_build_in_a_new_process_reuses_published_pages_but_never_a_tampered_one(make_site) -> None:
    root = make_site(_many_posts(5))
    assert build(root) == 0
    cold = read_tree(root / "public")
    config = load_config(None, root=root)
    warm = Builder(config, use_cache=True).build()      # a fresh Builder, as a new `blogbuild build` has
    assert warm.ok and warm.stats.rendered_pages == 0 and warm.stats.markdown_rendered == 0
    (root / "public/posts/p001/index.html").write_text("tampered", encoding="utf-8")
    again = Builder(config, use_cache=True).build()
    assert again.ok and again.stats.rendered_pages == 1
    assert build(root) == 0
    assert read_tree(root / "public") == cold


def test_a_build_with_nothing_to_change_leaves_the_output_untouched(site: Path) -> None:
    assert build(site) == 0
    before = {path: (path.stat().st_ino, path.stat().st_mtime_ns) for path in (site / "public").rglob("*")}
    assert build(site) == 0
    after = {path: (path.stat().st_ino, path.stat().st_mtime_ns) for path in (site / "public").rglob("*")}
    assert after == before


def _long_series(count: int) -> dict[str, str]:
    files = {"blogbuild.yaml": "title: Long\nbase_url: https://example.org/\npaginate: 50\n"}
    for number in range(1, count + 1):
        files[f"content/posts/p{number:03d}.md"] = (
            f"---\ntitle: Part {number}\ndate: 2024-01-{number:02d}T10:00:00+08:00\n"
            f"series: [long]\nseries_order: {number}\n---\nbody {number}\n")
    return files


@pytest.mark.parametrize("override", [False, True])
def test_a_retitled_part_re_renders_only_the_pages_whose_window_shows_it(make_site, override) -> None:
    root = make_site(_long_series(30))
    if override:   # a site's post.html listing the whole series: every part's page shows every title
        write_files(root, {"templates/post.html": "{% for s in nav.series %}{% for p in s.term.posts %}"
                                                  "{{ p.title }}\n{% endfor %}{% endfor %}"})
    config = load_config(None, root=root)
    builder = Builder(config)
    assert builder.build().ok
    path = root / "content/posts/p001.md"
    for step, title in enumerate(("Part one", "Part one again")):
        path.write_text(path.read_text(encoding="utf-8").replace("title: Part 1\n", f"title: {title}\n")
                        .replace("title: Part one\n", f"title: {title}\n"), encoding="utf-8")
        os.utime(path, ns=(10**9 * (step + 1), 10**9 * (step + 1)))
        partial = builder.build([str(path)])
        assert partial.ok
        full = Builder(config).build()
        assert {k: v.data or v.source for k, v in partial.files.items()} == \
               {k: v.data or v.source for k, v in full.files.items()}
        shows_part_one = [name for name, file in full.files.items()
                          if name.startswith("posts/p") and title.encode() in (file.data or b"")]
        if override:
            assert len(shows_part_one) == 30
            assert partial.stats.rendered_pages >= 30
        else:   # parts 1-5 list part 1 in their window of nine
            assert sorted(shows_part_one) == [f"posts/p{number:03d}/index.html" for number in range(1, 6)]
            assert partial.stats.rendered_pages < 15
