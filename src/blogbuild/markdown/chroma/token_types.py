"""Chroma's token types (chroma/types.go): their numbers, the names lexer XML files use, and the CSS classes
Chroma's HTML formatter writes for them."""
from __future__ import annotations

import functools

# Chroma's numbering: a category is a multiple of 1000, a subcategory of 100; Parent() walks up.
_NUMBERS = {
    "Background": -1, "PreWrapper": -2, "Line": -3, "LineNumbers": -4, "LineNumbersTable": -5,
    "LineHighlight": -6, "LineTable": -7, "LineTableTD": -8, "LineLink": -9, "CodeLine": -10, "Error": -11,
    "Other": -12, "None": -13, "Ignore": -14,
    "Keyword": 1000, "KeywordConstant": 1001, "KeywordDeclaration": 1002, "KeywordNamespace": 1003,
    "KeywordPseudo": 1004, "KeywordReserved": 1005, "KeywordType": 1006,
    "Name": 2000, "NameAttribute": 2001, "NameClass": 2002, "NameConstant": 2003, "NameDecorator": 2004,
    "NameEntity": 2005, "NameException": 2006, "NameKeyword": 2007, "NameLabel": 2008, "NameNamespace": 2009,
    "NameOperator": 2010, "NameOther": 2011, "NamePseudo": 2012, "NameProperty": 2013, "NameTag": 2014,
    "NameBuiltin": 2100, "NameBuiltinPseudo": 2101,
    "NameVariable": 2200, "NameVariableAnonymous": 2201, "NameVariableClass": 2202, "NameVariableGlobal": 2203,
    "NameVariableInstance": 2204, "NameVariableMagic": 2205,
    "NameFunction": 2300, "NameFunctionMagic": 2301,
    "Literal": 3000, "LiteralDate": 3001, "LiteralOther": 3002,
    "LiteralString": 3100, "LiteralStringAffix": 3101, "LiteralStringAtom": 3102, "LiteralStringBacktick": 3103,
    "LiteralStringBoolean": 3104, "LiteralStringChar": 3105, "LiteralStringDelimiter": 3106,
    "LiteralStringDoc": 3107, "LiteralStringDouble": 3108, "LiteralStringEscape": 3109,
    "LiteralStringHeredoc": 3110, "LiteralStringInterpol": 3111, "LiteralStringName": 3112,
    "LiteralStringOther": 3113, "LiteralStringRegex": 3114, "LiteralStringSingle": 3115,
    "LiteralStringSymbol": 3116,
    "LiteralNumber": 3200, "LiteralNumberBin": 3201, "LiteralNumberFloat": 3202, "LiteralNumberHex": 3203,
    "LiteralNumberInteger": 3204, "LiteralNumberIntegerLong": 3205, "LiteralNumberOct": 3206,
    "LiteralNumberByte": 3207,
    "Operator": 4000, "OperatorWord": 4001, "OperatorReserved": 4002,
    "Punctuation": 5000,
    "Comment": 6000, "CommentHashbang": 6001, "CommentMultiline": 6002, "CommentSingle": 6003,
    "CommentSpecial": 6004, "CommentPreproc": 6100, "CommentPreprocFile": 6101,
    "Generic": 7000, "GenericDeleted": 7001, "GenericEmph": 7002, "GenericError": 7003, "GenericHeading": 7004,
    "GenericInserted": 7005, "GenericOutput": 7006, "GenericPrompt": 7007, "GenericStrong": 7008,
    "GenericSubheading": 7009, "GenericTraceback": 7010, "GenericUnderline": 7011,
    "Text": 8000, "TextWhitespace": 8001, "TextSymbol": 8002, "TextPunctuation": 8003,
}
# Go's short aliases (Whitespace = TextWhitespace, String = LiteralString, ...).
_ALIASES = {"Whitespace": "TextWhitespace", "Date": "LiteralDate", "Number": "LiteralNumber"}
_ALIASES.update({name[len("Literal"):]: name for name in _NUMBERS
                 if name.startswith(("LiteralString", "LiteralNumber"))})

TYPES: dict[str, int] = {**_NUMBERS, **{alias: _NUMBERS[name] for alias, name in _ALIASES.items()}}
NAMES: dict[int, str] = {number: name for name, number in _NUMBERS.items()}

TEXT = TYPES["Text"]
ERROR = TYPES["Error"]
IGNORE = TYPES["Ignore"]
OTHER = TYPES["Other"]

# chroma.StandardTypes: the class of each type that has one of its own.
_CLASSES = {
    "Background": "bg", "PreWrapper": "chroma", "Line": "line", "LineNumbers": "ln", "LineNumbersTable": "lnt",
    "LineHighlight": "hl", "LineTable": "lntable", "LineTableTD": "lntd", "LineLink": "lnlinks",
    "CodeLine": "cl", "Text": "", "TextWhitespace": "w", "Error": "err", "Other": "x",
    "Keyword": "k", "KeywordConstant": "kc", "KeywordDeclaration": "kd", "KeywordNamespace": "kn",
    "KeywordPseudo": "kp", "KeywordReserved": "kr", "KeywordType": "kt",
    "Name": "n", "NameAttribute": "na", "NameBuiltin": "nb", "NameBuiltinPseudo": "bp", "NameClass": "nc",
    "NameConstant": "no", "NameDecorator": "nd", "NameEntity": "ni", "NameException": "ne",
    "NameFunction": "nf", "NameFunctionMagic": "fm", "NameProperty": "py", "NameLabel": "nl",
    "NameNamespace": "nn", "NameOther": "nx", "NameTag": "nt", "NameVariable": "nv", "NameVariableClass": "vc",
    "NameVariableGlobal": "vg", "NameVariableInstance": "vi", "NameVariableMagic": "vm",
    "Literal": "l", "LiteralDate": "ld",
    "LiteralString": "s", "LiteralStringAffix": "sa", "LiteralStringBacktick": "sb", "LiteralStringChar": "sc",
    "LiteralStringDelimiter": "dl", "LiteralStringDoc": "sd", "LiteralStringDouble": "s2",
    "LiteralStringEscape": "se", "LiteralStringHeredoc": "sh", "LiteralStringInterpol": "si",
    "LiteralStringOther": "sx", "LiteralStringRegex": "sr", "LiteralStringSingle": "s1",
    "LiteralStringSymbol": "ss",
    "LiteralNumber": "m", "LiteralNumberBin": "mb", "LiteralNumberFloat": "mf", "LiteralNumberHex": "mh",
    "LiteralNumberInteger": "mi", "LiteralNumberIntegerLong": "il", "LiteralNumberOct": "mo",
    "Operator": "o", "OperatorWord": "ow", "OperatorReserved": "or", "Punctuation": "p",
    "Comment": "c", "CommentHashbang": "ch", "CommentMultiline": "cm", "CommentPreproc": "cp",
    "CommentPreprocFile": "cpf", "CommentSingle": "c1", "CommentSpecial": "cs",
    "Generic": "g", "GenericDeleted": "gd", "GenericEmph": "ge", "GenericError": "gr", "GenericHeading": "gh",
    "GenericInserted": "gi", "GenericOutput": "go", "GenericPrompt": "gp", "GenericStrong": "gs",
    "GenericSubheading": "gu", "GenericTraceback": "gt", "GenericUnderline": "gl",
}
STANDARD_CLASSES: dict[int, str] = {_NUMBERS[name]: css_class for name, css_class in _CLASSES.items()}


def parent(token_type: int) -> int:
    """TokenType.Parent(): the subcategory, then the category, then 0."""
    if token_type % 100 != 0:
        return int(token_type / 100) * 100
    if token_type % 1000 != 0:
        return int(token_type / 1000) * 1000
    return 0


def category(token_type: int) -> int:
    """TokenType.Category()."""
    return int(token_type / 1000) * 1000


def sub_category(token_type: int) -> int:
    """TokenType.SubCategory()."""
    return int(token_type / 100) * 100


@functools.lru_cache(maxsize=None)
def css_class(token_type: int) -> str:
    """The class Chroma's formatter writes for a token type: its own, else its nearest ancestor's ('' for none)."""
    while token_type != 0:
        if token_type in STANDARD_CLASSES:
            return STANDARD_CLASSES[token_type]
        token_type = parent(token_type)
    return STANDARD_CLASSES.get(0, "")
