"""Flattened mermaid diagrams read back into one statement per line (the dump importer's diagrams)."""
from __future__ import annotations

import re

DIAGRAM_START = re.compile(r"(?<!\S)(?:graph|flowchart)\s+(?:TD|TB|BT|RL|LR)(?=\s|$)")

_EDGE = re.compile(r"\s*(<?(?:-{2,}[->ox]|-\.+-[>ox]?|={2,}[=>ox]|~{3,}))")
_EDGE_LABEL = re.compile(r"\s*\|([^|]*)\|")
_NODE_ID = re.compile(r"[A-Za-z0-9_\u00c0-\u2fff\u3040-\uffef][A-Za-z0-9_.\u00c0-\u2fff\u3040-\uffef]*")
_SHAPES = (("[[", "]]"), ("[(", ")]"), ("[/", "/]"), ("[\\", "\\]"), ("((", "))"), ("{{", "}}"),
           ("[", "]"), ("(", ")"), ("{", "}"), (">", "]"))
_DIRECTION = re.compile(r"direction\s+(?:TB|TD|BT|RL|LR)(?=\s|$)")
_STYLE = re.compile(r"(?:style|classDef|linkStyle|class)\s+\S+\s+\S+(?:,\s*\S+)*")


def restore_mermaid(text: str, start: int = 0) -> tuple[str, int] | None:
    """The flattened diagram starting at start as mermaid (one statement per line) and where it ends.

    None when no complete diagram starts there (no statements, or a `subgraph` never closed).
    """
    header = DIAGRAM_START.match(text, start) if start < len(text) else None
    if header is None:
        return None
    lines = [" ".join(header.group(0).split())]
    position = header.end()
    depth = 0
    statements = 0
    while True:
        found = _statement(text, position, depth)
        if found is None:
            break
        kind, statement, end = found
        if kind == "end":
            depth -= 1
        lines.append("    " * (depth + 1) + statement)
        if kind == "subgraph":
            depth += 1
        if kind != "comment":
            statements += 1
        position = end
    if statements == 0 or depth != 0:
        return None
    return "\n".join(lines), position


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _statement(text: str, position: int, depth: int) -> tuple[str, str, int] | None:
    """The statement at position as (kind, text, end), or None where the prose resumes."""
    position = _skip_space(text, position)
    if position >= len(text):
        return None
    if text.startswith("%%", position):
        return _comment(text, position, depth)
    word = re.compile(r"(end|subgraph)(?=\s|$)").match(text, position)
    if word and word.group(1) == "end":
        return ("end", "end", word.end()) if depth > 0 else None
    if word and word.group(1) == "subgraph":
        title_start = _skip_space(text, word.end())
        title = _node(text, title_start)
        if title is None:
            quoted = re.compile(r'"[^"]*"').match(text, title_start)
            if quoted is None:
                return None
            end = quoted.end()
        else:
            end = title[0]
        return "subgraph", "subgraph " + text[title_start:end], end
    for pattern, kind in ((_DIRECTION, "direction"), (_STYLE, "style")):
        match = pattern.match(text, position)
        if match:
            return kind, " ".join(match.group(0).split()), match.end()
    return _edge_statement(text, position)


def _comment(text: str, position: int, depth: int) -> tuple[str, str, int] | None:
    """A `%%` comment runs up to the next word where a real statement starts."""
    body_start = _skip_space(text, position + 2)
    first_word = re.compile(r"\S+").match(text, body_start)
    if first_word is None:
        return None
    for match in re.finditer(r"\s+", text[first_word.end():]):
        candidate = first_word.end() + match.end()
        if text.startswith("%%", candidate):
            continue       # a comment never ends at another comment: keeps the scan linear
        following = _statement(text, candidate, depth)
        if following is not None and following[0] != "comment":
            comment = " ".join(text[body_start:first_word.end() + match.start()].split())
            return "comment", f"%% {comment}", first_word.end() + match.start()
    return None


def _node(text: str, position: int) -> tuple[int, bool] | None:
    """A node reference at position: (end, has_shape), or None."""
    match = _NODE_ID.match(text, position)
    if match is None or match.group(0) in ("end", "subgraph"):
        return None
    end = match.end()
    for opening, closing in _SHAPES:
        if text.startswith(opening, end):
            inner_start = end + len(opening)
            if text.startswith('"', inner_start):
                close = text.find('"' + closing, inner_start + 1)
                if close == -1:
                    return None
                return close + 1 + len(closing), True
            shape_end = _shape_end(text, inner_start, opening[0], closing)
            if shape_end is None:
                return None
            return shape_end, True
    return end, False


def _shape_end(text: str, start: int, opening: str, closing: str) -> int | None:
    depth = 0
    index = start
    while index < len(text):
        if text.startswith(closing, index) and depth == 0:
            return index + len(closing)
        char = text[index]
        if char == opening and opening in "[({":
            depth += 1
        elif depth and char == {"[": "]", "(": ")", "{": "}"}.get(opening, ""):
            depth -= 1
        index += 1
    return None


def _edge_statement(text: str, position: int) -> tuple[str, str, int] | None:
    """`A[x] --> B`, chains, `-->|label|`, `A & B --> C`, or a lone node with a shape."""
    node = _node(text, position)
    if node is None:
        return None
    end, has_shape = node
    edges = 0
    while True:
        joined = re.compile(r"\s*&\s*").match(text, end)
        if joined:
            other = _node(text, joined.end())
            if other is None:
                break
            end = other[0]
            continue
        edge = _EDGE.match(text, end)
        if edge is None:
            break
        after = edge.end()
        label = _EDGE_LABEL.match(text, after)
        if label:
            after = label.end()
        target = _node(text, _skip_space(text, after))
        if target is None:
            break
        end = target[0]
        edges += 1
    if edges == 0 and not has_shape:
        return None
    return "node", text[position:end].replace("\n", " "), end
