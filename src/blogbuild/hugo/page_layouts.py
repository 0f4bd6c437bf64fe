"""A Hugo site's own page layouts (every layout of layouts/ and themes/*/layouts/ but its partials, shortcodes
and render hooks): which one Hugo picks for each kind of page, and whether blogbuild can run them all (each
translates, and so does every partial it calls)."""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import SourceWarning
from ..core.names import is_inside
from .gotemplate import GoSource, GoTemplates, layout_folders

# blogbuild's page kinds -> the classic layouts Hugo looks up for them, first found wins.
_LOOKUP: Mapping[str, tuple[str, ...]] = {
    "post": ("_default/single.html",),
    "home": ("index.html", "_default/home.html", "_default/list.html"),
    "section": ("_default/section.html", "_default/list.html"),
    "term": ("_default/term.html", "_default/taxonomy.html", "_default/list.html"),
    "terms": ("_default/terms.html", "_default/taxonomy.html", "_default/list.html"),
    "404": ("404.html",),
}
_REQUIRED = ("post", "home", "section")   # without these the site has no page layouts of its own to run


@dataclass(frozen=True)
class PageLayouts:
    """A site's page layouts: each layout file's source by its path below layouts/, the first found."""

    root: str
    layouts: Mapping[str, GoSource]

    def pick(self, kind: str) -> str:
        """The layout of a page kind ("" when the site has none)."""
        return next((name for name in _LOOKUP.get(kind, ()) if name in self.layouts), "")


def read_page_layouts(root: Path, inside: Sequence[str] = ()) -> PageLayouts:
    """Every layout file outside partials/ and shortcodes/ of the site at root, read only inside the site."""
    allowed = (os.path.realpath(root), *inside)
    found: dict[str, GoSource] = {}
    for folder in layout_folders(root):
        for path in sorted(folder.rglob("*.html")):
            name = path.relative_to(folder).as_posix()
            if name.split("/")[0] in ("partials", "_partials", "shortcodes", "_shortcodes", "_markup") or \
                    name in found or not is_inside(os.path.realpath(path), allowed):
                continue
            try:
                found[name] = GoSource(path.relative_to(root).as_posix(), path.read_text(encoding="utf-8-sig"))
            except (OSError, UnicodeDecodeError):
                continue
    return PageLayouts(str(root), found)


def runnable_layouts(root: Path, go: GoTemplates | None, inside: Sequence[str] = ()) \
        -> tuple[PageLayouts | None, SourceWarning | None]:
    """The site's page layouts when it has its own and blogbuild can run every one a page kind picks; else None,
    with the first reason when it has some that cannot run."""
    if go is None:
        return None, None
    layouts = read_page_layouts(root, inside)
    picked = {kind: layouts.pick(kind) for kind in _LOOKUP}
    if not all(picked[kind] for kind in _REQUIRED):
        return None, None
    for name in dict.fromkeys(name for name in picked.values() if name):
        problem = _first_error(layouts.layouts[name], go)
        if problem is not None:
            return None, replace(problem, message=problem.message + "; the default theme renders the pages "
                                 "instead (port the layout to templates/, or see docs/go-templates.md)")
    return layouts, None


def runs_own_layouts(root: Path) -> bool:
    """Whether the site at root renders with its own page layouts (what the "not used" inventory asks)."""
    from .gotemplate import load_go_templates
    if not any(layout_folders(root)):
        return False
    return runnable_layouts(root, load_go_templates(root))[0] is not None


def _first_error(source: GoSource, go: GoTemplates) -> SourceWarning | None:
    """Why a layout cannot run: its own translation's error, or that of a partial it calls."""
    error = source.error
    if error is not None:
        return SourceWarning(source.path, error.line, f"{error.message}; blogbuild cannot run this layout",
                             column=error.column)
    for name in go.dependencies_of_text(source.source):
        partial = go.source(name)
        if partial is not None and partial.error is not None:
            return SourceWarning(partial.path, partial.error.line, f"{partial.error.message}; blogbuild cannot "
                                 "run this partial, which a page layout calls", column=partial.error.column)
    return None
