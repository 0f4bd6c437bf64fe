"""Math in markdown: $…$, $$…$$, \\(…\\) and \\[…\\] as tokens holding the exact TeX, and their HTML."""
from __future__ import annotations

from typing import Sequence

from markdown_it.common.utils import escapeHtml, mdTrim
from markdown_it.renderer import RendererProtocol
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

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
    if character == "$":
        if source.startswith("$$", start):
            end = source.find("$$", start + 2)
            if end < 0:
                if not silent:
                    _warn(state, "'$$' opens display math that is never closed in this paragraph; "
                                 "add the closing '$$' (display math cannot span a blank line)")
                return False
            tex = source[start + 2:end]
            if not tex.strip():
                return False
            if not silent:
                token = state.push("math_display_inline", "math", 0)
                token.content = tex
                token.markup = "$$"
            state.pos = end + 2
            return True
        # The pandoc rule, so that prices are not math: the opening $ is followed by a
        # non-space, the first unescaped $ after it closes, and that one must follow a
        # non-space and must not be followed by a digit; otherwise this $ is plain text.
        if start + 1 >= state.posMax or source[start + 1].isspace():
            return False
        position = start + 1
        maximum = state.posMax
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
        if position >= maximum or source[position - 1].isspace():
            return False
        if position + 1 < maximum and source[position + 1].isdigit():
            return False
        if not silent:
            token = state.push("math_inline", "math", 0)
            token.content = source[start + 1:position]
            token.markup = "$"
        state.pos = position + 1
        return True
    if character == "\\" and start + 1 < state.posMax and source[start + 1] in "([":
        opening = source[start:start + 2]
        closing = "\\)" if opening == "\\(" else "\\]"
        end = source.find(closing, start + 2)
        if end < 0 or not source[start + 2:end].strip():
            return False   # the escape rule then renders a literal ( or [
        if not silent:
            token = state.push("math_inline" if opening == "\\(" else "math_display_inline", "math", 0)
            token.content = source[start + 2:end]
            token.markup = opening
        state.pos = end + 2
        return True
    return False


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
    rest = state.src[begin + 2:line_end]
    close_at = rest.find(closing)
    if close_at >= 0:
        # On one line: a block only when the closing marker ends the line; otherwise the
        # line is a paragraph with inline display math ("$$a$$ and $$b$$").
        if rest[close_at + 2:].strip() or not rest[:close_at].strip():
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
    token.content = tex.strip("\n")
    token.markup = opening
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
