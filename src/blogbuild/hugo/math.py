"""The math delimiters a Hugo site's own templates typeset in the reader's browser.

A Hugo site whose passthrough names only some delimiters (or none) may still typeset $…$ with a KaTeX
auto-render call (`renderMathInElement(document.body, {delimiters: [{left: "$", right: "$", display: false}]})`,
as in PaperMod's extend_head.html recipe) or a MathJax config (`tex: {inlineMath: [['$', '$']]}`) in a file under
layouts/ or themes/*/layouts/. Those delimiters are read out of the JavaScript object literal, tolerantly and
within bounds (no JavaScript is run), so that blogbuild typesets the math the Hugo site's reader sees typeset.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..config.markup import BLOCK_DELIMITERS, INLINE_DELIMITERS

_MAX_FILES = 2000
_MAX_BYTES = 512 * 1024
_MAX_LITERAL = 4000   # characters of an object literal read after its key
_SUFFIXES = (".html", ".htm", ".js")

# auto-render's delimiters when the call names none (KaTeX 0.16+), and MathJax 3's.
_AUTO_RENDER_DEFAULT = ((("\\(", "\\)"),), (("$$", "$$"), ("\\[", "\\]")))
_MATHJAX_DEFAULT = ((("\\(", "\\)"),), (("$$", "$$"), ("\\[", "\\]")))

_AUTO_RENDER = re.compile(r"renderMathInElement\s*\(")
_MATHJAX = re.compile(r"MathJax|tex2jax")
_DELIMITERS_KEY = re.compile(r"""["']?delimiters["']?\s*:\s*\[""")
_MATHJAX_KEY = re.compile(r"""["']?(inlineMath|displayMath)["']?\s*:\s*\[""")
# A JavaScript string literal, either quote, with its escapes.
_STRING = re.compile(r""""((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'""")
_OBJECT = re.compile(r"\{([^{}]*)\}")
_PAIR = re.compile(r"\[\s*(" + _STRING.pattern + r")\s*,\s*(" + _STRING.pattern + r")\s*\]")
_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


@dataclass(frozen=True)
class TemplateMath:
    """The delimiters one template file typesets: (open, close) pairs, inline and display, and the file."""

    inline: tuple[tuple[str, str], ...]
    block: tuple[tuple[str, str], ...]
    file: str


def _js_string(match: re.Match[str]) -> str:
    """The value of a JavaScript string literal matched by _STRING."""
    body = match.group(1) if match.group(1) is not None else match.group(2)
    return re.sub(r"\\(.)", lambda escape: _JS_ESCAPES.get(escape.group(1), escape.group(1)), body)


def _bracketed(text: str, start: int, opening: str = "[", closing: str = "]") -> str:
    """The text from start (just after an opening bracket) to its matching closing one, strings skipped;
    bounded by _MAX_LITERAL (what is read by then, when it never closes)."""
    depth = 1
    position = start
    limit = min(len(text), start + _MAX_LITERAL)
    while position < limit:
        character = text[position]
        if character in "\"'":
            string = _STRING.match(text, position)
            position = string.end() if string else position + 1
            continue
        if character == opening:
            depth += 1
        elif character == closing:
            depth -= 1
            if depth == 0:
                return text[start:position]
        position += 1
    return text[start:position]


def _auto_render_delimiters(literal: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """auto-render's [{left, right, display}, ...]: (inline pairs, display pairs)."""
    inline: list[tuple[str, str]] = []
    block: list[tuple[str, str]] = []
    for entry in _OBJECT.finditer(literal):
        fields: dict[str, str] = {}
        for part in re.finditer(r"""["']?(left|right|display)["']?\s*:\s*(""" + _STRING.pattern + r"|true|false|!0|!1)",
                                entry.group(1)):
            value = part.group(2)
            string = _STRING.fullmatch(value)
            fields[part.group(1)] = _js_string(string) if string else value
        if "left" in fields and "right" in fields:
            display = fields.get("display", "false") in ("true", "!0")
            (block if display else inline).append((fields["left"], fields["right"]))
    return inline, block


def _pairs(literal: str) -> list[tuple[str, str]]:
    """MathJax's [['$', '$'], ['\\(', '\\)']]."""
    pairs = []
    for match in _PAIR.finditer(literal):
        opening = _STRING.fullmatch(match.group(1))
        closing = _STRING.fullmatch(match.group(4))
        if opening and closing:
            pairs.append((_js_string(opening), _js_string(closing)))
    return pairs


def delimiters_in(text: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]] | None:
    """The (inline, display) delimiters a template's KaTeX auto-render or MathJax setup typesets; None if it has none."""
    inline: list[tuple[str, str]] = []
    block: list[tuple[str, str]] = []
    found = False
    for call in _AUTO_RENDER.finditer(text):
        found = True
        arguments = _bracketed(text, call.end(), "(", ")")
        key = _DELIMITERS_KEY.search(arguments)
        if key is None:   # auto-render's own delimiters
            inline += _AUTO_RENDER_DEFAULT[0]
            block += _AUTO_RENDER_DEFAULT[1]
            continue
        more_inline, more_block = _auto_render_delimiters(_bracketed(arguments, key.end()))
        inline += more_inline
        block += more_block
    if _MATHJAX.search(text):
        keys = list(_MATHJAX_KEY.finditer(text))
        for key in keys:
            found = True
            (inline if key.group(1) == "inlineMath" else block).extend(_pairs(_bracketed(text, key.end())))
        if not keys and re.search(r"mathjax[^\"']*\.js", text, re.IGNORECASE):
            found = True
            inline += _MATHJAX_DEFAULT[0]
            block += _MATHJAX_DEFAULT[1]
    if not found:
        return None
    return list(dict.fromkeys(inline)), list(dict.fromkeys(block))


def template_math(root: Path) -> TemplateMath | None:
    """The delimiters the site's templates (layouts/, then themes/*/layouts/) typeset that blogbuild knows: the
    first file with a KaTeX auto-render or MathJax setup, its pairs kept where blogbuild's math rules know them."""
    from .gotemplate import layout_folders
    seen = 0
    for folder in layout_folders(root):
        for path in sorted(folder.rglob("*")):
            if seen >= _MAX_FILES:
                return None
            if path.suffix.lower() not in _SUFFIXES or not path.is_file():
                continue
            seen += 1
            try:
                if path.stat().st_size > _MAX_BYTES:
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if "renderMathInElement" not in text and "Math" not in text:
                continue
            found = delimiters_in(text)
            if found is None:
                continue
            inline = tuple(pair for pair in found[0] if pair in INLINE_DELIMITERS)
            # auto-render and MathJax may typeset "$$" inline or "\\(" as display: blogbuild's rules take each
            # delimiter where its own tables have it.
            inline += tuple(pair for pair in found[1] if pair in INLINE_DELIMITERS and pair not in inline)
            block = tuple(pair for pair in found[0] + found[1] if pair in BLOCK_DELIMITERS)
            if inline or block:
                return TemplateMath(inline, tuple(dict.fromkeys(block)), path.relative_to(root).as_posix())
    return None
