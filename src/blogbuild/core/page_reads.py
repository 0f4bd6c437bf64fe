"""What a page depends on of the site's posts, when its engine knows which posts' bodies a render read (a Hugo
site's own layouts, which may show anything of any page on every page).

A post is its front matter, file and URL (FRONT_FIELDS) and what its body makes (BODY_FIELDS: the content, the
summary, the text measures). Every page of such an engine depends on the front matter of every page (front_key),
and on the bodies of the posts its last render read (page_reads, kept with the page and checked by reads_hold):
an edit to one post's text makes again only the pages that showed it.
"""
from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping
from dataclasses import fields

from .fingerprint import fingerprint_of
from .model import Post, Site

# What a post's body makes; the rest of a Post is its front matter, file and URL.
BODY_FIELDS = frozenset({"packed_html", "toc", "summary_html", "truncated", "plain_text", "word_count",
                         "reading_minutes", "has_math", "has_mermaid", "has_code", "fingerprint", "summary_text",
                         "packed_marks", "has_images", "has_links", "page_store", "store_reads", "hook_replays",
                         "published_files", "hugo_text"})
FRONT_FIELDS = tuple(field.name for field in fields(Post) if field.name not in BODY_FIELDS)

Reads = tuple[str, str]   # (a digest of the bodies read, their posts' URLs a line each)
NOTHING_READ: Reads = (fingerprint_of(), "")   # what a data file (made by a function, not a render) read

# What front_key and bodies_of made of the last Site they were given: (a weak reference to it, its front key,
# its bodies), by its id (a Site is not hashable).
_KNOWN: dict[int, tuple["weakref.ref[Site]", str, dict[str, str]]] = {}


def _known(site: Site) -> tuple["weakref.ref[Site]", str, dict[str, str]]:
    known = _KNOWN.get(id(site))
    if known is not None and known[0]() is site:
        return known
    identity = id(site)
    _KNOWN.clear()   # one Site at a time: the last build's
    known = _KNOWN[identity] = (weakref.ref(site, lambda _: _KNOWN.pop(identity, None)), _front_key(site),
                                {post.url: post.fingerprint for post in site.pages})
    return known


def front_key(site: Site) -> str:
    """The front matter, file and URL of every page, the whole of every list's _index.md, and whether any page
    has math (the site then publishes KaTeX, which every page may load); worked out once a Site."""
    return _known(site)[1]


def bodies_of(site: Site) -> dict[str, str]:
    """Each page's body as reads are checked against it: URL -> its post's fingerprint (once a Site)."""
    return _known(site)[2]


def _front_key(site: Site) -> str:
    indexes = [site.home, *(section.index for section in site.sections),
               *(taxonomy.index for taxonomy in site.taxonomies),
               *(term.index for taxonomy in site.taxonomies for term in taxonomy.terms)]
    return fingerprint_of(str(any(post.has_math for post in site.pages)),
                          *(post_front_key(post) for post in site.pages),
                          *(index.fingerprint for index in indexes if index is not None))


def post_front_key(post: Post) -> str:
    """A post's front matter, file and URL: every field of it but what its body makes."""
    return fingerprint_of(*(repr(getattr(post, name)) for name in FRONT_FIELDS))


def page_reads(urls: Iterable[str], bodies: Mapping[str, str]) -> Reads:
    """What a render read, as it is kept: (a digest of those posts' bodies, their URLs a line each)."""
    listed = "\n".join(sorted(urls))
    return _digest(listed, bodies), listed


def reads_hold(reads: Reads | None, bodies: Mapping[str, str]) -> bool:
    """Whether no post whose body the render read has changed since (False when nothing was kept)."""
    return reads is not None and reads[0] == _digest(reads[1], bodies)


def _digest(listed: str, bodies: Mapping[str, str]) -> str:
    return fingerprint_of(*(bodies.get(url, "\0gone") for url in listed.split("\n") if url))
