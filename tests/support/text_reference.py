"""blogbuild.content.text as it was before its fast path (commit 654a762), kept to compare the two.

Parsing with html.parser, plain text by walking the tree, summaries and counts: tests/test_text.py
checks that the fast code gives exactly what this gives. Do not optimise this file.
"""
from __future__ import annotations

import html as html_lib
import math
import re
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from html.parser import HTMLParser

from blogbuild.config import SiteConfig
from blogbuild.content.math_text import tex_to_text
from blogbuild.core.model import TextMetrics

# --- character classes -------------------------------------------------------------------------

# Han (basic, extensions A-G, compatibility), kana, hangul, and the iteration marks 々〆〇 that
# behave as letters. CJK punctuation (、。「」…) is deliberately not here: it is not a word.
_CJK_RANGES = (
    "\u1100-\u11ff"          # hangul jamo
    "\u3005-\u3007"          # 々 〆 〇
    "\u3021-\u3029"          # hangzhou numerals
    "\u3031-\u3035"          # kana repeat marks
    "\u3040-\u309f"          # hiragana
    "\u30a1-\u30fa\u30fc-\u30ff"   # katakana without ゠ and the middle dot ・
    "\u3130-\u318f"          # hangul compatibility jamo
    "\u31f0-\u31ff"          # katakana phonetic extensions
    "\u3400-\u4dbf"          # CJK extension A
    "\u4e00-\u9fff"          # CJK unified ideographs
    "\ua960-\ua97f"          # hangul jamo extended A
    "\uac00-\ud7af"          # hangul syllables
    "\ud7b0-\ud7ff"          # hangul jamo extended B
    "\uf900-\ufaff"          # CJK compatibility ideographs
    "\uff66-\uff9f"          # halfwidth katakana
    "\uffa0-\uffdc"          # halfwidth hangul
    "\U00020000-\U0003134f"  # CJK extensions B-G
)
_CJK = f"[{_CJK_RANGES}]"
# CJK text plus its punctuation and full-width forms: a space between two of these is a line
# break artefact of the markdown source, not a word gap, so plain text drops it.
_CJK_WIDE = f"[{_CJK_RANGES}\u3000-\u303f\u30fb\uff00-\uff65]"
_CJK_RE = re.compile(_CJK)
# A Latin (or any non-CJK script) word: letters and digits, with inner apostrophes ("don't").
_LATIN_RE = re.compile(rf"(?:(?!{_CJK})[^\W_])+(?:['’](?:(?!{_CJK})[^\W_])+)*")
_SPACE_BETWEEN_CJK_RE = re.compile(rf"(?<={_CJK_WIDE}) (?={_CJK_WIDE})")
# Tokens for cutting a summary: one CJK character, one Latin word, one whitespace run, or one
# other character (punctuation). A cut only ever falls between tokens.
_TOKEN_RE = re.compile(rf"{_CJK}|{_LATIN_RE.pattern}|\s+|.", re.S)

_SENTENCE_ENDS = frozenset("。！？!?.")
_CLOSING_MARKS = frozenset("”’」』）)】》〉\"'")
# Trailing characters that read badly right before "…".
_TRAILING_JUNK = " \t\n\r，、；：,:;—–-（(「『“‘<>=+*/&|~^@#$%[{\\"


def _normalize(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _counts(text: str) -> tuple[int, int]:
    """(CJK characters, Latin words) in text."""
    text = _normalize(text)
    return len(_CJK_RE.findall(text)), len(_LATIN_RE.findall(text))


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
    return len(_CJK_RE.findall(text)) + sum(len(word) + 1 for word in _LATIN_RE.findall(text))


# --- a small HTML tree -----------------------------------------------------------------------------
# Private and mutable while it is built; nothing outside this module sees it.

_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_BLOCK = frozenset("""address article aside blockquote br dd details dialog div dl dt fieldset
    figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary
    table tbody td tfoot th thead tr ul""".split())
_SKIPPED_IN_TEXT = frozenset("script style template noscript".split())
_TAG_NAME_RE = re.compile(r"^[a-z][a-z0-9-]*$")
_ATTRIBUTE_NAME_RE = re.compile(r"^[a-zA-Z_:][-a-zA-Z0-9_:.]*$")


@dataclass(eq=False)
class _Text:
    text: str


@dataclass(eq=False)
class _Comment:
    text: str


@dataclass(eq=False)
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
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


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


def _is_line_number(element: _Element) -> bool:
    return element.tag == "span" and bool(element.classes() & {"ln", "lnt"})


def _is_math(element: _Element) -> bool:
    return "math" in element.classes()


# --- plain text ------------------------------------------------------------------------------------

_BLOCK_MARK = "\ue000"   # a private-use character (not whitespace) marks block boundaries while folding
# Marks around a formula's TeX while folding: plain text shows it as math_text reads it, words are
# counted in the TeX.
_MATH_OPEN, _MATH_CLOSE = "\ue001", "\ue002"


def plain_text(html: str) -> str:
    """The text of rendered HTML: tags and heading anchors dropped, math as read, one line per block."""
    return _readable(_plain_text_of(_parse(html)))


def _readable(marked: str) -> str:
    readable = re.sub("\ue001([^\ue001\ue002]*)\ue002", lambda match: tex_to_text(match.group(1)), marked)
    return _as_tex(readable)


def _as_tex(marked: str) -> str:
    return marked.replace(_MATH_OPEN, "").replace(_MATH_CLOSE, "")


def _plain_text_of(root: _Element) -> str:
    """The plain text, formulas between their marks."""
    pieces: list[str] = []

    def walk(node) -> None:
        if isinstance(node, _Text):
            pieces.append(re.sub("[\ue000-\ue002]", " ", node.text))
            return
        if isinstance(node, _Comment):
            return
        if node.tag in _SKIPPED_IN_TEXT or _is_anchor_link(node) or _is_line_number(node):
            return
        if node.tag == "sup" and "footnote-ref" in node.classes():
            return   # "[1]" markers are noise in search text and feeds
        block = node.tag in _BLOCK
        formula = node.tag in ("span", "div") and _is_math(node)
        pieces.extend([_BLOCK_MARK] if block else [])
        pieces.extend([_MATH_OPEN] if formula else [])
        for child in node.children:
            walk(child)
        pieces.extend([_MATH_CLOSE] if formula else [])
        pieces.extend([_BLOCK_MARK] if block else [])

    walk(root)
    # One pass over the whole text is much faster than one per text node.
    folded = re.sub(r"\s+", " ", "".join(pieces))
    lines = []
    for line in folded.split(_BLOCK_MARK):
        line = line.strip()
        if line:
            lines.append(_SPACE_BETWEEN_CJK_RE.sub("", line) if " " in line else line)
    return "\n".join(lines)


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
                tokens = [match.group(0) for match in _TOKEN_RE.finditer(_normalize(child.text))]
                child.text = "".join(tokens)
                offset = 0
                for index, token in enumerate(tokens):
                    found.append(_Boundary(cost, _ends_sentence(tokens, index), child, offset))
                    cost += _cost(token)
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


def _summary_until_more(root: _Element, marker) -> tuple[str, bool]:
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
    return _serialize(cleaned).strip(), any(_has_content(node) for node in after)


def summarize(html: str, *, length: int) -> tuple[str, bool]:
    """(summary HTML, truncated): up to <!--more-->, else whole prose blocks up to about length."""
    return _summarize_tree(_parse(html), length)


def _summarize_tree(root: _Element, length: int) -> tuple[str, bool]:
    # Cutting rewrites text nodes of root in place: callers parse afresh or are done with the tree.
    marker = _find_more(root)
    if marker is not None:
        return _summary_until_more(root, marker)
    length = max(length, 1)
    # "About" length: a whole block may run a quarter over rather than be cut.
    limit = length + length // 4
    chosen: list[str] = []
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
            used += cost
            continue
        remaining = length - used
        # Cut only when the room left is worth a partial block; otherwise stop at a whole one.
        if remaining * 3 >= length or not chosen:
            cut = _cut_block(block, remaining)
            if cut is not None:
                chosen.append(_serialize(cut[0]))
        truncated = True
        break
    return "\n".join(chosen), truncated


def text_metrics(html: str, *, config: SiteConfig) -> TextMetrics:
    """Plain text, word count, reading time and summary of one post's rendered HTML."""
    root = _parse(html)   # parsed once: the parse is most of the cost on long posts
    marked = _plain_text_of(root)
    summary_html, truncated = _summarize_tree(root, config.summary_length)
    cjk, latin = _counts(_as_tex(marked))
    return TextMetrics(
        plain_text=_readable(marked),
        word_count=cjk + latin,
        reading_minutes=_minutes(cjk, latin, config.cjk_reading_rate, config.latin_reading_rate),
        summary_html=summary_html,
        truncated=truncated,
    )
