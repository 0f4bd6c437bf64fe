"""Chroma's lexer XML files (lexers/embedded/*.xml, serialise.go) read into RegexLexers: the <config> at once,
the <rules> on first use; every fault names the file and line."""
from __future__ import annotations

import re
import xml.parsers.expat
from dataclasses import field
from pathlib import Path

from .lexer import (ByGroups, Combined, Config, Emitter, Include, LexerError, Mutator, Mutators, Pop, Push, Rule,
                    TokenEmitter, Using, UsingByGroup, UsingSelf)
from .token_types import TYPES
from ...core.records import dataclass

# Go's encoding/xml accepts an attribute twice (<combined state="a" state="b"/>, read into a list); expat does
# not, so a repeated name is renamed name.1, name.2 before parsing (line numbers stay).
_TAG = re.compile(r"<[A-Za-z_][\w-]*(?:\s+[\w-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))+\s*/?>")
_ATTRIBUTE = re.compile(r"([\w-]+)(\s*=\s*(?:\"[^\"]*\"|'[^']*'))")


@dataclass
class Node:
    """An XML element with the line it starts on."""

    tag: str
    attributes: list[tuple[str, str]]
    line: int
    children: list["Node"] = field(default_factory=list)
    text: str = ""

    def values(self, name: str) -> list[str]:
        """Every value of an attribute given once or more."""
        return [value for key, value in self.attributes if key.split(".")[0] == name]

    def value(self, name: str, default: str = "") -> str:
        found = self.values(name)
        return found[0] if found else default


def _rename_repeats(tag: re.Match[str]) -> str:
    seen: dict[str, int] = {}

    def rename(attribute: re.Match[str]) -> str:
        name = attribute.group(1)
        count = seen.get(name, 0)
        seen[name] = count + 1
        value = attribute.group(2)
        if "\n" in value:
            # Go keeps a newline inside an attribute value (a (?x) pattern's comment ends there); XML makes it
            # a space. It is written as a character reference, and the line breaks follow the tag as spaces.
            breaks.append("\n" * value.count("\n"))
            value = value.replace("\n", "&#10;")
        return f"{name}.{count}{value}" if count else name + value

    breaks: list[str] = []
    renamed = _ATTRIBUTE.sub(rename, tag.group(0))
    if breaks:
        closing = 2 if renamed.endswith("/>") else 1
        renamed = renamed[:-closing] + "".join(breaks) + renamed[-closing:]
    return renamed


def parse_xml(text: str, where: str) -> Node:
    """The document's root element, or LexerError naming where:line."""
    text = _TAG.sub(_rename_repeats, text)
    parser = xml.parsers.expat.ParserCreate()
    stack: list[Node] = []
    root: list[Node] = []

    def start(tag: str, attributes: list[str]) -> None:
        node = Node(tag, list(zip(attributes[::2], attributes[1::2], strict=True)), parser.CurrentLineNumber)
        (stack[-1].children if stack else root).append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def characters(data: str) -> None:
        if stack:
            stack[-1].text += data

    parser.ordered_attributes = True
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as error:
        raise LexerError(f"{where}:{error.lineno}: {xml.parsers.expat.errors.messages[error.code]}") from None
    if not root:
        raise LexerError(f"{where}:1: no element")
    return root[0]


def read_config(node: Node, where: str) -> Config:
    """The <config> element's settings."""
    def texts(tag: str) -> tuple[str, ...]:
        return tuple(child.text.strip() for child in node.children if child.tag == tag)

    def flag(tag: str) -> bool:
        return any(value.lower() == "true" for value in texts(tag))

    priority = 0.0
    for value in texts("priority"):
        try:
            priority = float(value)
        except ValueError:
            raise LexerError(f"{where}: priority {value!r} is not a number") from None
    analyse: list[tuple[str, float]] = []
    first = False
    for child in node.children:
        if child.tag == "analyse":
            first = child.value("first").lower() == "true"
            analyse += [(regex_node.value("pattern"), float(regex_node.value("score", "0") or 0))
                        for regex_node in child.children if regex_node.tag == "regex"]
    names = texts("name")
    if not names:
        raise LexerError(f"{where}:{node.line}: the lexer has no <name>")
    return Config(names[0], texts("alias"), texts("filename"), texts("alias_filename"), texts("mime_type"),
                  flag("case_insensitive"), flag("dot_all"), flag("not_multiline"), flag("ensure_nl"), priority,
                  tuple(analyse), first)


def _token_type(node: Node, where: str) -> int:
    name = node.value("type")
    if name not in TYPES:
        raise LexerError(f"{where}:{node.line}: unknown token type {name!r}")
    return TYPES[name]


def _emitters(nodes: list[Node], where: str) -> tuple[Emitter | None, ...]:
    return tuple(_emitter(node, where) for node in nodes)


def _emitter(node: Node, where: str) -> Emitter | None:
    if node.tag == "token":
        return TokenEmitter(_token_type(node, where))
    if node.tag == "bygroups":
        return ByGroups(_emitters(node.children, where))
    if node.tag == "using":
        return Using(node.value("lexer"))
    if node.tag == "usingself":
        return UsingSelf(node.value("state"))
    if node.tag == "usingbygroup":
        def number(tag: str) -> int:
            found = [child.text.strip() for child in node.children if child.tag == tag]
            if not found or not found[0].isdigit():
                raise LexerError(f"{where}:{node.line}: usingbygroup needs a <{tag}> number")
            return int(found[0])
        emitters = [child for child in node.children if child.tag == "emitters"]
        return UsingByGroup(number("sublexer_name_group"), number("code_group"),
                            _emitters(emitters[0].children if emitters else [], where))
    raise LexerError(f"{where}:{node.line}: unknown emitter <{node.tag}>")


_MUTATORS = frozenset({"push", "pop", "include", "combined", "mutators"})


def _mutator(node: Node, where: str) -> Mutator:
    if node.tag == "push":
        return Push(tuple(state for value in node.values("state") for state in [value] if state))
    if node.tag == "pop":
        depth = node.value("depth", "1")
        if not depth.lstrip("-").isdigit():
            raise LexerError(f"{where}:{node.line}: pop depth {depth!r} is not a number")
        return Pop(int(depth))
    if node.tag == "include":
        return Include(node.value("state"))
    if node.tag == "combined":
        return Combined(tuple(node.values("state")))
    return Mutators(tuple(_mutator(child, where) for child in node.children))


def read_rules(node: Node, where: str) -> dict[str, list[Rule]]:
    """The <rules> element's states."""
    states: dict[str, list[Rule]] = {}
    for state in node.children:
        if state.tag != "state":
            continue
        rules: list[Rule] = []
        for rule_node in state.children:
            if rule_node.tag != "rule":
                continue
            rule = Rule(rule_node.value("pattern"), where=f"{where}:{rule_node.line}")
            for child in rule_node.children:
                if child.tag in _MUTATORS:
                    if rule.mutator is not None:
                        raise LexerError(f"{where}:{child.line}: duplicate mutator")
                    rule.mutator = _mutator(child, where)
                else:
                    if rule.emitter is not None:
                        raise LexerError(f"{where}:{child.line}: duplicate emitter")
                    rule.emitter = _emitter(child, where)
            rules.append(rule)
        states[state.value("name")] = rules
    return states


@dataclass(frozen=True)
class XmlLexerFile:
    """One lexer file: its config read now, its rules read when first needed."""

    path: Path
    where: str

    def document(self) -> Node:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise LexerError(f"{self.where}:1: cannot read: {error}") from None
        return parse_xml(text, self.where)

    def head(self) -> Node:
        """The document up to its <config> (which Chroma's files open with): what a registry needs to know of
        every lexer, read without the rules (a fifth of the time of the whole file)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise LexerError(f"{self.where}:1: cannot read: {error}") from None
        end = text.find("</config>")
        opening = text.find("<lexer")
        if end < 0 or opening < 0 or "</lexer>" in text[:end]:
            return parse_xml(text, self.where)
        return parse_xml(text[:end + len("</config>")] + "</lexer>", self.where)

    def config(self, document: Node) -> Config:
        configs = [child for child in document.children if child.tag == "config"]
        if not configs:
            raise LexerError(f"{self.where}:1: could not find <config> element")
        return read_config(configs[0], self.where)

    def rules(self) -> dict[str, list[Rule]]:
        found = [child for child in self.document().children if child.tag == "rules"]
        return read_rules(found[0], self.where) if found else {}
