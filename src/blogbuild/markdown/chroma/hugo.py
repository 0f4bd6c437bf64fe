"""Hugo's markup/highlight over Chroma: its config (markup.highlight), the options a code fence, the highlight
shortcode or transform.Highlight merge over it, and the HTML Hugo writes for a block of code."""
from __future__ import annotations

import functools
from dataclasses import fields, replace
from typing import Any, Mapping

from .html_formatter import FormatOptions, escape, format_html, format_parts
from .lexer import Clock, LexerError, LexingSlow, Token, coalesce
from .registry import fallback_lexer, get_lexer, registry
from .token_types import TEXT
from ...core.records import dataclass


class HighlightError(ValueError):
    """Options Hugo refuses (lineNos=maybe, a malformed option string)."""


@dataclass(frozen=True)
class HighlightConfig:
    """highlight.Config: Hugo's defaults, then markup.highlight, then a block's options."""

    style: str = "monokai"
    codefences: bool = True
    wrapperclass: str = "highlight"
    noclasses: bool = True
    linenos: Any = None
    linenumbersintable: bool = True
    anchorlinenos: bool = False
    lineanchors: str = ""
    linenostart: int = 1
    hl_lines: str = ""
    hl_inline: bool = False
    hl_lines_parsed: tuple[tuple[int, int], ...] | None = None
    tabwidth: int = 4
    guesssyntax: bool = False


_FIELDS = {field.name: field for field in fields(HighlightConfig)}


def _weak(value: Any, like: Any, key: str) -> Any:
    """mapstructure.WeakDecode of one value into the kind of the field's default."""
    if isinstance(like, bool):
        if isinstance(value, str):
            lowered = value.strip().lower()
            if lowered in ("1", "t", "true"):
                return True
            if lowered in ("", "0", "f", "false"):
                return False
            raise HighlightError(f"highlight option {key}={value!r} is not true or false")
        return bool(value)
    if isinstance(like, int):
        try:
            return int(str(value).strip()) if not isinstance(value, (int, float)) else int(value)
        except ValueError:
            raise HighlightError(f"highlight option {key}={value!r} is not a number") from None
    if isinstance(like, str):
        return "" if value is None else str(value) if not isinstance(value, bool) else str(value).lower()
    return value


def normalize(options: Mapping[str, Any]) -> dict[str, Any]:
    """normalizeHighlightOptions: lower-case keys; linenos "table"/"inline" also set lineNumbersInTable; parsed
    hl_lines ranges (from a fence's [2, "4-5"]) shifted by linenostart."""
    out = {str(key).lower(): value for key, value in options.items()}
    start = 1
    if "linenostart" in out:
        try:
            start = int(str(out["linenostart"]).strip())
        except ValueError:
            start = 0
    for key, value in list(out.items()):
        if key == "linenos":
            if value in ("table", "inline"):
                out["linenumbersintable"] = value == "table"
            if isinstance(value, str):
                out[key] = value != "false"
        elif key == "hl_lines" and isinstance(value, list):
            del out[key]
            out["hl_lines_parsed"] = tuple((first + start, last + start) for first, last in value)
    return out


def apply_options(config: HighlightConfig, options: Mapping[str, Any]) -> HighlightConfig:
    """applyOptionsFromMap: the options (already normalized) decoded over config; unknown keys are ignored."""
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if key not in _FIELDS:
            continue
        if key == "linenos":
            changes[key] = value
        elif key == "hl_lines_parsed":
            changes[key] = value
        else:
            changes[key] = _weak(value, getattr(HighlightConfig(), key), key)
    return replace(config, **changes)


def parse_option_string(text: str) -> dict[str, Any]:
    """parseHighlightOptions: "linenos=table, hl_lines=3 4-5" as a map."""
    text = text.strip(" ")
    options: dict[str, Any] = {}
    if not text:
        return options
    for part in text.split(","):
        pair = part.split("=")
        key = pair[0].strip(" ")
        if len(pair) != 2:
            raise HighlightError(f"invalid Highlight option: {key}")
        options[key] = pair[1]
    return normalize(options)


def config_from_settings(settings: Mapping[str, Any] | tuple[tuple[str, Any], ...]) -> HighlightConfig:
    """The site's markup.highlight settings over Hugo's defaults."""
    return apply_options(HighlightConfig(), normalize(dict(settings)))


def hl_lines_ranges(start: int, text: str) -> tuple[tuple[int, int], ...] | None:
    """hlLinesToRanges: "2 4-5" as line ranges from start; None when malformed (Hugo then marks nothing)."""
    ranges: list[tuple[int, int]] = []
    for part in text.strip().split(" "):
        part = part.strip()
        if not part:
            continue
        numbers = part.split("-")
        try:
            first = int(numbers[0]) + start - 1
            last = int(numbers[1]) + start - 1 if len(numbers) > 1 else first
        except ValueError:
            return None
        ranges.append((first, last))
    return tuple(ranges)


def _format_options(config: HighlightConfig) -> FormatOptions:
    in_table = config.linenumbersintable
    value = config.linenos
    if isinstance(value, str):
        if value == "inline":
            line_numbers, in_table = True, False
        elif value == "table":
            line_numbers, in_table = True, True
        else:
            raise HighlightError(f'lineNos must be one of true, false, "inline", or "table"; got {value}')
    elif value is None:
        line_numbers = False
    elif isinstance(value, bool):
        line_numbers = value
    else:
        raise HighlightError(f'lineNos must be one of true, false, "inline", or "table"; got {value}')
    ranges: tuple[tuple[int, int], ...] = ()
    if config.hl_lines_parsed is not None:
        ranges = config.hl_lines_parsed
    elif config.hl_lines:
        ranges = hl_lines_ranges(config.linenostart, config.hl_lines) or ()
    anchors = config.lineanchors + "-" if config.lineanchors else ""
    return FormatOptions(line_numbers, in_table, config.linenostart, ranges, config.anchorlinenos, anchors,
                         config.hl_inline, config.style if config.noclasses else "", config.tabwidth)


def _pre_start(language: str) -> str:
    """WritePreStart, with {} where the formatter's class or style attribute goes."""
    attributes = ""
    if language:
        escaped = escape(language).replace("{", "{{").replace("}", "}}")
        attributes = f' class="language-{escaped}" data-lang="{escaped}"'
    return f'<pre tabindex="0"{{}}><code{attributes}>'


def tokens_of(code: str, language: str, warnings: list[str] | None = None) -> list[Token] | None:
    """The coalesced tokens of code in a language Chroma knows, else None; a lexer that fails or runs out of
    time gives the code as plain text and a warning."""
    lexer = get_lexer(language) if language else None
    if lexer is None:
        return None
    return _lex(lexer, code, warnings)


def _lex(lexer: Any, code: str, warnings: list[str] | None) -> list[Token]:
    """The block's coalesced tokens, and its warnings added to warnings: lexed once per lexer and text in a
    process (a block repeated across posts, or in a post's summary, is not lexed again)."""
    tokens, said = _lexed(lexer, code)
    if warnings is not None:
        warnings.extend(said)
    return list(tokens)


@functools.lru_cache(maxsize=4096)
def _lexed(lexer: Any, code: str) -> tuple[tuple[Token, ...], tuple[str, ...]]:
    warnings: list[str] = []
    return tuple(_lex_now(lexer, code, warnings)), tuple(warnings)


def _lex_now(lexer: Any, code: str, warnings: list[str] | None) -> list[Token]:
    clock = Clock(0.0)
    try:
        import time
        from .lexer import BLOCK_BUDGET
        clock.deadline = time.monotonic() + BLOCK_BUDGET
        tokens = coalesce(lexer.tokens(code, clock=clock))
    except LexerError as error:
        if warnings is not None:
            warnings.append(f"code highlighting ({lexer.config.name}): {error}; the block is shown as plain text "
                            "(name another language in the fence, or text, to leave it plain)")
        return [(TEXT, code)] if code else []
    except LexingSlow as error:
        if warnings is not None:
            warnings.append(f"code highlighting ({error}); the block is shown as plain text (split the block, or "
                            "name another language in the fence)")
        return [(TEXT, code)] if code else []
    if clock.timed_out and warnings is not None:
        warnings.append(f"code highlighting ({lexer.config.name}): a pattern ran out of time at "
                        f"{clock.timed_out[0]}; it did not match there, so the colours may differ from Hugo's "
                        "(split the block if it is very long)")
    return tokens


def highlight(code: str, language: str, config: HighlightConfig, *, wrapper_classes: str = "",
              wrapper_attributes: str = "", warnings: list[str] | None = None) -> str:
    """highlight.highlight(): the HTML Hugo writes for code in a language with these options."""
    return highlight_parts(code, language, config, wrapper_classes=wrapper_classes,
                           wrapper_attributes=wrapper_attributes, warnings=warnings)[0]


def highlight_parts(code: str, language: str, config: HighlightConfig, *, wrapper_classes: str = "",
                    wrapper_attributes: str = "", warnings: list[str] | None = None) -> tuple[str, str]:
    """(the HTML, its inner part): HighlightResult's Wrapped and Inner (the code's lines without the div, pre
    and code around them; all of it for inline code)."""
    lexer = get_lexer(language) if language else None
    if lexer is None and config.guesssyntax:
        lexer = registry().analyse(code) or fallback_lexer()
        language = lexer.config.name.lower()
    options = _format_options(config)
    if lexer is None:
        if config.hl_inline:
            whole = f'<code class="code-inline language-{escape(language)}">{escape(code)}</code>'
            return whole, whole
        return f"{_pre_start(language).format('')}{escape(code)}</code></pre>", escape(code)
    tokens = _lex(lexer, code, warnings)
    if config.hl_inline:
        inline = f'<code class="code-inline language-{escape(language)}">'.replace("{", "{{").replace("}", "}}")
        whole = format_html(tokens, options, ("", inline), "</code>")
        return whole, whole
    classes = config.wrapperclass + (" " + wrapper_classes if wrapper_classes else "")
    head, inner, tail = format_parts(tokens, options, (_pre_start(""), _pre_start(language)), "</code></pre>")
    return f'<div class="{escape(classes)}"{wrapper_attributes}>{head}{inner}{tail}</div>', inner


def can_highlight(language: str) -> bool:
    """transform.CanHighlight: whether Chroma knows the language."""
    return get_lexer(language) is not None
