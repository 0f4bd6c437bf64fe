"""The template lexers Chroma writes in Go, ported rule for rule: Svelte (lexers/svelte.go), YAML+Jinja
(yaml_jinja.go), PHTML (php.go) and the three Genshi lexers (genshi.go). Svelte, YAML+Jinja and PHTML are
delegating lexers: what the template lexer leaves as Other is lexed by HTML (YAML for YAML+Jinja)."""
from __future__ import annotations

from typing import Callable

from .go_rules import StateTable, groups, pop, push, rule_list, rules_of
from .lexer import Config, Include, LexerError, LexerLookup, RegexLexer, Rule, Using, UsingByGroup

# lexers/svelte.go
_SVELTE: StateTable = {
    "root": [
        # HTML lexes comments, with any script or style tag in them
        (r"<!--", "Other", push("comment")),
        # a script or style tag's code by its lang attribute (other attributes allowed)
        (r"""(<\s*(?:script|style).*?lang\s*=\s*['"])""" + r"""(.+?)(['"].*?>)""" + r"(.+?)"
         + r"(<\s*/\s*(?:script|style)\s*>)",
         UsingByGroup(2, 4, groups("Other", "Other", "Other", "Other", "Other").emitters)),
        # a "{" outside script and style tags
        (r"(?<!<\s*(?:script|style)(?:(?!(?:script|style)\s*>).)*?)" + r"{"
         + r"(?!(?:(?!<\s*(?:script|style)).)*?(?:script|style)\s*>)", "Punctuation", push("templates")),
        # on:submit|preventDefault
        (r"(?<=\s+on:\w+(?:\|\w+)*)\|(?=\w+)", "Operator"),
        (r".+?", "Other"),
    ],
    "comment": [
        (r"-->", "Other", pop(1)),
        (r".+?", "Other"),
    ],
    "templates": [
        (r"}", "Punctuation", pop(1)),
        # TypeScript lexes strings, with the braces in them
        (r"""(?<!(?<!\\)\\)(['"`])""" + r".*?(?<!(?<!\\)\\)\1", Using("TypeScript")),
        ("{", "Punctuation", push("templates")),
        (r"@(debug|html)\b", "Keyword"),
        (r"(#await)(\s+)(\w+)(\s+)(then|catch)(\s+)(\w+)",
         groups("Keyword", "Text", Using("TypeScript"), "Text", "Keyword", "Text", Using("TypeScript"))),
        (r"(#|/)(await|each|if|key)\b", "Keyword"),
        (r"(:else)(\s+)(if)?\b", groups("Keyword", "Text", "Keyword")),
        (r":(catch|then)\b", "Keyword"),
        (r"[^{}]+", Using("TypeScript")),
    ],
}

# lexers/genshi.go
_GENSHI_TEXT: StateTable = {
    "root": [
        (r"[^#$\s]+", "Other"),
        (r"^(\s*)(##.*)$", groups("Text", "Comment")),
        (r"^(\s*)(#)", groups("Text", "CommentPreproc"), push("directive")),
        Include("variable"),
        (r"[#$\s]", "Other"),
    ],
    "directive": [
        (r"\n", "Text", pop(1)),
        (r"(?:def|for|if)\s+.*", Using("Python"), pop(1)),
        (r"(choose|when|with)([^\S\n]+)(.*)", groups("Keyword", "Text", Using("Python")), pop(1)),
        (r"(choose|otherwise)\b", "Keyword", pop(1)),
        (r"(end\w*)([^\S\n]*)(.*)", groups("Keyword", "Text", "Comment"), pop(1)),
    ],
    "variable": [
        (r"(?<!\$)(\$\{)(.+?)(\})", groups("CommentPreproc", Using("Python"), "CommentPreproc")),
        (r"(?<!\$)(\$)([a-zA-Z_][\w.]*)", "NameVariable"),
    ],
}

_GENSHI_MARKUP: StateTable = {
    "root": [
        (r"[^<$]+", "Other"),
        (r"(<\?python)(.*?)(\?>)", groups("CommentPreproc", Using("Python"), "CommentPreproc")),
        (r"<\s*(script|style)\s*.*?>.*?<\s*/\1\s*>", "Other"),
        (r"<\s*py:[a-zA-Z0-9]+", "NameTag", push("pytag")),
        (r"<\s*[a-zA-Z0-9:.]+", "NameTag", push("tag")),
        Include("variable"),
        (r"[<$]", "Other"),
    ],
    "pytag": [
        (r"\s+", "Text"),
        (r"[\w:-]+\s*=", "NameAttribute", push("pyattr")),
        (r"/?\s*>", "NameTag", pop(1)),
    ],
    "pyattr": [
        (r'(")(.*?)(")', groups("LiteralString", Using("Python"), "LiteralString"), pop(1)),
        (r"(')(.*?)(')", groups("LiteralString", Using("Python"), "LiteralString"), pop(1)),
        (r"[^\s>]+", "LiteralString", pop(1)),
    ],
    "tag": [
        (r"\s+", "Text"),
        (r"py:[\w-]+\s*=", "NameAttribute", push("pyattr")),
        (r"[\w:-]+\s*=", "NameAttribute", push("attr")),
        (r"/?\s*>", "NameTag", pop(1)),
    ],
    "attr": [
        (r'"', "LiteralString", push("attr-dstring")),
        (r"'", "LiteralString", push("attr-sstring")),
        (r"[^\s>]*", "LiteralString", pop(1)),
    ],
    "attr-dstring": [
        (r'"', "LiteralString", pop(1)),
        Include("strings"),
        (r"'", "LiteralString"),
    ],
    "attr-sstring": [
        (r"'", "LiteralString", pop(1)),
        Include("strings"),
        (r"'", "LiteralString"),
    ],
    "strings": [
        (r"""[^"'$]+""", "LiteralString"),
        Include("variable"),
    ],
    "variable": [
        (r"(?<!\$)(\$\{)(.+?)(\})", groups("CommentPreproc", Using("Python"), "CommentPreproc")),
        (r"(?<!\$)(\$)([a-zA-Z_][\w\.]*)", "NameVariable"),
    ],
}

# php.go's PHTML: outside "<?php ... ?>" everything is Other (for HTML); inside, the PHP lexer's rules, its
# root state renamed "php".
_PHTML_ROOT = [
    (r"<\?(php)?", "CommentPreproc", push("php")),
    (r"[^<]+", "Other"),
    (r"<", "Other"),
]


def genshi_lexers() -> list[RegexLexer]:
    """genshi.go's three lexers, in its order."""
    markup = rules_of("lexers/genshi.go", _GENSHI_MARKUP)
    return [
        RegexLexer(Config("Genshi Text", ("genshitext",), mime_types=("application/x-genshi-text", "text/x-genshi")),
                   rules_of("lexers/genshi.go", _GENSHI_TEXT), where="lexers/genshi.go"),
        RegexLexer(Config("Genshi HTML", ("html+genshi", "html+kid"), mime_types=("text/html+genshi",),
                          not_multiline=True, dot_all=True), markup, where="lexers/genshi.go"),
        RegexLexer(Config("Genshi", ("genshi", "kid", "xml+genshi", "xml+kid"), ("*.kid",),
                          mime_types=("application/x-genshi", "application/x-kid"), not_multiline=True,
                          dot_all=True), markup, where="lexers/genshi.go"),
    ]


def svelte_lexer() -> RegexLexer:
    """The language lexer of Svelte (HTML is its root lexer)."""
    return RegexLexer(Config("Svelte", ("svelte",), ("*.svelte",), mime_types=("application/x-svelte",),
                             dot_all=True), rules_of("lexers/svelte.go", _SVELTE), where="lexers/svelte.go")


def yaml_jinja_lexer(xml_lexer: Callable[[str], RegexLexer]) -> RegexLexer:
    """The language lexer of YAML+Jinja: django_jinja.xml's rules under yaml_jinja.go's config (a lexer of
    yaml.xml is its root lexer)."""
    lexer = xml_lexer("django_jinja.xml")
    lexer.config = Config("YAML+Jinja", ("yaml+jinja", "salt", "sls", "ansible"), ("*.sls",),
                          mime_types=("text/x-yaml+jinja", "text/x-sls"), dot_all=True)
    return lexer


def phtml_lexer(registry: LexerLookup) -> RegexLexer:
    """The language lexer of PHTML (HTML is its root lexer): PHP's rules, their root renamed "php", and a root
    of its own, read from the PHP lexer when first used."""
    def rules() -> dict[str, list[Rule]]:
        php = registry.get("PHP")
        if php is None:
            raise LexerError("lexers/php.go: no PHP lexer")
        states = dict(php._load_rules())
        states["php"] = states.pop("root")
        states["root"] = rule_list("lexers/php.go", _PHTML_ROOT)
        return states
    return RegexLexer(Config("PHTML", ("phtml",), ("*.phtml", "*.php", "*.php[345]", "*.inc"),
                             mime_types=("application/x-php", "application/x-httpd-php", "application/x-httpd-php3",
                                         "application/x-httpd-php4", "application/x-httpd-php5", "text/x-php"),
                             case_insensitive=True, dot_all=True, ensure_nl=True, priority=2),
                      rules, where="lexers/php.go")
