"""Rendering one body: shortcodes around markdown, then the HTML, TOC, feature flags and warnings."""
from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import Any, Callable, Sequence

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..config import SiteConfig
from ..config.markup import MarkupConfig
from ..core.errors import SourceWarning
from ..core.model import RenderedMarkdown, TextMetrics
from ..content.text import TextTreeBuilder
from . import shortcodes as shortcode_stage
from .code import fence_language
from .environment import RenderEnvironment
from .marks import source_marks
from .parser import parser
from .shortcodes import ShortcodeBody, ShortcodeSet
from .text_tree import TextTreeWalker
from ..core.records import dataclass

_DEFAULT_CONFIG = SiteConfig()


def _fence_closed(lines: Sequence[str], token: Token) -> bool:
    """Whether a fence token's last line is a closing fence (markdown-it does not say)."""
    if token.map is None:
        return True
    first, end = token.map
    if end - first < 2 or end > len(lines):
        return False
    last = lines[end - 1].lstrip(" \t>")
    marker = token.markup[:1]
    stripped = last.strip()
    return bool(stripped) and set(stripped) == {marker} and len(stripped) >= len(token.markup)


def _flags_and_warnings(tokens: list[Token], lines: Sequence[str],
                        environment: RenderEnvironment) -> tuple[bool, bool, bool]:
    """(has math, has mermaid, has code) of a token stream; unclosed fences become warnings."""
    has_math = has_mermaid = has_code = False
    stack = [tokens]
    while stack:
        for token in stack.pop():
            kind = token.type
            if kind in ("math_inline", "math_display_inline", "math_block"):
                has_math = True
            elif kind == "fence":
                language = fence_language(token.info).lower()
                if language == "mermaid":
                    has_mermaid = True
                elif language == "math":
                    has_math = True
                else:
                    has_code = True
                if not _fence_closed(lines, token):
                    line = token.map[0] if token.map else 0
                    environment.warn(line, f"code fence '{token.markup}' is never closed; "
                                           f"add a closing '{token.markup}' line")
            elif kind == "code_block":
                has_code = True
            if token.children:
                stack.append(token.children)
    return has_math, has_mermaid, has_code


_MATH_TOKENS = frozenset({"math_inline", "math_display_inline", "math_block"})


def _math_and_mermaid_count(tokens: list[Token]) -> tuple[int, int]:
    """How many formulas (```math blocks included) and mermaid diagrams a token stream holds."""
    math = mermaid = 0
    stack = [tokens]
    while stack:
        for token in stack.pop():
            language = fence_language(token.info).lower() if token.type == "fence" else ""
            math += token.type in _MATH_TOKENS or language == "math"
            mermaid += language == "mermaid"
            if token.children:
                stack.append(token.children)
    return math, mermaid


# A line markdown renders as one paragraph holding the line as it is: ASCII letters and digits, any non-ASCII
# character but white space, single spaces and a few ASCII marks where no rule reads them (a "." or ":" before a
# space or at the end, "-" inside a word, "," ";" "/" "%" "!" "?" alone). What any inline or block rule, the
# typographer, linkify, emoji or an HTML escape reads ("*", "[", "<", "&", quotes, "--", "...", "://", a list
# number "1. ", a leading "-") is not in it.
_PLAIN_LINE = re.compile(r"(?:[A-Za-z0-9]|[^\x00-\x7f\s]|(?<=\S) (?=\S)|[.:](?= |$)|(?<=\w)-(?=\w)"
                         r"|[,;/%](?![,;/%])|[!?](?![!?.,]))+")   # one way to match each character: no backtracking
_LIST_NUMBER = re.compile(r"\d{1,9}[.)](?: |$)")


def plain_line(text: str, markup: MarkupConfig) -> bool:
    """Whether markdown renders text as one paragraph of text itself (`<p>text</p>`), so that markdownify (a
    list of a thousand post titles) need not parse it: see _PLAIN_LINE. A math delimiter of the config's
    keeps the text out."""
    return (_PLAIN_LINE.fullmatch(text) is not None and _LIST_NUMBER.match(text) is None
            and not any(opening in text for opening, _ in (*markup.inline_math, *markup.block_math)))


def render_markdown(body: str, *, path: str = "<string>", line_offset: int = 0,
                    config: SiteConfig | None = None, shortcodes: ShortcodeSet | None = None,
                    page: Any = None) -> RenderedMarkdown:
    """Render a post body to HTML with its TOC, feature flags and warnings (file lines); page is what Go
    shortcodes see as .Page (gotemplate.objects.PageInfo)."""
    return _render_body(body, path=path, line_offset=line_offset, config=config or _DEFAULT_CONFIG,
                        shortcodes=shortcodes, page=page)[0]


def render_post(body: str, *, path: str = "<string>", line_offset: int = 0, config: SiteConfig | None = None,
                shortcodes: ShortcodeSet | None = None, page: Any = None,
                measure: bool = True) -> tuple[RenderedMarkdown, TextMetrics | None]:
    """Render a post body, and measure its text (plain text, words, reading time, summary) from the
    same tokens: one parse per post. measure=False: no measures (None), for a post whose measures come from
    its HTML as Hugo's page model makes them (a Hugo site's own layouts: page_text.hugo_measures)."""
    config = config or _DEFAULT_CONFIG
    if config.markup.render_hooks:   # a Hugo site's own layouts: its summary divider as Hugo's page lexer takes it
        from .goldmark import hugo_summary_divider
        body = hugo_summary_divider(body)
    rendered, top, prepared = _render_body(body, path=path, line_offset=line_offset, config=config,
                                           shortcodes=shortcodes, page=page)
    if not measure:
        return rendered, None
    builder = TextTreeBuilder()
    substitute = prepared.substitute if prepared.pattern is not None else None
    TextTreeWalker(top.md, top.env, builder, substitute).walk(top.tokens)
    return rendered, builder.measure(config)


def _render_body(body: str, *, path: str, line_offset: int, config: SiteConfig,
                 shortcodes: ShortcodeSet | None, page: Any = None) -> tuple[RenderedMarkdown, _Render, ShortcodeBody]:
    """(the rendered body, the render of its top level, its shortcodes)."""
    shortcode_set = shortcodes if shortcodes is not None else shortcode_stage.builtin_shortcodes()
    used_ids: set[str] = set()
    hooks = page_render_hooks(config, shortcode_set, page)
    prepared = ShortcodeBody(body, path=path, line_offset=line_offset, shortcodes=shortcode_set,
                             render=functools.partial(_render_plain, config=config, hooks=hooks), used_ids=used_ids,
                             page=page, markup=config.markup)
    has_shortcodes = prepared.pattern is not None
    replays: list[tuple[Any, ...]] = []   # the body's hook calls that may run again alone (hooks.py)
    top = _render_tokens(prepared.processed, path=path, line_of=prepared.line_of,
                         restore=prepared.restore if has_shortcodes else None, config=config, used_ids=used_ids,
                         placeholders=frozenset(prepared.block_placeholders), placeholder_pattern=prepared.pattern,
                         hooks=hooks, replays=replays)
    rendered = prepared.finish(top.rendered)
    store = getattr(page, "store", None) if page is not None else (hooks.store if hooks is not None else None)
    if store:   # what the page's shortcodes and hooks put in its Store, which its layouts read
        from ..hugo.gotemplate import stored_values
        rendered = replace(rendered, page_store=stored_values(store))
    missing = getattr(store, "missing_reads", None)
    if missing:   # what they read there that was not set: the page's layouts may set it before the content
        rendered = replace(rendered, store_reads=tuple(sorted(missing)))
        if replays and sum(call[-1] for call in replays) == getattr(store, "misses", -1):
            # Every such read was a hook call kept to run again alone: the page stage need not render it all.
            rendered = replace(rendered, hook_replays=tuple(call[:-1] for call in replays))
    return rendered, top, prepared


def page_render_hooks(config: SiteConfig, shortcodes: ShortcodeSet, page: Any) -> Any:
    """The site's render hooks for one page (hugo.gotemplate.hooks.RenderHooks), when its own layouts render
    it and it has some blogbuild runs; else None."""
    templates = shortcodes.go
    if not config.markup.render_hooks or templates is None:
        return None
    runnable = templates.runnable_hooks()
    embedded_link = config.markup.embedded_link_hook and "render-link" not in runnable
    if not runnable and not embedded_link:
        return None
    from .hooks import make_render_hooks
    hooks = make_render_hooks(templates, runnable, page,
                              lambda text: render_markdown(str(text), config=config, shortcodes=shortcodes).html)
    hooks.embedded_link = embedded_link
    return hooks


@dataclass(frozen=True)
class _Render:
    """One render of a text without shortcodes: the result, and the tokens and env it came from."""

    rendered: RenderedMarkdown
    md: MarkdownIt
    tokens: list[Token]
    env: dict[str, Any]


def _render_plain(text: str, *, path: str, line_of: Callable[[int], int], restore: Callable[[str], str] | None,
                  config: SiteConfig, used_ids: set[str] | None = None,
                  placeholders: frozenset[str] = frozenset(),
                  placeholder_pattern: re.Pattern[str] | None = None, hooks: Any = None) -> RenderedMarkdown:
    """Markdown to HTML without shortcodes; line_of maps a 0-based text line to a file line."""
    return _render_tokens(text, path=path, line_of=line_of, restore=restore, config=config, used_ids=used_ids,
                          placeholders=placeholders, placeholder_pattern=placeholder_pattern, hooks=hooks).rendered


def _render_tokens(text: str, *, path: str, line_of: Callable[[int], int], restore: Callable[[str], str] | None,
                   config: SiteConfig, used_ids: set[str] | None, placeholders: frozenset[str],
                   placeholder_pattern: re.Pattern[str] | None, hooks: Any = None,
                   replays: list[tuple[Any, ...]] | None = None) -> _Render:
    """_render_plain, keeping the tokens; replays: where the hooks note calls that may run again alone."""
    md = parser(bool(config.cjk_emphasis), config.markup)
    if config.markup.render_hooks:   # Hugo runs a shortcode inside code too: its HTML replaces the placeholder there
        owner = getattr(restore, "__self__", None)
        restore = owner.restore_literals if isinstance(owner, ShortcodeBody) else None
    environment = RenderEnvironment(used_ids=used_ids if used_ids is not None else set(), restore=restore,
                                    placeholder=placeholder_pattern, hooks=hooks)
    env = environment.as_env()
    tokens = md.parse(text, env)
    if placeholders:
        tokens = _lift_block_placeholders(tokens, placeholders)
    lines = text.split("\n")
    has_math, has_mermaid, has_code = _flags_and_warnings(tokens, lines, environment)
    if hooks is not None:
        from .hooks import render_with_hooks
        html = render_with_hooks(md, tokens, env, hooks, line_of, replays)
        math, mermaid = _math_and_mermaid_count(tokens)
        if has_math and environment.hooked_math == math:
            has_math = False   # the site's passthrough hook drew every formula: nothing is left to typeset
        if has_mermaid and environment.hooked_mermaid == mermaid:
            has_mermaid = False   # and its code block hook every diagram: blogbuild's mermaid is not needed
    else:
        html = md.renderer.render(tokens, md.options, env)
    warnings = tuple(SourceWarning(path, line_of(line), message)
                     for line, message in _few_warnings(environment.warnings))
    marks = tuple(replace(mark, line=line_of(mark.line))
                  for mark in source_marks(tokens, lines, environment.restore_text))
    rendered = RenderedMarkdown(html=html, toc=tuple(environment.toc), has_math=has_math, has_mermaid=has_mermaid,
                                has_code=has_code, warnings=warnings, marks=marks)
    return _Render(rendered, md, tokens, env)


# More warnings of one kind in one post say nothing new: the first few show where to look.
MAX_WARNINGS_PER_KIND = 10


def _few_warnings(warnings: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The warnings in line order, each once (a block rule may be tried twice on one line, as a
    paragraph's end and then on its own), at most MAX_WARNINGS_PER_KIND per message, then a count."""
    counts: dict[str, int] = {}
    kept: list[tuple[int, str]] = []
    for line, message in sorted(dict.fromkeys(warnings), key=lambda item: item[0]):
        counts[message] = counts.get(message, 0) + 1
        if counts[message] <= MAX_WARNINGS_PER_KIND:
            kept.append((line, message))
    for message, count in counts.items():
        if count > MAX_WARNINGS_PER_KIND:
            last = max(line for line, text in kept if text == message)
            kept.append((last, f"{count - MAX_WARNINGS_PER_KIND} more warnings like \"{message.split(';')[0]}\" "
                               "are not shown; fix the ones above and build again"))
    return sorted(kept, key=lambda item: item[0])


def _lift_block_placeholders(tokens: list[Token], placeholders: frozenset[str]) -> list[Token]:
    """Take block shortcode placeholders out of their paragraphs, so a <figure> is not inside a <p>."""
    result: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if (token.type == "paragraph_open" and index + 2 < len(tokens)
                and tokens[index + 1].children
                and any(child.type == "text" and child.content.strip() in placeholders
                        for child in tokens[index + 1].children or ())):
            inline = tokens[index + 1]
            closing = tokens[index + 2]
            pieces: list[list[Token]] = [[]]
            for child in inline.children or ():
                if child.type == "text" and child.content.strip() in placeholders:
                    block = Token("html_block", "", 0, content=child.content.strip() + "\n")
                    block.map = inline.map
                    pieces.append([block])
                    pieces.append([])
                else:
                    pieces[-1].append(child)
            for piece in pieces:
                if len(piece) == 1 and piece[0].type == "html_block":
                    result.append(piece[0])
                    continue
                while piece and piece[0].type in ("softbreak", "hardbreak"):
                    piece.pop(0)
                while piece and piece[-1].type in ("softbreak", "hardbreak"):
                    piece.pop()
                if not piece:
                    continue
                new_inline = Token("inline", "", 0, content="", children=piece)
                new_inline.map = inline.map
                new_inline.level = inline.level
                result.extend([token, new_inline, closing])
            index += 3
            continue
        result.append(token)
        index += 1
    return result
