"""The one factory of blogbuild's Jinja environments: pages (the theme's and the site's templates), a site's
Jinja shortcodes, and translated Go templates differ only in the settings below.

Templates are compiled in memory by each process and never kept on disk: a compiled template is code, and no
file of the cache runs code. No environment reloads a template by itself: whoever owns one makes a new
environment when a template file changes.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import jinja2

_Environment = TypeVar("_Environment", bound=jinja2.Environment)


def jinja_environment(*, loader: jinja2.BaseLoader | None = None, autoescape: bool | Callable[[str | None], bool] = True,
                      strict: bool = True, trim_blocks: bool = False, keep_trailing_newline: bool = True,
                      finalize: Callable[..., Any] | None = None, extensions: Iterable[str] = (),
                      environment_class: type[_Environment] = jinja2.Environment,  # type: ignore[assignment]
                      globals: Mapping[str, Any] | None = None, filters: Mapping[str, Any] | None = None,
                      keep_builtin_globals: bool = True) -> _Environment:
    """A Jinja environment: strict undefined names unless strict is false (a shortcode's missing argument is
    empty, as in Hugo), trim_blocks and lstrip_blocks together, Jinja's own globals (range, dict, …) unless
    keep_builtin_globals is false (a translated Go template sees Hugo's functions only), then globals and
    filters on top."""
    options: dict[str, Any] = {}
    if finalize is not None:
        options["finalize"] = finalize
    environment = environment_class(
        loader=loader, autoescape=autoescape, undefined=jinja2.StrictUndefined if strict else jinja2.Undefined,
        auto_reload=False, trim_blocks=trim_blocks, lstrip_blocks=trim_blocks,
        keep_trailing_newline=keep_trailing_newline, extensions=list(extensions), **options)
    if not keep_builtin_globals:
        environment.globals.clear()
    environment.globals.update(globals or {})
    environment.filters.update(filters or {})
    return environment
