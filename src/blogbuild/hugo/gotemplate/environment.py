"""The Jinja environment translated Go templates render in: Go's field lookup (maps by key, Hugo's params
case-insensitively, a missing key is nil), Go's printing of values (nil prints nothing, true as "true"),
Go's escaping for plain HTML text in finalize and the other contexts as filters, Hugo's functions as
globals, break/continue in loops.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any, Iterator

import jinja2
import jinja2.runtime
from jinja2.utils import Namespace

from ...templating.environment import jinja_environment
from .escape import ESCAPERS, html_text
from .functions import FUNCTIONS, NAMESPACES, _in, _lookup, go_return, go_template, go_try, hugo_info
from .objects import GoObject, GoTime, UnsupportedField
from .site_model import group, where


def go_field(value: Any, name: Any) -> Any:
    """`.name` on a value, as Go templates read it; Python's own attributes (dunder names) are never reached."""
    if str(name).startswith("__"):
        raise UnsupportedField(f"field {name} is not a Hugo field")
    if value is None:
        return None
    if isinstance(value, Mapping):
        if isinstance(value, GoObject) and hasattr(type(value), str(name)):   # a map with methods (.Alphabetical)
            return getattr(value, str(name))
        return _lookup(value, name)
    if isinstance(value, GoObject) or type(value).__name__ == "_Namespace":
        return getattr(value, str(name))
    if isinstance(value, Namespace):
        try:
            return getattr(value, str(name))
        except AttributeError:
            return None
    kind = {str: "string", int: "int", float: "float64", bool: "bool", list: "[]interface {}"}.get(
        type(value), type(value).__name__)
    raise UnsupportedField(f"can't evaluate field {name} in type {kind}")


def go_range(value: Any) -> Iterator[tuple[Any, Any]]:
    """range's (key, element) pairs: a list's indexes, a map's keys in order, 0..n-1 for an integer."""
    if value is None:
        return iter(())
    if isinstance(value, Mapping):
        return iter([(key, value[key]) for key in sorted(value, key=str)])
    if isinstance(value, bool):
        raise UnsupportedField("range can't iterate over a bool")
    if isinstance(value, int):
        return iter([(index, index) for index in range(value)])
    if isinstance(value, str):
        raise UnsupportedField(f"range can't iterate over a string ({value[:30]!r})")
    return iter(enumerate(value))


class GoContext(jinja2.runtime.Context):
    """A render's context: a method of nil called (`.OutputFormats.Get "json"` on a map without the key) is
    nil, as Go gives the zero value for a field of a nil receiver."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - Jinja's own signature
        if __obj is None:
            return None
        return super().call(__obj, *args, **kwargs)


class GoEnvironment(jinja2.Environment):
    """Jinja with Go's lookups: attribute and item access both go through go_field."""

    context_class = GoContext

    def getattr(self, obj: Any, attribute: str) -> Any:
        return go_field(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        return go_field(obj, argument)


@functools.lru_cache(maxsize=1)
def go_environment() -> GoEnvironment:
    """The one environment (templates compiled in it are cached by their source)."""
    return jinja_environment(environment_class=GoEnvironment, finalize=html_text,
                             extensions=["jinja2.ext.loopcontrols"], keep_builtin_globals=False,
                             globals={**FUNCTIONS, "where": functools.partial(where, go_field), **NAMESPACES,
                                      "namespace": Namespace, "go_range": go_range, "in_": _in,
                                      "go_return": go_return, "go_template": jinja2.pass_context(go_template),
                                      "go_try": jinja2.pass_context(go_try),
                                      "now": lambda: GoTime(datetime.now(timezone.utc)),
                                      "hugo_info": hugo_info, "group": group, "go_value": lambda value: value},
                             filters=ESCAPERS)


@functools.lru_cache(maxsize=512)
def compiled(jinja_source: str) -> jinja2.Template:
    """A translation compiled in the environment, cached by its source."""
    return go_environment().from_string(jinja_source)
