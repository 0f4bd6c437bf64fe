"""Raw HTML in a post: read as a browser reads it, so one unclosed construct cannot break the page around it."""
from __future__ import annotations

import bisect
import re
from dataclasses import field
from typing import Callable

from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from .environment import environment_of
from ..core.records import dataclass

# Raw HTML is passed through (html: True), so one unclosed construct in a post can break
# the page around it. Two passes guard it: _html_block keeps markdown-it from turning the
# rest of the post into one raw block behind an unclosed <!-- or <script>, and
# RawHtmlScan follows the raw HTML of the whole post the way a browser reads it.

# Elements whose content is text up to their own end tag (HTML's raw text and RCDATA
# elements, and noscript as a browser with scripts sees it): unclosed, they eat the page.
_RAW_TEXT_ELEMENTS = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noscript",
                                "noembed", "noframes"})
# Every element name of HTML, SVG and MathML a post might write inline: a tag with another name and no
# attributes ("<pid>", "<user>") is a placeholder in prose, not an element. Custom elements have a "-".
_KNOWN_ELEMENTS = frozenset("""
a abbr acronym address area article aside audio b base bdi bdo big blink blockquote body br button canvas
caption center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed fieldset
figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img
input ins kbd label legend li link main map mark marquee menu meta meter nav nobr noembed noframes noscript
object ol optgroup option output p param picture plaintext pre progress q rb rp rt rtc ruby s samp script
search section select slot small source span strike strong style sub summary sup table tbody td template
textarea tfoot th thead time title tr track tt u ul var video wbr xmp
svg g path circle ellipse line polyline polygon rect text tspan defs use symbol marker lineargradient
radialgradient stop clippath mask pattern image foreignobject desc
math mi mn mo ms mtext mrow msub msup msubsup mfrac msqrt mroot mtable mtr mtd mspace mstyle semantics
annotation mover munder munderover mpadded mphantom menclose
""".split())
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


def guard_html_block(html_block: Callable[[StateBlock, int, int, bool], bool]
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
                        environment_of(state.env).warn(start_line, _COMMENT_MESSAGE)
                    # <script> and friends are left to the inline rule as a tag, and then to
                    # RawHtmlScan, which warns and shows it as text.
                    return False
        return html_block(state, start_line, end_line, silent)

    return rule


def _block_closes(state: StateBlock, start_line: int, end_line: int, kind: str) -> bool:
    """Whether markdown-it's html_block loop would find the block's end before its container ends."""
    closer = _BLOCK_CLOSER[kind]
    # A failed walk is remembered: a later start inside the same walked lines fails too,
    # so a thousand unclosed '<!--' lines in one quote stay linear.
    key = (kind, end_line, state.blkIndent)
    walked = environment_of(state.env).unclosed_html_walks
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
        spaces = _SPACES.match(text, stop.end(), limit)   # matches always, maybe empty
        position = spaces.end() if spaces is not None else stop.end()
        if position < limit and text[position] in "\"'":
            close = text.find(text[position], position + 1, limit)
            if close < 0:
                return -1
            position = close + 1


class RawHtmlScan:
    """The raw HTML of one post joined into one text and followed construct by construct:
    unclosed comments, raw text elements and tags are shown as text, elements left open are
    closed before the end tag that skips them or at the end of the post, stray end tags are
    shown as text. Each finding is a warning at its body line."""

    def __init__(self, fragments: list[_Fragment], *, check_balance: bool) -> None:
        self.fragments = fragments
        self.starts = [fragment.start for fragment in fragments]
        self.text = "\n".join(fragment.token.content for fragment in fragments)
        self.newlines = [match.start() for match in re.finditer("\n", self.text)]
        self.check_balance = check_balance
        self.warnings: list[tuple[int, str]] = []
        self.open_elements: list[tuple[str, int]] = []   # (name, offset of its '<')
        # Offsets from which a closer (or, per fragment end, a '>') is known to be missing: later
        # searches need not run again, so a thousand unclosed openers stay linear.
        self.missing_from: dict[str, int] = {}
        self.no_bracket_from: dict[int, int] = {}

    # --- positions and edits

    def locate(self, offset: int) -> _Fragment:
        """The fragment holding an offset of the joined text."""
        return self.fragments[bisect.bisect_right(self.starts, offset) - 1]

    def line_of(self, offset: int) -> int:
        """The 0-based body line of an offset of the joined text."""
        fragment = self.locate(offset)
        return (fragment.line + bisect.bisect_left(self.newlines, offset)
                - bisect.bisect_left(self.newlines, fragment.start))

    def show_as_text(self, offset: int, message: str, *, resume: int | None = None) -> int:
        """Warn, escape the '<' at offset; the offset of the next '<' after it (or after resume)."""
        self.warnings.append((self.line_of(offset), message))
        fragment = self.locate(offset)
        fragment.edits.append((offset - fragment.start, 1, "&lt;"))
        return self.text.find("<", offset + 1 if resume is None else resume)

    def insert(self, offset: int, html: str) -> None:
        """Insert html before offset."""
        fragment = self.locate(offset)
        fragment.edits.append((offset - fragment.start, 0, html))

    def find_closer(self, key: str, pattern: re.Pattern[str], position: int) -> re.Match[str] | None:
        """The next match of a closing pattern, remembering where none is left."""
        if position >= self.missing_from.get(key, len(self.text) + 1):
            return None
        match = pattern.search(self.text, position)
        if match is None:
            self.missing_from[key] = position
        return match

    # --- the constructs

    def run(self) -> None:
        """Follow the whole text, then close what is still open."""
        position = self.text.find("<")
        while 0 <= position < len(self.text):
            position = self.construct(position)
        self.close_open_elements()

    def construct(self, position: int) -> int:
        """Read the construct starting at the '<' at position; the offset of the next '<' (or -1)."""
        text = self.text
        if text.startswith("<!--", position):
            return self.comment(position)
        fragment = self.locate(position)
        fragment_end = fragment.start + len(fragment.token.content)
        is_end_tag = text.startswith("</", position)
        name_match = _TAG_NAME.match(text, position + (2 if is_end_tag else 1), fragment_end)
        if name_match is None:
            # "<!x>", "<?x>" and a lone "<" end at the next '>' or are text: harmless.
            return text.find("<", position + 1)
        name = name_match.group(0).lower()
        end = self.tag_end(position, name_match.end(), fragment_end)
        if end < 0:
            shown = text[position:name_match.end()]
            return self.show_as_text(position, f"the tag '{shown}' is never closed with '>' (or a quote in it is "
                                               "never closed), which would swallow the page after it; it is shown "
                                               "as text; finish the tag")
        self_closing = text[end - 2] == "/"
        if is_end_tag:
            return self.end_tag(position, name, end)
        if name == "plaintext":
            return self.show_as_text(position, "'<plaintext>' can never be closed and would turn the rest of "
                                               "the page into text; it is shown as text; remove it")
        if name in _RAW_TEXT_ELEMENTS and not self_closing:
            return self.raw_text_element(position, name, end)
        if (fragment.token.type == "html_inline" and end == name_match.end() + 1 and "-" not in name
                and name not in _KNOWN_ELEMENTS):
            # "<pid>" in a sentence is a placeholder, not an element: closing it would be wrong advice.
            shown = text[position:end]
            return self.show_as_text(position, f"'{shown}' is not an HTML element, so it is taken for a "
                                               f"placeholder and shown as text; write it as '\\{shown}' or "
                                               f"'`{shown}`' (in backticks) to say so")
        if self.check_balance and not self_closing and name not in _VOID_ELEMENTS:
            self.open_elements.append((name, position))
        return text.find("<", end)

    def tag_end(self, position: int, attributes_at: int, fragment_end: int) -> int:
        """The offset after the tag's '>' (-1 when it has none in its fragment)."""
        if position >= self.no_bracket_from.get(fragment_end, fragment_end):
            return -1
        end = _tag_end(self.text, attributes_at, fragment_end)
        if end < 0 and self.text.find(">", position, fragment_end) < 0:
            self.no_bracket_from[fragment_end] = position
        return end

    def comment(self, position: int) -> int:
        """<!-- … -->; an empty <!--> or <!---> ends at once."""
        text = self.text
        if text.startswith(">", position + 4) or text.startswith("->", position + 4):
            return text.find("<", position + 4)
        closing = self.find_closer("!--", _COMMENT_CLOSE, position + 4)
        if closing is None:
            return self.show_as_text(position, _COMMENT_MESSAGE)
        return text.find("<", closing.end())

    def end_tag(self, position: int, name: str, end: int) -> int:
        """</name>: closes the element it names (and those left open inside it) or is shown as text."""
        if not self.check_balance or name in _VOID_ELEMENTS or name in _OPTIONAL_END_ELEMENTS:
            return self.text.find("<", end)
        if not any(open_name == name for open_name, _ in self.open_elements):
            return self.show_as_text(position, f"'</{name}>' closes no element opened in this post, so it would "
                                               f"close one of the page around it; it is shown as text; remove it "
                                               f"or add the '<{name}>'", resume=end)
        while self.open_elements:
            open_name, opened_at = self.open_elements.pop()
            if open_name == name:
                break
            if open_name not in _OPTIONAL_END_ELEMENTS:
                # A browser would close it here too, but a <b> or <a> would come back
                # after it and wrap the rest of the page: close it for real.
                self.warnings.append((self.line_of(opened_at),
                                      f"'<{open_name}>' is never closed before '</{name}>'; it is closed "
                                      f"there; add '</{open_name}>' where it should end"))
                self.insert(position, f"</{open_name}>")
        return self.text.find("<", end)

    def raw_text_element(self, position: int, name: str, end: int) -> int:
        """<script>, <style>, <textarea> …: text up to their own end tag, which must come."""
        closer = re.compile(rf"</{name}[\t\n\f\r />]", re.IGNORECASE)
        closing = self.find_closer(name, closer, end)
        if closing is None:
            return self.show_as_text(position, f"'<{name}>' is never closed with '</{name}>', which would swallow "
                                               f"the rest of the page; it is shown as text; add '</{name}>'")
        # The content up to the end tag is text; go on after that tag.
        after = _tag_end(self.text, closing.end() - 1, len(self.text))
        return self.text.find("<", after) if after >= 0 else -1

    def close_open_elements(self) -> None:
        """Warn about elements still open at the end of the post; closers() closes them."""
        for name, opened_at in self.open_elements:
            if name not in _OPTIONAL_END_ELEMENTS:
                self.warnings.append((self.line_of(opened_at), f"'<{name}>' is never closed; it is closed at the "
                                                               f"end of the post; add '</{name}>' where it should end"))

    def closers(self) -> str:
        """The end tags of the elements left open, innermost first."""
        return "".join(f"</{name}>" for name, _ in reversed(self.open_elements) if name not in _OPTIONAL_END_ELEMENTS)

    def apply_edits(self) -> None:
        """Write the collected edits into the tokens' content."""
        for fragment in self.fragments:
            if not fragment.edits:
                continue
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


def check_raw_html(state: StateCore) -> None:
    """The core rule: scan the post's raw HTML, neutralise what would break the page, warn about it."""
    fragments = _raw_html_fragments(state.tokens)
    if not fragments:
        return
    environment = environment_of(state.env)
    placeholder = environment.placeholder
    # A shortcode may open or close an element that the markdown around it closes or opens,
    # so the balance of elements is only judged in posts without shortcodes.
    check_balance = placeholder is None or not placeholder.search(state.src)
    scan = RawHtmlScan(fragments, check_balance=check_balance)
    scan.run()
    scan.apply_edits()
    closers = scan.closers()
    if closers:
        state.tokens.append(Token("html_block", "", 0, content=closers + "\n"))
    for line, message in scan.warnings:
        environment.warn(line, message)
