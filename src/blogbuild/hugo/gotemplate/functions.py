"""Hugo's template functions that shortcodes and small partials use, with Hugo's argument order (the piped
value last) and results: FUNCTIONS by name, NAMESPACES for `strings.X`, `urls.X`, `math.X`, …

Functions that need the page being rendered (markdownify, partial, T, relURL) find it in the Jinja
context the translated template renders with (objects.RenderState under the name `_state`).
"""
from __future__ import annotations

import functools
import hashlib
import html as html_lib
import json
import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import jinja2
from markupsafe import Markup

from ...core.urls import hugo_sanitize
from .goat import build_svg
from .math_source import math_as_tex
from .arithmetic import HugoFunctionError, add_values
from .arithmetic import number as _number
from .escape import SafeAttr, SafeCSS, SafeJS, SafeURL, new_str, escaped, go_string, json_default
from .lists import complement, intersect, is_list, merge, same_kind, shuffle, sort, symdiff, union
from .objects import (_Namespace, GoObject, GoReturn, HugoInfo, PageInfo, PartialNotFound, Scratch, SiteInfo, TryResult,
                      UnsupportedField, _lookup, go_type, ref_text, truthy)
from .paths import PATH_FUNCTIONS, URL_FUNCTIONS, parse_url
from .hooks import HookPage
from .site_files import IMAGE_CONFIG, OS_FUNCTIONS
from .times import TIME_FUNCTIONS, time_function
from .translations import abs_url, lang_url, rel_url


def _default(fallback: Any, value: Any = None) -> Any:
    """Hugo's default: a bool is always set (`default "x" false` is false); a zero, "" or empty list is not."""
    return value if isinstance(value, bool) or truthy(value) else fallback


def _printf(layout: str, *values: Any) -> str:
    return go_format(str(layout), values)


def _print(*values: Any) -> str:
    # Go's Sprint: a space between two operands when neither is a string.
    out = []
    for index, value in enumerate(values):
        if index and not isinstance(value, str) and not isinstance(values[index - 1], str):
            out.append(" ")
        out.append(go_string(value) if value is not None else "<nil>")
    return "".join(out)


def _println(*values: Any) -> str:
    return " ".join(go_string(value) if value is not None else "<nil>" for value in values) + "\n"


_VERB = re.compile(r"%([-+# 0]*)(\d+|\*)?(?:\.(\d+))?([vdsqfFeEgGxXtTcboU%])")


@functools.lru_cache(maxsize=1024)
def _layout_parts(layout: str) -> tuple[tuple[str, tuple[str, str | None, str | None, str] | None], ...]:
    """A printf layout as its runs of text and its verbs (flags, width, precision, verb), read once per layout."""
    parts: list[tuple[str, tuple[str, str | None, str | None, str] | None]] = []
    last = 0
    for match in _VERB.finditer(layout):
        if match.start() > last:
            parts.append((layout[last:match.start()], None))
        parts.append(("", match.groups()))   # type: ignore[arg-type]
        last = match.end()
    if last < len(layout):
        parts.append((layout[last:], None))
    return tuple(parts)


def go_format(layout: str, values: tuple[Any, ...]) -> str:
    """Go's fmt.Sprintf for the verbs templates use."""
    remaining = list(values)
    out = []
    for text, verb in _layout_parts(layout):
        if verb is None:
            out.append(text)
            continue
        flags, width, precision, kind = verb
        if kind == "%":
            out.append("%")
            continue
        if not remaining:
            out.append(f"%!{kind}(MISSING)")
            continue
        value = remaining.pop(0)
        text = _format_one(value, kind, flags, precision)
        if width and width != "*":
            size = int(width)
            if "-" in flags:
                text = text.ljust(size)
            elif "0" in flags and kind in "dfFeEgGxXbo":
                sign = text[0] if text[:1] in "+-" else ""
                text = sign + text[len(sign):].rjust(size - len(sign), "0")
            else:
                text = text.rjust(size)
        out.append(text)
    result = "".join(out)
    if remaining:
        result += "%!(EXTRA " + ", ".join(f"{type(value).__name__}={go_string(value)}" for value in remaining) + ")"
    return result


def _format_one(value: Any, kind: str, flags: str, precision: str | None) -> str:
    if value is None:
        return "<nil>" if kind in "vT" else f"%!{kind}(<nil>)"
    if kind in "vs":
        text = go_string(value)
        return text[:int(precision)] if precision is not None and kind == "s" else text
    if isinstance(value, (list, tuple)) and kind not in "qtT":
        return "[" + " ".join(_format_one(item, kind, flags, precision) for item in value) + "]"
    if kind in "xX" and isinstance(value, str):
        text = value.encode().hex()
        return text.upper() if kind == "X" else text
    if kind == "q":
        return json.dumps(go_string(value), ensure_ascii=False)
    if kind == "t":
        return go_string(bool(value))
    if kind == "T":
        return go_type(value)
    number = _number(value)
    if kind == "d":
        text = str(int(number))
        return ("+" + text) if "+" in flags and number >= 0 else text
    if kind == "c":
        return chr(int(number))
    if kind == "U":
        return f"U+{int(number):04X}"
    if kind in "xX":
        text = format(int(number), "x")
        return text.upper() if kind == "X" else text
    if kind == "b":
        return format(int(number), "b")
    if kind == "o":
        return format(int(number), "o")
    digits = 6 if precision is None else int(precision)
    if kind in "fF":
        return f"{float(number):.{digits}f}"
    if kind in "eE":
        text = f"{float(number):.{digits}e}"
        return text.upper() if kind == "E" else text
    text = repr(float(number)) if precision is None else f"{float(number):.{digits}g}"
    return text.upper() if kind == "G" else text


# Hugo's default titleCaseStyle, AP: small words stay lower case unless first or last.
# Hugo's title case (titleCaseStyle "AP", its default): jdkato/prose's TitleConverter, its small words and its rules
# for a word after a hyphen, a slash or a colon, worked on the text's UTF-8 bytes as Go works on them.
_AP_SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "but", "by", "en", "for", "if", "in", "nor", "of", "on",
                             "or", "per", "the", "to", "vs", "vs.", "via", "v", "v."})
_TITLE_WORD = re.compile(r"[^\W_]+[^\t\n\f\r \-/]*")   # letters or digits, then anything but space, - and /
_TITLE_PLAIN = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "\u2013": "-",
                              "\u2014": "-", "\u2026": "..."})


def _title(text: Any) -> str:
    """title (strings.Title): each word's first letter upper case, but AP's small words (of, and, the, …) lower
    case where a space, hyphen or slash comes before them and they are neither first nor last ("Wine-for-Wechat",
    "X/of/Y", "The End: Of Days"); curly quotes and dashes read as their ASCII forms while deciding."""
    value = go_string(text)
    plain = value.translate(_TITLE_PLAIN).encode("utf-8", "surrogatepass")
    end, place = len(plain), 0
    out: list[str] = []
    last = 0

    def byte_at(index: int) -> int:
        return plain[index] if 0 <= index < end else (plain[0] if plain else 0)

    for found in _TITLE_WORD.finditer(value):
        word = found.group()
        encoded = word.encode("utf-8", "surrogatepass")
        start = plain.find(encoded, place)
        start = start if start >= 0 else place - 1
        before = byte_at(start - 1)
        place = start + len(encoded)
        lower = _go_case(word, str.lower)
        small = lower in _AP_SMALL_WORDS and not (start == 0 or place == end)
        if small and before in b" -/" and byte_at(start - 2) not in b":-" and \
                (byte_at(start + len(encoded)) != ord("-") or before == ord("-")):
            word = lower
        else:
            first = word[0].title()
            word = (first if len(first) == 1 else word[0]) + word[1:]
        out.append(value[last:found.start()] + word)
        last = found.end()
    out.append(value[last:])
    return "".join(out)


def _trim(text: Any, cutset: str) -> str:
    return go_string(text).strip(cutset)


def _replace(text: Any, old: Any, new: Any, limit: int = -1) -> str:
    return go_string(text).replace(go_string(old), go_string(new), limit)


def _split(text: Any, delimiter: str) -> list[str]:
    value = go_string(text)
    if value == "":
        return [""] if delimiter else []   # Go's strings.Split: one empty piece
    return value.split(delimiter) if delimiter else list(value)


def _delimit(items: Any, delimiter: Any, last: Any = None) -> str:
    if isinstance(items, Mapping):
        values = [items[key] for key in sorted(items, key=str)]
    else:
        values = list(items or ())
    texts = [go_string(value) for value in values]
    if last is not None and len(texts) > 1:
        return go_string(delimiter).join(texts[:-1]) + go_string(last) + texts[-1]
    return go_string(delimiter).join(texts)


def _dict(*pairs: Any) -> dict[str, Any]:
    if len(pairs) % 2:
        raise HugoFunctionError("dict needs key value pairs (an even number of arguments)")
    return {str(pairs[index]): pairs[index + 1] for index in range(0, len(pairs), 2)}


def _index(collection: Any, *keys: Any) -> Any:
    value = collection
    for key in keys:
        if value is None:
            return None
        if isinstance(key, (list, tuple)):
            return _index(value, *key)
        if isinstance(value, Mapping):
            value = _lookup(value, key)
        else:
            position = int(key)
            # Out of range is nothing, as Hugo's index gives (`with index $images 0` on no images).
            value = value[position] if 0 <= position < len(value) else None
    return value


def _len(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, (int, float)):
        return len(go_string(value))
    if isinstance(value, str):
        return len(value.encode("utf-8"))    # Go's len of a string counts its bytes
    return len(value)


def _in(collection: Any, item: Any) -> bool:
    if collection is None:
        return False
    if isinstance(collection, str):
        return go_string(item) in collection
    holds = getattr(type(collection), "holds", None)   # a page list answers for a page by its index
    found = holds(collection, item) if holds is not None else None
    if found is not None:
        return bool(found)
    return any(element == item or go_string(element) == go_string(item) and type(element) is type(item)
               for element in collection)


def urlize(text: Any) -> str:
    """Hugo's urlize: the text sanitized as Hugo makes a path (letters, digits, marks, `. / \\ _ # + ~ - @` and
    %XX escapes kept, a run of spaces one hyphen, anything else dropped), lower-cased, then written as Go's
    url.Parse(...).String() writes it (non-ASCII percent-encoded; a # starts the fragment, as in Hugo)."""
    return parse_url(_go_case(hugo_sanitize(go_string(text)), str.lower)).String


def _anchorize(text: Any) -> str:
    """Hugo's anchorize (GitHub's heading ids): spaces and hyphens are hyphens, letters, digits and _ lower
    case, anything else dropped."""
    out = []
    for char in go_string(text).strip():
        if char in "- ":
            out.append("-")
        elif char == "_" or unicodedata.category(char)[0] == "L" or unicodedata.category(char) == "Nd":
            out.append(_go_case(char, str.lower))
    return "".join(out)


_NEWLINE_MARK = "\x00hugonl\x00"


def _plainify(text: Any) -> Markup:
    """Hugo's plainify (StripHTML), HTML as Hugo types it: a text without tags stays as it is; else its
    newlines become spaces, each </p> and <br> a newline, the tags go (and what <script> and <style> hold),
    entities stay as written, and a run of white space keeps its first character."""
    value = go_string(text)
    if "<" not in value and ">" not in value:
        return new_str(Markup, value)
    return new_str(Markup, _strip_html(value))


# What an HTML parser drops of a text (Python's html.parser, as Hugo's StripHTML would): the content of a
# script or style element, comments, declarations and processing instructions, and every tag, a quoted
# attribute value's ">" inside it. A "<" not starting one of them is text.
# Possessive: each part of a tag matches one way, so nothing is given back (a third faster than a pattern that
# keeps every character's place to return to).
_DROPPED_HTML = re.compile(r"""<(script|style)\b(?:[^>"']++|"[^"]*+"|'[^']*+')*+>.*?(?:</\1\s*>|$)"""
                           r"""|<!--.*?-->|<!(?!--)[^>]*+>?|<\?[^>]*+>?"""
                           r"""|</?[A-Za-z][^\s/>]*+(?:[^>"']++|"[^"]*+"|'[^']*+')*+>""", re.IGNORECASE | re.DOTALL)
_SPACE_RUN = re.compile(r"(\s)\s+")


@functools.lru_cache(maxsize=4096)
def _strip_html(value: str) -> str:
    """_plainify's work, kept by the text: a page's content is plainified for every list that shows it."""
    marked = math_as_tex(value).replace("\n", " ").replace("</p>", _NEWLINE_MARK).replace("<br>", _NEWLINE_MARK) \
        .replace("<br />", _NEWLINE_MARK)
    if _unclosed_comment(marked):   # broken markup: read as html.parser reads it
        stripped = _parsed_text(marked)
    else:
        stripped = _DROPPED_HTML.sub("", marked)
    return _SPACE_RUN.sub(r"\1", stripped.replace(_NEWLINE_MARK, "\n"))


def _unclosed_comment(text: str) -> bool:
    start = text.find("<!--")
    while start >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            return True
        start = text.find("<!--", end + 3)
    return False


def _parsed_text(marked: str) -> str:
    """The text html.parser finds in markup (script and style content left out, entities as written)."""
    from html.parser import HTMLParser

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=False)
            self.parts: list[str] = []
            self.hidden = 0

        def handle_starttag(self, tag: str, attrs: Any) -> None:
            self.hidden += tag in ("script", "style")

        def handle_endtag(self, tag: str) -> None:
            if tag in ("script", "style") and self.hidden:
                self.hidden -= 1

        def handle_data(self, data: str) -> None:
            if not self.hidden:
                self.parts.append(data)

        def handle_entityref(self, name: str) -> None:
            self.handle_data(f"&{name};")

        def handle_charref(self, name: str) -> None:
            self.handle_data(f"&#{name};")

    parser = Text()
    parser.feed(marked)
    parser.close()
    return "".join(parser.parts)


def go_json_value(value: Any) -> Any:
    """A value as Go's encoding/json writes it: a whole float is written without a fraction (2.0 is 2)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, Mapping):
        return {key: go_json_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [go_json_value(item) for item in value]
    return value


def _jsonify(*arguments: Any) -> Markup:
    value = arguments[-1]
    options = arguments[0] if len(arguments) > 1 else {}
    indent = options.get("indent") if isinstance(options, Mapping) else None
    prefix = options.get("prefix", "") if isinstance(options, Mapping) else ""
    text = json.dumps(go_json_value(value), ensure_ascii=False, sort_keys=True, indent=indent or None,
                      separators=None if indent else (",", ":"), default=json_default)
    if prefix:
        text = "\n".join(prefix + line if index else line for index, line in enumerate(text.split("\n")))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def _html_escape(text: Any) -> str:
    return html_lib.escape(go_string(text), quote=True).replace("&#x27;", "&#39;").replace("&quot;", "&#34;")


def _html_unescape(text: Any) -> str:
    return html_lib.unescape(go_string(text))


def _slice(*items: Any) -> list[Any]:
    return list(items)


def _go_case(text: str, change: Callable[[str], str]) -> str:
    """Go's ToUpper/ToLower: each character to one character (ß stays ß; Python would write SS)."""
    changed = change(text)
    if len(changed) == len(text):      # no character became two: Python's answer is Go's
        return changed
    out = []
    for char in text:
        changed = change(char)
        out.append(changed if len(changed) == 1 else (char if change is str.upper else changed[0]))
    return "".join(out)


def _append(*values: Any) -> list[Any]:
    """append: the values after the list (the last argument); one list appended to a list is its elements."""
    target = list(values[-1] or ())
    added = values[:-1]
    if len(added) == 1 and isinstance(added[0], (list, tuple)) and not any(isinstance(item, (list, tuple))
                                                                         for item in target):
        return same_kind(values[-1], target + list(added[0]))
    return same_kind(values[-1], target + list(added))


def _querify(*pairs: Any) -> str:
    """querify: key value pairs (or one map, or one list of pairs) as a query string, keys sorted, values
    escaped as Go's url.Values.Encode does."""
    from urllib.parse import quote_plus
    items = pairs
    if len(pairs) == 1 and isinstance(pairs[0], Mapping):
        items = tuple(value for key in pairs[0] for value in (key, pairs[0][key]))
    elif len(pairs) == 1 and isinstance(pairs[0], (list, tuple)):
        items = tuple(pairs[0])
    if len(items) % 2:
        raise HugoFunctionError("querify needs an even number of arguments (key value pairs)")
    found = sorted(((go_string(items[index]), go_string(items[index + 1])) for index in range(0, len(items), 2)),
                   key=lambda pair: pair[0])
    return "&".join(f"{quote_plus(key, safe='~')}={quote_plus(value, safe='~')}" for key, value in found)


def _first(count: Any, items: Any) -> Any:
    """first N: a list's first elements (a page list stays one), a string's first characters."""
    if isinstance(items, str):
        return items[:int(_number(count))]
    return same_kind(items, list(items or ())[:int(_number(count))])


def _last(count: Any, items: Any) -> Any:
    size = int(_number(count))
    if isinstance(items, str):
        return items[-size:] if size else ""
    return same_kind(items, list(items or ())[-size:] if size else [])


def _after(count: Any, items: Any) -> Any:
    if isinstance(items, str):
        return items[int(_number(count)):]
    return same_kind(items, list(items or ())[int(_number(count)):])


def _substr(text: Any, start: Any, length: Any = None) -> str:
    """Hugo's substr: from start (negative counts from the end) length characters (negative: up to that many
    from the end; 0: nothing), in characters."""
    value = go_string(text)
    size_of = len(value)
    begin = int(_number(start))
    if size_of == 0:
        return ""
    if begin < 0:
        begin = max(begin + size_of, 0)
    if begin > size_of - 1:
        return ""
    end = size_of
    if length is not None:
        size = int(_number(length))
        if size == 0:
            return ""
        end = end + size if size < 0 else begin + size
    if begin >= end or end < 0:
        return ""
    return value[begin:min(end, size_of)]


def _cond(control: Any, yes: Any, no: Any) -> Any:
    return yes if truthy(control) else no


def _isset(collection: Any, key: Any) -> bool:
    """isset: the key is in the map as written (Hugo's params keys are lower case: "Title" is not set)."""
    if isinstance(collection, Mapping):
        return key in collection
    try:
        return 0 <= int(key) < len(collection)
    except (TypeError, ValueError):
        return False


def _arith(operation: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    def apply(*values: Any) -> Any:
        numbers = [_number(value) for value in values]
        result = numbers[0]
        for number in numbers[1:]:
            result = operation(result, number)
        return result
    return apply


def _div(left: Any, right: Any) -> Any:
    a, b = _number(left), _number(right)
    if b == 0:
        raise HugoFunctionError("can't divide the value by 0")
    if isinstance(a, int) and isinstance(b, int):
        quotient = abs(a) // abs(b)                  # Go's integer division truncates toward zero
        return quotient if (a >= 0) == (b >= 0) else -quotient
    return a / b


@functools.lru_cache(maxsize=256)
def go_pattern(pattern: str) -> re.Pattern[str]:
    """A Go (RE2) pattern compiled by Python's re, written for it by regex.python_pattern (the same meaning); a
    pattern that cannot be (\\p{Han}, …) is an error naming it."""
    from .regex import GoRegexError, python_pattern
    try:
        translated = python_pattern(pattern)
    except GoRegexError as error:
        raise HugoFunctionError(f"the regular expression `{pattern}` {error}") from None
    try:
        return re.compile(translated)
    except re.error as error:
        raise HugoFunctionError(f"error parsing regexp: {error}: `{pattern}`") from None


def go_matches(pattern: str, text: str) -> Iterator[re.Match[str]]:
    """The matches Go's regexp finds: an empty match right after the previous match is not one."""
    previous_end = -1
    for match in go_pattern(go_string(pattern)).finditer(text):
        if match.start() == match.end() == previous_end:
            continue
        previous_end = match.end()
        yield match


def _find_re(pattern: str, text: Any, limit: int = -1) -> list[str]:
    found = [match.group(0) for match in go_matches(pattern, go_string(text))]
    return found if limit < 0 else found[:limit]


_EXPAND = re.compile(r"\$(\$|\{(\w+)\}|(\w+))")


def _go_expand(match: re.Match[str], template: str) -> str:
    """Go's Regexp.Expand: $1, ${1}, $name, ${name}; $$ is $; a group that is not there is empty."""
    def group(found: re.Match[str]) -> str:
        if found.group(1) == "$":
            return "$"
        name = found.group(2) or found.group(3)
        try:
            value = match.group(int(name)) if name.isdigit() else match.group(name)
        except IndexError:         # no such group
            return ""
        return value or ""
    return _EXPAND.sub(group, template)


def _replace_re(pattern: str, replacement: str, text: Any, limit: int = -1) -> str:
    """replaceRE: the first limit matches (all when negative) replaced, $1 and $name expanded as Go does."""
    value = go_string(text)
    out, position = [], 0
    for count, match in enumerate(go_matches(pattern, value)):
        if 0 <= limit <= count:
            break
        out.append(value[position:match.start()])
        out.append(_go_expand(match, go_string(replacement)))
        position = match.end()
    out.append(value[position:])
    return "".join(out)


def _emojify(text: Any) -> Markup:
    from ...markdown.emoji import emojify
    return Markup(emojify(go_string(text)))


def _string(value: Any) -> str:
    return go_string(value)


def _int(value: Any) -> int:
    return int(_number(value))


def _float(value: Any) -> float:
    return float(_number(value))


# The acronyms Hugo's humanize (gobuffalo/flect) keeps in capitals.
_ACRONYMS = frozenset("""OK UTF8 HTML JSON JWT ID UUID SQL ACK ACL ADSL AES ANSI API ARP ATM BGP BSS CCITT CHAP CIDR CIR
CLI CPE CPU CRC CRT CSMA CMOS DCE DEC DES DHCP DNS DRAM DSL DSLAM DTE DMI EHA EIA EIGRP EOF ESS FCC FCS FDDI FTP GBIC
GEPOF HDLC HTTP HTTPS IANA ICMP IDF IDS IEEE IETF IMAP IP IPS IPX ISDN ISO ISP LACP LAN LAPB LAPF LLC MAC MC MDF MIB
MPLS MTU NAC NAT NBMA NIC NRZ NRZI NVRAM OSI OSPF OUI PAP PAT PC PIM PCM PDU POP3 POP POTS PPP PPTP PTT PVST RADIUS
RAM RARP RFC RIP RLL ROM RSTP RTP RCP SDLC SFD SFP SLARP SLIP SMTP SNA SNAP SNMP SOF SRAM SSH SSID STP SYN TDM TFTP
TIA TOFU UDP URL URI USB UTP VC VLAN VLSM VPN W3C WAN WEP WPA WWW""".split())


def _words_of(text: str) -> list[str]:
    """flect's words of an identifier: split at spaces, _ - and ., before a capital after a non-capital, and
    after a known acronym (HTTPServer: HTTP, Server)."""
    parts: list[str] = []
    current = ""
    previous = ""

    def push() -> None:
        word = current.strip().strip("_-. ")
        if word:
            parts.append(word)
    for char in text.strip():
        if char.isspace() or char in "_-.":
            push()
            current, previous = char, char
        elif char.isupper() and (not previous.isupper() or current.upper() in _ACRONYMS):
            push()
            current, previous = char, char
        elif char.isalnum() or unicodedata.category(char).startswith("P") or char == "`":
            current += char
            previous = char
        else:
            push()
            current, previous = "", char
    push()
    return parts


def _humanize(text: Any) -> str:
    """Hugo's humanize: a whole number as its ordinal (3rd); else the words of the identifier in lower case
    but known acronyms (ID, HTTP, JSON, URL, …), the first capitalised: HTTPServer is "HTTP server"."""
    value = go_string(text)
    if value.isdigit():
        number = int(value)
        suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
        return f"{number}{suffix}"
    words = [word.upper() if word.upper() in _ACRONYMS else word.lower() for word in _words_of(value)]
    if words:
        words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words)


def _seq(*values: Any) -> list[int]:
    numbers = [int(_number(value)) for value in values]
    if any(abs(number) > 2000 for number in numbers):   # Hugo's own limit on seq
        raise HugoFunctionError("size of result exceeds limit (seq is limited to 2000 items)")
    if len(numbers) == 1:
        last = numbers[0]
        return list(range(1, last + 1)) if last > 0 else list(range(-1, last - 1, -1))
    if len(numbers) == 2:
        return list(range(numbers[0], numbers[1] + (1 if numbers[1] >= numbers[0] else -1),
                          1 if numbers[1] >= numbers[0] else -1))
    first, step, last = numbers
    if step == 0:
        raise HugoFunctionError("seq: 'increment' must not be 0")
    if (last - first) * step < 0:
        raise HugoFunctionError(f"seq: 'increment' must be {'< 0' if step > 0 else '> 0'} to go from {first} to "
                                f"{last}")
    return list(range(first, last + (1 if step > 0 else -1), step))


def _markdownify(context: jinja2.runtime.Context, text: Any) -> Markup:
    from ...templating.markdownify import markdownify
    return markdownify(context["_state"].markdownify, go_string(text))


def _partial(context: jinja2.runtime.Context, name: Any, dot: Any = None, *_more: Any) -> Any:
    """The partial's HTML, or the value it returns ({{ return }}); arguments after the context are ignored, as
    Hugo's partial ignores them (`partial "x" . .RelPermalink`, written after a caching partialCached call)."""
    return context["_state"].partial(go_string(name), dot)


def _runner(context: jinja2.runtime.Context, what: str) -> Any:
    runner = context["_state"].runner
    if runner is None:
        raise UnsupportedField(f"{what} needs the template set of a render")
    return runner


def _partial_cached(context: jinja2.runtime.Context, name: Any, dot: Any = None, *variants: Any) -> Any:
    """partialCached: the first result for the name and variant keys in this build (not keyed by dot)."""
    return _runner(context, "partialCached").partial_cached(go_string(name), dot, tuple(variants))


def go_template(context: jinja2.runtime.Context, name: str, dot: Any, where: str = "") -> Markup:
    """`{{ template "name" dot }}`: the named template's HTML; where is the HTML context of a call inside an
    attribute value (escape.HtmlContext.snapshot), "" in HTML text."""
    return _runner(context, f'{{{{ template "{name}" }}}}').template(name, dot, where)


def go_return(value: Any) -> str:
    raise GoReturn(value)


def go_try(context: jinja2.runtime.Context, function: Any, *arguments: Any) -> TryResult:
    """`try (f a b)`: f's result as .Value, or its failure (a function's error, a missing partial) as .Err;
    errorf fails the build through try, as in Hugo."""
    try:
        return TryResult(Value=context.call(function, *arguments))
    except TemplateErrorf:
        raise
    except (HugoFunctionError, PartialNotFound) as error:
        return TryResult(Err=str(error))


class Deferred(GoObject):
    """What `templates.Defer OPTIONS` gives a `with` (translate.py): its block always runs, its dot the options'
    data (nil without). Hugo runs the block after every page, once per key; blogbuild runs it where it stands,
    which differs only for a block that reads what other pages left behind."""

    kind = "templates.Defer"

    def __init__(self, data: Any) -> None:
        self.data = data

    def __bool__(self) -> bool:
        return True


def _defer(settings: Mapping[str, Any] | None = None) -> Deferred:
    """templates.Defer with its options (`key`, `data`), checked as Hugo's decoder takes them."""
    if settings is not None and not isinstance(settings, Mapping):
        raise HugoFunctionError(f"templates.Defer takes a map of options (key, data), not {go_string(settings)!r}")
    found = {str(name).lower(): value for name, value in (settings or {}).items()}
    unknown = set(found) - {"key", "data"}
    if unknown:
        raise HugoFunctionError(f"templates.Defer: unknown option {sorted(unknown)[0]!r} (key and data are Hugo's)")
    return Deferred(found.get("data"))


def _current_template(context: jinja2.runtime.Context) -> Any:
    """templates.Current: the template being executed (runner.CurrentTemplate), nil outside a file's render."""
    return _runner(context, "templates.Current").current


def _exists(context: jinja2.runtime.Context, path: Any) -> bool:
    return bool(_runner(context, "templates.Exists").exists(go_string(path)))


def _translate(context: jinja2.runtime.Context, key: Any, *arguments: Any) -> str:
    return context["_state"].translate(go_string(key), arguments[0] if arguments else None)


def _rel_url(context: jinja2.runtime.Context, url: Any) -> str:
    return rel_url(context["_state"].site, go_string(url))   # in a language's folder: the whole site's


def _abs_url(context: jinja2.runtime.Context, url: Any) -> str:
    return abs_url(context["_state"].site, go_string(url))


def _rel_lang_url(context: jinja2.runtime.Context, url: Any) -> str:
    site = context["_state"].site
    made = lang_url(site, go_string(url), absolute=False)
    return made if made is not None else site.rel_url(go_string(url))


def _abs_lang_url(context: jinja2.runtime.Context, url: Any) -> str:
    site = context["_state"].site
    made = lang_url(site, go_string(url), absolute=True)
    return made if made is not None else site.abs_url(go_string(url))


# ---------------------------------------------------------------------------- arithmetic, as Hugo's math does it

def _add(*values: Any) -> Any:
    if len(values) < 2:
        raise HugoFunctionError("add needs at least two values")
    result = values[0]
    for value in values[1:]:
        result = add_values(result, value)
    return result


def _flat_numbers(name: str, values: tuple[Any, ...]) -> list[float]:
    """math.Max/Min/Sum/Product's arguments: numbers, or lists of them, as float64."""
    numbers: list[float] = []
    for value in values:
        items = value if isinstance(value, (list, tuple)) else [value]
        numbers += [float(_number(item)) for item in items]
    if not numbers:
        raise HugoFunctionError(f"math.{name} needs at least one number")
    return numbers


def _go_round(value: Any) -> float:
    """Go's math.Round: halves away from zero."""
    number = float(_number(value))
    if number != number or number in (math.inf, -math.inf):
        return number
    return math.copysign(math.floor(abs(number) + 0.5), number)


def _float_function(function: Callable[..., float]) -> Callable[..., float]:
    def apply(*values: Any) -> float:
        try:
            return float(function(*(float(_number(value)) for value in values)))
        except ValueError:
            return math.nan
    return apply


def _log(value: Any) -> float:
    number = float(_number(value))
    if number == 0:
        return -math.inf
    return math.log(number) if number > 0 else math.nan


def _mod(left: Any, right: Any) -> int:
    a, b = _number(left), _number(right)
    if not float(a).is_integer() or not float(b).is_integer():
        raise HugoFunctionError("modulo operator can't be used with non integer value")
    if int(b) == 0:
        raise HugoFunctionError("the number can't be divided by zero at modulo operation")
    return int(math.fmod(int(a), int(b)))


# ---------------------------------------------------------------------------- apply

def _apply(context: jinja2.runtime.Context, collection: Any, name: Any, *arguments: Any) -> list[Any]:
    """apply: the named function called on each element, "." standing for the element among the arguments."""
    if collection is None:
        return []
    name = go_string(name)
    if name == "apply":
        raise HugoFunctionError("can't apply myself (no turtles allowed)")
    base, _, member = name.partition(".")
    function: Any = None
    if member and base in NAMESPACES and NAMESPACES[base].has(member):
        function = getattr(NAMESPACES[base], member)
    elif not member:
        function = FUNCTIONS.get(name)
    if function is None:
        raise HugoFunctionError(f"can't find function {name}")
    if isinstance(collection, Mapping) or not hasattr(collection, "__iter__") or isinstance(collection, str):
        raise HugoFunctionError(f"can't apply over {go_string(collection)}")
    return [context.call(function, *(item if argument == "." else argument for argument in arguments))
            for item in collection]


# ---------------------------------------------------------------------------- strings

def _count_runes(text: Any) -> int:
    return sum(1 for char in go_string(text) if not char.isspace())


def _slice_string(text: Any, start: Any = 0, end: Any = None) -> str:
    value = go_string(text)
    begin = int(_number(start))
    stop = len(value) if end is None else int(_number(end))
    if begin < 0 or stop > len(value) or begin > stop:
        raise HugoFunctionError(f"slice bounds out of range [{begin}:{stop}] for a string of {len(value)} characters")
    return value[begin:stop]


def _find_re_submatch(pattern: str, text: Any, limit: int = -1) -> list[list[str]]:
    found = [[match.group(0), *(group or "" for group in match.groups())]
             for match in go_matches(pattern, go_string(text))]
    return found if limit < 0 else found[:limit]


def _first_upper(text: Any) -> str:
    value = go_string(text)
    return value[:1].upper() + value[1:]


def _trim_left(cutset: Any, text: Any) -> str:
    return go_string(text).lstrip(go_string(cutset))


def _trim_right(cutset: Any, text: Any) -> str:
    return go_string(text).rstrip(go_string(cutset))


def _repeat(count: Any, text: Any) -> str:
    times = int(_number(count))
    if times < 0:
        raise HugoFunctionError("strings: negative Repeat count")
    value = go_string(text)
    if len(value) * times > 10_000_000:
        raise HugoFunctionError("strings.Repeat: the result would be longer than 10,000,000 characters")
    return value * times


def _contains_non_space(text: Any) -> bool:
    return any(not char.isspace() for char in go_string(text))


# ---------------------------------------------------------------------------- reflect, hash, encoding

def _is_page(value: Any) -> bool:
    return isinstance(value, GoObject) and type(value).kind == "Page"


def _resource_type(value: Any) -> str:
    try:
        kind = getattr(value, "ResourceType", None)
    except UnsupportedField:
        return ""
    return kind if isinstance(kind, str) and not _is_page(value) else ""


def _media_subtype(value: Any) -> str:
    try:
        return str(value.MediaType.SubType)
    except (UnsupportedField, AttributeError):
        return ""


_PROCESSABLE = frozenset({"jpeg", "png", "gif", "tiff", "bmp", "webp"})
_WITH_META = frozenset({"jpeg", "png", "tiff", "webp"})


def _fnv32a(text: Any) -> int:
    value = 0x811C9DC5
    for byte in go_string(text).encode():
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


def _dump(value: Any) -> str:
    """debug.Dump: the value as indented JSON (Go's MarshalIndent: <, > and & escaped)."""
    text = json.dumps(go_json_value(value), ensure_ascii=False, sort_keys=True, indent=2, default=json_default)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


_GO_HTML_ESCAPES = (("&", "&amp;"), ('"', "&#34;"), ("'", "&#39;"), ("<", "&lt;"), (">", "&gt;"), ("\0", "\ufffd"))


def _go_html(value: Any) -> Markup:
    """Go's builtin html: the value's text escaped (HTML inside it too), final (html/template escapes it no
    further)."""
    return Markup(escaped(go_string(value), _GO_HTML_ESCAPES))


def xml_escape(text: Any) -> str:
    """transform.XMLEscape: characters XML forbids dropped, then Go's xml.EscapeText."""
    value = "".join(char for char in go_string(text)
                    if char in "\t\n\r" or 0x20 <= ord(char) <= 0xD7FF or 0xE000 <= ord(char) <= 0xFFFD
                    or 0x10000 <= ord(char) <= 0x10FFFF)
    table = {'"': "&#34;", "'": "&#39;", "&": "&amp;", "<": "&lt;", ">": "&gt;", "\t": "&#x9;", "\n": "&#xA;",
             "\r": "&#xD;"}
    return "".join(table.get(char, char) for char in value)


def _data_format(text: str, delimiter: str) -> str:
    """Hugo's format of an unmarshalled string: whichever of the CSV delimiter, {, :, < and = comes first."""
    found = {kind: text.find(mark) for kind, mark in (("csv", delimiter), ("json", "{"), ("yaml", ":"),
                                                       ("xml", "<"), ("toml", "="))}
    present = {kind: index for kind, index in found.items() if index >= 0}
    if not present:
        return ""
    return min(present, key=lambda kind: (present[kind], list(found).index(kind)))


def _unmarshal(*arguments: Any) -> Any:
    """transform.Unmarshal of a string (or a resource's .Content): JSON, YAML, TOML or CSV, found as Hugo
    finds it; options (a dict first) set the CSV "delimiter" and "comment"."""
    if not arguments or len(arguments) > 2:
        raise HugoFunctionError("unmarshal takes 1 or 2 arguments")
    data = arguments[-1]
    options = arguments[0] if len(arguments) == 2 else {}
    if not isinstance(options, Mapping):
        raise HugoFunctionError("transform.Unmarshal's options must be a map")
    if not isinstance(data, (str, Markup)):
        try:
            data = data.Content
        except (UnsupportedField, AttributeError):
            raise HugoFunctionError(f"type {go_type(data)} not supported") from None
    text = go_string(data)
    if text.strip() == "":
        return None
    delimiter = go_string(_lookup(options, "delimiter") or ",")[:1]
    comment = go_string(_lookup(options, "comment") or "")[:1]
    return _unmarshalled(text, delimiter, comment)


def new_build() -> None:
    """What a build keeps of its templates' data is dropped: a map a template changed (Scratch.SetInMap changes
    it in place, as Go does) is not seen by the next build."""
    _unmarshalled.cache_clear()


@functools.lru_cache(maxsize=64)
def _unmarshalled(text: str, delimiter: str, comment: str) -> Any:
    """The data of a text, parsed once per build process: Hugo caches an unmarshalled text or resource by its
    content and options, and gives every call the same value (LoveIt's profile and head partials unmarshal
    its 1,000-line social.yml on every page)."""
    kind = _data_format(text, delimiter)
    try:
        if kind == "json":
            return json.loads(text)
        if kind == "yaml":
            from .site_data import yaml_1_2
            return yaml_1_2(text)
        if kind == "toml":
            import tomllib
            return tomllib.loads(text)
        if kind == "csv":
            import csv
            import io
            lines = [line for line in text.splitlines() if not (comment and line.startswith(comment))]
            return [list(row) for row in csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter)]
    except Exception as error:  # noqa: BLE001 - any parser's failure is the template's error
        raise HugoFunctionError(f"failed to unmarshal {kind.upper()}: {error}") from None
    raise HugoFunctionError(f"transform.Unmarshal: {'XML' if kind == 'xml' else 'the format'} of the data is not "
                            "supported (JSON, YAML, TOML and CSV are)")


# ---------------------------------------------------------------------------- cast

def _to_int(value: Any) -> int:
    """cast.ToInt: a float loses its fraction, a string is read as Go's ParseInt(s, 0) after a trailing .0."""
    if value is None:
        return 0
    if isinstance(value, (bool, int)):
        return int(value)
    if isinstance(value, float):
        return int(value)
    text = re.sub(r"\.0*$", "", go_string(value).strip())
    try:
        if re.fullmatch(r"[-+]?0[0-7]+", text):
            return int(text, 8)
        return int(text, 0)
    except ValueError:
        raise HugoFunctionError(f'unable to cast "{go_string(value)}" of type {go_type(value)} to int') from None


def _to_float(value: Any) -> float:
    if value is None:
        return 0.0
    try:
        return float(value if isinstance(value, (bool, int, float)) else go_string(value).strip())
    except ValueError:
        raise HugoFunctionError(f'unable to cast "{go_string(value)}" of type {go_type(value)} to float64') from None


def hugo_info(state: Any) -> HugoInfo:
    """`hugo`: what Hugo tells a template about itself, for the site being rendered."""
    return HugoInfo(state.site if state is not None else None)


def go_page(state: Any) -> Any:
    """`page`: the page being rendered, in its layouts and every partial they call, and in a shortcode or
    render hook (its .Page); nil where there is none."""
    runner = getattr(state, "runner", None)
    return getattr(runner, "page", None)


# ---------------------------------------------------------------------------- more of Hugo's functions

def _compare(operation: Callable[[Any, Any], bool]) -> Callable[..., bool]:
    def compare(left: Any, right: Any) -> bool:
        return operation(left, right)
    return compare


def _eq(left: Any, *others: Any) -> bool:
    """compare.Eq: equal to any of the others."""
    return any(left == other for other in others)


class KeyValues(GoObject):
    """keyVals' result: `.Key` and `.Values` (what `.Related` takes as its keywords)."""

    kind = "KeyValues"

    def __init__(self, key: Any, values: list[Any]) -> None:
        self.Key = key
        self.Values = values

    def __str__(self) -> str:
        return f"{go_string(self.Key)}: {go_string(self.Values)}"


def _key_vals(key: Any, *values: Any) -> KeyValues:
    return KeyValues(key, list(values))


def _hmac(kind: Any, key: Any, message: Any, encoding: Any = "hex") -> str:
    """crypto.HMAC: md5, sha1, sha256 or sha512 of message with key, as hex (or "binary")."""
    import hmac
    algorithm = go_string(kind).lower()
    if algorithm not in ("md5", "sha1", "sha256", "sha512"):
        raise HugoFunctionError(f"hmac: {go_string(kind)} is not a supported hash function (md5, sha1, sha256, sha512)")
    digest = hmac.new(go_string(key).encode(), go_string(message).encode(), algorithm)
    if go_string(encoding) == "binary":
        return digest.digest().decode("latin-1")
    if go_string(encoding) != "hex":
        raise HugoFunctionError(f'hmac: "{go_string(encoding)}" is not a supported encoding (hex, binary)')
    return digest.hexdigest()


# Number formats by language: (decimal mark, group separator, percent sign after the number).
_NUMBER_FORMATS = {"en": (".", ",", "%"), "de": (",", ".", "\u00a0%"), "fr": (",", "\u202f", "\u00a0%"),
                   "es": (",", ".", "\u00a0%"), "it": (",", ".", "%"), "nl": (",", ".", "%"),
                   "pt": (",", ".", "%"), "ru": (",", "\u00a0", "\u00a0%"), "zh": (".", ",", "%"),
                   "ja": (".", ",", "%"), "ko": (".", ",", "%")}


def _number_format(context: jinja2.runtime.Context) -> tuple[str, str, str]:
    site = context["_state"].site
    language = (site.LanguageCode or "en").split("-")[0].lower()
    found = _NUMBER_FORMATS.get(language)
    if found is None:
        raise UnsupportedField(f"lang.FormatNumber: the number format of language {language} is not known to "
                               "blogbuild (en, de, fr, es, it, nl, pt, ru, zh, ja and ko are)")
    return found


def _grouped(value: float, precision: int, decimal: str, group: str, minus: str = "-") -> str:
    """The number rounded half away from zero to precision decimals, grouped by thousands; a negative number
    keeps its minus even when it rounds to zero, as Hugo writes it."""
    scale = 10 ** precision
    text = f"{math.floor(abs(value) * scale + 0.5) / scale:.{precision}f}"
    whole, _, fraction = text.partition(".")
    digits = []
    for index, digit in enumerate(reversed(whole)):
        if index and index % 3 == 0:
            digits.append(group)
        digits.append(digit)
    out = "".join(reversed(digits)) + (decimal + fraction if fraction else "")
    return (minus if value < 0 else "") + out


def _format_number(context: jinja2.runtime.Context, precision: Any, value: Any) -> str:
    """lang.FormatNumber: the number with precision decimals, grouped by thousands, in the site's language."""
    decimal, group, _ = _number_format(context)
    return _grouped(float(_number(value)), int(_number(precision)), decimal, group)


def _format_percent(context: jinja2.runtime.Context, precision: Any, value: Any) -> str:
    """lang.FormatPercent: the number (already a percentage) with precision decimals and the percent sign."""
    decimal, group, percent = _number_format(context)
    return _grouped(float(_number(value)), int(_number(precision)), decimal, group) + percent


def _format_number_custom(precision: Any, value: Any, separators: Any = "- . ,") -> str:
    """lang.FormatNumberCustom: options are "MINUS DECIMAL GROUP" separated by a delimiter (a space by
    default, or the one given by a 4th, e.g. "-|.| " with |)."""
    text = go_string(separators)
    parts = text.split(" ") if " " in text and "|" not in text else text.split("|")
    minus, decimal, group = (parts + ["", "", ""])[:3] if len(parts) >= 2 else ("-", ".", ",")
    return _grouped(float(_number(value)), int(_number(precision)), decimal or ".", group, minus or "-")


def _highlight_settings(context: jinja2.runtime.Context) -> Any:
    """The site's markup.highlight: from a page layout's site config, or a hook's or shortcode's SiteInfo."""
    from .objects import site_config
    site = context["_state"].site if "_state" in context else None
    config = site_config(site)
    if config is not None:
        return config.markup.highlight
    return getattr(site, "highlight", ())


def _highlight(context: jinja2.runtime.Context, code: Any, language: Any, settings: Any = None) -> Markup:
    """highlight / transform.Highlight: the code as Hugo's Chroma highlights it, the options ("linenos=table,
    hl_lines=2" or a map; type and code replace the language and the code) over the site's markup.highlight."""
    from ...markdown.chroma.hugo import HighlightError, apply_options, config_from_settings, highlight, normalize
    config = config_from_settings(_highlight_settings(context))
    try:
        options, language_text, code_text = _call_options(settings, go_string(language), go_string(code))
        config = apply_options(config, normalize(options))
        if HIGHLIGHTS.noted is None and HIGHLIGHTS.given is None:
            return Markup(highlight(code_text, language_text, config))
        key = highlight_key(code_text, language_text, config)
        given = HIGHLIGHTS.given.get(key) if HIGHLIGHTS.given is not None else None
        html = given if given is not None else highlight(code_text, language_text, config)
        if HIGHLIGHTS.noted is not None:
            HIGHLIGHTS.noted.append((key, html))
        return Markup(html)
    except HighlightError as error:
        raise HugoFunctionError(f"highlight: {error}") from None


class _Highlights:
    """What transform.Highlight is asked while a render hook's call is kept to run again alone (noted: its key
    and HTML, in order), and what it answers without highlighting while that call runs again (given: HTML by
    key): the code, its language and the options are the same, so the HTML is (markdown/hooks.py)."""

    noted: list[tuple[str, str]] | None = None
    given: dict[str, str] | None = None


HIGHLIGHTS = _Highlights()


def highlight_key(code: str, language: str, config: Any) -> str:
    """What decides a highlight's HTML (the code, the language, every option), as a short digest."""
    import hashlib
    text = f"{language}\x00{config!r}\x00{code}"
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def _call_options(settings: Any, language: str, code: str) -> tuple[dict[str, Any], str, str]:
    """(the options a highlight function is given, a string or a map, with lower-case keys; the language and the
    code, which the options' type and code replace); HighlightError for an option string that does not parse."""
    from ...markdown.chroma.hugo import parse_option_string
    if isinstance(settings, Mapping):
        options = {str(key).lower(): value for key, value in settings.items()}
    else:
        options = parse_option_string(go_string(settings) if settings is not None else "")
    if "type" in options:
        language = go_string(options.pop("type"))
    if "code" in options:
        code = go_string(options.pop("code"))
    return options, language, code


@dataclass(frozen=True)
class HighlightResult(GoObject):
    """What transform.HighlightCodeBlock returns: .Wrapped (the whole HTML) and .Inner (the code's lines)."""

    wrapped: str
    inner: str
    kind = "HighlightResult"

    @property
    def Wrapped(self) -> Markup:  # noqa: N802 - Hugo's name
        return Markup(self.wrapped)

    @property
    def Inner(self) -> Markup:  # noqa: N802
        return Markup(self.inner)


def _highlight_code_block(context: jinja2.runtime.Context, block: Any, settings: Any = None) -> HighlightResult:
    """transform.HighlightCodeBlock: a render-codeblock hook's block (its .Type, .Inner, .Options, .Attributes)
    as Hugo's Chroma highlights it, the options given here last (type and code too), line anchors hl-ORDINAL."""
    from dataclasses import replace as replaced

    from ...markdown.chroma.hugo import HighlightError, apply_options, config_from_settings, highlight_parts
    from ...markdown.chroma.hugo import normalize
    from ...markdown.code_attributes import wrapper_attributes
    if not hasattr(block, "options") or not hasattr(block, "Inner"):
        raise HugoFunctionError("transform.HighlightCodeBlock: its argument must be a code block hook's context (.)")
    config = config_from_settings(_highlight_settings(context))
    try:
        config = apply_options(config, normalize(dict(block.options)))
        options, language, code = _call_options(settings, go_string(block.Type), go_string(block.Inner))
        config = apply_options(config, normalize(options))
    except HighlightError as error:
        raise HugoFunctionError(f"transform.HighlightCodeBlock: {error}") from None
    if not config.lineanchors:
        config = replaced(config, lineanchors=f"hl-{block.Ordinal}")
    classes, others = wrapper_attributes(block.attributes)
    wrapped, inner = highlight_parts(code, language, config, wrapper_classes=classes, wrapper_attributes=others)
    return HighlightResult(wrapped, inner)


def _can_highlight(language: Any) -> bool:
    """transform.CanHighlight: whether Chroma has a lexer for the language."""
    from ...markdown.chroma.hugo import can_highlight
    text = go_string(language)
    return bool(text) and can_highlight(text)


def _ref_url(page: Any, target: Any, absolute: bool) -> str:
    """ref / relref: the URL of the page a content path names (a path relative to the page's folder first,
    then from the content root), with its #fragment; "#x" alone stays "#x"."""
    text = ref_text(target)
    rendering = page._page if isinstance(page, HookPage) else page   # a hook's page is its content's
    if isinstance(rendering, PageInfo) and rendering.content_path:
        # While content renders (a hook's, a shortcode's page): a marker the links stage resolves.
        return rendering.named_url(text, absolute=absolute)
    path, hash_mark, fragment = text.partition("#")
    if path == "":
        return hash_mark + fragment       # "#x": the fragment alone, as Hugo writes it
    try:
        site, file = page.Site, page.File
    except (UnsupportedField, AttributeError):
        raise UnsupportedField(f'ref "{text}": the page has no site to look the path up in') from None
    folder = go_string(file.Dir) if file is not None else ""
    found = site.GetPage(folder + path) if not path.startswith("/") and folder else None
    found = found or site.GetPage(path)
    if found is None:
        raise HugoFunctionError(f'REF_NOT_FOUND: Ref "{text}": page not found; check the path (relative to the '
                                "page's folder, or from content/)")
    url = found.Permalink if absolute else found.RelPermalink
    return url + (hash_mark + fragment if fragment else "")


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "default": _default, "printf": _printf, "print": _print, "println": _println,
    "lower": lambda text: _go_case(go_string(text), str.lower), "upper": lambda text: _go_case(go_string(text), str.upper),
    "title": _title, "trim": _trim, "replace": _replace, "split": _split, "delimit": _delimit,
    "slice": _slice, "dict": _dict, "index": _index, "len": _len, "in": _in, "urlize": urlize,
    "safeHTML": lambda text: Markup(go_string(text)), "safeCSS": lambda text: SafeCSS(go_string(text)),
    "safeJS": lambda text: SafeJS(go_string(text)), "safeURL": lambda text: SafeURL(go_string(text)),
    "safeHTMLAttr": lambda text: SafeAttr(go_string(text)),
    "htmlEscape": _html_escape, "htmlUnescape": _html_unescape, "plainify": _plainify, "jsonify": _jsonify,
    "markdownify": jinja2.pass_context(_markdownify), "partial": jinja2.pass_context(_partial),
    "partialCached": jinja2.pass_context(_partial_cached),
    "T": jinja2.pass_context(_translate), "i18n": jinja2.pass_context(_translate),
    "relURL": jinja2.pass_context(_rel_url), "absURL": jinja2.pass_context(_abs_url),
    "relLangURL": jinja2.pass_context(_rel_lang_url), "absLangURL": jinja2.pass_context(_abs_lang_url),
    "first": _first, "last": _last, "after": _after, "substr": _substr, "cond": _cond, "isset": _isset,
    "add": _add, "sub": _arith(lambda a, b: a - b), "mul": _arith(lambda a, b: a * b),
    "div": _div, "mod": _mod, "modBool": lambda a, b: _mod(a, b) == 0,
    "findRE": _find_re, "replaceRE": _replace_re, "emojify": _emojify, "string": _string, "int": _to_int,
    "float": _to_float, "humanize": _humanize, "seq": _seq, "chomp": lambda text: go_string(text).rstrip("\r\n"),
    "hasPrefix": lambda text, prefix: go_string(text).startswith(go_string(prefix)),
    "hasSuffix": lambda text, suffix: go_string(text).endswith(go_string(suffix)),
    "md5": lambda text: hashlib.md5(go_string(text).encode()).hexdigest(),  # noqa: S324 - Hugo's md5
    "sha1": lambda text: hashlib.sha1(go_string(text).encode()).hexdigest(),  # noqa: S324 - Hugo's sha1
    "sha256": lambda text: hashlib.sha256(go_string(text).encode()).hexdigest(),
    "countwords": lambda text: sum(1 if word.isascii() else len(word) for word in _plainify(text).split()),
    "truncate": lambda size, *rest: _truncate(int(_number(size)), *rest),
    "uniq": lambda items: same_kind(items, dict.fromkeys(items or ())),
    "sort": jinja2.pass_context(sort),
    "append": lambda *values: _append(*values), "querify": lambda *pairs: _querify(*pairs),
    "anchorize": _anchorize,
    "base64Encode": lambda text: __import__("base64").b64encode(go_string(text).encode()).decode(),
    "base64Decode": lambda text: __import__("base64").b64decode(go_string(text)).decode(),
    "merge": merge, "union": union, "intersect": intersect, "symdiff": symdiff, "complement": complement,
    "apply": jinja2.pass_context(_apply), "shuffle": shuffle, "newScratch": lambda: Scratch(),
    "dateFormat": TIME_FUNCTIONS["Format"], "html": _go_html,
    "countrunes": _count_runes, "findRESubmatch": _find_re_submatch, "slicestr": _slice_string,
    "unmarshal": _unmarshal, "safeJSStr": lambda text: SafeJS(json.dumps(go_string(text))[1:-1]),
    "readFile": OS_FUNCTIONS["ReadFile"], "fileExists": OS_FUNCTIONS["FileExists"], "imageConfig": IMAGE_CONFIG,
    "readDir": OS_FUNCTIONS["ReadDir"], "getenv": OS_FUNCTIONS["Getenv"], "time": jinja2.pass_context(time_function),
    "keyVals": _key_vals, "hmac": _hmac, "highlight": jinja2.pass_context(_highlight),
    "ref": lambda page, target: _ref_url(page, target, True), "relref": lambda page, target: _ref_url(page, target, False),
    "urlquery": lambda *values: __import__("urllib.parse").parse.quote_plus(_print(*values)),
    # Hugo's logging: warnf and warnidf print and return nothing; errorf fails the template (here: the
    # shortcode shows its inner text with the message as the warning).
    "warnf": lambda *values: "", "warnidf": lambda *values: "",
    "errorf": lambda layout, *values: _raise(go_format(str(layout), values)),
    "erroridf": lambda identifier, layout, *values: _raise(go_format(str(layout), values)),
}


class TemplateErrorf(HugoFunctionError):
    """errorf: Hugo logs the message and fails the build; try does not catch it."""


def _raise(message: str) -> str:
    raise TemplateErrorf(message)


_CJK_SCRIPTS = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
                          r"\uf900-\ufaff\U00020000-\U0002fa1f]")
# Hugo's tag pattern and the elements it never closes.
_TAG = re.compile(r"<(/)?([^ ]+?)(?:(\s*/)| .*?)?>")
_SINGLETS = frozenset({"br", "col", "link", "base", "img", "param", "area", "hr", "input"})


def _truncate(size: int, *rest: Any) -> Any:
    """Hugo's truncate: at most size characters, cut after the last whole word (a Han, kana or hangul
    character is a word of its own), then the ellipsis (" …" by default); HTML (safeHTML) keeps its tags,
    uncounted, and the tags left open are closed."""
    value = rest[-1]
    ellipsis = go_string(rest[0]) if len(rest) > 1 else " …"
    is_html = isinstance(value, Markup)
    text = go_string(value)
    if len(text) <= size:
        return value if is_html else text
    tags: list[tuple[str, int, bool]] = []          # (name, position, opens)
    last_word = last_non_space = count = 0
    next_tag = 0
    for index, char in enumerate(text):
        if index < next_tag:
            continue
        if is_html:
            tag = _TAG.match(text, index)
            if tag is not None:
                next_tag = tag.end()
                last_word = last_non_space
                if tag.group(2) not in _SINGLETS and tag.group(3) is None:
                    tags.append((tag.group(2), index, tag.group(1) is None))
                continue
        count += 1
        if char.isspace():
            last_word = last_non_space
        elif _CJK_SCRIPTS.match(char):   # a word of its own, whole when it is within the size
            last_word = last_non_space
            last_non_space = index + 1
            if count <= size:
                last_word = last_non_space
        else:
            last_non_space = index + 1
        if count > size:
            end = last_word or index
            if not is_html:
                return text[:end] + ellipsis
            out = text[:end] + ellipsis
            closed_by: str | None = None      # a tag closed before the cut: its opening is not closed again
            for name, position, opens in reversed(tags):
                if position >= end or closed_by is not None:
                    if closed_by is not None and closed_by == name:
                        closed_by = None
                    continue
                if opens:
                    out += f"</{name}>"
                else:
                    closed_by = name
            return Markup(out)
    return value if is_html else text




_MATH: dict[str, Callable[..., Any]] = {
    "Add": _add, "Sub": FUNCTIONS["sub"], "Mul": FUNCTIONS["mul"], "Div": _div, "Mod": _mod,
    "ModBool": FUNCTIONS["modBool"], "Round": _go_round,
    "Floor": _float_function(math.floor), "Ceil": _float_function(math.ceil), "Abs": _float_function(abs),
    "Sqrt": _float_function(math.sqrt), "Pow": _float_function(math.pow), "Log": _log,
    "Sin": _float_function(math.sin), "Cos": _float_function(math.cos), "Tan": _float_function(math.tan),
    "Asin": _float_function(math.asin), "Acos": _float_function(math.acos), "Atan": _float_function(math.atan),
    "Atan2": _float_function(math.atan2), "ToDegrees": _float_function(math.degrees),
    "ToRadians": _float_function(math.radians), "Pi": lambda: math.pi,
    "Max": lambda *values: max(_flat_numbers("Max", values)), "Min": lambda *values: min(_flat_numbers("Min", values)),
    "Sum": lambda *values: math.fsum(_flat_numbers("Sum", values)),
    "Product": lambda *values: math.prod(_flat_numbers("Product", values)),
}


@dataclass(frozen=True)
class GoatDiagram(GoObject):
    """What diagrams.Goat gives: .Inner (the SVG's body), .Wrapped (the whole <svg>), .Width and .Height."""

    kind = "diagrams.SVGDiagram"
    Inner: Markup
    Wrapped: Markup
    Width: int
    Height: int


def _goat(text: Any) -> GoatDiagram:
    """diagrams.Goat: an ASCII diagram drawn as SVG by goat (hugo/gotemplate/goat.py), from a string or what cast.ToString
    reads as one (a number, a bool, bytes); anything else (a list, a map, a page) is an empty diagram, as in Hugo."""
    if isinstance(text, (bytes, bytearray)):
        source = bytes(text).decode("utf-8", "replace")
    elif text is None or isinstance(text, (str, int, float)):
        source = go_string(text)
    else:
        source = ""
    svg = build_svg(source)
    return GoatDiagram(Inner=Markup(svg.body), Wrapped=Markup(svg.wrapped()), Width=svg.width, Height=svg.height)


NAMESPACES: dict[str, _Namespace] = {
    "strings": _Namespace("strings", {
        "ToLower": FUNCTIONS["lower"], "ToUpper": FUNCTIONS["upper"], "Title": _title, "Trim": _trim,
        "TrimSpace": lambda text: go_string(text).strip(), "TrimLeft": _trim_left, "TrimRight": _trim_right,
        "TrimPrefix": lambda prefix, text: go_string(text).removeprefix(go_string(prefix)),
        "TrimSuffix": lambda suffix, text: go_string(text).removesuffix(go_string(suffix)),
        "Contains": lambda text, part: go_string(part) in go_string(text),
        "ContainsAny": lambda text, chars: any(char in go_string(text) for char in go_string(chars)),
        "ContainsNonSpace": _contains_non_space,
        "HasPrefix": FUNCTIONS["hasPrefix"], "HasSuffix": FUNCTIONS["hasSuffix"],
        "Replace": _replace, "ReplaceRE": _replace_re, "FindRE": _find_re, "FindRESubmatch": _find_re_submatch,
        "Split": _split, "Repeat": _repeat, "Substr": _substr, "SliceString": _slice_string,
        "Count": lambda part, text: go_string(text).count(go_string(part)),
        "RuneCount": lambda text: len(go_string(text)), "CountRunes": _count_runes,
        "CountWords": FUNCTIONS["countwords"], "FirstUpper": _first_upper,
        "Truncate": FUNCTIONS["truncate"], "Chomp": FUNCTIONS["chomp"],
    }),
    "urls": _Namespace("urls", {
        "RelURL": FUNCTIONS["relURL"], "AbsURL": FUNCTIONS["absURL"], "RelLangURL": FUNCTIONS["relLangURL"],
        "AbsLangURL": FUNCTIONS["absLangURL"], "Anchorize": FUNCTIONS["anchorize"], "URLize": urlize,
        "Ref": FUNCTIONS["ref"], "RelRef": FUNCTIONS["relref"], **URL_FUNCTIONS}),
    "math": _Namespace("math", _MATH),
    "safe": _Namespace("safe", {"HTML": FUNCTIONS["safeHTML"], "CSS": FUNCTIONS["safeCSS"], "JS": FUNCTIONS["safeJS"],
                                "URL": FUNCTIONS["safeURL"], "HTMLAttr": FUNCTIONS["safeHTMLAttr"],
                                "JSStr": lambda text: SafeJS(json.dumps(go_string(text))[1:-1])}),
    "transform": _Namespace("transform", {
        "Markdownify": FUNCTIONS["markdownify"], "Plainify": _plainify, "HTMLEscape": _html_escape,
        "HTMLUnescape": _html_unescape, "Emojify": _emojify, "Unmarshal": _unmarshal, "XMLEscape": xml_escape,
        "Highlight": jinja2.pass_context(_highlight), "CanHighlight": _can_highlight,
        "HighlightCodeBlock": jinja2.pass_context(_highlight_code_block)}),
    "collections": _Namespace("collections", {
        "Slice": _slice, "Dictionary": _dict, "Index": _index, "In": _in, "Delimit": _delimit, "First": _first,
        "Last": _last, "After": _after, "Uniq": FUNCTIONS["uniq"], "Sort": FUNCTIONS["sort"],
        "Reverse": lambda items: list(reversed(list(items or ()))), "Append": FUNCTIONS["append"], "Seq": _seq, "Querify": FUNCTIONS["querify"],
        "IsSet": _isset, "Merge": merge, "Union": union, "Intersect": intersect, "SymDiff": symdiff,
        "Complement": complement, "Apply": FUNCTIONS["apply"], "Shuffle": shuffle, "KeyVals": _key_vals,
        "NewScratch": FUNCTIONS["newScratch"]}),
    "lang": _Namespace("lang", {"Translate": FUNCTIONS["T"], "FormatNumber": jinja2.pass_context(_format_number),
                                "FormatPercent": jinja2.pass_context(_format_percent),
                                "FormatNumberCustom": _format_number_custom}),
    "fmt": _Namespace("fmt", {"Printf": _printf, "Print": _print, "Println": _println,
                              "Warnf": FUNCTIONS["warnf"], "Warnidf": FUNCTIONS["warnidf"], "Errorf": FUNCTIONS["errorf"],
                              "Erroridf": FUNCTIONS["erroridf"]}),
    "compare": _Namespace("compare", {"Default": _default, "Conditional": _cond, "Eq": _eq,
                                      "Ne": _compare(lambda a, b: a != b), "Lt": _compare(lambda a, b: a < b),
                                      "Le": _compare(lambda a, b: a <= b), "Gt": _compare(lambda a, b: a > b),
                                      "Ge": _compare(lambda a, b: a >= b)}),
    "cast": _Namespace("cast", {"ToString": _string, "ToInt": _to_int, "ToFloat": _to_float}),
    "crypto": _Namespace("crypto", {"MD5": FUNCTIONS["md5"], "SHA1": FUNCTIONS["sha1"], "SHA256": FUNCTIONS["sha256"],
                                    "HMAC": _hmac}),
    "hash": _Namespace("hash", {"FNV32a": _fnv32a}),
    "encoding": _Namespace("encoding", {"Jsonify": _jsonify, "Base64Encode": FUNCTIONS["base64Encode"],
                                        "Base64Decode": FUNCTIONS["base64Decode"]}),
    "debug": _Namespace("debug", {"Dump": _dump}),
    "inflect": _Namespace("inflect", {"Humanize": _humanize}),
    "templates": _Namespace("templates", {"Exists": jinja2.pass_context(_exists), "Defer": _defer,
                                          "Current": jinja2.pass_context(_current_template)}),
    "partials": _Namespace("partials", {"Include": FUNCTIONS["partial"], "IncludeCached": FUNCTIONS["partialCached"]}),
    "path": _Namespace("path", PATH_FUNCTIONS),
    "reflect": _Namespace("reflect", {
        "IsMap": lambda value: isinstance(value, Mapping), "IsSlice": is_list,
        "IsPage": _is_page, "IsSite": lambda value: isinstance(value, SiteInfo),
        "IsResource": lambda value: bool(_resource_type(value)),
        "IsImageResource": lambda value: _resource_type(value) == "image",
        "IsImageResourceProcessable": lambda value: _resource_type(value) == "image"
        and _media_subtype(value) in _PROCESSABLE,
        "IsImageResourceWithMeta": lambda value: _resource_type(value) == "image" and _media_subtype(value) in _WITH_META,
    }),
    "time": _Namespace("time", TIME_FUNCTIONS, call=FUNCTIONS["time"]),
    "os": _Namespace("os", OS_FUNCTIONS),
    "diagrams": _Namespace("diagrams", {"Goat": _goat}),
}
# Hugo Pipes (pipes.py: resources.*, js.Build, fingerprint, minify): its functions and namespaces with the others,
# for the translator and the environment.
from .pipes import PIPES_FUNCTIONS, PIPES_NAMESPACES  # noqa: E402

FUNCTIONS.update(PIPES_FUNCTIONS)
NAMESPACES.update(PIPES_NAMESPACES)
