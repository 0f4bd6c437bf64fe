"""What a theme of today's Hugo uses (Hugo's quickstart theme, Ananke, among them), as Hugo 0.168 runs it:
`templates.Defer` (its block's dot the options' data), `page` in a partial, `.CurrentSection`, Hugo's own
`pagination.html` partial (default and terse, and `template "_internal/pagination.html"`), an inline partial
that returns a value, i18n strings reading a field of their data (a menu entry's `.Name`, a page's `.Title`),
`where` on a map (Hugo keeps the entries whose list has a match, none of a map of maps), `.HasShortcode`,
`site.Taxonomies` keyed by the term as written in lower case, `site.GetPage` of a path with a space, a term page
moved by its _index.md's `url`, `templates.Current` (`.Name`, `.Filename`, `.Ancestors`, `.Base`), `sort` of menu entries (Hugo keeps their order), `eq` of two pagers, Sass
finding the imports of a stylesheet made by `resources.ExecuteAsTemplate` beside its asset, `css.Build` bundling
the theme's @imports, and the theme's static/ files published. tests/hugo_sites/theme_functions built by the hugo
binary and by blogbuild: the same files, every page the same DOM (the stylesheet's bytes are blogbuild's own
bundle, not esbuild's)."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "theme_functions"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    return built_by_both(FIXTURE, tmp_path_factory.mktemp("theme_functions"))


def test_the_themes_pages_are_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert warnings == []
    assert sorted(path for path in ours if path != "css/syntax.css") == sorted(hugo)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) >= 12
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []


def test_what_each_function_gave(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    post, posts = ours["posts/p1/index.html"].decode(), ours["posts/index.html"].decode()
    assert '<a href="/posts/" title="Go to Posts">' in post                  # T with a menu entry's .Name
    assert '<p class="section">section /posts/</p>' in post                  # .CurrentSection of a page
    assert '<p class="section">home /</p>' in ours["about/index.html"].decode()
    assert '<p class="page">Post 1</p>' in post and '<p class="found">/images/hero.svg</p>' in post
    assert '<p class="networks">|</p>' in post                                # where on maps: nothing kept
    assert '<p class="read">Read Post 1 (page) / 1 item / 3 items</p>' in post
    assert '<p hidden class="closing">Theme functions</p>' in post             # the deferred block, its data
    assert posts.count('<ul class="pagination pagination-default">') == 2 and "pagination-terse" in posts
    assert ours["images/hero.svg"].startswith(b"<svg")                       # the theme's static/
    assert '<p class="uses">true false</p>' in ours["posts/p2/index.html"].decode()   # .HasShortcode
    assert '<p class="uses">false false</p>' in post
    three = ours["posts/p3/index.html"].decode()
    # Taxonomies keyed by the term as written, lower-cased; GetPage's path with a space is the term's page
    assert '<p class="series">[theme demo: 2] 2 Theme Demo /series/theme-demo/</p>' in three
    assert '<a href="/topics/golang/">Golang</a>' in three and "topics/golang/index.html" in ours   # its url:
    assert '<p class="current">_partials/footer.html footer.html | single.html base baseof.html</p>' in three
    assert '<p class="menu">Notes Posts </p>' in three          # sort of menu entries keeps their order
    assert '<p class="pagers">1 [2] 3 </p>' in ours["posts/page/2/index.html"].decode()   # eq . $paginator
    # A list page's .Date: the newest of its _index.md's and its pages' (a term page of no posts: its own)
    assert "Someday</a> Someday 2023-05-06</li>" in ours["tags/page/2/index.html"].decode()


def test_sass_of_a_template_finds_its_imports_beside_the_asset(
        both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    """resources.ExecuteAsTemplate names the stylesheet site.scss, at the top; its imports are found beside
    the asset it was made from (scss/), as in Hugo: the same CSS bytes (libsass, as Hugo's toCSS)."""
    hugo, ours, _warnings = both
    assert ours["css/theme.css"] == hugo["css/theme.css"] and b"#654321" in ours["css/theme.css"]


def test_css_build_bundles_the_imports(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    css = ours["css/site.css"].decode()
    assert css.startswith('@import url("https://fonts.example.org/face.css");')   # a URL's import, first
    assert css.count("font-family: serif") == 1                                  # each file once
    assert css.index("font-family") < css.index("--ink") < css.index("margin: 0")  # in import order
    assert "@import './not-a-file'" in css                                        # a comment stays one


def test_a_multilingual_sites_theme_static_files_are_published_once(tmp_path: Path) -> None:
    """As the site's own static/: once, at the top (Hugo 0.123 and later), not in each language's folder."""
    languages = ('defaultContentLanguage = "en"\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n'
                 'title = "Fonctions"\n')
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path, lambda text: text.replace(
        'defaultContentLanguage = "en"\n', languages))
    assert "images/hero.svg" in hugo and "images/hero.svg" in ours
    assert [path for path in ours if path.endswith("hero.svg")] == ["images/hero.svg"]
    assert sorted(path for path in ours if path.endswith(".html")) == sorted(path for path in hugo if path.endswith(".html"))
