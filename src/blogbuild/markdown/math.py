"""Math in markdown: $…$, $$…$$, \\(…\\) and \\[…\\] as tokens holding the exact TeX, and their HTML."""
from __future__ import annotations

import re
from typing import Callable, Sequence

from markdown_it.common.utils import escapeHtml, mdTrim, unescapeAll
from markdown_it.renderer import RendererProtocol
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from ..config.markup import MarkupConfig
from .code import markup_of
from .environment import environment_of


def _warn(state: StateInline, message: str) -> None:
    """A warning at the body line of the current inline position."""
    environment = environment_of(state.env)
    base = environment.inline_line
    line = 0 if base is None else base + state.src.count("\n", 0, state.pos)
    environment.warn(line, message)


def math_inline(state: StateInline, silent: bool) -> bool:
    """$…$, $$…$$, \\(…\\) and \\[…\\] inside a paragraph; the TeX is taken raw from the source."""
    source = state.src
    start = state.pos
    character = source[start]
    markup = markup_of(state.md.options)
    if character == "$":
        if source.startswith("$$", start):
            if ("$$", "$$") not in markup.block_math:
                _warn_uncovered(state, silent, "$$")
                return False
            end = source.find("$$", start + 2)
            if end < 0:
                if not silent:
                    _warn(state, "'$$' opens display math that is never closed in this paragraph; "
                                 "add the closing '$$' (display math cannot span a blank line)")
                return False
            tex = source[start + 2:end]
            if not tex.strip():
                return False
            return _take_math(state, silent, "math_display_inline", tex, "$$", end + 2)
        if ("$", "$") not in markup.inline_math:
            _warn_uncovered(state, silent, "$")
            return False
        return _single_dollar(state, silent)
    if character == "\\" and start + 1 < state.posMax and source[start + 1] in "([":
        opening = source[start:start + 2]
        closing = "\\)" if opening == "\\(" else "\\]"
        if (opening, closing) not in markup.inline_math + markup.block_math:
            return False
        end = source.find(closing, start + 2)
        if end < 0 or not source[start + 2:end].strip():
            return False   # the escape rule then renders a literal ( or [
        kind = "math_inline" if opening == "\\(" else "math_display_inline"
        return _take_math(state, silent, kind, source[start + 2:end], opening, end + 2)
    return False


def as_typeset(tex: str, opening: str, markup: MarkupConfig) -> str:
    """The TeX the reader's KaTeX receives: as written, or, for math whose text Hugo's goldmark parses (no
    passthrough for its delimiter), with goldmark's backslash escapes of ASCII punctuation and its entities
    resolved (4\\*(2+4) is 4*(2+4), \\\\ is \\, &amp;lt; is <)."""
    if opening in markup.goldmark_math and ("\\" in tex or "&" in tex):
        return unescapeAll(tex)
    return tex


def _warn_uncovered(state: StateInline, silent: bool, opening: str) -> None:
    """Once a page: math written between delimiters the site does not typeset (neither its passthrough nor its
    templates' KaTeX or MathJax name them) is left as TeX, so it is named with what to do."""
    environment = environment_of(state.env)
    if silent or environment.warned_uncovered_math:
        return
    source = state.src
    end = source.find(opening, state.pos + len(opening), state.posMax)
    content = source[state.pos + len(opening):end] if end > 0 else ""
    if not content.strip() or "\n\n" in content or _LOOKS_LIKE_TEX.search(content) is None:
        return
    environment.warned_uncovered_math = True
    markup = markup_of(state.md.options)
    listed = " ".join(f"{pair[0]}…{pair[1]}" for pair in markup.inline_math + markup.block_math) or "none"
    kind = "inline" if opening == "$" else "block"
    where = f" in {markup.math_config}" if markup.math_config else ""
    _warn(state, f"'{opening}{content}{opening}' looks like math, but the site typesets only {listed} "
                 f"(markup.goldmark.extensions.passthrough{where}; no template under layouts/ loads KaTeX or "
                 f"MathJax with {opening}…{opening}), so this page's {opening}…{opening} math is shown as TeX; add "
                 f"['{opening}', '{opening}'] to passthrough.delimiters.{kind}, or write it as "
                 + ("\\(…\\)" if opening == "$" else "\\[…\\]"))


def _take_math(state: StateInline, silent: bool, kind: str, tex: str, markup: str, after: int) -> bool:
    """Push a math token of kind (unless only validating) and move past its closing delimiter."""
    if not silent:
        token = state.push(kind, "math", 0)
        token.content = as_typeset(tex, markup, markup_of(state.md.options))
        token.markup = markup
        token.meta = {"raw": tex}    # as written, for a passthrough render hook
    state.pos = after
    return True


# What makes a span between two $ look like TeX rather than prose with prices and snake_case: a
# control word (\\alpha), a superscript, or a braced subscript (a_{1}).
_LOOKS_LIKE_TEX = re.compile(r"\\[A-Za-z]+|\^|_\{")


def _single_dollar(state: StateInline, silent: bool) -> bool:
    """$…$: math by the pandoc rule (no space inside the dollars, no digit after the closing one), so
    that "$5 and $10" stays text; and, as Hugo's passthrough and KaTeX auto-render take it, also with
    spaces inside when the content looks like TeX ("$ a_{1} + b_{2} $"). A span left as text that
    looks like TeX is a warning, never silent."""
    source = state.src
    start = state.pos
    maximum = state.posMax
    position = start + 1
    while position < maximum:
        current = source[position]
        if current == "\\":
            position += 2
            continue
        if current == "$":
            break
        position += 1
    else:
        return False
    if position >= maximum:
        return False
    content = source[start + 1:position]
    digit_after = position + 1 < maximum and source[position + 1].isdigit()
    spaced = not content or content[0].isspace() or content[-1].isspace()
    looks_like_tex = bool(content.strip()) and _LOOKS_LIKE_TEX.search(content) is not None
    if digit_after or (spaced and not looks_like_tex):
        if looks_like_tex and not silent:
            reason = ("the closing '$' is followed by a digit, as in a price" if digit_after
                      else "of the spaces inside the dollars")
            _warn(state, f"'${content}$' looks like math but is left as text because {reason}; "
                         f"write it as \\({content.strip()}\\) to make it math, or escape the dollars "
                         "(\\$) to keep it text")
        return False
    return _take_math(state, silent, "math_inline", content, "$", position + 1)


# A $…$ span on a table line, where markdown-it's table rule would take its "\|" for a cell's "|".
_TABLE_MATH = re.compile(r"\$(?:\\.|[^$\\\n])+\$")
# Two characters, as long as "\|", from the private use area: a stand-in while the table rule runs.
_PIPE_STAND_IN = "\ue000\ue001"


def keep_math_pipes(rule: Callable[[StateBlock, int, int, bool], bool]) -> Callable[[StateBlock, int, int, bool], bool]:
    """The table rule, except that "\\|" inside $…$ in a cell keeps its backslash (GFM removes it
    before inline parsing, which turns $\\|x\\|_2$ into |x|_2; Hugo's passthrough keeps it)."""

    def wrapped(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        last = start_line
        while last < end_line and not state.isEmpty(last):
            last += 1
        begin, stop = state.bMarks[start_line], state.eMarks[last - 1] if last > start_line else state.bMarks[start_line]
        if silent or "\\|" not in state.src[begin:stop]:
            return rule(state, start_line, end_line, silent)
        original = state.src
        state.src = original[:begin] + _TABLE_MATH.sub(
            lambda match: match.group(0).replace("\\|", _PIPE_STAND_IN), original[begin:stop]) + original[stop:]
        first_new = len(state.tokens)
        try:
            found = rule(state, start_line, end_line, silent)
        finally:
            state.src = original
        for token in state.tokens[first_new:]:
            if token.type == "inline" and _PIPE_STAND_IN in token.content:
                token.content = token.content.replace(_PIPE_STAND_IN, "\\|")
        return found

    return wrapped


def math_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """$$…$$ or \\[…\\] starting a line, on one line or many; may interrupt a paragraph."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    line_end = state.eMarks[start_line]
    # The marker is checked in place: this rule is asked about every line of every paragraph.
    if state.src.startswith("$$", begin, line_end):
        opening, closing = "$$", "$$"
    elif state.src.startswith("\\[", begin, line_end):
        opening, closing = "\\[", "\\]"
    else:
        return False
    if (opening, closing) not in markup_of(state.md.options).block_math:
        return False
    rest = state.src[begin + 2:line_end]
    close_at = rest.find(closing)
    if close_at >= 0:
        # On one line: a block only when the closing marker ends the line; otherwise the
        # line is a paragraph with inline display math ("$$a$$ and $$b$$").
        if rest[close_at + 2:].strip() or not rest[:close_at].strip():
            return False
        if silent and (state.sCount[start_line] < state.blkIndent or state.parentType == "blockquote"):
            # Asked whether it ends a list item's paragraph from a line left of that item, or a quote
            # from a line without '>': no, it continues the paragraph lazily (as in Hugo), so the
            # formula stays inside the item or the quote instead of ending the list.
            return False
        if silent:
            return True
        tex = rest[:close_at]
        next_line = start_line + 1
    else:
        next_line = start_line + 1
        parts = [rest]
        found = False
        while next_line < end_line:
            line_begin = state.bMarks[next_line] + state.tShift[next_line]
            line_stop = state.eMarks[next_line]
            if line_begin >= line_stop or state.sCount[next_line] < state.blkIndent:
                break   # a blank line or the end of the container: TeX has no blank lines
            text = state.getLines(next_line, next_line + 1, state.blkIndent, False)
            close_at = text.find(closing)
            if close_at >= 0:
                if text[close_at + 2:].strip():
                    break
                parts.append(text[:close_at])
                found = True
                break
            parts.append(text)
            next_line += 1
        if not found:
            return False   # the lines become a paragraph, whose inline rule warns about the '$$'
        if silent:
            return True
        tex = "\n".join(parts)
        next_line += 1
    token = state.push("math_block", "math", 0)
    token.block = True
    token.content = as_typeset(tex.strip("\n"), opening, markup_of(state.md.options))
    token.markup = opening
    token.meta = {"raw": tex}    # as written, newlines around it included, for a passthrough render hook
    token.map = [start_line, next_line]
    state.line = next_line
    return True


def _display_math_open(line: str, open_before: bool) -> bool:
    """Whether a $$ or \\[ display formula is still open after this paragraph line."""
    dollars = line.count("$$")
    open_now = open_before != (dollars % 2 == 1)
    if line.count("\\[") > line.count("\\]"):
        open_now = True
    elif line.count("\\]") > line.count("\\["):
        open_now = False
    return open_now


def paragraph(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's paragraph rule, except that a line inside open display math
    ("text $$a" then "+ b$$") never starts a list, heading or quote."""
    next_line = start_line + 1
    terminator_rules = state.md.block.ruler.getRules("paragraph")
    end_line = state.lineMax
    old_parent_type = state.parentType
    state.parentType = "paragraph"
    first = state.src[state.bMarks[start_line] + state.tShift[start_line]:state.eMarks[start_line]]
    math_open = _display_math_open(first, False)
    while next_line < end_line:
        if state.isEmpty(next_line):
            break
        if state.sCount[next_line] - state.blkIndent > 3 or state.sCount[next_line] < 0:
            next_line += 1
            continue
        terminated = False
        if not math_open:
            for rule in terminator_rules:
                if rule(state, next_line, end_line, True):
                    terminated = True
                    break
        if terminated:
            break
        line_text = state.src[state.bMarks[next_line] + state.tShift[next_line]:state.eMarks[next_line]]
        # A line without "$" or "\\" leaves the display-math state as it is.
        if "$" in line_text or "\\" in line_text:
            math_open = _display_math_open(line_text, math_open)
        next_line += 1
    content = mdTrim(state.getLines(start_line, next_line, state.blkIndent, False))
    state.line = next_line
    token = state.push("paragraph_open", "p", 1)
    token.map = [start_line, state.line]
    token = state.push("inline", "", 0)
    token.content = content
    token.map = [start_line, state.line]
    token.children = []
    state.push("paragraph_close", "p", -1)
    state.parentType = old_parent_type
    return True



def _tex(tokens: Sequence[Token], index: int, env: EnvType) -> str:
    return escapeHtml(environment_of(env).restore_text(tokens[index].content))


def render_math_inline(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                       env: EnvType) -> str:
    """$…$ and \\(…\\): TeX in a span KaTeX finds by its classes."""
    return f'<span class="math inline">{_tex(tokens, index, env)}</span>'


def render_math_display_inline(renderer: RendererProtocol, tokens: Sequence[Token], index: int,
                               options: OptionsDict, env: EnvType) -> str:
    """$$…$$ inside a paragraph."""
    # A <div> cannot sit inside a <p>, so display math written inside a paragraph is a
    # span with the same "math display" classes; KaTeX renders it in display mode.
    return f'<span class="math display">{_tex(tokens, index, env)}</span>'


def render_math_block(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                      env: EnvType) -> str:
    """$$…$$ or \\[…\\] as a block of its own."""
    return f'<div class="math display">{_tex(tokens, index, env)}</div>\n'
