"""The pieces Chroma's Go-coded lexers are written with (regexp.go's Words, mutators.go's Default, emitters.go's
ByGroups), for rule tables written as data: each state a list of Include(...) or (pattern, emitter, mutator)
tuples, an emitter a token type's name (Chroma's, "String" or "LiteralString"), None or an Emitter; the table
becomes Rules when the lexer is first used."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from .lexer import ByGroups, Emitter, Include, Mutator, Mutators, Pop, Push, Rule, TokenEmitter
from .token_types import TYPES

StateTable = dict[str, list[Any]]


def token(name: str) -> TokenEmitter:
    """A token type by Chroma's name of it, as an emitter of the whole match."""
    return TokenEmitter(TYPES[name])


def emitter(value: str | Emitter | None) -> Emitter | None:
    """A table's emitter: a type's name is that token, None emits nothing."""
    return token(value) if isinstance(value, str) else value


def groups(*emitters: str | Emitter | None) -> ByGroups:
    """ByGroups: one emitter per group."""
    return ByGroups(tuple(emitter(each) for each in emitters))


def push(*states: str) -> Push:
    return Push(states)


def pop(depth: int) -> Pop:
    return Pop(depth)


def default(*mutators: Mutator) -> tuple[None, None, Mutator]:
    """Default(...): a rule of no pattern (it matches the empty string) applying the mutators in order."""
    return (None, None, Mutators(mutators))


def quote_meta(text: str) -> str:
    """Go's regexp.QuoteMeta: the characters \\.+*?()|[]{}^$ escaped, nothing else."""
    return "".join("\\" + char if char in "\\.+*?()|[]{}^$" else char for char in text)


def words(prefix: str, suffix: str, *alternatives: str) -> str:
    """chroma.Words: the words, longest (in UTF-8 bytes) first, each quoted, as one group of alternatives."""
    ordered = sorted(alternatives, key=lambda word: len(word.encode("utf-8")), reverse=True)
    return prefix + "(" + "|".join(quote_meta(word) for word in ordered) + ")" + suffix


def rule_list(where: str, table: Sequence[Any]) -> list[Rule]:
    """One state's rules from its table."""
    out: list[Rule] = []
    for entry in table:
        if isinstance(entry, Include):
            out.append(Rule(None, None, entry, where))
            continue
        pattern, emits, *mutator = entry
        out.append(Rule(pattern, emitter(emits), mutator[0] if mutator else None, where))
    return out


def rules_of(where: str, *tables: StateTable | Callable[[], StateTable]) -> Callable[[], dict[str, list[Rule]]]:
    """A lexer's rules, built when first used from its tables (a later table's state replaces an earlier one
    of that name, as Rules.Merge does); where names the Chroma file."""
    def build() -> dict[str, list[Rule]]:
        out: dict[str, list[Rule]] = {}
        for table in tables:
            states = table() if callable(table) else table
            for name, entries in states.items():
                out[name] = rule_list(where, entries)
        return out
    return build
