"""The one data model that flows through the pipeline: frozen dataclasses only."""
from __future__ import annotations

import functools
import json
import zlib
from dataclasses import field
from datetime import datetime
from typing import Any, Iterable, Literal, Mapping

from .errors import SourceWarning
from .records import dataclass


@dataclass(frozen=True)
class SourceFile:
    """A content file as found on disk (sources.py is the only reader)."""

    path: str              # as shown to the user in messages (relative to the cwd when possible)
    rel_path: str          # posix path relative to the content folder, e.g. "posts/x.md"
    text: str              # decoded UTF-8, BOM removed, newlines normalised to "\n"
    kind: str = "page"     # "page" | "section" (an _index.md)
    resources: tuple[str, ...] = ()   # bundle files beside an index.md, relative to the content folder
    # False for a source kept in a saved builder state without its text (text is then ""): the build
    # reads the file again if it needs the text.
    has_text: bool = True


@dataclass(frozen=True)
class FrontMatter:
    """A file split into its metadata and its body."""

    data: Mapping[str, Any]
    body: str
    body_line: int          # 1-based line where the body starts, in the text read (file_line() maps it)
    format: str = "yaml"    # "yaml" | "toml" | "none" | "flat" (a header flattened onto one line)
    repairs: tuple[SourceWarning, ...] = ()   # what frontmatter/repair.py repaired, one warning each
    # The file's line of each line of the text read, when a repair removed or joined lines; () when the
    # text read is the file's own.
    line_map: tuple[int, ...] = ()

    def file_line(self, line: int) -> int:
        """The file's own line number for a line number in the text read (messages name the file's lines)."""
        if not self.line_map or line < 1:
            return line
        if line <= len(self.line_map):
            return self.line_map[line - 1]
        return self.line_map[-1] + line - len(self.line_map)


@dataclass(frozen=True)
class TocEntry:
    """One heading: level 1-6, its unique id, its plain text (math as TeX), and for a heading with math the
    text as HTML with each formula a math element, typeset as in the heading when the build typesets math."""

    level: int
    id: str
    text: str
    html: str = ""


@dataclass(frozen=True)
class SourceMark:
    """Something a post's HTML holds and the file line it was written on, carried from the markdown
    tokens (their line map), so that `blogbuild check` names path:line without searching the source."""

    kind: Literal["url", "math", "mermaid", "dollars"]   # href/src, TeX, a diagram's source, '$$' left in text
    value: str    # as the HTML holds it: the attribute value, the TeX, the diagram; "" for dollars
    line: int     # 1-based line in the content file


@dataclass(frozen=True)
class RenderedMarkdown:
    """What the markdown stage makes of a body."""

    html: str
    toc: tuple[TocEntry, ...] = ()
    has_math: bool = False
    has_mermaid: bool = False
    has_code: bool = False
    warnings: tuple[SourceWarning, ...] = ()
    marks: tuple[SourceMark, ...] = ()      # links, images, formulas, diagrams and their lines, for check
    # What a Hugo site's render hooks put in the page's Store while drawing it ((key, plain value)), which
    # its layouts read back (`.Store.Get "hasMermaid"`).
    page_store: tuple[tuple[str, Any], ...] = ()
    # The keys its shortcodes and render hooks read from the page's Store that were not there: a page whose
    # layouts set one renders its content again with their Store (HugoPage._content_rendered).
    store_reads: tuple[str, ...] = ()
    # When every such read was a code block's or a block formula's hook call that wrote nothing: those calls
    # (markdown/hooks.py HookReplay), which the page stage runs again alone instead of the whole content.
    hook_replays: tuple[tuple[Any, ...], ...] = ()


@dataclass(frozen=True)
class TextMetrics:
    """What text.py measures of rendered HTML."""

    plain_text: str          # the content as plain text, math as a reader sees it (math_text.py), for search
    word_count: int          # a CJK character is a word; a Latin run is a word
    reading_minutes: int
    summary_html: str
    truncated: bool          # the summary is shorter than the content
    summary_text: str = ""   # plain text of summary_html (what text.plain_text gives), for feeds and search


def pack_html(html: str) -> bytes:
    """A post's content HTML as Post keeps it: UTF-8, deflated at the fastest level.

    Every post stays resident from the posts stage to the last page (the lists and feeds need them all),
    while its content is read once, by its own page. Deflated, KaTeX's verbose markup and the CJK text (held
    by Python as 2 bytes a character) take a quarter to a sixth of the memory, and the posts cache as much
    less disk and load time; packing costs about 0.1 ms a post, unpacking a third of that."""
    global _LAST_PACKED
    packed = zlib.compress(html.encode("utf-8"), 1)
    _LAST_PACKED = (packed, html)   # one assignment: a thread reading it sees a pair, never half of two
    return packed


# The last HTML packed, with its packing: the post just made reads its content back at once (its Hugo measures).
_LAST_PACKED: tuple[bytes | None, str] = (None, "")


def unpack_html(packed: bytes) -> str:
    """The HTML pack_html() packed; the last packed and the last few unpacked kept (a page reads its content for
    its body, summary, plain text and word count, one after another)."""
    last = _LAST_PACKED
    return last[1] if packed is last[0] else _unpacked(packed)


@functools.lru_cache(maxsize=16)
def _unpacked(packed: bytes) -> str:
    return zlib.decompress(packed).decode("utf-8")


def pack_marks(marks: Iterable[SourceMark]) -> bytes:
    """A post's marks as Post keeps them: one JSON list of [kind, value, line], UTF-8. Read by a few posts of a
    build (those check looks at, or whose images or math are worked on), they are ~7 objects a post that the posts
    cache need not decode for the rest (90 M of a 1,000-post deploy's instructions)."""
    listed = [[mark.kind, mark.value, mark.line] for mark in marks]
    return json.dumps(listed, ensure_ascii=False, separators=(",", ":")).encode("utf-8") if listed else b""


@functools.lru_cache(maxsize=16)
def unpack_marks(packed: bytes) -> tuple[SourceMark, ...]:
    """The marks pack_marks() packed; the last few kept (check asks a post's marks once for each problem)."""
    if not packed:
        return ()
    return tuple(SourceMark(kind, value, line) for kind, value, line in json.loads(packed))


def term_names(value: Any) -> tuple[str, ...] | None:
    """A taxonomy's front-matter value as Hugo reads it: a list or one value (text, a number, true, a date), each
    item as text, once; None for what Hugo makes no term of (a mapping, or a list holding a mapping or list)."""
    if value is None or value == "":
        return ()
    items = value if isinstance(value, (list, tuple)) else [value]
    if isinstance(value, Mapping) or any(isinstance(item, (Mapping, list, tuple)) for item in items):
        return None
    names: list[str] = []
    for item in items:
        if item is None:   # an empty list item ("- " with nothing after it): no term, as in Hugo
            continue
        name = ("true" if item else "false") if isinstance(item, bool) else str(item).strip()
        if name and name not in names:
            names.append(name)
    return tuple(names)


@dataclass(frozen=True)
class Post:
    """A published (or draft) page after markdown: everything templates need of one post."""

    source: str              # path as shown in messages
    rel_path: str            # relative to content/, posix
    section: str             # first folder under content/, "" at the top
    slug: str
    url: str                 # site-relative, starts and ends with "/": "/posts/x/"
    title: str
    date: datetime | None
    lastmod: datetime | None
    date_text: str           # the date exactly as written (ISO 8601 with offset), "" if none
    draft: bool
    tags: tuple[str, ...]
    categories: tuple[str, ...]
    series: tuple[str, ...]
    series_order: int | None
    description: str
    aliases: tuple[str, ...]
    math: bool
    toc_enabled: bool
    packed_html: bytes       # the content's HTML as pack_html() keeps it: read it as content_html
    toc: tuple[TocEntry, ...]
    summary_html: str
    truncated: bool
    plain_text: str
    word_count: int
    reading_minutes: int
    has_math: bool
    has_mermaid: bool
    has_code: bool
    resources: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)   # the whole front matter, unknown keys included
    kind: str = "page"       # "page" | "section"
    weight: int = 0
    fingerprint: str = ""    # hash of the source and everything its rendering depends on
    summary_text: str = ""   # plain text of summary_html, as text.plain_text(summary_html) gives it
    # Where its links, formulas and diagrams are in the file (check; the images stage), as pack_marks() keeps
    # them: read them as marks.
    packed_marks: bytes = b""
    # What the content holds for the stages after the posts cache, found where the HTML was made, so that
    # they unpack only the posts they change (True, the default, makes them look).
    has_images: bool = True  # an <img> (images.py)
    has_links: bool = True   # a link links.py may rewrite (content_links.has_links_to_rewrite)
    # When the page is published and when it is taken down (Hugo's publishDate, which is its date when not
    # written, and expiryDate); None: no such date.
    publish_date: datetime | None = None
    expiry_date: datetime | None = None
    page_store: tuple[tuple[str, Any], ...] = ()   # RenderedMarkdown.page_store
    store_reads: tuple[str, ...] = ()               # RenderedMarkdown.store_reads
    hook_replays: tuple[tuple[Any, ...], ...] = ()  # RenderedMarkdown.hook_replays
    # The pages its content named while it rendered (a hook's or shortcode's GetPage, ref, relref): (what was asked,
    # the content file found or ""), checked before the posts cache gives it again (core/page_lookups.py).
    page_lookups: tuple[tuple[str, str], ...] = ()
    # The files its content's shortcodes and render hooks published through a Hugo site's Pipes ((output path,
    # sha256 of the bytes), the bytes kept by the page engine), published by each render that reads its content.
    published_files: tuple[tuple[str, str], ...] = ()
    # Where its bundle's files every language shares are published when another language's page publishes them
    # (a Hugo site's own layouts, core/bundle_files.py): that page's URL on the host; "": beside this page.
    shared_files_at: str = ""
    # A Hugo site's own layouts: what they read of its text (.Plain, .WordCount, the automatic .Summary), worked out with its
    # content (hugo/gotemplate/page_text.py); () when not.
    hugo_text: tuple[Any, ...] = ()

    @property
    def content_html(self) -> str:
        """The content's HTML (unpacked on each use: a post page, a full-content feed item, check)."""
        return unpack_html(self.packed_html)

    @property
    def marks(self) -> tuple[SourceMark, ...]:
        """Where its links, formulas and diagrams are in the file (unpacked on each use: check, KaTeX, images)."""
        return unpack_marks(self.packed_marks)

    def taxonomy_values(self, taxonomy: str) -> tuple[str, ...]:
        """The post's terms in one taxonomy (tags, categories, series or a custom one)."""
        if taxonomy == "tags":
            return self.tags
        if taxonomy == "categories":
            return self.categories
        if taxonomy == "series":
            return self.series
        return term_names(self.params.get(taxonomy)) or ()


@dataclass(frozen=True)
class Term:
    """One value of a taxonomy and the posts that carry it (newest first; series in series order)."""

    taxonomy: str
    name: str
    slug: str
    url: str
    posts: tuple[Post, ...]
    title: str = ""          # from content/<taxonomy>/<slug>/_index.md when present
    content_html: str = ""
    description: str = ""
    index: "Post | None" = None   # that _index.md (its params and the bundle's files)

    @property
    def count(self) -> int:
        return len(self.posts)


@dataclass(frozen=True)
class Taxonomy:
    """A taxonomy (tags, categories, series) and its terms, sorted by name."""

    name: str
    singular: str
    url: str
    terms: tuple[Term, ...]
    title: str = ""          # from content/<taxonomy>/_index.md, else the name capitalised ("Tags")
    content_html: str = ""
    index: "Post | None" = None   # that _index.md


# Parts a post page lists of its series: all of a short series, else this many around the current part
# (4 either side), so a page's size and cost do not grow with the series.
SERIES_WINDOW = 9


@dataclass(frozen=True)
class SeriesNav:
    """Where a post stands in one series: part n of m, neighbours, the nearest parts, the whole series."""

    term: Term
    index: int               # 1-based
    total: int
    previous: Post | None
    next: Post | None

    @property
    def window_start(self) -> int:
        """The 1-based part number of the first part in the window."""
        return max(1, min(self.index - SERIES_WINDOW // 2, self.total - SERIES_WINDOW + 1))

    @property
    def window(self) -> tuple[Post, ...]:
        """The parts a post page lists: the whole series up to SERIES_WINDOW parts, else the nearest ones."""
        start = self.window_start - 1
        return self.term.posts[start:start + SERIES_WINDOW]


@dataclass(frozen=True)
class PostNav:
    """Neighbours and relations of one post, computed by site.py."""

    newer: Post | None
    older: Post | None
    series: tuple[SeriesNav, ...]
    related: tuple[Post, ...]


@dataclass(frozen=True)
class Section:
    """A folder of content/ (a top folder, or a deeper one with an _index.md) and every post below it.

    Sections nest as Hugo's do: name is the folder path ("posts/systems"), parents and subsections are
    (title, url) links, so the model stays a flat tuple of frozen values."""

    name: str
    url: str
    title: str
    content_html: str
    posts: tuple[Post, ...]                       # every listed post below the folder, newest first
    description: str = ""
    parents: tuple[tuple[str, str], ...] = ()     # (title, url) of each enclosing section, outermost first
    subsections: tuple[tuple[str, str], ...] = ()  # (title, url) of the sections one level down
    index: Post | None = None                     # its _index.md (front matter: params, weight, linkTitle)

    def holds(self, post: Post) -> bool:
        """Whether the post's file is below this section's folder."""
        return post.rel_path.startswith(self.name + "/")


@dataclass(frozen=True)
class ArchiveMonth:
    year: int
    month: int
    posts: tuple[Post, ...]


@dataclass(frozen=True)
class ArchiveYear:
    year: int
    months: tuple[ArchiveMonth, ...]

    @property
    def count(self) -> int:
        return sum(len(month.posts) for month in self.months)


@dataclass(frozen=True)
class Translation:
    """One language's version of a page: the language, and where the page is."""

    language: str            # the language's key, "en": hreflang and the switch's label
    language_name: str       # "English"
    language_code: str       # "en-US"
    url: str                 # the page's path on the host, with the base path and the language's prefix: "/en/x/"
    permalink: str           # the same, absolute
    title: str


@dataclass(frozen=True)
class Site:
    """The one thing templates see: every post, taxonomy, section and relation."""

    config: Any              # SiteConfig
    posts: tuple[Post, ...]                 # published posts, newest first
    taxonomies: tuple[Taxonomy, ...]
    sections: tuple[Section, ...]
    archives: tuple[ArchiveYear, ...]
    navigation: Mapping[str, PostNav]       # post url -> nav
    pages: tuple[Post, ...] = ()            # every published page, listed or not (posts plus `list: false` pages)
    drafts_left_out: tuple[str, ...] = ()   # the source paths of the drafts not published (no --drafts)
    expired_left_out: tuple[str, ...] = ()  # the source paths of the pages past their expiryDate (no --expired)
    future_left_out: tuple[str, ...] = ()   # the source paths of the pages dated after the build (no --future)
    stylesheet: str = ""                    # the URL of the site's own CSS (theme.extended_css), "" when it has none
    # A multilingual site: each page's versions in every language, itself included (by its URL in this site: posts,
    # the home page, sections, taxonomies and terms); {} for a site of one language or a page with no translation.
    translations: Mapping[str, tuple["Translation", ...]] = field(default_factory=dict)
    home: "Post | None" = None              # content/_index.md: the home page's own title, params and text

    def translated(self, url: str) -> tuple["Translation", ...]:
        """The page's versions in every language, itself included (() when it has no other)."""
        return self.translations.get(url, ())

    def taxonomy(self, name: str) -> Taxonomy | None:
        """The taxonomy called name, or None."""
        for taxonomy in self.taxonomies:
            if taxonomy.name == name:
                return taxonomy
        return None

    def nav(self, post: Post) -> PostNav:
        """Neighbours, series and related posts of one post."""
        return self.navigation[post.url]


@dataclass(frozen=True)
class Paginator:
    """One page of a paginated list."""

    items: tuple[Post, ...]
    number: int              # 1-based
    total_pages: int
    total_items: int
    urls: tuple[str, ...]    # url of every page, index 0 is page 1
    offset: int = 0          # items on the pages before this one (a numbered list goes on from offset + 1)

    @property
    def url(self) -> str:
        return self.urls[self.number - 1]

    @property
    def previous_url(self) -> str | None:
        return self.urls[self.number - 2] if self.number > 1 else None

    @property
    def next_url(self) -> str | None:
        return self.urls[self.number] if self.number < self.total_pages else None


@dataclass(frozen=True)
class OutputFile:
    """Bytes to write at a path relative to public/ (output.py is the only writer)."""

    path: str
    data: bytes = b""
    source: str = ""         # a file to copy instead of data (static files, bundle resources)
    staged: bool = False     # source is a rendered page spooled to disk by this build: link it, don't copy
    # source is a file of blogbuild's cache named by its content (a social card, an image variant), which is
    # only ever replaced by rename, never written into: link it too (a cold build at 1,000 posts otherwise
    # copies 1,000 cards, a new inode each, in its serial write stage). Never the site's own files.
    from_cache: bool = False
    # one file for every language of a multilingual site, at the top of public/ (Hugo Pipes' resources)
    shared: bool = False


@dataclass(frozen=True)
class TemplateFacts:
    """What a JinjaEngine learnt of its template files: closures, and each file's source and references."""

    closures: dict[str, tuple[str, bool]] = field(default_factory=dict)
    read: dict[str, tuple[str, list[str | None]] | None] = field(default_factory=dict)
    # What a Hugo site's layouts found of its lists' page counts (hugo/site_theme.py's _PageCounts).
    counts: dict[str, tuple[int, tuple[str, str]]] = field(default_factory=dict)
