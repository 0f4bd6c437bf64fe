"""Reading flattened listing dumps back into posts: split a dump, read a flattened header, restore a body.

A dump is the text of a blog's listing pages after rendering: an optional first line naming the
listing, then one post per blank-line-separated block, every newline of the post lost, a header
(when present) flattened into the first words with typographic quotes, the closing `---` shown
as `—math: true`, and often a listing cut marked by a final `...`.
Everything here is a pure function over strings; nothing is guessed silently (notes go to the report).
"""
from __future__ import annotations

import re
from dataclasses import field
from typing import Any, Mapping

from .mermaid import DIAGRAM_START, restore_mermaid
from ..core.records import dataclass

_MATH_ON = "math: true"

@dataclass(frozen=True)
class DumpPost:
    """One post as a listing dump holds it: flattened text and where it came from."""

    dump: str          # the dump's name as shown in reports (its file name)
    listing: str       # the listing's name from the dump's first line, "" if none
    line: int          # 1-based line of the post in the dump
    text: str


@dataclass(frozen=True)
class FlatHeader:
    """A flattened header read back into metadata, and the body that follows it."""

    data: Mapping[str, Any]
    body: str
    found: bool                       # the post had a header at all
    notes: tuple[str, ...] = ()       # doubts worth the author's review


@dataclass(frozen=True)
class RestoredBody:
    """A flattened body turned back into markdown, with what was restored."""

    markdown: str
    diagrams: tuple[str, ...] = ()        # mermaid sources, one statement per line
    display_math: tuple[str, ...] = ()    # TeX of every $$…$$ block
    inline_math: tuple[str, ...] = ()     # TeX of every $…$ span
    rules: int = 0                        # thematic breaks restored from `—math: true`
    truncated: bool = False               # the listing cut the post (final `...` kept visible)
    notes: tuple[str, ...] = ()


_OPEN_QUOTES = "“‘\"'"
_CLOSE_QUOTES = {"“": "”", "‘": "’", '"': '"', "'": "'"}
_ARTIFACT = re.compile(r"(?:[—–]|-{2,3})\s?math:\s*true\b")
_TRUNCATION = re.compile(r"\s*(?:\.\.\.|…)\s*$")

# Keys a Hugo-style blog header uses; a value ends where the next one of these begins (values
# themselves may hold colons and parentheses, so an arbitrary `word:` cannot end a value).
_TOP_KEYS = frozenset({
    "title", "date", "lastmod", "publishDate", "expiryDate", "draft", "tags", "categories", "series",
    "description", "summary", "hero", "image", "images", "cover", "featured_image", "featuredImage",
    "author", "authors", "slug", "url", "aliases", "weight", "toc", "math", "menu", "keywords", "type",
    "layout", "lang", "translationKey", "isCJKLanguage", "showToc", "comments", "mermaid", "katex",
})
# Keys of one menu entry (Hugo's menu: NAME: {name, identifier, parent, weight, …}). `weight`
# is both a top key and an entry key; inside an open menu entry the entry reading wins, as in
# the Toha theme headers this corpus comes from.
_MENU_ENTRY_KEYS = frozenset({"name", "identifier", "parent", "weight", "url", "pre", "post", "title"})
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)\s*:(?=\s|$)")


def split_dump(text: str, *, name: str) -> tuple[DumpPost, ...]:
    """Split a listing dump into its posts; a short first line naming the listing is not a post."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    blocks: list[tuple[int, str]] = []
    current: list[str] = []
    start = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            if not current:
                start = number
            current.append(line.strip())
        elif current:
            blocks.append((start, " ".join(current)))
            current = []
    if current:
        blocks.append((start, " ".join(current)))
    listing = ""
    if len(blocks) > 1 and _looks_like_listing_name(blocks[0][1]):
        listing = blocks[0][1]
        blocks = blocks[1:]
    return tuple(DumpPost(name, listing, line, block) for line, block in blocks)


def _looks_like_listing_name(block: str) -> bool:
    return (len(block) <= 40 and len(block.split()) <= 5 and not _TRUNCATION.search(block)
            and not block.startswith(_MATH_ON) and not re.search(r"[。！？.!?:：]", block))


def read_flat_header(text: str) -> FlatHeader:
    """Read a post's flattened header (if any) into clean metadata; the rest is the body."""
    stripped = text.strip()
    math_prefix = re.match(r"math:\s*true\s+", stripped)
    rest = stripped[math_prefix.end():] if math_prefix else stripped
    first_key = _KEY.match(rest)
    if not first_key or first_key.group(1) not in _TOP_KEYS:
        # No header. A stray leading `math: true` (the damage without a header) is dropped.
        return FlatHeader({}, rest if math_prefix else stripped, False)
    end = _ARTIFACT.search(rest)
    notes: list[str] = []
    if end is None:
        notes.append("the header's end (`—math: true`) is missing; check where the body starts")
        header_text, body = rest, ""
    else:
        header_text, body = rest[: end.start()], rest[end.end():]
    data, unread, header_notes = _read_flat_mapping(header_text)
    notes.extend(header_notes)
    if end is None:
        body = unread
    elif unread.strip():
        notes.append(f"header text not understood, kept at the top of the body: {unread.strip()[:60]!r}")
        body = unread.strip() + " " + body
    return FlatHeader(data, body.strip(), True, tuple(notes))


@dataclass
class _Context:
    """One open mapping while reading a flattened header (a private, short-lived builder)."""

    data: dict[str, Any]
    kind: str                  # "top" | "menu" (its keys are menu names) | "entry" | "any"
    keys: frozenset[str] = field(default_factory=frozenset)


def _read_flat_mapping(text: str) -> tuple[dict[str, Any], str, list[str]]:
    """Read `key: value key: value …` into nested dicts; returns (data, unread rest, notes)."""
    top = _Context({}, "top", _TOP_KEYS)
    stack = [top]
    notes: list[str] = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position >= len(text):
            return top.data, "", notes
        match = _KEY.match(text, position)
        if not match:
            return top.data, text[position:], notes
        key = match.group(1)
        value_start = match.end()
        while value_start < len(text) and text[value_start].isspace():
            value_start += 1
        # Find the mapping this key belongs to: the innermost that lists it (menu names are any
        # key that opens a mapping of its own).
        nested_key = _KEY.match(text, value_start)
        opens_mapping = nested_key is not None and (nested_key.group(1) not in _TOP_KEYS or key == "menu")
        while len(stack) > 1:
            context = stack[-1]
            if context.kind == "menu" and opens_mapping:
                break
            if context.kind == "entry" and key in context.keys:
                break
            if context.kind == "any" and key not in _TOP_KEYS:
                break
            stack.pop()
        context = stack[-1]
        if key in context.data:
            notes.append(f"header key {key!r} appears twice; the last value is kept")
        if opens_mapping:
            kind = "menu" if key == "menu" else ("entry" if context.kind == "menu" else "any")
            child = _Context({}, kind, _MENU_ENTRY_KEYS if kind == "entry" else frozenset())
            context.data[key] = child.data
            stack.append(child)
            position = value_start
            continue
        value, position, note = _read_flat_value(text, value_start, stack)
        if note:
            notes.append(f"{key}: {note}")
        context.data[key] = value


def _boundary(text: str, start: int, stack: list[_Context]) -> int:
    """Where an unquoted value starting at start ends: before the next key of an open mapping."""
    allowed: set[str] = set()
    any_key = False
    for context in stack:
        allowed |= context.keys
        any_key = any_key or context.kind in ("any", "menu")
    for match in re.finditer(r"\s([A-Za-z_][A-Za-z0-9_-]*)\s*:(?=\s|$)", text[start:]):
        if match.group(1) in allowed or any_key:
            return start + match.start()
    return len(text)


def _read_flat_value(text: str, start: int, stack: list[_Context]) -> tuple[Any, int, str]:
    """One value: a quoted string, a [list], or a bare scalar up to the next key."""
    if start >= len(text):
        return "", start, "empty value"
    opening = text[start]
    if opening == "[":
        close = _matching_bracket(text, start)
        if close is not None:
            return _read_flat_list(text[start + 1:close]), close + 1, ""
    if opening in _OPEN_QUOTES:
        boundary = _boundary(text, start, stack)
        closers = {_CLOSE_QUOTES[opening], '"', "”"} if opening in "“\"" else {_CLOSE_QUOTES[opening], "'", "’"}
        # The closing quote is the last one before the next key, so inner quotes survive.
        segment = text[start + 1:boundary].rstrip()
        if segment and segment[-1] in closers:
            return clean_header_text(segment[:-1]), boundary, ""
    boundary = _boundary(text, start, stack)
    raw = text[start:boundary].strip()
    note = ""
    if re.search(r"\s[a-z][A-Za-z0-9_]*:\s", " " + raw):
        note = f"value {raw[:60]!r} may hold another key; check it"
    return _scalar(clean_header_text(raw)), boundary, note


def _matching_bracket(text: str, start: int) -> int | None:
    depth = 0
    quote: str | None = None
    for index in range(start, len(text)):
        char = text[index]
        if quote is not None:
            if char == quote or (quote == "”" and char == '"'):
                quote = None
            continue
        if char in "“\"":
            quote = "”" if char == "“" else '"'
        elif char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return index
    return None


def _read_flat_list(inner: str) -> list[Any]:
    items: list[Any] = []
    for match in re.finditer(r"“([^”]*)”|\"([^\"]*)\"|‘([^’]*)’|'([^']*)'|([^,“\"‘']+)", inner):
        quoted = next((group for group in match.groups()[:4] if group is not None), None)
        if quoted is not None:
            items.append(clean_header_text(quoted))
        else:
            bare = match.group(5).strip().strip(",").strip()
            if bare:
                items.append(_scalar(clean_header_text(bare)))
    return items


def clean_header_text(value: str) -> str:
    """Header text with ordinary quotes in place of typographic ones."""
    return (value.replace("“", '"').replace("”", '"').replace("‘", "'").replace("’", "'")
            .replace("″", '"').strip())


def _scalar(value: str) -> Any:
    if value in ("true", "false"):
        return value == "true"
    if re.fullmatch(r"-?\d{1,9}", value):
        return int(value)
    return value


# ---- bodies ---------------------------------------------------------------------------------

_DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)([^$\n]+?)(?<![\\\s])\$(?!\$)")
_SENTENCE_END = re.compile(r"(?<=[。！？])\s+")


def restore_body(text: str) -> RestoredBody:
    """Turn a flattened body back into markdown: rules, diagrams, display math, paragraphs."""
    text = text.strip()
    truncated = bool(_TRUNCATION.search(text)) and len(text) > 3
    chunks = [chunk.strip() for chunk in _ARTIFACT.split(text)]
    blocks: list[str] = []
    diagrams: list[str] = []
    display: list[str] = []
    notes: list[str] = []
    rules = 0
    for number, chunk in enumerate(chunks):
        if number > 0 and blocks and chunk:
            # A `—math: true` inside the body stands where a `---` rule was; at either end it is
            # only the damage and is dropped.
            blocks.append("---")
            rules += 1
        chunk_blocks, chunk_diagrams, chunk_display, chunk_notes = _restore_chunk(chunk)
        blocks.extend(chunk_blocks)
        diagrams.extend(chunk_diagrams)
        display.extend(chunk_display)
        notes.extend(chunk_notes)
    markdown = "\n\n".join(blocks)
    inline = tuple(match.group(1) for block in blocks if not block.startswith(("```", "$$"))
                   for match in _INLINE_MATH.finditer(block))
    return RestoredBody(markdown + "\n" if markdown else "", tuple(diagrams), tuple(display), inline,
                        rules, truncated, tuple(notes))


def _restore_chunk(text: str) -> tuple[list[str], list[str], list[str], list[str]]:
    blocks: list[str] = []
    diagrams: list[str] = []
    display: list[str] = []
    notes: list[str] = []
    prose_start = 0      # prose not yet emitted begins here
    search_from = 0      # look for the next diagram or $$ from here
    while search_from < len(text):
        diagram_match = DIAGRAM_START.search(text, search_from)
        math_match = _DISPLAY_MATH.search(text, search_from)
        candidates = [match for match in (diagram_match, math_match) if match is not None]
        if not candidates:
            break
        first = min(candidates, key=lambda match: match.start())
        if first is math_match:
            blocks.extend(restore_paragraphs(text[prose_start:first.start()]))
            tex = first.group(1).strip()
            display.append(tex)
            blocks.append(f"$$\n{tex}\n$$")
            prose_start = search_from = first.end()
            continue
        restored = restore_mermaid(text, first.start())
        if restored is None:
            # Not a diagram after all (or cut off mid-way): keep the words as prose.
            notes.append(f"text at {text[first.start():first.start() + 30]!r} looks like a diagram "
                         "but does not parse as one; left as prose")
            search_from = first.end()
            continue
        source, end = restored
        blocks.extend(restore_paragraphs(text[prose_start:first.start()]))
        diagrams.append(source)
        blocks.append(f"```mermaid\n{source}\n```")
        prose_start = search_from = end
    blocks.extend(restore_paragraphs(text[prose_start:]))
    return blocks, diagrams, display, notes


def restore_paragraphs(text: str) -> list[str]:
    """Prose split into paragraphs where a space follows CJK sentence punctuation (。！？)."""
    return [part.strip() for part in _SENTENCE_END.split(text.strip()) if part.strip()]



# ---- titles ---------------------------------------------------------------------------------

_URL = re.compile(r"https?://\S+")


def derive_title(body: str, *, limit: int = 48) -> str:
    """A title from a headerless post's opening words (URLs by their last part), for review."""
    opening = _ARTIFACT.sub(" ", body)
    cut = len(opening)
    for pattern in (DIAGRAM_START, re.compile(r"\$")):
        match = pattern.search(opening)
        if match:
            cut = min(cut, match.start())
    opening = opening[:cut]
    opening = _URL.sub(lambda match: match.group(0).rstrip("/").rsplit("/", 1)[-1], opening)
    opening = " ".join(opening.split())
    sentence = re.split(r"[。！？]|\.\s|[!?]\s", opening, maxsplit=1)[0].strip()
    if len(sentence) <= limit:
        return sentence or "Untitled"
    # Cut at the last clause mark (or after a closing bracket) that leaves brackets balanced.
    best = ""
    for match in re.finditer(r"[，、；,;：:]|[）)】\]]", sentence[: limit + 1]):
        candidate = sentence[: match.end() if match.group(0) in "）)】]" else match.start()].strip()
        if _balanced(candidate):
            best = candidate
    if len(best) >= 8:
        return best
    cut = limit
    while 0 < cut < len(sentence) and sentence[cut - 1].isascii() and sentence[cut - 1].isalnum() \
            and sentence[cut].isascii() and sentence[cut].isalnum():
        cut -= 1          # never cut inside a Latin word
    return (sentence[:cut].rstrip() or sentence[:limit]) + "…"


def _balanced(text: str) -> bool:
    return all(text.count(left) == text.count(right) for left, right in ("()", "（）", "[]", "【】"))


def comparable_text(body: str) -> str:
    """A body reduced for comparing copies: no artifacts, no cut marker, no whitespace."""
    text = _ARTIFACT.sub(" ", body)
    text = _TRUNCATION.sub("", text)
    return "".join(text.split())
