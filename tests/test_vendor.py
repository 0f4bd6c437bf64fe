"""The KaTeX and mermaid files shipped inside blogbuild: pinned, hashed, licensed, packaged, published only when needed."""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from support.files import write_files

from blogbuild.media import assets

REPO = Path(__file__).resolve().parent.parent
NODE_MODULES = REPO / "tests" / "node" / "node_modules"


def test_every_vendored_file_matches_the_manifest_and_the_pins():
    manifest = assets.manifest()
    assert set(manifest) == set(assets.PACKAGES) | set(assets.KEPT_FOLDERS)
    for name, package in assets.PACKAGES.items():
        assert manifest[name]["version"] == package.version, "re-vendor: python scripts/vendor_assets.py"
        folder = assets.VENDOR_DIR / name
        on_disk = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
        assert on_disk == set(manifest[name]["files"]), f"{folder} differs from the manifest"
        for file, integrity in manifest[name]["files"].items():
            assert assets.integrity_of((folder / file).read_bytes()) == integrity, f"{name}/{file}"
        assert "LICENSE" in manifest[name]["files"]


def test_the_vendored_chroma_lexers_match_the_manifest():
    """Chroma v2.27.0's lexer and style XML files (MIT), which markdown/chroma runs for a Hugo site's own
    layouts."""
    entry = assets.manifest()["chroma"]
    assert entry["version"] == assets.CHROMA_VERSION == "2.27.0"
    folder = assets.VENDOR_DIR / "chroma"
    on_disk = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    assert on_disk == set(entry["files"])
    for file, integrity in entry["files"].items():
        assert assets.integrity_of((folder / file).read_bytes()) == integrity, f"chroma/{file}"
    assert "LICENSE" in entry["files"]


@pytest.mark.parametrize("name", sorted(set(assets.KEPT_FOLDERS) - {"chroma"}))
def test_the_vendored_folders_match_the_manifest(name: str):
    """goldmark-emoji's GitHub set and kyokomi/emoji's code map (both MIT), at the versions Hugo 0.168 pins, and
    Hugo's embedded shortcodes (Apache-2.0)."""
    entry = assets.manifest()[name]
    assert entry["version"] == assets.KEPT_FOLDERS[name]
    folder = assets.VENDOR_DIR / name
    on_disk = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    assert on_disk == set(entry["files"]) and "LICENSE" in on_disk
    for file, integrity in entry["files"].items():
        assert assets.integrity_of((folder / file).read_bytes()) == integrity, f"{name}/{file}"


def test_re_vendoring_keeps_the_chroma_entry():
    """scripts/vendor_assets.py rewrites the manifest from the npm packages and Chroma's files as they are."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("vendor_assets", REPO / "scripts" / "vendor_assets.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    manifest = assets.manifest()
    packages = {name: manifest[name] for name in assets.PACKAGES}
    assert script.complete_manifest(packages) == manifest
    assert manifest["chroma"]["version"] == assets.CHROMA_VERSION
    assert {"styles/monokai.xml", "styles/dracula.xml", "lexers/python.xml"} <= set(manifest["chroma"]["files"])


def test_katex_ships_every_font_its_stylesheet_names():
    css = (assets.VENDOR_DIR / "katex" / "katex.min.css").read_text(encoding="utf-8")
    named = set(re.findall(r"url\((fonts/[^)]+)\)", css))
    assert named, "katex.min.css names no fonts"
    assert named <= set(assets.manifest()["katex"]["files"])


@pytest.mark.node
def test_vendored_files_equal_the_installed_npm_packages():
    if not (NODE_MODULES / "katex" / "package.json").is_file():
        pytest.skip("tests/node/node_modules not installed (npm ci --prefix tests/node)")
    for name, package in assets.PACKAGES.items():
        installed = json.loads((NODE_MODULES / name / "package.json").read_text(encoding="utf-8"))["version"]
        assert installed == package.version
        for file in assets.manifest()[name]["files"]:
            npm_path = NODE_MODULES / name / (file if file == "LICENSE" else f"dist/{file}")
            assert npm_path.read_bytes() == (assets.VENDOR_DIR / name / file).read_bytes(), file


def test_pyproject_ships_the_vendor_folder_as_package_data():
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["blogbuild"]
    assert "vendor/**/*" in patterns


def _build(tmp_path: Path, files: dict[str, str]) -> Path:
    from blogbuild.cli import main
    root = write_files(tmp_path, files)
    (root / "content").mkdir(exist_ok=True)
    assert main(["build", "--root", str(root), "--quiet", "--no-cache", "--jobs", "1"]) == 0
    return root / "public"


def test_vendored_packages_are_published_only_when_some_page_needs_them(tmp_path: Path):
    plain = _build(tmp_path / "plain", {"content/posts/a.md": "---\ntitle: A\n---\nText.\n"})
    assert not (plain / "vendor").exists()
    math = _build(tmp_path / "math", {"content/posts/a.md": "---\ntitle: A\n---\nSee $x^2$.\n"})
    katex = math / "vendor" / f"katex-{assets.KATEX_VERSION}"
    assert (katex / "katex.min.css").read_bytes() == assets.ASSETS["katex_css"].source.read_bytes()
    assert (katex / "fonts" / "KaTeX_Main-Regular.woff2").is_file()
    assert (katex / "LICENSE").is_file()
    assert not (math / "vendor" / f"mermaid-{assets.MERMAID_VERSION}").exists()
    diagram = _build(tmp_path / "diagram",
                     {"content/posts/a.md": "---\ntitle: A\n---\n```mermaid\ngraph TD\nA-->B\n```\n"})
    mermaid = diagram / "vendor" / f"mermaid-{assets.MERMAID_VERSION}"
    assert (mermaid / "mermaid.esm.min.mjs").is_file()
    # Every chunk the module may import, under the path the module names it by.
    assert len(list((mermaid / "chunks" / "mermaid.esm.min").glob("*.mjs"))) > 100
    assert not (diagram / "vendor" / f"katex-{assets.KATEX_VERSION}").exists()


def test_cdn_assets_publish_no_vendor_folder(tmp_path: Path):
    public = _build(tmp_path, {"blogbuild.yaml": "cdn_assets: true\n",
                               "content/posts/a.md": "---\ntitle: A\n---\nSee $x^2$.\n"})
    assert not (public / "vendor").exists()
    assert assets.CDN_HOST in (public / "posts" / "a" / "index.html").read_text(encoding="utf-8")
