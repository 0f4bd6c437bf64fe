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

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable


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
