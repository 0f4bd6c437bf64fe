"""What Hugo writes differently from markdown-it, for a Hugo site its own layouts render. Footnotes as goldmark
writes them: `<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup>`, and at the
end `<div class="footnotes" role="doc-endnotes"><hr><ol><li id="fn:1">…&#160;<a href="#fnref:1"
class="footnote-backref" role="doc-backlink">&#x21a9;&#xfe0e;</a></li></ol></div>` (markdown-it's footnote plugin
parses them; these rules draw them); a table cell's alignment as Hugo's embedded table hook writes it
(`style="text-align: center"`)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it.rules_core import StateCore
from markdown_it.token import Token


def _number(tokens: Sequence[Token], index: int) -> str:
    return str(tokens[index].meta["id"] + 1)


def _reference_id(tokens: Sequence[Token], index: int) -> str:
    """A reference's id: fnref:N, a later reference to the same note fnrefK:N, as goldmark numbers them."""
    sub = tokens[index].meta.get("subId", -1)
    return f"fnref{sub if sub > 0 else ''}:{_number(tokens, index)}"


def render_reference(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    number = _number(tokens, index)
    return (f'<sup id="{_reference_id(tokens, index)}"><a href="#fn:{number}" class="footnote-ref" '
            f'role="doc-noteref">{number}</a></sup>')


def render_block_open(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    return '<div class="footnotes" role="doc-endnotes">\n<hr>\n<ol>\n'


def render_block_close(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    return "</ol>\n</div>\n"


def render_open(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    return f'<li id="fn:{_number(tokens, index)}">\n'


def render_close(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    return "</li>\n"


def render_backlink(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any, env: Any) -> str:
    return (f'&#160;<a href="#{_reference_id(tokens, index)}" class="footnote-backref" '
            'role="doc-backlink">&#x21a9;&#xfe0e;</a>')


FOOTNOTE_RULES = (("footnote_ref", render_reference), ("footnote_block_open", render_block_open),
                  ("footnote_block_close", render_block_close), ("footnote_open", render_open),
                  ("footnote_close", render_close), ("footnote_anchor", render_backlink))


def render_strikethrough_open(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any,
                              env: Any) -> str:
    return "<del>"   # goldmark's strikethrough element (markdown-it writes <s>)


def render_strikethrough_close(renderer: Any, tokens: Sequence[Token], index: int, render_options: Any,
                               env: Any) -> str:
    return "</del>"


STRIKETHROUGH_RULES = (("s_open", render_strikethrough_open), ("s_close", render_strikethrough_close))


def table_alignment(state: StateCore) -> None:
    """A table cell's alignment as Hugo's embedded table hook writes it: style="text-align: center"."""
    for token in state.tokens:
        if token.type == "inline" or not token.type.startswith(("th_", "td_")):
            continue
        style = token.attrGet("style")
        if isinstance(style, str) and style.startswith("text-align:") and not style.startswith("text-align: "):
            token.attrSet("style", "text-align: " + style.removeprefix("text-align:"))
