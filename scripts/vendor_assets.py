"""Re-vendor KaTeX and mermaid into src/blogbuild/vendor/ at the versions blogbuild.media.assets pins.

    python scripts/vendor_assets.py                      # fetch the pinned tarballs with `npm pack`
    python scripts/vendor_assets.py --from tests/node/node_modules   # copy from an installed tree

To move to a new version: change KATEX_VERSION / MERMAID_VERSION in src/blogbuild/media/assets.py (and
tests/node/package.json), run this script, read `git diff --stat`, and run the tests:
tests/test_vendor.py checks every vendored file against src/blogbuild/vendor/manifest.json, which
this script rewrites (versions and sha384 hashes; the CDN's SRI values are the same hashes).

Chroma's lexer and style XML files (vendor/chroma/) come from the Chroma git repository at the tag
CHROMA_VERSION names, not from npm: this script keeps them and writes their entry from the files as they are.
So with Hugo's emoji tables (vendor/goldmark-emoji/, vendor/kyokomi-emoji/), which scripts/vendor_emoji.py
writes from the Go libraries' sources, and Hugo's embedded youtube, vimeo and instagram shortcodes
(vendor/hugo/_shortcodes/, copied from Hugo's tpl/tplimpl/embedded/templates/_shortcodes/ at the commit
HUGO_TEMPLATES_VERSION names, with Hugo's LICENSE).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from blogbuild.media.assets import KEPT_FOLDERS, MANIFEST_PATH, PACKAGES, VENDOR_DIR, integrity_of  # noqa: E402


def _unpack(package: str, version: str, workdir: Path) -> Path:
    """`npm pack` the pinned package into workdir and unpack it; returns the package folder."""
    result = subprocess.run(["npm", "pack", f"{package}@{version}", "--pack-destination", str(workdir),
                             "--silent"], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"npm pack {package}@{version} failed:\n{result.stderr}")
    tarball = workdir / result.stdout.strip().splitlines()[-1]
    target = workdir / package
    with tarfile.open(tarball) as archive:
        archive.extractall(target, filter="data")
    return target / "package"


def _installed(package: str, version: str, node_modules: Path) -> Path:
    """The package folder inside node_modules, after checking its version."""
    folder = node_modules / package
    found = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    if found != version:
        raise SystemExit(f"{folder} holds {package} {found}, but blogbuild pins {version}; run npm ci first")
    return folder


def vendor(node_modules: Path | None) -> dict:
    """Copy every pinned file into VENDOR_DIR and return the new manifest."""
    manifest: dict = {}
    with tempfile.TemporaryDirectory() as temporary:
        for package in PACKAGES.values():
            source = (_installed(package.name, package.version, node_modules) if node_modules
                      else _unpack(package.name, package.version, Path(temporary)))
            target = VENDOR_DIR / package.name
            if target.exists():
                shutil.rmtree(target)
            files: dict[str, str] = {}
            for pattern, name_in_vendor in package.files:
                matches = sorted(source.glob(pattern))
                if not matches:
                    raise SystemExit(f"{package.name}@{package.version} has no {pattern}")
                for match in matches:
                    relative = name_in_vendor if name_in_vendor else match.relative_to(source / "dist").as_posix()
                    destination = target / relative
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(match, destination)
                    files[relative] = integrity_of(match.read_bytes())
            manifest[package.name] = {"version": package.version, "files": dict(sorted(files.items()))}
    return manifest


def folder_entry(name: str, version: str) -> dict:
    """The manifest entry of a vendor/ folder kept as it is (its LICENSE and data files), from the files."""
    folder = VENDOR_DIR / name
    files = {path.relative_to(folder).as_posix(): integrity_of(path.read_bytes())
             for path in folder.rglob("*") if path.is_file()}
    if "LICENSE" not in files:
        raise SystemExit(f"{folder} has no LICENSE: copy {name} v{version}'s files there first")
    return {"version": version, "files": dict(sorted(files.items()))}


def complete_manifest(packages: dict) -> dict:
    """The whole manifest: the npm packages' entries, and those of the folders kept as they are (Chroma's, the
    emoji tables', Hugo's shortcodes')."""
    return {**packages, **{name: folder_entry(name, version) for name, version in KEPT_FOLDERS.items()}}


def main(argv: list[str]) -> int:
    """Re-vendor, write the manifest, print what changed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="node_modules", type=Path, default=None,
                        help="copy from this node_modules instead of running npm pack")
    options = parser.parse_args(argv)
    manifest = complete_manifest(vendor(options.node_modules))
    MANIFEST_PATH.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for name, entry in manifest.items():
        print(f"{name} {entry['version']}: {len(entry['files'])} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
