"""Feeds: RSS 2.0, Atom 1.0 and JSON Feed 1.1 for the site, each section and each term.

Every format is made from the same items; an item carries the post's summary or its full content
(`feed_content`), with relative links made absolute (a feed reader has no page to resolve them against)
and math kept readable: KaTeX's MathML without its visual markup, or TeX between delimiters.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from urllib.parse import urljoin

from ..config import SiteConfig
from ..core.model import Post
from ..core.version import __version__
from ..core.records import dataclass

# format name -> (file name in the feed's folder, media type). RSS keeps Hugo's index.xml.
FEED_FORMATS: dict[str, tuple[str, str]] = {
    "rss": ("index.xml", "application/rss+xml"),
    "atom": ("atom.xml", "application/atom+xml"),
    "json": ("feed.json", "application/feed+json"),
}
FEED_CONTENT_CHOICES = ("summary", "full")

_LINK_ATTRIBUTE = re.compile(r"""(\s(?:href|src|poster|cite)\s*=\s*)(["'])(.*?)\2""", re.IGNORECASE | re.DOTALL)
_SRCSET_ATTRIBUTE = re.compile(r"""(\ssrcset\s*=\s*)(["'])(.*?)\2""", re.IGNORECASE | re.DOTALL)
_KATEX_HTML_OPEN = re.compile(r'<span class="katex-html"[^>]*>')
_SPAN_TAG = re.compile(r"<span\b|</span>")
# The theme's client-side math markup: the TeX alone, without its delimiters.
# A formula KaTeX rejected at build time keeps its TeX too, marked math-error.
_CLIENT_MATH = re.compile(r'<(span|div) class="math (inline|display)( math-error)?">(.*?)</\1>', re.DOTALL)

# XML escaping and RFC 822 dates are written here rather than taken from xml.sax.saxutils and email.utils:
# importing those pulls in urllib.request, http.client, ssl and the email package, 40 ms of the start of a
# build that carries on from its cache. Both functions give exactly what the standard library's do
# (tests/test_feeds.py compares them).
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_ATTRIBUTE_WHITESPACE = str.maketrans({"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def xml_escape(text: str) -> str:
    """&, < and > escaped for XML character data (xml.sax.saxutils.escape)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """text as a quoted XML attribute value, quotes and whitespace escaped (xml.sax.saxutils.quoteattr)."""
    text = xml_escape(text).translate(_ATTRIBUTE_WHITESPACE)
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def format_datetime(moment: datetime) -> str:
    """An RFC 822 date as RSS wants it, 'Sun, 02 Mar 2025 09:00:00 +0800' (email.utils.format_datetime)."""
    zone = "-0000" if moment.tzinfo is None else moment.strftime("%z")
    return (f"{_WEEKDAYS[moment.weekday()]}, {moment.day:02d} {_MONTHS[moment.month - 1]} {moment.year:04d} "
            f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d} {zone}")


@dataclass(frozen=True)
class FeedSpec:
    """One feed of a list: its folder url ('/', '/posts/', '/tags/x/'), title, page link and posts."""

    folder: str
    title: str
    link: str
    posts: tuple[Post, ...]


def feed_url(folder: str, format_name: str, rss_file: str = "index.xml") -> str:
    """The site-relative url of a list's feed in one format: feed_url('/posts/', 'atom') -> '/posts/atom.xml';
    rss_file: the RSS feed's file name (SiteConfig.rss_file)."""
    return folder + (rss_file if format_name == "rss" else FEED_FORMATS[format_name][0])


def feed_alternates(config: SiteConfig, folder: str) -> list[tuple[str, str, str]]:
    """(format, media type, site-relative url) of every feed the site publishes for a list folder."""
    return [(name, FEED_FORMATS[name][1], feed_url(folder, name, config.rss_file)) for name in config.feeds]


def absolute_links(html: str, page_url: str) -> str:
    """Every href/src/srcset in html resolved against page_url (absolute), so a feed reader can follow it."""
    def one(match: re.Match[str]) -> str:
        value = match.group(3)
        if value.startswith(("data:", "mailto:", "javascript:", "tel:")) or "{{" in value:
            return match.group(0)
        return f"{match.group(1)}{match.group(2)}{urljoin(page_url, value.strip())}{match.group(2)}"

    def srcset(match: re.Match[str]) -> str:
        candidates = []
        for candidate in match.group(3).split(","):
            parts = candidate.strip().split(None, 1)
            if parts:
                parts[0] = urljoin(page_url, parts[0])
                candidates.append(" ".join(parts))
        return f"{match.group(1)}{match.group(2)}{', '.join(candidates)}{match.group(2)}"

    return _SRCSET_ATTRIBUTE.sub(srcset, _LINK_ATTRIBUTE.sub(one, html))


def readable_math(html: str) -> str:
    """Math a feed reader can show without KaTeX's stylesheet: KaTeX's MathML only (its visual HTML
    needs the CSS and fonts, and shown without them is garbled), client-side math as delimited TeX."""
    html = _strip_katex_html(html)

    def client(match: re.Match[str]) -> str:
        tag, mode, error, tex = match.group(1), match.group(2), match.group(3) or "", match.group(4)
        if "<math" in tex or "katex" in tex:   # typeset at build time: keep the MathML as it is
            return match.group(0)
        opening, closing = (r"\(", r"\)") if mode == "inline" else (r"\[", r"\]")
        return f'<{tag} class="math {mode}{error}">{opening}{tex}{closing}</{tag}>'

    return _CLIENT_MATH.sub(client, html)


def _strip_katex_html(html: str) -> str:
    """Remove every <span class="katex-html">…</span> (nested spans counted) and keep the rest."""
    if "katex-html" not in html:
        return html
    pieces = []
    position = 0
    while True:
        match = _KATEX_HTML_OPEN.search(html, position)
        if match is None:
            pieces.append(html[position:])
            break
        pieces.append(html[position:match.start()])
        depth, cursor = 1, match.end()
        while depth and cursor < len(html):
            tag = _SPAN_TAG.search(html, cursor)
            if tag is None:
                cursor = len(html)
                break
            depth += -1 if tag.group(0) == "</span>" else 1
            cursor = tag.end()
        position = cursor
    return "".join(pieces)


def item_html(config: SiteConfig, post: Post) -> str:
    """What a feed item carries of a post: summary or full content, links absolute, math readable."""
    html = post.content_html if config.feed_content == "full" else post.summary_html
    return absolute_links(readable_math(html), config.absolute_url(post.url))


def _newest(posts: Sequence[Post]) -> datetime | None:
    dates = [post.lastmod or post.date for post in posts if post.date is not None]
    return max(dates) if dates else None


def rss_feed(config: SiteConfig, feed: FeedSpec) -> bytes:
    """An RSS 2.0 feed of posts (newest first), item HTML escaped in <description>."""
    dates = [post.date for post in feed.posts if post.date is not None]
    newest = max(dates) if dates else None
    parts = ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n',
             '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n',
             f"<title>{xml_escape(feed.title)}</title>\n<link>{xml_escape(config.absolute_url(feed.link))}</link>\n",
             f"<description>{xml_escape(config.description or feed.title)}</description>\n",
             f"<generator>blogbuild {__version__}</generator>\n",
             f"<language>{xml_escape(config.language_code)}</language>\n"]
    if newest is not None:
        parts.append(f"<lastBuildDate>{format_datetime(newest)}</lastBuildDate>\n")
    parts.append(f'<atom:link href="{xml_escape(config.absolute_url(feed_url(feed.folder, "rss", config.rss_file)))}" rel="self" '
                 'type="application/rss+xml"/>\n')
    for post in feed.posts:
        permalink = config.absolute_url(post.url)
        parts.append("<item>\n")
        parts.append(f"<title>{xml_escape(post.title)}</title>\n<link>{xml_escape(permalink)}</link>\n")
        if post.date is not None:
            parts.append(f"<pubDate>{format_datetime(post.date)}</pubDate>\n")
        parts.append(f'<guid isPermaLink="true">{xml_escape(permalink)}</guid>\n')
        for tag in post.tags:
            parts.append(f"<category>{xml_escape(tag)}</category>\n")
        parts.append(f"<description>{xml_escape(item_html(config, post))}</description>\n</item>\n")
    parts.append("</channel>\n</rss>\n")
    return "".join(parts).encode("utf-8")


def atom_feed(config: SiteConfig, feed: FeedSpec) -> bytes:
    """An Atom 1.0 feed (RFC 4287): id, title and updated on the feed and every entry, HTML content."""
    self_url = config.absolute_url(feed_url(feed.folder, "atom"))
    newest = _newest(feed.posts)
    # Atom requires <updated>; a list of undated posts has no date of its own, so the epoch stands in.
    updated = newest.isoformat() if newest is not None else "1970-01-01T00:00:00+00:00"
    parts = ['<?xml version="1.0" encoding="utf-8"?>\n',
             f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang={quoteattr(config.language_code)}>\n',
             f"<title>{xml_escape(feed.title)}</title>\n",
             f"<id>{xml_escape(self_url)}</id>\n",
             f"<link rel=\"self\" type=\"application/atom+xml\" href={quoteattr(self_url)}/>\n",
             f"<link rel=\"alternate\" type=\"text/html\" href={quoteattr(config.absolute_url(feed.link))}/>\n",
             f"<updated>{updated}</updated>\n",
             f'<generator version="{__version__}">blogbuild</generator>\n']
    if config.description:
        parts.append(f"<subtitle>{xml_escape(config.description)}</subtitle>\n")
    # An entry without its own author takes the feed's: Atom requires one of them.
    parts.append(f"<author><name>{xml_escape(config.author or config.title)}</name></author>\n")
    for post in feed.posts:
        permalink = config.absolute_url(post.url)
        entry_updated = post.lastmod or post.date
        parts.append("<entry>\n")
        parts.append(f'<title type="text">{xml_escape(post.title)}</title>\n')
        parts.append(f"<link rel=\"alternate\" type=\"text/html\" href={quoteattr(permalink)}/>\n")
        parts.append(f"<id>{xml_escape(permalink)}</id>\n")
        parts.append(f"<updated>{entry_updated.isoformat() if entry_updated else updated}</updated>\n")
        if post.date is not None:
            parts.append(f"<published>{post.date.isoformat()}</published>\n")
        for tag in post.tags:
            parts.append(f"<category term={quoteattr(tag)}/>\n")
        element = "content" if config.feed_content == "full" else "summary"
        parts.append(f'<{element} type="html">{xml_escape(item_html(config, post))}</{element}>\n</entry>\n')
    parts.append("</feed>\n")
    return "".join(parts).encode("utf-8")


def json_feed(config: SiteConfig, feed: FeedSpec) -> bytes:
    """A JSON Feed 1.1 document (https://jsonfeed.org/version/1.1): version, title and items with ids."""
    document: dict[str, Any] = {
        "version": "https://jsonfeed.org/version/1.1",
        "title": feed.title,
        "home_page_url": config.absolute_url(feed.link),
        "feed_url": config.absolute_url(feed_url(feed.folder, "json")),
        "language": config.language_code,
    }
    if config.description:
        document["description"] = config.description
    if config.author:
        document["authors"] = [{"name": config.author}]
    items = []
    for post in feed.posts:
        permalink = config.absolute_url(post.url)
        item: dict[str, Any] = {"id": permalink, "url": permalink, "title": post.title,
                                "content_html": item_html(config, post)}
        if config.feed_content != "full" and post.summary_text:
            item["summary"] = post.summary_text
        if post.date is not None:
            item["date_published"] = post.date.isoformat()
        if post.lastmod is not None:
            item["date_modified"] = post.lastmod.isoformat()
        if post.tags:
            item["tags"] = list(post.tags)
        items.append(item)
    document["items"] = items
    return (json.dumps(document, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


FEED_WRITERS = {"rss": rss_feed, "atom": atom_feed, "json": json_feed}


def make_feed(config: SiteConfig, feed: FeedSpec, format_name: str) -> bytes:
    """The bytes of one feed in one format."""
    return FEED_WRITERS[format_name](config, feed)
