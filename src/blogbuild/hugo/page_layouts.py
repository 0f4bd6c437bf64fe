"""A Hugo site's own page layouts (every layout of layouts/ and of its configured themes' layouts/ but their
partials, shortcodes and render hooks): the one Hugo renders each page with, and the baseof.html it renders
through (layouts.py, Hugo's lookup), and whether blogbuild can run them all (each translates, and so does
every partial it calls, and every partial those call)."""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import SourceWarning
from ..core.names import is_inside
from .gotemplate import GoSource, GoTemplates
from .layouts import LayoutStore, PageQuery, content_view, layout_folders, lookup

# A site has page layouts of its own when these pages find one.
_REQUIRED = (PageQuery("home"), PageQuery("page", "posts/a"), PageQuery("section", "posts"))


@dataclass(frozen=True)
class PageLayouts:
    """A site's page layouts: Hugo's store of them, and each file's source by its path."""

    root: str
    store: LayoutStore
    sources: Mapping[str, GoSource]     # by the file's absolute path

    def choose(self, query: PageQuery) -> tuple[GoSource, GoSource | None] | None:
        """(the layout, the base it renders through) of a page, as Hugo chooses; None when none fits."""
        choice = lookup(self.store, query)
        if choice.template is None or str(choice.template) not in self.sources:
            return None
        base = self.sources.get(str(choice.base)) if choice.base is not None else None
        return self.sources[str(choice.template)], base

    def has(self, query: PageQuery) -> bool:
        return self.choose(query) is not None

    def view(self, query: PageQuery, name: str) -> tuple[GoSource, GoSource | None] | None:
        """(the layout, its base) that `.Render NAME` renders the page with; None when no layout is named so."""
        choice = content_view(self.store, query, name)
        if choice.template is None or str(choice.template) not in self.sources:
            return None
        base = self.sources.get(str(choice.base)) if choice.base is not None else None
        return self.sources[str(choice.template)], base


def read_page_layouts(root: Path, themes: Sequence[str] = (), taxonomies: Mapping[str, str] | None = None,
                      inside: Sequence[str] = ()) -> PageLayouts:
    """The page layouts of the site at root (its layouts/, then each theme's, as its config names them), each
    read only when its real path is inside the site."""
    store = LayoutStore(layout_folders(root, list(themes)), taxonomies=taxonomies)
    allowed = (os.path.realpath(root), *inside)
    sources: dict[str, GoSource] = {}
    for template in store.templates.values():
        path = template.file
        if str(path) in sources or not is_inside(os.path.realpath(path), allowed):
            continue
        try:
            sources[str(path)] = GoSource(path.relative_to(root).as_posix(), path.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, ValueError):
            continue
    return PageLayouts(str(root), store, sources)


def runnable_layouts(root: Path, go: GoTemplates | None, themes: Sequence[str] = (),
                     taxonomies: Mapping[str, str] | None = None, inside: Sequence[str] = ()) \
        -> tuple[PageLayouts | None, SourceWarning | None]:
    """The site's page layouts when it has its own (a home, a page and a section find one) and blogbuild can
    run every one of them; else None, with the first reason when it has some that cannot run."""
    if go is None:
        return None, None
    layouts = read_page_layouts(root, themes, taxonomies, inside)
    if not all(layouts.has(query) for query in _REQUIRED):
        return None, None
    for path in sorted(layouts.sources):
        problem = _first_error(layouts.sources[path], go)
        if problem is not None:
            return None, replace(problem, message=problem.message + "; the default theme renders the pages "
                                 "instead (port the layout to templates/, or see docs/go-templates.md)")
    return layouts, None


def runs_own_layouts(root: Path, themes: Sequence[str] = (), taxonomies: Mapping[str, str] | None = None) -> bool:
    """Whether the site at root renders with its own page layouts (what the "not used" inventory asks)."""
    from .gotemplate import load_go_templates
    if not layout_folders(root, list(themes)):
        return False
    return runnable_layouts(root, load_go_templates(root), themes, taxonomies)[0] is not None


def _first_error(source: GoSource, go: GoTemplates) -> SourceWarning | None:
    """Why a layout cannot run: its own translation's error, or that of a partial it calls (at any depth)."""
    error = source.error
    if error is not None:
        return SourceWarning(source.path, error.line, f"{error.message}; blogbuild cannot run this layout",
                             column=error.column)
    for partial in called_partials(source, go):
        if partial.error is not None:
            return SourceWarning(partial.path, partial.error.line, f"{partial.error.message}; blogbuild "
                                 "cannot run this partial, which a page layout calls", column=partial.error.column)
    return None


def called_partials(source: GoSource, go: GoTemplates) -> Iterator[GoSource]:
    """The partials a layout calls by a literal name, at any depth, the site or a theme has (one reached by
    two calls comes twice)."""
    for called in go.dependencies_of_text(source.source):
        for name in go.dependencies(called):
            partial = go.source(name)
            if partial is not None:
                yield partial


# A TypeScript or JSX asset piped to js.Build in one action ({{ resources.Get "ts/main.ts" | js.Build $opts }}).
_BUNDLED_ASSET = re.compile(r"""resources\.Get\s+(?P<quote>["`])(?P<name>[^"`]+\.(?:tsx?|jsx))(?P=quote)[^}]*?\|\s*js\.Build\b""")


def bundler_warnings(layouts: PageLayouts, go: GoTemplates, exists: Callable[[str], bool]) -> list[SourceWarning]:
    """One warning per place a page layout, or a partial one calls, builds a TypeScript or JSX asset (that
    exists) with js.Build, for a site without esbuild (pipes.esbuild_binary): esbuild compiles it in Hugo, so
    without one the pages load a script that only says so."""
    texts = {source.path: source.source for source in layouts.sources.values()}
    for source in layouts.sources.values():
        texts.update((partial.path, partial.source) for partial in called_partials(source, go))
    found = []
    for path, text in sorted(texts.items()):
        for match in _BUNDLED_ASSET.finditer(text):
            if exists(match.group("name")):
                found.append(SourceWarning(path, text.count("\n", 0, match.start()) + 1, (
                    f"js.Build of {match.group('name')}: Hugo compiles TypeScript and JSX with esbuild, and there "
                    "is none here, so the pages load a script that only says it was not bundled; install esbuild "
                    "in the site (npm install --save-exact esbuild, never fetched by a build) or on the PATH")))
    return found
