"""The Jinja engine: the theme's and the site's templates by name, rendered, and each one's closure (everything
it extends, includes or imports) read from its parsed text, so a page's key changes whenever any template it
uses changes."""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import meta

from ..core.errors import SourceError
from ..core.fingerprint import fingerprint_of
from ..core.model import OutputFile, TemplateFacts

# What a template may raise while it renders (a missing name under StrictUndefined, a bad filter argument).
_RENDER_ERRORS = (jinja2.TemplateError, TypeError, AttributeError, ValueError, KeyError, ZeroDivisionError)


class JinjaEngine:
    """Jinja templates by name (TemplateEngine), with the hash of each one's inheritance and include closure
    and whether it shows site-wide lists (its text names one of site_wide_markers)."""

    tracks_reads = False   # a page that shows site-wide lists depends on every post's list entry

    def __init__(self, environment: jinja2.Environment, site_wide_markers: Sequence[str] = ()) -> None:
        self.environment = environment
        self.site_wide_markers = tuple(site_wide_markers)
        if environment.loader is None:
            raise ValueError("JinjaEngine needs an environment with a loader")
        self._loader: jinja2.BaseLoader = environment.loader
        self._closure: dict[str, tuple[str, bool]] = {}
        self._texts: dict[str, str] = {}
        # Each template file read and parsed once: (source, the names it extends/includes/imports, None
        # for a name given by a variable), or None when there is no such template.
        self._read: dict[str, tuple[str, list[str | None]] | None] = {}

    def take_reads(self) -> frozenset[str] | None:
        return None

    def closures(self) -> TemplateFacts:
        """Every closure computed so far and every template file read, by name (saved with a build's state)."""
        return TemplateFacts(dict(self._closure), dict(self._read))

    def remember_closures(self, facts: TemplateFacts) -> None:
        """Take what an earlier process learnt of the very same template files: a carried-on build then
        parses no template to plan its pages."""
        self._closure.update(facts.closures)
        self._read.update(facts.read)

    def preload(self, names: Iterable[str]) -> None:
        """Compile these templates and everything they extend, include or import, now: forked workers then
        inherit them compiled instead of each compiling them again (a cold build's templates cost ~0.2 s
        to compile, per process). A template that fails is left to fail where it is rendered."""
        for name in dict.fromkeys(names):
            for needed in self._sources(name):
                try:
                    self.environment.get_template(needed)
                except jinja2.TemplateError:
                    pass

    def load(self, name: str) -> jinja2.Template:
        """The compiled template; a syntax error as a SourceError at the template's line."""
        try:
            return self.environment.get_template(name)
        except jinja2.TemplateSyntaxError as error:
            raise template_error(error) from error

    def render(self, name: str, context: Mapping[str, Any], *, page: str = "", source: str = "",
               key: str = "") -> str:
        """The template's output for context; any error in it as a SourceError at the template's line, naming
        the page being rendered and the content file it comes from."""
        try:
            return self.environment.get_template(name).render(**context)
        except _RENDER_ERRORS as error:
            raise template_error(error, page=page, source=source) from error

    def dependencies(self, name: str) -> dict[str, str]:
        """The source of the template and of everything it extends, includes or imports, by name ("" for a
        name not found); every template when one is named by a variable."""
        return self._sources(name)

    def keep_files_in(self, folder: Path) -> None:
        """A Jinja page publishes no files besides itself: nothing to keep."""

    def page_files(self, keys: Iterable[str], *, every: bool = False) -> list[OutputFile]:
        """None: the theme's and the site's files are static files."""
        return []

    def render_content_with(self, render: Callable[[Any, dict[str, Any], Any], Any]) -> None:
        """A Jinja page reads no Store of its content's: nothing to render again."""

    def content_publishing(self) -> None:
        """None: a Jinja theme's content publishes no files."""
        return None

    def paginates(self, name: str) -> bool:
        """Whether a list rendered with this template is split into pages: always (the Planner's paginator)."""
        return True

    def page_count(self, name: str, context: Mapping[str, Any]) -> int | None:
        """How many pages a list has, when the template decides it: never (the Planner's paginator does)."""
        return None

    def writes(self, name: str, context: Mapping[str, Any]) -> bool:
        """Whether the template renders this page: always (the theme names a template for each output)."""
        return True

    def exists(self, name: str) -> bool:
        """Whether a template of that name is found in the site or the theme."""
        try:
            self._loader.get_source(self.environment, name)
        except jinja2.TemplateNotFound:
            return False
        return True

    def closure(self, name: str) -> tuple[str, bool]:
        """(hash of the template and all it extends or includes, whether it shows site-wide lists)."""
        if name not in self._closure:
            seen = self._sources(name)
            sources = [seen[key] for key in sorted(seen)]
            uses_site = any(marker in source for source in sources for marker in self.site_wide_markers)
            self._closure[name] = (fingerprint_of(*sorted(seen), *sources), uses_site)
        return self._closure[name]

    def mentions(self, name: str, marker: str) -> bool:
        """Whether the template or anything it extends or includes contains marker (read as text: a
        site template that names it anywhere is taken to use it, which can only make keys stricter)."""
        text = self._texts.get(name)
        if text is None:
            seen = self._sources(name)
            text = self._texts[name] = "\n".join(seen[key] for key in sorted(seen))
        return marker in text

    def _sources(self, name: str) -> dict[str, str]:
        """The source of the template and of everything it extends or includes, by template name."""
        seen: dict[str, str] = {}
        if self._collect(name, seen):   # an include by variable name: depend on every template
            for other in sorted(self.environment.list_templates()):
                self._collect(other, seen)
        return seen

    def _references(self, name: str) -> tuple[str, list[str | None]] | None:
        if name not in self._read:
            try:
                source, filename, _ = self._loader.get_source(self.environment, name)
            except jinja2.TemplateNotFound:
                self._read[name] = None
                return None
            try:
                tree = self.environment.parse(source, name, filename)
            except jinja2.TemplateSyntaxError as error:
                raise template_error(error) from error
            self._read[name] = (source, list(meta.find_referenced_templates(tree)))
        return self._read[name]

    def _collect(self, name: str, seen: dict[str, str]) -> bool:
        if name in seen:
            return False
        read = self._references(name)
        if read is None:
            seen[name] = ""
            return False
        seen[name], references = read
        dynamic = False
        for reference in references:
            if reference is None:
                dynamic = True
            else:
                dynamic = self._collect(reference, seen) or dynamic
        return dynamic


def template_error(error: Exception, *, page: str = "", source: str = "") -> SourceError:
    """A Jinja error as path:line of the template, naming the page being rendered."""
    filename, line = "", 0
    if isinstance(error, jinja2.TemplateSyntaxError):
        filename, line = error.filename or error.name or "", error.lineno
    else:
        trace = sys.exc_info()[2] if sys.exc_info()[1] is error else error.__traceback__
        while trace is not None:
            frame_file = trace.tb_frame.f_code.co_filename
            if frame_file.endswith((".html", ".xml", ".txt", ".json")):
                filename, line = frame_file, trace.tb_lineno
            trace = trace.tb_next
    message = getattr(error, "message", None) or str(error)
    where = f" while rendering {page}" + (f" from {source}" if source else "") if page else ""
    hint = "; fix the template" if isinstance(error, jinja2.TemplateSyntaxError) else \
        "; check the variable name, or guard it with `is defined`"
    return SourceError(filename or "<template>", line, f"{message}{where}{hint}", stage="template")
