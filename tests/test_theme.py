"""The default theme: every template renders with the render contract's context, escapes what it
shows, loads KaTeX/mermaid only when needed, and the asset pins match the npm packages.

Templates are rendered through publish/environment.make_environment (the build's own Jinja setup) with model
objects built by hand, so each test controls exactly what the page contains."""
from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import lxml.html
import pytest

from blogbuild.themes.options import Intro, ThemeOptions
from blogbuild.media import assets
from blogbuild.config import MenuItem, SiteConfig, load_config
from blogbuild.core.model import pack_html
from blogbuild.core.model import (ArchiveMonth, ArchiveYear, Paginator, Post, PostNav, Section, SeriesNav, Site,
                             Taxonomy, Term, TocEntry)
from blogbuild.publish.environment import make_environment
from blogbuild.publish.outputs import PageMeta

REPO = Path(__file__).resolve().parent.parent
THEME = REPO / "src" / "blogbuild" / "theme"
NODE_MODULES = REPO / "tests" / "node" / "node_modules"
TZ = timezone(timedelta(hours=8))

# Text that breaks a page if a template forgets to escape it.
HOSTILE = '<script>alert("x")</script> & <b>'
HOSTILE_ESCAPED = "&lt;script&gt;alert"


def make_post(number: int, **changes) -> Post:
    """A post with everything a template reads; `changes` override fields."""
    values = dict(
        source=f"content/posts/p{number}.md", rel_path=f"posts/p{number}.md", section="posts",
        slug=f"p{number}", url=f"/posts/p{number}/", title=f"文章 {number}",
        date=datetime(2025, 8, number, 10, 0, tzinfo=TZ), lastmod=None,
        date_text=f"2025-08-{number:02d}T10:00:00+08:00", draft=False, tags=("ai",), categories=(),
        series=(), series_order=None, description="", aliases=(), math=False, toc_enabled=True,
        packed_html=pack_html("<p>正文</p>"), toc=(), summary_html="<p>摘要 &amp; 更多</p>", truncated=True,
        plain_text="正文", word_count=120, reading_minutes=1, has_math=False, has_mermaid=False,
        has_code=False)
    values.update(changes)
    return Post(**values)


def make_site(config: SiteConfig, posts: tuple[Post, ...], series_posts: tuple[Post, ...] = ()) -> Site:
    """A Site with a tags taxonomy, one series, one section and archives."""
    tag_terms = tuple(Term("tags", name, f"tag{index}", f"/tags/tag{index}/",
                           tuple(post for post in posts if name in post.tags))
                      for index, name in enumerate(sorted({tag for post in posts for tag in post.tags})))
    series_term = Term("series", "verl", "verl", "/series/verl/", series_posts or posts)
    navigation = {post.url: PostNav(None, None, (), ()) for post in posts}
    return Site(
        config=config, posts=posts,
        taxonomies=(Taxonomy("tags", "tag", "/tags/", tag_terms),
                    Taxonomy("series", "series", "/series/", (series_term,))),
        sections=(Section("posts", "/posts/", "Posts", "", posts),),
        archives=(ArchiveYear(2025, (ArchiveMonth(2025, 8, posts),)),),
        navigation=navigation, pages=posts)


def meta(kind: str, url: str = "/x/", title: str = "标题", **changes) -> PageMeta:
    """The `page` object of the render contract."""
    return PageMeta(kind=kind, url=url, title=title, description="描述",
                    canonical="https://example.org" + url, **changes)


def render(config: SiteConfig, template: str, template_dirs: tuple[Path, ...] = (), **context) -> str:
    """Render one theme template with the build's environment (site templates first, then the theme)."""
    environment = make_environment(config, [*template_dirs, THEME / "templates"])
    return environment.get_template(template).render(**context)


def parse(html: str):
    return lxml.html.document_fromstring(html)


@pytest.fixture
def config() -> SiteConfig:
    return SiteConfig(
        title="AI Infra 笔记", base_url="https://example.org/", language_code="zh-CN",
        menu=(MenuItem("文章", "/posts/", 1),
              MenuItem("索引", "", 2, (MenuItem("标签", "/tags/", 1), MenuItem("系列", "/series/", 2)))),
        social=(("github", "https://github.com/someone"), ("email", "me@example.org"),
                ("Mastodon", "https://social.example/@me")),
        theme=ThemeOptions(intro=Intro(title="你好", text="第一段。\n\n第二段。")))


def contexts(config: SiteConfig) -> dict[str, dict]:
    """A minimal context for every template, as render.py's planner passes it."""
    posts = (make_post(3), make_post(2), make_post(1))
    site = make_site(config, posts)
    tags, series = site.taxonomies
    paginator = Paginator(posts, 1, 1, 3, ("/",))
    return {
        "post.html": dict(page=meta("post", posts[0].url, posts[0].title), post=posts[0],
                          nav=site.nav(posts[0])),
        "home.html": dict(page=meta("home", "/", config.title), paginator=paginator),
        "section.html": dict(page=meta("section", "/posts/", "Posts"), section=site.sections[0], paginator=paginator),
        "term.html": dict(page=meta("term", "/tags/tag0/", "ai", feed_url="/tags/tag0/index.xml"),
                          taxonomy=tags, term=tags.terms[0], paginator=paginator),
        "series.html": dict(page=meta("series", "/series/verl/", "verl"), taxonomy=series, term=series.terms[0],
                            paginator=paginator),
        "terms.html": dict(page=meta("terms", "/tags/", "Tags"), taxonomy=tags),
        "archives.html": dict(page=meta("archives", "/archives/", "Archives"), archives=site.archives,
                             post_count=len(site.posts)),
        "search.html": dict(page=meta("search", "/search/", "Search")),
        "404.html": dict(page=meta("404", "/404.html", "Page not found")),
        "alias.html": dict(page=meta("alias", "/old/", "旧地址"), target="https://example.org/posts/p3/"),
    } | {"_site": site}


PAGE_TEMPLATES = ["post.html", "home.html", "section.html", "term.html", "series.html", "terms.html",
                  "archives.html", "search.html", "404.html"]


@pytest.mark.parametrize("template", PAGE_TEMPLATES)
def test_every_page_template_renders_with_landmarks_and_one_h1(config, template):
    all_contexts = contexts(config)
    html = render(config, template, site=all_contexts["_site"], **all_contexts[template])
    document = parse(html)
    assert document.get("lang") == "zh-CN"
    assert len(document.xpath("//h1")) == 1
    for landmark in ("header", "nav", "main", "footer"):
        assert document.xpath(f"//{landmark}"), f"{template} has no <{landmark}>"
    assert document.xpath("//link[@rel='canonical']/@href") == [all_contexts[template]["page"].canonical]
    assert document.xpath("//link[@rel='stylesheet']/@href")[:2] == ["/css/style.css", "/css/syntax.css"]
    # Every link has a name (text or aria-label): axe's link-name rule.
    for link in document.xpath("//a"):
        assert link.text_content().strip() or link.get("aria-label"), lxml.html.tostring(link)


def test_alias_page_redirects_with_canonical_and_link(config):
    all_contexts = contexts(config)
    document = parse(render(config, "alias.html", site=all_contexts["_site"], **all_contexts["alias.html"]))
    target = "https://example.org/posts/p3/"
    assert document.xpath("//meta[@http-equiv='refresh']/@content") == [f"0; url={target}"]
    assert document.xpath("//link[@rel='canonical']/@href") == [target]
    assert document.xpath("//a/@href") == [target]


def test_hostile_text_is_escaped_on_every_page(config):
    config = replace(config, title=HOSTILE, menu=(MenuItem(HOSTILE, "/posts/"),),
                     theme=replace(config.theme, intro=Intro(title=HOSTILE, text=HOSTILE)))
    hostile_post = make_post(3, title=HOSTILE, tags=(HOSTILE,), description=HOSTILE,
                             toc=(TocEntry(2, "a", HOSTILE), TocEntry(2, "b", "二")),
                             summary_html="<p>A &amp; B &lt;script&gt;</p>")
    posts = (hostile_post, make_post(2))
    site = make_site(config, posts)
    tags, series = site.taxonomies
    hostile_term = next(term for term in tags.terms if term.name == HOSTILE)
    paginator = Paginator(posts, 1, 1, 2, ("/",))
    nav = PostNav(None, posts[1], (SeriesNav(series.terms[0], 1, 2, None, posts[1]),), (posts[1],))
    pages = {
        "post.html": dict(page=meta("post", hostile_post.url, HOSTILE), post=hostile_post, nav=nav),
        "home.html": dict(page=meta("home", "/", HOSTILE), paginator=paginator),
        "term.html": dict(page=meta("term", hostile_term.url, HOSTILE), taxonomy=tags, term=hostile_term,
                          paginator=paginator),
        "series.html": dict(page=meta("series", "/series/verl/", "verl"), taxonomy=series, term=series.terms[0],
                            paginator=paginator),
        "terms.html": dict(page=meta("terms", "/tags/", "Tags"), taxonomy=tags),
        "archives.html": dict(page=meta("archives", "/archives/", "Archives"), archives=site.archives,
                             post_count=len(site.posts)),
    }
    for template, context in pages.items():
        html = render(config, template, site=site, **context)
        assert "<script>alert" not in html, template
        assert "<b>" not in html, template
        assert HOSTILE_ESCAPED in html, template
        assert "&amp;amp;" not in html, f"{template} escapes twice"
        assert "&lt;/script&gt; &amp; &lt;b&gt;" in html, template
    post_html = render(config, "post.html", site=site, **pages["post.html"])
    # The summary is the build's HTML and is shown as is (not escaped again) on list pages.
    assert "<p>A &amp; B &lt;script&gt;</p>" in render(config, "home.html", site=site, **pages["home.html"])
    # JSON-LD cannot be closed early by a title and still says exactly the title.
    document = parse(post_html)
    (json_ld,) = document.xpath("//script[@type='application/ld+json']/text()")
    assert "</script" not in json_ld
    article = json.loads(json_ld)
    assert article["headline"] == HOSTILE
    assert article["@type"] == "BlogPosting"
    assert article["datePublished"] == "2025-08-03T10:00:00+08:00"


def _asset_links(html: str) -> tuple[list[str], list[str], str | None]:
    """(stylesheets, script srcs, render.js's data-mermaid) of a page."""
    document = parse(html)
    render_js = document.xpath("//script[contains(@src, '/js/render.js')]")[0]
    return (document.xpath("//link[@rel='stylesheet']/@href"), document.xpath("//script/@src"),
            render_js.get("data-mermaid"))


@pytest.mark.parametrize("needs_math, needs_mermaid", [(False, False), (True, False), (False, True), (True, True)])
def test_katex_and_mermaid_load_only_when_the_page_needs_them(config, needs_math, needs_mermaid):
    config = replace(config, math_render="build")
    post = make_post(1)
    site = make_site(config, (post,))
    html = render(config, "post.html", site=site, post=post, nav=site.nav(post),
                  page=meta("post", post.url, post.title, needs_math=needs_math, needs_mermaid=needs_mermaid))
    styles, scripts, mermaid = _asset_links(html)
    katex_css, mermaid_js = assets.ASSETS["katex_css"], assets.ASSETS["mermaid_js"]
    # Math is typeset at build time: the stylesheet (and its fonts), never KaTeX's script.
    assert (katex_css.local_url in styles) == needs_math
    assert not any("katex" in script for script in scripts)
    # Mermaid is no script tag: render.js loads it when a diagram nears the viewport.
    assert mermaid == (mermaid_js.local_url if needs_mermaid else None)
    assert not any("mermaid" in script for script in scripts)
    assert ("katex" in html) == needs_math
    assert ("mermaid" in html) == needs_mermaid
    assert scripts[-1] == "/js/render.js"
    assert assets.CDN_HOST not in html
    assert "integrity=" not in html and "importmap" not in html


def test_cdn_assets_carry_sri_and_browser_math_loads_katex(config):
    config = replace(config, cdn_assets=True, math_render="browser")
    post = make_post(1)
    site = make_site(config, (post,))
    html = render(config, "post.html", site=site, post=post, nav=site.nav(post),
                  page=meta("post", post.url, post.title, needs_math=True, needs_mermaid=True))
    document = parse(html)
    styles, scripts, mermaid = _asset_links(html)
    assert assets.ASSETS["katex_css"].cdn_url in styles
    assert assets.ASSETS["katex_js"].cdn_url in scripts
    assert mermaid == assets.ASSETS["mermaid_js"].cdn_url
    # The module and every chunk it imports: the import map gives each its pinned hash (an SRI attribute
    # on a tag could cover only the entry).
    (import_map,) = document.xpath("//script[@type='importmap']")
    integrity = json.loads(import_map.text)["integrity"]
    assert integrity[assets.ASSETS["mermaid_js"].cdn_url] == assets.ASSETS["mermaid_js"].integrity
    files = assets.manifest()["mermaid"]["files"]
    assert len(integrity) == len([name for name in files if name.endswith(".mjs")]) > 100
    assert all(url.startswith(f"{assets.CDN_BASE}/mermaid@{assets.MERMAID_VERSION}/dist/") for url in integrity)
    for element in document.xpath(f"//script[contains(@src, '{assets.CDN_HOST}')] | "
                                  f"//link[contains(@href, '{assets.CDN_HOST}')]"):
        url = element.get("src") or element.get("href")
        name = next(name for name, asset in assets.ASSETS.items() if asset.cdn_url == url)
        assert element.get("integrity") == assets.ASSETS[name].integrity
        assert element.get("crossorigin") == "anonymous"


def test_site_assets_are_versioned_under_the_base_path(config):
    config = replace(config, base_url="https://example.org/blog/", math_render="browser")
    post = make_post(1)
    site = make_site(config, (post,))
    html = render(config, "post.html", site=site, post=post, nav=site.nav(post),
                  page=meta("post", post.url, post.title, needs_math=True, needs_mermaid=True))
    styles, scripts, mermaid = _asset_links(html)
    assert "/blog/vendor/katex-0.19.1/katex.min.css" in styles
    assert "/blog/vendor/katex-0.19.1/katex.min.js" in scripts
    assert mermaid == "/blog/vendor/mermaid-12.3.0/mermaid.esm.min.mjs"
    assert assets.CDN_HOST not in html
    assert "integrity=" not in html
    assert styles[0] == "/blog/css/style.css"
    assert assets.asset_integrity("katex_js", config) is None
    assert assets.asset_integrity("katex_js") == assets.ASSETS["katex_js"].integrity



def test_series_box_numbers_the_parts_and_links_neighbours(config):
    parts = (make_post(1, title="第一部分"), make_post(2, title="第二部分"), make_post(3, title="第三部分"))
    site = make_site(config, tuple(reversed(parts)), series_posts=parts)
    term = site.taxonomy("series").terms[0]
    nav = PostNav(None, None, (SeriesNav(term, 2, 3, parts[0], parts[2]),), ())
    html = render(config, "post.html", site=site, post=parts[1], nav=nav,
                  page=meta("post", parts[1].url, parts[1].title))
    (box,) = parse(html).xpath("//aside[contains(@class, 'series-box')]")
    assert "本文是系列「verl」的第 2 篇，共 3 篇" in box.text_content()
    assert [item.text_content().strip() for item in box.xpath(".//ol/li")] == ["第一部分", "第二部分", "第三部分"]
    assert box.xpath(".//li[@class='current']/span[@aria-current='page']/text()") == ["第二部分"]
    assert box.xpath(".//a[@class='series-previous']/@href") == ["/posts/p1/"]
    assert box.xpath(".//a[@class='series-next']/@href") == ["/posts/p3/"]
    assert "/series/verl/" in box.xpath(".//a/@href")
    # Nothing focusable inside <summary> (axe: nested-interactive).
    assert not box.xpath(".//summary//a")


def test_series_page_lists_parts_in_series_order(config):
    parts = (make_post(5, title="一"), make_post(1, title="二"), make_post(9, title="三"))
    site = make_site(config, parts, series_posts=parts)
    series = site.taxonomy("series")
    html = render(config, "series.html", site=site, taxonomy=series, term=series.terms[0],
                  page=meta("series", "/series/verl/", "verl"), paginator=Paginator(parts, 1, 1, 3, ("/series/verl/",)))
    items = parse(html).xpath("//ol[@class='series-list']/li")
    assert [item.xpath(".//h2")[0].text_content() for item in items] == ["一", "二", "三"]
    assert [item.xpath(".//span[@class='series-number']/text()")[0] for item in items] == ["1", "2", "3"]


def test_a_later_page_of_a_long_series_numbers_on_from_the_pages_before(config):
    parts = tuple(make_post(number % 28 + 1, url=f"/posts/part{number}/", title=f"部分 {number}")
                  for number in range(1, 26))
    site = make_site(config, parts, series_posts=parts)
    series = site.taxonomy("series")
    urls = ("/series/verl/", "/series/verl/page/2/", "/series/verl/page/3/")
    html = render(config, "series.html", site=site, taxonomy=series, term=series.terms[0],
                  page=meta("series", urls[1], "verl"), paginator=Paginator(parts[10:20], 2, 3, 25, urls, 10))
    document = parse(html)
    (parts_list,) = document.xpath("//ol[@class='series-list']")
    assert parts_list.get("start") == "11"
    assert [number.strip() for number in parts_list.xpath(".//span[@class='series-number']/text()")] == \
        [str(number) for number in range(11, 21)]
    assert document.xpath("//nav[@class='pagination']/a/@href") == ["/series/verl/", "/series/verl/page/3/"]


def test_menu_nests_children_in_a_dropdown_and_marks_the_current_page(config):
    all_contexts = contexts(config)
    html = render(config, "terms.html", site=all_contexts["_site"],
                  **(all_contexts["terms.html"] | {"page": meta("terms", "/tags/", "Tags")}))
    (menu,) = parse(html).xpath("//nav[contains(@class, 'site-nav')]/ul")
    top = menu.xpath("./li")
    assert [item.xpath("./a/text() | ./details/summary/text()")[0] for item in top] == ["文章", "索引"]
    dropdown = top[1].xpath("./details[@class='menu-dropdown']")[0]
    assert dropdown.xpath("./ul/li/a/@href") == ["/tags/", "/series/"]
    assert dropdown.xpath(".//a[@aria-current='page']/@href") == ["/tags/"]
    assert not top[0].xpath(".//a[@aria-current]")


def test_footer_social_links_use_icons_named_by_their_label(config):
    all_contexts = contexts(config)
    html = render(config, "404.html", site=all_contexts["_site"], **all_contexts["404.html"])
    links = parse(html).xpath("//ul[@class='social-links']/li/a")
    assert [link.get("href") for link in links] == ["https://github.com/someone", "mailto:me@example.org",
                                                    "https://social.example/@me"]
    assert links[0].get("aria-label") == "github" and links[0].xpath("./svg")
    # A name without an icon of its own gets the generic link icon, the name as the link's label (not a bare word).
    assert links[2].get("aria-label") == "Mastodon" and links[2].xpath("./svg") and not links[2].text_content().strip()


@pytest.mark.parametrize("toc, enabled, shown", [
    ((TocEntry(2, "a", "一"), TocEntry(3, "b", "二")), True, True),
    ((TocEntry(2, "a", "一"),), True, False),
    ((TocEntry(2, "a", "一"), TocEntry(2, "b", "二")), False, False),
])
def test_toc_shows_with_two_headings_when_enabled(config, toc, enabled, shown):
    post = make_post(1, toc=toc, toc_enabled=enabled)
    site = make_site(config, (post,))
    document = parse(render(config, "post.html", site=site, post=post, nav=site.nav(post),
                            page=meta("post", post.url, post.title)))
    details = document.xpath("//details[@class='toc']")
    assert bool(details) == shown
    if shown:
        assert details[0].xpath(".//a/@href") == ["#a", "#b"]
        assert details[0].xpath(".//li/@class") == ["toc-level-1", "toc-level-2"]


def test_home_intro_only_on_the_first_page(config):
    posts = (make_post(2), make_post(1))
    site = make_site(config, posts)
    first = Paginator(posts[:1], 1, 2, 2, ("/", "/page/2/"))
    second = Paginator(posts[1:], 2, 2, 2, ("/", "/page/2/"))
    page_one = parse(render(config, "home.html", site=site, paginator=first, page=meta("home", "/")))
    page_two = parse(render(config, "home.html", site=site, paginator=second, page=meta("home", "/page/2/")))
    assert page_one.xpath("//section[@class='home-intro']/h1/text()") == ["你好"]
    assert page_one.xpath("//section[@class='home-intro']/p/text()") == ["第一段。", "第二段。"]
    assert page_one.xpath("//nav[@class='pagination']/a/@href") == ["/page/2/"]
    assert not page_two.xpath("//section[@class='home-intro']")
    assert page_two.xpath("//nav[@class='pagination']/a[@rel='prev']/@href") == ["/"]


def test_post_card_marks_drafts_and_excerpts(config):
    posts = (make_post(2, draft=True, truncated=False), make_post(1, truncated=True))
    site = make_site(config, posts)
    document = parse(render(config, "home.html", site=site, paginator=Paginator(posts, 1, 1, 2, ("/",)),
                            page=meta("home", "/")))
    draft_card, excerpt_card = document.xpath("//article[contains(@class, 'post-card')]")
    assert "is-draft" in draft_card.get("class") and draft_card.xpath(".//*[contains(@class, 'mark-draft')]")
    assert not draft_card.xpath(".//a[@class='read-more']")
    assert excerpt_card.xpath(".//a[@class='read-more']/@href") == ["/posts/p1/"]


def test_a_site_template_overrides_the_theme_by_file_name(config, tmp_path):
    (tmp_path / "404.html").write_text('{% extends "base.html" %}{% block content %}<h1>自己的 404</h1>'
                                       '{% endblock %}', encoding="utf-8")
    all_contexts = contexts(config)
    html = render(config, "404.html", (tmp_path,), site=all_contexts["_site"], **all_contexts["404.html"])
    assert parse(html).xpath("//h1/text()") == ["自己的 404"]
    assert "/css/style.css" in html   # still the theme's base.html


def test_static_files_that_templates_reference_exist_in_the_theme():
    base = (THEME / "templates" / "base.html").read_text(encoding="utf-8")
    search = (THEME / "templates" / "search.html").read_text(encoding="utf-8")
    for path in ("css/style.css", "js/theme.js", "js/render.js", "js/search.js", "favicon.svg", "favicon.ico",
                 "apple-touch-icon.png"):
        assert f"'/{path}'" in base + search
        assert (THEME / "static" / path).is_file(), path


def test_bundled_site_config_loads_with_a_nested_menu():
    config = load_config(REPO / "blogbuild.yaml")
    assert config.language_code == "zh-CN"
    assert any(item.children for item in config.menu)
    assert {"/archives/", "/search/", "/tags/"} <= {url for item in config.menu
                                                    for url in (item.url, *(child.url for child in item.children))}


def test_asset_pins_match_the_test_packages():
    package = json.loads((REPO / "tests" / "node" / "package.json").read_text(encoding="utf-8"))
    assert package["dependencies"]["katex"] == assets.KATEX_VERSION
    assert package["dependencies"]["mermaid"] == assets.MERMAID_VERSION
    for asset in assets.ASSETS.values():
        assert asset.cdn_url.startswith(f"https://{assets.CDN_HOST}/npm/{asset.package}@{asset.version}/dist/")
        assert asset.integrity.startswith("sha384-")


SEARCH_SCRIPT = r"""
const search = require(process.argv[2]);
const index = JSON.parse(require("fs").readFileSync(0, "utf8"));
const prepared = index.map(search.prepare);
const out = {};
for (const query of JSON.parse(process.argv[3])) {
  const results = search.search(prepared, query);
  const terms = search.parseQuery(query);
  out[query] = results.map(item => {
    const content = item.entry.content;
    const window = search.snippet(content, terms);
    return {title: item.entry.title,
            marks: search.segments(content, window.start, window.end, window.ranges)
                     .filter(part => part.hit).map(part => part.text)};
  });
}
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.node
def test_search_matches_chinese_without_a_dictionary_and_ranks_titles_first(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    index = [
        {"title": "FlashAttention 深度解析", "content": "本文分析注意力的显存访问。", "tags": ["attention"]},
        {"title": "VeRL 训练源码走读", "content": "Rollout Engine 显存管理是核心问题；SGLang 作为推理后端。",
         "tags": ["verl"]},
        {"title": "显存管理入门", "content": "从零开始。", "tags": []},
        {"title": "无关", "content": "<script>alert(1)</script> 显 存", "tags": []},
    ]
    queries = ["显存管理", "sglang", "SGL 显存", "深度 解析", "训", "verl", "lang", "显存管理 不存在"]
    script = tmp_path / "run.js"
    script.write_text(SEARCH_SCRIPT, encoding="utf-8")
    completed = subprocess.run(
        [node, str(script), str(THEME / "static" / "js" / "search.js"), json.dumps(queries, ensure_ascii=False)],
        input=json.dumps(index, ensure_ascii=False), capture_output=True, text=True, encoding="utf-8",
        timeout=60, check=True)
    results = json.loads(completed.stdout)
    titles = {query: [item["title"] for item in found] for query, found in results.items()}
    # Bigrams: both posts that contain 显存管理 match, the title hit first; "显 存" split apart does not.
    assert titles["显存管理"] == ["显存管理入门", "VeRL 训练源码走读"]
    assert results["显存管理"][1]["marks"] == ["显存管理"]
    assert titles["sglang"] == ["VeRL 训练源码走读"]           # case-insensitive
    assert titles["SGL 显存"] == ["VeRL 训练源码走读"]         # every term must match; Latin is a prefix
    assert titles["深度 解析"] == ["FlashAttention 深度解析"]
    assert titles["训"] == ["VeRL 训练源码走读"]               # a single CJK character
    assert titles["verl"] == ["VeRL 训练源码走读"]
    assert titles["lang"] == []                                 # a prefix of a word, not any substring
    assert titles["显存管理 不存在"] == []


# --- the faster theme must say exactly what the macros it replaced said -----------------------------

def render_string(config: SiteConfig, source: str, **context) -> str:
    """Render a template written inline, with the theme's partials importable."""
    environment = make_environment(config, [THEME / "templates"])
    return environment.from_string(source).render(**context)


@pytest.mark.parametrize("language, skip", [("zh-CN", "跳到正文"), ("zh", "跳到正文"), ("en", "Skip to content"),
                                            ("", "Skip to content")])
def test_labels_are_the_page_language_and_t_gives_the_same_words(config, language, skip):
    source = ('{% from "partials/i18n.html" import labels, t, page_label with context %}'
              '{{ labels["skip"] }}\n'
              '{% for key in labels %}{{ key }}: {{ labels[key] }} | {{ t(key) }}\n{% endfor %}'
              '{{ page_label("Archives") }} | {{ labels["archives"] }} | {{ page_label("Mine & yours") }}')
    first, *lines, last = render_string(config, source, page=meta("post", language=language)).split("\n")
    assert first == skip
    assert len(lines) > 40
    for line in lines:
        key, words = line.split(": ", 1)
        by_dict, by_macro = words.split(" | ")
        assert by_dict == by_macro != "", key
    archives, archives_label, other = last.split(" | ")
    assert archives == archives_label and other == "Mine &amp; yours"


def test_list_cards_are_post_meta_and_term_links_written_out(config):
    posts = (make_post(3, tags=("ai", "CUDA & <NCCL>"), draft=True), make_post(2, tags=(), truncated=False),
             make_post(1, tags=("ai",), date=None, summary_html=""))
    source = ('{% from "partials/post.html" import post_cards, post_card, post_meta, term_links with context %}'
              '{{ post_cards(posts) }}\x00'
              '{% for post in posts %}{{ post_card(post) }}\x01{{ post_meta(post, show_words=false) }}\x01'
              '{{ term_links(post, "tags") }}\x02{% endfor %}')
    config = replace(config, taxonomies=("tags",))
    cards, singles = render_string(config, source, posts=posts, page=meta("home", "/")).split("\x00")
    separate = [part.split("\x01") for part in singles.split("\x02")[:-1]]
    assert cards == "".join(card + "\n" for card, _, _ in separate)
    for card, meta_line, tag_list in separate:
        # A card is its title, the meta line without word count, the summary, and the tag list.
        assert "\n" + meta_line + "\n" in card
        assert card.endswith("\n" + tag_list + "\n</div>\n</article>")
    assert "CUDA &amp; &lt;NCCL&gt;" in cards and "<ul class=\"post-tags\">" in cards


@pytest.mark.parametrize("index, first, last", [(1, 1, 9), (5, 1, 9), (6, 2, 10), (15, 11, 19), (30, 22, 30)])
def test_a_long_series_lists_a_window_of_the_nearest_parts(config, index, first, last):
    parts = tuple(make_post(number % 28 + 1, url=f"/posts/part{number}/", title=f"部分 {number}")
                  for number in range(1, 31))
    site = make_site(config, parts, series_posts=parts)
    term = site.taxonomy("series").terms[0]
    current = parts[index - 1]
    nav = PostNav(None, None, (SeriesNav(term, index, 30, parts[index - 2] if index > 1 else None,
                                         parts[index] if index < 30 else None),), ())
    html = render(config, "post.html", site=site, post=current, nav=nav, page=meta("post", current.url, current.title))
    (box,) = parse(html).xpath("//aside[contains(@class, 'series-box')]")
    assert f"第 {index} 篇，共 30 篇" in box.text_content()
    (parts_list,) = box.xpath(".//ol")
    assert parts_list.get("start") == (str(first) if first > 1 else None)
    assert [item.text_content().strip() for item in parts_list.xpath("./li")] == \
        [f"部分 {number}" for number in range(first, last + 1)]
    assert parts_list.xpath("./li[@class='current']/span/text()") == [f"部分 {index}"]
    assert "/series/verl/" in box.xpath(".//a/@href")   # the whole series is one link away


def test_a_post_card_is_rendered_once_per_post_and_never_shown_stale(config):
    environment = make_environment(config, [THEME / "templates"])
    first, second = make_post(1), make_post(2)
    home = environment.get_template("home.html")

    def cards(*posts, language="zh-CN"):
        page = meta("home", "/", config.title, language=language)
        html = home.render(page=page, paginator=Paginator(posts, 1, 2, len(posts), ("/", "/page/2/")))
        return [lxml.html.tostring(card, encoding="unicode") for card in parse(html).xpath("//article")]

    before = cards(first, second)
    assert cards(second, first) == before[::-1]                  # reused, in any order
    retitled = replace(first, title="改过的标题")                   # a new version of the post: a new card
    assert "改过的标题" in cards(retitled, second)[0]
    assert "改过的标题" not in cards(first, second)[0]
    english = cards(first, second, language="en")               # the words are part of the key
    assert "Read more" in english[0] and "阅读全文" in before[0]
