"""One render of a Go template with everything it calls, as Hugo composes templates.

A Runner holds the named templates the render can reach (`define`s and `block` defaults: a base
template's first, then the layout's over them, then each partial's own while it runs; then those of
every partial file, as Hugo's templates share one namespace), the site's partials,
the build's partialCached results and the depth of nested calls (MAX_CALL_DEPTH). Each named template and
partial renders as a Jinja template of its own, so `$` there is its own dot and no variable crosses a
template's edge, as in Go. A partial whose `{{ return }}` runs gives the returned value, not HTML.
"""
from __future__ import annotations

import functools
import os
from typing import Any, Callable

from markupsafe import Markup

from ..layouts import needs_base, partial_key
from .embedded import EMBEDDED_PARTIALS
from .environment import compiled
from .escape import go_string, new_str
from .body_reads import note_body_reads, reading_bodies
from .objects import MAX_CALL_DEPTH, MAX_CALLS, GoObject, GoReturn, PartialNotFound, RenderState, UnsupportedField
from .parse import GoTemplateError
from .purity import is_pure
from .translate import NamedTemplate, Translation, translate_named

# The package's GoSource and GoTemplates (the face, gotemplate/__init__.py, which imports this module) are
# taken as they come: a source has .file, .jinja, .source and .where(); templates have .site, .strings,
# .partials, .shortcodes, .files, .cache and .global_defines().
GoSource = Any
GoTemplates = Any

# The key, in the build's partialCached results, of what purity.py found of each partial; and the results of
# a pure partial that are kept: values no template can change.
_PURE = "\0pure partials"
_KEPT_RESULTS = frozenset({Markup, str, int, float, bool, type(None)})


def with_defines(named: dict[str, NamedTemplate], defines: tuple[NamedTemplate, ...]) -> dict[str, NamedTemplate]:
    """named with the file's templates added; an empty one does not replace one already there (Go's rule).
    Neither is changed (a file without defines shares named: no runner writes to its templates)."""
    if not defines:
        return named
    out = dict(named)
    for define in defines:
        if define.empty and define.name in out:
            continue
        out[define.name] = define
    return out


@functools.lru_cache(maxsize=256)
def _in_context(template: NamedTemplate, where: str) -> str:
    """A named template's Jinja from an attribute value's context; it must end in the same attribute."""
    from .escape import HtmlContext
    jinja, end = translate_named(template, where)
    start, after = HtmlContext.restore(where), HtmlContext.restore(end)
    if (start.state, start.attr, start.quote) != (after.state, after.attr, after.quote):
        raise UnsupportedField(f'template "{template.name}" is called inside the {start.attr} attribute and its '
                               "text leaves the attribute; the translator needs it to stay inside")
    return jinja


class Runner:
    """The templates one render reaches; state() is what its Jinja templates find as `_state`."""

    def __init__(self, templates: GoTemplates, markdownify: Callable[[str], str], depth: int = 0,
                 named: dict[str, NamedTemplate] | None = None, calls: list[int] | None = None,
                 page: Any = None) -> None:
        self.templates = templates
        self.markdownify = markdownify
        self.depth = depth
        self.named = named or {}
        self.calls = calls if calls is not None else [0]     # shared by the whole render
        self.page = page   # what `page` gives: the page the render's first template was given (or its .Page)
        self.current: CurrentTemplate | None = None   # templates.Current: the file this runner executes

    def state(self) -> RenderState:
        return RenderState(self.templates.site, self.markdownify, self.partial, self.templates.strings, runner=self)

    def _deeper(self, named: dict[str, NamedTemplate], what: str) -> Runner:
        if self.depth >= MAX_CALL_DEPTH:
            raise UnsupportedField(f"{what} is called {MAX_CALL_DEPTH} templates deep; is it calling itself?")
        self.calls[0] += 1
        if self.calls[0] > MAX_CALLS:
            raise UnsupportedField(f"the render calls more than {MAX_CALLS} partials and templates (at {what}); "
                                   "does a template call itself in a loop?")
        deeper = Runner(self.templates, self.markdownify, self.depth + 1, named, self.calls, self.page)
        deeper.current = self.current
        return deeper

    def run(self, source: GoSource, dot: Any, base: GoSource | None = None) -> str:
        """The HTML of source with `.` = dot; through base when source is a layout whose first action is a
        define (needs_base): the layout's defines over the base's, and the base's main template unless the
        layout has text outside its defines (Go's parse of both files into one set). GoTemplateError if
        either has no translation."""
        layout = _translation(source)
        if base is not None and needs_base(source.jinja or source.source):
            base_translation = _translation(base)
            named = with_defines(with_defines(self.named, base_translation.defines), layout.defines)
            main = base_translation.main if layout.main_empty else layout.main
        else:
            named, main = with_defines(self.named, layout.defines), layout.main
        runner = Runner(self.templates, self.markdownify, self.depth, named, self.calls,
                        self.page if self.page is not None else _page_of(dot))
        runner.current = CurrentTemplate(self.templates.site.root, source, self.current,
                                         base if base is not None and needs_base(source.jinja or source.source) else None)
        try:
            return runner.execute(main, dot)
        except GoReturn as returned:
            raise UnsupportedField("{{ return }} outside a partial") from returned

    def execute(self, jinja: str, dot: Any) -> str:
        """The template's HTML, as Template.render makes it; a partial's {{ return }} leaves it as it is,
        without the traceback of the template Jinja writes for an error (a return is no error)."""
        template = compiled(jinja)
        # Jinja's new_context copies the hundred and fifty globals into each context's parent; a render's names
        # go in its vars instead (read first), over the template's globals, which no render writes to.
        environment = template.environment
        context = environment.context_class(environment, template.globals, template.name,  # type: ignore[arg-type]
                                            template.blocks)
        context.vars.update(dot=dot, site=self.templates.site, _state=self.state())
        try:
            return environment.concat(template.root_render_func(context))
        except GoReturn:
            raise
        except Exception:
            environment.handle_exception()
            raise   # handle_exception always raises

    def template(self, name: str, dot: Any, where: str = "") -> Markup:
        """A named template's HTML; where: the attribute context of the call ("" in HTML text)."""
        template = self.named.get(name) or self.templates.global_defines().get(name)
        if template is None:
            return self._file_template(name, dot, where)
        jinja = _in_context(template, where) if where else template.jinja
        return Markup(self._deeper(self.named, f'template "{name}"').execute(jinja, dot))

    def _file_template(self, name: str, dot: Any, where: str) -> Markup:
        """`{{ template "partials/x.html" . }}`: Hugo's templates are also named by their file's path."""
        key = name.removeprefix("_partials/").removeprefix("partials/")
        source = self.templates.partials.get(key) if key != name else None
        if source is not None and not where:
            translation = _translation(source)
            runner = self._deeper(with_defines(self.named, translation.defines), f'template "{name}"')
            return Markup(runner.execute(translation.main, dot))
        if name.startswith("_internal/"):
            embedded = EMBEDDED_PARTIALS.get(name.removeprefix("_internal/"))
            if embedded is not None and not where:   # `template "_internal/X.html"`: Hugo's own partial X
                return Markup(embedded(dot, self))
            vendored = self.templates.internal.get(name.removeprefix("_internal/"))
            if vendored is not None and not where:
                translation = _translation(vendored)
                runner = self._deeper(with_defines(self.named, translation.defines), f'template "{name}"')
                return Markup(runner.execute(translation.main, dot))
            raise UnsupportedField(f'Hugo\'s internal template "{name}" is not supported by blogbuild')
        if source is not None or name in self.templates.files:
            raise UnsupportedField(f'{{{{ template "{name}" }}}} of a layout file is not supported by blogbuild')
        from .functions import HugoFunctionError
        raise HugoFunctionError(f'no such template "{name}"')

    def _inline(self, key: str) -> str | None:
        """An inline partial: a define named partials/KEY or _partials/KEY (.html may be left out); a file of
        the same name wins, as in Hugo."""
        bare = key.removesuffix(".html")
        names = (f"partials/{key}", f"_partials/{key}", f"partials/{bare}", f"_partials/{bare}")
        for defined in (self.named, self.templates.global_defines()):
            for name in names:
                template = defined.get(name)
                if template is not None:
                    return template.jinja
        return None

    def partial(self, name: str, dot: Any) -> Any:
        """A partial's HTML (Markup), or the value its {{ return }} gives (its HTML when no return runs, as
        in Hugo)."""
        key = partial_key(self.templates.partials, name.removeprefix("partials/").removeprefix("_partials/"))
        source = self.templates.partials.get(key)
        if source is None:
            inline = self._inline(key)
            if inline is None:
                embedded = EMBEDDED_PARTIALS.get(key)
                if embedded is not None:   # one Hugo ships itself
                    return embedded(dot, self)
                raise PartialNotFound(f'partial "{name}" not found (in no layout folder\'s partials/ or _partials/)')
            try:   # an inline partial returns a value as a file's does
                return Markup(self._deeper(self.named, f"partial '{name}'").execute(inline, dot))
            except GoReturn as returned:
                return returned.value
        memo = self._memo_key(key, dot)
        if memo is not None:
            kept = self.templates.cache.get(memo)
            if kept is not None and kept[0] is dot:
                note_body_reads(kept[2])   # what its first run read of the posts' bodies, read here too
                return kept[1]
        try:
            translation = _translation(source)
        except GoTemplateError as error:
            raise UnsupportedField(f"partial '{name}' cannot be translated ({source.where(error)}: "
                                   f"{error.message})") from error
        runner = self._deeper(with_defines(self.named, translation.defines), f"partial '{name}'")
        runner.current = CurrentTemplate(self.templates.site.root, source, self.current)
        if memo is None:
            return _result(runner, translation, dot)
        with reading_bodies() as reads:
            result = _result(runner, translation, dot)
        if type(result) in _KEPT_RESULTS:   # dot kept alive with it: its id names no other page
            self.templates.cache[memo] = (dot, result, frozenset(reads))
        return result

    def _memo_key(self, key: str, dot: Any) -> tuple[Any, ...] | None:
        """Where the build keeps this partial's result for this page (purity.py), None when it is not kept: dot
        is no page of the build's site model (the page this render started from is made for the render), or
        the partial reads more than its page and the site."""
        if not getattr(type(dot), "keeps_partials", False) or dot is self.page:
            return None
        cache = self.templates.cache
        known = cache.get(_PURE)
        if known is None:
            known = cache[_PURE] = {}
        if not is_pure(key, self.templates.partials, known):
            return None
        return (_PURE, key, id(self.templates.site), id(dot))

    def partial_cached(self, name: str, dot: Any, variants: tuple[Any, ...]) -> Any:
        bare = name.removeprefix("partials/").removeprefix("_partials/").removesuffix(".html")
        key = (bare, *(go_string(variant) for variant in variants))
        cache = self.templates.cache
        kept = cache.get(key)
        if kept is None:
            with reading_bodies() as reads:
                value = self.partial(name, dot)
            kept = cache[key] = (value, frozenset(reads))
        else:
            note_body_reads(kept[1])   # what its first run read of the posts' bodies, read here too
        return kept[0]

    def exists(self, path: str) -> bool:
        """templates.Exists: a partial, inline partial or shortcode by its path under layouts/, or any other
        layout file."""
        path = path.lstrip("/")
        for prefix in ("partials/", "_partials/"):
            if path.startswith(prefix):
                rest = path[len(prefix):]
                return rest in self.templates.partials or self._inline(rest) is not None
        for prefix in ("shortcodes/", "_shortcodes/"):
            if path.startswith(prefix):
                return path[len(prefix):].removesuffix(".html") in self.templates.shortcodes
        return path in self.templates.files


def _result(runner: Runner, translation: Translation, dot: Any) -> Any:
    """A partial's HTML (Markup), or the value its {{ return }} gives."""
    try:
        return new_str(Markup, runner.execute(translation.main, dot))
    except GoReturn as returned:
        return returned.value


class CurrentTemplate(GoObject):
    """`templates.Current`: the template file being executed, as Hugo names it (`.Name` under its layouts
    folder, `.Filename` its path on disk), the one that called it (`.Parent`, `.Ancestors`) and a layout's
    baseof (`.Base`)."""

    kind = "tpl.CurrentTemplateInfo"

    def __init__(self, root: str, source: GoSource, parent: "CurrentTemplate | None",
                 base: GoSource | None = None) -> None:
        # Made for every partial call, read by few templates: the names are worked out when asked.
        self._root, self._source, self._base = root, source, base
        self.Parent = parent

    @functools.cached_property
    def Name(self) -> str:  # noqa: N802
        path = self._source.path
        name = path.split("layouts/", 1)[1] if "layouts/" in path else path
        # Hugo 0.146's names: the old _default/, partials/ and shortcodes/ folders as the new structure has them.
        for old, new in (("_default/", ""), ("partials/", "_partials/"), ("shortcodes/", "_shortcodes/")):
            if name.startswith(old):
                return new + name[len(old):]
        return name

    @functools.cached_property
    def Filename(self) -> str:  # noqa: N802
        path, root = self._source.path, self._root
        return os.path.join(root, path) if root and not os.path.isabs(path) else path

    @functools.cached_property
    def Base(self) -> "CurrentTemplate | None":  # noqa: N802
        return CurrentTemplate(self._root, self._base, None) if self._base is not None else None

    @property
    def Ancestors(self) -> list["CurrentTemplate"]:  # noqa: N802 - the callers, the nearest first
        found, current = [], self.Parent
        while current is not None:
            found.append(current)
            current = current.Parent
        return found


def _page_of(dot: Any) -> Any:
    """The page a render is of: its dot when that is a page (a layout's), else the dot's .Page (a shortcode's,
    a hook's), else nil."""
    if getattr(type(dot), "kind", None) == "Page":
        return dot
    try:
        found = getattr(dot, "Page", None)
    except Exception:   # a value whose .Page is not known here (UnsupportedField)
        return None
    return found if getattr(type(found), "kind", None) == "Page" else None


def _translation(source: GoSource) -> Translation:
    """The file's translation; its GoTemplateError names the file (path:line:col)."""
    result = source.file
    if isinstance(result, GoTemplateError):
        raise result.located(source.path)
    return result
