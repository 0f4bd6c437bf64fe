"""Template engines: the seam between what is rendered (pages, shortcodes, a Hugo site's partials) and the
language its templates are written in.

Every engine answers the same four questions (TemplateEngine): is there a template of this name, its compiled
form, its output for a context, and which template files it depends on (itself and all it extends, includes
or calls, by name, with their text: a page's key and a serve rebuild's choice of pages come from them). The
Jinja engine (jinja.py) renders the theme's and the site's templates; the Go-template engine
(hugo/gotemplate/) renders a Hugo site's own shortcodes and partials, translated to Jinja. Both make their
Jinja environment with environment.jinja_environment and render markdown through markdownify.markdownify.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..core.model import OutputFile, TemplateFacts


@runtime_checkable
class TemplateEngine(Protocol):
    """A set of templates by name, in one template language."""

    def exists(self, name: str) -> bool:
        """Whether a template of that name is found."""
        ...

    def load(self, name: str) -> Any:
        """The compiled template (the engine's own object); its syntax error as the engine reports it."""
        ...

    def render(self, name: str, context: Mapping[str, Any]) -> str:
        """The template's output for context."""
        ...

    def dependencies(self, name: str) -> Mapping[str, str]:
        """The text of the template and of every template it extends, includes or calls, by name ("" for a
        name that is not found)."""
        ...


@runtime_checkable
class PageEngine(TemplateEngine, Protocol):
    """An engine pages render with: besides the four questions, what the Planner and the Builder ask of the
    templates of a page (its key, whether it shows site-wide lists, compiling before workers fork)."""

    def render(self, name: str, context: Mapping[str, Any], *, page: str = "", source: str = "",
               key: str = "") -> str:
        """The page's HTML; an error in a template as a SourceError naming the page and its content file. key:
        the page's dependency key, by which the engine records the files the render published (page_files)."""
        ...

    def keep_files_in(self, folder: Path) -> None:
        """Where the engine keeps the files its renders publish besides the pages, and its records of them
        (the Builder's cache folder, or a scratch folder of the process): a page rendered in a forked worker,
        or by an earlier process and reused, still has its files."""
        ...

    def page_files(self, keys: Iterable[str], *, every: bool = False) -> list[OutputFile]:
        """The files the renders of the pages with these keys published besides the pages (a Hugo layout's
        resources), each once, the same on a reused page as on a fresh render; none for most engines. every:
        the keys are every page of the site (a whole build), so what is kept of other keys may go."""
        ...

    def render_content_with(self, render: Callable[[Any, dict[str, Any], Any], Any]) -> None:
        """How a page's content is rendered again (render(post, store, the site's posts) -> the Post, or None)
        when its layouts have set what its shortcodes and render hooks read from the page's Store, as Hugo
        renders content when a layout first reads it; an engine whose content reads no Store ignores it."""
        ...

    def content_publishing(self) -> Callable[[], AbstractContextManager[dict[str, str]]] | None:
        """What the markdown stage renders a page's content in when its shortcodes and render hooks may publish
        files as the page's layouts do (a Hugo site's Pipes): a picklable callable whose context fills a dict
        (output path -> sha256 of the bytes, kept where keep_files_in says), the post's published_files, which
        the engine publishes with each page that reads the content; None when content publishes nothing."""
        ...

    def closure(self, name: str) -> tuple[str, bool]:
        """(a hash of the template and all it uses, whether it shows site-wide lists)."""
        ...

    def mentions(self, name: str, marker: str) -> bool:
        """Whether the template or anything it uses contains marker."""
        ...

    def paginates(self, name: str) -> bool:
        """Whether a list this template renders is split into pages (else one page holds every entry)."""
        ...

    def page_count(self, name: str, context: Mapping[str, Any]) -> int | None:
        """How many pages the list rendered with this template and context (its first page's) has, when the
        template decides it (0: it shows the list whole, with no pager); None when the Planner's paginator
        does."""
        ...

    def writes(self, name: str, context: Mapping[str, Any]) -> bool:
        """Whether a template renders this page (context) with the template name: a Hugo site's layouts may have
        none for an output format a page's front matter names, and Hugo then writes none."""
        ...

    def preload(self, names: Iterable[str]) -> None:
        """Compile these templates now (forked workers then inherit them compiled)."""
        ...

    tracks_reads: bool
    """Whether the engine knows which posts' bodies a render read (take_reads): then a page that shows site-wide
    lists depends on the front matter of every post and on the bodies of those it read, not on every post's
    body."""

    def take_reads(self) -> frozenset[str] | None:
        """The URLs of the posts whose body (content, summary, text measures) the last render in this process
        read; None when the engine does not know (tracks_reads is false)."""
        ...

    def closures(self) -> TemplateFacts:
        """What the engine learnt of its template files, kept with a build's state."""
        ...

    def remember_closures(self, facts: TemplateFacts) -> None:
        """Take what an earlier process learnt of the very same template files."""
        ...
