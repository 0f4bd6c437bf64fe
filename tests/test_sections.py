"""Every page kind Hugo publishes: nested sections, term-only pages, PaperMod's archives and search layout pages."""
from __future__ import annotations

from pathlib import Path

from blogbuild.cli import main


def _page(site: Path, url: str) -> str:
    return (site / "public" / url.strip("/") / "index.html").read_text(encoding="utf-8")


FILES = {
    "blogbuild.yaml": "title: T\nbase_url: https://example.org/\n",
    "content/posts/_index.md": "---\ntitle: Writing\n---\n",
    "content/posts/top.md": "---\ntitle: Top\ndate: 2024-01-01\n---\nTop.\n",
    "content/posts/systems/_index.md": "---\ntitle: Systems\ndescription: All about systems\n---\nSystems text.\n",
    "content/posts/systems/storage/_index.md": "---\ntitle: Storage\n---\n",
    "content/posts/systems/storage/lsm.md": "---\ntitle: LSM\ndate: 2024-02-01\ntags: [db]\n---\nTrees.\n",
    "content/posts/systems/net.md": "---\ntitle: Net\ndate: 2024-03-01\n---\nPackets.\n",
    "content/tags/_index.md": "---\ntitle: Topics\n---\n",
    "content/tags/consensus/_index.md": "---\ntitle: Consensus\n---\nNothing tagged yet.\n",
    "content/archives.md": "---\ntitle: Archive\nlayout: archives\nurl: /archives/\n---\nEvery post, by month.\n",
    "content/search.md": "---\ntitle: Find\nlayout: search\nplaceholder: type here\n---\n",
}


def test_nested_sections_have_list_pages_feeds_and_breadcrumbs(make_site) -> None:
    site = make_site(FILES)
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1"]) == 0
    storage = _page(site, "/posts/systems/storage/")
    assert "LSM" in storage and "Net" not in storage
    systems = _page(site, "/posts/systems/")
    assert "Systems text." in systems and "LSM" in systems and "Net" in systems and "Top" not in systems
    assert 'href="/posts/systems/storage/"' in systems   # the subsection is linked from its parent
    crumbs = storage.split('class="breadcrumbs"', 1)[1].split("</nav>", 1)[0]
    assert [name in crumbs for name in ("Writing", "Systems", "Storage")] == [True, True, True]
    post_crumbs = _page(site, "/posts/systems/storage/lsm/").split('class="breadcrumbs"', 1)[1].split("</nav>")[0]
    assert crumbs.index("Writing") < crumbs.index("Systems") and "Storage" in post_crumbs
    assert (site / "public/posts/systems/storage/index.xml").read_text(encoding="utf-8").count("<item>") == 1


def test_term_with_only_an_index_page_is_published(make_site) -> None:
    site = make_site(FILES)
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1"]) == 0
    assert "Nothing tagged yet." in _page(site, "/tags/consensus/")
    terms = _page(site, "/tags/")
    assert "Topics" in terms and 'href="/tags/consensus/"' in terms and 'href="/tags/db/"' in terms


def test_layout_pages_become_the_archives_and_search_pages(make_site) -> None:
    site = make_site(FILES)
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1"]) == 0
    archives = _page(site, "/archives/")
    assert "<h1>Archive</h1>" in archives and "Every post, by month." in archives and "LSM" in archives
    search = _page(site, "/search/")
    assert "<h1>Find</h1>" in search and 'placeholder="type here"' in search
    home = _page(site, "/")
    assert 'href="/archives/"' not in home.split("<main", 1)[1]   # a layout page is not a post in the lists


def test_layout_and_type_pick_the_sites_templates(make_site) -> None:
    site = make_site({
        "blogbuild.yaml": "title: T\n",
        "templates/wide.html": '{% extends "post.html" %}{% block content %}WIDE {{ post.title }}{% endblock %}',
        "templates/notes/single.html": "NOTE {{ post.title }}",
        "content/a.md": "---\ntitle: A\nlayout: wide\n---\nx\n",
        "content/b.md": "---\ntitle: B\ntype: notes\n---\nx\n",
        "content/c.md": "---\ntitle: C\nlayout: home\n---\nx\n",
    })
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1"]) == 0
    assert "WIDE A" in _page(site, "/a/")
    assert _page(site, "/b/") == "NOTE B"
    assert "<article" in _page(site, "/c/")   # layout: home is not the home page's template


def test_a_bundle_at_the_top_is_a_page_and_markdown_inside_a_bundle_is_no_page(make_site, capsys) -> None:
    """content/about/index.md is the page /about/ (no section of its own) with its files beside it; a folder
    with both index.md and _index.md is the leaf bundle, as in Hugo, and each file left out is a warning."""
    site = make_site({
        "blogbuild.yaml": "title: T\n",
        "content/about/index.md": "---\ntitle: About me\n---\nHello.\n",
        "content/about/photo.png": b"not really a png",
        "content/both/index.md": "---\ntitle: Both\n---\nLeaf.\n",
        "content/both/_index.md": "---\ntitle: Section\n---\n",
        "content/both/child.md": "---\ntitle: Child\n---\nx\n",
        "content/index.md": "---\ntitle: Root index\n---\nx\n",
    })
    assert main(["build", "--root", str(site), "--no-cache", "--jobs", "1"]) == 0
    assert "Hello." in _page(site, "/about/") and "Leaf." in _page(site, "/both/")
    assert (site / "public/about/photo.png").read_bytes() == b"not really a png"
    assert not (site / "public/about/index.xml").exists() and not (site / "public/both/child").exists()
    warnings = [line for line in capsys.readouterr().err.splitlines() if ": warning: " in line]
    assert [line.split(": warning: ")[0] for line in warnings] == [
        "content/both/_index.md:1", "content/both/child.md:1", "content/index.md:1"]
    assert "inside the leaf bundle of content/both/index.md" in warnings[1]
    assert "publishes it at /index/" in warnings[2]
