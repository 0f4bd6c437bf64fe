"""A Go template's syntax tree (parse.py) as Jinja source, for the environment of environment.py.

The names in the output: `dot` is the template's `.` (the shortcode, or a partial's argument), `dot1`,
`dot2`, … the `.` inside with and range, `v.name` the Go variable `$name` (a Jinja namespace, so `$x = …`
inside a range changes the outer `$x`, as in Go), Hugo's functions by their own names (`in` is `in_`),
and each action is wrapped in the escaper html/template would use at that point of the HTML
(escape.HtmlContext): `| attr`, `| url_start`, `| js`, … (plain HTML text needs none).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from .escape import HtmlContext
from .functions import FUNCTIONS, NAMESPACES
from .site_model import PAGE_FUNCTION_NAMES
from .parse import (Action, Block, Branch, Chain, Command, Define, Dot, Field, GoTemplateError, Identifier, Literal,
                    Loop, Node, Operand, Pipe, Position, Return, TemplateCall, Text, Variable, parse)

_JINJA_KEYWORDS = frozenset({"and", "or", "not", "in", "is", "if", "else", "elif", "endif", "for", "endfor",
                             "true", "false", "none", "True", "False", "None", "block", "set", "with",
                             "import", "from", "as", "recursive", "loop", "self", "super", "call", "macro"})
_COMPARISONS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
# Namespaced names of the page model's functions (site_model's, not in functions.NAMESPACES).
_PAGE_ALIASES = {("collections", "Where"): "where", ("collections", "Group"): "group"}
# Identifiers that are values, not functions: site, hugo and now (functions returning a value).
_VALUES = {"site": "site", "now": "now()", "hugo": "hugo_info(_state)", "page": "go_page(_state)"}


def _is_defer(pipe: Pipe) -> bool:
    """Whether a `with`'s pipeline is `templates.Defer OPTIONS` (in parentheses or not), whose block Hugo runs
    with the options' data as its dot."""
    while len(pipe.commands) == 1 and pipe.commands[0].operands:
        first = pipe.commands[0].operands[0]
        if isinstance(first, Identifier):
            return first.name == "templates" and first.names == ("Defer",)
        if not (isinstance(first, Chain) and not first.names and len(pipe.commands[0].operands) == 1):
            return False
        pipe = first.pipe
    return False


@dataclass(frozen=True)
class NamedTemplate:
    """A `define` (or a `block`'s default) as Jinja from HTML text; empty when its body is only white space
    (Go then keeps a template of the same name defined before it). body is its tree, translated again from
    another HTML context (translate_named) when it is called inside an attribute."""
    name: str
    jinja: str
    empty: bool
    body: tuple[Node, ...] = ()


@dataclass(frozen=True)
class Translation:
    """A Go template file as Jinja: its main template, the templates it defines in the order they come, and
    whether it returns a value (`{{ return }}`, a partial used as a function). main_empty: the file is only
    defines and white space (a layout's main then leaves its base's in place, as in Go)."""
    main: str
    defines: tuple[NamedTemplate, ...] = ()
    returns: bool = False
    main_empty: bool = False


def _wraps_partial(branch: Branch) -> bool:
    """A `with` whose pipe is one call of a partial (`partial`, `partialCached`, `partials.Include(Cached)`, in
    parentheses or not) and whose body breaks no loop outside its own ranges: what Hugo (0.153 on) turns into a
    partial decorator, whose else part prints the decorator's pop."""
    commands = branch.pipe.commands
    while len(commands) == 1 and commands[0].operands and isinstance(commands[0].operands[0], Chain) \
            and not commands[0].operands[0].names:
        commands = commands[0].operands[0].pipe.commands
    if len(branch.pipe.commands) != 1 or not commands or not commands[0].operands:
        return False
    head = commands[0].operands[0]
    if not isinstance(head, Identifier):
        return False
    called = (head.name, *head.names)
    if called not in (("partial",), ("partialCached",), ("partials", "Include"), ("partials", "IncludeCached")):
        return False
    return not _breaks_outside_range(branch.body)


def _breaks_outside_range(nodes: tuple[Node, ...]) -> bool:
    return any(isinstance(node, Loop) or (isinstance(node, Branch) and node.kind != "range"
                                          and (_breaks_outside_range(node.body) or _breaks_outside_range(node.otherwise)))
               for node in nodes)


def _decorator_pop(before: HtmlContext) -> str:
    """What the else part of a partial's `with` prints first, as Hugo's decorator transform writes it: the pop's
    value, an empty safeJS, through the escaper where the `with` stands; inside a tag, between attributes,
    html/template writes an empty name as ZgotmplZ (`<html lang="en"ZgotmplZ>`), elsewhere it is nothing."""
    escaper = before.escaper()
    return "" if escaper in ("html", "text", "comment") else f'{{{{ safeJS("") | {escaper} }}}}'


def translate(source: str) -> str:
    """Jinja source for a Go template's main template; GoTemplateError (line:col of the Go template) for what
    cannot be."""
    return translate_file(source).main


def translate_file(source: str, *, plain: bool = False) -> Translation:
    """A Go template file as Jinja, with its named templates (define, block); GoTemplateError at line:col.
    plain: a text/template, as Hugo runs the layouts of JSON and other plain-text outputs (nothing escaped)."""
    defines: list[NamedTemplate] = []
    translator = _Translator(defines, plain=plain)
    nodes = parse(source)
    main = translator.template(nodes)
    empty = _is_empty(tuple(node for node in nodes if not isinstance(node, Define)))
    return Translation(main, tuple(defines), translator.returns[0], empty)


def translate_named(template: NamedTemplate, snapshot: str) -> tuple[str, str]:
    """A named template's Jinja from the HTML context a call stands in (escape.HtmlContext.snapshot), and
    the context where its text ends."""
    translator = _Translator([])
    translator.context = HtmlContext.restore(snapshot)
    jinja = translator.template(template.body)
    return jinja, translator.context.snapshot()


def _is_constant(pipe: Pipe) -> bool:
    """Only literals, joined by and/or/not and comparisons: what Jinja folds into its output at compile time."""
    for command in pipe.commands:
        first, *rest = command.operands
        if isinstance(first, Identifier):
            if first.names or first.name not in ("and", "or", "not", *_COMPARISONS):
                return False
            operands = rest
        else:
            operands = list(command.operands)
        for operand in operands:
            if isinstance(operand, Chain):
                if operand.names or not _is_constant(operand.pipe):
                    return False
            elif not isinstance(operand, Literal):
                return False
    return True


def _is_empty(nodes: tuple[Node, ...]) -> bool:
    """Go's empty tree: nothing but white space text."""
    return all(isinstance(node, Text) and not node.text.strip() for node in nodes)


class _Translator:
    def __init__(self, defines: list[NamedTemplate], returns: list[bool] | None = None, *,
                 plain: bool = False) -> None:
        self.out: list[str] = []
        self.context = HtmlContext()
        if plain:
            self.context.state = "plain"
        self.dots = ["dot"]
        self.counter = 0
        self.loops = 0
        self.defines = defines                    # shared by the file's main template and its defines
        self.returns = returns if returns is not None else [False]
        self.declared: set[str] = set()           # Go's variables are the template's own: none come from outside

    def template(self, nodes: tuple[Node, ...]) -> str:
        self.out.append("{% set v = namespace() %}")
        self.nodes(nodes)
        return "".join(self.out)

    def nodes(self, nodes: tuple[Node, ...]) -> None:
        for node in nodes:
            if isinstance(node, Text):
                self.text(node.text)
            elif isinstance(node, Action):
                self.action(node)
            elif isinstance(node, Branch):
                self.branch(node)
            elif isinstance(node, Loop):
                if not self.loops:
                    raise GoTemplateError(node.at.line, node.at.column, f"{{{{ {node.kind} }}}} outside a range")
                self.out.append(f"{{% {node.kind} %}}")
            else:
                self.composition(node)

    def composition(self, node: Define | TemplateCall | Block | Return) -> None:
        """Named templates run in a template of their own (their `$` is their dot, no variable crosses), so
        a call is a function of the environment (functions.go_template) printing HTML as it is."""
        if isinstance(node, Return):
            self.returns[0] = True
            value = "none" if node.pipe is None else self.pipe(node.pipe)
            self.out.append(f"{{{{ go_return({value}) }}}}")
            return
        if isinstance(node, (Define, Block)):
            if not _is_empty(node.body) and any(define.name == node.name and not define.empty
                                                for define in self.defines):
                raise GoTemplateError(node.at.line, node.at.column,
                                      f'template: multiple definition of template "{node.name}" in this file')
            jinja = _Translator(self.defines, self.returns, plain=self.context.state == "plain").template(node.body)
            self.defines.append(NamedTemplate(node.name, jinja, _is_empty(node.body), node.body))
            if isinstance(node, Define):
                return
        escaper = self.context.escaper()
        if escaper == "comment":   # html/template runs it, writing nothing: what it sets (.Scratch) still holds
            dot = "none" if node.pipe is None else self.pipe(node.pipe)
            self.out.append(f"{{{{ go_template({json.dumps(node.name, ensure_ascii=False)}, {dot}) | comment }}}}")
            return
        if escaper not in ("html", "attr", "text"):
            kind = "template" if isinstance(node, TemplateCall) else "block"
            raise GoTemplateError(node.at.line, node.at.column, f"{{{{ {kind} }}}} "
                                  "inside a URL, script, style or tag is not supported by the translator "
                                  "(only in HTML text and attribute values)")
        pipe = node.pipe
        dot = "none" if pipe is None else self.pipe(pipe)
        where = "" if escaper == "html" else f", {json.dumps(self.context.snapshot())}"
        self.out.append(f"{{{{ go_template({json.dumps(node.name, ensure_ascii=False)}, {dot}{where}) }}}}")

    def text(self, text: str) -> None:
        shown = self.context.feed(text)
        if not shown:
            return
        if "{{" in shown or "{%" in shown or "{#" in shown:
            if "endraw" in shown:
                self.out.append("{{ " + json.dumps(shown, ensure_ascii=False) + " | safe }}")
            else:
                self.out.append("{% raw %}" + shown + "{% endraw %}")
        else:
            self.out.append(shown)

    def action(self, action: Action) -> None:
        pipe = action.pipe
        expression = self.pipe(pipe)
        if pipe.variables:
            self.out.append(f"{{% set v.{self._variable(pipe.variables[0], pipe.at, assign=pipe.assign)} = "
                            f"{expression} %}}")
            return
        escaper = self.context.escaper()
        if _is_constant(pipe):    # Jinja would print a constant (`eq 1 1`, `true`) itself, as Python writes it
            expression = f"go_value({expression})"
        self.out.append("{{ " + expression + ("" if escaper == "html" else f" | {escaper}") + " }}")

    def branch(self, branch: Branch) -> None:
        before = self.context.copy()
        if branch.kind == "range":
            self._range(branch, before)
            return
        expression = self.pipe(branch.pipe)
        if branch.kind == "with":
            self.counter += 1
            name = f"dot{self.counter}"
            if _is_defer(branch.pipe):   # templates.Defer: the block's dot is the options' data
                self.out.append(f"{{% set {name}_deferred = {expression} %}}{{% set {name} = {name}_deferred.data %}}")
                self.out.append(f"{{% if {name}_deferred %}}")
                self.dots.append(name)
                self.nodes(branch.body)
                self.dots.pop()
                self._otherwise(branch, before, "{% endif %}")
                return
            self.out.append(f"{{% set {name} = {expression} %}}")
            if branch.pipe.variables:
                self.out.append(f"{{% set v.{self._variable(branch.pipe.variables[0], branch.at)} = {name} %}}")
            self.out.append(f"{{% if {name} %}}")
            self.dots.append(name)
            self.nodes(branch.body)
            self.dots.pop()
            if _wraps_partial(branch):
                self._otherwise(branch, before, "{% endif %}", first=_decorator_pop(before))
                return
        else:
            if branch.pipe.variables:
                self.out.append(f"{{% set v.{self._variable(branch.pipe.variables[0], branch.at)} = {expression} %}}")
                expression = f"v.{branch.pipe.variables[0]}"
            self.out.append(f"{{% if {expression} %}}")
            self.nodes(branch.body)
            after = self.context
            # An `else if` chain is one flat if/elif (PaperMod's svg.html has a hundred branches: nested, they
            # pass Python's limit of indented blocks); each branch starts where the first did.
            while len(branch.otherwise) == 1 and isinstance(branch.otherwise[0], Branch) \
                    and branch.otherwise[0].kind == "if" and not branch.otherwise[0].pipe.variables:
                branch = branch.otherwise[0]
                self.context = before.copy()
                self.out.append(f"{{% elif {self.pipe(branch.pipe)} %}}")
                self.nodes(branch.body)
            self.context = after
        self._otherwise(branch, before, "{% endif %}")

    def _otherwise(self, branch: Branch, before: HtmlContext, end: str, first: str = "") -> None:
        """The else part starts where the branch started (html/template wants both to end alike); first: Jinja
        it starts with."""
        after = self.context
        if branch.otherwise or first:
            self.context = before.copy()
            self.out.append("{% else %}" + first)
            self.nodes(branch.otherwise)
        self.context = after
        self.out.append(end)

    def _range(self, branch: Branch, before: HtmlContext) -> None:
        expression = self.pipe(branch.pipe)
        self.counter += 1
        name, key = f"dot{self.counter}", f"key{self.counter}"
        self.out.append(f"{{% for {key}, {name} in go_range({expression}) %}}")
        variables = branch.pipe.variables
        if len(variables) == 1:
            self.out.append(f"{{% set v.{self._variable(variables[0], branch.at)} = {name} %}}")
        elif len(variables) == 2:
            self.out.append(f"{{% set v.{self._variable(variables[0], branch.at)} = {key} %}}"
                            f"{{% set v.{self._variable(variables[1], branch.at)} = {name} %}}")
        self.dots.append(name)
        self.loops += 1
        self.nodes(branch.body)
        self.loops -= 1
        self.dots.pop()
        self._otherwise(branch, before, "{% endfor %}")

    def _variable(self, name: str, at: Position, *, assign: bool = False) -> str:
        if not name:
            raise GoTemplateError(at.line, at.column, "$ cannot be assigned")
        if assign and name not in self.declared:
            raise GoTemplateError(at.line, at.column, f"undefined variable: ${name} (declare it with :=)")
        self.declared.add(name)
        return name

    # ------------------------------------------------------------------------ expressions

    def pipe(self, pipe: Pipe) -> str:
        value: str | None = None
        for command in pipe.commands:
            value = self.command(command, value)
        assert value is not None
        return value

    def command(self, command: Command, piped: str | None) -> str:
        first, *rest = command.operands
        if isinstance(first, Literal) and first.value is None:
            raise GoTemplateError(first.at.line, first.at.column, "nil is not a command (Go's rule: nil can only be "
                                                                  "an argument, as in print nil)")
        if isinstance(first, Identifier) and first.name == "try" and not first.names:
            return self.go_try(command, piped)
        arguments = [self.operand(operand) for operand in rest] + ([piped] if piped is not None else [])
        if isinstance(first, Identifier) and first.name not in _VALUES:
            return self.call(first, arguments)
        if arguments:
            if isinstance(first, (Field, Variable, Chain, Identifier)) and self._names(first):
                return f"{self.operand(first)}({', '.join(arguments)})"
            raise GoTemplateError(first.at.line, first.at.column,
                                  "can't give arguments to a value that is not a function or method")
        return self.operand(first)

    @staticmethod
    def _names(operand: Operand) -> tuple[str, ...]:
        return getattr(operand, "names", ())

    def go_try(self, command: Command, piped: str | None) -> str:
        """`try (f a b)`: f runs inside go_try, which turns its error into the result's .Err."""
        at = command.at
        inner = command.operands[1:]
        if piped is not None or len(inner) != 1 or not isinstance(inner[0], Chain) or inner[0].names \
                or len(inner[0].pipe.commands) != 1 or not isinstance(inner[0].pipe.commands[0].operands[0], Identifier):
            raise GoTemplateError(at.line, at.column, "try takes one function call in parentheses, as in "
                                                      "try (partial \"x.html\" .)")
        call = inner[0].pipe.commands[0]
        function = call.operands[0]
        assert isinstance(function, Identifier)
        special = function.name in ("and", "or", "not", "in", "try", *_COMPARISONS, *_VALUES) and not function.names
        callee = "" if special else self.call(function, [])
        if special:
            raise GoTemplateError(function.at.line, function.at.column,
                                  f"try of '{function.name}' is not supported by the translator (a function call)")
        arguments = [self.operand(operand) for operand in call.operands[1:]]
        return f"go_try({', '.join([callee[:-2], *arguments])})"

    def call(self, function: Identifier, arguments: list[str]) -> str:
        name, at = function.name, function.at
        if function.names:
            namespace = NAMESPACES.get(name)
            member = function.names[0]
            alias = _PAGE_ALIASES.get((name, member))
            if alias is not None and len(function.names) == 1:
                return f"{alias}({', '.join(arguments)})"
            if namespace is None or not namespace.has(member):
                raise GoTemplateError(at.line, at.column, f"function '{name}.{'.'.join(function.names)}' "
                                                          "is not supported by the translator")
            if len(function.names) > 1:   # time.Now.Unix: fields of the function's value, the last given the arguments
                value = f"{name}.{member}(){self._chain(function.names[1:])}"
                return f"{value}({', '.join(arguments)})" if arguments else value
            return f"{name}.{member}({', '.join(arguments)})"
        if name in ("and", "or"):
            if not arguments:
                raise GoTemplateError(at.line, at.column, f"{name} needs at least one argument")
            return "(" + f" {name} ".join(arguments) + ")"
        if name == "not":
            if len(arguments) != 1:
                raise GoTemplateError(at.line, at.column, "not takes one argument")
            return f"(not {arguments[0]})"
        if name in _COMPARISONS:
            if len(arguments) < 2 or (name != "eq" and len(arguments) != 2):
                raise GoTemplateError(at.line, at.column, f"{name} takes two arguments")
            if name == "eq" and len(arguments) > 2:
                return "(" + " or ".join(f"{arguments[0]} == {other}" for other in arguments[1:]) + ")"
            if name in ("eq", "ne"):
                return f"({arguments[0]} {_COMPARISONS[name]} {arguments[1]})"
            return f"go_{name}({arguments[0]}, {arguments[1]})"   # Hugo's ordering of mixed values
        if name == "in":
            return f"in_({', '.join(arguments)})"
        if name in NAMESPACES and not arguments and name not in FUNCTIONS:   # `resources` as a value: the namespace
            return name
        if name not in FUNCTIONS and name not in PAGE_FUNCTION_NAMES:
            raise GoTemplateError(at.line, at.column, f"function '{name}' is not supported by the translator")
        return f"{name}({', '.join(arguments)})"

    def operand(self, operand: Operand) -> str:
        if isinstance(operand, Dot):
            return self.dots[-1]
        if isinstance(operand, Field):
            return self.dots[-1] + self._chain(operand.names)
        if isinstance(operand, Variable):
            if operand.name and operand.name not in self.declared:
                raise GoTemplateError(operand.at.line, operand.at.column, f"undefined variable: ${operand.name} "
                                      "(a variable is seen only in the template that declares it, after it)")
            base = "dot" if operand.name == "" else f"v.{operand.name}"
            return base + self._chain(operand.names)
        if isinstance(operand, Literal):
            return self.literal(operand.value)
        if isinstance(operand, Identifier):
            if operand.name in _VALUES:
                return _VALUES[operand.name] + self._chain(operand.names)
            if operand.names:   # strings.ToLower as a value: call it with no arguments
                return self.call(operand, [])
            return self.call(operand, [])
        if isinstance(operand, Chain):
            return "(" + self.pipe(operand.pipe) + ")" + self._chain(operand.names)
        raise AssertionError(operand)

    @staticmethod
    def _chain(names: tuple[str, ...]) -> str:
        return "".join(f"[{json.dumps(name)}]" if name in _JINJA_KEYWORDS else f".{name}" for name in names)

    @staticmethod
    def literal(value: object) -> str:
        if value is None:
            return "none"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if isinstance(value, str):
            return json.dumps(value, ensure_ascii=False)
        return repr(value)
