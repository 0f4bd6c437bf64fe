"""The parser set-up: markdown-it with our rules, written as ordered tables of changes to its rule chains."""
from __future__ import annotations

import functools
from typing import Any, Callable

from markdown_it import MarkdownIt
from markdown_it.rules_block import html_block as html_block_rule
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import emphasis as emphasis_rule
from markdown_it.rules_inline import strikethrough as strikethrough_rule
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from ..config.markup import MarkupConfig
from . import (
    alerts,
    attributes,
    block_places,
    cjk,
    code,
    emoji,
    gates,
    goldmark,
    headings,
    html_math,
    linkify,
    math,
    nesting,
    raw_html,
    typography,
)
from .environment import environment_of
from ..core.records import dataclass


def _parse_inlines(state: StateCore) -> None:
    """markdown-it's inline core rule, remembering each block's line for inline warnings."""
    environment = environment_of(state.env)
    for token in state.tokens:
        if token.type == "inline":
            if token.children is None:
                token.children = []
            environment.inline_line = token.map[0] if token.map else None
            state.md.inline.parse(token.content, state.md, state.env, token.children)
    environment.inline_line = None


@dataclass(frozen=True)
class RuleChange:
    """One change to a markdown-it rule chain.

    action: "before" or "after" (insert function as name beside anchor), "at" (replace the rule name),
    "push" (append at the end), or "wrap" (replace the rule name by function(the rule)).
    alt: the other chains the rule also ends (markdown-it's "terminator" lists).
    """

    chain: str                          # "block", "inline", "inline2" (post-processing) or "core"
    action: str
    name: str
    function: Callable[..., Any]
    anchor: str = ""
    alt: tuple[str, ...] = ()


# In order. The gates wrap the rule in place when the table runs, so they come after any rule
# they would gate is replaced.
RULES: tuple[RuleChange, ...] = (
    RuleChange("inline", "before", "math_inline", math.math_inline, anchor="escape"),
    RuleChange("block", "before", "math_block", math.math_block, anchor="fence",
               alt=("paragraph", "reference", "blockquote", "list")),
    RuleChange("block", "at", "paragraph", math.paragraph),
    RuleChange("block", "wrap", "table", math.keep_math_pipes),
    RuleChange("block", "wrap", "table", block_places.table_places),
    RuleChange("block", "wrap", "blockquote", block_places.blockquote_places),
    RuleChange("block", "at", "html_block", raw_html.guard_html_block(html_block_rule),
               alt=("paragraph", "reference", "blockquote")),
    *(RuleChange("block", "wrap", name, functools.partial(gates.gated_by_first_character, characters=characters))
      for name, characters in gates.FIRST_CHARACTERS.items()),
    RuleChange("block", "wrap", "table", gates.gated_table),
    *(RuleChange("inline2", "wrap", name, gates.with_delimiters_only)
      for name in ("balance_pairs", "strikethrough", "emphasis")),
    RuleChange("core", "at", "inline", _parse_inlines),
    RuleChange("core", "before", "github_alerts", alerts.alerts, anchor="inline"),
    RuleChange("core", "at", "replacements", typography.hugo_replacements),
    RuleChange("core", "after", "image_typography", typography.image_typography, anchor="smartquotes"),
    RuleChange("core", "before", "heading_sources", headings.remember_untyped_texts, anchor="replacements"),
    RuleChange("core", "before", "heading_texts", headings.remember_heading_texts, anchor="text_join"),
    RuleChange("core", "push", "heading_ids", headings.heading_ids),
    RuleChange("core", "push", "raw_html", raw_html.check_raw_html),
    RuleChange("core", "push", "raw_html_math", html_math.math_in_html_blocks),
)

# Without hard wraps: a line break between two CJK characters is no space.
SOFT_WRAP_RULES: tuple[RuleChange, ...] = (
    RuleChange("core", "before", "cjk_softbreak", cjk.join_cjk_softbreaks, anchor="heading_ids"),
)

# With cjk_emphasis on: emphasis and strikethrough delimiters beside CJK punctuation.
CJK_EMPHASIS_RULES: tuple[RuleChange, ...] = (
    RuleChange("inline", "at", "emphasis", cjk.with_cjk_scan(emphasis_rule.tokenize)),
    RuleChange("inline", "at", "strikethrough", cjk.with_cjk_scan(strikethrough_rule.tokenize)),
)

# Token type -> its HTML.
RENDER_RULES: tuple[tuple[str, Callable[..., str]], ...] = (
    ("math_inline", math.render_math_inline),
    ("math_display_inline", math.render_math_display_inline),
    ("math_block", math.render_math_block),
    ("fence", code.render_fence),
    ("code_block", code.render_code_block),
    ("code_inline", code.render_code_inline),
    ("emoji", emoji.render_emoji),
)


def _apply(md: MarkdownIt, change: RuleChange) -> None:
    """Make one change to the chain it names."""
    ruler: Any = {"block": md.block.ruler, "inline": md.inline.ruler, "inline2": md.inline.ruler2,
                  "core": md.core.ruler}[change.chain]
    options = {"alt": list(change.alt)} if change.alt else None
    if change.action == "before":
        ruler.before(change.anchor, change.name, change.function, options)
    elif change.action == "after":
        ruler.after(change.anchor, change.name, change.function, options)
    elif change.action == "at":
        ruler.at(change.name, change.function, options)
    elif change.action == "push":
        ruler.push(change.name, change.function, options)
    elif change.action == "wrap":
        gates.wrap_rule(ruler, change.name, change.function)
    else:
        raise ValueError(f"unknown rule action {change.action!r}")


def _markup_rules(markup: MarkupConfig) -> tuple[RuleChange, ...]:
    """The rule changes a site's markup settings ask for."""
    changes: list[RuleChange] = []
    if markup.block_attributes or markup.title_attributes:
        changes.append(RuleChange("core", "before", "attributes",
                                  attributes.attributes_rule(markup.block_attributes, markup.title_attributes),
                                  anchor="github_alerts"))
    if markup.linkify:
        # Goldmark's linkify, in markdown-it's linkify's place (which stays off: it links bare names).
        changes.append(RuleChange("core", "after", "goldmark_linkify",
                                  linkify.goldmark_linkify(markup.linkify_protocol, markup.passthrough,
                                                           markup.typographer),
                                  anchor="linkify"))
    if markup.typographer:
        changes.append(RuleChange("inline", "before", "guillemet", typography.guillemet_before_html, anchor="autolink"))
    if not markup.hard_wraps and markup.east_asian_line_breaks is None:
        changes.extend(SOFT_WRAP_RULES)
    elif not markup.hard_wraps and markup.east_asian_line_breaks:   # a Hugo config's cjk extension: goldmark's rule
        changes.append(RuleChange("core", "before", "east_asian_softbreak", cjk.join_east_asian_softbreaks,
                                  anchor="heading_ids"))
    if markup.enable_emoji:
        changes.append(RuleChange("inline", "before", "emoji", emoji.emoji_shortcode, anchor="emphasis"))
    if not markup.wrap_standalone_images:
        changes.append(RuleChange("core", "push", "unwrap_standalone_images", goldmark.unwrap_standalone_images))
    if markup.render_hooks:   # a Hugo site's own layouts: table cells aligned as Hugo's embedded table hook writes,
        # and tables whose header row is short read as goldmark reads them
        changes.append(RuleChange("core", "push", "hugo_table_alignment", goldmark.table_alignment))
        changes.append(RuleChange("core", "push", "goldmark_task_lists", goldmark.task_lists))
        changes.append(RuleChange("block", "wrap", "table", goldmark.short_header_tables))
        if markup.typographer:   # what the typographer writes, written as goldmark's entities
            changes.append(RuleChange("core", "at", "smartquotes", typography.goldmark_quotes))
            changes.append(RuleChange("core", "wrap", "text_join", typography.marked_text_join))
        if not markup.goldmark_unsafe:   # and HTML comments left out, as goldmark leaves them without unsafe
            changes.append(RuleChange("core", "after", "hugo_comments", goldmark.drop_comments, anchor="inline"))
    return tuple(changes)


class WrittenURL(str):
    """A link's or image's URL as markdown-it normalises it (non-ASCII percent-encoded), carrying the destination
    as written (`.written`): what a Hugo render hook's `.Destination` is (`%E7%81%B0` stays as written)."""

    written: str


def _keeping_written(normalize: Callable[[str], str]) -> Callable[[str], str]:
    def normalized(url: str) -> str:
        result = WrittenURL(normalize(url))
        result.written = url
        return result
    return normalized


@functools.lru_cache(maxsize=8)
def parser(cjk_emphasis: bool, markup: MarkupConfig) -> MarkdownIt:
    """The markdown-it instance for one set of options, built once per process."""
    # A Hugo site's own layouts get goldmark's HTML (<br>, <hr>, <img …>), the default theme markdown-it's XHTML.
    md = MarkdownIt("commonmark", {"html": True, "typographer": markup.typographer, "xhtmlOut": not markup.render_hooks,
                                   "breaks": markup.hard_wraps, "maxNesting": nesting.MAX_NESTING})
    md.enable(["table", "strikethrough"])
    # goldmark's strikethrough (GFM's): one tilde or two, the opener's as many as the closer's ("4~6次...10~15秒"
    # strikes through in Hugo); blogbuild's default theme keeps markdown-it's two.
    md.options["strikethrough_single_tilde"] = markup.render_hooks
    if markup.typographer:
        md.enable(["replacements", "smartquotes"])
    # The renderers (code fences' line numbers) and the heading rule read the settings from here.
    md.options["markup"] = markup
    # goldmark's footnotes are [^label] with a definition; markdown-it's inline ^[note] is not one on a Hugo site
    # its own layouts render (a regular expression's ^[a-z] stays text).
    md.use(footnote_plugin, inline=not markup.render_hooks)
    md.use(deflist_plugin)
    md.use(tasklists_plugin)
    changes = RULES + _markup_rules(markup) + (CJK_EMPHASIS_RULES if cjk_emphasis else ())
    for change in changes:
        _apply(md, change)
    block_tokenize = md.block.tokenize
    md.block.tokenize = functools.partial(nesting.tokenize_blocks, tokenize=block_tokenize)   # type: ignore[method-assign]
    for token_type, function in RENDER_RULES:
        md.add_render_rule(token_type, function)
    if markup.render_hooks:   # a Hugo site's own layouts: footnotes and strikethrough as goldmark writes them
        md.normalizeLink = _keeping_written(md.normalizeLink)   # type: ignore[method-assign,assignment]
        for token_type, function in goldmark.FOOTNOTE_RULES + goldmark.STRIKETHROUGH_RULES:
            md.add_render_rule(token_type, function)
        md.add_render_rule("text", typography.render_text)
    return md
