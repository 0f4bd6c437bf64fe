"""A Hugo site's render hooks in a post: its images, links, headings, fenced code blocks, passthrough math,
tables and blockquotes drawn by its `_markup/render-*.html` templates (hugo/gotemplate/hooks.py) instead of
blogbuild's own HTML.

render_with_hooks renders the tokens as markdown-it's renderer does, except that an element with a hook is
handed to it with what Hugo gives its hook: the element's text rendered (other hooks included, a link in
a heading goes through the link hook, a quote inside a quote through the blockquote hook), its plain text,
its attributes and its ordinal on the page. A hook that fails is said once at the element's line and
blogbuild's own HTML stands in for that element.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token

from ..core.page_lookups import set_line
from ..hugo.gotemplate import (BlockquoteContext, CodeblockContext, ContentStore, HeadingContext, HookPosition,
                               ImageContext, LinkContext, PageInfo, PassthroughContext, RenderHooks, TableCell,
                               TableContext, render)
from .code import fence_language, markup_of
from .code_attributes import UNPARSED_ATTRIBUTES, code_block_attributes
from .environment import environment_of
from .tokens import closing_index

# Hugo's highlighting options: in a code block's {…} they are the hook's .Options, the rest its .Attributes.
# Bytes markdown-it percent-encodes in a link that Hugo passes as written: those of non-ASCII characters.
_ENCODED_UTF8 = re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+")
# Hugo's test of a blockquote's rendered HTML for an alert: [!TYPE], a fold sign, a title (Go's [^\S\r\n] is
# a space, a tab or a form feed).
_ALERT = re.compile(r"<p>\[!([a-zA-Z]+)\](-|\+)?[ \t\f]?([^\n]*)\n?")


def make_render_hooks(templates: Any, runnable: Mapping[str, Any], page: Any,
                      markdownify: Callable[[str], str]) -> RenderHooks:
    """One page's render hooks: templates is the site's GoTemplates, runnable the hooks it can run, page the
    page as its shortcodes see it (.Page), markdownify what a hook's markdownify renders with."""
    state = templates.state(markdownify)
    shown = replace(page or PageInfo(), site_info=templates.site)
    # The page's one Store: what its shortcodes write, its hooks read and write, as in Hugo.
    store = page.store if page is not None else ContentStore()
    return RenderHooks(runnable, lambda source, dot: render(source, dot, state), shown, store)


def render_with_hooks(md: MarkdownIt, tokens: Sequence[Token], env: dict[str, Any], hooks: RenderHooks,
                      line_of: Callable[[int], int] = lambda line: line + 1,
                      replays: list[tuple[Any, ...]] | None = None) -> str:
    """The HTML of a body's block tokens, with the site's render hooks; line_of maps a 0-based line of the text
    to its line in the file (a table's and a blockquote's .Position). replays: where to note each code block
    and block formula whose hook read a key of the page's Store that was not there and wrote none (HookReplay
    records, and the reads of each: see replay_hooks)."""
    return _Renderer(md, env, hooks, line_of, replays).block(tokens)


# A hook call kept to run again alone (Post.hook_replays): (kind, qualifier, ordinal, .Type, .Inner, .Options
# pairs, .Attributes pairs, .Position, its highlights, what it drew as drawn_key gives it). kind is "codeblock" or
# "passthrough"; each highlight is (its key, where its HTML starts in what the call drew, its length): the HTML of a
# transform.Highlight the call made, which the call run again is given instead of highlighting the code again.
HookReplay = tuple[str, str, int, str, str, tuple[Any, ...], tuple[Any, ...], str, tuple[tuple[str, int, int], ...],
                   tuple[str, int, str]]


def drawn_key(html: str) -> tuple[str, int, str]:
    """What a post keeps of a hook call's HTML to find it in its content: its start, its length and a digest."""
    return html[:64], len(html), hashlib.blake2b(html.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def find_drawn(html: str, key: tuple[str, int, str], start: int) -> int:
    """Where the HTML drawn_key gave key for begins in html at or after start; -1 when it is not there."""
    prefix, length, _digest = key
    at = html.find(prefix, start)
    while at >= 0:
        if drawn_key(html[at:at + length]) == key:
            return at
        at = html.find(prefix, at + 1)
    return -1


def replay_hooks(replays: Sequence[HookReplay], hooks: RenderHooks,
                 highlighted: Sequence[Mapping[str, str]] = ()) -> list[str] | None:
    """What each kept hook call draws now, run alone with hooks (the page's, whose Store is as its layouts have
    set it, sealed), given the HTML of the highlights it made before (highlighted: by key, for each call): None
    when one cannot run or would write to the Store (then only rendering the whole content again gives what Hugo
    gives)."""
    from ..hugo.gotemplate import HIGHLIGHTS
    drawn: list[str] = []
    for index, (kind, qualifier, ordinal, type_, inner, options, attributes, position, _highlights,
                _drawn) in enumerate(replays):
        source = hooks.find(f"render-{kind}", qualifier)
        if source is None:
            return None
        if kind == "codeblock":
            context: Any = CodeblockContext(Page=hooks.hook_page(), Ordinal=ordinal, Type=type_, Inner=inner,
                                            options=options, attributes=attributes, Position=position)
        else:
            context = PassthroughContext(Page=hooks.hook_page(), Ordinal=ordinal, Type=type_, Inner=inner)
        given = HIGHLIGHTS.given
        HIGHLIGHTS.given = dict(highlighted[index]) if index < len(highlighted) else None
        try:
            drawn.append(hooks.render(source, context))
        except Exception:  # noqa: BLE001 - a write to the sealed Store, or a failure: the whole content again
            return None
        finally:
            HIGHLIGHTS.given = given
    return drawn


class _Renderer:
    def __init__(self, md: MarkdownIt, env: dict[str, Any], hooks: RenderHooks,
                 line_of: Callable[[int], int], replays: list[tuple[Any, ...]] | None = None) -> None:
        self.md = md
        self.renderer: Any = md.renderer   # markdown-it's RendererHTML (its protocol names no rules)
        self.options = md.options
        self.env = env
        self.hooks = hooks
        self.line_of = line_of
        self.line = 0    # the 0-based line of the block being drawn: an inline element's line in messages
        self.tables = hooks.has("render-table")
        self.quotes = hooks.has("render-blockquote")
        self.replays = replays
        self.enclosed = 0   # > 0 while drawing what a blockquote's hook is given: its calls are not kept alone

    def block(self, tokens: Sequence[Token]) -> str:
        out: list[str] = []
        index = 0
        while index < len(tokens):
            token = tokens[index]
            kind = token.type
            if kind == "heading_open" and index + 2 < len(tokens) and tokens[index + 1].type == "inline":
                drawn = self._heading(token, tokens[index + 1])
                if drawn is not None:
                    out.append(drawn)
                    index += 3
                    continue
            elif kind == "fence":
                drawn = self._codeblock(token)
                if drawn is not None:
                    out.append(drawn)
                    index += 1
                    continue
            elif kind == "math_block":
                drawn = self._passthrough(token, "block")
                if drawn is not None:
                    out.append(drawn)
                    index += 1
                    continue
            elif (kind == "table_open" and self.tables) or (kind == "blockquote_open" and self.quotes):
                close = closing_index(tokens, index)
                out.append(self._table(tokens, index, close) if kind == "table_open"
                           else self._blockquote(tokens, index, close))
                index = close + 1
                continue
            out.append(self._token(tokens, index))
            index += 1
        return "".join(out)

    def _token(self, tokens: Sequence[Token], index: int) -> str:
        """One block token drawn as markdown-it draws it (an inline token's elements through their hooks)."""
        token = tokens[index]
        if token.type == "inline":
            if not token.children:
                return ""
            self.line = token.map[0] if token.map else self.line
            return self.inline(token.children)
        if token.type in self.renderer.rules:
            return str(self.renderer.rules[token.type](tokens, index, self.options, self.env))
        return str(self.renderer.renderToken(tokens, index, self.options, self.env))

    def inline(self, tokens: Sequence[Token]) -> str:
        out: list[str] = []
        index = 0
        while index < len(tokens):
            token = tokens[index]
            kind = token.type
            drawn: str | None = None
            if kind in ("softbreak", "hardbreak"):
                self.line += 1   # the next element is on the paragraph's next line
            if kind == "link_open":
                close = _closing(tokens, index)
                drawn = self._link(token, tokens[index + 1:close])
                if drawn is not None:
                    out.append(drawn)
                    index = close + 1
                    continue
            elif kind == "image":
                drawn = self._image(token)
            elif kind in ("math_inline", "math_display_inline"):
                drawn = self._passthrough(token, "inline" if kind == "math_inline" else "block")
            if drawn is not None:
                out.append(drawn)
            elif kind in self.renderer.rules:
                out.append(self.renderer.rules[kind](tokens, index, self.options, self.env))
            else:
                out.append(self.renderer.renderToken(tokens, index, self.options, self.env))
            index += 1
        return "".join(out)

    # ---- the elements -------------------------------------------------------------------------------
    def _link(self, token: Token, children: Sequence[Token]) -> str | None:
        source = self.hooks.find("render-link")
        if source is None:
            return self._embedded_link(token, children) if self.hooks.embedded_link else None
        context = LinkContext(Page=self.hooks.hook_page(), Destination=_destination(token.attrGet("href")),
                                       Title=str(token.attrGet("title") or ""), text=self.inline(children),
                                       PlainText=_plain(children))
        return self._draw(source, context, token)

    def _embedded_link(self, token: Token, children: Sequence[Token]) -> str | None:
        """Hugo's own link hook where it differs from plain markdown: a link to a fragment of the page itself
        names the page (`#x` is `/posts/p/#x`); content paths are resolved later, for every site
        (content/links.py)."""
        href = str(token.attrGet("href") or "")
        if not href.startswith("#"):
            return None
        title = token.attrGet("title")
        shown = f' title="{escapeHtml(str(title))}"' if title else ""
        return f'<a href="{escapeHtml(self.hooks.page.RelPermalink + href)}"{shown}>{self.inline(children)}</a>'

    def _image(self, token: Token) -> str | None:
        source = self.hooks.find("render-image")
        if source is None:
            return None
        children = token.children or []
        attributes = tuple((name, value) for name, value in token.attrs.items() if name not in ("src", "alt", "title"))
        context = ImageContext(Page=self.hooks.hook_page(), Ordinal=self.hooks.next_ordinal("image"),
                                        Destination=_destination(token.attrGet("src")),
                                        Title=str(token.attrGet("title") or ""), text=self.inline(children),
                                        PlainText=_plain(children), attributes=attributes,
                                        IsBlock=bool(token.meta.get("block")))
        return self._draw(source, context, token)

    def _heading(self, token: Token, inline: Token) -> str | None:
        source = self.hooks.find("render-heading")
        if source is None:
            return None
        self.line = token.map[0] if token.map else self.line
        children = inline.children or []
        anchor = str(token.attrGet("id") or "")
        context = HeadingContext(Page=self.hooks.hook_page(), Level=int(token.tag[1:]), Anchor=anchor,
                                          text=self.inline(children), PlainText=_plain(children),
                                          attributes=tuple(token.attrs.items()))
        return self._draw(source, context, token)

    def _codeblock(self, token: Token) -> str | None:
        if not markup_of(self.options).code_fences:   # Hugo's codeFences = false: no code block hook runs
            return None
        language = fence_language(token.info)
        source = self.hooks.find("render-codeblock", language)
        ordinal = self.hooks.next_ordinal("codeblock")
        if language == "goat" and source is not None and source is self.hooks.find("render-codeblock"):
            source = None   # Hugo's embedded goat hook comes before the site's hook of every language (code.py)
        if source is None:
            return None
        parsed = code_block_attributes(token.info)
        if parsed is None:
            environment_of(self.env).warn(token.map[0] if token.map else 0, UNPARSED_ATTRIBUTES)
        options, attributes = parsed if parsed is not None else ([], [])
        code = environment_of(self.env).restore_text(token.content)
        line = (token.map[0] + 1) if token.map else 0
        context = CodeblockContext(Page=self.hooks.hook_page(), Ordinal=ordinal, Type=language,
                                            Inner=code.rstrip("\n\r"), options=tuple(options),
                                            attributes=tuple(attributes),
                                            Position=f"{self.hooks.page.file_path}:{line}:1")
        counts = self._store_counts()
        noting = self.replays is not None and not self.enclosed
        if noting:
            from ..hugo.gotemplate import HIGHLIGHTS
            noted, HIGHLIGHTS.noted = HIGHLIGHTS.noted, []
        try:
            drawn = self._draw(source, context, token)
        finally:
            if noting:
                highlights, HIGHLIGHTS.noted = HIGHLIGHTS.noted or [], noted
        kept = () if not noting or drawn is None else _highlights_in(drawn, highlights)
        self._keep_replay(counts, drawn, ("codeblock", language, ordinal, language, context.Inner, context.options,
                                          context.attributes, context.Position, kept))
        if drawn is not None and language.lower() == "mermaid":
            environment_of(self.env).hooked_mermaid += 1
        return drawn

    def _store_counts(self) -> tuple[int, int]:
        """The page's Store's reads of missing keys and writes so far (ContentStore)."""
        store = self.hooks.store
        return getattr(store, "misses", 0), getattr(store, "writes", 0)

    def _keep_replay(self, before: tuple[int, int], drawn: str | None, call: tuple[Any, ...]) -> None:
        """Keep a hook call to run again alone when it read a Store key that was not there (the page's layouts
        may set it before Hugo renders the content), wrote nothing there, drew its element, and is not inside
        what another hook is given; with the count of its reads, which render.py checks against the Store's."""
        misses, writes = self._store_counts()
        if self.replays is None or misses == before[0] or writes != before[1] or drawn is None or self.enclosed:
            return
        self.replays.append((*call, drawn_key(drawn), misses - before[0]))

    def _passthrough(self, token: Token, kind: str) -> str | None:
        if token.markup in markup_of(self.options).goldmark_math:
            return None   # math goldmark parses itself: no passthrough element, no hook
        source = self.hooks.find("render-passthrough", kind)
        if source is None:
            return None
        raw = token.meta.get("raw") if isinstance(token.meta, dict) else None
        inner = environment_of(self.env).restore_text(raw if isinstance(raw, str) else token.content)
        context = PassthroughContext(Page=self.hooks.hook_page(), Ordinal=self.hooks.next_ordinal("passthrough"),
                                              Type=kind, Inner=inner)
        counts = self._store_counts()
        drawn = self._draw(source, context, token)
        if token.type == "math_block":   # a block of its own: its HTML stands alone in the page's
            self._keep_replay(counts, drawn, ("passthrough", kind, context.Ordinal, kind, inner, (), (), "", ()))
        if drawn is not None:
            environment_of(self.env).hooked_math += 1
        return drawn

    def _table(self, tokens: Sequence[Token], start: int, close: int) -> str:
        """A table through render-table.html: its rows of cells, each cell's text rendered as it is in place."""
        opening = tokens[start]
        self.line = opening.map[0] if opening.map else self.line
        head: list[list[TableCell]] = []
        body: list[list[TableCell]] = []
        rows, alignment = head, ""
        texts: dict[int, str] = {}     # the index of each cell's inline token -> its HTML
        for index in range(start + 1, close):
            token = tokens[index]
            if token.type in ("thead_open", "tbody_open"):
                rows = head if token.type == "thead_open" else body
            elif token.type == "tr_open":
                rows.append([])
            elif token.type in ("th_open", "td_open"):
                # A cell its row left out has no alignment in goldmark (block_places.py marks it).
                style = "" if token.meta.get("filled") else str(token.attrGet("style") or "")
                alignment = style.removeprefix("text-align:").strip()
            elif token.type == "inline" and rows:
                texts[index] = self._token(tokens, index)
                rows[-1].append(TableCell(Alignment=alignment, text=texts[index]))
        ordinal = self.hooks.next_ordinal("table")
        source = self.hooks.find("render-table")
        context = TableContext(Page=self.hooks.hook_page(), Ordinal=ordinal,
                               head=tuple(tuple(row) for row in head), body=tuple(tuple(row) for row in body),
                               attributes=tuple(opening.attrs.items()), Position=self._position(opening))
        drawn = self._draw(source, context, opening) if source is not None else None
        if drawn is not None:
            return _after_hidden(tokens, start) + drawn
        return "".join(texts[index] if index in texts else self._token(tokens, index)
                       for index in range(start, close + 1))

    def _blockquote(self, tokens: Sequence[Token], start: int, close: int) -> str:
        """A blockquote through render-blockquote[-alert|-regular].html, given its inner HTML (quotes inside it
        drawn first, so they have the lower ordinals, as in Hugo) and, for an alert, what Hugo reads of it."""
        opening = tokens[start]
        self.enclosed += 1
        try:
            inner = self.block(tokens[start + 1:close])
        finally:
            self.enclosed -= 1
        ordinal = self.hooks.next_ordinal("blockquote")
        self.line = opening.map[0] if opening.map else self.line
        # One of blogbuild's own alerts (markdown/alerts.py: the site has no hook for alerts) stays as it is.
        source, alert = None, None
        if opening.tag == "blockquote":
            alert = _ALERT.match(inner.strip())
            source = self.hooks.find("render-blockquote", "alert" if alert else "regular")
        drawn = None
        if source is not None:
            page, attributes, position = self.hooks.hook_page(), tuple(opening.attrs.items()), self._position(opening)
            if alert is None:
                context = BlockquoteContext(Page=page, Ordinal=ordinal, Type="regular", text=inner,
                                            attributes=attributes, Position=position)
            else:
                context = BlockquoteContext(Page=page, Ordinal=ordinal, Type="alert", text=_alert_text(inner),
                                            AlertType=alert.group(1).lower(),
                                            title=alert.group(3).strip().removesuffix("</p>"),
                                            AlertSign=alert.group(2) or "", attributes=attributes, Position=position)
            drawn = self._draw(source, context, opening)
        if drawn is not None:
            return _after_hidden(tokens, start) + drawn
        return self._token(tokens, start) + inner + self._token(tokens, close)

    def _position(self, token: Token) -> HookPosition:
        """Where a block starts in the page's file (block_places.py records its column)."""
        line = self.line_of(token.meta.get("position_line", token.map[0])) if token.map else 0
        return HookPosition(Filename=self.hooks.page.file_path, LineNumber=line,
                            ColumnNumber=int(token.meta.get("column", 1)))

    def _draw(self, source: Any, context: Any, token: Token) -> str | None:
        set_line(self.line_of(token.map[0] if token.map else self.line))   # a page it names: the marker's line
        try:
            return self.hooks.render(source, context)
        except Exception as error:  # noqa: BLE001 - a hook that fails draws nothing; blogbuild's HTML stands in
            line = token.map[0] if token.map else self.line
            said = str(error) or type(error).__name__
            environment_of(self.env).warn(line, f"{source.path}: {said}; blogbuild's own HTML is used for this "
                                                "element (see docs/go-templates.md)")
            return None


def _highlights_in(drawn: str, highlights: Sequence[tuple[str, str]]) -> tuple[tuple[str, int, int], ...]:
    """Each highlight a hook call made whose HTML stands as it is in what the call drew: (its key, where it first
    stands, its length); one whose HTML the call changed is left out, and the call run again highlights it anew."""
    kept = []
    for key, html in highlights:
        at = drawn.find(html) if html else -1
        if at >= 0:
            kept.append((key, at, len(html)))
    return tuple(kept)


def _after_hidden(tokens: Sequence[Token], index: int) -> str:
    """The line break markdown-it (and goldmark) writes before a block that follows a tight list item's text."""
    return "\n" if index and tokens[index - 1].hidden else ""


def _alert_text(inner: str) -> str:
    """An alert's HTML without its first line, as Hugo gives it: the paragraph the marker opened stays open
    when the marker line was not all of it."""
    before, found, after = inner.strip().partition("\n")
    if not found:
        return ""
    return after if before.endswith("</p>") else "<p>" + after


def _closing(tokens: Sequence[Token], index: int) -> int:
    """The index of the link_close that ends the link opened at index."""
    depth = 0
    for position in range(index, len(tokens)):
        kind = tokens[position].type
        if kind == "link_open":
            depth += 1
        elif kind == "link_close":
            depth -= 1
            if depth == 0:
                return position
    return len(tokens) - 1


def _plain(tokens: Sequence[Token]) -> str:
    """An element's text as Hugo's .PlainText gives it: the text and code, without markup or raw HTML."""
    out: list[str] = []
    for token in tokens:
        if token.type in ("text", "code_inline"):
            out.append(token.content)
        elif token.type == "image":
            out.append(_plain(token.children or []))
        elif token.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif token.children:
            out.append(_plain(token.children))
    return "".join(out)


def _destination(href: Any) -> str:
    """A link's destination as written: markdown-it percent-encodes non-ASCII characters, Hugo does not. The
    parser keeps what was written (parser.WrittenURL); a URL made otherwise has its UTF-8 escapes decoded."""
    written = getattr(href, "written", None)
    if isinstance(written, str):
        return written
    text = str(href or "")
    if "%" not in text:
        return text

    def decoded(match: re.Match[str]) -> str:
        try:
            return bytes.fromhex(match.group(0).replace("%", "")).decode("utf-8")
        except UnicodeDecodeError:
            return match.group(0)
    return _ENCODED_UTF8.sub(decoded, text)
