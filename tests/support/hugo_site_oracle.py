"""Build one whole site with Hugo (the oracle) and with blogbuild, and describe each page the same way.

Hugo renders the site with the minimal layouts in hugo_oracle_theme/ (passed with --themesDir/--theme, so the
site's own `theme:` is overridden and its folder stays untouched): every HTML page is a JSON record. blogbuild's
side comes from its Site model and its output file list. Both become PageRecord values keyed by URL, so a test
compares page sets, metadata, heading ids and normalized text with plain equality.
"""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SUPPORT = Path(__file__).resolve().parent
THEME_NAME = "hugo_oracle_theme"
_HEADING_ID = re.compile(r"<h[1-6][^>]*?\sid=\"([^\"]*)\"")
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")
_HREF = re.compile(r"<(?:a\s[^>]*?href|img\s[^>]*?src)=\"([^\"]*)\"")
# blogbuild's heading permalink (PaperMod draws the same "#" with its own heading hook): not text of the page.
_PERMALINK = re.compile(r"\s*<a class=\"anchor\"[^>]*>#</a>")


@dataclass(frozen=True)
class PageRecord:
    """One published page as both tools describe it; kinds are Hugo's (home, page, section, taxonomy, term)."""

    url: str
    kind: str
    title: str
    description: str = ""
    date: str = ""                      # ISO 8601 in UTC, "" when the page has none
    content: str = ""                   # the page's own content HTML (.Content)
    terms: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # taxonomy -> term URLs, sorted
    members: tuple[str, ...] = ()       # list pages: the URLs of the regular pages they list (recursively), sorted
    layout: str = ""

    @property
    def heading_ids(self) -> tuple[str, ...]:
        """The id of every heading in the content, in document order."""
        return tuple(_HEADING_ID.findall(self.content))

    @property
    def text(self) -> str:
        """The content as text: tags dropped, entities decoded, white space folded to single spaces."""
        content = _PERMALINK.sub("", self.content)
        return _SPACE.sub(" ", html.unescape(_TAG.sub(" ", content))).strip()

    @property
    def links(self) -> tuple[str, ...]:
        """Every link's href and image's src in the content (heading permalinks left out), in document order.

        A same-page '#part' counts as '<page url>#part': Hugo's link hook writes the page's URL in front,
        blogbuild leaves the fragment alone; a browser goes to the same place."""
        found = _HREF.findall(_PERMALINK.sub("", self.content))
        return tuple(self.url + link if link.startswith("#") else link for link in found)


def hugo_binary() -> str | None:
    """The hugo executable on PATH (the `hugo` package of the test extra installs it), or None."""
    return shutil.which("hugo")


def _utc(text: str) -> str:
    if not text:
        return ""
    return datetime.fromisoformat(text).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def build_with_hugo(site: Path, destination: Path) -> subprocess.CompletedProcess[str]:
    """Run hugo on the site with the oracle layouts; output goes to destination, the site folder is not written."""
    binary = hugo_binary()
    if binary is None:
        raise FileNotFoundError("hugo is not installed")
    command = [binary, "--source", str(site), "--destination", str(destination),
               "--themesDir", str(SUPPORT), "--theme", THEME_NAME, "--noBuildLock",
               "--cacheDir", str(destination.parent / "hugo-cache"), "--logLevel", "warn"]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)


def hugo_output(site: Path, tmp_path: Path) -> Path:
    """The folder Hugo wrote the site to, built from a copy (so the two tools never see each other's output)."""
    copy = tmp_path / f"{site.name}-hugo"
    shutil.copytree(site, copy)
    destination = tmp_path / f"{site.name}-hugo-public"
    completed = build_with_hugo(copy, destination)
    assert completed.returncode == 0, completed.stderr
    return destination


def hugo_records(destination: Path) -> dict[str, PageRecord]:
    """Every JSON page Hugo wrote (alias redirects and non-HTML files are left out), keyed by URL."""
    records: dict[str, PageRecord] = {}
    for path in sorted(destination.rglob("*.html")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:   # an alias page (a meta refresh), not a page of the site
            continue
        terms = {name: tuple(sorted(urls)) for name, urls in (data.get("terms") or {}).items()}
        members = tuple(sorted(data.get("regular_pages") or ())) if data["kind"] != "page" else ()
        if data["kind"] == "taxonomy":
            members = tuple(sorted(data.get("pages") or ()))
        records[data["url"]] = PageRecord(
            url=data["url"], kind=data["kind"], title=data["title"], description=data.get("description") or "",
            date=_utc(data.get("date") or "") if data["kind"] == "page" else "", content=data.get("content") or "",
            terms=terms, members=members, layout=data.get("layout") or "")
    return records


def html_pages(destination: Path) -> list[str]:
    """The URL of every index.html below destination ('/posts/x/'), sorted."""
    urls = []
    for path in destination.rglob("index.html"):
        relative = path.parent.relative_to(destination).as_posix()
        urls.append("/" if relative == "." else f"/{relative}/")
    return sorted(urls)


def blogbuild_records(site: Any) -> dict[str, PageRecord]:
    """The same records from blogbuild's Site model (what its templates see)."""
    records: dict[str, PageRecord] = {}
    taxonomy_urls = {taxonomy.name: taxonomy.url for taxonomy in site.taxonomies}
    from blogbuild.core.urls import urlize
    for post in site.pages:
        terms = {}
        for name, url in taxonomy_urls.items():
            values = post.taxonomy_values(name)
            if values:
                terms[name] = tuple(sorted({f"{url}{urlize(value)}/" for value in values}))
        date = post.date.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if post.date else ""
        records[post.url] = PageRecord(post.url, "page", post.title, post.description, date, post.content_html,
                                       terms, layout=str(post.params.get("layout", "") or ""))
    for section in site.sections:
        members = tuple(sorted(post.url for post in section.posts))   # every post below the folder
        records[section.url] = PageRecord(section.url, "section", section.title,
                                          section.description,
                                          content=section.content_html, members=members)
    records["/"] = PageRecord("/", "home", site.config.title, members=tuple(sorted(post.url for post in site.pages)))
    for taxonomy in site.taxonomies:
        records[taxonomy.url] = PageRecord(taxonomy.url, "taxonomy", taxonomy.title,
                                           members=tuple(sorted(term.url for term in taxonomy.terms)))
        for term in taxonomy.terms:
            records[term.url] = PageRecord(term.url, "term", term.title or term.name,
                                           term.description, content=term.content_html,
                                           members=tuple(sorted(post.url for post in term.posts)))
    return records


def build_with_blogbuild(site: Path) -> Any:
    """Build the site in-process with blogbuild (its own config reading) and return the BuildResult.

    Math stays TeX (math_render: browser), as Hugo's passthrough leaves it, so the pages' text compares."""
    from blogbuild.pipeline import build
    from blogbuild.config import load_config
    return build(load_config(root=site, overrides={"math_render": "browser"}), jobs=1)


def differences(hugo: Mapping[str, PageRecord], ours: Mapping[str, PageRecord],
                fields: Iterable[str]) -> list[str]:
    """One line per page field that differs between the two tools, for every URL both publish."""
    lines = []
    for url in sorted(set(hugo) & set(ours)):
        for name in fields:
            theirs, mine = getattr(hugo[url], name), getattr(ours[url], name)
            if theirs != mine:
                lines.append(f"{url} {name}: hugo {theirs!r} != blogbuild {mine!r}")
    return lines
