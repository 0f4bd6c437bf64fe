"""Text measures of rendered HTML: plain text, CJK-aware word count, reading time, summaries."""
from __future__ import annotations

import functools

import html as html_lib
import re
import unicodedata
from dataclasses import field
from html.parser import HTMLParser

from ..config import SiteConfig
from .math_text import tex_to_text
from ..core.model import TextMetrics
from ..core.records import dataclass

# --- character classes -------------------------------------------------------------------------


class _Patterns:
    """The regexes over the CJK ranges (whose one home is markdown/cjk.py). Compiling their big
    character classes takes about 20 ms (re fills each class's table a character at a time, 5 ms a
    pattern), so it is done on first use: a process that imports this module without measuring text (the
    CLI starting, a build's main process while workers render) never pays it."""

    __slots__ = ("cjk_runs", "latin", "space_between_cjk", "token")

    def __init__(self) -> None:
        from ..markdown.cjk import WIDE_RANGES, WORD_RANGES, character_class

        word = character_class(WORD_RANGES)
        cjk = f"[{word}]"
        wide = f"[{character_class(WIDE_RANGES)}]"
        # A Latin (or any non-CJK script) word: letters and digits, with inner apostrophes ("don't").
        # One character class (a word character, not "_", not CJK) instead of a look-ahead per character.
        latin_letter = rf"[^\W_{word}]"
        latin = rf"{latin_letter}+(?:['’]{latin_letter}+)*"
        self.cjk_runs = re.compile(f"{cjk}+")   # counted by their lengths: a string a run, not a character
        self.latin = re.compile(latin)
        self.space_between_cjk = re.compile(rf"(?<={wide}) (?={wide})")
        # Tokens for cutting a summary: one CJK character, one Latin word, one whitespace run, or
        # one other character (punctuation). A cut only ever falls between tokens.
        self.token = re.compile(rf"({cjk})|({latin})|\s+|.", re.S)


@functools.cache
def _patterns() -> _Patterns:
    return _Patterns()


_SENTENCE_ENDS = frozenset("。！？!?.")
_CLOSING_MARKS = frozenset("”’」』）)】》〉\"'")
# Trailing characters that read badly right before "…".
_TRAILING_JUNK = " \t\n\r，、；：,:;—–-（(「『“‘<>=+*/&|~^@#$%[{\\"


def _normalize(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _counts(text: str) -> tuple[int, int]:
    """(CJK characters, Latin words) in text."""
    text = _normalize(text)
    patterns = _patterns()
    return sum(map(len, patterns.cjk_runs.findall(text))), len(patterns.latin.findall(text))


def count_words(text: str) -> int:
    """Words in plain text: every CJK character is one, each run of Latin letters or digits is one."""
    cjk, latin = _counts(text)
    return cjk + latin


def reading_minutes(text: str, *, cjk_rate: int, latin_rate: int) -> int:
    """Minutes to read text: CJK characters and Latin words at their own rates, at least 1."""
    cjk, latin = _counts(text)
    return _minutes(cjk, latin, cjk_rate, latin_rate)


def _minutes(cjk: int, latin: int, cjk_rate: int, latin_rate: int) -> int:
    # In whole numbers, so that 300 characters at 300 a minute is exactly 1 and never 1.0000001 -> 2: the
    # ceiling of cjk / cjk_rate + latin / latin_rate over the common denominator.
    cjk_rate, latin_rate = max(cjk_rate, 1), max(latin_rate, 1)
    return max(1, -(-(cjk * latin_rate + latin * cjk_rate) // (cjk_rate * latin_rate)))


def _cost(text: str) -> int:
    """Summary budget used by text: a CJK character costs 1, a Latin word its length plus 1."""
    text = _normalize(text)
    patterns = _patterns()
    return sum(map(len, patterns.cjk_runs.findall(text))) + sum(len(word) + 1 for word in patterns.latin.findall(text))


# --- a small HTML tree -----------------------------------------------------------------------------
# Private and mutable while it is built; nothing outside this module sees it.

_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_BLOCK = frozenset("""address article aside blockquote br dd details dialog div dl dt fieldset
    figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary
    table tbody td tfoot th thead tr ul""".split())
_SKIPPED_IN_TEXT = frozenset("script style template noscript".split())
_TAG_NAME_RE = re.compile(r"^[a-z][a-z0-9-]*$")
_ATTRIBUTE_NAME_RE = re.compile(r"^[a-zA-Z_:][-a-zA-Z0-9_:.]*$")


@dataclass(eq=False, slots=True)
class _Text:
    text: str


@dataclass(eq=False, slots=True)
class _Comment:
    text: str


@dataclass(eq=False, slots=True)
class _Element:
    tag: str
    attrs: list[tuple[str, str | None]]
    children: list = field(default_factory=list)

    def classes(self) -> set[str]:
        for name, value in self.attrs:
            if name == "class" and value:
                return set(value.split())
        return set()

    def attribute(self, wanted: str) -> str | None:
        for name, value in self.attrs:
            if name == wanted:
                return value
        return None


class _TreeBuilder(HTMLParser):
    """Parses any string into a well-nested tree: stray end tags are ignored, open ones closed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Element("#root", [])
        self.stack = [self.root]
        self.texts: list[str] = []     # the text read from HTML (not what TextTreeBuilder.text adds)
        self.has_comment = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not _TAG_NAME_RE.match(tag):
            return
        attrs = [(name, value) for name, value in attrs if _ATTRIBUTE_NAME_RE.match(name)]
        element = _Element(tag, attrs)
        self.stack[-1].children.append(element)
        if tag not in _VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not _TAG_NAME_RE.match(tag):
            return
        attrs = [(name, value) for name, value in attrs if _ATTRIBUTE_NAME_RE.match(name)]
        self.stack[-1].children.append(_Element(tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index].tag == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        self.texts.append(data)
        children = self.stack[-1].children
        if children and isinstance(children[-1], _Text):
            children[-1].text += data
        else:
            children.append(_Text(data))

    def handle_comment(self, data: str) -> None:
        self.has_comment = True
        self.stack[-1].children.append(_Comment(data))


class _CodeElement(_Element):
    """A highlighted code block: its text is known without parsing its HTML (the code itself), and
    its elements (Pygments' spans) are parsed from that HTML only if a summary has to show it."""

    __slots__ = ("html", "code_text", "_parsed", "formula")

    def __init__(self, tag: str, html: str, code_text: str) -> None:   # noqa: D107 (no dataclass init)
        self.tag = tag
        self.html = html
        self.code_text = code_text
        self._parsed: _Element | None = None
        # A ```math fence: a formula, whose text (its TeX) plain text shows as read.
        self.formula = tag == "div" and html.startswith('<div class="math')

    def _element(self) -> _Element:
        if self._parsed is None:
            parsed = next(child for child in _parse(self.html).children if isinstance(child, _Element))
            self._parsed = _Element(parsed.tag, parsed.attrs, parsed.children)
        return self._parsed

    @property
    def attrs(self) -> list[tuple[str, str | None]]:
        return self._element().attrs

    @attrs.setter
    def attrs(self, value: list[tuple[str, str | None]]) -> None:
        self._element().attrs = value

    @property
    def children(self) -> list:
        return self._element().children

    @children.setter
    def children(self, value: list) -> None:
        self._element().children = value


_FIRST_TAG_RE = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)")
# Tag names TextTreeBuilder.start has seen pass _TAG_NAME_RE (markdown's few: the check runs once each).
_GOOD_TAGS: set[str] = set()


class TextTreeBuilder:
    """Builds the tree this module measures from markdown's tokens: the markdown stage calls start,
    end and text for the elements it knows, and passes any other piece of the page as HTML, which
    html.parser reads into the same tree, so the result is the tree of the whole page's HTML."""

    def __init__(self) -> None:
        self._parser = _TreeBuilder()
        self._stack = self._parser.stack   # shared: the HTML read and the events build one tree
        self._texts: list[str] = []
        # Whether HTML passed in is not fully read yet (an open <script>, a trailing '&'): until it
        # is, every piece must come as HTML, as it would follow in the page.
        self.pending = False
        # The plain-text pieces, collected on the way as _plain_text_of's walk would (text outside
        # left-out elements, a block mark where each block element opens and closes), while every
        # piece comes as an event; None once HTML came in (then the walk does it).
        self._pieces: list[str] | None = []
        self._skipping = [False]   # per open element: inside something plain text leaves out
        self._in_math = [False]    # per open element: whether it is a formula (its text is TeX)

    def start(self, tag: str, attrs: list[tuple[str, str | None]], *, self_closing: bool = False) -> None:
        """An element opens (or, self-closing or void, stands alone); names as html.parser reports them."""
        if tag not in _GOOD_TAGS:
            if not _TAG_NAME_RE.match(tag):
                return
            _GOOD_TAGS.add(tag)
        if attrs:
            attrs = [(name, value) for name, value in attrs if _ATTRIBUTE_NAME_RE.match(name)]
        element = _Element(tag, attrs)
        stack = self._stack
        stack[-1].children.append(element)
        opens = not self_closing and tag not in _VOID
        if opens:
            stack.append(element)
        pieces = self._pieces
        if pieces is not None:
            skipped = self._skipping[-1] or (tag in _MAYBE_LEFT_OUT and _left_out_of_text(element))
            block = not skipped and tag in _BLOCK
            if block:
                pieces.append(_BLOCK_MARK)
            if opens:
                self._skipping.append(skipped)
                formula = not skipped and tag in _MATH_TAGS and _is_math(element)
                self._in_math.append(formula)
                if formula:
                    pieces.append(_MATH_OPEN)
            elif block:
                pieces.append(_BLOCK_MARK)

    def end(self, tag: str) -> None:
        """An element closes."""
        stack = self._stack
        if stack[-1].tag == tag and len(stack) > 1:
            stack.pop()
            if self._pieces is not None:
                if self._in_math.pop():
                    self._pieces.append(_MATH_CLOSE)
                if not self._skipping.pop() and tag in _BLOCK:
                    self._pieces.append(_BLOCK_MARK)
        else:
            self._pieces = None   # an end tag closing more than one element (or none): leave it to the walk
            self._parser.handle_endtag(tag)

    def text(self, text: str) -> None:
        """Text (not escaped)."""
        if text:
            self._texts.append(text)
            children = self._stack[-1].children
            if children and type(children[-1]) is _Text:
                children[-1].text += text
            else:
                children.append(_Text(text))
            if self._pieces is not None and not self._skipping[-1]:
                self._pieces.append(_unmarked(text))

    @property
    def read_html(self) -> bool:
        """Whether plain text needs a walk over the tree: a piece came as HTML, or an end tag
        closed more than the innermost element."""
        return self._pieces is None

    def html(self, html: str) -> None:
        """A piece of the page as HTML."""
        parser = self._parser
        self._pieces = None
        parser.feed(html)
        self.pending = bool(parser.rawdata) or parser.cdata_elem is not None

    def code(self, html: str, code_text: str) -> None:
        """A block of code: one block element, its HTML, and the text that HTML shows."""
        first = _FIRST_TAG_RE.match(html)
        if first is None or self.pending or first.group(1).lower() not in _BLOCK:
            self.html(html)
            return
        self._texts.append(code_text)
        element = _CodeElement(first.group(1).lower(), html, code_text)
        self._stack[-1].children.append(element)
        if self._pieces is not None and not self._skipping[-1]:
            self._pieces.extend(_code_pieces(element))

    def measure(self, config: SiteConfig) -> TextMetrics:
        """Plain text, word count, reading time and summary of the page built."""
        self._parser.close()
        # A marker is a comment, or a paragraph whose text is "<!--more-->": that text is then in the
        # concatenation of all texts too, so a post without either never walks the tree for it.
        joined = "".join(self._texts + self._parser.texts)
        may_have_more = self._parser.has_comment or ("<!--" in joined and "<!--more-->" in joined.lower())
        return _measure(self._parser.root, config, may_have_more=may_have_more, pieces=self._pieces)


def _parse(html: str) -> _Element:
    """The tree of any HTML string."""
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


# The elements _left_out_of_text may leave out: anything else needs no look at its attributes.
_MAYBE_LEFT_OUT = _SKIPPED_IN_TEXT | {"a", "sup", "span"}


def _left_out_of_text(element: _Element) -> bool:
    """Whether plain text leaves out this element and everything in it."""
    if element.tag in _SKIPPED_IN_TEXT or _is_anchor_link(element) or _is_line_number(element):
        return True
    return element.tag == "sup" and "footnote-ref" in element.classes()


def _serialize_start(element: _Element) -> str:
    parts = [element.tag]
    for name, value in element.attrs:
        parts.append(name if value is None else f'{name}="{html_lib.escape(value, quote=True)}"')
    return "<" + " ".join(parts) + ">"


def _serialize(node) -> str:
    if isinstance(node, _Text):
        return html_lib.escape(node.text, quote=False)
    if isinstance(node, _Comment):
        return ""
    inner = "".join(_serialize(child) for child in node.children)
    if node.tag == "#root":
        return inner
    if node.tag in _VOID:
        return _serialize_start(node)
    return f"{_serialize_start(node)}{inner}</{node.tag}>"


def _text_of(node) -> str:
    if isinstance(node, _Text):
        return node.text
    if isinstance(node, _CodeElement):
        return node.code_text
    if isinstance(node, _Comment):
        return ""
    return "".join(_text_of(child) for child in node.children)


def _is_anchor_link(element: _Element) -> bool:
    return element.tag == "a" and bool(element.classes() & {"anchor", "header-anchor", "footnote-backref"})


def _is_line_number(element: _Element) -> bool:
    """A code block's line number (Hugo's ln and lnt classes): not text of the post."""
    return element.tag == "span" and bool(element.classes() & {"ln", "lnt"})


def _is_math(element: _Element) -> bool:
    return "math" in element.classes()


# --- plain text ------------------------------------------------------------------------------------

# Private-use characters (not white space) that mark, while folding, where blocks begin and end and
# where a formula's TeX begins and ends (which plain text shows as text a reader sees: math_text.py).
_BLOCK_MARK = "\ue000"
_MATH_OPEN = "\ue001"
_MATH_CLOSE = "\ue002"
_MARKS = f"[{_BLOCK_MARK}{_MATH_OPEN}{_MATH_CLOSE}]"
_MATH_TAGS = frozenset({"span", "div"})
_FORMULA = re.compile(f"{_MATH_OPEN}([^{_MATH_OPEN}{_MATH_CLOSE}]*){_MATH_CLOSE}")


def _unmarked(text: str) -> str:
    """text with any of the marks above that it holds itself made spaces."""
    if _BLOCK_MARK in text or _MATH_OPEN in text or _MATH_CLOSE in text:
        return re.sub(_MARKS, " ", text)
    return text


def _code_pieces(element: _CodeElement) -> tuple[str, ...]:
    """The plain-text pieces of a code block (or a ```math fence's formula)."""
    if element.formula:
        return (_BLOCK_MARK, _MATH_OPEN, _unmarked(element.code_text), _MATH_CLOSE, _BLOCK_MARK)
    return (_BLOCK_MARK, _unmarked(element.code_text), _BLOCK_MARK)


def _readable(marked: str) -> str:
    """Folded plain text with each formula's TeX as the text a reader sees (V × d, not V \\times d)."""
    if _MATH_OPEN not in marked:
        return marked
    readable = _FORMULA.sub(lambda match: tex_to_text(match.group(1)), marked)
    # A formula inside a formula (raw HTML can nest them) is read once, the inner one; its outer marks go.
    return readable.replace(_MATH_OPEN, "").replace(_MATH_CLOSE, "") if _MATH_OPEN in readable else readable


def _as_tex(marked: str) -> str:
    """Folded plain text with formulas as their TeX (what words are counted in, as Hugo counts them)."""
    if _MATH_OPEN not in marked:
        return marked
    return marked.replace(_MATH_OPEN, "").replace(_MATH_CLOSE, "")


def plain_text(html: str, *, tex: bool = False) -> str:
    """The text of rendered HTML: tags and heading anchors dropped, math as the text a reader sees (tex: as
    its TeX, the text words are counted in), one line per block."""
    marked = _marked_plain_text_of(_parse(html))
    return _as_tex(marked) if tex else _readable(marked)


def _plain_text_of(root: _Element) -> str:
    return _readable(_marked_plain_text_of(root))


def _marked_plain_text_of(root: _Element) -> str:
    pieces: list[str] = []

    def walk(node) -> None:
        if isinstance(node, _Text):
            pieces.append(_unmarked(node.text))
            return
        if isinstance(node, _Comment):
            return
        if isinstance(node, _CodeElement) and node.tag in _BLOCK:
            # Its text without parsing its HTML; the block elements inside it would only add more
            # block marks, which change nothing (the empty lines between them are dropped).
            pieces.extend(_code_pieces(node))
            return
        if _left_out_of_text(node):
            return   # scripts, heading anchors, "[1]" footnote markers: noise in search text and feeds
        block = node.tag in _BLOCK
        formula = node.tag in _MATH_TAGS and _is_math(node)
        if block:
            pieces.append(_BLOCK_MARK)
        if formula:
            pieces.append(_MATH_OPEN)
        for child in node.children:
            walk(child)
        if formula:
            pieces.append(_MATH_CLOSE)
        if block:
            pieces.append(_BLOCK_MARK)

    walk(root)
    return _fold_plain_text(pieces)


def _fold_plain_text(pieces: list[str]) -> str:
    """Text pieces and block marks as lines: white space folded, spaces between CJK characters gone
    (formulas still marked)."""
    # One pass over the whole text is much faster than one per text node.
    # str.split() breaks on the same white space as re's \s (both use Py_UNICODE_ISSPACE), and
    # the spaces it drops at the two ends would be stripped from the first and last line anyway.
    folded = " ".join("".join(pieces).split())
    # Once over the whole text rather than per line: a block mark is not CJK, so no space is removed
    # across lines, and the spaces strip() removes at the ends of a line are never between two CJK.
    folded = _patterns().space_between_cjk.sub("", folded)
    return "\n".join(line for line in (line.strip() for line in folded.split(_BLOCK_MARK)) if line)


# --- summaries -------------------------------------------------------------------------------------

# Top-level blocks that read as prose; headings, code, diagrams, display math, tables, details and
# footnotes are left to the full page (Hugo's summaries are text too).
_PROSE_BLOCKS = frozenset("p ul ol blockquote dl".split())
# Elements a summary may be cut inside (closing them after the cut). Everything else — math, code,
# kbd, sub/sup, abbr, raw inline HTML — is kept whole or left out whole.
_CUTTABLE = frozenset("p li ul ol blockquote dl dt dd em strong b i u s del ins mark small a q cite".split())


def _is_more_marker(node) -> bool:
    if isinstance(node, _Comment):
        return node.text.strip().lower() == "more"
    # With raw HTML disabled, markdown escapes the marker into a paragraph of its own.
    return (isinstance(node, _Element) and node.tag == "p"
            and _text_of(node).strip().lower() == "<!--more-->")


def _find_more(node):
    for child in node.children:
        if isinstance(child, _CodeElement):
            continue   # highlighted code holds neither a comment nor a paragraph
        if _is_more_marker(child):
            return child
        if isinstance(child, _Element):
            found = _find_more(child)
            if found is not None:
                return found
    return None


def _clean_for_summary(node):
    """A copy of node fit for list pages: no heading anchors, footnote marks, images, ids, scripts.

    Ids go because a home page shows many summaries and the same id twice is invalid HTML;
    images and relative links go because their relative paths break away from the post's folder.
    """
    if isinstance(node, (_Text, _Comment)):
        return [node]
    if node.tag in _SKIPPED_IN_TEXT or node.tag == "img" or _is_anchor_link(node) or _is_line_number(node):
        return []
    if node.tag == "sup" and "footnote-ref" in node.classes():
        return []
    children = [clean for child in node.children for clean in _clean_for_summary(child)]
    if node.tag == "a":
        href = node.attribute("href") or ""
        if not re.match(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/)", href):
            return children
    attrs = [(name, value) for name, value in node.attrs if name != "id"]
    return [_Element(node.tag, attrs, children)]


@dataclass(frozen=True)
class _Boundary:
    """A place a block may be cut: before `node`, or inside the text node at `offset`."""

    cost: int
    sentence_end: bool
    node: object
    offset: int | None = None


class _PastBudget(Exception):
    """The walk of _boundaries has gone past its budget: later cuts can never be chosen."""


def _boundaries(block: _Element, budget: int) -> list[_Boundary]:
    """Every allowed cut in a block, in document order, with the budget used before it, up to and
    including the first that uses more than budget (no later one can be chosen)."""
    found: list[_Boundary] = []
    cost = 0
    token_re = _patterns().token

    def add(boundary: _Boundary) -> None:
        found.append(boundary)
        if boundary.cost > budget:
            raise _PastBudget

    def walk(element: _Element) -> None:
        nonlocal cost
        for child in element.children:
            if isinstance(child, _Comment):
                continue
            if isinstance(child, _Text):
                child.text = _normalize(child.text)
                tokens: list[str] = []
                offset = 0
                for match in token_re.finditer(child.text):
                    token = match.group(0)
                    tokens.append(token)
                    add(_Boundary(cost, _ends_sentence(tokens, len(tokens) - 1), child, offset))
                    # _cost(token), read from the alternative that matched: a CJK character costs 1,
                    # a Latin word its length plus 1, space and punctuation nothing.
                    kind = match.lastindex
                    if kind == 1:
                        cost += 1
                    elif kind == 2:
                        cost += len(token) + 1
                    offset += len(token)
                add(_Boundary(cost, _ends_sentence(tokens, len(tokens)), child, offset))
                continue
            add(_Boundary(cost, False, child))
            if child.tag in _CUTTABLE and not _is_math(child):
                walk(child)
            else:
                cost += _cost(_text_of(child))

    try:
        walk(block)
    except _PastBudget:
        pass
    return found


def _ends_sentence(tokens: list[str], index: int) -> bool:
    """Whether tokens[:index] ends a sentence (closing quotes after the stop included)."""
    position = index - 1
    while position >= 0 and tokens[position] in _CLOSING_MARKS:
        position -= 1
    if position < 0 or tokens[position] not in _SENTENCE_ENDS:
        return False
    if tokens[position] == ".":
        # "3.14" and "example.com" are not sentence ends: the stop must be followed by a space or end.
        following = tokens[index] if index < len(tokens) else " "
        return following.isspace()
    return True


def _cut_block(block: _Element, budget: int) -> tuple[_Element, int] | None:
    """The block cut to about budget, at a sentence end when one is near enough; None if uncuttable."""
    boundaries = _boundaries(block, budget)
    within = [boundary for boundary in boundaries if 0 < boundary.cost <= budget]
    # A sentence end is only worth it if it keeps at least a third of the budget.
    sentences = [boundary for boundary in within if boundary.sentence_end and boundary.cost * 3 >= budget]
    if sentences:
        chosen, ellipsis = sentences[-1], False
    elif within:
        chosen, ellipsis = within[-1], True
    else:
        # The first unit (a long formula, say) is over budget alone: keep it whole and stop after it.
        after = [boundary for boundary in boundaries if boundary.cost > 0]
        if not after:
            return None
        chosen, ellipsis = after[0], True
    return _copy_until(block, chosen, ellipsis), chosen.cost


def _copy_until(block: _Element, cut: _Boundary, ellipsis: bool) -> _Element:
    """A copy of block holding everything before cut; every element still open is closed."""
    done = False
    last_text: list[_Text] = []

    def copy(element: _Element) -> _Element:
        nonlocal done
        result = _Element(element.tag, list(element.attrs))
        for child in element.children:
            if done:
                break
            if child is cut.node and cut.offset is None:
                done = True
                break
            if isinstance(child, _Text):
                if child is cut.node:
                    text = _Text(child.text[:cut.offset])
                    done = True
                else:
                    text = _Text(child.text)
                result.children.append(text)
                last_text.append(text)
            elif isinstance(child, _Comment):
                continue
            else:
                result.children.append(copy(child) if _contains(child, cut.node) else child)
        return result

    copied = copy(block)
    if ellipsis:
        if last_text:
            last_text[-1].text = last_text[-1].text.rstrip(_TRAILING_JUNK)
        _innermost_last(copied).children.append(_Text("…"))
    return _prune_empty(copied) or copied


def _contains(node, target) -> bool:
    if node is target:
        return True
    return isinstance(node, _Element) and any(_contains(child, target) for child in node.children)


def _innermost_last(element: _Element) -> _Element:
    """The deepest cuttable element at the end of element, where "…" belongs."""
    while element.children and isinstance(element.children[-1], _Element):
        last = element.children[-1]
        if last.tag not in _CUTTABLE or _is_math(last) or last.tag in _VOID:
            break
        element = last
    return element


def _prune_empty(element: _Element) -> _Element | None:
    """Drop cuttable elements left without text by a cut (an <em> opened just before it)."""
    children = []
    for child in element.children:
        if isinstance(child, _Element) and child.tag in _CUTTABLE and not _is_math(child):
            pruned = _prune_empty(child)
            if pruned is not None:
                children.append(pruned)
        elif not (isinstance(child, _Text) and child.text == ""):
            children.append(child)
    element.children = children
    if not children or all(isinstance(child, _Text) and not child.text.strip() for child in children):
        return None
    return element


def _has_content(node) -> bool:
    if isinstance(node, _Text):
        return bool(node.text.strip())
    if isinstance(node, _Comment):
        return False
    return True


def _summary_until_more(root: _Element, marker) -> tuple[str, bool, str]:
    """Everything before the more-marker, cleaned; truncated when anything of substance follows."""
    before = _copy_until(root, _Boundary(0, False, marker), ellipsis=False)
    cleaned = _Element("#root", [], [item for child in before.children for item in _clean_for_summary(child)])
    after, seen = [], False

    def collect(node) -> None:
        nonlocal seen
        for child in node.children:
            if child is marker:
                seen = True
            elif seen:
                after.append(child)
            elif isinstance(child, _Element):
                collect(child)

    collect(root)
    return _serialize(cleaned).strip(), any(_has_content(node) for node in after), _plain_text_of(cleaned)


def summarize(html: str, *, length: int) -> tuple[str, bool]:
    """(summary HTML, truncated): up to <!--more-->, else whole prose blocks up to about length."""
    summary_html, truncated, _ = _summarize_tree(_parse(html), length)
    return summary_html, truncated


def _summarize_tree(root: _Element, length: int, *, may_have_more: bool = True) -> tuple[str, bool, str]:
    """(summary HTML, truncated, summary plain text) of a parsed post."""
    # Cutting rewrites text nodes of root in place: callers parse afresh or are done with the tree.
    marker = _find_more(root) if may_have_more else None
    if marker is not None:
        return _summary_until_more(root, marker)
    length = max(length, 1)
    # "About" length: a whole block may run a quarter over rather than be cut.
    limit = length + length // 4
    chosen: list[str] = []
    chosen_blocks: list[_Element] = []
    used = 0
    truncated = False
    blocks = [node for node in root.children if _has_content(node)]
    for node in blocks:
        if not (isinstance(node, _Element) and node.tag in _PROSE_BLOCKS):
            truncated = True
            continue
        cleaned = _clean_for_summary(node)
        block = cleaned[0] if cleaned else None
        if block is None or not isinstance(block, _Element) or _prune_empty(block) is None:
            continue
        cost = _cost(_text_of(block))
        if used + cost <= limit:
            chosen.append(_serialize(block))
            chosen_blocks.append(block)
            used += cost
            continue
        remaining = length - used
        # Cut only when the room left is worth a partial block; otherwise stop at a whole one.
        if remaining * 3 >= length or not chosen:
            cut = _cut_block(block, remaining)
            if cut is not None:
                chosen.append(_serialize(cut[0]))
                chosen_blocks.append(cut[0])
        truncated = True
        break
    # The summary's text from its tree: what plain_text() of the summary HTML gives, without parsing it.
    return "\n".join(chosen), truncated, _plain_text_of(_Element("#root", [], chosen_blocks))


def text_metrics(html: str, *, config: SiteConfig) -> TextMetrics:
    """Plain text, word count, reading time and summary of one post's rendered HTML."""
    return _measure(_parse(html), config, may_have_more=True)


def _measure(root: _Element, config: SiteConfig, *, may_have_more: bool,
             pieces: list[str] | None = None) -> TextMetrics:
    """The text metrics of a post's tree (whose text nodes the summary's cut rewrites), and its
    plain-text pieces when they were collected while it was built."""
    marked = _fold_plain_text(pieces) if pieces is not None else _marked_plain_text_of(root)
    summary_html, truncated, summary_text = _summarize_tree(root, config.summary_length,
                                                            may_have_more=may_have_more)
    cjk, latin = _counts(_as_tex(marked))
    return TextMetrics(
        plain_text=_readable(marked),
        word_count=cjk + latin,
        reading_minutes=_minutes(cjk, latin, config.cjk_reading_rate, config.latin_reading_rate),
        summary_html=summary_html,
        truncated=truncated,
        summary_text=summary_text,
    )
