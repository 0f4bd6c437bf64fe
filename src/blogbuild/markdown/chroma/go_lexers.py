"""The lexers Chroma writes in Go rather than XML (lexers/go.go, markdown.go, delegate.go), ported rule for rule:
Go, Go's text and HTML templates, and markdown (with its YAML front matter); and register_go_lexers, which
registers them with the others Chroma writes in Go (go_lexers_more, go_lexers_templates, go_lexer_haxe,
go_lexer_raku) in Chroma's order."""
from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from .lexer import (ByGroups, Clock, Config, Emitter, Include, LexerRegistry, LexerState, Rule, RegexLexer, Token,
                    TokenEmitter, UsingByGroup, UsingLexer, UsingSelf, coalesce)
from .token_types import OTHER, TYPES


def _t(name: str) -> TokenEmitter:
    return TokenEmitter(TYPES[name])


def _words(prefix: str, suffix: str, *words: str) -> str:
    """chroma.Words: the words, longest first, each quoted, as one alternation."""
    ordered = sorted(words, key=len, reverse=True)
    return prefix + "(" + "|".join(re.escape(word) for word in ordered) + ")" + suffix


def _rules(where: str, states: dict[str, list[Any]]) -> Callable[[], dict[str, list[Rule]]]:
    def build() -> dict[str, list[Rule]]:
        out: dict[str, list[Rule]] = {}
        for name, rules in states.items():
            out[name] = []
            for rule in rules:
                if isinstance(rule, Include):
                    out[name].append(Rule(None, None, rule, where))
                else:
                    pattern, emitter = rule
                    out[name].append(Rule(pattern, emitter, None, where))
        return out
    return build


_GO_TYPES = ("uint", "uint8", "uint16", "uint32", "uint64", "int", "int8", "int16", "int32", "int64", "float",
             "float32", "float64", "complex64", "complex128", "byte", "rune", "string", "bool", "error", "uintptr")


def _go_rules(text_template: Callable[[], RegexLexer]) -> Callable[[], dict[str, list[Rule]]]:
    raw_string = UsingLexer(text_template, ((OTHER, TYPES["LiteralString"]),))
    return _rules("lexers/go.go", {"root": [
        (r"\n", _t("TextWhitespace")),
        (r"\s+", _t("TextWhitespace")),
        (r"//[^\s\n\r][^\n\r]*", _t("CommentPreproc")),
        (r"//[^\n\r]*", _t("CommentSingle")),
        (r"/(\\\n)?[*](.|\n)*?[*](\\\n)?/", _t("CommentMultiline")),
        (r"(import|package)\b", _t("KeywordNamespace")),
        (r"(var|func|struct|map|chan|type|interface|const)\b", _t("KeywordDeclaration")),
        (_words("", r"\b", "break", "default", "select", "case", "defer", "go", "else", "goto", "switch",
                "fallthrough", "if", "range", "continue", "for", "return"), _t("Keyword")),
        (r"(true|false|iota|nil)\b", _t("KeywordConstant")),
        (_words("", r"\b(\()", *_GO_TYPES, "print", "println", "panic", "recover", "close", "complex", "real",
                "imag", "len", "cap", "append", "copy", "delete", "new", "make", "clear", "min", "max"),
         ByGroups((_t("NameBuiltin"), _t("Punctuation")))),
        (_words("", r"\b", *_GO_TYPES, "any"), _t("KeywordType")),
        (r"\d+i", _t("LiteralNumber")),
        (r"\d+\.\d*([Ee][-+]\d+)?i", _t("LiteralNumber")),
        (r"\.\d+([Ee][-+]\d+)?i", _t("LiteralNumber")),
        (r"\d+[Ee][-+]\d+i", _t("LiteralNumber")),
        (r"\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)", _t("LiteralNumberFloat")),
        (r"\.\d+([eE][+\-]?\d+)?", _t("LiteralNumberFloat")),
        (r"0[0-7]+", _t("LiteralNumberOct")),
        (r"0[xX][0-9a-fA-F_]+", _t("LiteralNumberHex")),
        (r"0b[01_]+", _t("LiteralNumberBin")),
        (r"(0|[1-9][0-9_]*)", _t("LiteralNumberInteger")),
        (r"""'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'""",
         _t("LiteralStringChar")),
        (r"(`)([^`]*)(`)", ByGroups((_t("LiteralString"), raw_string, _t("LiteralString")))),
        (r'"(\\\\|\\"|[^"])*"', _t("LiteralString")),
        (r"(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])",
         _t("Operator")),
        (r"([a-zA-Z_]\w*)(\s*)(\()", ByGroups((_t("NameFunction"), UsingSelf("root"), _t("Punctuation")))),
        (r"[|^<>=!()\[\]{}.,;:~]", _t("Punctuation")),
        (r"[^\W\d]\w*", _t("NameOther")),
    ]})


def _markdown_rules() -> Callable[[], dict[str, list[Rule]]]:
    inline_self = UsingSelf("inline")
    emitters: Sequence[Emitter | None]
    emitters = (_t("LiteralString"), _t("LiteralString"), _t("LiteralString"), _t("Text"), _t("LiteralString"))
    return _rules("lexers/markdown.go", {
        "root": [
            (r"<!--[\w\W]*?-->", _t("CommentMultiline")),
            (r"^(#[^#].+\n)", ByGroups((_t("GenericHeading"),))),
            (r"^(#{2,6}.+\n)", ByGroups((_t("GenericSubheading"),))),
            (r"^(\s*)([*-] )(\[[ xX]\])( .+\n)", ByGroups((_t("Text"), _t("Keyword"), _t("Keyword"), inline_self))),
            (r"^(\s*)([*-])(\s)(.+\n)", ByGroups((_t("Text"), _t("Keyword"), _t("Text"), inline_self))),
            (r"^(\s*)([0-9]+\.)( .+\n)", ByGroups((_t("Text"), _t("Keyword"), inline_self))),
            (r"^(\s*>\s)(.+\n)", ByGroups((_t("Keyword"), _t("GenericEmph")))),
            (r"^(```\n)([\w\W]*?)(^```$)", ByGroups((_t("LiteralString"), _t("Text"), _t("LiteralString")))),
            (r"^(```)(\w+)(\n)([\w\W]*?)(^```$)", UsingByGroup(2, 4, tuple(emitters))),
            Include("inline"),
        ],
        "inline": [
            (r"<!--[\w\W]*?-->", _t("CommentMultiline")),
            (r"\\.", _t("Text")),
            (r"(\s)(\*|_)((?:(?!\2).)*)(\2)((?=\W|\n))",
             ByGroups((_t("Text"), _t("GenericEmph"), _t("GenericEmph"), _t("GenericEmph"), _t("Text")))),
            (r"(\s)((\*\*|__).*?)\3((?=\W|\n))",
             ByGroups((_t("Text"), _t("GenericStrong"), _t("GenericStrong"), _t("Text")))),
            (r"(\s)(~~[^~]+~~)((?=\W|\n))", ByGroups((_t("Text"), _t("GenericDeleted"), _t("Text")))),
            (r"`[^`]+`", _t("LiteralStringBacktick")),
            (r"[@#][\w/:]+", _t("NameEntity")),
            (r"(!?\[)([^]]+)(\])(\()([^)]+)(\))",
             ByGroups((_t("Text"), _t("NameTag"), _t("Text"), _t("Text"), _t("NameAttribute"), _t("Text")))),
            (r".|\n", _t("Text")),
        ],
    })


def _split_front_matter(text: str) -> tuple[str, str] | None:
    """markdown.go splitFrontmatter: a leading '---' block and the rest, or None."""
    if not text.startswith(("---\n", "---\r\n")):
        return None
    line_end = text.find("\n")
    if text[:line_end].removesuffix("\r") != "---":
        return None
    pos = line_end + 1
    while pos < len(text):
        following = text.find("\n", pos)
        if following < 0:
            break
        if text[pos:following].removesuffix("\r") == "---":
            return text[:following + 1], text[following + 1:]
        pos = following + 1
    return None


class MarkdownLexer(RegexLexer):
    """markdownLexer: a leading YAML front matter lexed as YAML, the rest as markdown."""

    def tokens(self, text: str, *, state: str = "root", nested: bool = False, ensure_lf: bool | None = None,
               clock: Clock | None = None) -> list[Token]:
        split = _split_front_matter(text)
        yaml = self.registry.get("YAML") if self.registry and split else None
        if split is None or yaml is None:
            return super().tokens(text, state=state, nested=nested, ensure_lf=ensure_lf, clock=clock)
        front, rest = split
        return (yaml.tokens(front, state=state, nested=nested, ensure_lf=ensure_lf, clock=clock)
                + super().tokens(rest, state=state, nested=nested, ensure_lf=ensure_lf, clock=clock))


class DelegatingLexer(RegexLexer):
    """chroma.DelegatingLexer: the language lexer's Other tokens re-lexed, joined, by the root lexer."""

    def __init__(self, root: Callable[[], RegexLexer | None], language: RegexLexer) -> None:
        super().__init__(language.config, language._load_rules, where=language.where)
        self._root = root
        self._language = language

    def rules(self) -> dict[str, list[Rule]]:
        return self._language.rules()

    def analyse(self, text: str) -> float:
        """delegatingLexer.AnalyseText: the root lexer's score (HTML's: none), not the language lexer's."""
        root = self._root()
        return root.analyse(text) if root is not None else 0.0

    def tokens(self, text: str, *, state: str = "root", nested: bool = False, ensure_lf: bool | None = None,
               clock: Clock | None = None) -> list[Token]:
        root = self._root()
        self._language.registry = self.registry
        tokens = coalesce(self._language.tokens(text, state=state, nested=nested, ensure_lf=ensure_lf, clock=clock))
        if root is None:
            return tokens
        others: list[str] = []
        insertions: list[list] = []   # [start, end, tokens]
        insert: list | None = None
        offset = 0
        last: Token | None = None
        for token in tokens:
            if token[0] == OTHER:
                if last is not None and insert is not None and last[0] != OTHER:
                    insert[1] = offset
                others.append(token[1])
            else:
                if last is None or last[0] == OTHER:
                    insert = [offset, 0, []]
                    insertions.append(insert)
                assert insert is not None
                insert[2].append(token)
            last = token
            offset += len(token[1])
        if not insertions:
            return root.tokens(text, state=state, nested=nested, ensure_lf=ensure_lf, clock=clock)
        root_tokens = coalesce(root.tokens("".join(others), state=state, nested=nested, ensure_lf=ensure_lf,
                                           clock=clock))
        out: list[Token] = []
        offset = 0
        token_index = 0
        insertion_index = 0

        def next_token() -> Token | None:
            nonlocal token_index
            if token_index >= len(root_tokens):
                return None
            token_index += 1
            return root_tokens[token_index - 1]

        def next_insertion() -> list | None:
            nonlocal insertion_index
            if insertion_index >= len(insertions):
                return None
            insertion_index += 1
            return insertions[insertion_index - 1]

        current = next_token()
        insertion = next_insertion()
        while current is not None or insertion is not None:
            if current is None or (insertion is not None and insertion[0] < offset + len(current[1])):
                assert insertion is not None
                split_at = insertion[0] - offset
                left: Token | None
                if current is None:
                    left = None
                elif split_at == 0:
                    left = None
                elif split_at == len(current[1]):
                    left, current = current, None
                else:
                    left, current = (current[0], current[1][:split_at]), (current[0], current[1][split_at:])
                if left is not None:
                    out.append(left)
                    offset += len(left[1])
                out.extend(insertion[2])
                offset += insertion[1] - insertion[0]
                if current is None:
                    current = next_token()
                insertion = next_insertion()
            else:
                out.append(current)
                offset += len(current[1])
                current = next_token()
        return out


def register_go_lexers(registry: LexerRegistry, xml_lexer: Callable[[str], RegexLexer]) -> None:
    """Register the Go-coded lexers after the XML ones, in lexers/*.go's file order as Go initialises them
    (caddyfile.go, gemtext.go, genshi.go, go.go, haxe.go, http.go, markdown.go, markless.go, php.go, raku.go,
    rst.go, svelte.go, yaml_jinja.go)."""
    from .go_lexer_haxe import haxe_lexer
    from .go_lexer_raku import raku_lexer
    from .go_lexers_more import caddyfile_lexers, gemtext_lexer, http_lexer, markless_lexer, rst_lexer
    from .go_lexers_templates import genshi_lexers, phtml_lexer, svelte_lexer, yaml_jinja_lexer

    def html() -> RegexLexer | None:
        return registry.get("HTML")

    for lexer in [*caddyfile_lexers(), gemtext_lexer(), *genshi_lexers()]:
        registry.register(lexer)
    _register_go(registry, xml_lexer)
    registry.register(haxe_lexer())
    registry.register(http_lexer())
    registry.register(MarkdownLexer(Config("markdown", ("md", "mkd"), ("*.md", "*.mkd", "*.markdown"),
                                           mime_types=("text/x-markdown",)), _markdown_rules(),
                                    where="lexers/markdown.go"))
    registry.register(markless_lexer())
    registry.register(DelegatingLexer(html, phtml_lexer(registry)))
    # lexers/erb.go: ERB is erb.xml's rules under a config of Go's, its Other tokens (the HTML around the Ruby)
    # lexed by HTML.
    erb = xml_lexer("erb.xml")
    erb.config = Config("ERB", ("erb", "html+erb", "html+ruby", "rhtml"),
                        ("*.erb", "*.html.erb", "*.xml.erb", "*.rhtml"),
                        mime_types=("application/x-ruby-templating",), dot_all=True)
    registry.register(DelegatingLexer(html, erb))
    registry.register(raku_lexer())
    registry.register(rst_lexer())
    registry.register(DelegatingLexer(html, svelte_lexer()))
    yaml = xml_lexer("yaml.xml")
    registry.register(DelegatingLexer(lambda: yaml, yaml_jinja_lexer(xml_lexer)))


def _register_go(registry: LexerRegistry, xml_lexer: Callable[[str], RegexLexer]) -> None:
    """go.go's lexers: Go, Go's HTML templates (HTML around them) and its text templates."""
    def text_template() -> RegexLexer:
        return registry.by_name["go text template"]

    go = RegexLexer(Config("Go", ("go", "golang"), ("*.go",), mime_types=("text/x-gosrc",)),
                    _go_rules(text_template), where="lexers/go.go")
    registry.register(go)
    html_template = xml_lexer("go_template.xml")
    html_template.config = Config("Go HTML Template", ("go-html-template",))
    registry.register(DelegatingLexer(lambda: registry.get("HTML"), html_template))
    text = xml_lexer("go_template.xml")
    text.config = Config("Go Text Template", ("go-text-template",))
    registry.register(text)


_unused: tuple[type, ...] = (LexerState,)
