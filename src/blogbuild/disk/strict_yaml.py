"""YAML read strictly and within bounds: front matter and config files (frontmatter/, config.py, hugo_config.py).

PyYAML builds a shared object for every alias, so reading is cheap; it is what comes after (normalising
keys, copying lists, writing JSON) that walks the data as a tree, and a "billion laughs" header of nine
nested aliases is a tree of 387 million values. So before anything is built, the node graph is measured
as the tree it stands for, each node once (memoised), with no recursion:

- a node that contains itself through an alias (a cycle) is an error;
- aliases may add at most ALIAS_BUDGET values to the document's own; Hugo (go-yaml) refuses the same
  documents with "too many YAML aliases for non-scalar nodes";
- a key given twice in one mapping is an error naming both lines, as in Hugo ("mapping key already
  defined"); keys brought in by a `<<` merge may be overridden, as YAML means them to be.

Both loaders (PyYAML's and libyaml's) compose the node graph the same way, so the check sits between
composing and constructing (get_single_data) and applies to either.
"""
from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

ALIAS_BUDGET = 100_000
_MERGE_TAG = "tag:yaml.org,2002:merge"


class StrictYAMLError(yaml.YAMLError):
    """A document that parses but is refused: duplicate keys, an alias cycle, an alias bomb.

    line is 0-based in the text that was parsed; other_line (duplicates) is where the key first was.
    """

    def __init__(self, kind: str, line: int, *, key: str = "", other_line: int = -1, size: int = 0) -> None:
        super().__init__(kind)
        self.kind = kind
        self.line = line
        self.key = key
        self.other_line = other_line
        self.size = size

    def describe(self, first_line: int) -> str:
        """The problem and what to do, lines counted from first_line (the file line of the text's line 0)."""
        if self.kind == "duplicate":
            return (f"key '{self.key}' is given twice in one mapping (line {self.other_line + first_line} "
                    f"and line {self.line + first_line}); keep one of them")
        if self.kind == "cycle":
            return ("a YAML alias refers to a value that contains it (a cycle); "
                    "write the value out instead of the alias")
        return (f"too many YAML aliases for non-scalar nodes: expanding them makes {self.size:,} values, "
                f"more than {ALIAS_BUDGET:,} beyond the document's own; write the values out "
                "instead of nesting aliases")


def check_nodes(root: Node, budget: int = ALIAS_BUDGET) -> None:
    """Raise StrictYAMLError for duplicate keys, alias cycles, or aliases expanding past the budget."""
    sizes: dict[int, int] = {}      # id(node) -> values in its expanded tree, once finished
    on_path: set[int] = set()       # nodes being expanded (a revisit is a cycle)
    own = 0                         # distinct nodes: the document as written
    duplicates: list[StrictYAMLError] = []
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            children = _children(node)
            sizes[key] = 1 + sum(sizes[id(child)] for child in children)
            if sizes[key] - own > budget:
                raise StrictYAMLError("budget", node.start_mark.line, size=sizes[key])
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise StrictYAMLError("cycle", node.start_mark.line)
        own += 1
        if isinstance(node, MappingNode):
            duplicates.extend(_duplicates(node))
        children = _children(node)
        on_path.add(key)
        stack.append((node, True))
        for child in children:
            child_key = id(child)
            if child_key in on_path:
                raise StrictYAMLError("cycle", node.start_mark.line)
            if child_key not in sizes:
                stack.append((child, False))
    if duplicates:
        raise min(duplicates, key=lambda error: error.line)  # the first in the file


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [item for pair in node.value for item in pair]
    return []


def _duplicates(node: MappingNode) -> list[StrictYAMLError]:
    found = []
    seen: dict[str, int] = {}
    for key_node, _value in node.value:
        if not isinstance(key_node, ScalarNode) or key_node.tag == _MERGE_TAG:
            continue
        name = key_node.value
        line = key_node.start_mark.line
        if name in seen:
            found.append(StrictYAMLError("duplicate", line, key=name, other_line=seen[name]))
        else:
            seen[name] = line
    return found


class StrictMixin:
    """Put before a PyYAML loader class: the node graph is checked before any value is built."""

    def get_single_data(self) -> Any:
        node = self.get_single_node()  # type: ignore[attr-defined]
        if node is None:
            return None
        check_nodes(node)
        return self.construct_document(node)  # type: ignore[attr-defined]


class StrictSafeLoader(StrictMixin, yaml.SafeLoader):
    """yaml.SafeLoader, strict and bounded."""


_StrictCSafeLoader: type | None = None
if getattr(yaml, "__with_libyaml__", False):
    class _StrictCSafeLoader(StrictMixin, yaml.CSafeLoader):  # type: ignore[no-redef]
        """yaml.CSafeLoader (libyaml's scanner and parser), strict and bounded."""


def load(text: str) -> Any:
    """yaml.safe_load, strict and bounded (config files)."""
    return load_fast(text, _StrictCSafeLoader, StrictSafeLoader)


# libyaml and PyYAML disagree on a few inputs: libyaml accepts tabs and other control or line-break
# characters, a byte-order mark, a bare "!" tag, "|#" block headers and "?" inside flow collections
# where PyYAML refuses them or reads them otherwise (found by differential fuzzing of the two). A
# text with any of these, with anchors and aliases (& and *: shared or cyclic data), or nested
# deeply, and every text libyaml rejects, is read by PyYAML: results and error messages stay PyYAML's.
_PURE_ONLY_RE = re.compile(r"[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
                           r"|!|[|>][-+0-9]*#")
_FLOW_RE = re.compile(r"[\[{]")
# Far below where PyYAML's recursion gives up, far above any real header or config.
_FAST_DEPTH_LIMIT = 40


def load_fast(text: str, fast_loader: type | None, loader: type) -> Any:
    """The YAML text as data, through fast_loader (a libyaml loader, None when PyYAML has none) when it reads
    the text exactly as loader (its PyYAML twin: the same resolvers, constructor and checks) would."""
    if fast_loader is not None and not _PURE_ONLY_RE.search(text) and not (
            "?" in text and _FLOW_RE.search(text)) and not ("&" in text and "*" in text):
        try:
            data = yaml.load(text, Loader=fast_loader)  # noqa: S506 - a CSafeLoader
        except Exception:  # noqa: BLE001 - PyYAML below decides, and words the error
            pass
        else:
            # PyYAML's composer recurses once per level and runs out of stack on a few hundred
            # levels ("nested too deeply"); libyaml does not. Deep data goes to PyYAML to decide.
            if not _deeper_than(data, _FAST_DEPTH_LIMIT):
                return data
    return yaml.load(text, Loader=loader)  # noqa: S506 - a SafeLoader


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether lists and mappings nest more than limit levels (data without aliases: a tree)."""
    pending = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, (list, dict)):
            if depth >= limit:
                return True
            pending.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return False
