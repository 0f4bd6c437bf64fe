"""Footnotes as goldmark writes them, for a Hugo site its own layouts render: the reference `<sup id="fnref:1">`
with a `footnote-ref` link, the notes in `<div class="footnotes" role="doc-endnotes">` after an `<hr>`, each
`<li id="fn:1">` ending in a `footnote-backref` link (markdown-it's plugin writes its own classes and ids)."""
from __future__ import annotations

from collections.abc import Sequence

from markdown_it.renderer import RendererProtocol
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict


def _number(token: Token) -> int:
    return int(token.meta["id"]) + 1


def footnote_ref(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                 env: EnvType) -> str:
    """The reference: goldmark's ids (fnref:N, then fnrefK:N for the note's K-th other reference)."""
    token = tokens[index]
    number, again = _number(token), int(token.meta.get("subId", 0))
    own = f"fnref:{number}" if again == 0 else f"fnref{again}:{number}"
    return (f'<sup id="{own}"><a href="#fn:{number}" class="footnote-ref" role="doc-noteref">{number}</a>'
            "</sup>")


def footnote_block_open(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                        env: EnvType) -> str:
    return '<div class="footnotes" role="doc-endnotes">\n<hr>\n<ol>\n'


def footnote_block_close(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                         env: EnvType) -> str:
    return "</ol>\n</div>\n"


def footnote_open(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                  env: EnvType) -> str:
    return f'<li id="fn:{_number(tokens[index])}">\n'


def footnote_anchor(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                    env: EnvType) -> str:
    token = tokens[index]
    number, again = _number(token), int(token.meta.get("subId", 0))
    back = f"fnref:{number}" if again == 0 else f"fnref{again}:{number}"
    return f'&#160;<a href="#{back}" class="footnote-backref" role="doc-backlink">&#x21a9;&#xfe0e;</a>'


# The render rules a Hugo site's own layouts get instead of the plugin's.
GOLDMARK_FOOTNOTE_RULES = (("footnote_ref", footnote_ref), ("footnote_block_open", footnote_block_open),
                           ("footnote_block_close", footnote_block_close), ("footnote_open", footnote_open),
                           ("footnote_anchor", footnote_anchor))
