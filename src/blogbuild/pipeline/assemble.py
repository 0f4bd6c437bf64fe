"""Assembling the output: which file goes where, and who else claims the same path (pure: no disk, no render).

Every file of the build is claimed by an owner (a content file, a page's URL, the theme): a path claimed
twice is an error naming both, unless the site model already reported it as a URL conflict. A file copied as it
is (static/sitemap.xml, static/index.xml, static/robots.txt, static/posts/x/index.html) at the path of a file the
build writes (a page, a feed, the sitemap, 404.html) loses to it, as in Hugo, with a warning; the site's own
static/robots.txt wins over the one blogbuild writes by default.
"""
from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from ..core.errors import BlogbuildError, SourceError, SourceWarning
from ..core.model import OutputFile, Post, Site
from ..disk.sources import ContentTree, FoundFile
from ..core.urls import url_to_output_path
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..publish.outputs import PlannedData, PlannedPage

SYNTAX_CSS = "css/syntax.css"
# Files the build writes only as a default: a copied file of the site at the same path wins, without a word
# (Hugo writes robots.txt only with enableRobotsTXT, so a Hugo site's static/robots.txt is the one it serves).
SITE_OWN_WINS = frozenset({"robots.txt"})
SITE_CSS = "css/extended.css"   # the site's own stylesheets in one file (theme.extended_css), linked after the theme's


@dataclass(frozen=True)
class Assembly:
    """The output files by path, the errors found assembling them, and the counts for the summary."""

    files: dict[str, OutputFile]
    errors: tuple[BlogbuildError, ...] = ()
    pages_by_kind: Mapping[str, int] = field(default_factory=dict)
    static_files: int = 0
    rendered: int = 0    # pages rendered by this build
    reused: int = 0      # pages taken from an earlier build
    warnings: tuple[SourceWarning, ...] = ()   # copied files a written file replaced


class _Claims:
    """Output paths as they are claimed, in order; a second owner of a path is an error."""

    def __init__(self, conflicted: frozenset[str]) -> None:
        self.conflicted = conflicted
        self.owners: dict[str, str] = {}
        self.files: dict[str, OutputFile] = {}
        self.errors: list[BlogbuildError] = []
        self.copied: set[str] = set()     # paths claimed by a file copied as it is, which a written file replaces
        self.warnings: list[SourceWarning] = []

    def claim(self, item: OutputFile, owner: str, *, copied: bool = False) -> None:
        path = item.path
        if path in self.copied and not copied and path in SITE_OWN_WINS:
            return   # the site's own robots.txt is what it means to publish: blogbuild's default steps aside
        if path in self.copied and not copied:
            self.warnings.append(SourceWarning(self.owners[path], 1, f"not published: the build writes {path} "
                                               f"({owner}), which wins as in Hugo; delete this file or move it"))
            self.copied.discard(path)
        elif path in self.owners and self.owners[path] != owner and path not in self.conflicted:
            self.errors.append(SourceError(owner, 0, f"output {path} is also written by {self.owners[path]}; "
                                           "rename one of them or change its slug/url", stage="output"))
            return
        self.owners[path] = owner
        self.files[path] = item
        if copied:
            self.copied.add(path)


def copied_files(site: Site, static: Sequence[FoundFile], tree: ContentTree,
                 shown: Callable[[str], str]) -> list[tuple[OutputFile, str]]:
    """The files copied as they are, with their owners: static files, then the content folder's other files
    (a bundle's resources go next to its page, at the page's URL: a leaf bundle's, and a branch bundle's, the
    files beside an _index.md, at its list page's; a file every language shares once, where another language's
    page publishes it, on a site its own layouts render). A bundle whose page is not published (a draft, a page
    dated in the future or expired) has none of its files published either, as in Hugo."""
    from ..core.bundle_files import publishes_bundle_file
    copied = [(OutputFile(item.rel_path, source=item.path), shown(item.path)) for item in static]
    indexes = [site.home, *(section.index for section in site.sections),
               *(term.index for taxonomy in site.taxonomies for term in taxonomy.terms)]
    resources = {resource: post for post in (*site.pages, *(index for index in indexes if index is not None))
                 for resource in post.resources}
    bundled = {resource for _, _, owned in tree.pages for resource in owned}
    for item in tree.files:
        post = resources.get(item.rel_path)
        if post is None and item.rel_path in bundled:
            continue   # its page is not published
        if post is not None and not publishes_bundle_file(site, post, item.rel_path):
            continue   # another language's page publishes it
        if post is not None:
            bundle_folder = post.rel_path.rsplit("/", 1)[0] + "/" if "/" in post.rel_path else ""
            path = post.url.lstrip("/").replace("%23", "#") + item.rel_path[len(bundle_folder):]
        else:
            path = item.rel_path
        copied.append((OutputFile(path, source=item.path), shown(item.path)))
    return copied


def count_kinds(pages: Iterable["PlannedPage"]) -> dict[str, int]:
    """How many pages of each kind (post, list, term...) a plan has; a list's feed or JSON output is no page."""
    kinds: dict[str, int] = {}
    for page in pages:
        if not page.output_path.endswith(".html"):
            continue
        kind = page.context["page"].kind
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def assemble(copied: Sequence[tuple[OutputFile, str]], syntax_css: bytes, pages: Sequence["PlannedPage"],
             data: Sequence["PlannedData"], outputs: Mapping[str, OutputFile | SourceError],
             conflicted: frozenset[str] = frozenset(),
             published: Sequence[tuple[OutputFile, str]] = ()) -> Assembly:
    """The whole output of a build: copied files, the syntax stylesheet, the files the pages' renders published
    (a Hugo layout's resources: written files, so one replaces a copied file of its path with a warning, as in
    Hugo), then every planned page and data file (outputs: each one's file, or the error of its template; a
    template's error is reported once)."""
    claims = _Claims(conflicted)
    for item, owner in copied:
        claims.claim(item, owner, copied=True)
    claims.claim(OutputFile(SYNTAX_CSS, syntax_css), "<syntax highlighting>")
    for item, owner in published:
        claims.claim(item, owner)
    failed_templates: set[str] = set()
    for page in pages:
        outcome = outputs[page.output_path]
        if isinstance(outcome, SourceError):
            if page.template not in failed_templates:
                failed_templates.add(page.template)
                claims.errors.append(outcome)
            continue
        claims.claim(outcome, page.source or page.url)
    for data_file in data:
        made = outputs[data_file.output_path]
        if isinstance(made, OutputFile):
            claims.claim(made, data_file.source or "/" + data_file.output_path)
    return Assembly(claims.files, tuple(claims.errors), count_kinds(pages), len(claims.copied),
                    warnings=tuple(claims.warnings))


def copied_only(copied: Sequence[tuple[OutputFile, str]], syntax_css: bytes,
                error: BlogbuildError) -> Assembly:
    """The output when no page could be planned (a template that does not parse): copied files and the error."""
    claims = _Claims(frozenset())
    for item, owner in copied:
        claims.claim(item, owner)
    claims.claim(OutputFile(SYNTAX_CSS, syntax_css), "<syntax highlighting>")
    return Assembly(claims.files, (*claims.errors, error))


def overlay(previous: Mapping[str, OutputFile], pages: Sequence["PlannedPage"],
            outputs: Mapping[str, OutputFile | SourceError], static_count: int) -> Assembly:
    """The last build's output with some outputs replaced (an edit that kept the site's structure)."""
    files = dict(previous)
    errors: list[BlogbuildError] = []
    for path, outcome in outputs.items():
        if isinstance(outcome, SourceError):
            errors.append(outcome)
        else:
            files[path] = outcome
    return Assembly(files, tuple(errors), count_kinds(pages), static_count)


def url_conflicts(site: Site) -> tuple[list[BlogbuildError], frozenset[str]]:
    """Two pages that claim one URL: name both, so the author can rename one (and the output paths). An alias
    that meets a page or another alias is no error (alias_warnings)."""
    owners: dict[str, Post] = {}
    errors: list[BlogbuildError] = []
    paths: set[str] = set()
    for post in sorted(site.pages, key=lambda post: post.rel_path):
        path = url_to_output_path(post.url)
        other = owners.get(path)
        if other is not None and other is not post:
            errors.append(SourceError(post.source, 1, f"URL {post.url} is also claimed by {other.source}; "
                                      "give one of them another slug or url", stage="assemble"))
            paths.add(path)
        else:
            owners[path] = post
    return errors, frozenset(paths)


def alias_warnings(site: Site, enabled: bool = True) -> list[SourceWarning]:
    """An alias that is not written, at the post that lists it: another page's URL (the page keeps it), or
    another page's alias too (outputs.alias_owners says whose redirect is written there)."""
    from ..publish.outputs import alias_owners
    if not enabled:
        return []
    own = {url_to_output_path(post.url): post for post in site.pages}
    owners = alias_owners(site.pages)
    warnings = []
    for post in sorted(site.pages, key=lambda post: post.rel_path):
        for alias in post.aliases:
            path = url_to_output_path(alias)
            page, owner = own.get(path), owners.get(path)
            if page is not None and page is not post:
                warnings.append(SourceWarning(post.source, 1, f"alias {alias}: {page.url} is the URL of {page.source}; "
                                              "the page keeps it and this alias is not written (remove the alias, "
                                              "or move the page)"))
            elif owner is not None and owner is not post:
                warnings.append(SourceWarning(post.source, 1, f"alias {alias} is an alias of {owner.source} too, "
                                              "whose redirect is written there (the last by title); remove one"))
    return warnings
