"""Links written as content paths ('other.md', '../dir/index.md#part', 'bundle/data.csv'), resolved to the
target's URL as Hugo's embedded link and image render hooks resolve them; a `.md` link to nothing is reported.

Part of the links stage (after every post is known, before the site is assembled); pure functions over the
posts' HTML, so the stage stays testable with strings.
"""
from __future__ import annotations

import html as html_lib
import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import unquote

from ..core.model import Post
from ..core.records import dataclass
_LINK_ATTRIBUTE = re.compile(r'(<a\s[^>]*?\bhref|<img\s[^>]*?\bsrc)="([^"]*)"')
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.\-]*:")


@dataclass(frozen=True)
class ContentPaths:
    """Where every content file is published: pages (posts, sections, terms) and bundle files."""

    pages: Mapping[str, str]        # content path ('posts/x.md') -> site-relative URL
    resources: Mapping[str, str]    # bundle file ('posts/x/a.png') -> site-relative URL
    # URLs on the host of bundle files another language's page publishes (Post.shared_files_at): not rebased.
    elsewhere: frozenset[str] = frozenset()


def content_paths(posts: Iterable[Post], config: Any = None) -> ContentPaths:
    """The content path -> URL tables of every page and bundle file; in a multilingual site a file named for
    another language is not this language's, one named for it also answers to the name without it (map.fr.png
    for map.png), and a shared one another language's page publishes is at that page's URL."""
    from ..core.bundle_files import file_language
    pages: dict[str, str] = {}
    resources: dict[str, str] = {}
    elsewhere: set[str] = set()
    language = getattr(config, "language", "")
    for post in posts:
        pages[post.rel_path] = post.url
        folder = post.rel_path.rsplit("/", 1)[0] + "/"
        for resource in post.resources:
            named = file_language(resource, config) if config is not None and language else ""
            if named and named != language:
                continue
            url = post.url + resource[len(folder):]
            if named:   # map.fr.png, the French page's map.png
                stem, _, suffix = resource.rpartition(".")
                resources.setdefault(f"{stem.rpartition('.')[0]}.{suffix}", url)
            elif post.shared_files_at:
                url = post.shared_files_at + resource[len(folder):]
                elsewhere.add(url)
            resources[resource] = url
    return ContentPaths(pages, resources, frozenset(elsewhere))


def content_target(target: str, rel_path: str, paths: ContentPaths) -> tuple[str | None, bool]:
    """(URL, names a page file) for a link written in the content file rel_path: a page by its file
    ('other.md', '../dir/index.md#part', '/posts/x.md'), by its folder ('dir/x/'), or a bundle file, found
    relative to the file's folder as Hugo's link hook finds them. URL None: the link is left as written."""
    if not target or target.startswith(("#", "//")) or _SCHEME.match(target):
        return None, False
    path, _, fragment = target.partition("#")
    path, _, query = path.partition("?")
    names_markdown = path.lower().endswith((".md", ".markdown"))
    folder = rel_path.rsplit("/", 1)[0] if "/" in rel_path else ""
    written = unquote(path)
    joined = posixpath.normpath(written.lstrip("/") if written.startswith("/") else posixpath.join(folder, written))
    if joined.startswith("..") or joined == ".":
        return None, names_markdown
    url = paths.resources.get(joined)
    if url is None:
        stem = joined[:-3] if joined.endswith(".md") else joined
        for candidate in (joined, f"{stem}.md", f"{stem}/index.md", f"{stem}/_index.md"):
            url = paths.pages.get(candidate)
            if url is not None:
                break
    if url is None:
        return None, names_markdown
    return url + (f"?{query}" if query else "") + (f"#{fragment}" if fragment else ""), names_markdown


def resolve_content_links(html: str, rel_path: str, paths: ContentPaths,
                          attributes: tuple[str, ...] = ("href", "src")) -> tuple[str, tuple[str, ...]]:
    """The HTML with every content-path link (<a href>, <img src>: attributes) replaced by its URL, and the `.md`
    targets that name no page."""
    missing: list[str] = []

    def replace_one(match: re.Match[str]) -> str:
        if ("href" if match.group(1).startswith("<a") else "src") not in attributes:
            return match.group(0)
        written = html_lib.unescape(match.group(2))
        url, names_markdown = content_target(written, rel_path, paths)
        if url is None:
            if names_markdown and match.group(1).startswith("<a"):
                missing.append(written)
            return match.group(0)
        return f'{match.group(1)}="{html_lib.escape(url)}"'

    if 'href="' not in html and 'src="' not in html:
        return html, ()
    return _LINK_ATTRIBUTE.sub(replace_one, html), tuple(missing)


# A link that may name a content path: relative (not '#x', not a scheme) or root-relative to a markdown file.
_CANDIDATE = re.compile(r'(?:href|src)="(?!#|//|[a-zA-Z][a-zA-Z0-9+.\-]*:)(?:[^"/][^"]*|/[^"]*\.(?:md|markdown)\b[^"]*)"')


# The other links the links stage (links.py) rewrites: ref/relref shortcodes' markers, and root-relative
# href/src (rebased under the site's base path).
REF_MARKER = "bbref:"     # "{{bbref:", or its braces percent-encoded where a link's destination holds it
PAGE_MARKER = "bbref~"   # a page content named while it rendered (core/page_lookups.MARKER_START)
# \b(href|src)="/(?!/), its boundary asked after the name: a pattern that starts with the names is looked
# for by their first characters, one that starts with \b at every character of the page (3x the time).
ROOT_LINK = re.compile(r'(href(?<!\whref)|src(?<!\wsrc))="/(?!/)')


def has_links_to_rewrite(html: str) -> bool:
    """Whether the links stage may have anything to do in this HTML (Post.has_links)."""
    return REF_MARKER in html or PAGE_MARKER in html or ROOT_LINK.search(html) is not None \
        or has_content_links(html)


def has_content_links(html: str) -> bool:
    """Whether the HTML has a link this stage may rewrite (a quick scan; most posts have none)."""
    return _CANDIDATE.search(html) is not None


def link_line(text: str, target: str) -> int:
    """The line of the source text where a link to target is written (1 when it cannot be found)."""
    for needle in (f"]({target}", f"]: {target}", f'"{target}"', target):
        position = text.find(needle)
        if position >= 0:
            return text.count("\n", 0, position) + 1
    return 1
