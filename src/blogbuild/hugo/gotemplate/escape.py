"""Go's html/template escaping, by context: what Hugo prints for an action in HTML text, in an attribute, in
a URL, inside <script> or in CSS. The context of each action is found from the template's own text
(HtmlContext, fed the text between actions, as html/template does), and the translator wraps the action
in the escaper that context needs. Values the author marked safe (safeHTML, safeJS, safeURL, safeCSS,
safeHTMLAttr) pass in their own context only, as in Go.
"""
from __future__ import annotations

import json
import re
from types import MethodType
from typing import Any

from markupsafe import Markup

from .function_error import HugoFunctionError


class SafeJS(str):
    """safeJS: JavaScript the author vouches for."""


class SafeCSS(str):
    """safeCSS: CSS the author vouches for."""


class SafeURL(str):
    """safeURL: a URL the author vouches for (any scheme)."""


class SafeAttr(str):
    """safeHTMLAttr: an attribute name="value" the author vouches for."""


FAILSAFE = "ZgotmplZ"

# new_str(Markup, text) is Markup(text) for a text known to be a str: str's own constructor, without
# markupsafe's __new__ (a Python frame that asks the text for __html__: 0.8 against 0.3 us), on the paths
# every printed value takes.
new_str = str.__new__


def go_string(value: Any) -> str:
    """A value as Go's fmt prints it with %v (Hugo's {{ . }} before escaping)."""
    if type(value) is str:   # most values printed: asked first
        return value
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        return _go_float(value)
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(go_string(item) if item is not None else "<nil>" for item in value) + "]"
    if isinstance(value, dict):
        return "map[" + " ".join(f"{key}:{go_string(value[key]) if value[key] is not None else '<nil>'}"
                                 for key in sorted(value, key=str)) + "]"
    if isinstance(value, MethodType):   # `{{ .Resize }}`: Go calls a method, and one that needs arguments fails
        raise HugoFunctionError(f"wrong number of args for {value.__name__}: it takes arguments, got 0")
    return str(value)


def _go_float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "+Inf" if value > 0 else "-Inf"
    text = repr(value)
    mantissa, _, exponent = text.partition("e")
    if exponent:
        power = int(exponent)
        if -4 <= power < 21:
            text = format(value, "f").rstrip("0").rstrip(".")
        else:
            text = f"{mantissa}e{'+' if power >= 0 else '-'}{abs(power):02d}"
    elif text.endswith(".0"):
        text = text[:-2]
    if "e" not in text and abs(value) >= 1e21:
        text = format(value, ".16g").replace("e+", "e+")
    return text


_HTML = {"\0": "\ufffd", '"': "&#34;", "&": "&amp;", "'": "&#39;", "+": "&#43;", "<": "&lt;", ">": "&gt;"}
_TAG_RE = re.compile(r"<[^>]*>?")


def escaped(text: str, escapes: tuple[tuple[str, str], ...]) -> str:
    """text with each character of escapes replaced, one pass of str.replace a character ("&" first, when
    it is one: no replacement holds a character replaced after it)."""
    for char, replacement in escapes:
        if char in text:
            text = text.replace(char, replacement)
    return text


_HTML_ESCAPES = tuple((char, _HTML[char]) for char in "&\0\"'+<>")
_HTML_NORM_ESCAPES = tuple((char, _HTML[char]) for char in "\0\"'+<>")


def html_text(value: Any) -> Markup:
    """An action in HTML text: template.HTML (Markup) as it is, anything else escaped as Go does."""
    if isinstance(value, Markup):
        return value
    return new_str(Markup, escaped(go_string(value), _HTML_ESCAPES))


def html_output(value: Any) -> str:
    """What an action in HTML text writes into the page: html_text's text, as a plain string (the page is
    the join of these and the template's own text; nothing escapes it again)."""
    if isinstance(value, Markup):
        return value
    return escaped(go_string(value), _HTML_ESCAPES)


def attribute(value: Any) -> Markup:
    """An action in a quoted attribute value: HTML content loses its tags, everything is escaped."""
    if isinstance(value, Markup):
        text = str(value)
        text = _TAG_RE.sub("", text) if "<" in text else text
        return new_str(Markup, escaped(text, _HTML_NORM_ESCAPES))
    return new_str(Markup, escaped(go_string(value), _HTML_ESCAPES))


_URL_KEEP_NORMALISED = frozenset("!#$&*+,/:;=?@[]-._~%")
_URL_KEEP_ESCAPED = frozenset("-._~")
_SAFE_SCHEMES = ("http", "https", "mailto")


# What each kept set leaves as it is: a text of only these is its own percent-encoding.
_KEPT_RUNS = {keep: re.compile("[0-9A-Za-z" + re.escape("".join(sorted(keep))) + "]*")
              for keep in (_URL_KEEP_NORMALISED, _URL_KEEP_ESCAPED)}
_SCHEME = re.compile(r"([^/?#]*?):")


def _percent(text: str, keep: frozenset[str]) -> str:
    kept = _KEPT_RUNS.get(keep)
    if kept is not None and kept.fullmatch(text):
        return text
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if byte < 0x80 and (char.isalnum() or char in keep):
            out.append(char)
        else:
            out.append(f"%{byte:02x}")
    return "".join(out)


def url_path_escape(path: str) -> str:
    """Go's url path escaping (encodePath): what a path keeps as it is, the rest percent-encoded."""
    from urllib.parse import quote
    return quote(path, safe="/!$&'()*+,;=:@~-._")


def url_start(value: Any) -> Markup:
    """An action at the start of a URL attribute: an unsafe scheme becomes #ZgotmplZ, then the URL is
    normalised (spaces and non-ASCII percent-encoded) and escaped for the attribute."""
    text = go_string(value)
    if not isinstance(value, SafeURL):
        scheme = _SCHEME.match(text)
        if scheme and scheme.group(1).lower() not in _SAFE_SCHEMES:
            return Markup("#" + FAILSAFE)
    return attribute(_percent(text, _URL_KEEP_NORMALISED))


def url_part(value: Any) -> Markup:
    """An action later in a URL (path or query): normalised, or fully percent-encoded in the query."""
    return attribute(_percent(go_string(value), _URL_KEEP_NORMALISED))


def url_query(value: Any) -> Markup:
    """An action in a URL's query or fragment: every reserved character percent-encoded; a safeURL value only
    normalised (html/template's urlEscaper normalises a URL-typed value)."""
    return attribute(_percent(go_string(value), _URL_KEEP_NORMALISED if isinstance(value, SafeURL)
                              else _URL_KEEP_ESCAPED))


_JS_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def json_default(value: Any) -> Any:
    """What a value that is not JSON itself becomes in JSON: a time as Go writes one, else its text."""
    go_json = getattr(type(value), "go_json", None)
    return go_json(value) if go_json is not None else str(value)


# One encoder for every value (json.dumps with options makes one a call): a string is encoded as the encoder
# itself encodes one, its text escaped for JSON.
_JSON_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=json_default)
_JSON_STRING = json.encoder.encode_basestring
_UNSAFE_IN_JS = re.compile("[<>&\u2028\u2029]")


def _js_escape(match: re.Match[str]) -> str:
    return _JS_ESCAPES[match.group(0)]


def _json(value: Any) -> str:
    if isinstance(value, (SafeJS,)):
        return str(value)
    if isinstance(value, str):
        text = _JSON_STRING(value)
    else:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        try:
            text = _JSON_ENCODER.encode(value)
        except (TypeError, ValueError):
            text = _JSON_STRING(str(value))
    return _UNSAFE_IN_JS.sub(_js_escape, text) if _UNSAFE_IN_JS.search(text) else text


def js_value(value: Any) -> Markup:
    """An action in JavaScript (inside <script> or an on* attribute), outside a string: the value as a JS
    literal (a string is quoted, as Go's jsValEscaper does); safeJS as it is."""
    if isinstance(value, SafeJS):
        return Markup(str(value))
    if isinstance(value, Markup):
        value = str(value)
    if getattr(type(value), "go_stringer", False):   # Go's escaper writes a fmt.Stringer by its String()
        value = str(value)
    text = _json(value)
    if text and (_js_ident(text[0]) or _js_ident(text[-1])):
        text = f" {text} "
    return new_str(Markup, text)


def _js_ident(char: str) -> bool:
    return char.isalnum() or char in "_$"


_JS_STRING = {"\0": "\\u0000", "\t": "\\t", "\n": "\\n", "\v": "\\u000b", "\f": "\\f", "\r": "\\r",
              '"': "\\u0022", "&": "\\u0026", "'": "\\u0027", "+": "\\u002b", "/": "\\/", "<": "\\u003c",
              ">": "\\u003e", "\\": "\\\\", "`": "\\u0060", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_JS_STRING_RE = re.compile("[\0\t\n\v\f\r\"&'+/<>\\\\`\u2028\u2029]")


def js_string(value: Any) -> Markup:
    """An action inside a JavaScript string literal: escaped so the string cannot end early."""
    text = go_string(value)
    return Markup(_JS_STRING_RE.sub(_js_string_escape, text) if _JS_STRING_RE.search(text) else text)


def _js_string_escape(match: re.Match[str]) -> str:
    return _JS_STRING[match.group(0)]


_CSS_UNSAFE = re.compile(r"[\0\"'()/;@\[\\\]`{}<>]|<!--|-->|expression|mozbinding", re.I)


def css_value(value: Any) -> Markup:
    """An action in CSS (a style attribute or <style>): safeCSS as it is, a value that could end the
    declaration or load something becomes ZgotmplZ, as in Go."""
    text = go_string(value)
    if not isinstance(value, SafeCSS) and _CSS_UNSAFE.search(text):
        text = FAILSAFE
    return attribute(text)


def attribute_name(value: Any) -> Markup:
    """An action where an attribute name goes: safeHTMLAttr as it is; a plain lower-case name, else ZgotmplZ."""
    if isinstance(value, SafeAttr):
        return Markup(str(value))
    text = go_string(value).lower()
    if not re.fullmatch(r"[a-z0-9]+", text) or text.startswith("on") or text in ("style", "href", "src"):
        return Markup(FAILSAFE)
    return Markup(text)


ESCAPERS = {"html": html_text, "attr": attribute, "url_start": url_start, "url_part": url_part,
            "url_query": url_query, "js": js_value, "js_string": js_string, "css": css_value,
            "attr_name": attribute_name, "comment": lambda value: Markup(""),
            "text": lambda value: Markup("<no value>" if value is None else go_string(value))}   # text/template's nil


# ---------------------------------------------------------------------------- the context of an action

# A style attribute's value so far ends inside an unclosed `url(`, quoted or not: the URL written so far.
_CSS_URL_OPEN = re.compile(r"url\(\s*['\"]?([^'\")]*)$", re.IGNORECASE)
_URL_ATTRIBUTES = frozenset({"action", "archive", "background", "cite", "classid", "codebase", "data", "formaction",
                             "href", "icon", "longdesc", "manifest", "poster", "profile", "src", "usemap",
                             "xmlns"})
_JS_TYPES = frozenset({"", "application/ecmascript", "application/javascript", "application/json",
                       "application/ld+json", "application/x-ecmascript", "application/x-javascript", "module",
                       "text/ecmascript", "text/javascript", "text/javascript1.0", "text/javascript1.1",
                       "text/javascript1.2", "text/javascript1.3", "text/javascript1.4", "text/javascript1.5",
                       "text/jscript", "text/livescript", "text/x-ecmascript", "text/x-javascript"})


# Where a run of characters that change nothing ends, in the states that have such runs (HtmlContext.feed).
_STOPS = {"text": re.compile("<"), "rawtext": re.compile("<"), "script": re.compile(r"[\"'`\\/<]"),
          "style": re.compile(r"[\"'\\/<uU)]")}
_TAG_START = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
_UNQUOTED_END = re.compile(r"[ \t\r\n\f>]")


class HtmlContext:
    """Where the template's text has got to: in text, in a tag, in an attribute value (which one, how
    quoted, how far into a URL), inside <script> or <style>, inside a JS string. Fed the literal text
    between actions; escaper() names the escaper an action here needs."""

    def __init__(self) -> None:
        self.state = "text"        # plain (no HTML at all), text, comment, tag, attr_name, after_name, before_value, value, script, style, rawtext
        self.tag = ""
        self.tag_attrs: dict[str, str] = {}
        self.attr = ""
        self.quote = ""            # the attribute value's quote, "" for unquoted
        self.value = ""            # the attribute value's text so far
        self.js_quote = ""         # inside <script> or <style>: the open string's quote
        self.css_url = False       # inside <style>: within an unquoted url(…), where // is no comment

    def copy(self) -> "HtmlContext":
        other = HtmlContext()
        other.__dict__.update(self.__dict__)
        other.tag_attrs = dict(self.tag_attrs)
        return other

    def snapshot(self) -> str:
        """The context as JSON: a named template called here is translated from it (restore)."""
        import json
        return json.dumps({**self.__dict__, "tag_attrs": dict(self.tag_attrs)}, sort_keys=True)

    @classmethod
    def restore(cls, snapshot: str) -> "HtmlContext":
        import json
        context = cls()
        context.__dict__.update(json.loads(snapshot))
        return context

    def escaper(self) -> str:
        if self.state == "plain":
            return "text"      # a text/template (a JSON or text output's layout): nothing is escaped
        if self.state == "comment":
            return "comment"   # an action inside an HTML comment writes nothing, as html/template's
        if self.state == "script":
            return "js_string" if self.js_quote else "js"
        if self.state == "style":
            return "css"
        if self.state in ("tag", "attr_name", "after_name"):
            return "attr_name"
        if self.state in ("value", "before_value"):
            name = self.attr
            if name.startswith("on"):
                return "js_string" if self.js_quote else "js"
            if name == "style":
                opened = _CSS_URL_OPEN.search(self.value)
                if opened is None:
                    return "css"
                # Inside `url(…)` of a style attribute, as html/template's CSS URL states: a URL's escapers.
                url = opened.group(1)
                return "url_start" if not url else "url_query" if ("?" in url or "#" in url) else "url_part"
            if name in _URL_ATTRIBUTES or name.endswith(("url", "uri")) or name.startswith("data-src"):
                if not self.value:
                    return "url_start"
                return "url_query" if ("?" in self.value or "#" in self.value) else "url_part"
            return "attr"
        return "html"

    def feed(self, text: str) -> str:
        """Advance over the template text; returns it with HTML comments removed (Go's html/template drops
        them)."""
        out: list[str] = []
        index, size = 0, len(text)
        while index < size:
            # Runs of characters that change nothing are written at once: text up to a "<", raw text up to a
            # character its state tracks (a quote, an escape, a comment's or end tag's start, CSS's url()).
            state = self.state
            stops = _STOPS.get(state)
            if stops is not None:
                found = stops.search(text, index)
                end = size if found is None else found.start()
                if end != index:
                    out.append(text[index:end])
                    index = end
                    continue
            elif state == "value" and not self.attr.startswith("on"):   # an event handler's quotes are tracked
                if self.quote:
                    end = text.find(self.quote, index)
                else:
                    found = _UNQUOTED_END.search(text, index)
                    end = -1 if found is None else found.start()
                end = size if end < 0 else end
                if end != index:
                    self.value += text[index:end]
                    out.append(text[index:end])
                    index = end
                    continue
            elif state == "plain":
                out.append(text[index:])
                break
            index = self._step(text, index, out)
        return "".join(out)

    def _step(self, text: str, index: int, out: list[str]) -> int:  # noqa: C901 - one state machine
        char = text[index]
        state = self.state
        if state == "comment":   # an HTML comment an action interrupted: dropped up to its end
            end = text.find("-->", index)
            if end < 0:
                return len(text)
            self.state = "text"
            return end + 3
        if state == "text":
            if text.startswith("<!--", index):
                end = text.find("-->", index + 4)
                if end < 0:
                    self.state = "comment"
                    return len(text)
                return end + 3
            match = _TAG_START.match(text, index)
            if match:
                self.state, self.tag, self.tag_attrs = "tag", match.group(1).lower(), {}
                self.closing = text[index + 1] == "/"
                out.append(match.group(0))
                return match.end()
        elif state in ("script", "style", "rawtext"):
            moved = self._raw_text_step(text, index, out)
            if moved is not None:
                return moved
        elif state in ("tag", "attr_name", "after_name", "before_value"):
            if char == ">":
                self._end_tag()
            elif char == "/" and state != "before_value":
                self.state = "tag"
            elif char in " \t\r\n\f":
                if state == "attr_name":
                    self.state = "after_name"
            elif char == "=" and state in ("attr_name", "after_name"):
                self.state = "before_value"
            elif state == "before_value":
                self.state, self.value = "value", ""
                if char in "\"'":
                    self.quote = char
                else:
                    self.quote = ""
                    self.value = char
                self.js_quote = ""
            else:
                if state != "attr_name":
                    self.attr = ""
                    self.state = "attr_name"
                self.attr += char.lower()
                self.tag_attrs[self.attr] = ""
        elif state == "value":
            if (self.quote and char == self.quote) or (not self.quote and char in " \t\r\n\f>"):
                self.tag_attrs[self.attr] = self.value
                self.state = "tag"
                if char == ">":
                    self._end_tag()
            else:
                self.value += char
                if self.attr.startswith("on"):
                    if self.js_quote and char == self.js_quote:
                        self.js_quote = ""
                    elif not self.js_quote and char in "\"'`":
                        self.js_quote = char
        out.append(char)
        return index + 1

    def _raw_text_step(self, text: str, index: int, out: list[str]) -> int | None:
        """One step inside <script>, <style> or other raw text: where the next step starts, or None when the
        character is written as it is (string quotes tracked, comments dropped as html/template drops them)."""
        char = text[index]
        state = self.state
        closing = f"</{self.tag}"
        if text[index:index + len(closing)].lower() == closing:
            self.state, self.js_quote, self.css_url = "text", "", False
            return index  # the text state reads the end tag
        if state in ("script", "style"):
            quotes = "\"'`" if state == "script" else "\"'"
            if self.js_quote:
                if char == "\\":
                    out.append(text[index:index + 2])
                    return index + 2
                if char == self.js_quote:
                    self.js_quote = ""
            elif state == "style" and self.css_url:
                self.css_url = char != ")"
            elif char in quotes:
                self.js_quote = char
            elif state == "style" and text[index:index + 4].lower() == "url(":
                self.css_url = True
            elif text.startswith("/*", index):
                # Go's html/template drops comments in scripts and styles: a block one becomes a space,
                end = text.find("*/", index + 2)
                out.append(" ")
                return len(text) if end < 0 else end + 2
            elif text.startswith("//", index):
                end = text.find("\n", index)   # a line one goes up to its newline, which stays
                return len(text) if end < 0 else end
        return None

    def _end_tag(self) -> None:
        if getattr(self, "closing", False):
            self.state = "text"
            return
        if self.tag == "script":
            kind = self.tag_attrs.get("type", "").strip().lower().split(";")[0]
            self.state = "script" if kind in _JS_TYPES else "rawtext"
        elif self.tag == "style":
            self.state = "style"
        elif self.tag in ("textarea", "title"):
            self.state = "rawtext"
        else:
            self.state = "text"
