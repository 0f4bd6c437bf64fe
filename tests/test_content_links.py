"""Links written as content paths resolve to the target's URL, as Hugo's link hook resolves them."""
from __future__ import annotations

from pathlib import Path

from blogbuild.cli import main

FILES = {
    "blogbuild.yaml": "title: T\nbase_url: https://example.org/blog/\n",
    "content/posts/a.md": ("---\ntitle: A\n---\nSee [b](b.md), [the bundle](bundle/index.md#part), [its data](bundle/data.csv),\n"
                           "[posts](_index.md), [by folder](bundle/) and [home-relative](/posts/b.md?x=1).\n\n"
                           "[nowhere](missing.md) and [site page](https://example.com/x.md) and [anchor](#top).\n"),
    "content/posts/_index.md": "---\ntitle: Posts\n---\n",
    "content/posts/b.md": "---\ntitle: B\n---\nBack to [a](./a.md).\n",
    "content/posts/bundle/index.md": "---\ntitle: Bundle\n---\n![d](d.svg) and [b](../b.md)\n\n## Part\n",
    "content/posts/bundle/data.csv": "a,b\n",
    "content/posts/bundle/d.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n",
}


def _content(site: Path, url: str) -> str:
    return (site / "public" / url.strip("/") / "index.html").read_text(encoding="utf-8")


def test_md_links_and_bundle_files_resolve_under_the_base_path(make_site, capsys) -> None:
    site = make_site(FILES)
    assert main(["build", "--root", str(site), "--no-cache", "--jobs", "1"]) == 0
    page = _content(site, "/posts/a/")
    for href in ('href="/blog/posts/b/"', 'href="/blog/posts/bundle/#part"', 'href="/blog/posts/bundle/data.csv"',
                 'href="/blog/posts/"', 'href="/blog/posts/bundle/"', 'href="/blog/posts/b/?x=1"',
                 'href="missing.md"', 'href="https://example.com/x.md"', 'href="#top"'):
        assert href in page, href
    assert 'href="/blog/posts/a/"' in _content(site, "/posts/b/")
    bundle = _content(site, "/posts/bundle/")
    assert 'src="/blog/posts/bundle/d.svg"' in bundle and 'href="/blog/posts/b/"' in bundle
    err = capsys.readouterr().err
    assert "content/posts/a.md:7: warning: link to missing.md" in err


def test_a_link_to_nothing_is_an_error_under_strict(make_site) -> None:
    site = make_site(FILES)
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1", "--strict"]) == 1
