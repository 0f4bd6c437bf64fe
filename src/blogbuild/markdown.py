"""The markdown stage: markdown-it-py with math, mermaid, Pygments, heading ids, a TOC and CJK fixes."""
from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml, isMdAsciiPunct, isPunctChar, isWhiteSpace, mdTrim, unescapeAll
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block import html_block as html_block_rule
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline import emphasis as emphasis_rule
from markdown_it.rules_inline import strikethrough as strikethrough_rule
from markdown_it.rules_inline.state_inline import Scanned
from markdown_it.token import Token
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from .config import SiteConfig
from .errors import SourceWarning
from .model import RenderedMarkdown, TocEntry
from . import shortcodes as shortcode_stage
from .shortcodes import ShortcodeSet

# Deep enough for any real post (a list in a quote in a list ...), shallow enough that
# markdown-it's recursive block rules stay far below Python's recursion limit. Block
# content deeper than this is flattened into plain paragraphs by _tokenize_blocks (with a
# warning) instead of being dropped, as markdown-it itself would do.
MAX_NESTING = 50

# --------------------------------------------------------------------------- CJK characters

# Ranges whose characters are written without spaces between words: Han, kana, bopomofo,
# CJK punctuation and fullwidth forms. Hangul is left out on purpose: Korean puts spaces
# between words, so a line break there is a space.
_CJK_RANGES = (
    (0x2E80, 0x2FDF),    # radicals, Kangxi radicals
    (0x2FF0, 0x303F),    # ideographic description, CJK symbols and punctuation
    (0x3040, 0x30FF),    # hiragana, katakana
    (0x3100, 0x312F),    # bopomofo
    (0x31A0, 0x31FF),    # bopomofo extended, CJK strokes, katakana extension
    (0x3200, 0x33FF),    # enclosed CJK, compatibility
    (0x3400, 0x4DBF),    # extension A
    (0x4E00, 0x9FFF),    # unified ideographs
    (0xF900, 0xFAFF),    # compatibility ideographs
    (0xFE30, 0xFE4F),    # CJK compatibility forms
    (0xFF00, 0xFFEF),    # halfwidth and fullwidth forms (，！？（） ...)
    (0x20000, 0x3FFFF),  # extensions B and later
)


def is_cjk(character: str) -> bool:
    """Whether a character belongs to a script written without spaces (Chinese, Japanese)."""
    if not character:
        return False
    code = ord(character)
    if code < 0x2E80:
        return False
    return any(low <= code <= high for low, high in _CJK_RANGES)


# --------------------------------------------------------------------------- math

def _push_warning(env: dict, line: int, message: str) -> None:
    env["_warnings"].append((line, message))


def _inline_line(state: StateInline) -> int:
    """The 0-based body line of the current inline position (set by _parse_inlines)."""
    base = state.env.get("_inline_line")
    if base is None:
        return 0
    return base + state.src.count("\n", 0, state.pos)


def _math_inline(state: StateInline, silent: bool) -> bool:
    """$…$, $$…$$, \\(…\\) and \\[…\\] inside a paragraph; the TeX is taken raw from the source."""
    source = state.src
    start = state.pos
    character = source[start]
    if character == "$":
        if source.startswith("$$", start):
            end = source.find("$$", start + 2)
            if end < 0:
                if not silent:
                    _push_warning(state.env, _inline_line(state),
                                  "'$$' opens display math that is never closed in this paragraph; "
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


def _math_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
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


def _paragraph(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
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


def _restore(env: dict, text: str) -> str:
    """Shortcode placeholders inside code or math go back to the source text."""
    restore = env.get("_restore")
    return restore(text) if restore is not None else text


def _render_math_inline(self, tokens, index, options, env) -> str:
    return f'<span class="math inline">{escapeHtml(_restore(env, tokens[index].content))}</span>'


def _render_math_display_inline(self, tokens, index, options, env) -> str:
    # A <div> cannot sit inside a <p>, so display math written inside a paragraph is a
    # span with the same "math display" classes; KaTeX renders it in display mode.
    return f'<span class="math display">{escapeHtml(_restore(env, tokens[index].content))}</span>'


def _render_math_block(self, tokens, index, options, env) -> str:
    return f'<div class="math display">{escapeHtml(_restore(env, tokens[index].content))}</div>\n'


# --------------------------------------------------------------------------- CJK emphasis

def _cjk_scan_delims(state: StateInline, start: int, can_split_word: bool) -> Scanned:
    """CommonMark's delimiter scan, except that a CJK character beside a punctuation
    mark counts like whitespace, so `**真，**她` closes (commonmark-spec #650)."""
    source = state.src
    maximum = state.posMax
    marker = source[start]
    position = start
    last_character = source[start - 1] if start > 0 else " "
    while position < maximum and source[position] == marker:
        position += 1
    count = position - start
    next_character = source[position] if position < maximum else " "

    last_punctuation = isMdAsciiPunct(ord(last_character)) or isPunctChar(last_character)
    next_punctuation = isMdAsciiPunct(ord(next_character)) or isPunctChar(next_character)
    last_whitespace = isWhiteSpace(ord(last_character))
    next_whitespace = isWhiteSpace(ord(next_character))
    last_cjk = is_cjk(last_character)
    next_cjk = is_cjk(next_character)

    left_flanking = not next_whitespace and (
        not next_punctuation or last_whitespace or last_punctuation or last_cjk)
    right_flanking = not last_whitespace and (
        not last_punctuation or next_whitespace or next_punctuation or next_cjk)
    can_open = left_flanking and (can_split_word or not right_flanking or last_punctuation)
    can_close = right_flanking and (can_split_word or not left_flanking or next_punctuation)
    return Scanned(can_open, can_close, count)


def _with_cjk_scan(rule: Callable[[StateInline, bool], bool]) -> Callable[[StateInline, bool], bool]:
    """Wrap a delimiter tokenizer so that it uses the CJK-aware scan on this state."""

    def wrapped(state: StateInline, silent: bool) -> bool:
        if "scanDelims" not in state.__dict__:
            state.scanDelims = functools.partial(_cjk_scan_delims, state)   # type: ignore[method-assign]
        return rule(state, silent)

    return wrapped


# --------------------------------------------------------------------------- core rules

def _parse_inlines(state: StateCore) -> None:
    """markdown-it's inline core rule, remembering each block's line for inline warnings."""
    for token in state.tokens:
        if token.type == "inline":
            if token.children is None:
                token.children = []
            state.env["_inline_line"] = token.map[0] if token.map else None
            state.md.inline.parse(token.content, state.md, state.env, token.children)
    state.env["_inline_line"] = None


def _edge_character(children: list[Token], index: int, step: int) -> str:
    """The first visible character next to children[index], looking in direction step."""
    index += step
    while 0 <= index < len(children):
        child = children[index]
        if child.type in ("text", "code_inline", "math_inline", "math_display_inline") and child.content:
            return child.content[-1] if step < 0 else child.content[0]
        if child.nesting == 0 and child.type != "text":
            return ""   # an image, a break or raw HTML: not joinable
        index += step
    return ""


def _join_cjk_softbreaks(state: StateCore) -> None:
    """A line break between two CJK characters is not a space: render nothing there."""
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        children = token.children
        for index, child in enumerate(children):
            if child.type == "softbreak":
                if is_cjk(_edge_character(children, index, -1)) and is_cjk(_edge_character(children, index, +1)):
                    children[index] = Token("text", "", 0, content="")


_SLUG_DROP = re.compile(r"[^\w\- ]")


def slugify_heading(text: str) -> str:
    """GitHub's heading id: lowercase, punctuation dropped except - and _, spaces to -; CJK kept."""
    slug = _SLUG_DROP.sub("", unicodedata.normalize("NFC", text).strip().lower()).replace(" ", "-")
    return slug or "section"


def _heading_texts(children: list[Token]) -> tuple[str, str]:
    """(text for the id, text for the TOC) of a heading's inline children; math as TeX."""
    for_id: list[str] = []
    for_toc: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline"):
            for_id.append(child.content)
            for_toc.append(child.content)
        elif child.type == "math_inline":
            for_id.append(child.content)
            for_toc.append(f"\\({child.content}\\)")
        elif child.type == "math_display_inline":
            for_id.append(child.content)
            for_toc.append(f"\\[{child.content}\\]")
        elif child.type in ("softbreak", "hardbreak"):
            for_id.append(" ")
            for_toc.append(" ")
        elif child.type == "image":
            alt = "".join(grandchild.content for grandchild in child.children or ())
            for_id.append(alt)
            for_toc.append(alt)
    return "".join(for_id), " ".join("".join(for_toc).split())


def _heading_ids(state: StateCore) -> None:
    """Give every heading a unique GitHub-style id and an anchor link; collect the TOC."""
    used: set[str] = state.env.setdefault("_used_ids", set())
    toc: list[TocEntry] = state.env.setdefault("_toc", [])
    next_number: dict[str, int] = state.env.setdefault("_next_number", {})
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[index + 1]
        children = inline.children or []
        id_text, toc_text = _heading_texts(children)
        placeholder = state.env.get("_placeholder")
        if placeholder is not None:
            # A shortcode in a heading does not belong in its id.
            id_text = " ".join(placeholder.sub(" ", id_text).split())
        base = slugify_heading(id_text)
        slug = base
        # Remember the last number tried per base, so that many equal headings stay linear.
        number = next_number.get(base, 0)
        while slug in used:
            number += 1
            slug = f"{base}-{number}"
        next_number[base] = number
        used.add(slug)
        token.attrSet("id", slug)
        toc.append(TocEntry(level=int(token.tag[1]), id=slug, text=toc_text))
        # After the text, so that the heading's text (and a screen reader) starts with
        # the words; labelled, because "#" alone says nothing.
        children.append(Token("html_inline", "", 0, content=(
            f' <a class="anchor" href="#{escapeHtml(slug)}" aria-label="Permalink">#</a>')))
        inline.children = children


# --------------------------------------------------------------------------- code

@functools.lru_cache(maxsize=256)
def _lexer(language: str):
    """The Pygments lexer for a language name, or None; one instance per process, as building one
    (and a formatter, below) costs more than highlighting a short block. Lexers keep no state
    between get_tokens() calls, so one instance serves every block."""
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


@functools.lru_cache(maxsize=1)
def _formatter() -> HtmlFormatter:
    """The one HtmlFormatter (CSS classes, no wrapper); it only caches class names between calls."""
    return HtmlFormatter(nowrap=True)


@functools.lru_cache(maxsize=4096)
def _highlight(language: str, code: str) -> str | None:
    """Pygments HTML (CSS classes, no wrapper) for code in a known language, else None."""
    lexer = _lexer(language)
    if lexer is None:
        return None
    return pygments_highlight(code, lexer, _formatter())


def _fence_language(info: str) -> str:
    info = unescapeAll(info).strip() if info else ""
    if not info:
        return ""
    language = info.split(maxsplit=1)[0]
    # "{.python}" and "python{linenos=true}" styles: keep the name only.
    return language.strip("{}.").split("{", 1)[0]


def _render_fence(self, tokens, index, options, env) -> str:
    token = tokens[index]
    language = _fence_language(token.info)
    code = _restore(env, token.content)
    lowered = language.lower()
    if lowered == "mermaid":
        return f'<pre class="mermaid">{escapeHtml(code)}</pre>\n'
    if lowered == "math":
        return f'<div class="math display">{escapeHtml(code.strip(chr(10)))}</div>\n'
    class_attribute = f' class="language-{escapeHtml(language)}"' if language else ""
    highlighted = _highlight(lowered, code) if language else None
    if highlighted is None:
        return f"<pre><code{class_attribute}>{escapeHtml(code)}</code></pre>\n"
    return f'<div class="highlight"><pre><code{class_attribute}>{highlighted}</code></pre></div>\n'


def _render_code_block(self, tokens, index, options, env) -> str:
    return f"<pre><code>{escapeHtml(_restore(env, tokens[index].content))}</code></pre>\n"


def _render_code_inline(self, tokens, index, options, env) -> str:
    return f"<code>{escapeHtml(_restore(env, tokens[index].content))}</code>"


def highlight_html(code: str, language: str) -> str:
    """A code block as a fence would render it (used by the highlight shortcode)."""
    token = Token("fence", "code", 0, content=code, info=language)
    return _render_fence(None, [token], 0, None, {})


def highlight_css(light_style: str, dark_style: str) -> str:
    """One stylesheet: light code colours, and dark ones for the system preference or data-theme=dark."""
    light = HtmlFormatter(style=light_style)
    dark = HtmlFormatter(style=dark_style)
    system_dark = [":root:not([data-theme=light]) .highlight"]
    toggled_dark = ["[data-theme=dark] .highlight"]
    # Pygments returns lists of rule lines here.
    lines = [f"/* code colours: {light_style} (light), {dark_style} (dark) */"]
    lines += light.get_background_style_defs(".highlight") + light.get_token_style_defs(".highlight")
    lines.append("@media (prefers-color-scheme: dark) {")
    lines += ["  " + line for line in dark.get_background_style_defs(system_dark)
              + dark.get_token_style_defs(system_dark)]
    lines.append("}")
    lines += dark.get_background_style_defs(toggled_dark) + dark.get_token_style_defs(toggled_dark)
    return "\n".join(line for line in lines if line) + "\n"


# --------------------------------------------------------------------------- deep nesting

# The list and quote markers that open the containers of a flattened line: ">", "-", "+",
# "*" and "1." / "1)" followed by a space. Possessive, so a long run never backtracks.
_CONTAINER_MARKERS = re.compile(r"(?:[ \t]*+(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)))++[ \t]*+")


def _tokenize_blocks(state: StateBlock, start_line: int, end_line: int,
                     tokenize: Callable[[StateBlock, int, int], None]) -> None:
    """markdown-it's block tokenizer, except that content deeper than MAX_NESTING is
    flattened into paragraphs (markdown-it drops it) and a warning names its first line."""
    if state.level < MAX_NESTING:
        tokenize(state, start_line, end_line)
        return
    # The same lines markdown-it's loop would take: up to the end of this container.
    line = state.skipEmptyLines(start_line)
    first = line
    paragraphs: list[tuple[int, int, list[str]]] = []
    current: list[str] = []
    current_start = line
    while line < end_line:
        if state.isEmpty(line):
            if current:
                paragraphs.append((current_start, line, current))
                current = []
            line += 1
            continue
        if state.sCount[line] < state.blkIndent:
            break
        text = state.src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]]
        markers = _CONTAINER_MARKERS.match(text)
        if markers:
            text = text[markers.end():]
        if text.strip():
            if not current:
                current_start = line
            current.append(text)
        elif current:
            # A line of markers only (">>>") is the blank line of a deep quote.
            paragraphs.append((current_start, line, current))
            current = []
        line += 1
    if current:
        paragraphs.append((current_start, line, current))
    state.line = line
    if first >= line:
        return
    _push_warning(state.env, first,
                  f"nesting {MAX_NESTING} levels deep or more (a quote counts one level, a list two) is "
                  "flattened into plain paragraphs from here; nest the lists and quotes less deeply")
    for begin, end, texts in paragraphs:
        token = state.push("paragraph_open", "p", 1)
        token.map = [begin, end]
        token = state.push("inline", "", 0)
        token.content = mdTrim("\n".join(texts))
        token.map = [begin, end]
        token.children = []
        state.push("paragraph_close", "p", -1)


# --------------------------------------------------------------------------- raw HTML

# Raw HTML is passed through (html: True), so one unclosed construct in a post can break
# the page around it. Two passes guard it: _html_block keeps markdown-it from turning the
# rest of the post into one raw block behind an unclosed <!-- or <script>, and
# _check_raw_html follows the raw HTML of the whole post the way a browser reads it.

# Elements whose content is text up to their own end tag (HTML's raw text and RCDATA
# elements, and noscript as a browser with scripts sees it): unclosed, they eat the page.
_RAW_TEXT_ELEMENTS = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noscript",
                                "noembed", "noframes"})
_VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                            "param", "source", "track", "wbr", "keygen", "basefont", "bgsound", "frame"})
# End tags a browser adds by itself (or that do no harm when stray): never warned about.
_OPTIONAL_END_ELEMENTS = frozenset({"p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead",
                                    "tbody", "tfoot", "colgroup", "caption", "rt", "rp", "rb", "rtc",
                                    "html", "head", "body", "br"})
_COMMENT_CLOSE = re.compile(r"--!?>")
_TAG_NAME = re.compile(r"[A-Za-z][^\s/>]*")
_TAG_STOP = re.compile(r"[>=]")
_SPACES = re.compile(r"[ \t\n\r\f]*")
# The block openers markdown-it runs to the end of the post when their end is missing.
_BLOCK_OPENER = re.compile(r"<(?:(!--)|(script|style|textarea)(?=[ \t\n\r\f>]|$))", re.IGNORECASE)
_BLOCK_CLOSER = {"!--": re.compile(r"-->"), "raw": re.compile(r"</(?:script|pre|style|textarea)>", re.IGNORECASE)}

_COMMENT_MESSAGE = ("'<!--' opens an HTML comment that is never closed, which would hide the rest of the page; "
                    "it is shown as text; close it with '-->'")


def _make_html_block(html_block: Callable[[StateBlock, int, int, bool], bool]
                     ) -> Callable[[StateBlock, int, int, bool], bool]:
    """Wrap markdown-it's html_block rule: a <!-- or <script>/<style>/<textarea> block whose end
    never comes is not a block; its line becomes a paragraph and the rest stays markdown."""

    def rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        begin = state.bMarks[start_line] + state.tShift[start_line]
        if not state.src.startswith("<", begin):
            return False   # what html_block answers too, after a debug log and more checks
        if not state.is_code_block(start_line):
            opener = _BLOCK_OPENER.match(state.src, begin, state.eMarks[start_line])
            if opener is not None:
                kind = "!--" if opener.group(1) else "raw"
                if not _block_closes(state, start_line, end_line, kind):
                    if kind == "!--":
                        _push_warning(state.env, start_line, _COMMENT_MESSAGE)
                    # <script> and friends are left to the inline rule as a tag, and then to
                    # _check_raw_html, which warns and shows it as text.
                    return False
        return html_block(state, start_line, end_line, silent)

    return rule


def _block_closes(state: StateBlock, start_line: int, end_line: int, kind: str) -> bool:
    """Whether markdown-it's html_block loop would find the block's end before its container ends."""
    closer = _BLOCK_CLOSER[kind]
    # A failed walk is remembered: a later start inside the same walked lines fails too,
    # so a thousand unclosed '<!--' lines in one quote stay linear.
    key = (kind, end_line, state.blkIndent)
    walked = state.env.setdefault("_unclosed_html_walks", {})
    span = walked.get(key)
    if span is not None and span[0] < start_line < span[1]:
        return False
    line = start_line
    while line < end_line:
        if line > start_line and state.sCount[line] < state.blkIndent and not state.isEmpty(line):
            break
        if closer.search(state.src, state.bMarks[line] + state.tShift[line], state.eMarks[line]):
            return True
        line += 1
    walked[key] = (start_line, line)
    return False


@dataclass
class _Fragment:
    """One raw HTML token, where it starts in the joined raw text, and its line in the body."""

    token: Token
    start: int
    line: int
    edits: list[tuple[int, int, str]] = field(default_factory=list)   # (offset, length replaced, new text)


def _raw_html_fragments(tokens: list[Token]) -> list[_Fragment]:
    """The html_block and html_inline tokens in page order, with their 0-based body lines."""
    fragments: list[_Fragment] = []
    offset = 0
    for token in tokens:
        pieces: list[tuple[Token, int]] = []
        if token.type == "html_block":
            pieces.append((token, token.map[0] if token.map else 0))
        elif token.type == "inline" and token.children:
            line = token.map[0] if token.map else 0
            for child in token.children:
                if child.type == "html_inline":
                    pieces.append((child, line))
                if child.type in ("softbreak", "hardbreak"):
                    line += 1
                else:
                    line += child.content.count("\n")
        for piece, line in pieces:
            fragments.append(_Fragment(piece, offset, line))
            offset += len(piece.content) + 1   # joined with "\n": the page has other markup there
    return fragments


def _tag_end(text: str, position: int, limit: int) -> int:
    """The offset after the '>' that ends a tag (attributes from position on), or -1 when the
    tag runs past limit, as a browser reads it: a quoted value may hold '>'."""
    while True:
        stop = _TAG_STOP.search(text, position, limit)
        if stop is None:
            return -1
        if text[stop.start()] == ">":
            return stop.end()
        position = _SPACES.match(text, stop.end(), limit).end()
        if position < limit and text[position] in "\"'":
            close = text.find(text[position], position + 1, limit)
            if close < 0:
                return -1
            position = close + 1


def _check_raw_html(state: StateCore) -> None:
    """Warn about raw HTML that would break the page outside the post, and neutralise it:
    unclosed comments, raw text elements and tags are shown as text, elements left open are
    closed before the end tag that skips them or at the end of the post, stray end tags are
    shown as text."""
    fragments = _raw_html_fragments(state.tokens)
    if not fragments:
        return
    text = "\n".join(fragment.token.content for fragment in fragments)
    starts = [fragment.start for fragment in fragments]
    placeholder = state.env.get("_placeholder")
    # A shortcode may open or close an element that the markdown around it closes or opens,
    # so the balance of elements is only judged in posts without shortcodes.
    check_balance = placeholder is None or not placeholder.search(state.src)
    warnings: list[tuple[int, str]] = []
    open_elements: list[tuple[str, int]] = []   # (name, offset of its '<')
    # Offsets from which a closer (or, per fragment end, a '>') is known to be missing: later
    # searches need not run again, so a thousand unclosed openers stay linear.
    missing_from: dict[str, int] = {}
    no_bracket_from: dict[int, int] = {}

    def locate(offset: int) -> _Fragment:
        return fragments[bisect.bisect_right(starts, offset) - 1]

    newlines = [match.start() for match in re.finditer("\n", text)]

    def line_of(offset: int) -> int:
        fragment = locate(offset)
        return fragment.line + bisect.bisect_left(newlines, offset) - bisect.bisect_left(newlines, fragment.start)

    def show_as_text(offset: int) -> None:
        fragment = locate(offset)
        fragment.edits.append((offset - fragment.start, 1, "&lt;"))

    def insert(offset: int, html: str) -> None:
        fragment = locate(offset)
        fragment.edits.append((offset - fragment.start, 0, html))

    def find_closer(key: str, pattern: "re.Pattern[str]", position: int) -> "re.Match[str] | None":
        if position >= missing_from.get(key, len(text) + 1):
            return None
        match = pattern.search(text, position)
        if match is None:
            missing_from[key] = position
        return match

    position = text.find("<")
    while 0 <= position < len(text):
        fragment_end = locate(position).start + len(locate(position).token.content)
        if text.startswith("<!--", position):
            if text.startswith(">", position + 4) or text.startswith("->", position + 4):
                position = text.find("<", position + 4)
                continue
            closing = find_closer("!--", _COMMENT_CLOSE, position + 4)
            if closing is None:
                warnings.append((line_of(position), _COMMENT_MESSAGE))
                show_as_text(position)
                position = text.find("<", position + 1)
                continue
            position = text.find("<", closing.end())
            continue
        is_end_tag = text.startswith("</", position)
        name_match = _TAG_NAME.match(text, position + (2 if is_end_tag else 1), fragment_end)
        if name_match is None:
            # "<!x>", "<?x>" and a lone "<" end at the next '>' or are text: harmless.
            position = text.find("<", position + 1)
            continue
        name = name_match.group(0).lower()
        if position >= no_bracket_from.get(fragment_end, fragment_end):
            end = -1
        else:
            end = _tag_end(text, name_match.end(), fragment_end)
            if end < 0 and text.find(">", position, fragment_end) < 0:
                no_bracket_from[fragment_end] = position
        if end < 0:
            shown = text[position:name_match.end()]
            warnings.append((line_of(position),
                             f"the tag '{shown}' is never closed with '>' (or a quote in it is never closed), "
                             "which would swallow the page after it; it is shown as text; finish the tag"))
            show_as_text(position)
            position = text.find("<", position + 1)
            continue
        self_closing = text[end - 2] == "/"
        if is_end_tag:
            if not check_balance or name in _VOID_ELEMENTS or name in _OPTIONAL_END_ELEMENTS:
                pass
            elif any(open_name == name for open_name, _ in open_elements):
                while open_elements:
                    open_name, opened_at = open_elements.pop()
                    if open_name == name:
                        break
                    if open_name not in _OPTIONAL_END_ELEMENTS:
                        # A browser would close it here too, but a <b> or <a> would come back
                        # after it and wrap the rest of the page: close it for real.
                        warnings.append((line_of(opened_at),
                                         f"'<{open_name}>' is never closed before '</{name}>'; it is closed "
                                         f"there; add '</{open_name}>' where it should end"))
                        insert(position, f"</{open_name}>")
            else:
                warnings.append((line_of(position),
                                 f"'</{name}>' closes no element opened in this post, so it would close one "
                                 f"of the page around it; it is shown as text; remove it or add the '<{name}>'"))
                show_as_text(position)
            position = text.find("<", end)
            continue
        if name == "plaintext":
            warnings.append((line_of(position), "'<plaintext>' can never be closed and would turn the rest of "
                                                "the page into text; it is shown as text; remove it"))
            show_as_text(position)
            position = text.find("<", position + 1)
            continue
        if name in _RAW_TEXT_ELEMENTS and not self_closing:
            closer = re.compile(rf"</{name}[\t\n\f\r />]", re.IGNORECASE)
            closing = find_closer(name, closer, end)
            if closing is None:
                warnings.append((line_of(position),
                                 f"'<{name}>' is never closed with '</{name}>', which would swallow the rest of "
                                 f"the page; it is shown as text; add '</{name}>'"))
                show_as_text(position)
                position = text.find("<", position + 1)
                continue
            # The content up to the end tag is text; go on after that tag.
            after = _tag_end(text, closing.end() - 1, len(text))
            position = text.find("<", after) if after >= 0 else -1
            continue
        if check_balance and not self_closing and name not in _VOID_ELEMENTS:
            open_elements.append((name, position))
        position = text.find("<", end)

    closers = []
    for name, opened_at in open_elements:
        if name in _OPTIONAL_END_ELEMENTS:
            continue
        warnings.append((line_of(opened_at), f"'<{name}>' is never closed; it is closed at the end of the post; "
                                             f"add '</{name}>' where it should end"))
        closers.append(f"</{name}>")
    for fragment in fragments:
        if fragment.edits:
            content = fragment.token.content
            pieces = []
            cursor = 0
            # Stable by offset: closers inserted before one end tag keep their order.
            for offset, length, html in sorted(fragment.edits, key=lambda edit: edit[0]):
                pieces.append(content[cursor:offset])
                pieces.append(html)
                cursor = offset + length
            pieces.append(content[cursor:])
            fragment.token.content = "".join(pieces)
    if closers:
        token = Token("html_block", "", 0, content="".join(reversed(closers)) + "\n")
        state.tokens.append(token)
    for line, message in warnings:
        _push_warning(state.env, line, message)


# --------------------------------------------------------------------------- rule gates

# The characters a line must start with for each of these markdown-it block rules to match; each
# rule returns False at once on any other line. A paragraph asks every one of them about each of
# its lines ("does this line end me?"), so checking the first character here spares most calls
# of the rule itself, and its debug log. None of them changes the state before that check.
_FIRST_CHARACTERS = {
    "fence": "~`",
    "blockquote": ">",
    "hr": "*-_",
    "list": "*-+0123456789",
    "heading": "#",
    "footnote_def": "[",
}


def _gated(rule: Callable[[StateBlock, int, int, bool], bool],
           characters: str) -> Callable[[StateBlock, int, int, bool], bool]:
    """A block rule that is only called on lines starting with one of characters."""

    def gated(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        position = state.bMarks[start_line] + state.tShift[start_line]
        if position < len(state.src) and state.src[position] not in characters:
            return False
        return rule(state, start_line, end_line, silent)

    return gated


def _gated_table(rule: Callable[[StateBlock, int, int, bool], bool]) -> Callable[[StateBlock, int, int, bool], bool]:
    """markdown-it's table rule, only called when the next line starts like a delimiter row, which
    the rule checks before anything else: '|', '-' or ':', then one of those or a space, and not
    "- " (a list item, which follows every item of a list)."""

    def gated(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        next_line = start_line + 1
        if next_line >= end_line:
            return False
        position = state.bMarks[next_line] + state.tShift[next_line]
        if position + 1 >= state.eMarks[next_line]:
            return False
        first, second = state.src[position], state.src[position + 1]
        if first not in "|-:" or second not in "|-: \t" or (first == "-" and second in " \t"):
            return False
        return rule(state, start_line, end_line, silent)

    return gated


def _with_delimiters_only(rule: Callable[[StateInline], None]) -> Callable[[StateInline], None]:
    """An inline post-processing rule (pairing, strikethrough, emphasis) that is skipped when the
    inline content has no delimiter lists at all: all it does is walk those lists. Delimiter lists
    live in state.delimiters and in the metadata of opening tokens (links), so content without
    either, most of a post's lines, has none."""

    def gated(state: StateInline) -> None:
        if state.delimiters or any(state.tokens_meta):
            rule(state)

    return gated


def _wrap_rule(ruler: Any, name: str, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """Replace a rule by wrap(rule), keeping its place and the chains it ends (alt)."""
    current = next(rule for rule in ruler.__rules__ if rule.name == name)
    ruler.at(name, wrap(current.fn), {"alt": list(current.alt)})


# --------------------------------------------------------------------------- the parser

@functools.lru_cache(maxsize=4)
def _parser(cjk_emphasis: bool) -> MarkdownIt:
    """The markdown-it instance for one set of options, built once per process."""
    md = MarkdownIt("commonmark", {"html": True, "typographer": False, "linkify": False,
                                   "maxNesting": MAX_NESTING})
    md.enable(["table", "strikethrough"])
    md.use(footnote_plugin)
    md.use(deflist_plugin)
    md.use(tasklists_plugin)
    md.inline.ruler.before("escape", "math_inline", _math_inline)
    md.block.ruler.before("fence", "math_block", _math_block,
                          {"alt": ["paragraph", "reference", "blockquote", "list"]})
    if cjk_emphasis:
        md.inline.ruler.at("emphasis", _with_cjk_scan(emphasis_rule.tokenize))
        md.inline.ruler.at("strikethrough", _with_cjk_scan(strikethrough_rule.tokenize))
    md.block.ruler.at("paragraph", _paragraph)
    md.block.ruler.at("html_block", _make_html_block(html_block_rule),
                      {"alt": ["paragraph", "reference", "blockquote"]})
    for name, characters in _FIRST_CHARACTERS.items():
        _wrap_rule(md.block.ruler, name, functools.partial(_gated, characters=characters))
    _wrap_rule(md.block.ruler, "table", _gated_table)
    for name in ("balance_pairs", "strikethrough", "emphasis"):
        _wrap_rule(md.inline.ruler2, name, _with_delimiters_only)
    md.core.ruler.at("inline", _parse_inlines)
    md.core.ruler.push("cjk_softbreak", _join_cjk_softbreaks)
    md.core.ruler.push("heading_ids", _heading_ids)
    md.core.ruler.push("raw_html", _check_raw_html)
    block_tokenize = md.block.tokenize
    md.block.tokenize = functools.partial(_tokenize_blocks, tokenize=block_tokenize)   # type: ignore[method-assign]
    md.add_render_rule("math_inline", _render_math_inline)
    md.add_render_rule("math_display_inline", _render_math_display_inline)
    md.add_render_rule("math_block", _render_math_block)
    md.add_render_rule("fence", _render_fence)
    md.add_render_rule("code_block", _render_code_block)
    md.add_render_rule("code_inline", _render_code_inline)
    return md


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


def _flags_and_warnings(tokens: list[Token], lines: Sequence[str], env: dict) -> tuple[bool, bool, bool]:
    has_math = has_mermaid = has_code = False
    stack = [tokens]
    while stack:
        for token in stack.pop():
            kind = token.type
            if kind in ("math_inline", "math_display_inline", "math_block"):
                has_math = True
            elif kind == "fence":
                language = _fence_language(token.info).lower()
                if language == "mermaid":
                    has_mermaid = True
                elif language == "math":
                    has_math = True
                else:
                    has_code = True
                if not _fence_closed(lines, token):
                    line = token.map[0] if token.map else 0
                    _push_warning(env, line, f"code fence '{token.markup}' is never closed; "
                                             f"add a closing '{token.markup}' line")
            elif kind == "code_block":
                has_code = True
            if token.children:
                stack.append(token.children)
    return has_math, has_mermaid, has_code


def render_markdown(body: str, *, path: str = "<string>", line_offset: int = 0,
                    config: SiteConfig | None = None, shortcodes: ShortcodeSet | None = None) -> RenderedMarkdown:
    """Render a post body to HTML with its TOC, feature flags and warnings (file lines)."""
    config = config or _DEFAULT_CONFIG
    shortcode_set = shortcodes if shortcodes is not None else shortcode_stage.builtin_shortcodes()
    return shortcode_stage.render_with_shortcodes(
        body, path=path, line_offset=line_offset, shortcodes=shortcode_set,
        render=functools.partial(_render_plain, config=config))


def _render_plain(text: str, *, path: str, line_of: Callable[[int], int], restore: Callable[[str], str] | None,
                  config: SiteConfig, used_ids: set[str] | None = None,
                  placeholders: frozenset[str] = frozenset(),
                  placeholder_pattern: "re.Pattern[str] | None" = None) -> RenderedMarkdown:
    """Markdown to HTML without shortcodes; line_of maps a 0-based text line to a file line."""
    md = _parser(bool(config.cjk_emphasis))
    env: dict[str, Any] = {"_warnings": [], "_toc": [], "_used_ids": used_ids if used_ids is not None else set(),
                           "_restore": restore, "_inline_line": None, "_placeholder": placeholder_pattern}
    tokens = md.parse(text, env)
    if placeholders:
        tokens = _lift_block_placeholders(tokens, placeholders)
    lines = text.split("\n")
    has_math, has_mermaid, has_code = _flags_and_warnings(tokens, lines, env)
    html = md.renderer.render(tokens, md.options, env)
    warnings = tuple(SourceWarning(path, line_of(line), message) for line, message in _few_warnings(env["_warnings"]))
    return RenderedMarkdown(html=html, toc=tuple(env["_toc"]), has_math=has_math, has_mermaid=has_mermaid,
                            has_code=has_code, warnings=warnings)


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
                        for child in tokens[index + 1].children)):
            inline = tokens[index + 1]
            closing = tokens[index + 2]
            pieces: list[list[Token]] = [[]]
            for child in inline.children:
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
