"""What a theme's site needs of Hugo beyond its layouts (the rules Stack's demo needed, each in a small form):
tests/hugo_sites/theme_rules, a bilingual site (English, and Chinese under zh/) whose theme (themes/t) has its own
config params, i18n tables, shortcodes and a render-link hook. Built by the hugo binary and by blogbuild: the same
files and every page the same DOM, except that blogbuild writes its highlighting stylesheet and publishes the
term's bundle image under zh/ too (Hugo publishes a bundle's shared file once, at the first language's URL)."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "theme_rules"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("theme_rules")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_the_same_files_and_pages_as_hugo(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert not [warning for warning in warnings if "cannot run" in warning.message]
    assert sorted(path for path in ours if not path.endswith("css/syntax.css") and path != "zh/tags/go/cover.png") \
        == sorted(hugo)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []


def test_the_config_is_the_sites_over_the_themes(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    home, chinese = ours["index.html"].decode(), ours["zh/index.html"].decode()
    # The theme's params beneath the site's; a language's params merged at every depth.
    assert "own=site fromTheme=theme default avatar=a.png subtitle=English subtitle emoji=✏️" in home
    assert "avatar=a.png subtitle=中文副标题" in chinese
    assert '<html lang="en-us">' in home and '<html lang="zh">' in chinese   # the top-level locale is English's
    assert "<p>未找到 / 页面不存在</p>" in chinese                                 # i18n tables: notFound.title
    assert ">0 pages<" in ours["zh/categories/index.html"].decode()            # missing in zh.toml: English's


def test_lists_pages_and_menus(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    home = ours["index.html"].decode()
    assert '<li><a href="/">Home</a> -100</li>' in home                          # the home page's menu entry
    assert 'tags page: <a href="/tags/">Tags</a>' in home                       # a taxonomy's .Page
    assert "section Posts" in home and "got Posts /post/" in home               # .Sections, .GetPage, plurals
    assert "tags/page/1/index.html" in ours                                     # the taxonomy page is paged
    term = ours["tags/go/index.html"].decode()
    assert 'class="description">Posts about Go' in term and 'src="/tags/go/cover.png"' in term
    assert 'data-json="/page/search/index.json"' in ours["page/search/index.html"].decode()
    assert ours["page/search/index.json"].startswith(b"[")


def test_content_as_hugo_writes_it(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    post = ours["post/first/index.html"].decode()
    assert '<a class="link" href="https://creativecommons.org/licenses/by/4.0/"' in post  # markdownify, its hook
    assert '<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup>' in post
    assert "<p>A pattern, not a note: ^[a-zA-Z][a-zA-Z0-9_]{4,15}$</p>" in post   # goldmark has no ^[inline] note
    assert "tags/c#/index.html" in ours and "/tags/c%23/" in ours["tags/index.html"].decode()   # Hugo keeps a "#"
    assert '<a href="#using-code-in-a-heading">Using <code>code</code> in a heading</a>' in post
    assert '<pre tabindex="0" class="chroma"><code class="language-html" data-lang="html">' in post
    assert '<div class="video-wrapper"><iframe src="https://www.youtube.com/embed/abc123"' in post   # the theme's
    assert "p.html?as_wide=1&amp;page=1&bvid=BV1xx" in post                    # safeURL in a query: normalised
    assert "s.src = '//' + \"rules-site\" + '.disqus.com/embed.js';" in post     # Hugo's disqus.html
    assert "<figcaption>#494b5a #a74bdb of 6</figcaption>" in ours["post/bundle/index.html"].decode()  # .Colors


def test_an_esbuild_error_names_the_script_and_its_line(tmp_path: Path) -> None:
    from support.stack import esbuild_folder
    from support.tools import missing_tool
    folder = esbuild_folder()
    if folder is None:
        missing_tool("esbuild is not installed in tests/node (cd tests/node && npm ci)")
    site = copy_site(FIXTURE, tmp_path / "site")
    (site / "assets" / "ts").mkdir(parents=True)
    (site / "assets" / "ts" / "app.ts").write_text("const ok: number = 1;\nconst broken = (;\n", encoding="utf-8")
    layout = site / "themes" / "t" / "layouts" / "baseof.html"
    layout.write_text(layout.read_text(encoding="utf-8").replace(
        "</body>", '<script src="{{ (resources.Get "ts/app.ts" | js.Build).RelPermalink }}"></script>\n</body>'),
        encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", str(folder))
        _ours, warnings = blogbuild_files(site)
    failed = [warning.message for warning in warnings if "cannot run the site's layouts" in warning.message]
    assert failed and "js.Build of ts/app.ts: esbuild: ts/app.ts:2:16: Unexpected \";\"" in failed[0], failed


def test_a_script_imports_by_a_path_from_the_assets_folders(tmp_path: Path) -> None:
    """js.Build follows an import written as a path from the assets folders (`import gallery from "ts/gallery"`,
    older Stack's main.ts), the site's assets/ before the theme's, as Hugo's resolver does: the same script as
    Hugo's (tests/node's esbuild is the version Hugo embeds), minified: unminified, esbuild names each module in a
    comment, which Hugo writes with the module's absolute path on the machine that built it."""
    from support.stack import esbuild_folder
    from support.tools import missing_tool
    folder = esbuild_folder()
    if folder is None:
        missing_tool("esbuild is not installed in tests/node (cd tests/node && npm ci)")
    scripts = {"site": {"assets/ts/app.ts": 'import gallery from "ts/gallery";\nimport { size } from "ts/size";\n'
                                            "console.log(gallery(size));\n",
                        "assets/ts/size.ts": "export const size: number = 2;\n"},
               "theme": {"themes/t/assets/ts/gallery.ts": "export default (n: number): string => `g${n}`;\n",
                         "themes/t/assets/ts/size.ts": "export const size: number = 99;\n"}}
    built = {}
    for tool in ("hugo", "blogbuild"):
        site = copy_site(FIXTURE, tmp_path / tool)
        for name, text in {**scripts["site"], **scripts["theme"]}.items():
            (site / name).parent.mkdir(parents=True, exist_ok=True)
            (site / name).write_text(text, encoding="utf-8")
        layout = site / "themes" / "t" / "layouts" / "baseof.html"
        layout.write_text(layout.read_text(encoding="utf-8").replace(
            "</body>", '<script src="{{ (resources.Get "ts/app.ts" | js.Build (dict "minify" true)).RelPermalink }}">'
                       '</script>\n</body>'), encoding="utf-8")
        if tool == "hugo":
            built[tool] = hugo_files(site, tmp_path / "hugo-public")
        else:
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("PATH", str(folder))
                built[tool], warnings = blogbuild_files(site)
                assert not [warning for warning in warnings if "cannot run the site's layouts" in warning.message]
                # Built in the site's own folder (`blogbuild build` there: the site and its assets folders are
                # relative paths, esbuild runs in the script's folder).
                patch.chdir(site)
                built["blogbuild here"], warnings = blogbuild_files(Path("."))
                assert not [warning for warning in warnings if "cannot run the site's layouts" in warning.message]
    assert built["blogbuild"]["ts/app.js"] == built["blogbuild here"]["ts/app.js"] == built["hugo"]["ts/app.js"]
    assert b"g${" in built["hugo"]["ts/app.js"] and b"(2)" in built["hugo"]["ts/app.js"]
