"""A Hugo site whose config says `minify: {minifyOutput: true}` has its HTML pages minified, as Hugo minifies
them: blogbuild with minify-html, Hugo with tdewolff's minifier, whose choices differ (minify-html writes
`crossorigin` for `crossorigin="anonymous"`, hex colours, template literals; tdewolff shortens SVG paths), so the
minifications are compared through one minifier: PaperMod's own layouts rendering tests/hugo_sites/papermod_own,
every page blogbuild writes with the setting is the page Hugo writes without it, minified (the page with
build-time math apart, as in test_hugo_papermod.py), and the pages are about the size of Hugo's minified ones;
without the setting the pages are written as rendered."""
from __future__ import annotations

import subprocess
from pathlib import Path

import minify_html
import pytest
from support.hugo_site_oracle import hugo_binary
from test_hugo_papermod import MATH_PAGE, _dom, _site

from blogbuild.config import load_config
from blogbuild.pipeline import Builder


def _minifying(site: Path) -> Path:
    config = site / "config.yml"
    config.write_text(config.read_text().replace("minify:\n", "minify:\n  minifyOutput: true\n", 1))
    return site


def _hugo(site: Path, destination: Path) -> dict[str, bytes]:
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(site), "--destination", str(destination),
                                "--quiet"], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    return {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}


def _minified(page: bytes) -> str:
    return str(minify_html.minify(page.decode(), keep_closing_tags=True, keep_html_and_head_opening_tags=True,
                                  minify_css=True, minify_js=True))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], dict[str, bytes], list]:
    """(Hugo's pages as rendered, Hugo's minified, blogbuild's minified, blogbuild's warnings)."""
    tmp_path = tmp_path_factory.mktemp("minify_output")
    rendered = _hugo(_site(tmp_path, "hugo-site"), tmp_path / "hugo-public")
    minified = _hugo(_minifying(_site(tmp_path, "hugo-minified")), tmp_path / "hugo-minified-public")
    result = Builder(load_config(None, root=_minifying(_site(tmp_path, "blogbuild-site")))).build()
    assert result.ok, result.errors
    return rendered, minified, {path: item.data for path, item in result.files.items()}, list(result.warnings)


def test_every_page_is_hugos_page_minified(built: tuple[dict[str, bytes], dict[str, bytes], dict[str, bytes], list]
                                           ) -> None:
    rendered, _minified_by_hugo, ours, warnings = built
    pages = sorted(path for path in rendered if path.endswith(".html") and path != MATH_PAGE)
    assert len(pages) > 20
    assert [path for path in pages if _dom(ours[path].decode()) != _dom(_minified(rendered[path]))] == []
    assert not [warning for warning in warnings if "minify" in warning.message]   # the setting is followed


def test_pages_are_minified_about_as_hugo_minifies_them(
        built: tuple[dict[str, bytes], dict[str, bytes], dict[str, bytes], list]) -> None:
    rendered, minified, ours, _warnings = built
    home = ours["index.html"].decode()
    assert "\n    <" not in home and home.startswith("<!doctype html>")
    pages = [path for path in minified if path.endswith(".html")]
    size = sum(len(ours[path]) for path in pages)
    assert size < 1.1 * sum(len(minified[path]) for path in pages) < 0.9 * sum(len(rendered[path]) for path in pages)


def test_without_the_setting_pages_are_written_as_rendered(tmp_path: Path) -> None:
    result = Builder(load_config(None, root=_site(tmp_path, "site"))).build()
    assert result.ok, result.errors
    assert "\n" in result.files["index.html"].data.decode().strip()
