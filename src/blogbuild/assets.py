"""Pinned browser assets (KaTeX, mermaid): CDN URLs with SRI hashes, or local copies under /vendor/.

The default theme loads these only on pages that need them. With `local_assets: true` in
blogbuild.yaml the pages point at the site's own copies instead of the CDN; the site then
supplies these files in its static/ folder (copied from the npm packages of the same version):

    static/vendor/katex/katex.min.css    <- katex/dist/katex.min.css
    static/vendor/katex/katex.min.js     <- katex/dist/katex.min.js
    static/vendor/katex/fonts/*          <- katex/dist/fonts/*   (the CSS loads fonts/ relative to itself)
    static/vendor/mermaid/mermaid.min.js <- mermaid/dist/mermaid.min.js  (UMD: one file, no chunks)

VENDOR_FILES lists the same mapping for scripts and tests that copy the files.
To re-pin: change the version, then run `python -m blogbuild.assets tests/node/node_modules`
and paste the printed hashes; tests/test_theme.py checks them against the installed packages.
"""
from __future__ import annotations

import base64
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The CDN serves each npm package's files byte for byte at /npm/<package>@<version>/<file>,
# so an SRI hash computed from the npm tarball matches what the browser downloads.
CDN_HOST = "cdn.jsdelivr.net"
CDN_BASE = f"https://{CDN_HOST}/npm"

KATEX_VERSION = "0.19.1"
MERMAID_VERSION = "12.3.0"


@dataclass(frozen=True)
class Asset:
    """One pinned file of an npm package: where it lives on the CDN and in a site's /vendor/."""

    package: str
    version: str
    file: str            # path inside the npm package, e.g. "dist/katex.min.js"
    local_url: str       # site-relative url of the local copy, e.g. "/vendor/katex/katex.min.js"
    integrity: str       # SRI hash of the exact file, "sha384-..."
    kind: str            # "style" | "script"

    @property
    def cdn_url(self) -> str:
        """The absolute CDN url of the pinned file."""
        return f"{CDN_BASE}/{self.package}@{self.version}/{self.file}"


ASSETS: dict[str, Asset] = {
    "katex_css": Asset(
        "katex", KATEX_VERSION, "dist/katex.min.css", "/vendor/katex/katex.min.css",
        "sha384-WwGtaC6ywCHxA5cstpj/3+xIZvTez8dq2IcBQaXRkenHZ7FVVq1ZROtURwfbtTlG", "style"),
    "katex_js": Asset(
        "katex", KATEX_VERSION, "dist/katex.min.js", "/vendor/katex/katex.min.js",
        "sha384-a1WQdjRj162i159OYq041X6I4K8NenkrI09LlPmiHg0YOb7CR+wJOraXwK9abpnE", "script"),
    "mermaid_js": Asset(
        "mermaid", MERMAID_VERSION, "dist/mermaid.min.js", "/vendor/mermaid/mermaid.min.js",
        "sha384-HHW54r639fK42Ip0coGF3mz8oSiGn0eEoWNTLs75X7H63pLSDBa0Tqs0RwGmLlXE", "script"),
}

# (path inside node_modules, path inside the site's static/): what local_assets needs.
# A trailing slash means a whole folder.
VENDOR_FILES: tuple[tuple[str, str], ...] = (
    ("katex/dist/katex.min.css", "vendor/katex/katex.min.css"),
    ("katex/dist/katex.min.js", "vendor/katex/katex.min.js"),
    ("katex/dist/fonts/", "vendor/katex/fonts/"),
    ("mermaid/dist/mermaid.min.js", "vendor/mermaid/mermaid.min.js"),
)


def _asset(name: str) -> Asset:
    try:
        return ASSETS[name]
    except KeyError:
        known = ", ".join(sorted(ASSETS))
        raise KeyError(f"unknown asset {name!r}; known assets: {known}") from None


def asset_url(name: str, config: Any) -> str:
    """The url a page uses for an asset: the CDN, or the site's /vendor/ copy when local_assets is on."""
    asset = _asset(name)
    if getattr(config, "local_assets", False):
        return config.site_url(asset.local_url)
    return asset.cdn_url


def asset_integrity(name: str, config: Any = None) -> str | None:
    """The SRI hash for the CDN file, or None for local copies (the site's own files need none)."""
    asset = _asset(name)
    if config is not None and getattr(config, "local_assets", False):
        return None
    return asset.integrity


def integrity_of(data: bytes) -> str:
    """The sha384 SRI value of some bytes."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode("ascii")


def installed_integrities(node_modules: Path) -> dict[str, str]:
    """The SRI hash of every asset as installed in a node_modules folder (for re-pinning and tests)."""
    return {name: integrity_of((node_modules / asset.package / asset.file).read_bytes())
            for name, asset in ASSETS.items()}


def _main(argv: list[str]) -> int:
    node_modules = Path(argv[0] if argv else "tests/node/node_modules")
    for name, integrity in installed_integrities(node_modules).items():
        print(f"{name}: {integrity}")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
