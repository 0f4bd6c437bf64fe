"""Text measures of rendered HTML: plain text, CJK-aware word count, reading time, summaries."""
from __future__ import annotations

import functools

import html as html_lib
import math
import re
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from html.parser import HTMLParser

from .config import SiteConfig
from .model import TextMetrics

# --- character classes -------------------------------------------------------------------------


class _Patterns:
    """The regexes over the CJK ranges (whose one home is markdown/cjk.py). Compiling their big
    character classes takes about 9 ms, so it is done on first use: a process that imports this
    module without measuring text (the CLI starting, a build's main process while workers render)
    never pays it."""

    __slots__ = ("cjk", "latin", "space_between_cjk", "token")

    def __init__(self) -> None:
        from .markdown.cjk import WIDE_RANGES, WORD_RANGES, character_class

        word = character_class(WORD_RANGES)
        cjk = f"[{word}]"
        wide = f"[{character_class(WIDE_RANGES)}]"
        # A Latin (or any non-CJK script) word: letters and digits, with inner apostrophes ("don't").
        # One character class (a word character, not "_", not CJK) instead of a look-ahead per character.
        latin_letter = rf"[^\W_{word}]"
        latin = rf"{latin_letter}+(?:['’]{latin_letter}+)*"
        self.cjk = re.compile(cjk)
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
    return len(patterns.cjk.findall(text)), len(patterns.latin.findall(text))


def count_words(text: str) -> int:
    """Words in plain text: every CJK character is one, each run of Latin letters or digits is one."""
    cjk, latin = _counts(text)
    return cjk + latin


def reading_minutes(text: str, *, cjk_rate: int, latin_rate: int) -> int:
    """Minutes to read text: CJK characters and Latin words at their own rates, at least 1."""
    cjk, latin = _counts(text)
    return _minutes(cjk, latin, cjk_rate, latin_rate)


def _minutes(cjk: int, latin: int, cjk_rate: int, latin_rate: int) -> int:
    # Fractions, so that 300 characters at 300 a minute is exactly 1 and never 1.0000001 -> 2.
    minutes = Fraction(cjk, max(cjk_rate, 1)) + Fraction(latin, max(latin_rate, 1))
    return max(1, math.ceil(minutes))


def _cost(text: str) -> int:
    """Summary budget used by text: a CJK character costs 1, a Latin word its length plus 1."""
    text = _normalize(text)
    patterns = _patterns()
    return len(patterns.cjk.findall(text)) + sum(len(word) + 1 for word in patterns.latin.findall(text))


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
        children = self.stack[-1].children
        if children and isinstance(children[-1], _Text):
            children[-1].text += data
        else:
            children.append(_Text(data))

    def handle_comment(self, data: str) -> None:
        self.stack[-1].children.append(_Comment(data))


def _parse(html: str) -> _Element:
    return _parse_with_text(html)[0]


def _parse_with_text(html: str) -> tuple[_Element, list[str] | None, bool]:
    """(tree, plain-text pieces or None, whether a more-marker may be in it), parsed once."""
    simple = _parse_simple(html)
    if simple is not None:
        return simple
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root, None, True


# The HTML markdown-it and Pygments write is regular: lower-case tags, attributes with double-quoted
# values, escaped text. _parse_simple reads that subset with one regex, several times faster than
# html.parser, and gives up (None) on anything else, which then goes to _TreeBuilder. On the subset
# both build the same tree (tests compare them): what html.parser does with a tag of this shape is
# lower-case its names, unescape its attribute values and unescape the text between tags.
_SPACE = "[ \t\n\r\f]"
# The first alternative takes a whole highlighted code block as markdown._render_fence writes it
# (Pygments' flat spans): half of a post's tags are in those, and _highlight_element reads one
# with a regex instead of a loop step per tag. Possessive, so a block that ends otherwise fails
# at once and goes to the tag alternatives like any other markup.
_HIGHLIGHT_BLOCK = (r'<div class="highlight"><pre><code((?: class="[^"]*+")?)>'
                    r'((?:<span class="[^"]*+">[^<]*+</span>|[^<]++)*+)</code></pre></div>')
_HIGHLIGHT_PIECE_RE = re.compile(r'<span( class="[^"]*")>([^<]*)</span>|([^<]+)')
_SIMPLE_TOKEN_RE = re.compile(
    rf"{_HIGHLIGHT_BLOCK}"
    rf"|<(?:([a-zA-Z][a-zA-Z0-9-]*)((?:{_SPACE}+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:=\"[^\"]*\")?)*){_SPACE}*(/?)>"
    rf"|/([a-zA-Z][a-zA-Z0-9-]*){_SPACE}*>"
    r"|!--([^-]*)-->)")
_SIMPLE_ATTRIBUTE_RE = re.compile(rf"{_SPACE}+([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:(=)\"([^\"]*)\")?")
_MAYBE_LEFT_OUT = _SKIPPED_IN_TEXT | {"a", "sup"}
# Elements whose content html.parser (in some Python version) reads as raw text, not as markup.
_RAW_TEXT_TAGS = frozenset("script style textarea title xmp iframe noembed noframes noscript plaintext".split())


def _parse_simple(html: str) -> tuple[_Element, list[str], bool] | None:
    """_parse_with_text for HTML of the regular subset; None for anything else.

    The plain-text pieces are collected on the way, as _plain_text_of's walk would: text outside
    skipped elements, and a block mark where each block element opens and closes.
    """
    # split() gives text, then the seven groups of a token, then text, ...: fewer calls than finditer.
    parts = _SIMPLE_TOKEN_RE.split(html)
    texts = parts[::8]
    if "<" in "".join(texts):
        return None           # a "<" that is not a tag of the subset
    root = _Element("#root", [])
    stack = [root]
    skipping = [False]        # per open element: inside something plain text leaves out
    children = root.children
    pieces: list[str] = []
    all_texts: list[str] = []  # every text, unescaped: where a "<!--more-->" paragraph would show
    has_comment = False
    seen_attributes: dict[str, list[tuple[str, str | None]]] = {}
    # One loop step per tag, its groups taken from strided slices (no slicing per step); the text
    # after the last tag comes with a tag of all None, which matches no branch below.
    ends = [None]
    for text, code_attributes, code, tag, attributes, self_closing, end_tag, comment in zip(
            texts, parts[1::8] + ends, parts[2::8] + ends, parts[3::8] + ends, parts[4::8] + ends,
            parts[5::8] + ends, parts[6::8] + ends, parts[7::8] + ends, strict=True):
        if text:
            if "&" in text:
                text = html_lib.unescape(text)
            all_texts.append(text)
            if children and type(children[-1]) is _Text:
                children[-1].text += text
            else:
                children.append(_Text(text))
            if not skipping[-1]:
                pieces.append(text.replace(_BLOCK_MARK, " ") if _BLOCK_MARK in text else text)
        if tag is not None:
            tag = tag.lower()
            if tag in _RAW_TEXT_TAGS:
                return None
            if attributes:
                # Highlighted code repeats the same few attribute strings (class="n"): read each once.
                # The lists are shared between elements; nothing changes an element's attrs in place.
                attrs = seen_attributes.get(attributes)
                if attrs is None:
                    attrs = seen_attributes[attributes] = _simple_attributes(attributes)
            else:
                attrs = []
            element = _Element(tag, attrs, [])
            children.append(element)
            skipped = skipping[-1] or (tag in _MAYBE_LEFT_OUT and _left_out_of_text(element))
            block = not skipped and tag in _BLOCK
            if block:
                pieces.append(_BLOCK_MARK)
            if not self_closing and tag not in _VOID:
                stack.append(element)
                skipping.append(skipped)
                children = element.children
            elif block:
                pieces.append(_BLOCK_MARK)
        elif end_tag is not None:
            end_tag = end_tag.lower()
            if stack[-1].tag == end_tag:
                # The common case, an end tag closing the innermost element ("#root" never matches).
                if not skipping[-1] and end_tag in _BLOCK:
                    pieces.append(_BLOCK_MARK)
                stack.pop()
                skipping.pop()
                children = stack[-1].children
                continue
            for open_index in range(len(stack) - 2, 0, -1):
                if stack[open_index].tag == end_tag:
                    for closed in range(open_index, len(stack)):
                        if not skipping[closed] and stack[closed].tag in _BLOCK:
                            pieces.append(_BLOCK_MARK)
                    del stack[open_index:]
                    del skipping[open_index:]
                    children = stack[-1].children
                    break
        elif comment is not None:
            children.append(_Comment(comment))
            has_comment = True
        elif code is not None:
            children.append(_highlight_element(code_attributes, code, seen_attributes,
                                               None if skipping[-1] else pieces, all_texts))
    # A marker is a comment, or a paragraph whose text is "<!--more-->": that text is then in the
    # concatenation of all texts too (lower() maps these characters one by one), so a post without
    # it never needs the tree walk that looks for a marker.
    may_have_more = has_comment or "<!--more-->" in "".join(all_texts).lower()
    return root, pieces, may_have_more


def _highlight_element(code_attributes: str, code: str, seen_attributes: dict[str, list[tuple[str, str | None]]],
                       pieces: list[str] | None, all_texts: list[str]) -> _Element:
    """The tree of one highlighted code block (div > pre > code > spans and text), as the tag loop
    would build it, with its text added to pieces (None: inside a left-out element) and all_texts."""

    def attributes_of(source: str) -> list[tuple[str, str | None]]:
        attrs = seen_attributes.get(source)
        if attrs is None:
            attrs = seen_attributes[source] = _simple_attributes(source)
        return attrs

    children: list = []
    texts: list[str] = []
    # Text runs and spans alternate (a run ends at the next "<"), so no two texts are ever merged.
    for span_attributes, span_text, text in _HIGHLIGHT_PIECE_RE.findall(code):
        if span_attributes:
            if "&" in span_text:
                span_text = html_lib.unescape(span_text)
            if span_text:
                children.append(_Element("span", attributes_of(span_attributes), [_Text(span_text)]))
                texts.append(span_text)
            else:
                children.append(_Element("span", attributes_of(span_attributes), []))
        else:
            if "&" in text:
                text = html_lib.unescape(text)
            children.append(_Text(text))
            texts.append(text)
    all_texts.extend(texts)
    if pieces is not None:
        joined = "".join(texts)
        # The marks of div and pre opening, the code's text, and of pre and div closing.
        pieces.extend((_BLOCK_MARK, _BLOCK_MARK, joined.replace(_BLOCK_MARK, " ") if _BLOCK_MARK in joined else joined,
                       _BLOCK_MARK, _BLOCK_MARK))
    code_element = _Element("code", attributes_of(code_attributes) if code_attributes else [], children)
    return _Element("div", attributes_of(' class="highlight"'), [_Element("pre", [], [code_element])])


def _simple_attributes(attributes: str) -> list[tuple[str, str | None]]:
    """The (name, value) pairs of a start tag of the regular subset, as html.parser reports them."""
    attrs: list[tuple[str, str | None]] = []
    for name, equals, value in _SIMPLE_ATTRIBUTE_RE.findall(attributes):
        if not equals:
            attrs.append((name.lower(), None))
        else:
            attrs.append((name.lower(), html_lib.unescape(value) if "&" in value else value))
    return attrs


def _left_out_of_text(element: _Element) -> bool:
    """Whether plain text leaves out this element and everything in it."""
    if element.tag in _SKIPPED_IN_TEXT or _is_anchor_link(element):
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
    if isinstance(node, _Comment):
        return ""
    return "".join(_text_of(child) for child in node.children)


def _is_anchor_link(element: _Element) -> bool:
    return element.tag == "a" and bool(element.classes() & {"anchor", "header-anchor", "footnote-backref"})


def _is_math(element: _Element) -> bool:
    return "math" in element.classes()


# --- plain text ------------------------------------------------------------------------------------

_BLOCK_MARK = "\ue000"   # a private-use character (not whitespace) marks block boundaries while folding


def plain_text(html: str) -> str:
    """The text of rendered HTML: tags and heading anchors dropped, math as TeX, one line per block."""
    root, pieces, _ = _parse_with_text(html)
    return _fold_plain_text(pieces) if pieces is not None else _plain_text_of(root)


def _plain_text_of(root: _Element) -> str:
    pieces: list[str] = []

    def walk(node) -> None:
        if isinstance(node, _Text):
            pieces.append(node.text.replace(_BLOCK_MARK, " ") if _BLOCK_MARK in node.text else node.text)
            return
        if isinstance(node, _Comment):
            return
        if _left_out_of_text(node):
            return   # scripts, heading anchors, "[1]" footnote markers: noise in search text and feeds
        block = node.tag in _BLOCK
        if block:
            pieces.append(_BLOCK_MARK)
        for child in node.children:
            walk(child)
        if block:
            pieces.append(_BLOCK_MARK)

    walk(root)
    return _fold_plain_text(pieces)


def _fold_plain_text(pieces: list[str]) -> str:
    """Text pieces and block marks as lines: white space folded, spaces between CJK characters gone."""
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
    if node.tag in _SKIPPED_IN_TEXT or node.tag == "img" or _is_anchor_link(node):
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


def _boundaries(block: _Element) -> list[_Boundary]:
    """Every allowed cut in a block, in document order, with the budget used before it."""
    found: list[_Boundary] = []
    cost = 0

    def walk(element: _Element) -> None:
        nonlocal cost
        for child in element.children:
            if isinstance(child, _Comment):
                continue
            if isinstance(child, _Text):
                matches = list(_patterns().token.finditer(_normalize(child.text)))
                tokens = [match.group(0) for match in matches]
                child.text = "".join(tokens)
                offset = 0
                for index, token in enumerate(tokens):
                    found.append(_Boundary(cost, _ends_sentence(tokens, index), child, offset))
                    # _cost(token), read from the alternative that matched: a CJK character costs 1,
                    # a Latin word its length plus 1, space and punctuation nothing.
                    kind = matches[index].lastindex
                    if kind == 1:
                        cost += 1
                    elif kind == 2:
                        cost += len(token) + 1
                    offset += len(token)
                found.append(_Boundary(cost, _ends_sentence(tokens, len(tokens)), child, offset))
                continue
            found.append(_Boundary(cost, False, child))
            if child.tag in _CUTTABLE and not _is_math(child):
                walk(child)
            else:
                cost += _cost(_text_of(child))

    walk(block)
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
    boundaries = _boundaries(block)
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
    root, pieces, may_have_more = _parse_with_text(html)   # parsed once: the parse is most of the cost
    text = _fold_plain_text(pieces) if pieces is not None else _plain_text_of(root)
    summary_html, truncated, summary_text = _summarize_tree(root, config.summary_length,
                                                            may_have_more=may_have_more)
    cjk, latin = _counts(text)
    return TextMetrics(
        plain_text=text,
        word_count=cjk + latin,
        reading_minutes=_minutes(cjk, latin, config.cjk_reading_rate, config.latin_reading_rate),
        summary_html=summary_html,
        truncated=truncated,
        summary_text=summary_text,
    )
