"""Chroma's Haxe lexer (lexers/haxe.go), ported rule for rule, with its preprocessor mutator: "#if" keeps the
state stack, "#else" and "#elseif" go back to it, "#end" forgets it. The stack is kept as Go keeps a slice (a
backing array shared by the slice kept at "#if" and the live stack until an append outgrows it), so a state
the lexer pushes over a popped one in between shows through as it does in Chroma."""
from __future__ import annotations

from typing import Iterable

from .go_rules import StateTable, default, groups, pop, push, rules_of
from .lexer import Config, Include, LexerState, RegexLexer

_IDENT = r"(?:_*[a-z]\w*|_+[0-9]\w*|_*[A-Z]\w*|_+|\$\w+)"
_KEYWORDS = (r"(?:function|class|static|var|if|else|while|do|for|break|return|continue|extends|implements|import|"
             r"switch|case|default|public|private|try|untyped|catch|new|this|throw|extern|enum|in|interface|cast|"
             r"override|dynamic|typedef|package|inline|using|null|true|false|abstract)")
_NAME = "(?!" + _KEYWORDS + r"\b)" + _IDENT
_BINOP = (r"(?:%=|&=|\|=|\^=|\+=|\-=|\*=|/=|<<=|>\s*>\s*=|>\s*>\s*>\s*=|==|!=|<=|>\s*=|&&|\|\||<<|>>>|>\s*>|"
          r"\.\.\.|<|>|%|&|\||\^|\+|\*|/|\-|=>|=)")


class GoStack(list[str]):
    """A state stack kept as a Go slice: `array` is its backing array (shared with the slices made from it),
    `cap` its capacity; appending past it moves to a new array twice as large, as Go's append does."""

    def __init__(self, items: Iterable[str] = (), array: list[str] | None = None, cap: int = 0) -> None:
        super().__init__(items)
        self.array = array if array is not None else list(self)
        self.cap = cap or len(self.array)

    def header(self) -> tuple[list[str], int, int]:
        """The slice header: (backing array, length, capacity)."""
        return self.array, len(self), self.cap

    @classmethod
    def of(cls, header: tuple[list[str], int, int]) -> "GoStack":
        array, length, cap = header
        return cls(array[:length], array, cap)

    def append(self, state: str) -> None:
        length = len(self)
        if length >= self.cap:   # (Go grows a slice of over 256 by less; no state stack gets that deep)
            self.cap = max(1, self.cap * 2)
            self.array = self.array[:length] + [""] * (self.cap - length)
        self.array[length] = state
        super().append(state)


class _HaxePreProc:
    """haxePreProcMutator: at "#if" the state stack is kept (a list of them in the lex's context), "#else" and
    "#elseif" return to the last kept, "#end" drops it; "#if" and "#elseif" then lex a condition, "#error" a
    message."""

    def mutate(self, state: LexerState) -> None:
        kept = state.context.get("haxe-pre-proc")
        stack: list[tuple[list[str], int, int]] = kept if isinstance(kept, list) else []
        if not isinstance(state.stack, GoStack):
            state.stack = GoStack(state.stack)
        proc = state.groups[2]
        if proc == "if":
            stack.append(state.stack.header())
        elif proc in ("else", "elseif"):
            if stack:
                state.stack = GoStack.of(stack[-1])
        elif proc == "end":
            if stack:
                stack.pop()
        if proc in ("if", "elseif"):
            state.stack.append("preproc-expr")
        if proc == "error":
            state.stack.append("preproc-error")
        state.context["haxe-pre-proc"] = stack


class HaxeLexer(RegexLexer):
    """Haxe's lexer: its state stack a GoStack."""

    def new_stack(self, state: str) -> list[str]:
        return GoStack([state])


_HAXE: StateTable = {
    "root": [
        Include("spaces"),
        Include("meta"),
        (r"(?:package)\b", "KeywordNamespace", push("semicolon", "package")),
        (r"(?:import)\b", "KeywordNamespace", push("semicolon", "import")),
        (r"(?:using)\b", "KeywordNamespace", push("semicolon", "using")),
        (r"(?:extern|private)\b", "KeywordDeclaration"),
        (r"(?:abstract)\b", "KeywordDeclaration", push("abstract")),
        (r"(?:class|interface)\b", "KeywordDeclaration", push("class")),
        (r"(?:enum)\b", "KeywordDeclaration", push("enum")),
        (r"(?:typedef)\b", "KeywordDeclaration", push("typedef")),
        ("(?=.)", "Text", push("expr-statement")),
    ],
    "spaces": [
        (r"\s+", "Text"),
        (r"//[^\n\r]*", "CommentSingle"),
        (r"/\*.*?\*/", "CommentMultiline"),
        (r"(#)(if|elseif|else|end|error)\b", "CommentPreproc", _HaxePreProc()),
    ],
    "string-single-interpol": [
        (r"\$\{", "LiteralStringInterpol", push("string-interpol-close", "expr")),
        (r"\$\$", "LiteralStringEscape"),
        (r"\$(?=" + _IDENT + ")", "LiteralStringInterpol", push("ident")),
        Include("string-single"),
    ],
    "string-single": [
        ("'", "LiteralStringSingle", pop(1)),
        (r"\\.", "LiteralStringEscape"),
        (".", "LiteralStringSingle"),
    ],
    "string-double": [
        (r'"', "LiteralStringDouble", pop(1)),
        (r"\\.", "LiteralStringEscape"),
        (".", "LiteralStringDouble"),
    ],
    "string-interpol-close": [
        (r"\$" + _IDENT, "LiteralStringInterpol"),
        (r"\}", "LiteralStringInterpol", pop(1)),
    ],
    "package": [
        Include("spaces"),
        (_IDENT, "NameNamespace"),
        (r"\.", "Punctuation", push("import-ident")),
        default(pop(1)),
    ],
    "import": [
        Include("spaces"),
        (_IDENT, "NameNamespace"),
        (r"\*", "Keyword"),
        (r"\.", "Punctuation", push("import-ident")),
        ("in", "KeywordNamespace", push("ident")),
        default(pop(1)),
    ],
    "import-ident": [
        Include("spaces"),
        (r"\*", "Keyword", pop(1)),
        (_IDENT, "NameNamespace", pop(1)),
    ],
    "using": [
        Include("spaces"),
        (_IDENT, "NameNamespace"),
        (r"\.", "Punctuation", push("import-ident")),
        default(pop(1)),
    ],
    "preproc-error": [
        (r"\s+", "CommentPreproc"),
        ("'", "LiteralStringSingle", push("#pop", "string-single")),
        (r'"', "LiteralStringDouble", push("#pop", "string-double")),
        default(pop(1)),
    ],
    "preproc-expr": [
        (r"\s+", "CommentPreproc"),
        (r"\!", "CommentPreproc"),
        (r"\(", "CommentPreproc", push("#pop", "preproc-parenthesis")),
        (_IDENT, "CommentPreproc", pop(1)),
        (r"\.[0-9]+", "LiteralNumberFloat"),
        (r"[0-9]+[eE][+\-]?[0-9]+", "LiteralNumberFloat"),
        (r"[0-9]+\.[0-9]*[eE][+\-]?[0-9]+", "LiteralNumberFloat"),
        (r"[0-9]+\.[0-9]+", "LiteralNumberFloat"),
        (r"[0-9]+\.(?!" + _IDENT + r"|\.\.)", "LiteralNumberFloat"),
        ("0x[0-9a-fA-F]+", "LiteralNumberHex"),
        ("[0-9]+", "LiteralNumberInteger"),
        ("'", "LiteralStringSingle", push("#pop", "string-single")),
        (r'"', "LiteralStringDouble", push("#pop", "string-double")),
    ],
    "preproc-parenthesis": [
        (r"\s+", "CommentPreproc"),
        (r"\)", "CommentPreproc", pop(1)),
        default(push("preproc-expr-in-parenthesis")),
    ],
    "preproc-expr-chain": [
        (r"\s+", "CommentPreproc"),
        (_BINOP, "CommentPreproc", push("#pop", "preproc-expr-in-parenthesis")),
        default(pop(1)),
    ],
    "preproc-expr-in-parenthesis": [
        (r"\s+", "CommentPreproc"),
        (r"\!", "CommentPreproc"),
        (r"\(", "CommentPreproc", push("#pop", "preproc-expr-chain", "preproc-parenthesis")),
        (_IDENT, "CommentPreproc", push("#pop", "preproc-expr-chain")),
        (r"\.[0-9]+", "LiteralNumberFloat", push("#pop", "preproc-expr-chain")),
        (r"[0-9]+[eE][+\-]?[0-9]+", "LiteralNumberFloat", push("#pop", "preproc-expr-chain")),
        (r"[0-9]+\.[0-9]*[eE][+\-]?[0-9]+", "LiteralNumberFloat", push("#pop", "preproc-expr-chain")),
        (r"[0-9]+\.[0-9]+", "LiteralNumberFloat", push("#pop", "preproc-expr-chain")),
        (r"[0-9]+\.(?!" + _IDENT + r"|\.\.)", "LiteralNumberFloat", push("#pop", "preproc-expr-chain")),
        ("0x[0-9a-fA-F]+", "LiteralNumberHex", push("#pop", "preproc-expr-chain")),
        ("[0-9]+", "LiteralNumberInteger", push("#pop", "preproc-expr-chain")),
        ("'", "LiteralStringSingle", push("#pop", "preproc-expr-chain", "string-single")),
        (r'"', "LiteralStringDouble", push("#pop", "preproc-expr-chain", "string-double")),
    ],
    "abstract": [
        Include("spaces"),
        default(pop(1), push("abstract-body"), push("abstract-relation"), push("abstract-opaque"),
                push("type-param-constraint"), push("type-name")),
    ],
    "abstract-body": [
        Include("spaces"),
        (r"\{", "Punctuation", push("#pop", "class-body")),
    ],
    "abstract-opaque": [
        Include("spaces"),
        (r"\(", "Punctuation", push("#pop", "parenthesis-close", "type")),
        default(pop(1)),
    ],
    "abstract-relation": [
        Include("spaces"),
        ("(?:to|from)", "KeywordDeclaration", push("type")),
        (",", "Punctuation"),
        default(pop(1)),
    ],
    "meta": [
        Include("spaces"),
        ("@", "NameDecorator", push("meta-body", "meta-ident", "meta-colon")),
    ],
    "meta-colon": [
        Include("spaces"),
        (":", "NameDecorator", pop(1)),
        default(pop(1)),
    ],
    "meta-ident": [
        Include("spaces"),
        (_IDENT, "NameDecorator", pop(1)),
    ],
    "meta-body": [
        Include("spaces"),
        (r"\(", "NameDecorator", push("#pop", "meta-call")),
        default(pop(1)),
    ],
    "meta-call": [
        Include("spaces"),
        (r"\)", "NameDecorator", pop(1)),
        default(pop(1), push("meta-call-sep"), push("expr")),
    ],
    "meta-call-sep": [
        Include("spaces"),
        (r"\)", "NameDecorator", pop(1)),
        (",", "Punctuation", push("#pop", "meta-call")),
    ],
    "typedef": [
        Include("spaces"),
        default(pop(1), push("typedef-body"), push("type-param-constraint"), push("type-name")),
    ],
    "typedef-body": [
        Include("spaces"),
        ("=", "Operator", push("#pop", "optional-semicolon", "type")),
    ],
    "enum": [
        Include("spaces"),
        default(pop(1), push("enum-body"), push("bracket-open"), push("type-param-constraint"), push("type-name")),
    ],
    "enum-body": [
        Include("spaces"),
        Include("meta"),
        (r"\}", "Punctuation", pop(1)),
        (_NAME, "Name", push("enum-member", "type-param-constraint")),
    ],
    "enum-member": [
        Include("spaces"),
        (r"\(", "Punctuation", push("#pop", "semicolon", "flag", "function-param")),
        default(pop(1), push("semicolon"), push("flag")),
    ],
    "class": [
        Include("spaces"),
        default(pop(1), push("class-body"), push("bracket-open"), push("extends"), push("type-param-constraint"),
                push("type-name")),
    ],
    "extends": [
        Include("spaces"),
        (r"(?:extends|implements)\b", "KeywordDeclaration", push("type")),
        (",", "Punctuation"),
        default(pop(1)),
    ],
    "bracket-open": [
        Include("spaces"),
        (r"\{", "Punctuation", pop(1)),
    ],
    "bracket-close": [
        Include("spaces"),
        (r"\}", "Punctuation", pop(1)),
    ],
    "class-body": [
        Include("spaces"),
        Include("meta"),
        (r"\}", "Punctuation", pop(1)),
        (r"(?:static|public|private|override|dynamic|inline|macro)\b", "KeywordDeclaration"),
        default(push("class-member")),
    ],
    "class-member": [
        Include("spaces"),
        (r"(var)\b", "KeywordDeclaration", push("#pop", "optional-semicolon", "var")),
        (r"(function)\b", "KeywordDeclaration", push("#pop", "optional-semicolon", "class-method")),
    ],
    "function-local": [
        Include("spaces"),
        (_NAME, "NameFunction",
         push("#pop", "optional-expr", "flag", "function-param", "parenthesis-open", "type-param-constraint")),
        default(pop(1), push("optional-expr"), push("flag"), push("function-param"), push("parenthesis-open"),
                push("type-param-constraint")),
    ],
    "optional-expr": [
        Include("spaces"),
        Include("expr"),
        default(pop(1)),
    ],
    "class-method": [
        Include("spaces"),
        (_IDENT, "NameFunction",
         push("#pop", "optional-expr", "flag", "function-param", "parenthesis-open", "type-param-constraint")),
    ],
    "function-param": [
        Include("spaces"),
        (r"\)", "Punctuation", pop(1)),
        (r"\?", "Punctuation"),
        (_NAME, "Name", push("#pop", "function-param-sep", "assign", "flag")),
    ],
    "function-param-sep": [
        Include("spaces"),
        (r"\)", "Punctuation", pop(1)),
        (",", "Punctuation", push("#pop", "function-param")),
    ],
    "prop-get-set": [
        Include("spaces"),
        (r"\(", "Punctuation", push("#pop", "parenthesis-close", "prop-get-set-opt", "comma", "prop-get-set-opt")),
        default(pop(1)),
    ],
    "prop-get-set-opt": [
        Include("spaces"),
        (r"(?:default|null|never|dynamic|get|set)\b", "Keyword", pop(1)),
        (_NAME, "Text", pop(1)),
    ],
    "expr-statement": [
        Include("spaces"),
        default(pop(1), push("optional-semicolon"), push("expr")),
    ],
    "expr": [
        Include("spaces"),
        ("@", "NameDecorator", push("#pop", "optional-expr", "meta-body", "meta-ident", "meta-colon")),
        (r"(?:\+\+|\-\-|~(?!/)|!|\-)", "Operator"),
        (r"\(", "Punctuation", push("#pop", "expr-chain", "parenthesis")),
        (r"(?:static|public|private|override|dynamic|inline)\b", "KeywordDeclaration"),
        (r"(?:function)\b", "KeywordDeclaration", push("#pop", "expr-chain", "function-local")),
        (r"\{", "Punctuation", push("#pop", "expr-chain", "bracket")),
        (r"(?:true|false|null)\b", "KeywordConstant", push("#pop", "expr-chain")),
        (r"(?:this)\b", "Keyword", push("#pop", "expr-chain")),
        (r"(?:cast)\b", "Keyword", push("#pop", "expr-chain", "cast")),
        (r"(?:try)\b", "Keyword", push("#pop", "catch", "expr")),
        (r"(?:var)\b", "KeywordDeclaration", push("#pop", "var")),
        (r"(?:new)\b", "Keyword", push("#pop", "expr-chain", "new")),
        (r"(?:switch)\b", "Keyword", push("#pop", "switch")),
        (r"(?:if)\b", "Keyword", push("#pop", "if")),
        (r"(?:do)\b", "Keyword", push("#pop", "do")),
        (r"(?:while)\b", "Keyword", push("#pop", "while")),
        (r"(?:for)\b", "Keyword", push("#pop", "for")),
        (r"(?:untyped|throw)\b", "Keyword"),
        (r"(?:return)\b", "Keyword", push("#pop", "optional-expr")),
        (r"(?:macro)\b", "Keyword", push("#pop", "macro")),
        (r"(?:continue|break)\b", "Keyword", pop(1)),
        (r"(?:\$\s*[a-z]\b|\$(?!" + _IDENT + "))", "Name", push("#pop", "dollar")),
        (_NAME, "Name", push("#pop", "expr-chain")),
        (r"\.[0-9]+", "LiteralNumberFloat", push("#pop", "expr-chain")),
        (r"[0-9]+[eE][+\-]?[0-9]+", "LiteralNumberFloat", push("#pop", "expr-chain")),
        (r"[0-9]+\.[0-9]*[eE][+\-]?[0-9]+", "LiteralNumberFloat", push("#pop", "expr-chain")),
        (r"[0-9]+\.[0-9]+", "LiteralNumberFloat", push("#pop", "expr-chain")),
        (r"[0-9]+\.(?!" + _IDENT + r"|\.\.)", "LiteralNumberFloat", push("#pop", "expr-chain")),
        ("0x[0-9a-fA-F]+", "LiteralNumberHex", push("#pop", "expr-chain")),
        ("[0-9]+", "LiteralNumberInteger", push("#pop", "expr-chain")),
        ("'", "LiteralStringSingle", push("#pop", "expr-chain", "string-single-interpol")),
        (r'"', "LiteralStringDouble", push("#pop", "expr-chain", "string-double")),
        (r"~/(\\\\|\\/|[^/\n])*/[gimsu]*", "LiteralStringRegex", push("#pop", "expr-chain")),
        (r"\[", "Punctuation", push("#pop", "expr-chain", "array-decl")),
    ],
    "expr-chain": [
        Include("spaces"),
        (r"(?:\+\+|\-\-)", "Operator"),
        (_BINOP, "Operator", push("#pop", "expr")),
        (r"(?:in)\b", "Keyword", push("#pop", "expr")),
        (r"\?", "Operator", push("#pop", "expr", "ternary", "expr")),
        (r"(\.)(" + _NAME + ")", groups("Punctuation", "Name")),
        (r"\[", "Punctuation", push("array-access")),
        (r"\(", "Punctuation", push("call")),
        default(pop(1)),
    ],
    "macro": [
        Include("spaces"),
        Include("meta"),
        (":", "Punctuation", push("#pop", "type")),
        (r"(?:extern|private)\b", "KeywordDeclaration"),
        (r"(?:abstract)\b", "KeywordDeclaration", push("#pop", "optional-semicolon", "abstract")),
        (r"(?:class|interface)\b", "KeywordDeclaration", push("#pop", "optional-semicolon", "macro-class")),
        (r"(?:enum)\b", "KeywordDeclaration", push("#pop", "optional-semicolon", "enum")),
        (r"(?:typedef)\b", "KeywordDeclaration", push("#pop", "optional-semicolon", "typedef")),
        default(pop(1), push("expr")),
    ],
    "macro-class": [
        (r"\{", "Punctuation", push("#pop", "class-body")),
        Include("class"),
    ],
    "cast": [
        Include("spaces"),
        (r"\(", "Punctuation", push("#pop", "parenthesis-close", "cast-type", "expr")),
        default(pop(1), push("expr")),
    ],
    "cast-type": [
        Include("spaces"),
        (",", "Punctuation", push("#pop", "type")),
        default(pop(1)),
    ],
    "catch": [
        Include("spaces"),
        (r"(?:catch)\b", "Keyword", push("expr", "function-param", "parenthesis-open")),
        default(pop(1)),
    ],
    "do": [
        Include("spaces"),
        default(pop(1), push("do-while"), push("expr")),
    ],
    "do-while": [
        Include("spaces"),
        (r"(?:while)\b", "Keyword", push("#pop", "parenthesis", "parenthesis-open")),
    ],
    "while": [
        Include("spaces"),
        (r"\(", "Punctuation", push("#pop", "expr", "parenthesis")),
    ],
    "for": [
        Include("spaces"),
        (r"\(", "Punctuation", push("#pop", "expr", "parenthesis")),
    ],
    "if": [
        Include("spaces"),
        (r"\(", "Punctuation", push("#pop", "else", "optional-semicolon", "expr", "parenthesis")),
    ],
    "else": [
        Include("spaces"),
        (r"(?:else)\b", "Keyword", push("#pop", "expr")),
        default(pop(1)),
    ],
    "switch": [
        Include("spaces"),
        default(pop(1), push("switch-body"), push("bracket-open"), push("expr")),
    ],
    "switch-body": [
        Include("spaces"),
        (r"(?:case|default)\b", "Keyword", push("case-block", "case")),
        (r"\}", "Punctuation", pop(1)),
    ],
    "case": [
        Include("spaces"),
        (":", "Punctuation", pop(1)),
        default(pop(1), push("case-sep"), push("case-guard"), push("expr")),
    ],
    "case-sep": [
        Include("spaces"),
        (":", "Punctuation", pop(1)),
        (",", "Punctuation", push("#pop", "case")),
    ],
    "case-guard": [
        Include("spaces"),
        (r"(?:if)\b", "Keyword", push("#pop", "parenthesis", "parenthesis-open")),
        default(pop(1)),
    ],
    "case-block": [
        Include("spaces"),
        (r"(?!(?:case|default)\b|\})", "Keyword", push("expr-statement")),
        default(pop(1)),
    ],
    "new": [
        Include("spaces"),
        default(pop(1), push("call"), push("parenthesis-open"), push("type")),
    ],
    "array-decl": [
        Include("spaces"),
        (r"\]", "Punctuation", pop(1)),
        default(pop(1), push("array-decl-sep"), push("expr")),
    ],
    "array-decl-sep": [
        Include("spaces"),
        (r"\]", "Punctuation", pop(1)),
        (",", "Punctuation", push("#pop", "array-decl")),
    ],
    "array-access": [
        Include("spaces"),
        default(pop(1), push("array-access-close"), push("expr")),
    ],
    "array-access-close": [
        Include("spaces"),
        (r"\]", "Punctuation", pop(1)),
    ],
    "comma": [
        Include("spaces"),
        (",", "Punctuation", pop(1)),
    ],
    "colon": [
        Include("spaces"),
        (":", "Punctuation", pop(1)),
    ],
    "semicolon": [
        Include("spaces"),
        (";", "Punctuation", pop(1)),
    ],
    "optional-semicolon": [
        Include("spaces"),
        (";", "Punctuation", pop(1)),
        default(pop(1)),
    ],
    "ident": [
        Include("spaces"),
        (_IDENT, "Name", pop(1)),
    ],
    "dollar": [
        Include("spaces"),
        (r"\{", "Punctuation", push("#pop", "expr-chain", "bracket-close", "expr")),
        default(pop(1), push("expr-chain")),
    ],
    "type-name": [
        Include("spaces"),
        (r"_*[A-Z]\w*", "Name", pop(1)),
    ],
    "type-full-name": [
        Include("spaces"),
        (r"\.", "Punctuation", push("ident")),
        default(pop(1)),
    ],
    "type": [
        Include("spaces"),
        (r"\?", "Punctuation"),
        (_IDENT, "Name", push("#pop", "type-check", "type-full-name")),
        (r"\{", "Punctuation", push("#pop", "type-check", "type-struct")),
        (r"\(", "Punctuation", push("#pop", "type-check", "type-parenthesis")),
    ],
    "type-parenthesis": [
        Include("spaces"),
        default(pop(1), push("parenthesis-close"), push("type")),
    ],
    "type-check": [
        Include("spaces"),
        ("->", "Punctuation", push("#pop", "type")),
        ("<(?!=)", "Punctuation", push("type-param")),
        default(pop(1)),
    ],
    "type-struct": [
        Include("spaces"),
        (r"\}", "Punctuation", pop(1)),
        (r"\?", "Punctuation"),
        (">", "Punctuation", push("comma", "type")),
        (_NAME, "Name", push("#pop", "type-struct-sep", "type", "colon")),
        Include("class-body"),
    ],
    "type-struct-sep": [
        Include("spaces"),
        (r"\}", "Punctuation", pop(1)),
        (",", "Punctuation", push("#pop", "type-struct")),
    ],
    "type-param-type": [
        (r"\.[0-9]+", "LiteralNumberFloat", pop(1)),
        (r"[0-9]+[eE][+\-]?[0-9]+", "LiteralNumberFloat", pop(1)),
        (r"[0-9]+\.[0-9]*[eE][+\-]?[0-9]+", "LiteralNumberFloat", pop(1)),
        (r"[0-9]+\.[0-9]+", "LiteralNumberFloat", pop(1)),
        (r"[0-9]+\.(?!" + _IDENT + r"|\.\.)", "LiteralNumberFloat", pop(1)),
        ("0x[0-9a-fA-F]+", "LiteralNumberHex", pop(1)),
        ("[0-9]+", "LiteralNumberInteger", pop(1)),
        ("'", "LiteralStringSingle", push("#pop", "string-single")),
        (r'"', "LiteralStringDouble", push("#pop", "string-double")),
        (r"~/(\\\\|\\/|[^/\n])*/[gim]*", "LiteralStringRegex", pop(1)),
        (r"\[", "Operator", push("#pop", "array-decl")),
        Include("type"),
    ],
    "type-param": [
        Include("spaces"),
        default(pop(1), push("type-param-sep"), push("type-param-type")),
    ],
    "type-param-sep": [
        Include("spaces"),
        (">", "Punctuation", pop(1)),
        (",", "Punctuation", push("#pop", "type-param")),
    ],
    "type-param-constraint": [
        Include("spaces"),
        ("<(?!=)", "Punctuation",
         push("#pop", "type-param-constraint-sep", "type-param-constraint-flag", "type-name")),
        default(pop(1)),
    ],
    "type-param-constraint-sep": [
        Include("spaces"),
        (">", "Punctuation", pop(1)),
        (",", "Punctuation", push("#pop", "type-param-constraint-sep", "type-param-constraint-flag", "type-name")),
    ],
    "type-param-constraint-flag": [
        Include("spaces"),
        (":", "Punctuation", push("#pop", "type-param-constraint-flag-type")),
        default(pop(1)),
    ],
    "type-param-constraint-flag-type": [
        Include("spaces"),
        (r"\(", "Punctuation", push("#pop", "type-param-constraint-flag-type-sep", "type")),
        default(pop(1), push("type")),
    ],
    "type-param-constraint-flag-type-sep": [
        Include("spaces"),
        (r"\)", "Punctuation", pop(1)),
        (",", "Punctuation", push("type")),
    ],
    "parenthesis": [
        Include("spaces"),
        default(pop(1), push("parenthesis-close"), push("flag"), push("expr")),
    ],
    "parenthesis-open": [
        Include("spaces"),
        (r"\(", "Punctuation", pop(1)),
    ],
    "parenthesis-close": [
        Include("spaces"),
        (r"\)", "Punctuation", pop(1)),
    ],
    "var": [
        Include("spaces"),
        (_NAME, "Text", push("#pop", "var-sep", "assign", "flag", "prop-get-set")),
    ],
    "var-sep": [
        Include("spaces"),
        (",", "Punctuation", push("#pop", "var")),
        default(pop(1)),
    ],
    "assign": [
        Include("spaces"),
        ("=", "Operator", push("#pop", "expr")),
        default(pop(1)),
    ],
    "flag": [
        Include("spaces"),
        (":", "Punctuation", push("#pop", "type")),
        default(pop(1)),
    ],
    "ternary": [
        Include("spaces"),
        (":", "Operator", pop(1)),
    ],
    "call": [
        Include("spaces"),
        (r"\)", "Punctuation", pop(1)),
        default(pop(1), push("call-sep"), push("expr")),
    ],
    "call-sep": [
        Include("spaces"),
        (r"\)", "Punctuation", pop(1)),
        (",", "Punctuation", push("#pop", "call")),
    ],
    "bracket": [
        Include("spaces"),
        (r"(?!(?:\$\s*[a-z]\b|\$(?!" + _IDENT + ")))" + _NAME, "Name", push("#pop", "bracket-check")),
        ("'", "LiteralStringSingle", push("#pop", "bracket-check", "string-single")),
        (r'"', "LiteralStringDouble", push("#pop", "bracket-check", "string-double")),
        default(pop(1), push("block")),
    ],
    "bracket-check": [
        Include("spaces"),
        (":", "Punctuation", push("#pop", "object-sep", "expr")),
        default(pop(1), push("block"), push("optional-semicolon"), push("expr-chain")),
    ],
    "block": [
        Include("spaces"),
        (r"\}", "Punctuation", pop(1)),
        default(push("expr-statement")),
    ],
    "object": [
        Include("spaces"),
        (r"\}", "Punctuation", pop(1)),
        default(pop(1), push("object-sep"), push("expr"), push("colon"), push("ident-or-string")),
    ],
    "ident-or-string": [
        Include("spaces"),
        (_NAME, "Name", pop(1)),
        ("'", "LiteralStringSingle", push("#pop", "string-single")),
        (r'"', "LiteralStringDouble", push("#pop", "string-double")),
    ],
    "object-sep": [
        Include("spaces"),
        (r"\}", "Punctuation", pop(1)),
        (",", "Punctuation", push("#pop", "object")),
    ],
}


def haxe_lexer() -> RegexLexer:
    return HaxeLexer(Config("Haxe", ("hx", "haxe", "hxsl"), ("*.hx", "*.hxsl"),
                            mime_types=("text/haxe", "text/x-haxe", "text/x-hx"), dot_all=True),
                     rules_of("lexers/haxe.go", _HAXE), where="lexers/haxe.go")
