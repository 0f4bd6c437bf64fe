"""Hugo's page and site model over blogbuild's Site, as a site's own page layouts read it: the home page,
sections, regular pages, taxonomies and terms (`.Pages`, `.RegularPages`, `.Paginate`, `.GetTerms`,
`.Data.Terms`, `.PrevInSection`, …), their content (`.Content`, `.Summary`, `.WordCount`, `.ReadingTime`,
`.TableOfContents`), menus and `site.*`, with Hugo's names and Hugo's rules (term titles title-cased, pages
in Hugo's default order, `.Prev` the older page).

Every object is a GoObject: a field Hugo has and this model does not is an UnsupportedField naming it, so a
layout that needs more than blogbuild knows is reported, never rendered differently in silence.
"""
from __future__ import annotations

import copy
import functools
import math
import re
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from markupsafe import Markup

from ...core.cascade import cascades_of
from ...core.dates import date_locale, go_format, shown_date
from ...core.urls import term_path
from ..related import (RelatedConfig, RelatedError, RelatedIndex, RelatedIndexes, default_config, from_mapping,
                       keywords, string_slice)
from .body_reads import READS as BODY_READS
from .collation import collation_key, fold_key
from .escape import new_str
from .functions import FUNCTIONS
from .menus import MenuEntry, page_entries, same_entry, site_menus
from .objects import GoObject, GoTime, Params, Scratch, SiteInfo, UnsupportedField, _ZERO_TIME
from .page_resources import PageResources, bundle_resources
from .page_text import DIVIDER as _DIVIDER, IS_CJK, KEY, PLAIN, SUMMARY, WORDS, content_key, page_is_cjk, reading_time, without_divider, word_count
from .summary import hugo_summary
from .translations import SiteLanguages, translations_of
from .paths import get_page_ref as _get_page_ref, hugo_escapes, logical_path as _logical_path
from .function_error import HugoFunctionError
from .where import holds, where_operator

if TYPE_CHECKING:
    from ...core.model import Post, Section, Site, Taxonomy, Term

_KINDS = ("home", "page", "section", "taxonomy", "term")


def pluralize(word: str) -> str:
    """An English noun's plural as Hugo's inflector makes a section's list title ("post" -> "posts"): a word
    that ends in s already stays; -y after a consonant -> -ies; -ch, -sh, -x, -z -> -es; else -s."""
    lowered = word.lower()
    if not word or lowered.endswith("s"):
        return word
    if lowered.endswith("y") and lowered[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return word[:-1] + "ies"
    if lowered.endswith(("ch", "sh", "x", "z")):
        return word + "es"
    return word + "s"


def hugo_title(text: str) -> str:
    """Hugo's title case for list titles (titleCaseStyle AP, as `title`): each word's first letter upper."""
    return str(FUNCTIONS["title"](text))


class PageList(list, GoObject):
    """Hugo's page.Pages: a list of pages (as range sees it) with its sorts, each a new list: `.ByDate`,
    `.ByPublishDate`, `.ByLastmod`, `.ByTitle`, `.ByLinkTitle`, `.ByWeight`, `.ByParam`, `.ByLength`, `.Reverse`,
    and `.Len`."""

    kind = "Pages"

    def _sorted(self, key: Any) -> "PageList":
        return PageList(sorted(self, key=key))

    def Next(self, page: Any) -> Any:  # noqa: N802 - the page before it in the list (the newer, in Hugo's order)
        index = self._index_of(page)
        return self[index - 1] if index is not None and index > 0 else None

    def Prev(self, page: Any) -> Any:  # noqa: N802 - the page after it in the list
        index = self._index_of(page)
        return self[index + 1] if index is not None and index + 1 < len(self) else None

    def _index_of(self, page: Any) -> int | None:
        if isinstance(page, HugoPage):
            return self._positions().get(page)
        for index, candidate in enumerate(self):
            if candidate == page:
                return index
        return None

    def _positions(self) -> dict["HugoPage", int]:
        """Each page's first index, made once per list (a page compares and hashes as its kind and URL, so the
        page a layout renders is found in a list holding another object for it); made again when the list
        has grown (a list is only ever appended to while it is built)."""
        found = self.__dict__.get("_positions_made")
        if found is None or found[0] != len(self):
            positions: dict[HugoPage, int] = {}
            for index, candidate in enumerate(self):
                if isinstance(candidate, HugoPage):
                    positions.setdefault(candidate, index)
            found = self.__dict__["_positions_made"] = (len(self), positions)
        return found[1]

    def holds(self, item: Any) -> bool | None:
        """Go's `in` for a page: whether it is in the list (a page equals only a page); None for anything else."""
        return item in self._positions() if isinstance(item, HugoPage) else None

    @property
    def ByDate(self) -> "PageList":  # noqa: N802 - oldest first by the second, the same second in list order
        return self._sorted(lambda page: _unix(page.Date))

    @property
    def ByPublishDate(self) -> "PageList":  # noqa: N802
        return self.ByDate

    @property
    def ByLastmod(self) -> "PageList":  # noqa: N802
        return self._sorted(lambda page: _unix(page.Lastmod))

    @property
    def ByTitle(self) -> "PageList":  # noqa: N802 - in the collation of the site's language
        return self._sorted(lambda page: collation_key(page.Title, page._site.collation))

    @property
    def ByLinkTitle(self) -> "PageList":  # noqa: N802
        return self._sorted(lambda page: collation_key(page.LinkTitle, page._site.collation))

    @property
    def ByWeight(self) -> "PageList":  # noqa: N802
        return self._sorted(_default_order)

    @property
    def ByLength(self) -> "PageList":  # noqa: N802
        return self._sorted(lambda page: page.Len)

    def ByParam(self, name: Any) -> "PageList":  # noqa: N802 - pages without the param last, as Hugo sorts
        def key(page: Any) -> tuple[Any, ...]:
            value = page.Param(name)
            return (value is None, str(type(value).__name__) if value is not None else "", value
                    if isinstance(value, (int, float, str)) else str(value))
        return self._sorted(key)

    @property
    def Reverse(self) -> "PageList":  # noqa: N802
        return PageList(reversed(self))

    @property
    def Len(self) -> int:  # noqa: N802
        return len(self)

    def Related(self, argument: Any) -> "PageList":  # noqa: N802 - a page, or a map with document and indices
        """Hugo's related content of this list: the pages sharing keywords with the document, best first."""
        if not self:
            return PageList()
        document, indices = _related_argument(argument)
        if document is None:
            return PageList()
        site = document._site
        try:
            found = site.related_index(self).search(document, indices, _related_date, lambda page: page.Title)
        except RelatedError as error:
            raise UnsupportedField(f".Related: {error}") from None
        return PageList(found)


    def GroupByDate(self, layout: Any, order: Any = None) -> "PagesGroup":  # noqa: N802
        """Hugo's groups by the date formatted with layout: newest first (oldest with "asc"), a group a run of
        pages with the same key."""
        return PagesGroup.by_date(self, str(layout), order)

    def GroupByPublishDate(self, layout: Any, order: Any = None) -> "PagesGroup":  # noqa: N802
        """.GroupByDate by each page's publish date (its date unless front matter's publishDate says otherwise)."""
        return PagesGroup.by_date(self, str(layout), order, field="PublishDate")


class PageGroup(GoObject):
    """One group of `.GroupByDate`: `.Key` and its `.Pages`."""

    kind = "PageGroup"

    def __init__(self, key: str) -> None:
        self.Key = key
        self.Pages = PageList()


class PagesGroup(list, GoObject):
    """The groups of a page list (a list, as range sees it)."""

    kind = "PagesGroup"

    @classmethod
    def by_date(cls, pages: PageList, layout: str, order: Any, field: str = "Date") -> "PagesGroup":
        if not pages:
            return cls()
        ordered = pages.ByDate if field == "Date" else pages.ByPublishDate
        if not (order is not None and str(order).lower() in ("asc", "rev", "reverse")):
            ordered = ordered.Reverse
        # Month and weekday names in the site's language, as Hugo's time.Format writes them ("十月", "okt").
        config = pages[0]._site.config
        locale = date_locale(getattr(config, "date_language", "") or "", getattr(config, "language_code", "") or "") \
            if re.search(r"Jan|Mon", layout) else "en"
        groups = cls()
        for page in ordered:
            moment = getattr(page, field)
            key = moment.Format(layout) if locale == "en" else shown_date(moment.value, layout, locale)
            if not groups or groups[-1].Key != key:
                groups.append(PageGroup(key))
            groups[-1].Pages.append(page)
        return groups


def _related_argument(argument: Any) -> tuple["HugoPage | None", list[str]]:
    """The document and index names of .Related's argument: a page, or a map (document, indices)."""
    if isinstance(argument, HugoPage):
        return argument, []
    if not isinstance(argument, dict):
        raise UnsupportedField(f".Related takes a page or a map, not {type(argument).__name__}")
    keyed = {str(key).lower(): value for key, value in argument.items()}
    unknown = set(keyed) - {"document", "indices"}
    if unknown:
        raise UnsupportedField(f".Related's {', '.join(sorted(unknown))} is not supported by blogbuild's translation")
    document = keyed.get("document")
    if document is not None and not isinstance(document, HugoPage):
        raise UnsupportedField(f".Related's document must be a page, not {type(document).__name__}")
    given = keyed.get("indices") or []
    return document, [str(name).lower() for name in ([given] if isinstance(given, str) else given)]


def _related_date(page: "HugoPage") -> Any:
    date = page.PublishDate
    return date.value if date else None


# Hugo's page fields an index can name (NamedPageMetaValue); any other name is a page param.
_RELATED_FIELDS = {"title": "Title", "linktitle": "LinkTitle", "section": "Section", "type": "Type",
                   "kind": "Kind", "description": "Description", "date": "Date", "publishdate": "PublishDate",
                   "lastmod": "Lastmod"}


def _related_words(page: "HugoPage", index: RelatedIndex) -> list[str]:
    """One page's keywords for an index, as Hugo's RelatedKeywords reads them."""
    field = _RELATED_FIELDS.get(index.name)
    if field is not None:
        value = getattr(page, field)
        value = value.value if isinstance(value, GoTime) else value
    elif index.name == "keywords":   # the page's .Keywords: a text's words, a list of scalars as text
        value = page.Keywords
    elif index.name in ("weight", "draft", "slug", "lang", "layout", "expirydate"):
        raise RelatedError(f"an index of {index.name!r} is not supported")
    else:
        value = page.Params.get(index.name)
    return keywords(value, index, go_format)


def _unix(value: GoTime) -> float:
    """A time's whole seconds, as Hugo's date sorts compare them."""
    return math.floor(value.value.timestamp()) if value else float("-inf")


def _stamp(value: GoTime) -> float:
    return value.value.timestamp() if value else float("-inf")


class _PageRelations:
    """What a page lists and where it stands: its pages, terms, pager, neighbours and parent (HugoPage's)."""

    _site: "HugoSite"
    _kind: str
    _post: "Post | None"
    _section: "Section | None"
    _taxonomy: "Taxonomy | None"
    _term: "Term | None"
    _paginator: "Pager | None"

    @property
    def Site(self) -> "HugoSite":  # noqa: N802
        return self._site

    def _listed(self) -> list["HugoPage"]:
        site = self._site
        if self._kind == "home":   # with disableKinds' section, the home page has no sections to list
            children = site.home_children()
            return [page for page in children if page.Kind != "section"] \
                if "section" in site.config.hugo_disabled_kinds else children
        if self._kind == "sitemap":
            return site.every_page()
        if self._section is not None:
            return site.section_children(self._section)
        if self._term is not None:
            return site.term_children(self._term)
        if self._taxonomy is not None:
            return site.taxonomy_children(self._taxonomy)
        return []

    @property
    def Pages(self) -> PageList:  # noqa: N802
        return PageList(self._listed())

    @property
    def RegularPages(self) -> PageList:  # noqa: N802
        return PageList(page for page in self._listed() if page.IsPage)

    def GetPage(self, *refs: Any) -> "HugoPage | None":  # noqa: N802
        """A page's GetPage: a path from the content root as the site's GetPage finds it (Hugo tries a relative
        path against the page's folder first; blogbuild looks it up from the root)."""
        return self._site.GetPage(*refs)

    @property
    def Sections(self) -> PageList:  # noqa: N802 - the sections among a home's or a section's children
        if self._kind not in ("home", "section"):
            return PageList()
        return PageList(page for page in self._listed() if page.Kind == "section")

    @property
    def RegularPagesRecursive(self) -> PageList:  # noqa: N802
        if self._kind == "home":
            return self._site.RegularPages
        if self._section is not None:
            return PageList(sorted((self._site.page_of(post) for post in self._section.posts), key=_default_order))
        return self.RegularPages

    def GetTerms(self, taxonomy: Any) -> PageList:  # noqa: N802
        if self._post is None:
            return PageList()
        return PageList(self._site.terms_of(self._post, str(taxonomy)))

    @property
    def Data(self) -> "PageData":  # noqa: N802
        return PageData(self._site, self._taxonomy, self)

    @property
    def pager(self) -> "Pager | None":
        """The pager a render made (.Paginate or .Paginator), if any."""
        return self._paginator

    def Paginate(self, pages: Any, size: Any = None) -> "Pager":  # noqa: N802
        if self._paginator is None:
            elements = pages if isinstance(pages, PagesGroup) else list(pages or [])
            self._paginator = Pager.of(self._page, elements, int(size) if size else self._site.pager_size)
        return self._paginator

    @property
    def Paginator(self) -> "Pager":  # noqa: N802
        """The list paged, as Hugo pages it unasked: the home page every regular page of the site, a section
        its own regular pages (not its subsections'), a taxonomy and a term their pages."""
        if self._kind == "home":
            return self.Paginate(self._site.RegularPages)
        if self._section is not None:
            return self.Paginate(self.RegularPages)
        return self.Paginate(self._listed())

    @property
    def PrevInSection(self) -> "HugoPage | None":  # noqa: N802 - Hugo's Prev is the older page
        return self._neighbour(self._site.section_pages(self._page.Section), 1)

    @property
    def NextInSection(self) -> "HugoPage | None":  # noqa: N802
        return self._neighbour(self._site.section_pages(self._page.Section), -1)

    @property
    def Prev(self) -> "HugoPage | None":  # noqa: N802
        return self._neighbour(self._site.RegularPages, 1)

    @property
    def Next(self) -> "HugoPage | None":  # noqa: N802
        return self._neighbour(self._site.RegularPages, -1)

    def _neighbour(self, pages: Sequence["HugoPage"], step: int) -> "HugoPage | None":
        if self._post is None:
            return None
        index = self._site.position(list(pages) if not isinstance(pages, list) else pages, self._page)
        if index is None or not 0 <= index + step < len(pages):
            return None
        return pages[index + step]

    @property
    def Parent(self) -> "HugoPage | None":  # noqa: N802
        return self._site.parent_of(self._page)

    @property
    def CurrentSection(self) -> "HugoPage":  # noqa: N802
        """The page itself when it is a list (home, section, taxonomy, term), else the nearest section above it
        (the home page at the top), as Hugo's CurrentSection."""
        page = self._page
        if page.Kind in ("home", "section", "taxonomy", "term"):
            return page
        return self._site.parent_of(page) or self._site.home_page()

    @property
    def Ancestors(self) -> PageList:  # noqa: N802 - the parent, its parent, …, the home page
        found = []
        page = self.Parent
        while page is not None:
            found.append(page)
            page = page.Parent
        return PageList(found)

    @property
    def Resources(self) -> PageResources:  # noqa: N802 - a leaf bundle's files; a list page's folder has none
        return self._page._canonical._resources

    @functools.cached_property
    def _resources(self) -> PageResources:
        config = self._site.config
        content = Path(config.root) / config.source_dir
        own = self._post if self._post is not None else cast(Any, self)._index   # a branch bundle: its _index.md's
        if own is None:
            return PageResources()
        from ...core.bundle_files import shared_files_page
        owner = shared_files_page(self._site._model, own)
        found = bundle_resources(own.rel_path, own.resources, own.params, content,
                                 own.url, config.site_url, config.absolute_url, language=config.language,
                                 languages={language.key for language in config.languages},
                                 shared_at=(owner.url, owner.permalink) if owner is not None else None,
                                 prefix=config.language_folder)
        if isinstance(found, str):
            raise UnsupportedField(found)
        return found

    @property
    def _page(self) -> "HugoPage":
        return cast("HugoPage", self)


class _MenuRelations:
    """Where a page stands in the site's menus: `.IsMenuCurrent` and `.HasMenuCurrent`, by the pages the
    entries' pageRefs name, as Hugo decides (an entry with a URL only is never current)."""

    _site: "HugoSite"

    def IsMenuCurrent(self, menu: Any, entry: Any) -> bool:  # noqa: N802
        page = cast("HugoPage", self)
        own = self._own_menu_entry(str(menu))
        if own is not None and isinstance(entry, MenuEntry) and same_entry(own, entry):   # one the page declares
            return True
        if not isinstance(entry, MenuEntry) or entry.Page is None or entry.Page != page:
            return False
        return any(_same_resource(item, entry) for item in _menu_walk(self._site.Menus.get(str(menu), [])))

    def HasMenuCurrent(self, menu: Any, entry: Any) -> bool:  # noqa: N802
        page = cast("HugoPage", self)
        if not isinstance(entry, MenuEntry):
            return False
        if entry.Page is not None and entry.Page.IsSection and entry.Page in page.Ancestors:
            return True
        own = self._own_menu_entry(str(menu))
        if own is not None and any(same_entry(child, own) or self.HasMenuCurrent(menu, child)
                                   for child in entry.Children):
            return True
        return any((child.Page is not None and child.Page == page) or self.HasMenuCurrent(menu, child)
                   for child in entry.Children)


    def _own_menu_entry(self, menu: str) -> "MenuEntry | None":
        """The entry the page declares in its front matter for that menu, if any (a Hugo config's site only)."""
        page = cast("HugoPage", self)
        if getattr(self._site.config, "hugo_menus", None) is None:
            return None
        entries = page.__dict__.get("_menu_entries")
        if entries is None:
            entries = page.__dict__["_menu_entries"] = page_entries(page)
        return entries.get(menu)


def _menu_walk(entries: Iterable["MenuEntry"]) -> Iterable["MenuEntry"]:
    for entry in entries:
        yield entry
        yield from _menu_walk(entry.Children)


def _same_resource(one: "MenuEntry", other: "MenuEntry") -> bool:
    """Hugo's isSameResource: the same page, else the same non-empty URL."""
    if one.Page is not None and other.Page is not None:
        return bool(one.Page == other.Page)
    return bool(one.URL) and one.URL == other.URL


def _dotted(params: Any, key: str) -> Any:
    """A param by a dotted key ("editpost.url"), as Hugo's .Param reads nested maps; None when missing."""
    value = params.get(key) if isinstance(params, dict) else None
    if value is not None or "." not in key:
        return value
    for part in key.split("."):
        if not isinstance(params, dict):
            return None
        params = params.get(part)
    return params


def _with_main_sections(params: Params, site: "Site") -> Params:
    """The site's params with Hugo's default mainSections when they name none: the top section with the most
    pages (PaperMod lists and links the pages of site.Params.mainSections)."""
    if "mainsections" in params:
        return params
    counts: dict[str, int] = {}
    for post in site.posts:
        if post.section:
            counts[post.section] = counts.get(post.section, 0) + 1
    if not counts:
        return params
    most = max(sorted(counts), key=lambda name: counts[name])
    return Params({**params, "mainsections": [most]})


class _PageDates:
    """A page's dates and sitemap settings, as Hugo gives them: a list page's are the newest of every page
    below it."""

    _site: "HugoSite"
    _kind: str
    _post: "Post | None"
    _section: "Section | None"
    _term: "Term | None"
    _taxonomy: "Taxonomy | None"

    # -- dates (worked out once a build, on the site's object for the page: HugoPage._canonical) ------------
    @property
    def Date(self) -> GoTime:  # noqa: N802
        return cast(Any, self)._canonical._date

    @functools.cached_property
    def _date(self) -> GoTime:
        if self._post is not None:
            return GoTime(self._post.date) if self._post.date else _ZERO_TIME
        # A list page's date is the newest of its _index.md's and of every page below it, as Hugo's.
        own = cast(Any, self)._index
        dates = [post.date for post in (*self._below(), *((own,) if own is not None else ())) if post.date]
        return GoTime(max(dates)) if dates else _ZERO_TIME

    @property
    def PublishDate(self) -> GoTime:  # noqa: N802
        """Front matter's publishDate (pubdate, published), else the date, as Hugo's."""
        if self._post is not None and self._post.publish_date is not None and self._post.publish_date != self._post.date:
            return GoTime(self._post.publish_date)
        return self.Date

    @property
    def Lastmod(self) -> GoTime:  # noqa: N802
        return cast(Any, self)._canonical._lastmod

    @functools.cached_property
    def _lastmod(self) -> GoTime:
        if self._post is not None:
            return GoTime(self._post.lastmod) if self._post.lastmod else self.Date
        # A list page's is the latest of every page below it (a page's lastmod, else its date).
        stamps = [stamp for post in self._below() if (stamp := post.lastmod or post.date) is not None]
        return GoTime(max(stamps)) if stamps else _ZERO_TIME

    def _below(self) -> Sequence["Post"]:
        """The regular pages below a list page: the site's for the home page, a section's, a term's, and a
        taxonomy's (every page with one of its terms)."""
        if self._section is not None:
            return self._section.posts
        if self._term is not None:
            return self._term.posts
        if self._taxonomy is not None:
            return [post for term in self._taxonomy.terms for post in term.posts]
        if self._kind == "home":
            return self._site._model.pages
        return ()

    @property
    def Sitemap(self) -> "SitemapSettings":  # noqa: N802
        """The page's sitemap settings: its front matter's `sitemap`, else the site config's, else Hugo's
        defaults (no change frequency, priority -1: none written)."""
        given = cast(Any, self).Params.get("sitemap")   # HugoPage's params
        given = given if isinstance(given, dict) else {}
        defaults = getattr(self._site.config, "hugo_sitemap", None) or {}
        changefreq = given.get("changefreq", defaults.get("changefreq", ""))
        priority = given.get("priority", defaults.get("priority", -1))
        number = float(priority) if isinstance(priority, (int, float)) and not isinstance(priority, bool) else -1.0
        return SitemapSettings(str(changefreq or ""), number, given.get("disable") is True)


class _PageOutputs:
    """A page's language, its translations (its versions in the site's other languages) and its output formats."""

    _site: "HugoSite"
    _kind: str

    @property
    def Language(self) -> Any:  # noqa: N802
        return self._site.Language

    @property
    def Lang(self) -> str:  # noqa: N802
        return self._site.LanguageCode.split("-")[0]

    @property
    def IsTranslated(self) -> bool:  # noqa: N802
        return len(self.AllTranslations) > 1

    @property
    def Translations(self) -> "PageList":  # noqa: N802 - its versions in the other languages
        return PageList(page for page in self.AllTranslations if page is not self)

    @property
    def AllTranslations(self) -> "PageList":  # noqa: N802 - the page in every language, itself included
        return PageList(translations_of(self._site, cast(Any, self).url, self, hugo_escapes, hugo_title) or [self])

    @property
    def Sites(self) -> Any:  # noqa: N802
        return self._site.Sites

    @property
    def OutputFormats(self) -> "OutputFormatList":  # noqa: N802
        """HTML, and RSS for a list when the site publishes RSS feeds (Hugo's default outputs)."""
        formats = [OutputFormat("html", "canonical", "text/html", cast(Any, self).url)]
        if self._kind in ("home", "section", "taxonomy", "term") and "rss" in self._site.config.feeds \
                and self._kind in getattr(self._site.config, "hugo_rss_kinds", (self._kind,)):
            feed = cast(Any, self).url + getattr(self._site.config, "rss_file", "index.xml")
            formats.append(OutputFormat("rss", "alternate", "application/rss+xml", feed))
        if self._kind == "home" and getattr(self._site.config, "hugo_home_json", False):
            formats.append(OutputFormat("json", "alternate", "application/json", "/index.json"))
        post = cast(Any, self)._post
        named = post.params.get("outputs") if post is not None else None
        if isinstance(named, list) and "json" in {str(name).lower() for name in named}:   # its front matter's
            formats.append(OutputFormat("json", "alternate", "application/json", cast(Any, self).url + "index.json"))
        if self._kind == "page":   # the output formats the config defines for pages (index.md beside the page)
            for name, settings in (getattr(self._site.config, "hugo_page_outputs", None) or {}).items():
                formats.append(OutputFormat(name, str(settings["rel"]), str(settings["media_type"]),
                                            cast(Any, self).url + str(settings["file"])))
        return OutputFormatList(self._site, formats)

    @property
    def AlternativeOutputFormats(self) -> "OutputFormatList":  # noqa: N802
        return OutputFormatList(self._site, [item for item in self.OutputFormats if item.Name != "html"])


# A shortcode written literally in content ({{</* figure */>}}): no call.
_SHORTCODE_COMMENT = re.compile(r"\{\{[<%]/\*.*?\*/[>%]\}\}", re.S)


class _PageText:
    """A page's content as Hugo's templates read it: .Content, .Summary and .Truncated, .Plain, .WordCount and
    .ReadingTime (Hugo's counts), each worked out once a build on the site's one object for the page."""

    _site: "HugoSite"
    _post: "Post | None"
    _content_post: "Post | None"
    _section: "Section | None"
    _term: "Term | None"
    _taxonomy: "Taxonomy | None"

    if TYPE_CHECKING:   # what HugoPage gives these
        @property
        def _canonical(self) -> "HugoPage": ...

        @property
        def _home_index(self) -> "Post | None": ...

        @property
        def Params(self) -> Params: ...  # noqa: N802

        def RenderString(self, *arguments: Any) -> Markup: ...  # noqa: N802

        def _content_rendered(self) -> None: ...

    def _reads_body(self) -> None:
        reads = BODY_READS[0]
        if reads is not None and self._post is not None:
            reads.add(self._post.url)

    @property
    def Content(self) -> Markup:  # noqa: N802
        self._reads_body()
        self._content_rendered()
        post = self._content_post or self._post
        if post is not None:   # Hugo's content has no summary divider
            return Markup(without_divider(post.content_html))
        for source in (self._section, self._term, self._taxonomy, self._home_index):
            if source is not None:
                return Markup(source.content_html)
        return Markup("")

    @property
    def Summary(self) -> Markup:  # noqa: N802
        self._reads_body()
        self._content_rendered()
        return new_str(Markup, self._canonical._summary[0])

    @property
    def Truncated(self) -> bool:  # noqa: N802
        self._reads_body()
        self._content_rendered()
        return self._canonical._summary[1]

    @property
    def ContentWithoutSummary(self) -> Markup:  # noqa: N802
        """Hugo 0.134's: the content after the divider, or after the automatic summary; all of it when the front
        matter gives the summary."""
        self._reads_body()
        self._content_rendered()
        post = self._content_post or self._post
        html = (post.content_html if post is not None else str(self.Content)).strip()
        if post is not None and _DIVIDER in html:
            return Markup(html.split(_DIVIDER, 1)[1].strip())
        written = self.Params.get("summary") if post is not None else None
        if written and isinstance(written, (str, int, float)):
            return self.Content
        summary = self._canonical._summary[0]
        return Markup(html[len(summary):].strip() if html.startswith(summary) else "")

    @functools.cached_property
    def _summary(self) -> tuple[str, bool]:
        """The summary and whether it is shorter than the content: the front matter's or the divider's (as
        blogbuild makes it), else Hugo's automatic one."""
        post = self._post
        if post is None:   # a list page: its _index.md's text, summarised the same way
            content = str(self.Content)
            return hugo_summary(content, self._site.config.hugo_summary_words, self._is_cjk) if content else ("", False)
        words, known = self._site.config.hugo_summary_words, self._known_text
        written = self.Params.get("summary")
        if known is not None and known[SUMMARY] and known[SUMMARY][0] == words and known[IS_CJK] == self._is_cjk \
                and written is None:
            # Made of this content, which has no divider, for a page whose front matter writes no summary: a
            # list showing the post need not unpack its content.
            return known[SUMMARY][1], known[SUMMARY][2]
        written = written if isinstance(written, (str, int, float)) else None   # not text: Hugo ignores it
        html = post.content_html   # unpacked once here
        if written and _DIVIDER not in html:
            # Front matter's summary: its markdown rendered inline, and not "truncated", as Hugo 0.168 gives it.
            return str(self.RenderString(str(written))), False
        if _DIVIDER in html:   # the content before the divider, as rendered (images and all)
            return html.split(_DIVIDER, 1)[0].strip(), post.truncated
        if written is not None:
            return post.summary_html, post.truncated
        return hugo_summary(html, words, self._is_cjk)

    @functools.cached_property
    def _known_text(self) -> tuple[Any, ...] | None:
        """The post's measures as the markdown stage worked them out (Post.hugo_text, page_text.py), when they are
        of the content the post holds now (a later stage may have rewritten it)."""
        post = self._post
        if post is None or not post.hugo_text:
            return None
        return post.hugo_text if post.hugo_text[KEY] == content_key(post.packed_html) else None

    @property
    def RawContent(self) -> str:  # noqa: N802
        """The page's markdown as written in its file, without its front matter ("" for a page of no file)."""
        self._reads_body()
        return self._canonical._raw_content

    def HasShortcode(self, name: Any) -> bool:  # noqa: N802
        """Whether the page's content calls the shortcode (`{{< name >}}` or `{{% name %}}`, one written
        literally as `{{</* name */>}}` not)."""
        self._reads_body()
        text = _SHORTCODE_COMMENT.sub("", self._canonical._raw_content)
        return re.search(r"\{\{[<%]\s*" + re.escape(str(name)) + r"(?=[\s/>%])", text) is not None

    @functools.cached_property
    def _raw_content(self) -> str:
        if self._post is None:
            return ""
        from ...core.model import SourceFile
        from ...disk.frontmatter import parse_front_matter
        path = Path(self._post.source)
        path = path if path.is_absolute() else Path(self._site.config.root) / path
        try:
            text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
        except (OSError, UnicodeDecodeError) as error:
            raise UnsupportedField(f".RawContent: cannot read {self._post.source} ({error})") from None
        return parse_front_matter(SourceFile(self._post.source, self._post.rel_path, text, "page", ())).body

    @property
    def Plain(self) -> str:  # noqa: N802
        """Hugo's .Plain: the content through its StripHTML (plainify), entities kept as written."""
        self._reads_body()
        self._content_rendered()
        return self._canonical._plain

    @functools.cached_property
    def _plain(self) -> str:
        self._content_rendered()   # as .Content does (the content this page shows: rendered again, or not)
        known = self._known_text
        if known is not None and self._content_post is None:
            return known[PLAIN]
        content = str(self.Content)
        return str(FUNCTIONS["plainify"](content)) if content else ""

    @property
    def _is_cjk(self) -> bool:
        """Hugo's isCJKLanguage: the site says hasCJKLanguage and the page's text has a CJK character."""
        return self._canonical._has_cjk

    @functools.cached_property
    def _has_cjk(self) -> bool:
        """The front matter's isCJKLanguage, whatever the site's hasCJKLanguage; else, with hasCJKLanguage, whether
        the page's text has a CJK character (Hugo reads its markdown: the same but for CJK only in code, front
        matter or raw HTML)."""
        if self._post is None:
            return self._site.has_cjk and page_is_cjk({}, self.Plain, True)
        return page_is_cjk(self._post.params, self._post.plain_text, self._site.has_cjk)

    @property
    def WordCount(self) -> int:  # noqa: N802
        """Hugo's count: the whitespace-separated words of the plain text; on a CJK page a word with any
        character outside ASCII counts each of its characters."""
        self._reads_body()
        return self._canonical._word_count

    @functools.cached_property
    def _word_count(self) -> int:
        self._content_rendered()
        known = self._known_text
        if known is not None and self._content_post is None and known[IS_CJK] == self._is_cjk:
            return known[WORDS]
        return word_count(self.Plain, self._is_cjk)

    @property
    def ReadingTime(self) -> int:  # noqa: N802
        """Hugo 0.168's minutes (page_text.reading_time)."""
        return reading_time(self.WordCount, self._is_cjk)


class HugoPage(_PageText, _PageDates, _PageOutputs, _PageRelations, _MenuRelations, GoObject):
    """One page as Hugo's templates see it: a regular page (a Post), or a list page (home, section, taxonomy,
    term) with the pages it lists."""

    kind = "Page"
    # A page of one build's model (the build's partialCached results are cleared with it): Runner keeps the
    # results of the pure partials it is given (purity.py).
    keeps_partials = True

    def __init__(self, site: "HugoSite", page_kind: str, *, post: "Post | None" = None,
                 section: "Section | None" = None, taxonomy: "Taxonomy | None" = None, term: "Term | None" = None,
                 title: str = "", url: str = "/") -> None:
        assert page_kind in _KINDS or page_kind in ("404", "sitemap"), page_kind
        self._site = site
        self._kind = page_kind
        self._post = post
        self._section = section
        self._taxonomy = taxonomy
        self._term = term
        self._title = title
        self._url = url
        self._paginator: Pager | None = None
        # The layouts' Store; what its content's shortcodes and render hooks put there (kept with the rendered post)
        # joins it when a layout first reads the content (_content_rendered).
        self._store: dict[str, Any] = {}
        self._content_store = post.page_store if post is not None else ()
        self._content_read = False   # whether a layout has read the content on this render
        self._content_post: "Post | None" = None   # the post as its content was rendered again, if it was
        self.page_number = 1     # the list page being rendered (1 for page 1), for .Paginate

    def __repr__(self) -> str:
        return f"HugoPage({self._kind} {self.url})"

    def __eq__(self, other: object) -> bool:   # the same page, whichever object stands for it (Go's eq)
        return isinstance(other, HugoPage) and (self._kind, self.url) == (other._kind, other.url)

    def __hash__(self) -> int:
        return hash((self._kind, self.url))

    # -- what the page is ------------------------------------------------------------------------
    @property
    def Kind(self) -> str:  # noqa: N802 - Hugo's names throughout
        return self._kind

    @property
    def IsPage(self) -> bool:  # noqa: N802
        return self._kind == "page"

    @property
    def IsHome(self) -> bool:  # noqa: N802
        return self._kind == "home"

    @property
    def IsSection(self) -> bool:  # noqa: N802
        return self._kind == "section"

    @property
    def IsNode(self) -> bool:  # noqa: N802
        return self._kind != "page"

    @property
    def Section(self) -> str:  # noqa: N802
        if self._post is not None:
            return self._post.section
        if self._section is not None:
            return self._section.name.split("/")[0]
        if self._taxonomy is not None or self._term is not None:
            return (self._taxonomy or self._site.taxonomy_of(self._term)).name
        return ""

    @property
    def Type(self) -> str:  # noqa: N802
        given = self.Params.get("type")
        return str(given) if given else (self.Section or "page")

    @property
    def Title(self) -> str:  # noqa: N802
        if self._post is not None:
            return self._post.title
        # A section or term whose _index.md gives no title has none, as in Hugo; without an _index.md, its name.
        if self._section is not None:
            if self._section.index is None:   # Hugo's pluralizeListTitles
                return hugo_title(pluralize(self._section.name.rsplit("/", 1)[-1]))
            return self._section.title if _titled(self._section.index) else ""
        if self._term is not None:
            if self._term.index is not None and not _titled(self._term.index):
                return ""
            return self._term.title or hugo_title(self._term.name)
        if self._taxonomy is not None:
            if self._taxonomy.index is not None and not _titled(self._taxonomy.index):
                return ""
            return self._taxonomy.title or hugo_title(self._taxonomy.name)
        home = self._home_index
        return home.title if home is not None and home.title else self._title

    @property
    def _home_index(self) -> "Post | None":
        """The home page's content/_index.md (its title, params, description and text), if it has one."""
        return self._site._model.home if self._kind == "home" else None

    @property
    def _index(self) -> "Post | None":
        """The list page's _index.md: the home page's, its section's or its term's."""
        if self._term is not None:
            return self._term.index
        return self._section.index if self._section is not None else self._home_index

    @property
    def LinkTitle(self) -> str:  # noqa: N802
        return str(self.Params.get("linktitle") or self.Title)

    @property
    def RelPermalink(self) -> str:  # noqa: N802
        return self._canonical._rel_permalink

    @property
    def Permalink(self) -> str:  # noqa: N802
        return self._canonical._permalink

    @functools.cached_property
    def _rel_permalink(self) -> str:
        return hugo_escapes(self._site.config.site_url(self.url))

    @functools.cached_property
    def _permalink(self) -> str:
        return hugo_escapes(self._site.config.absolute_url(self.url))

    @property
    def url(self) -> str:
        for source in (self._post, self._section, self._term, self._taxonomy):
            if source is not None:
                return str(source.url)
        return self._url

    @property
    def _canonical(self) -> "HugoPage":
        """The site's one object for this page (the one its lists hold; this one for a 404 page): what is the
        same on every render of the page (its params, text measures, summary, dates) is worked out there,
        once a build."""
        found = self.__dict__.get("_canonical_page")
        if found is None:
            site = self._site
            if self._post is not None:
                found = site.page_of(self._post)
            elif self._section is not None:
                found = site.section_page(self._section)
            elif self._term is not None and self._taxonomy is not None:
                found = site.term_page(self._taxonomy, self._term)
            elif self._taxonomy is not None:
                found = site.taxonomy_page(self._taxonomy)
            elif self._kind == "home":
                found = site.home_page()
            if found is None or (found._kind, found._post, found._section, found._taxonomy, found._term) != \
                    (self._kind, self._post, self._section, self._taxonomy, self._term):
                found = self
            self.__dict__["_canonical_page"] = found
        return found

    @functools.cached_property
    def _params(self) -> Params:
        own = self._post if self._post is not None else self._index
        if self._post is not None:   # Hugo sets a page's iscjklanguage param to what it decided
            return Params.of({**{key: value for key, value in self._post.params.items()
                                 if str(key).lower() != "iscjklanguage"}, "iscjklanguage": self._is_cjk})
        return Params.of(own.params if own is not None else _cascaded_params(self._kind, self.url, self._site.config))

    @property
    def Params(self) -> Params:  # noqa: N802
        return self._canonical._params

    def Param(self, key: Any) -> Any:  # noqa: N802 - the page's param, else the site's
        name = str(key).lower()
        value = _dotted(self.Params, name)
        return value if value is not None else _dotted(self._site.Params, name)

    @property
    def Name(self) -> str:  # noqa: N802 - Hugo's .Name of a page is its title; a term page's, its term as written
        return self._term.name if self._term is not None and self._kind == "term" else self.Title

    @property
    def Page(self) -> "HugoPage":  # noqa: N802 - a page's .Page is itself
        return self

    def RenderString(self, *arguments: Any) -> Markup:  # noqa: N802
        """Markdown to HTML as the page's content is rendered: `.RenderString "text"` or with an options map
        first (`display: inline` keeps a single paragraph's text without its <p>)."""
        from .shortcode_page import render_string
        return render_string(self._site.markdownify, arguments)

    def Render(self, layout: Any) -> Markup:  # noqa: N802
        """The page rendered with the site's layout of that name (a content view: `.Render "summary"`)."""
        views = getattr(self._site, "views", None)
        if views is None:
            raise UnsupportedField("Page.Render is not supported by blogbuild's translation here")
        return views(self, str(layout))

    def lookup_path(self) -> str:
        """The content path Hugo's layout lookup walks for the page: posts/a, posts, tags/go, tags, ""."""
        if self._post is not None:
            path = self._post.rel_path.rsplit(".", 1)[0]
            return path[:-len("/index")] if path.endswith("/index") else path
        if self._section is not None:
            return str(self._section.name)
        if self._term is not None and self._taxonomy is not None:
            return f"{self._taxonomy.name}/{self._term.slug}"
        if self._taxonomy is not None:
            return str(self._taxonomy.name)
        return "404" if self._kind == "404" else ""

    @property
    def Layout(self) -> str:  # noqa: N802 - front matter's layout:, "" when none
        return str(self.Params.get("layout") or "")

    @property
    def Slug(self) -> str:  # noqa: N802 - front matter's slug as written, "" when none (or not text), as Hugo's
        for source in (self._post, self._section, self._term, self._home_index):
            if source is not None:
                written = getattr(source, "params", {}).get("slug")
                return str(written).strip() if isinstance(written, (str, int, float)) else ""
        return ""

    @property
    def Description(self) -> str:  # noqa: N802
        for source in (self._post, self._section, self._term, self._home_index):
            if source is not None and getattr(source, "description", None):
                return str(source.description)
        return ""

    @property
    def GitInfo(self) -> None:  # noqa: N802 - nil, as Hugo's without enableGitInfo (blogbuild reads no git history)
        return None

    @property
    def Keywords(self) -> list[str]:  # noqa: N802 - front matter's keywords, as cast.ToStringSlice reads them
        return string_slice(self.Params.get("keywords"))

    @property
    def Draft(self) -> bool:  # noqa: N802
        return bool(self._post is not None and self._post.draft)

    @property
    def Weight(self) -> int:  # noqa: N802
        own = self._post if self._post is not None else self._index
        return (own.weight or 0) if own is not None else 0

    @property
    def TableOfContents(self) -> Markup:  # noqa: N802
        self._reads_body()
        self._content_rendered()
        post = self._content_post or self._post or self._index   # a list page's _index.md; none: an empty nav
        return Markup(self._site.table_of_contents(post))

    def _content_rendered(self) -> None:
        """Hugo renders a page's content when a layout first reads it (.Content, .Summary, .Plain, .WordCount,
        .TableOfContents), and what its shortcodes and render hooks write to the page's Store lands then, after
        what the layouts set before (a map a layout made is added to, as their SetInMap adds to it); the files
        they published through Hugo Pipes are published by the render that reads it. Content whose shortcodes or
        hooks read a Store key the layouts have set by then is rendered again with that Store (content_again):
        whole, or only the hook calls that read it when they wrote nothing there."""
        post, first, self._content_read = self._post, not self._content_read, True
        if first and post is not None and post.store_reads and any(key in self._store for key in post.store_reads):
            # Its shortcodes or hooks read a key of the Store that the layouts have set since: the content as Hugo
            # renders it then, seeing their values and writing into the same Store (publishing in this render).
            again = self._site.content_again(post, self._store) if self._site.content_again is not None else None
            if again is not None:
                self._content_post, whole = again
                if whole:   # its render wrote to the Store and published: nothing of the first render is left
                    self._content_store = ()
                    return
        own = self._post if self._post is not None else self._index   # a page's file, or a list's _index.md
        if own is not None and own.published_files:
            from .pipes import publish_recorded
            publish_recorded(own.published_files)
        pending, self._content_store = self._content_store, ()
        for key, value in pending:
            current = self._store.get(key)
            if isinstance(current, dict) and isinstance(value, dict):
                current.update(copy.deepcopy(value))
            else:
                self._store[key] = copy.deepcopy(value)

    @property
    def Store(self) -> "Scratch":  # noqa: N802
        self._reads_body()   # what the content's shortcodes put there joins it when the content is read
        return Scratch(self._store)

    Scratch = Store

    @property
    def File(self) -> "PageFile | None":  # noqa: N802
        return PageFile(self._post.rel_path) if self._post is not None else None

    @property
    def Aliases(self) -> list[str]:  # noqa: N802
        return list(self._post.aliases) if self._post is not None else []

    @property
    def Len(self) -> int:  # noqa: N802
        return len(self.Content)


class OutputFormat(GoObject):
    """One output of a page: `.Name`, `.Rel`, `.MediaType.Type`, `.Permalink`, `.RelPermalink`."""

    kind = "OutputFormat"

    def __init__(self, name: str, rel: str, media_type: str, url: str) -> None:
        self.Name = name
        self.Rel = rel
        self.MediaType = _MediaType(media_type)
        self.url = url

    def bind(self, site: "HugoSite") -> "OutputFormat":
        self._site = site
        return self

    @property
    def RelPermalink(self) -> str:  # noqa: N802
        return hugo_escapes(self._site.config.site_url(self.url))

    @property
    def Permalink(self) -> str:  # noqa: N802
        return hugo_escapes(self._site.config.absolute_url(self.url))


class _MediaType(GoObject):
    kind = "MediaType"

    def __init__(self, media_type: str) -> None:
        self.Type = media_type
        self.MainType, _, self.SubType = media_type.partition("/")

    def __str__(self) -> str:
        return self.Type


class OutputFormatList(list, GoObject):
    """A page's outputs (a list, as range sees it), with `.Get NAME` (any case)."""

    kind = "OutputFormatList"

    def __init__(self, site: "HugoSite", formats: Iterable[OutputFormat]) -> None:
        super().__init__(item.bind(site) for item in formats)

    def Get(self, name: Any) -> OutputFormat | None:  # noqa: N802
        wanted = str(name).lower()
        return next((item for item in self if item.Name == wanted), None)


class Pager(GoObject):
    """`.Paginator` / `.Paginate`: one page of a paginated list. A pager of page groups (`.GroupByDate`'s)
    pages the groups' pages, as Hugo does: `.PageGroups` is the groups cut to this pager's pages, `.Pages` empty."""

    kind = "Pager"

    def __init__(self, owner: HugoPage, pages: "list[HugoPage] | PagesGroup", size: int, number: int) -> None:
        self._owner = owner
        self._groups = pages if isinstance(pages, PagesGroup) else None
        self._pages = [page for group in pages for page in group.Pages] if isinstance(pages, PagesGroup) else pages
        self._size = max(1, size)
        self.PageNumber = number
        self.TotalNumberOfElements = len(self._pages)

    @classmethod
    def of(cls, owner: HugoPage, pages: "list[HugoPage] | PagesGroup", size: int) -> "Pager":
        return cls(owner, pages, size, owner.page_number)

    def __eq__(self, other: object) -> bool:   # `eq . $paginator` in a range of .Pagers: Hugo's one pager
        return isinstance(other, Pager) and (self._owner, self.PageNumber, self._size) == \
            (other._owner, other.PageNumber, other._size) and self._pages is other._pages

    def __hash__(self) -> int:
        return hash((self._owner, self.PageNumber, self._size))

    def _window(self) -> tuple[int, int]:
        start = (self.PageNumber - 1) * self._size
        return start, min(start + self._size, len(self._pages))

    @property
    def Pages(self) -> list[HugoPage]:  # noqa: N802
        if self._groups is not None:
            return PageList()
        start, end = self._window()
        return PageList(self._pages[start:end])   # a page list: .GroupByDate, .ByTitle, … on a pager's pages

    @property
    def PageGroups(self) -> "PagesGroup":  # noqa: N802
        """The groups of this pager's pages, each run of one key a group (Hugo's splitPageGroups)."""
        cut = PagesGroup()
        if self._groups is None:
            return cut
        keyed = [(group.Key, page) for group in self._groups for page in group.Pages]
        start, end = self._window()
        for key, page in keyed[start:end]:
            if not cut or cut[-1].Key != key:
                cut.append(PageGroup(key))
            cut[-1].Pages.append(page)
        return cut

    @property
    def NumberOfElements(self) -> int:  # noqa: N802
        start, end = self._window()
        return max(0, end - start)

    @property
    def TotalPages(self) -> int:  # noqa: N802 - 0 for an empty list, whose one pager is still page 1
        return math.ceil(len(self._pages) / self._size)

    @property
    def PagerSize(self) -> int:  # noqa: N802
        return self._size

    @property
    def HasPrev(self) -> bool:  # noqa: N802
        return self.PageNumber > 1

    @property
    def HasNext(self) -> bool:  # noqa: N802
        return self.PageNumber < self.TotalPages

    def _at(self, number: int) -> "Pager":
        return Pager(self._owner, self._pages, self._size, number)

    @property
    def Prev(self) -> "Pager | None":  # noqa: N802
        return self._at(self.PageNumber - 1) if self.HasPrev else None

    @property
    def Next(self) -> "Pager | None":  # noqa: N802
        return self._at(self.PageNumber + 1) if self.HasNext else None

    @property
    def First(self) -> "Pager":  # noqa: N802
        return self._at(1)

    @property
    def Last(self) -> "Pager":  # noqa: N802
        return self._at(max(1, self.TotalPages))

    @property
    def URL(self) -> str:  # noqa: N802
        base = self._owner.RelPermalink
        return base if self.PageNumber == 1 else f"{base}page/{self.PageNumber}/"

    @property
    def Pagers(self) -> list["Pager"]:  # noqa: N802
        return [self._at(number) for number in range(1, max(1, self.TotalPages) + 1)]


class SitemapSettings(GoObject):
    """A page's `.Sitemap`: `.ChangeFreq`, `.Priority` (a float; below 0: none), `.Disable`."""

    kind = "SitemapConfig"

    def __init__(self, changefreq: str, priority: float, disable: bool) -> None:
        self.ChangeFreq = changefreq
        self.Priority = priority
        self.Disable = disable


class PageData(GoObject):
    """`.Data` of a list page: `.Terms` on a taxonomy page (term name -> its pages), `.Term` on a term page,
    `.Singular` and `.Plural` on both."""

    kind = "Data"

    def __init__(self, site: "HugoSite", taxonomy: "Taxonomy | None", page: Any = None) -> None:
        self._site = site
        self._taxonomy = taxonomy
        self._page = page

    @property
    def Pages(self) -> PageList:  # noqa: N802 - a list page's .Pages
        if self._page is None:
            raise UnsupportedField(".Data.Pages is only on a list page")
        return self._page.Pages

    @property
    def Terms(self) -> "TaxonomyTerms":  # noqa: N802
        if self._taxonomy is None:
            raise UnsupportedField(".Data.Terms is only on a taxonomy page")
        return self._site.taxonomy_terms(self._taxonomy)

    @property
    def Term(self) -> str | None:  # noqa: N802
        """A term page's term as first written ("Machine Learning"); nil on every other page, as in Hugo."""
        term = getattr(self._page, "_term", None)
        return term.name if term is not None else None

    @property
    def Plural(self) -> str:  # noqa: N802
        return self._taxonomy.name if self._taxonomy is not None else ""

    @property
    def Singular(self) -> str:  # noqa: N802
        return self._taxonomy.singular if self._taxonomy is not None else ""


class WeightedPages(list, GoObject):
    """The pages of one term (a list, as range sees it), with `.Page` the term's page and `.Count`."""

    kind = "WeightedPages"

    def __init__(self, page: HugoPage, pages: Iterable[HugoPage], name: str) -> None:
        super().__init__(pages)
        self.Page = page
        self.Name = name
        self.Term = name

    @property
    def Count(self) -> int:  # noqa: N802
        return len(self)

    @property
    def Pages(self) -> list[HugoPage]:  # noqa: N802
        return list(self)


class TaxonomyTerms(dict, GoObject):
    """A taxonomy's terms (term key -> WeightedPages), with Hugo's orderings `.Alphabetical` and `.ByCount`."""

    kind = "Taxonomy"
    page: Callable[[], Any] | None = None   # the taxonomy's own list page, made when asked

    @property
    def Page(self) -> Any:  # noqa: N802 - the taxonomy's list page (/tags/)
        return self.page() if self.page is not None else None

    collation = "root"   # the site's (SiteInfo.collation)

    @property
    def Alphabetical(self) -> list[WeightedPages]:  # noqa: N802 - by key, in the collation of the site's language
        return [self[key] for key in sorted(self, key=lambda key: collation_key(str(key), self.collation))]

    @property
    def ByCount(self) -> list[WeightedPages]:  # noqa: N802 - most pages first, then by key as compare.Strings
        return [self[key] for key in sorted(self, key=lambda key: (-self[key].Count, fold_key(str(key))))]

    def Count(self, key: Any) -> int:  # noqa: N802
        entry = self.get(str(key))
        return len(entry) if entry is not None else 0


class PageFile(GoObject):
    """`.File` of a regular page."""

    kind = "File"

    def __init__(self, rel_path: str) -> None:
        self.Path = rel_path
        self.LogicalName = rel_path.rsplit("/", 1)[-1]
        self.BaseFileName = self.LogicalName.rsplit(".", 1)[0]
        self.ContentBaseName = self.BaseFileName if self.BaseFileName not in ("index", "_index") else \
            (rel_path.rsplit("/", 2)[-2] if "/" in rel_path else self.BaseFileName)
        self.Dir = rel_path.rsplit("/", 1)[0] + "/" if "/" in rel_path else ""
        self.Ext = self.LogicalName.rsplit(".", 1)[-1] if "." in self.LogicalName else ""


class SiteBefore0124:
    """What themes written before Hugo 0.124 read of `.Site`, as that Hugo gave it (0.168 no longer has these: a
    site pinned to an older Hugo builds with its theme as that Hugo builds it)."""

    config: Any
    Config: Any

    @property
    def LastChange(self) -> GoTime:  # noqa: N802 - Hugo before 0.123: the site's last change, Lastmod since
        return cast(Any, self).Lastmod

    @property
    def Author(self) -> Params:  # noqa: N802 - the config's top-level author map
        return Params.of(self.config.hugo_site_maps.get("author") or {})

    @property
    def Social(self) -> Params:  # noqa: N802 - the config's top-level social map
        return Params.of(self.config.hugo_site_maps.get("social") or {})

    @property
    def DisqusShortname(self) -> str:  # noqa: N802 - services.disqus.shortname since
        return str(self.config.hugo_disqus_shortname or "")

    @property
    def GoogleAnalytics(self) -> str:  # noqa: N802 - services.googleAnalytics.id since
        return str(self.Config.Services.GoogleAnalytics.ID or "")

    @property
    def IsMultiLingual(self) -> bool:  # noqa: N802 - hugo.IsMultilingual since
        return len(getattr(self.config, "languages", ()) or ()) > 1


class HugoSite(SiteLanguages, SiteBefore0124, SiteInfo):
    """`site` / `.Site` over a blogbuild Site: its pages, sections, taxonomies and menus, besides the title,
    base URL, params and language SiteInfo has."""

    kind = "Site"

    def __init__(self, site: "Site", info: SiteInfo, *, has_cjk: bool = False,
                 markdownify: Callable[[str], str] | None = None,
                 views: Callable[["HugoPage", str], Markup] | None = None,
                 content_again: Callable[["Post", dict[str, Any]], "tuple[Post, bool] | None"] | None = None) -> None:
        # markdownify: markdown to HTML with the site's settings, for a page's .RenderString.
        object.__setattr__(self, "markdownify", markdownify or (lambda text: text))
        # views: a page rendered with one of the site's layouts by name, for a page's .Render.
        object.__setattr__(self, "views", views)
        # content_again: a post's content rendered again with the page's Store as its layouts have left it (None
        # when it cannot be), for a page whose shortcodes and hooks read what they set.
        object.__setattr__(self, "content_again", content_again)
        object.__setattr__(self, "Title", info.Title)
        object.__setattr__(self, "BaseURL", info.BaseURL)
        object.__setattr__(self, "Params", _with_main_sections(info.Params, site))
        object.__setattr__(self, "LanguageCode", info.LanguageCode)
        object.__setattr__(self, "Copyright", info.Copyright)
        object.__setattr__(self, "_model", site)
        object.__setattr__(self, "config", site.config)
        object.__setattr__(self, "has_cjk", has_cjk)
        object.__setattr__(self, "_pages", {})
        object.__setattr__(self, "_terms", {})
        object.__setattr__(self, "_indexes", {})
        object.__setattr__(self, "_related", {})
        object.__setattr__(self, "_where", {})
        object.__setattr__(self, "_children", {})
        object.__setattr__(self, "_folders", {})

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return other is self

    # -- pages by what they come from ------------------------------------------------------------
    def page_of(self, post: "Post") -> HugoPage:
        page = self._pages.get(post.url)
        if page is None:
            page = self._pages[post.url] = HugoPage(self, "page", post=post)
        return page

    def section_page(self, section: "Section") -> HugoPage:
        key = ("section", section.url)
        page = self._pages.get(key)
        if page is None:
            page = self._pages[key] = HugoPage(self, "section", section=section)
        return page

    def term_page(self, taxonomy: "Taxonomy", term: "Term") -> HugoPage:
        key = ("term", term.url)
        page = self._pages.get(key)
        if page is None:
            page = self._pages[key] = HugoPage(self, "term", taxonomy=taxonomy, term=term)
        return page

    def taxonomy_page(self, taxonomy: "Taxonomy") -> HugoPage:
        key = ("taxonomy", taxonomy.url)
        page = self._pages.get(key)
        if page is None:
            page = self._pages[key] = HugoPage(self, "taxonomy", taxonomy=taxonomy)
        return page

    def home_page(self) -> HugoPage:
        page = self._pages.get("home")
        if page is None:
            page = self._pages["home"] = HugoPage(self, "home", title=self.Title, url="/")
        return page

    def not_found_page(self) -> HugoPage:
        return HugoPage(self, "404", title="404 Page not found", url="/404.html")

    def taxonomy_of(self, term: "Term | None") -> "Taxonomy":
        return next(taxonomy for taxonomy in self._model.taxonomies if term is not None and term.taxonomy ==
                    taxonomy.name)

    # -- lists -----------------------------------------------------------------------------------
    @functools.cached_property
    def RegularPages(self) -> PageList:  # noqa: N802
        """Every regular page in Hugo's default order: weight, then date (newest first), then title."""
        return PageList(sorted((self.page_of(post) for post in self._model.pages), key=_default_order))

    @property
    def Pages(self) -> PageList:  # noqa: N802
        return self.RegularPages

    @property
    def AllPages(self) -> PageList:  # noqa: N802
        return self.RegularPages

    @property
    def Home(self) -> HugoPage:  # noqa: N802
        return self.home_page()

    def every_page(self) -> list[HugoPage]:
        """Every page the site publishes but its 404 page (the home page, its sections, taxonomies, terms and
        regular pages), in Hugo's default order: what the sitemap lists."""
        pages = [self.home_page(), *(self.section_page(section) for section in self._model.sections)]
        for taxonomy in self._model.taxonomies:
            pages.append(self.taxonomy_page(taxonomy))
            pages += [self.term_page(taxonomy, term) for term in taxonomy.terms]
        return sorted([*pages, *self.RegularPages], key=_default_order)

    def section_pages(self, section: str) -> list[HugoPage]:
        """The regular pages of one top section, in Hugo's default order (made once per section)."""
        by_section = self._sections_cache()
        return by_section.get(section, [])

    def _sections_cache(self) -> dict[str, list[HugoPage]]:
        found = self.__dict__.get("_by_section")
        if found is None:
            found = {}
            for page in self.RegularPages:
                found.setdefault(page.Section, []).append(page)
            object.__setattr__(self, "_by_section", found)
        return found

    def position(self, pages: list[HugoPage], page: HugoPage) -> int | None:
        """Where a regular page is in one of the site's lists (its index, kept per list)."""
        indexes = self._indexes.get(id(pages))
        if indexes is None or indexes[0] is not pages:
            indexes = (pages, {id(item._post): number for number, item in enumerate(pages)})
            self._indexes[id(pages)] = indexes
        return indexes[1].get(id(page._post))

    def holds_other_files(self, folder: Path) -> bool:
        """Whether a list page's folder holds a file that is no markdown (a branch bundle's resources), looked
        at once per folder in a build."""
        found = self._folders.get(folder)
        if found is None:
            found = self._folders[folder] = folder.is_dir() and any(
                path.suffix != ".md" and path.is_file() for path in folder.iterdir())
        return bool(found)

    def home_children(self) -> list[HugoPage]:
        """The home page's .Pages: the top sections and the regular pages at the top of content/ (made once)."""
        found = self._children.get("")
        if found is None:
            sections = [self.section_page(section) for section in self._model.sections if "/" not in section.name]
            top = [page for page in self.RegularPages
                   if page._post is not None and "/" not in _bundle_path(page._post)]
            found = self._children[""] = sorted([*sections, *top], key=_default_order)
        return list(found)

    def section_children(self, section: "Section") -> list[HugoPage]:
        """A section's .Pages: its regular pages (in a folder below it that is no section too) and its sections
        one level down, in Hugo's default order (made once per section)."""
        found = self._children.get("/" + section.name)
        if found is None:
            prefix = section.name + "/"
            here = self.section_page(section)   # its pages are those it is the nearest section of
            own = [self.page_of(post) for post in section.posts if self.parent_of(self.page_of(post)) == here]
            subsections = [self.section_page(child) for child in self._model.sections
                           if child.name.startswith(prefix) and "/" not in child.name[len(prefix):]]
            found = self._children["/" + section.name] = sorted([*own, *subsections], key=_default_order)
        return list(found)

    def term_children(self, term: "Term") -> list[HugoPage]:
        """A term's .Pages: its pages in Hugo's default order (made once per term)."""
        found = self._children.get(("term", term.url))
        if found is None:
            found = self._children[("term", term.url)] = sorted((self.page_of(post) for post in term.posts),
                                                                key=_default_order)
        return list(found)

    def taxonomy_children(self, taxonomy: "Taxonomy") -> list[HugoPage]:
        """A taxonomy's .Pages: its terms' pages in Hugo's default order (made once per taxonomy)."""
        found = self._children.get(("taxonomy", taxonomy.url))
        if found is None:
            found = self._children[("taxonomy", taxonomy.url)] = sorted(
                (self.term_page(taxonomy, term) for term in taxonomy.terms), key=_default_order)
        return list(found)

    @property
    def Sections(self) -> list[HugoPage]:  # noqa: N802
        return [self.section_page(section) for section in self._model.sections if "/" not in section.name]

    def terms_of(self, post: "Post", taxonomy_name: str) -> list[HugoPage]:
        taxonomy = next((taxonomy for taxonomy in self._model.taxonomies if taxonomy.name == taxonomy_name), None)
        if taxonomy is None:
            return []
        values = list(post.taxonomy_values(taxonomy_name))
        by_name = {term.name: term for term in taxonomy.terms}
        by_slug = {term.slug: term for term in taxonomy.terms}
        found = [by_name.get(value) or by_slug.get(term_path(value)) for value in values]
        return [self.term_page(taxonomy, term) for term in found if term is not None]

    def taxonomy_terms(self, taxonomy: "Taxonomy") -> TaxonomyTerms:
        terms = self._terms.get(taxonomy.name)
        if terms is None:
            # Keyed by the term as written, lower-cased (Hugo 0.168's key: "theme demo", where its URL has
            # theme-demo); a term of no pages: Hugo lists none.
            terms = TaxonomyTerms({term.name.lower(): WeightedPages(self.term_page(taxonomy, term),
                                                                    (self.page_of(post) for post in term.posts),
                                                                    term.name.lower())
                                   for term in taxonomy.terms if term.posts})
            terms.page = functools.partial(self.taxonomy_page, taxonomy)
            terms.collation = self.collation
            self._terms[taxonomy.name] = terms
        return terms

    @property
    def Taxonomies(self) -> dict[str, TaxonomyTerms]:  # noqa: N802
        return {taxonomy.name: self.taxonomy_terms(taxonomy) for taxonomy in self._model.taxonomies}

    def parent_of(self, page: HugoPage) -> HugoPage | None:
        """Hugo's .Parent: the nearest enclosing section (of a page or a section), a term's taxonomy, else home."""
        if page.IsHome:
            return None
        if page._term is not None:
            return self.taxonomy_page(self.taxonomy_of(page._term))
        path = _bundle_path(page._post) if page._post is not None else \
            page._section.name if page._section is not None else ""
        names = self._section_names()
        while "/" in path:
            path = path.rsplit("/", 1)[0]
            if path in names:
                return self.section_page(names[path])
        return self.home_page()

    def _section_names(self) -> dict[str, "Section"]:
        found = self.__dict__.get("_names")
        if found is None:
            found = {section.name: section for section in self._model.sections}
            object.__setattr__(self, "_names", found)
        return found

    # -- menus and the rest ----------------------------------------------------------------------
    @functools.cached_property
    def Menus(self) -> dict[str, list[MenuEntry]]:  # noqa: N802
        return _menus_of(self)

    @functools.cached_property
    def related_config(self) -> RelatedConfig:
        """Hugo's related config of the site (its [related], else Hugo's default)."""
        kept = self.config.hugo_related
        return from_mapping(kept) if kept else default_config("tags" in self.config.taxonomies)

    def related_index(self, pages: Sequence[HugoPage]) -> RelatedIndexes:
        """The related-content index of one list of pages (made once per list of the same pages)."""
        key = tuple(id(page._post) if page._post is not None else page.url for page in pages)
        found = self._related.get(key)
        if found is None:
            found = self._related[key] = RelatedIndexes(self.related_config, list(pages), _related_words)
        return found

    @property
    def pager_size(self) -> int:
        return max(1, int(self.config.paginate or 10))

    def table_of_contents(self, post: "Post | None") -> str:
        """Hugo's `.TableOfContents`: a nav#TableOfContents of nested lists of the page's headings between
        markup's tableOfContents start and end levels."""
        markup = self.config.markup
        return hugo_toc(post.toc if post is not None else (), markup.toc_start_level, markup.toc_end_level,
                        markup.toc_ordered)

    def GetPage(self, *refs: Any) -> HugoPage | None:  # noqa: N802
        """Hugo's page by its content path ("/posts", "posts/x.md", "/tags/go", in any case; without its leading
        slash from the content root; after a kind: "taxonomy" "tags/go"), else by its URL path."""
        wanted = _logical_path(_get_page_ref(refs))
        if wanted == "/":
            return self.home_page()
        paths, urls = self._page_paths
        found = paths.get(wanted) or urls.get(wanted)
        return found() if found is not None else None

    @functools.cached_property
    def _page_paths(self) -> tuple[dict[str, Callable[[], HugoPage]], dict[str, Callable[[], HugoPage]]]:
        return _page_indexes(self)

    @property
    def IsServer(self) -> bool:  # noqa: N802 - under blogbuild serve, as site.IsServer under hugo server
        return bool(getattr(self.config, "serving", False))

    @property
    def Lastmod(self) -> GoTime:  # noqa: N802
        return self.RegularPages[0].Lastmod if self.RegularPages else _ZERO_TIME


def _page_indexes(site: HugoSite) -> tuple[dict[str, Callable[[], HugoPage]], dict[str, Callable[[], HugoPage]]]:
    """GetPage's two indexes, made once per site: content path -> the page (sections, then pages, then
    taxonomies and terms, the first of a path kept), and URL path -> a page."""
    model = site._model
    paths: dict[str, Callable[[], HugoPage]] = {}
    for section in model.sections:
        paths.setdefault("/" + section.name.lower(), functools.partial(site.section_page, section))
    for post in model.pages:
        paths.setdefault(_logical_path(_bundle_path(post)), functools.partial(site.page_of, post))
    for taxonomy in model.taxonomies:
        paths.setdefault("/" + taxonomy.name.lower(), functools.partial(site.taxonomy_page, taxonomy))
        for term in taxonomy.terms:
            paths.setdefault(f"/{taxonomy.name}/{term.slug}".lower(), functools.partial(site.term_page, taxonomy, term))
    urls: dict[str, Callable[[], HugoPage]] = {}
    for post in model.pages:
        urls.setdefault(post.url.rstrip("/").lower(), functools.partial(site.page_of, post))
    return paths, urls


def _bundle_path(post: "Post") -> str:
    """Where a regular page stands in the content tree: its file, or a leaf bundle's folder."""
    return post.rel_path[:-len("/index.md")] if post.rel_path.endswith("/index.md") else post.rel_path


def _menus_of(site: HugoSite) -> dict[str, list[MenuEntry]]:
    """`site.Menus`: a Hugo config's menus with the entries pages declare (menus.py); else blogbuild's main
    menu, for a site whose config is blogbuild.yaml."""
    def entries(items: Iterable[Any]) -> list[MenuEntry]:
        return [MenuEntry(item.name, site.config.site_url(item.url) if item.url.startswith("/") else item.url,
                          item.weight, entries(item.children), item.group,
                          site.GetPage(item.page_ref) if item.page_ref else None) for item in items]
    hugo_menus = getattr(site.config, "hugo_menus", None)
    if hugo_menus is not None:
        return site_menus(site, hugo_menus.get("menus", {}), str(hugo_menus.get("section_pages_menu", "")))
    if any("menu" in post.params or "menus" in post.params for post in site._model.pages):
        raise UnsupportedField("menu entries in front matter are not supported by blogbuild's translation")
    return {"main": entries(site.config.menu)} if site.config.menu else {}


def _titled(index: "Post") -> bool:
    """Whether an _index.md's front matter gives a title."""
    return any(str(key).lower() == "title" for key in index.params)


def _default_order(page: HugoPage) -> tuple[Any, ...]:
    """Hugo's default sort: weight (0 last), then date newest first (a list page's: its newest page's), then link
    title (in the collation of the site's language), then the content path (a page's file, a list's folder).
    Worked out once a build, on the site's object for the page (every list sorts the same pages again)."""
    canonical = page._canonical
    known = canonical.__dict__.get("_order_key")
    if known is None:
        known = canonical.__dict__["_order_key"] = _order_key(canonical)
    return known


def _order_key(page: HugoPage) -> tuple[Any, ...]:
    weight = page.Weight
    if page._post is not None:
        stamp = page._post.date.timestamp() if page._post.date else float("-inf")
        path = "/" + page._post.rel_path.lower()
    else:
        stamp = _stamp(page.Date)
        path = page.url.rstrip("/").lower()
    return (weight == 0, weight, -stamp, collation_key(page.LinkTitle, page._site.collation), path)


class _TocNode:
    """A heading in Hugo's tree of a page's headings; entry None for a level the page skips."""

    __slots__ = ("entry", "children")

    def __init__(self, entry: Any = None) -> None:
        self.entry = entry
        self.children: list[_TocNode] = []


def hugo_toc(entries: Sequence[Any], start: int, stop: int, ordered: bool) -> str:
    """Hugo's `.TableOfContents`, as its tableofcontents package writes it: the headings in a tree rooted at the h1
    level, a new row at each h1 (and at the first heading), a level a heading skips as an item without a link; the
    lists from startLevel (the levels above only walked through: a row each, so each h1's headings are a list of
    their own) to endLevel."""
    rows: list[_TocNode] = []
    row = -1
    for entry in entries:
        if entry.level == 1 or row == -1:
            row += 1
        rows.extend(_TocNode() for _ in range(len(rows), row + 1))
        if entry.level == 1:
            rows[row] = _TocNode(entry)
            continue
        node = rows[row]
        for _ in range(2, entry.level):
            if not node.children:
                node.children.append(_TocNode())
            node = node.children[-1]
        node.children.append(_TocNode(entry))
    out = ['<nav id="TableOfContents">']
    _toc_headings(out, 1, 0, rows, start, stop, "ol" if ordered else "ul")
    out.append("</nav>")
    return "".join(out)


def _toc_headings(out: list[str], level: int, indent: int, nodes: list[_TocNode], start: int, stop: int,
                  tag: str) -> None:
    import html
    if level < start:
        for node in nodes:
            _toc_headings(out, level + 1, indent, node.children, start, stop, tag)
        return
    if stop != -1 and level > stop:
        return
    if nodes:
        out.append(f"\n{'  ' * (indent + 1)}<{tag}>\n")
    for node in nodes:
        out.append(f"{'  ' * (indent + 2)}<li>")
        if node.entry is not None:
            out.append(f'<a href="#{html.escape(node.entry.id)}">{node.entry.html or html.escape(node.entry.text)}</a>')
        _toc_headings(out, level + 1, indent + 2, node.children, start, stop, tag)
        out.append("</li>\n")
    if nodes:
        out.append(f"{'  ' * (indent + 1)}</{tag}>\n{'  ' * indent}")


# The functions of pages and lists (the Go environment binds them to its field lookup).
PAGE_FUNCTION_NAMES = frozenset({"where", "group"})


def group(key: Any, pages: Any) -> PageGroup:
    """`group KEY PAGES`: the pages as one group with `.Key` and `.Pages` (append groups to a slice to range
    them)."""
    from .escape import go_string
    found = PageGroup(go_string(key))
    found.Pages = PageList(pages or ())
    return found


def where(go_field: Callable[[Any, Any], Any], collection: Any, key: Any, *arguments: Any) -> list[Any]:
    """Hugo's where: the elements whose field (a dotted path, "Params.x" too, read with go_field) compares
    with the value; the operator is "=" unless given (where.py: Hugo's operators and its rules for comparing
    values of different kinds). On site.RegularPages the answer is kept for the site's life: every list page
    asks the same."""
    if len(arguments) not in (1, 2):
        raise HugoFunctionError("where: can't evaluate the array by no match argument or more than or equal to "
                                "two arguments")
    operator, value = ("=", arguments[0]) if len(arguments) == 1 else (where_operator(arguments[0]), arguments[1])
    site = collection[0]._site if isinstance(collection, PageList) and collection and \
        isinstance(collection[0], HugoPage) else None
    if site is None or collection is not site.RegularPages:
        return _where(go_field, collection, key, operator, value)
    memo_key = (str(key), operator, repr(value))
    found = site._where.get(memo_key)
    if found is None:
        found = site._where[memo_key] = _where(go_field, collection, key, operator, value)
    return found


def _where(go_field: Callable[[Any, Any], Any], collection: Any, key: Any, operator: str, value: Any) -> Any:
    if isinstance(collection, Mapping):
        # Hugo's where on a map keeps the entries whose value is a list with an element that matches; an entry of
        # any other value (a map of maps: Ananke's social networks) is left out.
        return {name: item for name, item in collection.items()
                if isinstance(item, (list, tuple)) and _where(go_field, item, key, operator, value)}
    path = str(key).strip(".").split(".")

    def matches(item: Any) -> bool:
        for name in path:
            try:
                item = go_field(item, name)
            except (UnsupportedField, AttributeError):   # no such field, method or key: nil, as in Hugo
                item = None
        return holds(item, operator, value)
    found = [item for item in (collection or []) if matches(item)]
    return PageList(found) if isinstance(collection, PageList) else found   # Hugo's where keeps a page list


def _cascaded_params(kind: str, url: str, config: Any) -> dict[str, Any]:
    """The params of a list page of no content file (a section, taxonomy or term without _index.md, the home page
    without one, 404): what its cascades hand down (core/cascade.py), found by its URL's path."""
    path = "/404" if kind == "404" else "/" + url.strip("/").lower()
    language = getattr(config, "language", "")
    return cascades_of(language).values_for(path, kind, language)
