"""The links stage, between posts and site: ref/relref markers and links written as content paths
(`other.md`, a bundle's files) become URLs, root-relative links get the base path.

A post's markdown pass leaves `{{bbref:LINE:TARGET}}` markers where a ref shortcode names another page; only
once every post is known can a target be found. Errors are returned as values, one per unknown target; a
`.md` link to nothing is a warning.
"""
from __future__ import annotations

import functools
import re
from dataclasses import field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..config import SiteConfig
from .content_links import PAGE_MARKER, REF_MARKER, ROOT_LINK
from ..core.errors import SourceError, SourceWarning
from ..core.model import Post, SourceFile, pack_html
from ..core.fingerprint import fingerprint_of
from ..core.records import dataclass



def rebase_links(html: str, base_path: str, attributes: tuple[str, ...] = ("href", "src"),
                 kept: frozenset[str] = frozenset()) -> str:
    """Root-relative href/src in content get the site's base path ('/x/' -> '/blog/x/'), except those that already
    start with it: what a Go shortcode wrote with relURL, or an author who wrote the whole path; attributes: which
    of href and src; kept: URLs on the host left as they are (a bundle file another language publishes)."""
    def rebased(match: re.Match[str]) -> str:
        if match.group(1) not in attributes:
            return match.group(0)
        if kept and "/" + match.string[match.end():match.string.find('"', match.end())] in kept:
            return match.group(0)
        return f'{match.group(1)}="{base_path}'
    return _unprefixed_root_link(base_path).sub(rebased, html)


@functools.lru_cache(maxsize=8)
def _unprefixed_root_link(base_path: str) -> re.Pattern[str]:
    """ROOT_LINK, but not where the URL already begins with base_path ('/blog/' and '/blog' alike)."""
    inner = re.escape(base_path.strip("/"))
    return re.compile(ROOT_LINK.pattern + rf'(?!{inner}(?:[/"?#]))')


def page_resolver(urls_by_path: Mapping[str, str], config: SiteConfig) -> Callable[[str], str | None]:
    """A function from a ref target (a content path, with or without .md, or its unique tail) to the
    page's full URL; None when no page, or more than one, matches."""
    def resolve(target: str) -> str | None:
        target = target.strip().lstrip("/")
        for candidate in (target, f"{target}.md", f"{target}/index.md", f"{target}/_index.md"):
            if candidate in urls_by_path:
                return config.site_url(urls_by_path[candidate])
        matches = [url for rel, url in urls_by_path.items() if rel.endswith("/" + target) or
                   rel.rsplit(".", 1)[0].endswith("/" + target)]
        return config.site_url(matches[0]) if len(matches) == 1 else None

    return resolve


@dataclass(frozen=True)
class LinkedPosts:
    """The posts with their links resolved, the errors and warnings found, and the posts that needed nothing."""

    posts: tuple[Post, ...]
    errors: tuple[SourceError, ...]
    plain: frozenset[str] = field(default_factory=frozenset)   # fingerprints with no link to resolve or rebase
    warnings: tuple[SourceWarning, ...] = ()


def missing_link(post: Post, target: str, source: SourceFile | None) -> SourceWarning:
    """The warning for a `.md` link that names no page, at the line that writes it."""
    from .content_links import link_line
    text = ""
    if source is not None and source.has_text:
        text = source.text
    else:   # a source kept without its text (a saved build state): read the file for the line only
        try:
            text = Path(post.source).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
    return SourceWarning(post.source, link_line(text, target) if text else 1,
                         f"link to {target}: no page at that path; fix the path (relative to this file) "
                         "or link to the page's URL")


@dataclass(frozen=True)
class LinkTables:
    """What a post's links are resolved against: every page's URL by content path (refs), the content paths and
    bundle files (links to them), the attributes resolved and the base path root-relative links get."""

    resolve: Callable[[str], str | None]
    paths: Any   # content_links.ContentPaths
    attributes: tuple[str, ...]
    base_path: str
    origin: str = ""   # the site's scheme and host, before an absolute ref's URL
    # The URLs of the published pages alone (no draft, none to come or expired): what GetPage found (Hugo's
    # GetPage gives nil for a page the build leaves out).
    resolve_published: Callable[[str], str | None] | None = None


def link_tables(posts: Iterable[Post], config: SiteConfig,
                drawn_by_site: frozenset[str] = frozenset()) -> LinkTables:
    """The tables of a site's posts (drawn_by_site: resolve_links')."""
    from datetime import datetime, timezone
    from .content_links import content_paths
    from ..site.site import is_published
    posts = list(posts)
    attributes = tuple(name for name in ("href", "src") if name not in drawn_by_site)
    now = datetime.now(timezone.utc)
    published = {post.rel_path: post.url for post in posts if post.kind != "page" or is_published(post, config, now)}
    return LinkTables(page_resolver({post.rel_path: post.url for post in posts}, config),
                      content_paths(posts, config), attributes, config.base_path if attributes else "/",
                      config.origin, page_resolver(published, config))


def link_post(post: Post, tables: LinkTables, source: SourceFile | None = None, *, plain: bool = False
              ) -> tuple[Post, list[SourceError], list[SourceWarning], bool]:
    """One post with its refs and content-path links resolved and its root-relative links rebased: (the post,
    its errors, its warnings, whether it had nothing to do). plain: a previous call found nothing to do."""
    from .content_links import has_content_links, resolve_content_links
    from ..markdown.shortcodes import resolve_refs
    attributes, base_path, paths = tables.attributes, tables.base_path, tables.paths
    # Links to content paths ('x.md', bundle files) depend on which pages exist: such a post is never
    # marked plain, so a page added later resolves its links.
    content = post.content_html if post.has_links and not plain else ""
    linkable = has_content_links(content) and bool(attributes)
    if not content or (base_path == "/" and REF_MARKER not in content and PAGE_MARKER not in content
                       and not linkable):
        return post, [], [], True
    html, summary_html = content, post.summary_html
    warnings: list[SourceWarning] = []
    if linkable:
        html, missing = resolve_content_links(html, post.rel_path, paths, attributes)
        summary_html, _ = resolve_content_links(summary_html, post.rel_path, paths, attributes)
        warnings += [missing_link(post, target, source) for target in missing]
    html, errors = resolve_refs(html, tables.resolve, path=post.source, origin=tables.origin, warnings=warnings,
                                resolve_page=tables.resolve_published)
    if base_path != "/":
        # Root-relative links in content mean "on this site": give them the base path, as Hugo does.
        html = rebase_links(html, base_path, attributes, paths.elsewhere)
    if html != content:
        # The summary was cut from the unresolved HTML: resolve it too (its errors are the same ones).
        summary, _ = resolve_refs(summary_html, tables.resolve, path=post.source, origin=tables.origin,
                                  resolve_page=tables.resolve_published)
        if base_path != "/":
            summary = rebase_links(summary, base_path, attributes, paths.elsewhere)
        post = replace(post, packed_html=pack_html(html), summary_html=summary,
                       fingerprint=fingerprint_of(post.fingerprint, html, summary))
    return post, list(errors), warnings, False


def resolve_links(posts: Iterable[Post], config: SiteConfig, plain: frozenset[str] = frozenset(),
                  sources: Mapping[str, SourceFile] | None = None, *,
                  drawn_by_site: frozenset[str] = frozenset()) -> LinkedPosts:
    """Every post's refs and content-path links resolved against all posts, and root-relative links rebased
    under base_path.

    plain: fingerprints a previous call found with nothing to do (LinkedPosts.plain); their HTML is not
    scanned again. sources: the posts' files by content path, for the line of a warning. drawn_by_site: the
    attributes ("href": links, "src": images) a Hugo site's own render hooks drew, which Hugo then leaves as the
    hooks wrote them (as it leaves a shortcode's HTML): neither resolved nor rebased."""
    from ..core import progress
    progress.stage("links")
    posts = list(posts)
    tables = link_tables(posts, config, drawn_by_site)
    resolved: list[Post] = []
    errors: list[SourceError] = []
    warnings: list[SourceWarning] = []
    now_plain: set[str] = set()
    for post in posts:
        linked, post_errors, post_warnings, nothing = link_post(
            post, tables, (sources or {}).get(post.rel_path), plain=post.fingerprint in plain)
        if nothing:
            now_plain.add(post.fingerprint)
        resolved.append(linked)
        errors += post_errors
        warnings += post_warnings
    return LinkedPosts(tuple(resolved), tuple(errors), frozenset(now_plain), tuple(warnings))
