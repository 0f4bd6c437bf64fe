"""The tree text.py measures, built from the token stream of a render instead of by parsing its HTML.

Elements markdown-it writes with its default rule (paragraphs, lists, emphasis, links, tables ...),
text, breaks, inline code, math and highlighted code go into the tree directly; any other token
(raw HTML, footnotes, images, a plugin's rule, text holding a shortcode) is rendered by its own rule
and read as HTML into the same tree. The result is the tree of the page's HTML (tests compare them
on whole corpora), without parsing most of it.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType

from ..content.text import TextTreeBuilder
from . import code, math, typography
from .environment import environment_of

_MATH_CLASSES = {math.render_math_inline: "math inline", math.render_math_display_inline: "math display"}
# markdown-it's own rules for these (a site's parser could replace them: then they go in as HTML).
_TEXT = RendererHTML.text
# A Hugo site's text rule writes the typographer's characters as goldmark's entities: the text read is the same.
_TEXT_RULES = (_TEXT, typography.render_text)
# What Chroma's inline-styled line numbers (noClasses) carry, in both the inline and the table layout.
_INLINE_STYLED_NUMBERS = "user-select:none"
_SOFTBREAK = RendererHTML.softbreak
_HARDBREAK = RendererHTML.hardbreak
_LIST_ITEM = getattr(RendererHTML, "list_item_open", None)


def _function_of(rule: Any) -> Any:
    """The plain function behind a renderer rule (they are stored as bound methods)."""
    return getattr(rule, "__func__", rule)


class TextTreeWalker:
    """Feeds one render's tokens into a TextTreeBuilder."""

    def __init__(self, md: MarkdownIt, env: EnvType, builder: TextTreeBuilder,
                 substitute: Callable[[str], str] | None = None) -> None:
        # The parser (parser.py) renders with markdown-it's RendererHTML, whose rules this reads.
        self.renderer = cast(RendererHTML, md.renderer)
        self.rules = self.renderer.rules
        self.options = md.options
        self.env = env
        self.builder = builder
        self.environment = environment_of(env)
        self.substitute = substitute
        # Where shortcode placeholders may be: a token holding one goes in as HTML, substituted.
        self.placeholder = self.environment.placeholder if substitute is not None else None
        self.xhtml = bool(self.options["xhtmlOut"])
        self.functions = {name: _function_of(rule) for name, rule in self.rules.items()}
        # markdown-it's list item rule writes what renderToken writes, plus a checkbox (as HTML) on
        # the task items the tasklists plugin marks.
        self.task_item_rule = _LIST_ITEM if self.functions.get("list_item_open") is _LIST_ITEM else None

    def html(self, html: str) -> None:
        """A piece of the page as HTML, with shortcodes' HTML in place of their placeholders."""
        self.builder.html(self.substitute(html) if self.substitute is not None else html)

    def rendered(self, tokens: Sequence[Token], index: int) -> str:
        """The HTML the renderer writes for one token."""
        kind = tokens[index].type
        if kind in self.rules:
            return self.rules[kind](tokens, index, self.options, self.env)
        return self.renderer.renderToken(tokens, index, self.options, self.env)

    def walk(self, tokens: Sequence[Token]) -> None:
        """The block tokens of a render, in order."""
        builder = self.builder
        functions = self.functions
        for index, token in enumerate(tokens):
            kind = token.type
            if kind == "inline":
                if token.children:
                    self.inline(token.children)
            elif builder.pending:
                self.html(self.rendered(tokens, index))
            elif kind not in functions or (functions[kind] is self.task_item_rule
                                           and "checked" not in (token.meta or {})):
                self.default(tokens, index)
            else:
                self.block(tokens, index)

    def block(self, tokens: Sequence[Token], index: int) -> None:
        """One block token that has a render rule."""
        token = tokens[index]
        function = self.functions[token.type]
        builder = self.builder
        if function is code.render_fence:
            rendered = token.meta.get("fence") if isinstance(token.meta, dict) else None
            html, text = rendered if rendered is not None else code.fence_html_and_text(
                self.environment.restore_text(token.content), token.info, code.markup_of(self.options))
            if html.startswith("\n"):   # after a tight list item's text, on a Hugo site
                builder.text("\n")
                html = html[1:]
            if html.endswith("\n"):
                builder.code(html[:-1], text)
                builder.text("\n")
            elif (html.startswith('<div class="highlight') and code.markup_of(self.options).render_hooks
                  and _INLINE_STYLED_NUMBERS not in html):
                # Chroma's block as Hugo writes it: no line break after it. Its line numbers are text only
                # where they carry no ln/lnt class (inline styles): then it is parsed.
                builder.code(html, text)
            else:
                self.html(html)
        elif function is code.render_code_block:
            builder.start("pre", [])
            builder.start("code", [])
            builder.text(self.environment.restore_text(token.content))
            builder.end("code")
            builder.end("pre")
            builder.text("\n")
        elif function is math.render_math_block:
            builder.start("div", [("class", "math display")])
            builder.text(self.environment.restore_text(token.content))
            builder.end("div")
            builder.text("\n")
        else:
            self.html(self.rendered(tokens, index))

    def inline(self, children: Sequence[Token]) -> None:
        """The inline tokens of one block."""
        builder = self.builder
        functions = self.functions
        placeholder = self.placeholder
        restore_text = self.environment.restore_text
        for index, child in enumerate(children):
            function = functions.get(child.type)
            if builder.pending:
                self.html(self.rendered(children, index))
            elif function in _TEXT_RULES:
                if placeholder is not None and placeholder.search(child.content):
                    self.html(escapeHtml(child.content))
                else:
                    builder.text(child.content)
            elif function is None:
                self.default(children, index)
            elif function is _SOFTBREAK and not self.options["breaks"]:
                builder.text("\n")
            elif function is _HARDBREAK:
                builder.start("br", [], self_closing=self.xhtml)
                builder.text("\n")
            elif function is code.render_code_inline:
                builder.start("code", [])
                builder.text(restore_text(child.content))
                builder.end("code")
            elif function in _MATH_CLASSES:
                builder.start("span", [("class", _MATH_CLASSES[function])])
                builder.text(restore_text(child.content))
                builder.end("span")
            else:
                self.html(self.rendered(children, index))

    def default(self, tokens: Sequence[Token], index: int) -> None:
        """A token markdown-it's renderToken writes: a tag with its attributes, and the newlines
        it puts around block tags."""
        token = tokens[index]
        if token.hidden:
            return
        if not token.tag:
            self.html(self.rendered(tokens, index))   # "<>": html.parser reads it as text
            return
        attrs: list[tuple[str, str | None]] = []
        if token.attrs:
            attrs = [(str(name).lower(), value if type(value) is str else str(value))
                     for name, value in token.attrs.items()]
            if self.placeholder is not None and any(self.placeholder.search(value or "") for _, value in attrs):
                self.html(self.rendered(tokens, index))
                return
        builder = self.builder
        nesting = token.nesting
        block = token.block
        if block and nesting != -1 and index and tokens[index - 1].hidden:
            builder.text("\n")
        tag = token.tag
        if not tag.islower():
            tag = tag.lower()
        if nesting == -1:
            builder.end(tag)
        else:
            builder.start(tag, attrs, self_closing=nesting == 0 and self.xhtml)
        if block:
            # renderToken's newline after a block tag: not before inline content, a hidden paragraph
            # or the element's own end tag.
            if nesting == 1 and index + 1 < len(tokens):
                following = tokens[index + 1]
                if (following.type == "inline" or following.hidden
                        or (following.nesting == -1 and following.tag == token.tag)):
                    return
            builder.text("\n")
