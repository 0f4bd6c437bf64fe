"""Hugo's template functions that shortcodes and small partials use, with Hugo's argument order (the piped
value last) and results: FUNCTIONS by name, NAMESPACES for `strings.X`, `urls.X`, `math.X`, …

Functions that need the page being rendered (markdownify, partial, T, relURL) find it in the Jinja
context the translated template renders with (objects.RenderState under the name `_state`).
"""
from __future__ import annotations

import hashlib
import html as html_lib
import json
import math
import re
import unicodedata
from collections.abc import Mapping
from typing import Any, Callable

import jinja2
from markupsafe import Markup

from .escape import SafeAttr, SafeCSS, SafeJS, SafeURL, go_string
from .objects import GoReturn, HugoFunctionError, PartialNotFound, TryResult, UnsupportedField


def truthy(value: Any) -> bool:
    """Go's truth: false, 0, nil, and empty strings and collections are false."""
    return bool(value) and value is not None


def _default(fallback: Any, value: Any = None) -> Any:
    return value if truthy(value) else fallback


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


_VERB = re.compile(r"%([-+# 0]*)(\d+|\*)?(?:\.(\d+))?([vdsqfFeEgGxXtTcbo%])")


def go_format(layout: str, values: tuple[Any, ...]) -> str:
    """Go's fmt.Sprintf for the verbs templates use."""
    remaining = list(values)

    def verb(match: re.Match[str]) -> str:
        flags, width, precision, kind = match.groups()
        if kind == "%":
            return "%"
        if not remaining:
            return f"%!{kind}(MISSING)"
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
        return text
    result = _VERB.sub(verb, layout)
    if remaining:
        result += "%!(EXTRA " + ", ".join(f"{type(value).__name__}={go_string(value)}" for value in remaining) + ")"
    return result


def _format_one(value: Any, kind: str, flags: str, precision: str | None) -> str:
    if kind in "vs":
        return go_string(value) if value is not None else "<nil>"
    if kind == "q":
        return json.dumps(go_string(value), ensure_ascii=False)
    if kind == "t":
        return go_string(bool(value))
    if kind == "T":
        return {str: "string", int: "int", float: "float64", bool: "bool"}.get(type(value), type(value).__name__)
    number = _number(value)
    if kind == "d":
        text = str(int(number))
        return ("+" + text) if "+" in flags and number >= 0 else text
    if kind == "c":
        return chr(int(number))
    if kind in "xX":
        if isinstance(value, str):
            text = value.encode().hex()
        else:
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


def _number(value: Any) -> int | float:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    try:
        text = str(value).strip()
        return int(text) if re.fullmatch(r"[-+]?\d+", text) else float(text)
    except ValueError:
        raise HugoFunctionError(f"unable to cast {value!r} to a number") from None


# Hugo's default titleCaseStyle, AP: small words stay lower case unless first or last.
_AP_SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "but", "by", "en", "for", "if", "in", "nor", "of", "on",
                             "or", "per", "so", "the", "to", "up", "v", "vs", "via", "yet"})


def _title(text: Any) -> str:
    words = go_string(text).split(" ")
    last = len(words) - 1

    def one(index: int, word: str) -> str:
        if 0 < index < last and word.lower() in _AP_SMALL_WORDS:
            return word.lower()
        return word[:1].upper() + word[1:]
    return " ".join(one(index, word) for index, word in enumerate(words))


def _trim(text: Any, cutset: str) -> str:
    return go_string(text).strip(cutset)


def _replace(text: Any, old: Any, new: Any, limit: int = -1) -> str:
    return go_string(text).replace(go_string(old), go_string(new), limit)


def _split(text: Any, delimiter: str) -> list[str]:
    value = go_string(text)
    if value == "":
        return []
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
            try:
                value = value[int(key)]
            except IndexError:
                raise HugoFunctionError(f"index out of range: {key}") from None
    return value


def _lookup(mapping: Mapping, key: Any) -> Any:
    if key in mapping:
        return mapping[key]
    lowered = str(key).lower()
    if getattr(mapping, "case_insensitive", False):
        for name, value in mapping.items():
            if str(name).lower() == lowered:
                return value
    return None


def _len(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, (int, float)):
        return len(go_string(value))
    return len(value)


def _in(collection: Any, item: Any) -> bool:
    if collection is None:
        return False
    if isinstance(collection, str):
        return go_string(item) in collection
    return any(element == item or go_string(element) == go_string(item) and type(element) is type(item)
               for element in collection)


def urlize(text: Any) -> str:
    """Hugo's urlize: each path segment made safe as Hugo makes it (blogbuild's urls.urlize: lower case,
    spaces to hyphens, unsafe characters dropped, CJK kept), then percent-encoded; slashes stay."""
    from urllib.parse import quote

    from ...core.urls import urlize as segment
    value = unicodedata.normalize("NFC", go_string(text))
    return quote("/".join(segment(part) if part.strip() else part for part in value.split("/")), safe="/-_.~+")


_NEWLINE_MARK = "\x00hugonl\x00"


def _plainify(text: Any) -> str:
    """Hugo's StripHTML: a text without tags stays as it is; else its newlines become spaces, each </p> and
    <br> a newline, the tags go, and a run of white space keeps its first character."""
    value = go_string(text)
    if "<" not in value and ">" not in value:
        return value
    marked = value.replace("\n", " ").replace("</p>", _NEWLINE_MARK).replace("<br>", _NEWLINE_MARK) \
        .replace("<br />", _NEWLINE_MARK)
    stripped = html_lib.unescape(re.sub(r"<[^>]*>", "", marked)).replace(_NEWLINE_MARK, "\n")
    return re.sub(r"(\s)\s+", r"\1", stripped)


def _jsonify(*arguments: Any) -> Markup:
    value = arguments[-1]
    options = arguments[0] if len(arguments) > 1 else {}
    indent = options.get("indent") if isinstance(options, Mapping) else None
    prefix = options.get("prefix", "") if isinstance(options, Mapping) else ""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, indent=indent or None,
                      separators=None if indent else (",", ":"), default=str)
    if prefix:
        text = "\n".join(prefix + line if index else line for index, line in enumerate(text.split("\n")))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def _html_escape(text: Any) -> str:
    return html_lib.escape(go_string(text), quote=True).replace("&#x27;", "&#39;").replace("&quot;", "&#34;")


def _html_unescape(text: Any) -> str:
    return html_lib.unescape(go_string(text))


def _slice(*items: Any) -> list[Any]:
    return list(items)


def _first(count: Any, items: Any) -> list[Any]:
    return list(items or ())[:int(_number(count))]


def _last(count: Any, items: Any) -> list[Any]:
    size = int(_number(count))
    return list(items or ())[-size:] if size else []


def _after(count: Any, items: Any) -> list[Any]:
    return list(items or ())[int(_number(count)):]


def _substr(text: Any, start: Any, length: Any = None) -> str:
    value = go_string(text)
    begin = int(_number(start))
    if length is None:
        return value[begin:]
    size = int(_number(length))
    end = begin + size if size >= 0 else len(value) + size
    if begin < 0 and begin + size >= 0:
        end = len(value) + begin + size if size >= 0 else end
    return value[begin:end] if end else value[begin:]


def _cond(control: Any, yes: Any, no: Any) -> Any:
    return yes if truthy(control) else no


def _isset(collection: Any, key: Any) -> bool:
    if isinstance(collection, Mapping):
        return _lookup(collection, key) is not None or key in collection
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
    return a // b if isinstance(a, int) and isinstance(b, int) else a / b


def _find_re(pattern: str, text: Any, limit: int = -1) -> list[str]:
    found = [match.group(0) for match in re.finditer(pattern, go_string(text))]
    return found if limit < 0 else found[:limit]


def _replace_re(pattern: str, replacement: str, text: Any, limit: int = -1) -> str:
    go_replacement = re.sub(r"\$\{?(\d+)\}?", r"\\g<\1>", replacement)
    return re.sub(pattern, go_replacement, go_string(text), count=max(limit, 0))


def _emojify(text: Any) -> Markup:
    from ...markdown.emoji import emoji_names
    names = emoji_names()
    return Markup(re.sub(r":([\w+-]+):", lambda match: names.get(match.group(1), match.group(0)), go_string(text)))


def _string(value: Any) -> str:
    return go_string(value)


def _int(value: Any) -> int:
    return int(_number(value))


def _float(value: Any) -> float:
    return float(_number(value))


def _humanize(text: Any) -> str:
    value = go_string(text)
    if value.isdigit():
        number = int(value)
        suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
        return f"{number}{suffix}"
    words = re.sub(r"[-_]+", " ", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", value)).strip().lower()
    return words[:1].upper() + words[1:]


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
    return list(range(first, last + (1 if step > 0 else -1), step))


def _markdownify(context: jinja2.runtime.Context, text: Any) -> Markup:
    from ...templating.markdownify import markdownify
    return markdownify(context["_state"].markdownify, go_string(text))


def _partial(context: jinja2.runtime.Context, name: Any, dot: Any = None) -> Any:
    """The partial's HTML, or the value it returns ({{ return }})."""
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


def _exists(context: jinja2.runtime.Context, path: Any) -> bool:
    return bool(_runner(context, "templates.Exists").exists(go_string(path)))


def _translate(context: jinja2.runtime.Context, key: Any, *arguments: Any) -> str:
    return context["_state"].translate(go_string(key), arguments[0] if arguments else None)


def _rel_url(context: jinja2.runtime.Context, url: Any) -> str:
    return context["_state"].site.rel_url(go_string(url))


def _abs_url(context: jinja2.runtime.Context, url: Any) -> str:
    return context["_state"].site.abs_url(go_string(url))


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "default": _default, "printf": _printf, "print": _print, "println": _println,
    "lower": lambda text: go_string(text).lower(), "upper": lambda text: go_string(text).upper(),
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
    "relLangURL": jinja2.pass_context(_rel_url), "absLangURL": jinja2.pass_context(_abs_url),
    "first": _first, "last": _last, "after": _after, "substr": _substr, "cond": _cond, "isset": _isset,
    "add": _arith(lambda a, b: a + b), "sub": _arith(lambda a, b: a - b), "mul": _arith(lambda a, b: a * b),
    "div": _div, "mod": lambda a, b: int(_number(a)) % int(_number(b)),
    "findRE": _find_re, "replaceRE": _replace_re, "emojify": _emojify, "string": _string, "int": _int,
    "float": _float, "humanize": _humanize, "seq": _seq, "chomp": lambda text: go_string(text).rstrip("\r\n"),
    "hasPrefix": lambda text, prefix: go_string(text).startswith(go_string(prefix)),
    "hasSuffix": lambda text, suffix: go_string(text).endswith(go_string(suffix)),
    "md5": lambda text: hashlib.md5(go_string(text).encode()).hexdigest(),  # noqa: S324 - Hugo's md5
    "sha1": lambda text: hashlib.sha1(go_string(text).encode()).hexdigest(),  # noqa: S324 - Hugo's sha1
    "sha256": lambda text: hashlib.sha256(go_string(text).encode()).hexdigest(),
    "countwords": lambda text: len(_plainify(text).split()),
    "truncate": lambda size, *rest: _truncate(int(_number(size)), *rest),
    "uniq": lambda items: list(dict.fromkeys(items or ())),
    "sort": lambda items, *rest: sorted(items or (), key=go_string, reverse=bool(rest) and rest[-1] == "desc"),
    "reverse": lambda items: list(reversed(list(items or ()))),
    "append": lambda *values: [*(values[-1] or ()), *values[:-1]],
    "querify": lambda *pairs: "&".join(f"{urlize(pairs[index])}={urlize(pairs[index + 1])}"
                                       for index in range(0, len(pairs) - 1, 2)),
    "anchorize": lambda text: re.sub(r"[^\w\-]+", "", re.sub(r"\s+", "-", go_string(text).strip().lower())),
    "base64Encode": lambda text: __import__("base64").b64encode(go_string(text).encode()).decode(),
    "base64Decode": lambda text: __import__("base64").b64decode(go_string(text)).decode(),
    "math.Round": lambda value: float(math.floor(_number(value) + 0.5)),
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


def _truncate(size: int, *rest: Any) -> Any:
    text = go_string(rest[-1])
    ellipsis = go_string(rest[0]) if len(rest) > 1 else " …"
    if len(text) <= size:
        return text
    cut = text[:size].rsplit(" ", 1)[0] if " " in text[:size] else text[:size]
    return cut + ellipsis


class _Namespace:
    """`strings.ToLower` and the like: Hugo's namespaced names for the same functions."""

    def __init__(self, name: str, members: Mapping[str, Callable[..., Any]]) -> None:
        self._name = name
        self._members = dict(members)

    def __getattr__(self, member: str) -> Callable[..., Any]:
        try:
            return self._members[member]
        except KeyError:
            raise AttributeError(f"{self._name}.{member}") from None

    def has(self, member: str) -> bool:
        return member in self._members


NAMESPACES: dict[str, _Namespace] = {
    "strings": _Namespace("strings", {
        "ToLower": FUNCTIONS["lower"], "ToUpper": FUNCTIONS["upper"], "Title": _title, "Trim": _trim,
        "TrimSpace": lambda text: go_string(text).strip(), "TrimLeft": lambda cut, text: go_string(text).lstrip(cut),
        "TrimRight": lambda cut, text: go_string(text).rstrip(cut),
        "TrimPrefix": lambda prefix, text: go_string(text).removeprefix(go_string(prefix)),
        "TrimSuffix": lambda suffix, text: go_string(text).removesuffix(go_string(suffix)),
        "Contains": lambda text, part: go_string(part) in go_string(text),
        "ContainsAny": lambda text, chars: any(char in go_string(text) for char in go_string(chars)),
        "HasPrefix": FUNCTIONS["hasPrefix"], "HasSuffix": FUNCTIONS["hasSuffix"],
        "Replace": _replace, "ReplaceRE": _replace_re, "FindRE": _find_re, "Split": _split,
        "Repeat": lambda count, text: go_string(text) * int(_number(count)), "Substr": _substr,
        "Count": lambda part, text: go_string(text).count(go_string(part)),
        "RuneCount": lambda text: len(go_string(text)), "CountWords": FUNCTIONS["countwords"],
        "FirstUpper": lambda text: go_string(text)[:1].upper() + go_string(text)[1:],
        "Truncate": FUNCTIONS["truncate"], "Chomp": FUNCTIONS["chomp"],
    }),
    "urls": _Namespace("urls", {
        "RelURL": FUNCTIONS["relURL"], "AbsURL": FUNCTIONS["absURL"], "RelLangURL": FUNCTIONS["relLangURL"],
        "AbsLangURL": FUNCTIONS["absLangURL"], "Anchorize": FUNCTIONS["anchorize"], "URLize": urlize,
    }),
    "math": _Namespace("math", {
        "Add": FUNCTIONS["add"], "Sub": FUNCTIONS["sub"], "Mul": FUNCTIONS["mul"], "Div": _div,
        "Mod": FUNCTIONS["mod"], "Round": FUNCTIONS["math.Round"], "Floor": lambda value: float(math.floor(_number(value))),
        "Ceil": lambda value: float(math.ceil(_number(value))), "Max": lambda *values: max(_number(v) for v in values),
        "Min": lambda *values: min(_number(v) for v in values),
    }),
    "safe": _Namespace("safe", {"HTML": FUNCTIONS["safeHTML"], "CSS": FUNCTIONS["safeCSS"], "JS": FUNCTIONS["safeJS"],
                                "URL": FUNCTIONS["safeURL"], "HTMLAttr": FUNCTIONS["safeHTMLAttr"]}),
    "transform": _Namespace("transform", {
        "Markdownify": FUNCTIONS["markdownify"], "Plainify": _plainify, "HTMLEscape": _html_escape,
        "HTMLUnescape": _html_unescape, "Emojify": _emojify}),
    "collections": _Namespace("collections", {
        "Slice": _slice, "Dictionary": _dict, "Index": _index, "In": _in, "Delimit": _delimit, "First": _first,
        "Last": _last, "After": _after, "Uniq": FUNCTIONS["uniq"], "Sort": FUNCTIONS["sort"],
        "Reverse": FUNCTIONS["reverse"], "Append": FUNCTIONS["append"], "Seq": _seq, "Querify": FUNCTIONS["querify"],
        "IsSet": _isset}),
    "lang": _Namespace("lang", {"Translate": FUNCTIONS["T"]}),
    "fmt": _Namespace("fmt", {"Printf": _printf, "Print": _print, "Println": _println}),
    "compare": _Namespace("compare", {"Default": _default, "Conditional": _cond}),
    "cast": _Namespace("cast", {"ToString": _string, "ToInt": _int, "ToFloat": _float}),
    "crypto": _Namespace("crypto", {"MD5": FUNCTIONS["md5"], "SHA1": FUNCTIONS["sha1"], "SHA256": FUNCTIONS["sha256"]}),
    "templates": _Namespace("templates", {"Exists": jinja2.pass_context(_exists)}),
    "partials": _Namespace("partials", {"Include": FUNCTIONS["partial"], "IncludeCached": FUNCTIONS["partialCached"]}),
}
del FUNCTIONS["math.Round"]

# Hugo Pipes (pipes.py: resources.*, js.Build, fingerprint, minify): its functions and namespaces with the others,
# for the translator and the environment.
from .pipes import PIPES_FUNCTIONS, PIPES_NAMESPACES  # noqa: E402

FUNCTIONS.update(PIPES_FUNCTIONS)
NAMESPACES.update(PIPES_NAMESPACES)
