"""The site-wide data files: sitemap.xml, robots.txt and the search index (whole, or sharded in search/)."""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import field
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from ..config import SiteConfig
from ..core.fingerprint import fingerprint_of
from ..core.model import Post, Site
from .feeds import xml_escape
from .outputs import PlannedData
from ..core.records import dataclass

if TYPE_CHECKING:
    from .search_index import SearchIndex


@dataclass
class SearchMemo:
    """What the search outputs keep from one build to the next (in the process, and in the saved state of a
    build): each post's entry of index.json, the last whole list, the last sharded index and each post's
    number of text chunks. A one-post edit then encodes one entry and indexes one post."""

    entries: dict[tuple[str, str], bytes] = field(default_factory=dict)   # (post fingerprint, base URL) -> JSON
    listed: tuple[dict[str, int], list[bytes]] | None = None   # the last index.json: position by URL, entries
    index: SearchIndex | None = None                          # the last sharded index, for index_base_url
    index_base_url: str = ""
    chunk_counts: dict[str, int] = field(default_factory=dict)   # post URL -> its number of text chunks

    def keep_posts(self, fingerprints: Iterable[str]) -> None:
        """Forget the entries of every post version but these (the posts of the site just built)."""
        keep = set(fingerprints)
        self.entries = {key: entry for key, entry in self.entries.items() if key[0] in keep}

    def forget_posts(self, fingerprints: Iterable[str]) -> None:
        """Forget the entries of these post versions (replaced by an edit)."""
        stale = set(fingerprints)
        for key in [key for key in self.entries if key[0] in stale]:
            del self.entries[key]


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
    """robots.txt allowing everything and naming the sitemap at the top of the site (a multilingual site's index
    of its languages' sitemaps, where the default language's config has its pages in a folder)."""
    prefix = config.language_folder
    top = config.base_url[:-len(prefix)] if prefix and config.base_url.endswith(prefix) else config.base_url
    return f"User-agent: *\nAllow: /\nSitemap: {top.rstrip('/')}/sitemap.xml\n".encode("utf-8")


def search_entry(post: Post, config: SiteConfig) -> dict[str, Any]:
    """One object of /index.json."""
    return {"title": post.title, "date": post.date_text, "permalink": config.absolute_url(post.url),
            "tags": list(post.tags), "categories": list(post.categories), "series": list(post.series),
            "summary": post.summary_text, "content": post.plain_text}


def search_index(site: Site, memo: SearchMemo | None = None, *, edited: Sequence[Post] = ()) -> bytes:
    """/index.json: one object per published listed post, newest first.

    Each post's JSON is kept in memo by fingerprint, so a one-post edit re-encodes one entry; the result
    is byte for byte json.dumps of the whole list."""
    memo = memo if memo is not None else SearchMemo()
    entries = memo.entries

    def encode(post: Post) -> bytes:
        key = (post.fingerprint, site.config.base_url)
        fragment = entries.get(key)
        if fragment is None:
            fragment = json.dumps(search_entry(post, site.config), ensure_ascii=False,
                                  separators=(",", ":")).encode("utf-8")
            entries[key] = fragment
        return fragment

    last = memo.listed
    if edited and last is not None and len(last[0]) == len(site.posts):
        # Same posts in the same order (a body edit): replace the edited entries in the last list.
        positions, fragments = last
        for post in edited:
            if post.url in positions:
                fragments[positions[post.url]] = encode(post)
    else:
        fragments = [encode(post) for post in site.posts]
        positions = {post.url: index for index, post in enumerate(site.posts)}
    memo.listed = (positions, fragments)
    if not fragments:
        return b"[]"
    # One join, brackets folded into the end entries: the index is tens of megabytes at 10,000 posts.
    parts = list(fragments)
    parts[0], parts[-1] = b"[" + parts[0], parts[-1] + b"]"
    if len(parts) == 1:
        parts[0] = b"[" + fragments[0] + b"]"
    return b",".join(parts)


def search_files(site: Site, memo: SearchMemo, changed: Sequence[Post] | None = None) -> list[PlannedData] | None:
    """search/: the meta file, every shard (keyed by its digest: a shard no post of an edit is in is not
    written again) and the text chunks of every post (of the changed posts only, after a body edit). None
    when an edited post's text now has another number of chunks: only a whole plan removes the chunks it
    no longer has. The index is made here, from the last build's where the posts are the same."""
    from .search_index import SearchIndex, chunk_file, chunk_paths, shard_path
    config = site.config
    counts: dict[str, int] = {} if changed is None else dict(memo.chunk_counts)
    if changed is not None and any(len(chunk_paths(post)) != counts.get(post.url) for post in changed):
        return None
    last = memo.index if memo.index_base_url == config.base_url else None
    index = SearchIndex.of(site.posts, config, last)
    memo.index, memo.index_base_url = index, config.base_url
    data = [PlannedData("search/meta.json", lambda: index.meta, fingerprint_of("search-meta", index.meta.decode()))]
    data += [PlannedData(shard_path(number), partial(index.shard, number), version)
             for number, version in enumerate(index.versions)]
    for post in site.posts if changed is None else changed:
        paths = chunk_paths(post)
        counts[post.url] = len(paths)
        data += [PlannedData(path, partial(chunk_file, post, number), fingerprint_of(post.fingerprint, path))
                 for number, path in enumerate(paths)]
    memo.chunk_counts = counts
    return data
