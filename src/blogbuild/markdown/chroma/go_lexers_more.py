"""More of the lexers Chroma writes in Go, ported rule for rule: HTTP (lexers/http.go, its body lexed by the
lexer of its Content-Type), reStructuredText (rst.go, a code-block directive's code lexed by the language it
names), Gemtext (gemtext.go), Markless (markless.go) and the two Caddyfile lexers (caddyfile.go)."""
from __future__ import annotations

from typing import Sequence

from .go_rules import StateTable, default, groups, pop, push, rules_of
from .lexer import Clock, Config, Include, LexerState, RegexLexer, Token, UsingByGroup, UsingSelf
from .token_types import TEXT, TYPES

_NAME, _LITERAL, _GENERIC = TYPES["Name"], TYPES["Literal"], TYPES["Generic"]

# lexers/http.go. The header emitters (httpHeaderBlock, httpContinuousHeaderBlock) give each group a type, as
# ByGroups does; the body (httpContentBlock) is one Generic token.
_HTTP: StateTable = {
    "root": [
        (r"(GET|POST|PUT|DELETE|HEAD|OPTIONS|TRACE|PATCH|CONNECT)( +)([^ ]+)( +)(HTTP)(/)([123](?:\.[01])?)(\r?\n|\Z)",
         groups("NameFunction", "Text", "NameNamespace", "Text", "KeywordReserved", "Operator", "LiteralNumber",
                "Text"), push("headers")),
        (r"(HTTP)(/)([123](?:\.[01])?)( +)(\d{3})( *)([^\r\n]*)(\r?\n|\Z)",
         groups("KeywordReserved", "Operator", "LiteralNumber", "Text", "LiteralNumber", "Text", "NameException",
                "Text"), push("headers")),
    ],
    "headers": [
        (r"([^\s:]+)( *)(:)( *)([^\r\n]+)(\r?\n|\Z)", groups("Name", "Text", "Operator", "Text", "Literal", "Text")),
        (r"([\t ]+)([^\r\n]+)(\r?\n|\Z)", groups("Text", "Literal", "Text")),
        (r"\r?\n", "Text", push("content")),
    ],
    "content": [
        (r".+", "Generic"),
    ],
}


def _content_type(value: str) -> str:
    """The MIME type of a Content-Type header's value (its parameters after ";" dropped)."""
    content_type = value.strip()
    pos = content_type.find(";")
    if pos > 0:
        content_type = content_type[:pos].strip()
    return content_type


class HttpLexer(RegexLexer):
    """httpBodyContentTyper: after a Content-Type header, the body (the Generic token) is lexed by the lexer of
    that MIME type (or of type/suffix for a type/x+suffix Chroma does not know), else it is Text. As Chroma's
    iterator does it, the body lexer's first token takes the body's place and its others follow every token
    the HTTP lexer gives after the body."""

    def tokens(self, text: str, *, state: str = "root", nested: bool = False, ensure_lf: bool | None = None,
               clock: Clock | None = None) -> list[Token]:
        tokens = super().tokens(text, state=state, nested=nested, ensure_lf=ensure_lf, clock=clock)
        out: list[Token] = []
        content_type = ""
        is_content_type = False
        body: list[Token] = []
        for kind, value in tokens:
            if kind == _NAME and value.lower() == "content-type":
                is_content_type = True
            elif kind == _LITERAL and is_content_type:
                is_content_type = False
                content_type = _content_type(value)
            elif kind == _GENERIC and content_type:
                lexer = self._body_lexer(content_type)
                if lexer is None:
                    kind = TEXT
                else:
                    body = lexer.tokens(value, clock=clock)
                    if not body:
                        return out
                    out.append(body[0])
                    body = body[1:]
                    continue
            out.append((kind, value))
        return out + body

    def _body_lexer(self, content_type: str) -> RegexLexer | None:
        if self.registry is None:
            return None
        lexer = self.registry.match_mime_type(content_type)
        if lexer is None and "+" in content_type:   # application/calendar+xml as application/xml
            slash, plus = content_type.find("/"), content_type.rfind("+")
            lexer = self.registry.match_mime_type(content_type[:slash + 1] + content_type[plus + 1:])
        return lexer


class _RstCodeBlock:
    """rstCodeBlock: a code-block directive's parts, then its code lexed by the language it names (lexers.Get),
    else one String token."""

    def emit(self, found: Sequence[str], state: LexerState) -> list[Token]:
        names = ("Punctuation", "Text", "OperatorWord", "Punctuation", "Text", "Keyword", "Text")
        tokens = [(TYPES[name], value) for name, value in zip(names, found[1:8], strict=True)]
        code = "".join(found[8:])
        lexer = state.registry.get(found[6]) if state.registry else None
        if lexer is None:
            return tokens + [(TYPES["String"], code)]
        return tokens + lexer.tokens(code, clock=state.clock)


_RST_END_OF_LITERAL = ("``((?=$)|(?=[-/:.,; \\n\\x00\\\u2010\\\u2011\\\u2012\\\u2013\\\u2014\\\u00a0\\'\\\"\\)\\]\\}\\>"
                       "\\\u2019\\\u201d\\\u00bb\\!\\?]))")

_RST: StateTable = {
    "root": [
        ("^(=+|-+|`+|:+|\\.+|\\'+|\"+|~+|\\^+|_+|\\*+|\\++|#+)([ \\t]*\\n)(.+)(\\n)(\\1)(\\n)",
         groups("GenericHeading", "Text", "GenericHeading", "Text", "GenericHeading", "Text")),
        ("^(\\S.*)(\\n)(={3,}|-{3,}|`{3,}|:{3,}|\\.{3,}|\\'{3,}|\"{3,}|~{3,}|\\^{3,}|_{3,}|\\*{3,}|\\+{3,}|#{3,})(\\n)",
         groups("GenericHeading", "Text", "GenericHeading", "Text")),
        (r"^(\s*)([-*+])( .+\n(?:\1  .+\n)*)", groups("Text", "LiteralNumber", UsingSelf("inline"))),
        (r"^(\s*)([0-9#ivxlcmIVXLCM]+\.)( .+\n(?:\1  .+\n)*)", groups("Text", "LiteralNumber", UsingSelf("inline"))),
        (r"^(\s*)(\(?[0-9#ivxlcmIVXLCM]+\))( .+\n(?:\1  .+\n)*)",
         groups("Text", "LiteralNumber", UsingSelf("inline"))),
        (r"^(\s*)([A-Z]+\.)( .+\n(?:\1  .+\n)+)", groups("Text", "LiteralNumber", UsingSelf("inline"))),
        (r"^(\s*)(\(?[A-Za-z]+\))( .+\n(?:\1  .+\n)+)", groups("Text", "LiteralNumber", UsingSelf("inline"))),
        (r"^(\s*)(\|)( .+\n(?:\|  .+\n)*)", groups("Text", "Operator", UsingSelf("inline"))),
        (r"^( *\.\.)(\s*)((?:source)?code(?:-block)?)(::)([ \t]*)([^\n]+)(\n[ \t]*\n)([ \t]+)(.*)(\n)"
         r"((?:(?:\8.*|)\n)+)", _RstCodeBlock()),
        (r"^( *\.\.)(\s*)([\w:-]+?)(::)(?:([ \t]*)(.*))",
         groups("Punctuation", "Text", "OperatorWord", "Punctuation", "Text", UsingSelf("inline"))),
        (r"^( *\.\.)(\s*)(_(?:[^:\\]|\\.)+:)(.*?)$", groups("Punctuation", "Text", "NameTag", UsingSelf("inline"))),
        (r"^( *\.\.)(\s*)(\[.+\])(.*?)$", groups("Punctuation", "Text", "NameTag", UsingSelf("inline"))),
        (r"^( *\.\.)(\s*)(\|.+\|)(\s*)([\w:-]+?)(::)(?:([ \t]*)(.*))",
         groups("Punctuation", "Text", "NameTag", "Text", "OperatorWord", "Punctuation", "Text",
                UsingSelf("inline"))),
        (r"^ *\.\..*(\n( +.*\n|\n)+)?", "CommentPreproc"),
        (r"^( *)(:[a-zA-Z-]+:)(\s*)$", groups("Text", "NameClass", "Text")),
        (r"^( *)(:.*?:)([ \t]+)(.*?)$", groups("Text", "NameClass", "Text", "NameFunction")),
        (r"^(\S.*(?<!::)\n)((?:(?: +.*)\n)+)", groups(UsingSelf("inline"), UsingSelf("inline"))),
        (r"(::)(\n[ \t]*\n)([ \t]+)(.*)(\n)((?:(?:\3.*|)\n)+)",
         groups("LiteralStringEscape", "Text", "LiteralString", "LiteralString", "Text", "LiteralString")),
        Include("inline"),
    ],
    "inline": [
        (r"\\.", "Text"),
        ("``", "LiteralString", push("literal")),
        ("(`.+?)(<.+?>)(`__?)", groups("LiteralString", "LiteralStringInterpol", "LiteralString")),
        ("`.+?`__?", "LiteralString"),
        ("(`.+?`)(:[a-zA-Z0-9:-]+?:)?", groups("NameVariable", "NameAttribute")),
        ("(:[a-zA-Z0-9:-]+?:)(`.+?`)", groups("NameAttribute", "NameVariable")),
        (r"\*\*.+?\*\*", "GenericStrong"),
        (r"\*.+?\*", "GenericEmph"),
        (r"\[.*?\]_", "LiteralString"),
        (r"<.+?>", "NameTag"),
        ("[^\\\\\\n\\[*`:]+", "Text"),
        (r".", "Text"),
    ],
    "literal": [
        ("[^`]+", "LiteralString"),
        (_RST_END_OF_LITERAL, "LiteralString", pop(1)),
        ("`", "LiteralString"),
    ],
}

# lexers/gemtext.go
_GEMTEXT: StateTable = {
    "root": [
        (r"^(#[^#].+\r?\n)", groups("GenericHeading")),
        (r"^(#{2,3}.+\r?\n)", groups("GenericSubheading")),
        (r"^(\* )(.+\r?\n)", groups("Keyword", "Text")),
        (r"^(>)(.+\r?\n)", groups("Keyword", "GenericEmph")),
        ("^(```\\r?\\n)([\\w\\W]*?)(^```)(.+\\r?\\n)?", groups("String", "Text", "String", "Comment")),
        ("^(```)(\\w+)(\\r?\\n)([\\w\\W]*?)(^```)(.+\\r?\\n)?",
         UsingByGroup(2, 4, groups("String", "String", "String", "Text", "String", "Comment").emitters)),
        ("^(```)(.+\\r?\\n)([\\w\\W]*?)(^```)(.+\\r?\\n)?", groups("String", "String", "Text", "String", "Comment")),
        (r"^(=>)(\s*)([^\s]+)(\s*)$", groups("Keyword", "Text", "NameAttribute", "Text")),
        (r"^(=>)(\s*)([^\s]+)(\s+)(.+)$", groups("Keyword", "Text", "NameAttribute", "Text", "NameTag")),
        (r"(.|(?:\r?\n))", groups("Text")),
    ],
}

_MARKLESS_COLOURS = (
    "indian-red|light-coral|salmon|dark-salmon|light-salmon|crimson|red|firebrick|dark-red|pink|light-pink|"
    "hot-pink|deep-pink|medium-violet-red|pale-violet-red|coral|tomato|orange-red|dark-orange|orange|gold|yellow|"
    "light-yellow|lemon-chiffon|light-goldenrod-yellow|papayawhip|moccasin|peachpuff|pale-goldenrod|khaki|"
    "dark-khaki|lavender|thistle|plum|violet|orchid|fuchsia|magenta|medium-orchid|medium-purple|rebecca-purple|"
    "blue-violet|dark-violet|dark-orchid|dark-magenta|purple|indigo|slate-blue|dark-slate-blue|medium-slate-blue|"
    "green-yellow|chartreuse|lawn-green|lime|lime-green|pale-green|light-green|medium-spring-green|spring-green|"
    "medium-sea-green|sea-green|forest-green|green|dark-green|yellow-green|olive-drab|olive|dark-olive-green|"
    "medium-aquamarine|dark-sea-green|light-sea-green|dark-cyan|teal|aqua|cyan|light-cyan|pale-turquoise|"
    "aquamarine|turquoise|medium-turquoise|dark-turquoise|cadet-blue|steel-blue|light-steel-blue|powder-blue|"
    "light-blue|sky-blue|light-sky-blue|deep-sky-blue|dodger-blue|cornflower-blue|royal-blue|blue|medium-blue|"
    "dark-blue|navy|midnight-blue|cornsilk|blanched-almond|bisque|navajo-white|wheat|burlywood|tan|rosy-brown|"
    "sandy-brown|goldenrod|dark-goldenrod|peru|chocolate|saddle-brown|sienna|brown|maroon|white|snow|honeydew|"
    "mintcream|azure|alice-blue|ghost-white|white-smoke|seashell|beige|oldlace|floral-white|ivory|antique-white|"
    "linen|lavenderblush|mistyrose|gainsboro|light-gray|silver|dark-gray|gray|dim-gray|light-slate-gray|"
    "slate-gray|dark-slate-gray")

# lexers/markless.go
_MARKLESS: StateTable = {
    "root": [Include("block")],
    "block": [Include(name) for name in (
        "header", "ordered-list", "unordered-list", "code-block", "blockquote", "blockquote-header", "align",
        "comment", "instruction", "embed", "footnote", "horizontal-rule", "paragraph")],
    "header": [
        (r"(# )(.*)$", groups("Keyword", "GenericHeading"), push("inline")),
        (r"(##+)(.*)$", groups("Keyword", "GenericSubheading"), push("inline")),
    ],
    "ordered-list": [(r"([0-9]+\.)", "Keyword")],
    "unordered-list": [(r"(- )", "Keyword")],
    "code-block": [
        (r"(::+)( *)(\w*)([^\n]*)(\n)([\w\W]*?)(^\1$)",
         UsingByGroup(3, 6, groups("Keyword", "TextWhitespace", "NameFunction", "String", "TextWhitespace", "Text",
                                   "Keyword").emitters)),
    ],
    "blockquote": [(r"(\| )(.*)$", groups("Keyword", "GenericInserted"))],
    "blockquote-header": [
        (r"(~ )([^|\n]+)(\| )(.*?\n)", groups("Keyword", "NameEntity", "Keyword", "GenericInserted"),
         push("inline-blockquote")),
        (r"(~ )(.*)$", groups("Keyword", "NameEntity")),
    ],
    "inline-blockquote": [
        (r"^(   +)(\| )(.*$)", groups("TextWhitespace", "Keyword", "GenericInserted")),
        default(pop(1)),
    ],
    "align": [(r"(\|\|)|(\|<)|(\|>)|(><)", "Keyword")],
    "comment": [(r"(;[; ]).*?$", "CommentSingle")],
    "instruction": [(r"(! )([^ ]+)(.+?)$", groups("Keyword", "NameFunction", "NameVariable"))],
    "embed": [
        (r"(\[ )([^ ]+)( )([^,\]\n]+)", groups("Keyword", "NameFunction", "TextWhitespace", "String"),
         push("embed-options")),
    ],
    "embed-options": [
        (r"\\.", "Text"),
        (r",", "Punctuation"),
        (r"\]?$", "Keyword", pop(1)),
        (r"( *)([^, \]\n]+)([^,\]\n]+)?", groups("TextWhitespace", "NameFunction", "String")),
        (r".", "Text"),
    ],
    "footnote": [(r"(\[)([0-9]+)(\])", groups("Keyword", "NameVariable", "Keyword"), push("inline"))],
    "horizontal-rule": [(r"(==+)$", "LiteralOther")],
    "paragraph": [(r" *", "TextWhitespace", push("inline"))],
    "inline": [Include(name) for name in (
        "escapes", "dashes", "newline", "italic", "underline", "bold", "strikethrough", "code", "compound",
        "footnote-reference", "subtext", "subtext", "url")] + [
        (r".", "Text"),
        (r"\n", "TextWhitespace", pop(1)),
    ],
    "escapes": [(r"\\.", "Text")],
    "dashes": [(r"-{2,3}", "TextPunctuation")],
    "newline": [(r"-/-", "TextWhitespace")],
    "italic": [(r"(//)(.*?)(\1)", groups("Keyword", "GenericEmph", "Keyword"))],
    "underline": [(r"(__)(.*?)(\1)", groups("Keyword", "GenericUnderline", "Keyword"))],
    "bold": [(r"(\*\*)(.*?)(\1)", groups("Keyword", "GenericStrong", "Keyword"))],
    "strikethrough": [(r"(<-)(.*?)(->)", groups("Keyword", "GenericDeleted", "Keyword"))],
    "code": [("(``+)(.*?)(\\1)", groups("Keyword", "LiteralStringBacktick", "Keyword"))],
    "compound": [
        (r"(''+)(.*?)(''\()", groups("Keyword", UsingSelf("inline"), "Keyword"), push("compound-options")),
    ],
    "compound-options": [
        (r"\\.", "Text"),
        (r",", "Punctuation"),
        (r"\)", "Keyword", pop(1)),
        (r" *#[0-9A-Fa-f]{3,6} *", "LiteralNumberHex"),
        (r" *(" + _MARKLESS_COLOURS + r") *", "LiteralOther"),
        (r" *(microscopic|tiny|small|normal|big|large|huge|gigantic) *", "NameTag"),
        (r" *(bold|italic|underline|strikethrough|subtext|supertext|spoiler) *", "NameBuiltin"),
        (r" *\w[-\w+.]*://[\w$\-_.+!*'(&/:;=?@z%#\\]+ *", "String"),
        (r"( *)([^, )]+)( [^,)]+)?", groups("TextWhitespace", "NameFunction", "String")),
        (r".", "Text"),
    ],
    "footnote-reference": [(r"(\[)([0-9]+)(\])", groups("Keyword", "NameVariable", "Keyword"))],
    "subtext": [(r"(v\()(.*?)(\))", groups("Keyword", UsingSelf("inline"), "Keyword"))],
    "supertext": [(r"(\^\()(.*?)(\))", groups("Keyword", UsingSelf("inline"), "Keyword"))],
    "url": [(r"\w[-\w+.]*://[\w\$\-_.+!*'()&,/:;=?@z%#\\]+", "String")],
}

# lexers/caddyfile.go: a matcher token (a docs stub, @name, a path, *) and a comment (at the start of a line or
# after spaces).
_CADDY_MATCHER_TOKEN = r"(\[\<matcher\>\]|@[^\s]+|/[^\s]+|\*)"
_CADDY_COMMENT = r"(^|\s+)#.*\n"

# caddyfileCommonRules: the states both Caddyfile lexers share.
_CADDYFILE_COMMON: StateTable = {
    "site_block_common": [
        Include("site_body"),
        (r"[^\s#]+", "Keyword", push("directive")),
        Include("base"),
    ],
    "site_body": [
        (r"\b(import|invoke)\b( [^\s#]+)", groups("Keyword", "Text"), push("subdirective")),
        (r"@[^\s]+(?=\s)", "NameDecorator", push("matcher")),
        (r"\[\<matcher\>\]", "NameDecorator", push("matcher")),
        (r"\b(try_files|tls|log|bind)\b", "Keyword", push("subdirective")),
        (r"\b(handle_errors|handle_path|handle_response|replace_status|handle|route)\b", "Keyword",
         push("nested_directive")),
        (r"\b(uri)\b", "Keyword", push("uri_directive")),
    ],
    "matcher": [
        (r"\{", "Punctuation", push("block")),
        (r"not", "Keyword", push("deep_not_matcher")),
        Include("heredoc"),
        ("`", "StringBacktick", push("backticks")),
        (r"[^\s#]+", "Keyword", push("arguments")),
        (r"\s*\n", "Text", pop(1)),
        (r"\}", "Punctuation", pop(1)),
        Include("base"),
    ],
    "block": [
        (r"\}", "Punctuation", pop(2)),
        (r'"', "StringDouble", push("double_quotes")),
        ("`", "StringBacktick", push("backticks")),
        (r"not", "Keyword", push("not_matcher")),
        Include("site_body"),
        (r"[^\s#]+", "Keyword", push("subdirective")),
        Include("base"),
    ],
    "nested_block": [
        (r"\}", "Punctuation", pop(2)),
        (r'"', "StringDouble", push("double_quotes")),
        ("`", "StringBacktick", push("backticks")),
        (r"not", "Keyword", push("not_matcher")),
        Include("site_body"),
        (r"[^\s#]+", "Keyword", push("directive")),
        Include("base"),
    ],
    "not_matcher": [
        (r"\}", "Punctuation", pop(2)),
        (r"\{(?=\s)", "Punctuation", push("block")),
        (r"[^\s#]+", "Keyword", push("arguments")),
        (r"\s+", "Text"),
    ],
    "deep_not_matcher": [
        (r"\}", "Punctuation", pop(2)),
        (r"\{(?=\s)", "Punctuation", push("block")),
        (r"[^\s#]+", "Keyword", push("deep_subdirective")),
        (r"\s+", "Text"),
    ],
    "directive": [
        (r"\{(?=\s)", "Punctuation", push("block")),
        (_CADDY_MATCHER_TOKEN, "NameDecorator", push("arguments")),
        (_CADDY_COMMENT, "CommentSingle", pop(1)),
        (r"\s*\n", "Text", pop(1)),
        Include("base"),
    ],
    "nested_directive": [
        (r"\{(?=\s)", "Punctuation", push("nested_block")),
        (_CADDY_MATCHER_TOKEN, "NameDecorator", push("nested_arguments")),
        (_CADDY_COMMENT, "CommentSingle", pop(1)),
        (r"\s*\n", "Text", pop(1)),
        Include("base"),
    ],
    "subdirective": [
        (r"\{(?=\s)", "Punctuation", push("block")),
        (_CADDY_COMMENT, "CommentSingle", pop(1)),
        (r"\s*\n", "Text", pop(1)),
        Include("base"),
    ],
    "arguments": [
        (r"\{(?=\s)", "Punctuation", push("block")),
        (_CADDY_COMMENT, "CommentSingle", pop(2)),
        (r"\\\n", "Text"),
        (r"\s*\n", "Text", pop(2)),
        Include("base"),
    ],
    "nested_arguments": [
        (r"\{(?=\s)", "Punctuation", push("nested_block")),
        (_CADDY_COMMENT, "CommentSingle", pop(2)),
        (r"\\\n", "Text"),
        (r"\s*\n", "Text", pop(2)),
        Include("base"),
    ],
    "deep_subdirective": [
        (r"\{(?=\s)", "Punctuation", push("block")),
        (_CADDY_COMMENT, "CommentSingle", pop(3)),
        (r"\s*\n", "Text", pop(3)),
        Include("base"),
    ],
    "uri_directive": [
        (r"\{(?=\s)", "Punctuation", push("block")),
        (_CADDY_MATCHER_TOKEN, "NameDecorator"),
        (r"(strip_prefix|strip_suffix|replace|path_regexp)", "NameConstant", push("arguments")),
        (_CADDY_COMMENT, "CommentSingle", pop(1)),
        (r"\s*\n", "Text", pop(1)),
        Include("base"),
    ],
    "double_quotes": [
        Include("placeholder"),
        (r'\\"', "StringDouble"),
        (r'[^"]', "StringDouble"),
        (r'"', "StringDouble", pop(1)),
    ],
    "backticks": [
        Include("placeholder"),
        ("\\\\`", "StringBacktick"),
        ("[^`]", "StringBacktick"),
        ("`", "StringBacktick", pop(1)),
    ],
    "optional": [
        (r"\[", "Punctuation", push("optional")),
        Include("name_constants"),
        (r"\|", "Punctuation"),
        (r"[^\[\]\|]+", "String"),
        (r"\]", "Punctuation", pop(1)),
    ],
    "heredoc": [
        (r"(<<([a-zA-Z0-9_-]+))(\n(.*|\n)*)(\s*)(\2)",
         groups("StringHeredoc", None, "String", "String", "String", "StringHeredoc")),
    ],
    "name_constants": [
        (r"\b(most_recently_modified|largest_size|smallest_size|first_exist|internal|disable_redirects|"
         r"ignore_loaded_certs|disable_certs|private_ranges|first|last|before|after|on|off)\b(\||(?=\]|\s|$))",
         groups("NameConstant", "Punctuation")),
    ],
    "placeholder": [
        (r"\{[\w+.\[\]\:\$-]+\}", "StringEscape"),
        (r"\{[^\}\s]*\b", "String"),
    ],
    "base": [
        (_CADDY_COMMENT, "CommentSingle"),
        (r"\[\<matcher\>\]", "NameDecorator"),
        Include("name_constants"),
        Include("heredoc"),
        (r"(https?://)?([a-z0-9.-]+)(:)([0-9]+)([^\s]*)",
         groups("Name", "Name", "Punctuation", "NumberInteger", "Name")),
        (r"\[", "Punctuation", push("optional")),
        ("`", "StringBacktick", push("backticks")),
        (r'"', "StringDouble", push("double_quotes")),
        Include("placeholder"),
        (r"[a-z-]+/[a-z-+]+", "String"),
        (r"[0-9]+([smhdk]|ns|us|µs|ms)?\b", "NumberInteger"),
        (r"[^\s\n#\{]+", "String"),
        (r"/[^\s#]*", "Name"),
        (r"\s+", "Text"),
    ],
}

# caddyfileRules: a whole Caddyfile (global options, snippets, site blocks).
_CADDYFILE: StateTable = {
    "root": [
        (_CADDY_COMMENT, "CommentSingle"),
        (r"^\s*(\{)\s*$", groups("Punctuation"), push("globals")),
        (r"(import)(\s+)([^\s]+)", groups("Keyword", "Text", "NameVariableMagic")),
        (r"(&?\([^\s#]+\))(\s*)(\{)", groups("NameVariableAnonymous", "Text", "Punctuation"), push("snippet")),
        (r"[^#{(\s,]+", "GenericHeading", push("label")),
        (r"\{[\w+.\[\]\:\$-]+\}", "StringEscape", push("label")),
        (r"\s+", "Text"),
    ],
    "globals": [
        (r"\}", "Punctuation", pop(1)),
        (r"[^\s#]+", "Keyword", push("subdirective")),
        Include("base"),
    ],
    "snippet": [
        (r"\}", "Punctuation", pop(1)),
        Include("site_body"),
        (r"[^\s#]+", "Keyword", push("directive")),
        Include("base"),
    ],
    "label": [
        (r",\s*\n?", "Text"),
        (r" ", "Text"),
        Include("placeholder"),
        (r"[^#{(\s,]+", "GenericHeading"),
        (r"#.*\n", "CommentSingle", push("site_block")),
        (r"\{(?=\s)|\n", "Punctuation", push("site_block")),
    ],
    "site_block": [
        (r"\}", "Punctuation", pop(2)),
        Include("site_block_common"),
    ],
}

# caddyfileDirectivesRules: the inside of a site block alone.
_CADDYFILE_DIRECTIVES: StateTable = {"root": [Include("site_block_common")]}


def caddyfile_lexers() -> list[RegexLexer]:
    """caddyfile.go's two lexers, in its order."""
    return [
        RegexLexer(Config("Caddyfile", ("caddyfile", "caddy"), ("Caddyfile*",)),
                   rules_of("lexers/caddyfile.go", _CADDYFILE, _CADDYFILE_COMMON), where="lexers/caddyfile.go"),
        RegexLexer(Config("Caddyfile Directives", ("caddyfile-directives", "caddyfile-d", "caddy-d")),
                   rules_of("lexers/caddyfile.go", _CADDYFILE_DIRECTIVES, _CADDYFILE_COMMON),
                   where="lexers/caddyfile.go"),
    ]


def gemtext_lexer() -> RegexLexer:
    return RegexLexer(Config("Gemtext", ("gemtext", "gmi", "gmni", "gemini"), ("*.gmi", "*.gmni", "*.gemini"),
                             mime_types=("text/gemini",)), rules_of("lexers/gemtext.go", _GEMTEXT),
                      where="lexers/gemtext.go")


def http_lexer() -> RegexLexer:
    return HttpLexer(Config("HTTP", ("http",), not_multiline=True, dot_all=True), rules_of("lexers/http.go", _HTTP),
                     where="lexers/http.go")


def markless_lexer() -> RegexLexer:
    return RegexLexer(Config("Markless", ("mess",), ("*.mess", "*.markless"), mime_types=("text/x-markless",)),
                      rules_of("lexers/markless.go", _MARKLESS), where="lexers/markless.go")


def rst_lexer() -> RegexLexer:
    return RegexLexer(Config("reStructuredText", ("rst", "rest", "restructuredtext"), ("*.rst", "*.rest"),
                             mime_types=("text/x-rst", "text/prs.fallenstein.rst")), rules_of("lexers/rst.go", _RST),
                      where="lexers/rst.go")
