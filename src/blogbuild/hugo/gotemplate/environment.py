"""The Jinja environment translated Go templates render in: Go's field lookup (maps by key, Hugo's params
case-insensitively, a missing key is nil), Go's printing of values (nil prints nothing, true as "true"),
Go's escaping for plain HTML text in finalize and the other contexts as filters, Hugo's functions as
globals, break/continue in loops.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import datetime, timezone
from types import MethodType
from typing import Any, Iterator

import jinja2
import jinja2.runtime
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame, optimizeconst
from jinja2.idtracking import VAR_LOAD_RESOLVE
from jinja2.utils import Namespace, _PassArg

from ...templating.environment import jinja_environment
from .arithmetic import go_ge, go_gt, go_le, go_lt
from .escape import ESCAPERS, html_output
from .functions import FUNCTIONS, NAMESPACES, _in, _lookup, go_page, go_return, go_template, go_try, hugo_info
from .objects import GoObject, GoTime, UnsupportedField
from .site_model import group, where


# How go_field reads a field of a value of each type, decided once per type.
_MAPPING, _MAPPING_WITH_METHODS, _OBJECT, _NAMESPACE, _OTHER = range(5)
_FIELD_KINDS: dict[type, int] = {}
_HAS_METHOD: dict[tuple[type, str], bool] = {}


class GoVariables(Namespace):
    """A template's Go variables (`$name` is `v.name`, runner.py): Jinja's namespace, which its `{% set v.x %}` asks
    for, with its attributes in the instance's own dict, so that reading one is Python's attribute lookup and
    not Jinja's __getattribute__ in Python (half a million reads a build of a thousand PaperMod pages). Only
    dunder names live on the class, and go_field never reads those."""

    __getattribute__ = object.__getattribute__

    def __init__(*args: Any, **kwargs: Any) -> None:  # noqa: N805 - Jinja's own signature
        self, args = args[0], args[1:]
        self.__dict__.update(*args, **kwargs)

    def __setitem__(self, name: str, value: Any) -> None:
        self.__dict__[name] = value

    def __repr__(self) -> str:
        return f"<GoVariables {self.__dict__!r}>"


def _field_kind(cls: type) -> int:
    if issubclass(cls, Mapping):
        return _MAPPING_WITH_METHODS if issubclass(cls, GoObject) else _MAPPING
    if issubclass(cls, GoObject) or cls.__name__ == "_Namespace":
        return _OBJECT
    return _NAMESPACE if issubclass(cls, Namespace) else _OTHER


def go_field(value: Any, name: Any) -> Any:
    """`.name` on a value, as Go templates read it; Python's own attributes (dunder names) are never reached."""
    text = name if type(name) is str else str(name)
    if text.startswith("__"):
        raise UnsupportedField(f"field {name} is not a Hugo field")
    if value is None:
        return None
    cls = type(value)
    kind = _FIELD_KINDS.get(cls)
    if kind is None:
        kind = _FIELD_KINDS[cls] = _field_kind(cls)
    if kind == _OBJECT:
        return getattr(value, text)
    if kind == _MAPPING:
        return _lookup(value, name)
    if kind == _MAPPING_WITH_METHODS:   # a map with methods (.Alphabetical)
        has = _HAS_METHOD.get((cls, text))
        if has is None:
            has = _HAS_METHOD[(cls, text)] = hasattr(cls, text)
        return getattr(value, text) if has else _lookup(value, name)
    if kind == _NAMESPACE:
        try:
            return getattr(value, text)
        except AttributeError:
            return None
    type_name = {str: "string", int: "int", float: "float64", bool: "bool", list: "[]interface {}"}.get(
        cls, cls.__name__)
    raise UnsupportedField(f"can't evaluate field {name} in type {type_name}")


def go_attr(value: Any, name: str) -> Any:
    """go_field for a field the template names (`.Title`): text that is no dunder name, as the code generator
    checked when it wrote the call."""
    if value is None:
        return None
    cls = type(value)
    kind = _FIELD_KINDS.get(cls)
    if kind == _OBJECT:
        return getattr(value, name)
    if kind == _MAPPING:   # a map's key (LoveIt reads its merged params maps a key at a time)
        return _lookup(value, name)
    return go_field(value, name)


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
    nil, as Go gives the zero value for a field of a nil receiver.

    Made for every partial a page calls: Jinja's set of the globals' names (read only when a template is
    made a module, which a translation never is) is made when asked, not with each context."""

    def __init__(self, environment: jinja2.Environment, parent: dict[str, Any], name: str | None,
                 blocks: dict[str, Any], globals: Any = None) -> None:  # noqa: A002 - Jinja's own name
        self._globals = globals
        super().__init__(environment, parent, name, blocks)   # without the globals: no set of their names made

    @property
    def globals_keys(self) -> set[str]:
        keys = self.__dict__.get("_globals_keys")
        if keys is None:
            keys = self.__dict__["_globals_keys"] = set(self._globals or ())
        return keys

    @globals_keys.setter
    def globals_keys(self, value: set[str]) -> None:
        self.__dict__["_globals_keys"] = value or None   # Jinja's empty set (given no globals): made when asked

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - Jinja's own signature
        if __obj is None:
            return None
        return super().call(__obj, *args, **kwargs)


# go_call's answer to whether a function takes the render's context, by function; emptied when it grows past
# _PASSES_KEPT (functions made while rendering, closures, would otherwise pile up in a long `serve`).
_PASSES_CONTEXT: dict[Any, bool] = {}
_PASSES_KEPT = 4096

# The names a render passes its template (runner.py): never a function's.
_RENDER_NAMES = frozenset({"dot", "site", "_state"})


class GoCodeGenerator(CodeGenerator):
    """Jinja's code generator, calling Hugo's functions directly: a call of a global that the template never
    assigns is the function called (given the context first when it takes it: partial, i18n, …), and a call
    of a value (a method) goes through go_call, not Jinja's context.call, which asks each callable on every
    call whether it wants the context and how. The environment's globals are fixed before any template is
    compiled, so for them the answer is the same at compile time."""

    def visit_Template(self, node: nodes.Template, frame: Frame | None = None) -> None:
        self._assigned = {name.name for name in node.find_all(nodes.Name) if name.ctx != "load"}
        self.writeline(f"from {__name__} import go_attr")
        self.writeline("go_globals = environment.globals")
        super().visit_Template(node, frame)

    def enter_frame(self, frame: Frame) -> None:
        """Jinja's, but a global the template never assigns is read from the globals when the frame starts, not
        asked of the context (whose vars hold only the render's names and the template's own)."""
        fixed = self.environment.globals
        resolved = {target: param for target, (action, param) in frame.symbols.loads.items()
                    if action == VAR_LOAD_RESOLVE and param in fixed and param not in _RENDER_NAMES
                    and param not in self._assigned}
        for target, param in resolved.items():
            self.writeline(f"{target} = go_globals[{param!r}]")
        if not resolved:
            super().enter_frame(frame)
            return
        loads = frame.symbols.loads
        frame.symbols.loads = {target: load for target, load in loads.items() if target not in resolved}
        try:
            super().enter_frame(frame)
        finally:
            frame.symbols.loads = loads

    @optimizeconst
    def visit_Getattr(self, node: nodes.Getattr, frame: Frame) -> None:
        """`.Name`: go_attr, which needs no check of the name (a dunder name is go_field's to refuse)."""
        if node.attr.startswith("__"):
            super().visit_Getattr(node, frame)
            return
        self.write("go_attr(")
        self.visit(node.node, frame)
        self.write(f", {node.attr!r})")

    def _global_function(self, callee: nodes.Expr) -> str:
        """How a call of callee is written: "plain" for a global function that takes no context, "context"
        for one that takes the render's context first (partial, i18n, …; they read only its render names,
        never a loop's variables), "value" for a method or a function value (`.Site.GetPage`), "" for a
        global the template assigns or that is not a function."""
        if not isinstance(callee, nodes.Name):
            return "value"
        if callee.ctx != "load" or callee.name in self._assigned or callee.name in _RENDER_NAMES \
                or callee.name not in self.environment.globals:
            return ""
        function: Any = self.environment.globals[callee.name]
        if not callable(function) or (hasattr(function, "__call__")  # noqa: B004
                                      and _PassArg.from_obj(function.__call__) is not None):
            return ""
        passed = _PassArg.from_obj(function)
        return "plain" if passed is None else "context" if passed is _PassArg.context else ""

    @optimizeconst
    def visit_Call(self, node: nodes.Call, frame: Frame, forward_caller: bool = False) -> None:
        how = "" if forward_caller or node.dyn_args is not None or node.dyn_kwargs is not None \
            or node.kwargs else self._global_function(node.node)
        if not how:
            super().visit_Call(node, frame, forward_caller=forward_caller)
            return
        if how == "value":   # go_call: nil's method is nil, a namespace's function may take the context
            self.write("environment.go_call(context, ")
        self.visit(node.node, frame)
        self.write(", " if how == "value" else "(context, " if how == "context" else "(")
        if how == "value" and not node.args:
            self.write(")")
            return
        for index, argument in enumerate([*node.args, *node.kwargs]):
            if index:
                self.write(", ")
            self.visit(argument, frame)
        self.write(")")


class GoEnvironment(jinja2.Environment):
    """Jinja with Go's lookups: attribute and item access both go through go_field."""

    context_class = GoContext
    code_generator_class = GoCodeGenerator

    # go_field itself, not a method calling it: the compiled templates call these on every field they read.
    getattr = staticmethod(go_field)   # type: ignore[assignment]
    getitem = staticmethod(go_field)   # type: ignore[assignment]

    @staticmethod
    def go_call(context: jinja2.runtime.Context, function: Any, *args: Any) -> Any:
        """A call of a value (a method read from a field, a namespace's function), as Jinja's Context.call
        makes it for these: nil called is nil (GoContext), a function that takes the context is given it."""
        if function is None:
            return None
        # Whether it takes the context, asked once per function (of a method: its function's); asking a bound
        # method for an attribute it lacks costs a raised and caught AttributeError on every call.
        key = function.__func__ if type(function) is MethodType else function
        try:
            passes = _PASSES_CONTEXT[key]
        except (KeyError, TypeError):   # TypeError: an unhashable callable, asked every time
            passes = getattr(function, "jinja_pass_arg", None) is not None
            if len(_PASSES_CONTEXT) >= _PASSES_KEPT:
                _PASSES_CONTEXT.clear()
            try:
                _PASSES_CONTEXT[key] = passes
            except TypeError:
                pass
        if passes:
            return jinja2.runtime.Context.call(context, function, *args)
        return function(*args)

    def make_globals(self, d: Any) -> dict[str, Any]:
        """A template's globals as one flat dict: every partial call starts a context from them, and a copy of
        a dict is cheap where walking Jinja's ChainMap over Hugo's hundred functions is not. The
        environment's globals are all set before the first template is compiled."""
        return {**self.globals, **(d or {})}


@functools.lru_cache(maxsize=1)
def go_environment() -> GoEnvironment:
    """The one environment (templates compiled in it are cached by their source)."""
    # Every action's value is escaped for its context by finalize or an escaper filter (html/template's rule),
    # so Jinja's own autoescaping would only wrap each already escaped value once more.
    environment = jinja_environment(environment_class=GoEnvironment, finalize=html_output, autoescape=False,
                                    extensions=["jinja2.ext.loopcontrols"], keep_builtin_globals=False,
                                    globals={**FUNCTIONS, "where": functools.partial(where, go_field), **NAMESPACES,
                                             "namespace": GoVariables, "go_range": go_range, "in_": _in,
                                             "go_return": go_return, "go_template": jinja2.pass_context(go_template),
                                             "go_try": jinja2.pass_context(go_try),
                                             "now": lambda: GoTime(datetime.now(timezone.utc)),
                                             "hugo_info": hugo_info, "go_page": go_page, "group": group, "go_value": lambda value: value,
                                             "go_lt": go_lt, "go_le": go_le, "go_gt": go_gt, "go_ge": go_ge},
                                    filters=ESCAPERS)
    # Jinja's constant folding costs ~15% of compiling a translation (a site's templates compile on every cold
    # build) and saves next to nothing when it runs: a Go template's values come from its data and Hugo's
    # functions, which Jinja never calls at compile time; an escaper on a constant is all it could fold.
    environment.optimized = False
    return environment


@functools.lru_cache(maxsize=512)
def compiled(jinja_source: str) -> jinja2.Template:
    """A translation compiled in the environment, cached by its source (its code taken from the child that
    compiles a one-shot build's templates ahead when it is there: compile_ahead.py)."""
    from .compile_ahead import take
    environment = go_environment()
    code = take(jinja_source)
    if code is None:
        return environment.from_string(jinja_source)
    return environment.template_class.from_code(environment, code, environment.make_globals(None), None)
