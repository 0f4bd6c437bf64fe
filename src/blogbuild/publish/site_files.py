"""The site-wide data files: sitemap.xml, robots.txt and the search index (whole, or sharded in search/)."""
from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from functools import partial
from typing import Any

from ..config import SiteConfig
from ..core.fingerprint import fingerprint_of
from ..core.model import Post, Site
from .feeds import xml_escape
from .outputs import PlannedData


def sitemap(site: Site) -> bytes:
    """sitemap.xml: every published page, list and term page, with lastmod where known."""
    config = site.config
    entries: list[tuple[str, datetime | None]] = [("/", site.posts[0].date if site.posts else None)]
    entries += [(post.url, post.lastmod or post.date) for post in site.pages]
    entries += [(section.url, None) for section in site.sections]
    for taxonomy in site.taxonomies:
        entries.append((taxonomy.url, None))
        entries += [(term.url, None) for term in taxonomy.terms]
    entries.append(("/archives/", None))
    seen = set()
    lines = ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n']
    for url, modified in entries:
        if url in seen:
            continue
        seen.add(url)
        lines.append(f"<url><loc>{xml_escape(config.absolute_url(url))}</loc>")
        if modified is not None:
            lines.append(f"<lastmod>{modified.isoformat()}</lastmod>")
        lines.append("</url>\n")
    lines.append("</urlset>\n")
    return "".join(lines).encode("utf-8")


def robots(config: SiteConfig) -> bytes:
    """robots.txt allowing everything and naming the sitemap."""
    return f"User-agent: *\nAllow: /\nSitemap: {config.absolute_url('/sitemap.xml')}\n".encode("utf-8")


def search_entry(post: Post, config: SiteConfig) -> dict[str, Any]:
    """One object of /index.json."""
    return {"title": post.title, "date": post.date_text, "permalink": config.absolute_url(post.url),
            "tags": list(post.tags), "categories": list(post.categories), "series": list(post.series),
            "summary": post.summary_text, "content": post.plain_text}


def search_index(site: Site, memo: dict | None = None, *, edited: Sequence[Post] = ()) -> bytes:
    """/index.json: one object per published listed post, newest first.

    Each post's JSON is kept in memo by fingerprint, so a one-post edit re-encodes one entry; the result
    is byte for byte json.dumps of the whole list."""
    memo = memo if memo is not None else {}

    def encode(post: Post) -> bytes:
        key = ("search", post.fingerprint, site.config.base_url)
        fragment = memo.get(key)
        if fragment is None:
            fragment = json.dumps(search_entry(post, site.config), ensure_ascii=False,
                                  separators=(",", ":")).encode("utf-8")
            memo[key] = fragment
        return fragment

    last = memo.get(("search-list", "", ""))
    if edited and last is not None and len(last[0]) == len(site.posts):
        # Same posts in the same order (a body edit): replace the edited entries in the last list.
        positions, fragments = last
        for post in edited:
            if post.url in positions:
                fragments[positions[post.url]] = encode(post)
    else:
        fragments = [encode(post) for post in site.posts]
        positions = {post.url: index for index, post in enumerate(site.posts)}
    memo[("search-list", "", "")] = (positions, fragments)
    if not fragments:
        return b"[]"
    # One join, brackets folded into the end entries: the index is tens of megabytes at 10,000 posts.
    parts = list(fragments)
    parts[0], parts[-1] = b"[" + parts[0], parts[-1] + b"]"
    if len(parts) == 1:
        parts[0] = b"[" + fragments[0] + b"]"
    return b",".join(parts)


def search_files(site: Site, memo: dict, changed: Sequence[Post] | None = None) -> list[PlannedData] | None:
    """search/: the meta file, every shard (keyed by its digest: a shard no post of an edit is in is not
    written again) and the text chunks of every post (of the changed posts only, after a body edit). None
    when an edited post's text now has another number of chunks: only a whole plan removes the chunks it
    no longer has. The index is made here, from the last build's where the posts are the same."""
    from .search_index import SearchIndex, chunk_file, chunk_paths, shard_path
    config = site.config
    counts: dict[str, int] = {} if changed is None else dict(memo.get(("search-chunks", "", "")) or {})
    if changed is not None and any(len(chunk_paths(post)) != counts.get(post.url) for post in changed):
        return None
    last = memo.get(("search-index", "", config.base_url))
    index = SearchIndex.of(site.posts, config, last if isinstance(last, SearchIndex) else None)
    memo[("search-index", "", config.base_url)] = index
    data = [PlannedData("search/meta.json", lambda: index.meta, fingerprint_of("search-meta", index.meta.decode()))]
    data += [PlannedData(shard_path(number), partial(index.shard, number), version)
             for number, version in enumerate(index.versions)]
    for post in site.posts if changed is None else changed:
        paths = chunk_paths(post)
        counts[post.url] = len(paths)
        data += [PlannedData(path, partial(chunk_file, post, number), fingerprint_of(post.fingerprint, path))
                 for number, path in enumerate(paths)]
    memo[("search-chunks", "", "")] = counts
    return data
