"""Stack's demo site renders through Stack's own layouts (the snapshot beside the repository, copied into a site's
themes/stack, the demo's module import replaced by `theme = "stack"`): Hugo 0.146's layout folders (_partials,
_shortcodes, _markup, home.html, page/search.html), four languages (English, and zh/, zh-hant-tw/, ja/), Sass
through toCSS, image processing, .Colors, partialCached, the widgets, the theme's own config params beneath the
site's. Built by the hugo binary and by blogbuild: the same files and every page the same DOM (Hugo without git
info), except the documented differences:
- js.Build of TypeScript: Hugo bundles Stack's ts/*.ts with its own esbuild; blogbuild runs the esbuild npm
  installs (tests/node's, `npm ci` there: the version Hugo 0.168 embeds, so the scripts are Hugo's bytes and
  everything is compared). Without it (no well-kept Python package bundles TypeScript), blogbuild warns at each
  template line that asks for it and publishes a script that only says so: then the script files
  (ts/main.<hash>.js) and their <script> tags are left out of the comparison;
- blogbuild's minifier is not tdewolff's: the stylesheet's bytes differ, so does its fingerprint, which every
  page links (scss/style.min.<hash>.css): the hash is left out of the comparison;
- a processed image's name: blogbuild's `_hu_` hash is not Hugo's (its pixels are Pillow's), so image names are
  compared without it;
- css/syntax.css (blogbuild's highlighting stylesheet) and its KaTeX copy (vendor/katex-*) are published too, and
  its mermaid copy (vendor/mermaid-*), which a page with a diagram loads where Hugo's loads Stack's CDN mermaid
  (compared with the CDN's URL put back, support/dom.with_hugos_mermaid);
- the pages in DIFFERENT, each for the reasons given there."""
from __future__ import annotations

import os
import re
import subprocess
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest
from support.dom import dom_tokens, with_hugos_mermaid
from support.hugo_site_oracle import hugo_binary
from support.stack import esbuild_folder, published, stack_site
from support.tools import missing_tool

from blogbuild.config import load_config
from blogbuild.pipeline import Builder

_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
_SCRIPT = re.compile(r'<script[^>]*\bsrc="/ts/[^"]+"[^>]*>\s*</script>')
_STYLESHEET = re.compile(r"/scss/style\.min\.[0-9a-f]{64}\.css")
_PROCESSED = re.compile(r"_hu_[0-9a-f]+\.")
# Published by one build only, for the documented reasons: the script and stylesheet (compared by name only),
# blogbuild's highlighting stylesheet and KaTeX.
_HASHED = re.compile(r"^ts/\w+\.[0-9a-f]{64}\.js$|^scss/style\.min\.[0-9a-f]{64}\.css$")
_STYLE_FILE = re.compile(r"^scss/style\.min\.[0-9a-f]{64}\.css$")
_OURS_ONLY = re.compile(r"(^|/)css/syntax\.css$|(^|/)vendor/(katex|mermaid)-")

_MATH = "blogbuild typesets the math at build time, where Hugo's page leaves the TeX for KaTeX in the browser"
DIFFERENT: dict[str, str] = {"p/math-typesetting/index.html": _MATH, "zh/p/math-typesetting/index.html": _MATH}


def _comparable(page: str, bundled: bool) -> list[str]:
    page = _STYLESHEET.sub("/scss/style.min.HASH.css", page if bundled else _SCRIPT.sub("", page))
    return dom_tokens(_PROCESSED.sub("_hu_HASH.", page), drop=_GENERATOR)


def _names(paths: Iterable[str], bundled: bool) -> Counter[str]:
    hashed = _STYLE_FILE if bundled else _HASHED
    return Counter(_PROCESSED.sub("_hu_HASH.", path) for path in paths if not hashed.search(path))


def _build(site: Path, path: str) -> tuple[dict[str, bytes], list]:
    """blogbuild's files and warnings for the site, with PATH the places programs (esbuild) are looked for."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", path)
        result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    return published(result.files), list(result.warnings)


def _without_esbuild() -> str:
    return os.pathsep.join(folder for folder in os.environ.get("PATH", "").split(os.pathsep)
                           if folder and not (Path(folder) / "esbuild").exists())


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    """Hugo's files, blogbuild's with esbuild when tests/node has it (else without), blogbuild's warnings."""
    tmp_path = tmp_path_factory.mktemp("stack")
    site, destination = stack_site(tmp_path / "hugo-site"), tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(site), "--destination", str(destination),
                                "--enableGitInfo=false", "--quiet"], capture_output=True, text=True, timeout=300,
                               env={**os.environ, "HUGO_THEMESDIR": str(site / "themes")})
    assert completed.returncode == 0, completed.stderr
    hugo = {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}
    folder = esbuild_folder()
    path = os.pathsep.join([str(folder), _without_esbuild()]) if folder is not None else _without_esbuild()
    ours, warnings = _build(stack_site(tmp_path / "blogbuild-site"), path)
    return hugo, ours, warnings


def _bundled(ours: dict[str, bytes]) -> bool:
    """Whether blogbuild bundled the scripts (it had esbuild)."""
    return not any(b"not bundled" in data for path, data in ours.items() if path.startswith("ts/"))


def test_stacks_own_layouts_render_the_site(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, warnings = both
    assert not [warning for warning in warnings if "cannot run the site's layouts" in warning.message]
    home = ours["index.html"].decode()
    assert '<aside class="sidebar left-sidebar sticky ">' in home
    assert 'class="widget archives"' in home and 'class="widget tagCloud"' in home     # the widgets
    assert '<html lang="zh" dir="ltr">' in ours["zh/index.html"].decode()
    assert ours[_STYLESHEET.search(home).group(0).lstrip("/")].startswith(b":root{")     # Sass through toCSS


def test_typescript_is_bundled_as_hugo_does(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    if esbuild_folder() is None:
        missing_tool("esbuild is not installed in tests/node (cd tests/node && npm ci)")
    scripts = sorted(path for path in hugo if path.startswith("ts/"))
    assert len(scripts) == 7 and {path: ours.get(path) for path in scripts} == {path: hugo[path] for path in scripts}
    assert not [warning for warning in warnings if warning.message.startswith("js.Build of")]


def test_without_esbuild_typescript_is_named_where_a_layout_bundles_it(tmp_path: Path) -> None:
    ours, warnings = _build(stack_site(tmp_path / "site"), _without_esbuild())
    bundled = {(warning.path, warning.line) for warning in warnings if warning.message.startswith("js.Build of ts/main.ts")}
    assert bundled == {("themes/stack/layouts/_partials/footer/components/script.html", 10)}
    script = next(path for path in ours if path.startswith("ts/main."))
    assert b"not bundled" in ours[script]


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    theirs, mine = _names(hugo, _bundled(ours)), _names(ours, _bundled(ours))
    assert sorted(name for name in mine - theirs if not _OURS_ONLY.search(name)) == []
    assert sorted(theirs - mine) == []
    assert [path for path in hugo if _STYLE_FILE.search(path)] and [path for path in ours if _STYLE_FILE.search(path)]


def test_every_page_has_hugos_dom(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 183
    bundled = _bundled(ours)
    differing = [path for path in pages if _comparable(with_hugos_mermaid(ours[path].decode(), hugo[path].decode()),
                                                       bundled) != _comparable(hugo[path].decode(), bundled)]
    assert sorted(differing) == sorted(DIFFERENT)   # every other page is Hugo's; each documented one still differs
