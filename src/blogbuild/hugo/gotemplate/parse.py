"""Go's template language (text/template, as Hugo uses it) read into a small syntax tree.

The lexer follows text/template's: `{{`/`}}` actions with `{{- ` and ` -}}` trimming the white space
beside them, `{{/* */}}` comments, and inside an action strings ("…" with Go escapes, `raw`, 'c'),
numbers, `.Field` chains, `$variables`, identifiers, `(`, `)`, `|`, `:=`, `=` and `,`. The parser builds
the nodes translate.py turns into Jinja. Anything it cannot read is a GoTemplateError at line:col.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


class GoTemplateError(Exception):
    """A template the translator cannot read or does not support, at 1-based line and column."""

    def __init__(self, line: int, column: int, message: str, path: str = "") -> None:
        super().__init__(f"{path + ':' if path else ''}{line}:{column}: {message}")
        self.line = line
        self.column = column
        self.message = message
        self.path = path      # the file, when the error is raised for a render of several files

    def located(self, path: str) -> "GoTemplateError":
        """The same error naming its file (path:line:col: message)."""
        return GoTemplateError(self.line, self.column, self.message, path)


# ---------------------------------------------------------------------------- the syntax tree

@dataclass(frozen=True)
class Position:
    line: int
    column: int


@dataclass(frozen=True)
class Dot:
    """`.`: the current context."""
    at: Position


@dataclass(frozen=True)
class Field:
    """`.A.B` on the current context."""
    names: tuple[str, ...]
    at: Position


@dataclass(frozen=True)
class Variable:
    """`$` or `$name`, with an optional `.A.B` chain."""
    name: str                     # "" for `$`
    names: tuple[str, ...]
    at: Position


@dataclass(frozen=True)
class Identifier:
    """A function name, with an optional chain (`strings.ToLower` is the strings namespace's ToLower)."""
    name: str
    names: tuple[str, ...]
    at: Position


@dataclass(frozen=True)
class Literal:
    """A string, number, bool or nil."""
    value: object
    at: Position


@dataclass(frozen=True)
class Chain:
    """`(pipeline).A.B`."""
    pipe: "Pipe"
    names: tuple[str, ...]
    at: Position


Operand = Dot | Field | Variable | Identifier | Literal | Chain


@dataclass(frozen=True)
class Command:
    operands: tuple[Operand, ...]
    at: Position


@dataclass(frozen=True)
class Pipe:
    """`$a, $b := cmd | cmd`; assign is True for `=`."""
    variables: tuple[str, ...]
    assign: bool
    commands: tuple[Command, ...]
    at: Position


@dataclass(frozen=True)
class Text:
    text: str
    at: Position


@dataclass(frozen=True)
class Action:
    pipe: Pipe
    at: Position


@dataclass(frozen=True)
class Branch:
    """if / with / range: the pipe, its body and its else part (an `else if` is a Branch inside else)."""
    kind: str
    pipe: Pipe
    body: tuple["Node", ...]
    otherwise: tuple["Node", ...]
    at: Position


@dataclass(frozen=True)
class Loop:
    """break or continue."""
    kind: str
    at: Position


@dataclass(frozen=True)
class Define:
    """`{{ define "name" }}body{{ end }}` (top level only, as in Go)."""
    name: str
    body: tuple["Node", ...]
    at: Position


@dataclass(frozen=True)
class TemplateCall:
    """`{{ template "name" pipe }}`; pipe is None for `{{ template "name" }}` (dot is nil)."""
    name: str
    pipe: Pipe | None
    at: Position


@dataclass(frozen=True)
class Block:
    """`{{ block "name" pipe }}default{{ end }}`: define name as default unless defined, then call it."""
    name: str
    pipe: Pipe
    body: tuple["Node", ...]
    at: Position


@dataclass(frozen=True)
class Return:
    """`{{ return pipe }}` in a partial: the partial's value."""
    pipe: Pipe | None
    at: Position


Node = Text | Action | Branch | Loop | Define | TemplateCall | Block | Return


# ---------------------------------------------------------------------------- lexing

@dataclass
class _Token:
    kind: str          # text, open, close, string, number, field, variable, ident, char, '(' ')' '|' ':=' '=' ','
    value: str
    at: Position
    space_before: bool = False


_ACTION_TOKEN = re.compile(r"""
    (?P<space>[ \t\r\n]+)
  | (?P<close>-?\}\})
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<raw>`[^`]*`)
  | (?P<char>'(?:[^'\\\n]|\\.)+')
  | (?P<number>[-+]?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?![\w.]))
  | (?P<field>\.[A-Za-z_]\w*)
  | (?P<dot>\.)
  | (?P<variable>\$\w*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<declare>:=)
  | (?P<punct>[()|=,])
""", re.X)


class _Lexer:
    def __init__(self, source: str) -> None:
        self.source = source
        self.line_starts = [0] + [match.end() for match in re.finditer("\n", source)]

    def position(self, offset: int) -> Position:
        import bisect
        index = bisect.bisect_right(self.line_starts, offset) - 1
        return Position(index + 1, offset - self.line_starts[index] + 1)

    def tokens(self) -> list[_Token]:
        source = self.source
        out: list[_Token] = []
        cursor = 0
        trim_next = False
        while cursor <= len(source):
            start = source.find("{{", cursor)
            text = source[cursor:] if start < 0 else source[cursor:start]
            text_at = cursor
            if trim_next:
                stripped = text.lstrip(" \t\r\n")
                text_at += len(text) - len(stripped)
                text = stripped
            if start >= 0 and source.startswith("{{-", start) and source[start + 3:start + 4] in (" ", "\t", "\r", "\n"):
                text = text.rstrip(" \t\r\n")
            if text:
                out.append(_Token("text", text, self.position(text_at)))
            if start < 0:
                break
            cursor, trim_next = self._action(start, out)
        return out

    def _action(self, start: int, out: list[_Token]) -> tuple[int, bool]:
        source = self.source
        position = start + 2
        if source.startswith("- ", position) or source[position:position + 2] in ("-\t", "-\r", "-\n"):
            position += 1
        comment = re.compile(r"[ \t\r\n]*/\*").match(source, position)
        if comment:
            end = source.find("*/", comment.end())
            if end < 0:
                raise GoTemplateError(*self._where(start), "comment is never closed; end it with */}}")
            close = re.compile(r"[ \t\r\n]*(-?)\}\}").match(source, end + 2)
            if close is None:
                raise GoTemplateError(*self._where(end), "a comment must end with */}} (nothing after */)")
            return close.end(), close.group(1) == "-"
        out.append(_Token("open", "{{", self.position(start)))
        space = False
        while True:
            match = _ACTION_TOKEN.match(source, position)
            if match is None:
                if position >= len(source):
                    raise GoTemplateError(*self._where(start), "action is never closed; end it with }}")
                raise GoTemplateError(*self._where(position), f"unexpected {source[position]!r} in an action")
            kind = match.lastgroup or ""
            value = match.group(0)
            if kind == "space":
                space = True
                position = match.end()
                continue
            if kind == "close":
                trim = value.startswith("-")
                if trim and not space:
                    # `x-}}` is not a trim marker in Go: a '-' must follow a space. Read it as a number sign.
                    raise GoTemplateError(*self._where(position), "'-}}' needs a space before the '-'")
                out.append(_Token("close", "}}", self.position(position)))
                return match.end(), trim
            if kind in ("declare", "punct"):
                kind = value
            elif kind == "raw":
                kind = "string"
            out.append(_Token(kind, value, self.position(position), space))
            space = False
            position = match.end()

    def _where(self, offset: int) -> tuple[int, int]:
        at = self.position(offset)
        return at.line, at.column


# ---------------------------------------------------------------------------- parsing

_GO_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "a": "\a", "b": "\b",
               "f": "\f", "v": "\v", "0": "\0"}


def _unquote(token: _Token) -> str:
    text = token.value
    if text.startswith("`"):
        return text[1:-1]
    body = text[1:-1]

    def escape(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "xuU":
            return chr(int(code[1:], 16))
        if code[0].isdigit() and len(code) == 3:
            return chr(int(code, 8))
        return _GO_ESCAPES.get(code, code)
    return re.sub(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)", escape, body)


def _number(text: str) -> int | float:
    clean = text.replace("_", "")
    try:
        return int(clean, 0)
    except ValueError:
        return float(clean)


# Keywords that open an action of their own and cannot stand as an operand.
_ACTION_KEYWORDS = frozenset({"if", "else", "end", "range", "with", "break", "continue", "define", "template",
                              "block", "return"})


class _Parser:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.index = 0
        self.nesting = 0      # how many if/with/range/define/block bodies enclose the current action

    def peek(self, offset: int = 0) -> _Token | None:
        index = self.index + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def take(self) -> _Token:
        token = self.peek()
        if token is None:
            last = self.tokens[-1].at if self.tokens else Position(1, 1)
            raise GoTemplateError(last.line, last.column, "the template ends inside an action")
        self.index += 1
        return token

    def expect(self, kind: str, what: str) -> _Token:
        token = self.take()
        if token.kind != kind:
            raise GoTemplateError(token.at.line, token.at.column, f"expected {what}, found {token.value!r}")
        return token

    def parse(self) -> tuple[Node, ...]:
        nodes, ending = self.list_until(())
        assert ending is None
        return nodes

    def list_until(self, endings: tuple[str, ...]) -> tuple[tuple[Node, ...], _Token | None]:
        """Nodes until one of the keywords in endings opens an action (that token is returned, consumed
        with its `{{`), or the end of the template (None; an error when endings were expected)."""
        nodes: list[Node] = []
        while (token := self.peek()) is not None:
            if token.kind == "text":
                self.index += 1
                nodes.append(Text(token.value, token.at))
                continue
            opening = self.take()
            keyword = self.peek()
            if keyword is not None and keyword.kind == "ident" and keyword.value in endings:
                self.index += 1
                return tuple(nodes), keyword
            nodes.append(self.action(opening))
        if endings:
            last = self.tokens[-1].at if self.tokens else Position(1, 1)
            raise GoTemplateError(last.line, last.column, "the template ends before {{ end }}; "
                                                          "close every if, with and range")
        return tuple(nodes), None

    def action(self, opening: _Token) -> Node:
        token = self.peek()
        if token is None:
            raise GoTemplateError(opening.at.line, opening.at.column, "action is never closed")
        if token.kind == "ident" and token.value in ("if", "with", "range"):
            self.index += 1
            return self.branch(token.value, token)
        if token.kind == "ident" and token.value in ("break", "continue"):
            self.index += 1
            self.expect("close", "}}")
            return Loop(token.value, token.at)
        if token.kind == "ident" and token.value in ("end", "else"):
            raise GoTemplateError(token.at.line, token.at.column, f"{{{{ {token.value} }}}} without an if, with or range")
        if token.kind == "ident" and token.value in ("define", "template", "block", "return"):
            self.index += 1
            return self.composition(token)
        pipe = self.pipe(opening.at)
        self.expect("close", "}}")
        return Action(pipe, opening.at)

    def composition(self, keyword: _Token) -> Node:
        """define, template, block and return: named templates and a partial's value."""
        kind, at = keyword.value, keyword.at
        if kind == "return":
            following = self.peek()
            pipe = None if following is not None and following.kind == "close" else self.pipe(at)
            self.expect("close", "}}")
            return Return(pipe, at)
        if kind == "define" and self.nesting:
            raise GoTemplateError(at.line, at.column, "{{ define }} must be at the top level of the file, "
                                                      "outside every if, with, range, define and block")
        name_token = self.take()
        if name_token.kind != "string":
            raise GoTemplateError(name_token.at.line, name_token.at.column,
                                  f"{{{{ {kind} }}}} needs the template's name as a quoted string, found "
                                  f"{name_token.value!r}")
        name = _unquote(name_token)
        if kind == "define":
            self.expect("close", "}}")
            return Define(name, self.body(kind, at), at)
        following = self.peek()
        if kind == "template":
            pipe = None if following is not None and following.kind == "close" else self.pipe(at)
            self.expect("close", "}}")
            return TemplateCall(name, pipe, at)
        if following is not None and following.kind == "close":
            raise GoTemplateError(following.at.line, following.at.column,
                                  f"{{{{ block \"{name}\" }}}} needs a pipeline for its dot, as in "
                                  f"{{{{ block \"{name}\" . }}}}")
        pipe = self.pipe(at)
        self.expect("close", "}}")
        return Block(name, pipe, self.body(kind, at), at)

    def body(self, kind: str, at: Position) -> tuple[Node, ...]:
        """The nodes of a define or block up to its {{ end }}."""
        self.nesting += 1
        nodes, ending = self.list_until(("else", "end"))
        self.nesting -= 1
        if ending is not None and ending.value == "else":
            raise GoTemplateError(ending.at.line, ending.at.column, f"{{{{ else }}}} in a {{{{ {kind} }}}} "
                                  f"(opened at {at.line}:{at.column})")
        self.expect("close", "}}")
        return nodes

    def branch(self, kind: str, keyword: _Token) -> Branch:
        pipe = self.pipe(keyword.at, allow_two=kind == "range")
        self.expect("close", "}}")
        self.nesting += 1
        try:
            return self._branch_rest(kind, keyword, pipe)
        finally:
            self.nesting -= 1

    def _branch_rest(self, kind: str, keyword: _Token, pipe: Pipe) -> Branch:
        body, ending = self.list_until(("else", "end"))
        otherwise: tuple[Node, ...] = ()
        if ending is not None and ending.value == "else":
            following = self.peek()
            if following is not None and following.kind == "ident" and following.value in ("if", "with") \
                    and kind != "range":
                self.index += 1
                # `else if`/`else with` shares the outer branch's {{ end }}.
                otherwise = (self.branch(following.value, following),)
                return Branch(kind, pipe, body, otherwise, keyword.at)
            self.expect("close", "}}")
            otherwise, ending = self.list_until(("end",))
            if ending is not None and ending.value == "else":
                raise GoTemplateError(ending.at.line, ending.at.column, "a second {{ else }} in one branch")
        self.expect("close", "}}")
        return Branch(kind, pipe, body, otherwise, keyword.at)

    def pipe(self, at: Position, *, allow_two: bool = False) -> Pipe:
        variables: tuple[str, ...] = ()
        assign = False
        first, second, third, fourth = (self.peek(offset) for offset in range(4))
        if first is not None and first.kind == "variable" and second is not None:
            if second.kind in (":=", "="):
                variables, assign = (first.value[1:],), second.kind == "="
                self.index += 2
            elif second.kind == "," and third is not None and third.kind == "variable" \
                    and fourth is not None and fourth.kind in (":=", "="):
                if not allow_two:
                    raise GoTemplateError(second.at.line, second.at.column,
                                          "only range declares two variables ($i, $v := …)")
                variables, assign = (first.value[1:], third.value[1:]), fourth.kind == "="
                self.index += 4
        commands = [self.command()]
        while (token := self.peek()) is not None and token.kind == "|":
            self.index += 1
            commands.append(self.command())
        return Pipe(variables, assign, tuple(commands), at)

    def command(self) -> Command:
        operands: list[Operand] = []
        start = self.peek()
        while (token := self.peek()) is not None and token.kind not in ("close", "|", ")"):
            if operands and not token.space_before and token.kind != "(":
                raise GoTemplateError(token.at.line, token.at.column, f"missing space before {token.value!r}")
            operands.append(self.operand())
        if not operands:
            where = start.at if start is not None else Position(1, 1)
            raise GoTemplateError(where.line, where.column, "empty command in a pipeline")
        return Command(tuple(operands), operands[0].at)

    def chain(self) -> tuple[str, ...]:
        names = []
        while (token := self.peek()) is not None and token.kind == "field" and not token.space_before:
            names.append(token.value[1:])
            self.index += 1
        return tuple(names)

    def operand(self) -> Operand:
        token = self.take()
        kind = token.kind
        if kind == "field":
            return Field((token.value[1:], *self.chain()), token.at)
        if kind == "dot":
            following = self.peek()
            if following is not None and following.kind == "field" and not following.space_before:
                return Field(self.chain(), token.at)
            return Dot(token.at)
        if kind == "variable":
            return Variable(token.value[1:], self.chain(), token.at)
        if kind == "string":
            return Literal(_unquote(token), token.at)
        if kind == "char":
            value = _unquote(token)
            if len(value) != 1:   # Go's lexer takes one character between single quotes
                raise GoTemplateError(token.at.line, token.at.column, f"malformed character constant {token.value}")
            return Literal(ord(value), token.at)
        if kind == "number":
            return Literal(_number(token.value), token.at)
        if kind == "ident":
            if token.value in ("true", "false"):
                return Literal(token.value == "true", token.at)
            if token.value == "nil":
                return Literal(None, token.at)
            if token.value in _ACTION_KEYWORDS:
                raise GoTemplateError(token.at.line, token.at.column, f"'{token.value}' cannot be used here")
            return Identifier(token.value, self.chain(), token.at)
        if kind == "(":
            inner = self.pipe(token.at)
            if inner.variables:
                raise GoTemplateError(token.at.line, token.at.column,
                                      "a variable declared inside ( ) is not supported by the translator")
            self.expect(")", "')'")
            return Chain(inner, self.chain(), token.at)
        raise GoTemplateError(token.at.line, token.at.column, f"unexpected {token.value!r}")


def parse(source: str) -> tuple[Node, ...]:
    """The syntax tree of a Go template; a GoTemplateError names the line:col of what cannot be read."""
    return _Parser(_Lexer(source).tokens()).parse()


__all__ = ["Action", "Block", "Branch", "Chain", "Command", "Define", "Dot", "Field", "GoTemplateError", "Identifier",
           "Literal", "Loop", "Node", "Operand", "Pipe", "Position", "Return", "TemplateCall", "Text", "Variable",
           "parse"]
