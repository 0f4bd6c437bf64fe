"""render.py: the Planner's list of outputs (URLs, templates, dependency keys) and the theme rendering them."""
from __future__ import annotations

from datetime import datetime, timezone

from support.posts import post_file, posts_from_files, site_config

from blogbuild.publish.environment import make_environment
from blogbuild.publish.planner import Planner, post_list_key
from blogbuild.templating.jinja import JinjaEngine
from blogbuild.site.site import build_site
from blogbuild.disk.sources import template_dirs

NOW = datetime(2025, 6, 1, tzinfo=timezone.utc)
FILES = {
    "posts/a.md": post_file("Alpha", "2025-01-01T00:00:00+08:00", tags=["vllm"], series=["serving"],
                            series_order=1),
    "posts/b.md": post_file("Beta", "2025-02-01T00:00:00+08:00", tags=["vllm", "kv"]),
    "posts/c.md": post_file("Gamma", "2025-03-01T00:00:00+08:00", tags=["kv"]),
}


def _plan(tmp_path, files=FILES, **overrides):
    config = site_config(tmp_path, **overrides)
    site = build_site(posts_from_files(files, config), config, now=NOW)
    templates = JinjaEngine(make_environment(config, template_dirs(config)))
    pages, data = Planner(site, templates, post_list_key).plan()
    return {page.url: page for page in pages}, {item.output_path: item for item in data}


def test_every_page_kind_is_planned_with_its_template(tmp_path) -> None:
    pages, data = _plan(tmp_path)
    templates = {url: page.template for url, page in pages.items()}
    assert templates["/"] == "home.html"
    assert templates["/posts/a/"] == "post.html"
    assert templates["/posts/"] == "section.html"
    assert templates["/tags/"] == "terms.html"
    assert templates["/tags/vllm/"] == "term.html"
    assert templates["/series/serving/"] == "series.html"
    assert templates["/archives/"] == "archives.html"
    assert templates["/404.html"] == "404.html"
    assert pages["/posts/a/"].output_path == "posts/a/index.html"
    assert pages["/404.html"].output_path == "404.html"
    assert {"index.xml", "sitemap.xml", "robots.txt"} <= set(data)


def test_lists_are_paginated_at_config_paginate(tmp_path) -> None:
    pages, _ = _plan(tmp_path, paginate=2)
    assert "/page/2/" in pages and "/page/3/" not in pages
    assert "/tags/kv/" in pages and "/tags/kv/page/2/" not in pages   # two posts fit on one page
    first, second = pages["/"].context["paginator"], pages["/page/2/"].context["paginator"]
    assert [post.title for post in first.items] == ["Gamma", "Beta"]
    assert [post.title for post in second.items] == ["Alpha"]


def test_keys_change_exactly_where_a_title_is_shown(tmp_path) -> None:
    before, _ = _plan(tmp_path)
    renamed = dict(FILES, **{"posts/c.md": FILES["posts/c.md"].replace('"Gamma"', '"Gamma, renamed"')})
    after, _ = _plan(tmp_path, renamed)
    changed = {url for url in before if before[url].key != after[url].key}
    # Its own page, the lists that show it, and its neighbour (whose page links to it by title).
    assert {"/posts/c/", "/", "/posts/", "/tags/kv/", "/archives/", "/posts/b/"} <= changed
    # A post in no list with it, and not its neighbour, is not rendered again.
    assert "/posts/a/" not in changed and "/tags/vllm/" not in changed and "/series/serving/" not in changed


def test_a_planned_page_renders_with_the_theme(tmp_path) -> None:
    config = site_config(tmp_path)
    site = build_site(posts_from_files(FILES, config), config, now=NOW)
    environment = make_environment(config, template_dirs(config))
    pages, _ = Planner(site, JinjaEngine(environment), post_list_key).plan()
    page = next(page for page in pages if page.url == "/posts/b/")
    html = environment.get_template(page.template).render(page.context)
    assert "<title>Beta" in html
    assert 'href="/tags/kv/"' in html and "Body of Beta." in html
