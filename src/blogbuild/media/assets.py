"""Pinned browser assets (KaTeX, mermaid): shipped inside blogbuild, served from the site by default.

The files live in src/blogbuild/vendor/<package>/ with their licences; vendor/manifest.json records
the version and the sha384 of each file (scripts/vendor_assets.py writes both from the npm packages
at the versions pinned here; tests/test_vendor.py checks them). A build copies a package into the
output only when some page needs it, under a versioned folder (/vendor/katex-0.19.1/...), so the
files can be cached forever and a new pin never serves a stale copy. `cdn_assets: true` points
pages at the public CDN instead, with SRI hashes (the same sha384 values: the CDN serves the npm
files byte for byte).
"""
from __future__ import annotations

import base64
import functools
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..config import SiteConfig

CDN_HOST = "cdn.jsdelivr.net"
CDN_BASE = f"https://{CDN_HOST}/npm"

KATEX_VERSION = "0.19.1"
MERMAID_VERSION = "12.3.0"
# Chroma's lexers and styles (vendor/chroma/, from the Chroma git repository's tag; markdown/chroma runs them).
CHROMA_VERSION = "2.27.0"
# Hugo's emoji tables (vendor/goldmark-emoji/, vendor/kyokomi-emoji/: scripts/vendor_emoji.py writes them from
# the Go libraries' tags Hugo 0.168 pins; markdown/emoji reads them).
GOLDMARK_EMOJI_VERSION = "1.0.6"
KYOKOMI_EMOJI_VERSION = "2.2.14"
EMOJI_TABLES = {"goldmark-emoji": GOLDMARK_EMOJI_VERSION, "kyokomi-emoji": KYOKOMI_EMOJI_VERSION}
# Hugo's embedded youtube, vimeo and instagram shortcodes (vendor/hugo/: Hugo's git tree at this commit, whose
# output is Hugo 0.168's, tests/test_hugo_embeds.py; hugo/gotemplate runs them on a site's own layouts).
HUGO_TEMPLATES_VERSION = "0.165.0-9-g7b5199fde"
# The orders Hugo 0.168's collator sorts characters in (vendor/collation/: scripts/vendor_collation.py asks the hugo
# binary; hugo/gotemplate/collation.py reads them).
COLLATION_VERSION = "hugo-0.168.0"
# CLDR's plural rules as the go-i18n Hugo 0.168 pins ships them (vendor/cldr/plurals.xml, i18n's plural forms).
PLURALS_VERSION = "go-i18n-2.1.3-0.20230805085216-e63c13218d0e"
# The vendor/ folders kept as they are, each with its LICENSE (scripts/vendor_assets.py writes their entries).
KEPT_FOLDERS = {"chroma": CHROMA_VERSION, **EMOJI_TABLES, "hugo": HUGO_TEMPLATES_VERSION,
                "collation": COLLATION_VERSION, "cldr": PLURALS_VERSION}

# Vendored files blogbuild's default theme never publishes (katex's contrib/).
UNPUBLISHED_PREFIX = "contrib/"
VENDOR_DIR = Path(__file__).resolve().parent.parent / "vendor"
MANIFEST_PATH = VENDOR_DIR / "manifest.json"


@dataclass(frozen=True)
class Package:
    """One vendored npm package: its pinned version and which of its files blogbuild ships."""

    name: str
    version: str
    # (glob inside the npm package, name inside vendor/<name>/; "" keeps the path below dist/)
    files: tuple[tuple[str, str], ...]

    @property
    def output_folder(self) -> str:
        """The folder of the site's copy, versioned so that browsers may cache it forever."""
        return f"vendor/{self.name}-{self.version}"


PACKAGES: dict[str, Package] = {
    # All three font formats: katex.min.css names them all (browsers fetch only the first they support).
    # contrib/: mhchem (\ce, \pu), loaded into the build's V8 isolate beside katex.min.js; it and the other
    # contrib scripts (auto-render, copy-tex...) are published only for a page of a site's own layouts that loads
    # them from a CDN (hugo/local_libraries.py).
    "katex": Package("katex", KATEX_VERSION, (("LICENSE", "LICENSE"), ("dist/katex.min.css", ""),
                                              ("dist/katex.min.js", ""), ("dist/fonts/*", ""),
                                              ("dist/contrib/*.min.js", ""))),
    # The ES module build: a small entry and the chunks it imports, so a page downloads only what its diagrams
    # need (a flowchart: ~0.9 MB of the 5.5 MB). And the one-file build a classic <script> loads (a theme's or
    # a layout's `mermaid.min.js` from a CDN, which defines the global `mermaid`): published only for such a page.
    "mermaid": Package("mermaid", MERMAID_VERSION, (("LICENSE", "LICENSE"), ("dist/mermaid.esm.min.mjs", ""),
                                                    ("dist/chunks/mermaid.esm.min/*.mjs", ""),
                                                    ("dist/mermaid.min.js", ""))),
}
# Vendored files published only for a page of a site's own layouts that loads them from a CDN (SCRIPT_BUILDS),
# never with blogbuild's default theme, which loads the module build.
SCRIPT_BUILDS = {"mermaid": "mermaid.min.js"}


@dataclass(frozen=True)
class Asset:
    """One file a page loads: where it is on the CDN and in the site's own /vendor/ copy."""

    package: str
    file: str            # name inside vendor/<package>/, e.g. "katex.min.js" (dist/<file> in the npm package)
    kind: str            # "style" | "script"

    @property
    def version(self) -> str:
        """The pinned version of the asset's package."""
        return PACKAGES[self.package].version

    @property
    def cdn_url(self) -> str:
        """The absolute CDN url of the pinned file."""
        return f"{CDN_BASE}/{self.package}@{self.version}/dist/{self.file}"

    @property
    def local_url(self) -> str:
        """The site-relative url of the site's copy."""
        return f"/{PACKAGES[self.package].output_folder}/{self.file}"

    @property
    def integrity(self) -> str:
        """The SRI hash of the exact file, "sha384-..."."""
        return manifest()[self.package]["files"][self.file]

    @property
    def source(self) -> Path:
        """The vendored file inside the installed blogbuild package."""
        return VENDOR_DIR / self.package / self.file


ASSETS: dict[str, Asset] = {
    "katex_css": Asset("katex", "katex.min.css", "style"),
    "katex_js": Asset("katex", "katex.min.js", "script"),
    "mermaid_js": Asset("mermaid", "mermaid.esm.min.mjs", "module"),
}


@functools.cache
def manifest() -> dict[str, Any]:
    """vendor/manifest.json: {package: {version, files: {name: sha384}}}."""
    return json.loads(MANIFEST_PATH.read_text(encoding="utf-8"))


def _asset(name: str) -> Asset:
    try:
        return ASSETS[name]
    except KeyError:
        known = ", ".join(sorted(ASSETS))
        raise KeyError(f"unknown asset {name!r}; known assets: {known}") from None


def uses_cdn(config: SiteConfig) -> bool:
    """Whether pages load the assets from the public CDN (opt-in) instead of the site."""
    return bool(getattr(config, "cdn_assets", False))


def asset_url(name: str, config: SiteConfig) -> str:
    """The url a page uses for an asset: the site's versioned copy, or the CDN when cdn_assets is on."""
    asset = _asset(name)
    if uses_cdn(config):
        return asset.cdn_url
    return config.site_url(asset.local_url)


def asset_integrity(name: str, config: SiteConfig | None = None) -> str | None:
    """The SRI hash for the CDN file, or None for the site's own copy (it needs none)."""
    asset = _asset(name)
    if config is not None and not uses_cdn(config):
        return None
    return asset.integrity


def vendor_outputs(config: SiteConfig, *, math: bool, mermaid: bool) -> list[tuple[str, Path]]:
    """(output path, vendored file) of every file the site must publish for pages with math/diagrams."""
    if uses_cdn(config):
        return []
    names = [name for name, needed in (("katex", math), ("mermaid", mermaid)) if needed]
    outputs: list[tuple[str, Path]] = []
    for name in names:
        package = PACKAGES[name]
        for file in sorted(manifest()[name]["files"]):
            if file.startswith(UNPUBLISHED_PREFIX) or file == SCRIPT_BUILDS.get(name):
                continue
            outputs.append((f"{package.output_folder}/{file}", VENDOR_DIR / name / file))
    return outputs


def import_map_integrity(package: str) -> dict[str, dict[str, str]]:
    """An import map's "integrity" entry for every file of a package on the CDN: a module's chunks are
    imported by the module itself, so an SRI hash on a tag could cover only its entry."""
    version = PACKAGES[package].version
    return {"integrity": {f"{CDN_BASE}/{package}@{version}/dist/{file}": digest
                          for file, digest in sorted(manifest()[package]["files"].items()) if file.endswith(".mjs")}}


def integrity_of(data: bytes) -> str:
    """The sha384 SRI value of some bytes."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode("ascii")
