"""Another page, named while a page's content renders (a render hook's or a shortcode's `.Page.GetPage`, `ref`,
`relref`, `.Ref`, `.RelRef`): the site is not built yet, so its URL is a marker the links stage
(content/links.py) turns into the page's URL once every page is known, as it does for the ref shortcode.

Which page `.GetPage` finds is known before: the content files of the build are (set_content_files), and
GetPage's lookup is Hugo's (relative to the page's folder, then from the content root; a file, a bundle's index
or a section's _index.md). What a render found is recorded (looking_up_pages), so that a post rendered earlier
is rendered again when a page it named appears or goes. Of the page found, only its URL is known here.
"""
from __future__ import annotations

import contextlib
import posixpath
import re
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import quote, unquote


# bbref~LINE~KIND~TARGET~ (ref and relref: KIND a or r, an unknown page an error, as Hugo's REF_NOT_FOUND) and
# bbref~LINE~KIND~TARGET~ASKED~ (GetPage: KIND P or p, a page gone by the links stage, a draft, written as it was
# asked, with a warning): only characters an URL attribute keeps as they are (html/template's URL normaliser,
# html escaping), so the marker survives the hook's escaping; TARGET, the content path, and ASKED percent-encoded.
MARKER = re.compile(r"bbref~(\d+)~([arpP])~([A-Za-z0-9%/._\-]*)~(?:([A-Za-z0-9%/._\-]*)~)?")
MARKER_START = "bbref~"

# A language's key -> its content files: {the path as GetPage reads it (lower case, without the language's
# suffix: a.fr.md is a.md) -> the file's path under the content folder}.
_CONTENT: dict[str, dict[str, str]] = {}
# A multilingual build's languages: key -> (its SiteConfig, its pages: every content file's Post, its _index.md
# files' too), for another language's site in `.Sites` (its GetPage). Set before the pages render.
_LANGUAGE_PAGES: dict[str, tuple[Any, tuple[Any, ...]]] = {}
_LINE = [0]                                   # the line (in its file) of the element being drawn
_LOOKUPS: list[set[tuple[str, str]]] = []     # the lookups of the renders under way (looking_up_pages)


def set_content_files(language: str, paths: Iterable[str]) -> None:
    """The content files (paths under the content folder) the build renders in a language: what GetPage finds
    while content renders. Set before the posts render, in the process that forks their workers."""
    content: dict[str, str] = {}
    for path in paths:
        posix = path.replace("\\", "/")
        content.setdefault(_as_looked_up(posix, language), posix)
    _CONTENT[language] = content


def set_language_pages(language: str, config: Any, pages: Iterable[Any]) -> None:
    """A language's config and pages, for the other languages' layouts (`.Sites.Default.GetPage`)."""
    _LANGUAGE_PAGES[language] = (config, tuple(pages))


def language_page(language: str, wanted: str, logical: Any) -> tuple[Any, Any] | None:
    """(config, page) of the language's page whose content path logical() makes wanted; None when there is none;
    LookupError when the language's pages are not known (a build of one language)."""
    known = _LANGUAGE_PAGES.get(language)
    if known is None:
        raise LookupError(language)
    config, pages = known
    for page in pages:
        if logical(_as_looked_up(page.rel_path, language)) == wanted:
            return config, page
    return None


def _as_looked_up(path: str, language: str) -> str:
    """A content file's path as GetPage reads it: lower case, posix, without the language's suffix (a.fr.md is
    a.md in French)."""
    lower = path.replace("\\", "/").lower()
    suffix = f".{language.lower()}.md"
    return lower[:-len(suffix)] + ".md" if language and lower.endswith(suffix) else lower


def set_line(line: int) -> None:
    """The line of the element a hook draws, named by the marker (an error at the links stage names it)."""
    _LINE[0] = line


@contextlib.contextmanager
def looking_up_pages() -> Iterator[set[tuple[str, str]]]:
    """The pages the renders in the block named: {(what was asked, the content file found or "")}."""
    found: set[tuple[str, str]] = set()
    _LOOKUPS.append(found)
    try:
        yield found
    finally:
        _LOOKUPS.pop()


def find_page(language: str, page_path: str, ref: str) -> str:
    """The content file Hugo's GetPage finds for ref from the page at page_path ("" when none), among the
    language's content files: the path joined to the page's folder, then from the content root; a file (with or
    without .md), a bundle's index.md or a section's _index.md; then, for a name without a "/", the one page of
    that name anywhere (none when several have it); case does not matter."""
    known = _CONTENT.get(language)
    if known is None:
        raise LookupError("the site's pages are not known where this renders")
    target = unquote(ref.split("#", 1)[0]).strip().lower()
    if not target:
        return ""
    folder = posixpath.dirname(_as_looked_up(page_path, language))
    bases = [target] if target.startswith("/") else [posixpath.join(folder, target), target]
    for base in bases:
        base = posixpath.normpath("/" + base).strip("/")
        stem = base[:-3] if base.endswith(".md") else base
        for candidate in (f"{stem}.md", f"{stem}/index.md", f"{stem}/_index.md" if stem else "_index.md"):
            if candidate in known:
                return known[candidate]
    name = target.strip("/")
    if name and "/" not in name:
        stem = name[:-3] if name.endswith(".md") else name
        named = [path for path in known if path.endswith((f"/{stem}.md", f"/{stem}/index.md", f"/{stem}/_index.md"))
                 or path in (f"{stem}.md", f"{stem}/index.md", f"{stem}/_index.md")]
        if len(named) == 1:
            return known[named[0]]
    return ""


def noted(language: str, page_path: str, ref: str) -> str:
    """find_page, noted for the renders under way."""
    found = find_page(language, page_path, ref)
    for lookups in _LOOKUPS:
        lookups.add((ref, found))
    return found


def lookups_hold(language: str, page_path: str, lookups: Iterable[tuple[str, str]]) -> bool:
    """Whether each page a render named is still the one GetPage finds (a post rendered earlier is rendered
    again when not)."""
    return all(find_page(language, page_path, ref) == found for ref, found in lookups)


def marker(target: str, *, absolute: bool, asked: str | None = None) -> str:
    """The marker of a content path's page URL (absolute: its permalink); asked: what GetPage was asked, written
    instead when the links stage finds no page there."""
    kind = ("a" if absolute else "r") if asked is None else ("P" if absolute else "p")
    tail = "" if asked is None else quote(asked, safe="/._-") + "~"
    return f"bbref~{_LINE[0]}~{kind}~{quote(target, safe='/._-')}~{tail}"
