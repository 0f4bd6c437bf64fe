"""The analysers Chroma writes in Go rather than in a lexer file's <analyse> (lexers/*.go, SetAnalyser): each a
function giving the score (0 to 1) Chroma's gives a text, by the name of the lexer it is set on. lexers.Analyse
(guessSyntax) picks the lexer whose score is highest; Registry.analyse asks each lexer's RegexLexer.analyse.

Chroma sets these once every lexer is registered (an init() calling Get(name).SetAnalyser), so one replaces the
lexer file's <analyse> of that lexer, if it has one. Scores are Go float32s: `float32` rounds a score as Go
stores it, so sums and ties compare as Chroma compares them.

Patterns are Go's RE2 written for Python's re: RE2's \\s is [\\t\\n\\f\\r ] and its \\w [0-9A-Za-z_], ASCII only
(Python's are Unicode, and re.ASCII's \\s also holds \\v), so the classes are spelled out."""
from __future__ import annotations

import re
import struct
from typing import Callable

Analyser = Callable[[str], float]

_SPACE = r"[\t\n\f\r ]"      # RE2 \s
_WORD = r"[0-9A-Za-z_]"      # RE2 \w


def float32(value: float) -> float:
    """Go's float32(value): the nearest float32 (ties to even), as a Python float."""
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


# lexers/dns.go: a zone file's start of authority on its origin ("@ IN SOA ") at the start of a line.
_ZONE_SOA = re.compile(rf"^@{_SPACE}+IN{_SPACE}+SOA{_SPACE}+", re.MULTILINE)


def dns(text: str) -> float:
    """lexers/dns.go (the dns lexer): 1 for a text with an "@ IN SOA" record, else 0."""
    return 1.0 if _ZONE_SOA.search(text) else 0.0


# lexers/mysql.go: a name quoted in backticks (MySQL's quoting) and one in square brackets (T-SQL's).
_BACKTICK_NAME = re.compile(rf"`[a-zA-Z_]{_WORD}*`")
_BRACKET_NAME = re.compile(rf"\[[a-zA-Z_]{_WORD}*\]")


def mysql(text: str) -> float:
    """lexers/mysql.go (MySQL): names quoted MySQL's way counted against names quoted T-SQL's way (each count
    Go's FindAllString: leftmost matches that do not overlap)."""
    backticks = len(_BACKTICK_NAME.findall(text))
    brackets = len(_BRACKET_NAME.findall(text))
    if backticks + brackets >= 1 and backticks >= 2 * brackets:
        return 0.5
    if backticks > brackets:
        return 0.2
    if backticks > 0:
        return 0.1
    return 0.0


def zed(text: str) -> float:
    """lexers/zed.go (Zed, SpiceDB's schema language): its keywords "definition ", "relation " and
    "permission "."""
    if "definition " in text and "relation " in text and "permission " in text:
        return 0.9
    if "definition " in text or "relation " in text:
        return 0.5
    if "permission " in text:
        return 0.25
    return 0.0


def go(text: str) -> float:
    """lexers/go.go (Go): a package clause, more so with a call into fmt."""
    if "fmt." in text and "package " in text:
        return 0.5
    if "package " in text:
        return 0.1
    return 0.0


def erb(text: str) -> float:
    """lexers/erb.go (ERB, Ruby in HTML): an output tag "<%= ... %>", less for any "<%"."""
    if "<%=" in text and "%>" in text:
        return 0.4
    if "<%" in text:
        return 0.1
    return 0.0


def phtml(text: str) -> float:
    """lexers/php.go (PHTML, PHP in HTML): an opening "<?php"."""
    return 0.5 if "<?php" in text else 0.0


# Each analyser by the name of the lexer Chroma sets it on (its lexer file's <name>, or its Go config's).
ANALYSERS: dict[str, Analyser] = {"dns": dns, "MySQL": mysql, "Zed": zed, "Go": go}

# The analysers Chroma sets on the language lexer of a DelegatingLexer(HTML, language) (ERB, PHTML). A
# delegating lexer's AnalyseText is its root lexer's, HTML's, which has none: lexers.Analyse gives these
# lexers 0 whatever the text, so guessSyntax never picks them (Hugo leaves "<%= x %>" and "<?php" as
# fallback). They are kept here for that language lexer, not set on any lexer of the registry.
LANGUAGE_ANALYSERS: dict[str, Analyser] = {"ERB": erb, "PHTML": phtml}
