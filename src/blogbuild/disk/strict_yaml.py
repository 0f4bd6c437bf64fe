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


def load(text: str) -> Any:
    """yaml.safe_load, strict and bounded (config files)."""
    return yaml.load(text, Loader=StrictSafeLoader)  # noqa: S506 - a SafeLoader
