"""Site from posts: publishing rules, ordering, taxonomies, series, neighbours, archives."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from datetime import datetime, timezone
from typing import Iterable, Mapping, Sequence

from ..config import SiteConfig
from ..core.model import (ArchiveMonth, ArchiveYear, Post, PostNav, Section, SeriesNav, Site, Taxonomy, Term,
                    Translation)
from ..content.posts import section_title
from ..core.urls import path_segment, term_path

_SINGULAR = {"tags": "tag", "categories": "category", "series": "series"}
_EPOCH = datetime(1, 1, 1, tzinfo=timezone.utc)


def is_published(post: Post, config: SiteConfig, now: datetime) -> bool:
    """Drafts, future posts (publishDate, else date, after now) and expired ones (expiryDate now or before) are left
    out unless the config (--drafts, --future, --expired; Hugo's buildDrafts, buildFuture, buildExpired) lets them
    in."""
    if post.draft and not config.drafts:
        return False
    if is_future(post, config, now):
        return False
    return not is_expired(post, config, now)


def is_future(post: Post, config: SiteConfig, now: datetime) -> bool:
    """A page dated (publishDate, else date) after now, left out unless the config says future (--future)."""
    published = post.publish_date or post.date
    return published is not None and published > now and not config.future


def is_expired(post: Post, config: SiteConfig, now: datetime) -> bool:
    """A page past its expiryDate, left out unless the config says expired (--expired)."""
    return post.expiry_date is not None and post.expiry_date <= now and not config.expired


# Content pages that stand for one of blogbuild's own pages (PaperMod's content/archives.md and search.md).
SPECIAL_LAYOUTS = ("archives", "search")


def special_layout(post: Post) -> str:
    """'archives' or 'search' for a page written as PaperMod's archives or search page, else ''."""
    layout = post.params.get("layout")
    return layout if isinstance(layout, str) and layout in SPECIAL_LAYOUTS and post.kind == "page" else ""


def is_listed(post: Post, layout_pages: bool = False) -> bool:
    """A page shows in lists and feeds unless its front matter says `list: false` or it is a layout page (listed
    too with layout_pages, as Hugo lists every page)."""
    return post.params.get("list", True) is not False and (layout_pages or not special_layout(post))


def pinned_first(posts: Iterable[Post]) -> list[Post]:
    """The home page's order: posts whose front matter says `pinned: true` (or `pin: true`, Chirpy's and several
    PaperMod forks' name) first, each group in its own order."""
    ordered = list(posts)
    return sorted(ordered, key=lambda post: not any(str(key).lower() in ("pinned", "pin") and value is True
                                                    for key, value in post.params.items()))


def newest_first(posts: Iterable[Post]) -> list[Post]:
    """Date descending; undated posts last; ties broken by title then url, so order is stable."""
    return sorted(posts, key=lambda post: (-(post.date or _EPOCH).timestamp(), post.title, post.url))


def series_order(posts: Iterable[Post]) -> list[Post]:
    """Parts of a series: series_order (or weight) first, then date ascending."""
    return sorted(posts, key=lambda post: (post.series_order is None, post.series_order or 0,
                                           (post.date or _EPOCH).timestamp(), post.url))


def build_taxonomy(name: str, posts: list[Post], term_pages: dict[tuple[str, str], Post],
                   config: SiteConfig) -> Taxonomy:
    """One taxonomy's terms; names whose paths are alike are one term, shown as first written."""
    grouped: dict[str, list[Post]] = defaultdict(list)
    names: dict[str, str] = {}
    for post in posts:
        seen: set[str] = set()
        for value in post.taxonomy_values(name):
            slug = term_path(value)
            if slug not in seen:   # "LLM" and "llm" on one post: one membership
                seen.add(slug)
                names.setdefault(slug, value)
                grouped[slug].append(post)
    for (taxonomy, slug), term_page in term_pages.items():
        if taxonomy == name and slug and slug not in grouped:   # a term with a page and no posts: Hugo publishes it
            names[slug] = term_page.title or term_page.rel_path.split("/")[-2]
            grouped[slug] = []
    terms = []
    for slug in sorted(grouped, key=lambda key: (names[key].lower(), key)):
        members = series_order(grouped[slug]) if name == "series" else grouped[slug]
        index = term_pages.get((name, slug))
        # The term's _index.md may move its page (`url:` in its front matter), as in Hugo.
        url = index.url if index is not None and index.url else f"/{path_segment(name)}/{slug}/"
        terms.append(Term(name, names[slug], slug, url, tuple(members),
                          title=index.title if index else "",
                          content_html=index.content_html if index else "",
                          description=index.description if index else "", index=index))
    page = term_pages.get((name, ""))
    return Taxonomy(name, _SINGULAR.get(name, name.rstrip("s")), f"/{path_segment(name)}/", tuple(terms),
                    title=page.title if page and page.title else name.title(),
                    content_html=page.content_html if page else "", index=page)


def _related(post: Post, memberships: list[tuple[tuple[Post, ...], int]], count: int) -> tuple[Post, ...]:
    """Posts sharing most tags, nearest in time first; only near neighbours in each tag are scanned,
    so this stays linear in the number of posts. memberships: (tag's posts, this post's index there)."""
    if count <= 0 or not memberships:
        return ()
    window = max(count * 4, 20)
    url = post.url
    scores: dict[str, list] = {}
    for members, position in memberships:
        low = max(0, position - window)
        for other_position, other in enumerate(members[low:position + window + 1], low):
            if other.url == url:
                continue
            distance = abs(other_position - position)
            entry = scores.get(other.url)
            if entry is None:
                scores[other.url] = [1, distance, other]
            else:
                entry[0] += 1
                if distance < entry[1]:
                    entry[1] = distance
    ranked = sorted(scores.values(), key=lambda entry: (-entry[0], entry[1], entry[2].url))
    return tuple(entry[2] for entry in ranked[:count])


def build_site(pages: Iterable[Post], config: SiteConfig, *, now: datetime,
               translations: Mapping[str, tuple[Translation, ...]] | None = None) -> Site:
    """Everything templates see, from every parsed page (drafts and _index pages included); translations: each
    page's versions in a multilingual site's languages (translations_of)."""
    all_pages = list(pages)
    indexes = [page for page in all_pages if page.kind == "section"]
    published = [page for page in all_pages if page.kind == "page" and is_published(page, config, now)]
    posts = newest_first(page for page in published if is_listed(page, config.list_layout_pages))
    term_pages: dict[tuple[str, str], Post] = {}
    section_pages: dict[str, Post] = {}
    home = next((page for page in indexes if "/" not in page.rel_path), None)
    for index_page in indexes:
        folders = index_page.rel_path.split("/")[:-1]
        if folders and folders[0] in config.taxonomies:
            # content/tags/_index.md is the taxonomy's page (key slug ""), content/tags/x/_index.md a term's.
            if len(folders) <= 2:
                term_pages[(folders[0], path_segment(folders[1]) if len(folders) == 2 else "")] = index_page
        elif folders:
            section_pages["/".join(folders)] = index_page
    taxonomies = tuple(build_taxonomy(name, posts, term_pages, config) for name in config.taxonomies)
    tags = next((taxonomy for taxonomy in taxonomies if taxonomy.name == "tags"), None)
    series = next((taxonomy for taxonomy in taxonomies if taxonomy.name == "series"), None)
    # Each post's place in every tag and series it is in, found in one pass over the terms, so that the
    # cost stays linear in the length of a series (a lookup per post would be quadratic).
    tag_memberships: dict[str, list[tuple[tuple[Post, ...], int]]] = defaultdict(list)
    for term in (tags.terms if tags else ()):
        for index, member in enumerate(term.posts):
            tag_memberships[member.url].append((term.posts, index))
    series_positions = {id(term): {member.url: index for index, member in enumerate(term.posts)}
                        for term in (series.terms if series else ())}
    series_terms = {term.name: term for term in (series.terms if series else ())}
    series_by_slug = {term.slug: term for term in (series.terms if series else ())}
    navigation: dict[str, PostNav] = {}
    for index, post in enumerate(posts):
        parts = []
        for name in post.series:
            found = series_terms.get(name) or series_by_slug.get(term_path(name))
            if found is None:
                continue
            term = found
            position = series_positions[id(term)][post.url]
            parts.append(SeriesNav(term, position + 1, len(term.posts),
                                   term.posts[position - 1] if position > 0 else None,
                                   term.posts[position + 1] if position + 1 < len(term.posts) else None))
        navigation[post.url] = PostNav(
            newer=posts[index - 1] if index > 0 else None,
            older=posts[index + 1] if index + 1 < len(posts) else None,
            series=tuple(parts),
            related=_related(post, tag_memberships.get(post.url, []), config.related_count),
        )
    for post in published:
        if post.url not in navigation:
            navigation[post.url] = PostNav(None, None, (), ())
    return Site(config=config, posts=tuple(posts), taxonomies=taxonomies, home=home,
                sections=_sections(posts, section_pages), archives=_archives(posts),
                navigation=navigation, pages=tuple(newest_first(published)),
                drafts_left_out=tuple(sorted(page.source for page in all_pages
                                             if page.kind == "page" and page.draft and not config.drafts)),
                expired_left_out=tuple(sorted(page.source for page in all_pages if page.kind == "page"
                                              and not (page.draft and not config.drafts)
                                              and is_expired(page, config, now))),
                future_left_out=tuple(sorted(page.source for page in all_pages if page.kind == "page"
                                             and not (page.draft and not config.drafts)
                                             and not is_expired(page, config, now)
                                             and is_future(page, config, now))),
                translations=dict(translations or {}))


def translation_key(post: Post) -> str:
    """What a page's versions in the languages of a site share, as Hugo links them: its translationKey, else its
    path in the content folder without the language and the extension ('posts/x' for posts/x.en.md and
    posts/x/index.md alike)."""
    written = post.params.get("translationKey", post.params.get("translationkey"))
    if isinstance(written, (str, int)) and not isinstance(written, bool) and str(written):
        return f"{post.kind}:key:{written}"
    path = post.rel_path.rsplit(".", 1)[0]
    for index in ("/index", "/_index"):
        if path.endswith(index):
            path = path[:-len(index)]
    return f"{post.kind}:path:{'' if path in ('index', '_index') else path}"


def _page_keys(site: Site) -> dict[str, tuple[str, str]]:
    """Every page of a language's site that can have a translation, by translation key: (URL, title)."""
    keys = {"home": ("/", site.config.title)}
    for section in site.sections:
        keys[f"section:{section.name}"] = (section.url, section.title)
    for taxonomy in site.taxonomies:
        keys[f"taxonomy:{taxonomy.name}"] = (taxonomy.url, taxonomy.title)
        for term in taxonomy.terms:
            keys[f"term:{taxonomy.name}:{term.slug}"] = (term.url, term.title or term.name)
    for post in site.pages:
        keys.setdefault(translation_key(post), (post.url, post.title))
    return keys


def translations_of(languages: Sequence[tuple[SiteConfig, list[Post]]], now: datetime
                    ) -> dict[str, dict[str, tuple[Translation, ...]]]:
    """A multilingual site's translations: for each language (by key), each page's versions in every language, by
    the page's URL in that language's site; a page with no version in another language has none."""
    found: dict[str, list[tuple[SiteConfig, str, str]]] = defaultdict(list)
    names = {}
    for config, posts in languages:
        names = {language.key: language for language in config.languages}
        for key, (url, title) in _page_keys(build_site(posts, config, now=now)).items():
            found[key].append((config, url, title))
    result: dict[str, dict[str, tuple[Translation, ...]]] = defaultdict(dict)
    for versions in found.values():
        if len(versions) < 2:
            continue
        linked = tuple(Translation(config.language, names[config.language].name if config.language in names
                                   else config.language, config.language_code, config.site_url(url),
                                   config.absolute_url(url), title) for config, url, title in versions)
        for config, url, _ in versions:
            result[config.language][url] = linked
    return dict(result)


def _sections(posts: list[Post], section_pages: dict[str, Post]) -> tuple[Section, ...]:
    """Hugo's sections: every top folder with posts, and every deeper folder with an _index.md (any depth).

    A section lists every post below it (newest first, as posts are); subsections and parents are links."""
    names = set(section_pages) | {post.section for post in posts if post.section}
    grouped: dict[str, list[Post]] = defaultdict(list)
    for post in posts:
        folders = post.rel_path.split("/")[:-1]
        for depth in range(1, len(folders) + 1):
            path = "/".join(folders[:depth])
            if path in names:
                grouped[path].append(post)
    titles = {}
    for name in names:
        index = section_pages.get(name)
        titles[name] = index.title if index and index.title else section_title(name.rsplit("/", 1)[-1])
    urls = {name: "/" + "/".join(path_segment(folder) for folder in name.split("/")) + "/" for name in names}

    def enclosing(name: str) -> list[str]:
        folders = name.split("/")
        return [path for path in ("/".join(folders[:depth]) for depth in range(1, len(folders))) if path in names]

    children: dict[str, list[str]] = defaultdict(list)
    for name in names:
        parents = enclosing(name)
        if parents:
            children[parents[-1]].append(name)
    sections = []
    for name in sorted(names):
        index = section_pages.get(name)
        sections.append(Section(
            name, urls[name], titles[name], index.content_html if index else "", tuple(grouped.get(name, ())),
            description=index.description if index else "",
            parents=tuple((titles[parent], urls[parent]) for parent in enclosing(name)),
            subsections=tuple((titles[child], urls[child]) for child in sorted(children[name])), index=index))
    return tuple(sections)


def section_of(site: Site, post: Post) -> Section | None:
    """The innermost section holding the post (its folder, or the nearest enclosing one), for breadcrumbs."""
    holding = [section for section in site.sections if section.holds(post)]
    return max(holding, key=lambda section: len(section.name)) if holding else None


def _archives(posts: list[Post]) -> tuple[ArchiveYear, ...]:
    by_month: dict[tuple[int, int], list[Post]] = defaultdict(list)
    for post in posts:
        if post.date is not None:
            by_month[(post.date.year, post.date.month)].append(post)
    years: dict[int, list[ArchiveMonth]] = defaultdict(list)
    for (year, month) in sorted(by_month, reverse=True):
        years[year].append(ArchiveMonth(year, month, tuple(by_month[(year, month)])))
    return tuple(ArchiveYear(year, tuple(months)) for year, months in sorted(years.items(), reverse=True))


def replace_posts(site: Site, edited: Mapping[str, Post]) -> Site:
    """The same Site with some posts swapped for new versions whose front matter did not change.

    Only the containers that hold an edited post are rebuilt; navigation keeps the old objects, which
    show the same titles, dates and URLs (all that neighbour links display)."""
    def swap(posts: tuple[Post, ...]) -> tuple[Post, ...]:
        return tuple(edited.get(post.url, post) for post in posts)

    # Only the containers an edited post belongs to (its terms, section and month) can hold it.
    term_slugs = {(name, term_path(value)) for post in edited.values() for name in site.config.taxonomies
                  for value in post.taxonomy_values(name)}
    months = {(post.date.year, post.date.month) for post in edited.values() if post.date is not None}
    taxonomies = tuple(replace(taxonomy, terms=tuple(
        replace(term, posts=swap(term.posts)) if (taxonomy.name, term.slug) in term_slugs else term
        for term in taxonomy.terms)) for taxonomy in site.taxonomies)
    sections = tuple(replace(section, posts=swap(section.posts))
                     if any(section.holds(post) for post in edited.values()) else section
                     for section in site.sections)
    archives = tuple(replace(year, months=tuple(
        replace(month, posts=swap(month.posts)) if (month.year, month.month) in months else month
        for month in year.months)) for year in site.archives)
    return replace(site, posts=swap(site.posts), pages=swap(site.pages), taxonomies=taxonomies,
                   sections=sections, archives=archives)
