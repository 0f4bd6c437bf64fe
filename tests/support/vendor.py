"""Copy the pinned KaTeX and mermaid files from tests/node/node_modules into a site's static/vendor/.

The theme's local-assets switch (`local_assets: true`) points pages at /vendor/... instead of the
CDN; blogbuild.assets.VENDOR_FILES says which npm files go where. Used by the browser tests, and
by hand:  python tests/support/vendor.py SITE_FOLDER [NODE_MODULES]
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from blogbuild.assets import ASSETS, VENDOR_FILES

NODE_MODULES = Path(__file__).resolve().parent.parent / "node" / "node_modules"


class VendorMissing(RuntimeError):
    """The npm packages are not installed, or not at the versions blogbuild pins."""


def check_versions(node_modules: Path = NODE_MODULES) -> None:
    """Raise VendorMissing unless node_modules holds each pinned package at its pinned version."""
    for asset in ASSETS.values():
        manifest = node_modules / asset.package / "package.json"
        if not manifest.is_file():
            raise VendorMissing(f"{manifest} not found; run `npm ci` in tests/node")
        version = json.loads(manifest.read_text(encoding="utf-8"))["version"]
        if version != asset.version:
            raise VendorMissing(f"{asset.package} {version} is installed but blogbuild pins {asset.version}; "
                                "run `npm ci` in tests/node")


def copy_vendor_files(site_root: Path, node_modules: Path = NODE_MODULES) -> list[Path]:
    """Copy every VENDOR_FILES entry into site_root/static/; returns the files written."""
    check_versions(node_modules)
    written: list[Path] = []
    for source_name, target_name in VENDOR_FILES:
        source = node_modules / source_name
        target = Path(site_root) / "static" / target_name
        if source_name.endswith("/"):
            # A whole folder (KaTeX's fonts/, which its CSS loads relative to itself).
            shutil.copytree(source, target, dirs_exist_ok=True)
            written.extend(path for path in target.rglob("*") if path.is_file())
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            written.append(target)
    return written


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        sys.exit(2)
    files = copy_vendor_files(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) == 3 else NODE_MODULES)
    print(f"copied {len(files)} files into {Path(sys.argv[1]) / 'static' / 'vendor'}")
