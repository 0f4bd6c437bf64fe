"""Themes: the seam between the Planner and the templates that render its pages.

A Theme says where its templates and static files are, which template renders each kind of page, and the
globals its templates read besides blogbuild's own. The Planner asks the Theme for a page kind's template
and never names a template file; the site's templates/ and static/ are laid over the theme's (the site
wins). The default theme is one Theme (themes/default.py); a test theme is another.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..config import SiteConfig

# Every kind of page the Planner makes: a theme names a template for each (one template may serve many).
PAGE_KINDS = ("post", "home", "section", "term", "terms", "series", "archives", "search", "404", "alias")


def _no_globals(config: SiteConfig) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class Theme:
    """A theme: its folder (templates/ and static/ inside), the template of each page kind, its globals."""

    name: str
    folder: Path
    templates: Mapping[str, str]                     # page kind (PAGE_KINDS) -> template name
    globals: Callable[[SiteConfig], Mapping[str, Any]] = _no_globals   # the theme's own template globals
    layouts: frozenset[str] = field(default_factory=frozenset)   # templates a page's `layout` never picks
    # The home page in other output formats: output path -> template ({"index.json": "home.json"}: a Hugo site's
    # home.json layout, when its config's outputs ask for JSON).
    home_outputs: Mapping[str, str] = field(default_factory=dict)
    # A page's other output formats its front matter names (`outputs: [html, json]`): format -> (the file's
    # suffix, the template), as a Hugo site's layouts write them (search/index.json by page/search.json).
    front_matter_outputs: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # A post's page in other output formats: file name -> template ({"index.md": …}: a Hugo site's layout of an
    # output format its config defines, written beside the page).
    page_outputs: Mapping[str, str] = field(default_factory=dict)
    # The template that renders every list's RSS feed (the home page's, a section's, a term's and a
    # taxonomy's: a Hugo site's RSS layouts), with the list's context; "": blogbuild writes its feeds.
    feed_template: str = ""
    # Site files the theme's templates write instead of blogbuild: output path -> template
    # ({"robots.txt": …, "sitemap.xml": …}), each when the site publishes that file.
    site_outputs: Mapping[str, str] = field(default_factory=dict)
    # The engine its templates render with: (config, template folders, the site's Go templates) -> a
    # templating.PageEngine; None: Jinja (publish/environment.page_engine).
    engine: Callable[..., Any] | None = None
    own_files: bool = True      # whether folder holds templates/ and static/ (a site's own layouts do not)

    def __post_init__(self) -> None:
        missing = [kind for kind in PAGE_KINDS if kind not in self.templates]   # "" is a kind it never renders
        if missing:
            raise ValueError(f"theme {self.name!r} names no template for {', '.join(missing)}")

    @property
    def templates_dir(self) -> Path:
        return self.folder / "templates"

    @property
    def static_dir(self) -> Path:
        return self.folder / "static"

    def template_for(self, kind: str) -> str:
        """The template that renders a page of this kind ("" when the theme renders no such page)."""
        return self.templates[kind]

    def template_for_post(self, params: Mapping[str, Any], exists: Callable[[str], bool]) -> str:
        """The template of a post with these front-matter params, by Hugo's lookup, shortened: `layout: X`
        uses X.html and `type: T` uses T/single.html (T/X.html with both) when exists(name) says the site has
        them; the theme's own page templates (home, section, ...) are never picked for a post."""
        layout, kind = params.get("layout"), params.get("type")
        candidates = []
        if isinstance(kind, str) and kind:
            candidates += [f"{kind}/{layout}.html"] if isinstance(layout, str) and layout else []
            candidates.append(f"{kind}/single.html")
        if isinstance(layout, str) and layout and f"{layout}.html" not in self.page_templates:
            candidates.append(f"{layout}.html")
        return next((name for name in candidates if "/." not in name and ".." not in name and exists(name)),
                    self.template_for("post"))

    @property
    def page_templates(self) -> frozenset[str]:
        """The theme's templates for pages other than posts, and its layouts: a post's `layout: X` never
        selects one of them (only a site's own X.html, or the post template)."""
        post = self.templates["post"]
        return frozenset(name for name in self.templates.values() if name != post) | self.layouts
