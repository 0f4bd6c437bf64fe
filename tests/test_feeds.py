"""Feeds: RSS, Atom and JSON Feed 1.1 for the site, sections and terms; full or summary content."""
from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import feedparser
import pytest
from hypothesis import given, settings, strategies as st

from blogbuild.cli import main
from blogbuild.config import config_from_mapping
from blogbuild.publish.feeds import absolute_links, readable_math

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "feeds"
BASE_URL = "https://example.org/blog/"

SITE = {
    "blogbuild.yaml": f"title: Feeds\nbase_url: {BASE_URL}\nauthor: Ada\nfeed_content: full\n",
    "content/posts/_index.md": "---\ntitle: Posts\n---\n",
    "content/posts/links.md": (
        "---\ntitle: Links and math\ndate: 2025-03-02T09:00:00+08:00\ntags: [infra]\n---\n"
        "First paragraph with $O(n^2)$ math.\n\n<!--more-->\n\n"
        "See [the other post](/posts/other/), [a relative one](../other/), [a note](#note) and "
        "[mail](mailto:a@example.org).\n\n![chart](chart.png)\n\n$$\\sum_i x_i$$\n"
    ),
    "content/posts/other.md": (
        "---\ntitle: 另一篇\ndate: 2025-01-01T08:00:00+08:00\nlastmod: 2025-02-01T08:00:00+08:00\n"
        "tags: [infra]\nseries: [serving]\n---\n正文。\n"
    ),
    "content/posts/bundle/index.md": "---\ntitle: Bundle\ndate: 2024-01-05\n---\n![pic](pic.png)\n",
    "content/posts/bundle/pic.png": b"not really a png",
}


def build(root: Path, *args: str) -> int:
    return main(["build", "--root", str(root), "--quiet", *args])


def json_feed_problems(document: Any) -> list[str]:
    """What breaks JSON Feed 1.1's rules (https://jsonfeed.org/version/1.1): required fields and types."""
    problems = []
    if not isinstance(document, dict):
        return ["the top level is not an object"]
    if document.get("version") != "https://jsonfeed.org/version/1.1":
        problems.append(f"version is {document.get('version')!r}")
    if not isinstance(document.get("title"), str) or not document["title"]:
        problems.append("title missing")
    for name in ("home_page_url", "feed_url"):
        if name in document and not str(document[name]).startswith(("http://", "https://")):
            problems.append(f"{name} is not absolute")
    if not isinstance(document.get("items"), list):
        return problems + ["items is not an array"]
    for index, item in enumerate(document["items"]):
        if not isinstance(item.get("id"), str) or not item["id"]:
            problems.append(f"item {index}: id missing")
        if not isinstance(item.get("content_html"), str) and not isinstance(item.get("content_text"), str):
            problems.append(f"item {index}: neither content_html nor content_text")
        for name in ("date_published", "date_modified"):
            if name in item:
                try:
                    datetime.fromisoformat(item[name])
                except ValueError:
                    problems.append(f"item {index}: {name} {item[name]!r} is not RFC 3339")
        if "tags" in item and not all(isinstance(tag, str) for tag in item["tags"]):
            problems.append(f"item {index}: tags are not strings")
    return problems


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from conftest import write_files
    root = write_files(tmp_path_factory.mktemp("feeds"), SITE)
    assert build(root) == 0
    return root / "public"


FOLDERS = ["", "posts/", "tags/infra/", "series/serving/"]


@pytest.mark.parametrize("folder", FOLDERS)
def test_atom_and_rss_parse_cleanly_for_every_list(public, folder):
    """feedparser reads the RSS and Atom of the site, a section and terms without complaint."""
    for name, version in (("index.xml", "rss20"), ("atom.xml", "atom10")):
        parsed = feedparser.parse((public / folder / name).read_bytes())
        assert not parsed.bozo, (folder + name, parsed.get("bozo_exception"))
        assert parsed.version == version
        assert parsed.entries
        for entry in parsed.entries:
            assert entry.title and entry.link.startswith(BASE_URL)
            assert entry.get("id", entry.link).startswith(BASE_URL)
        if version == "atom10":
            assert parsed.feed.updated and parsed.feed.id and parsed.feed.author == "Ada"
            assert all(entry.get("updated") for entry in parsed.entries)


@pytest.mark.parametrize("folder", FOLDERS)
def test_json_feed_has_json_feed_1_1_required_fields(public, folder):
    """Every feed.json follows the spec's required fields, and lists the same posts as the RSS."""
    document = json.loads((public / folder / "feed.json").read_text(encoding="utf-8"))
    assert json_feed_problems(document) == []
    assert document["feed_url"] == BASE_URL + folder + "feed.json"
    rss = feedparser.parse((public / folder / "index.xml").read_bytes())
    assert [item["url"] for item in document["items"]] == [entry.link for entry in rss.entries]


def test_the_json_feed_check_catches_broken_documents():
    """The check above fails on what the spec forbids (so a pass means something)."""
    assert json_feed_problems({"version": "https://jsonfeed.org/version/1", "items": [{}]}) == [
        "version is 'https://jsonfeed.org/version/1'", "title missing", "item 0: id missing",
        "item 0: neither content_html nor content_text"]
    assert json_feed_problems({"version": "https://jsonfeed.org/version/1.1", "title": "t", "feed_url": "/x",
                               "items": [{"id": "a", "content_text": "", "date_published": "May 5"}]}) == [
        "feed_url is not absolute", "item 0: date_published 'May 5' is not RFC 3339"]


def test_full_content_has_absolute_links_and_readable_math(public):
    """feed_content: full carries the whole post; every link and image resolves without the page."""
    parsed = feedparser.parse((public / "atom.xml").read_bytes())
    entry = next(entry for entry in parsed.entries if entry.title == "Links and math")
    html = entry.content[0].value
    assert "the other post" in html and 'href="https://example.org/blog/posts/other/"' in html
    assert 'src="https://example.org/blog/posts/links/chart.png"' in html
    assert 'href="https://example.org/blog/posts/links/#note"' in html
    assert 'href="mailto:a@example.org"' in html
    # Math typeset at build time reaches the feed as MathML alone (with its TeX as the annotation).
    assert "katex-html" not in html
    assert '<annotation encoding="application/x-tex">O(n^2)</annotation>' in html
    assert '<annotation encoding="application/x-tex">\\sum_i x_i</annotation>' in html
    links = re.findall(r'(?:href|src)="([^"]*)"', html)
    assert links and all(link.startswith(("https://", "mailto:")) for link in links), links
    document = json.loads((public / "feed.json").read_text(encoding="utf-8"))
    item = next(item for item in document["items"] if item["title"] == "Links and math")
    assert re.findall(r'(?:href|src)="([^"]*)"', item["content_html"]) == links and "summary" not in item


def test_summary_is_the_default(make_site):
    """Without feed_content the items carry the summary, in <summary> for Atom."""
    root = make_site({**SITE, "blogbuild.yaml": f"title: Feeds\nbase_url: {BASE_URL}\n"})
    assert build(root) == 0
    parsed = feedparser.parse((root / "public" / "atom.xml").read_bytes())
    entry = next(entry for entry in parsed.entries if entry.title == "Links and math")
    assert "First paragraph" in entry.summary and "the other post" not in entry.summary
    assert "content" not in entry
    rss = (root / "public" / "index.xml").read_text(encoding="utf-8")
    assert "the other post" not in rss and "First paragraph" in rss


def test_head_links_every_feed(public):
    """The home page names the site's three feeds; a term page adds its own three."""
    home = (public / "index.html").read_text(encoding="utf-8")
    alternates = re.findall(r'<link rel="alternate" type="([^"]+)"[^>]*href="([^"]+)"', home)
    assert alternates == [("application/rss+xml", "/blog/index.xml"), ("application/atom+xml", "/blog/atom.xml"),
                          ("application/feed+json", "/blog/feed.json")]
    term = (public / "tags" / "infra" / "index.html").read_text(encoding="utf-8")
    hrefs = re.findall(r'<link rel="alternate" type="[^"]+"[^>]*href="([^"]+)"', term)
    assert hrefs[3:] == ["/blog/tags/infra/index.xml", "/blog/tags/infra/atom.xml", "/blog/tags/infra/feed.json"]
    for href in hrefs:
        assert (public / href.removeprefix("/blog/")).is_file()


def test_feeds_setting_chooses_the_formats(make_site):
    """feeds: [atom] publishes Atom only, and the head links only it."""
    root = make_site({**SITE, "blogbuild.yaml": f"title: Feeds\nbase_url: {BASE_URL}\nfeeds: [atom]\n"})
    assert build(root) == 0
    public = root / "public"
    assert (public / "atom.xml").is_file() and (public / "posts" / "atom.xml").is_file()
    assert not (public / "index.xml").exists() and not (public / "feed.json").exists()
    home = (public / "index.html").read_text(encoding="utf-8")
    assert "application/rss+xml" not in home and 'href="/blog/atom.xml"' in home


@pytest.mark.parametrize("text, message", [
    ("feed_content: everything\n", "blogbuild.yaml:2: config: feed_content must be summary or full"),
    ("feeds: [rss, rdf]\n", "blogbuild.yaml:2: config: feeds must be a list of rss, atom and json"),
])
def test_bad_feed_settings_name_the_line(make_site, capsys, text, message):
    """A wrong value is an error at the config's line, with the choices."""
    root = make_site({**SITE, "blogbuild.yaml": "title: Feeds\n" + text})
    assert build(root) != 0
    assert message in capsys.readouterr().err


def test_katex_output_keeps_mathml_and_drops_the_visual_markup():
    """KaTeX's own output (0.19.1, htmlAndMathml): the feed keeps <math> and loses katex-html entirely."""
    html = (FIXTURES / "katex_0.19.1.html").read_text(encoding="utf-8")
    assert html.count('class="katex-html"') == 2
    readable = readable_math(html)
    assert "katex-html" not in readable and "vlist" not in readable and "<svg" not in readable
    assert readable.count("<math") == 2 and r"\frac{a}{b}" in readable
    assert readable.count("<span") == readable.count("</span>")
    assert readable.endswith("<p>after</p>\n") and readable.startswith("<p>Inline <span class=\"katex\">")


def test_build_time_katex_as_the_build_wraps_it():
    """The build's typeset element (data-math-rendered around KaTeX's output) keeps only the MathML; a formula
    KaTeX rejected (math-error) is delimited TeX like client-side math."""
    katex = (FIXTURES / "katex_0.19.1.html").read_text(encoding="utf-8").split("<p>after</p>")[0]
    katex_span = katex[katex.index('<span class="katex">'):katex.index(" and display")]
    html = (f'<p><span class="math inline" data-math-rendered="">{katex_span}</span> and '
            '<span class="math inline math-error">\\bad{</span></p>')
    readable = readable_math(html)
    assert "katex-html" not in readable and readable.count("<math") == 1
    assert readable.endswith('<span class="math inline math-error">\\(\\bad{\\)</span></p>')


def test_client_math_gets_delimiters():
    """Math left for the browser is TeX between \\( \\) or \\[ \\], readable as text."""
    html = '<p><span class="math inline">a&lt;b</span></p>\n<div class="math display">x^2</div>\n'
    assert readable_math(html) == ('<p><span class="math inline">\\(a&lt;b\\)</span></p>\n'
                                   '<div class="math display">\\[x^2\\]</div>\n')


def test_absolute_links_cases():
    """Relative, root-relative, fragment and srcset urls resolve against the page; others stay."""
    page = "https://example.org/blog/posts/a/"
    html = ('<a href="b/">b</a><a href=\'/blog/c/\'>c</a><a href="#x">x</a><img src="i.png" '
            'srcset="i-480.webp 480w, /blog/i-960.webp 960w"><a href="https://other.org/">o</a>'
            '<img src="data:image/png;base64,AA==">')
    assert absolute_links(html, page) == (
        '<a href="https://example.org/blog/posts/a/b/">b</a><a href=\'https://example.org/blog/c/\'>c</a>'
        '<a href="https://example.org/blog/posts/a/#x">x</a><img src="https://example.org/blog/posts/a/i.png" '
        'srcset="https://example.org/blog/posts/a/i-480.webp 480w, https://example.org/blog/i-960.webp 960w">'
        '<a href="https://other.org/">o</a><img src="data:image/png;base64,AA==">')


def test_config_defaults():
    """Summary content and all three formats unless the site says otherwise."""
    config = config_from_mapping({})
    assert config.feed_content == "summary" and config.feeds == ("rss", "atom", "json")
    assert config_from_mapping({"feeds": "json"}).feeds == ("json",)


# feeds.py writes its own XML escaping and RFC 822 dates (the standard library's pull urllib.request, ssl and
# the email package into every build's start); they must give exactly what the standard library gives.


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*"ab &<>\"'\n\r\t;#中\u2028", "&amp;", "&#10;"])).map("".join))
def test_xml_escaping_is_the_standard_librarys(text: str):
    from xml.sax.saxutils import escape, quoteattr as standard_quoteattr

    from blogbuild.publish.feeds import quoteattr, xml_escape
    assert xml_escape(text) == escape(text)
    assert quoteattr(text) == standard_quoteattr(text)


@settings(max_examples=300, deadline=None)
@given(st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31),
                    timezones=st.none() | st.timezones()))
def test_rfc822_dates_are_the_standard_librarys(moment: datetime):
    from email.utils import format_datetime as standard_format_datetime

    from blogbuild.publish.feeds import format_datetime
    assert format_datetime(moment) == standard_format_datetime(moment)
