"""Chroma's RegexLexer (regexp.go, emitters.go, mutators.go): states of ordered rules, each a pattern matched
at the current position, an emitter turning its groups into tokens and a mutator moving the state stack."""
from __future__ import annotations

import re
import time
from dataclasses import field
from typing import Callable, Protocol, Sequence

import regex  # type: ignore[import-untyped]

from .analysers import float32
from .first_chars import Dispatch
from .patterns import MATCH_TIMEOUT, PatternError, compile_fast, compile_pattern, may_backtrack
from .token_types import ERROR, IGNORE
from ...core.records import dataclass


Token = tuple[int, str]


class LexerLookup(Protocol):
    """What a lexer asks of its registry (registry.Registry): another lexer by name, as lexers.Get finds it,
    or by MIME type, as lexers.MatchMimeType finds it."""

    def get(self, name: str) -> "RegexLexer | None": ...

    def match_mime_type(self, mime_type: str) -> "RegexLexer | None": ...


class LexerRegistry(LexerLookup, Protocol):
    """What the Go-coded lexers' set-up asks of the registry: the lexers by name, and registering one."""

    by_name: dict[str, "RegexLexer"]

    def register(self, lexer: "RegexLexer") -> "RegexLexer": ...

# A whole block's lexing is bounded too: past this many seconds the rest is plain text (with a warning),
# so a pathological pattern that times out at every position cannot hold a build for minutes.
BLOCK_BUDGET = 5.0


class LexerError(Exception):
    """A lexer that cannot be used (a bad pattern, an unknown state); the message names the file and line."""


class LexingSlow(Exception):
    """A block whose lexing ran out of time; the tokens so far and the rest as text are in `tokens`."""

    def __init__(self, message: str, tokens: list[Token]) -> None:
        super().__init__(message)
        self.tokens = tokens


@dataclass
class Config:
    """A lexer's <config>: its names, file patterns and regex flags."""

    name: str
    aliases: tuple[str, ...] = ()
    filenames: tuple[str, ...] = ()
    alias_filenames: tuple[str, ...] = ()
    mime_types: tuple[str, ...] = ()
    case_insensitive: bool = False
    dot_all: bool = False
    not_multiline: bool = False
    ensure_nl: bool = False
    priority: float = 0.0
    analyse: tuple[tuple[str, float], ...] = ()
    analyse_first: bool = False


class Emitter(Protocol):
    def emit(self, groups: Sequence[str], state: "LexerState") -> list[Token]: ...


class Mutator(Protocol):
    def mutate(self, state: "LexerState") -> None: ...


@dataclass(frozen=True)
class TokenEmitter:
    """<token type="X"/>: the whole match as one token."""

    token_type: int

    def emit(self, groups: Sequence[str], state: "LexerState") -> list[Token]:
        return [(self.token_type, groups[0])]


@dataclass(frozen=True)
class ByGroups:
    """<bygroups>: one emitter per group (None emits nothing); a mismatch is one Error token."""

    emitters: tuple[Emitter | None, ...]

    def emit(self, groups: Sequence[str], state: "LexerState") -> list[Token]:
        if len(self.emitters) != len(groups) - 1:
            return [(ERROR, groups[0])]
        out: list[Token] = []
        for emitter, group in zip(self.emitters, groups[1:], strict=True):
            if emitter is not None:
                out.extend(emitter.emit([group], state))
        return out


@dataclass(frozen=True)
class Using:
    """<using lexer="X"/>: the match lexed by another lexer of the registry, nested."""

    lexer: str

    def emit(self, groups: Sequence[str], state: "LexerState") -> list[Token]:
        lexer = state.registry.get(self.lexer) if state.registry else None
        if lexer is None:
            raise LexerError(f"no such lexer {self.lexer!r}")
        return lexer.tokens(groups[0], state="root", nested=True, clock=state.clock)


@dataclass(frozen=True)
class UsingLexer:
    """A Go-coded lexer's UsingLexer(TypeRemappingLexer(...)): another lexer, its types remapped."""

    lexer: Callable[[], "RegexLexer"]
    remap: tuple[tuple[int, int], ...] = ()

    def emit(self, groups: Sequence[str], state: "LexerState") -> list[Token]:
        tokens = self.lexer().tokens(groups[0], state="root", nested=True, clock=state.clock)
        mapping = dict(self.remap)
        return [(mapping.get(kind, kind), value) for kind, value in tokens]


@dataclass(frozen=True)
class UsingSelf:
    """<usingself state="X"/>: the match lexed by this lexer from state X."""

    state: str

    def emit(self, groups: Sequence[str], state: "LexerState") -> list[Token]:
        return state.lexer.tokens(groups[0], state=self.state, nested=True, clock=state.clock)


@dataclass(frozen=True)
class UsingByGroup:
    """<usingbygroup>: the code group lexed by the lexer a name group names, else the plain emitters."""

    name_group: int
    code_group: int
    emitters: tuple[Emitter | None, ...]

    def emit(self, groups: Sequence[str], state: "LexerState") -> list[Token]:
        if len(self.emitters) != len(groups) - 1:
            raise LexerError("usingbygroup expects as many emitters as groups")
        sublexer = state.registry.get(groups[self.name_group]) if state.registry else None
        out: list[Token] = []
        for index, (emitter, group) in enumerate(zip(self.emitters, groups[1:], strict=True)):
            if index == self.code_group - 1 and sublexer is not None:
                out.extend(sublexer.tokens(groups[self.code_group], clock=state.clock))
            elif emitter is not None:
                out.extend(emitter.emit([group], state))
        return out


@dataclass(frozen=True)
class Push:
    """<push state="a b"/>: push states ('#pop' pops); no state pushes the current one again."""

    states: tuple[str, ...] = ()

    def mutate(self, state: "LexerState") -> None:
        if not self.states:
            state.stack.append(state.state)
            return
        for name in self.states:
            if name == "#pop":
                if state.stack:
                    state.stack.pop()
            else:
                state.stack.append(name)


@dataclass(frozen=True)
class Pop:
    """<pop depth="n"/>."""

    depth: int

    def mutate(self, state: "LexerState") -> None:
        del state.stack[max(0, len(state.stack) - self.depth):]


@dataclass(frozen=True)
class Mutators:
    """<mutators>: several, in order."""

    mutators: tuple[Mutator, ...]

    def mutate(self, state: "LexerState") -> None:
        for mutator in self.mutators:
            mutator.mutate(state)


@dataclass(frozen=True)
class Include:
    """<include state="X"/>: X's rules spliced in place when the lexer is compiled."""

    state: str

    def mutate(self, state: "LexerState") -> None:   # never reached: compile() replaces it
        raise LexerError(f"include {self.state!r} was not expanded")


@dataclass(frozen=True)
class Combined:
    """<combined state="a" state="b"/>: a new state of a's and b's rules, pushed."""

    states: tuple[str, ...]

    def mutate(self, state: "LexerState") -> None:   # never reached: compile() replaces it
        raise LexerError(f"combined {self.states!r} was not expanded")


@dataclass
class Rule:
    """One rule: a pattern (None: always matches the empty string), an emitter and a mutator."""

    pattern: str | None
    emitter: Emitter | None = None
    mutator: Mutator | None = None
    where: str = ""                      # file:line, for messages
    compiled: "regex.Pattern[str] | re.Pattern[str] | None" = None
    bounded: bool = False                # its matches run under MATCH_TIMEOUT (patterns.may_backtrack)
    # A pattern with named groups: regexp2 numbers them after the unnamed ones (.NET's rule), so the groups an
    # emitter gets are (Python's group numbers in regexp2's order, regexp2's name of each); else None.
    dotnet_groups: "tuple[tuple[int, ...], tuple[str, ...]] | None" = None


def regexp2_groups(compiled: "regex.Pattern[str] | re.Pattern[str]"
                   ) -> tuple[tuple[int, ...], tuple[str, ...]] | None:
    """regexp2's numbering of a pattern's groups: the unnamed ones in order, then the named ones in the order
    they first appear (a name given twice is one group); None when it has no named group."""
    if not compiled.groupindex:
        return None
    named = sorted(set(compiled.groupindex.values()))
    unnamed = [number for number in range(1, compiled.groups + 1) if number not in named]
    names_of = {number: name for name, number in compiled.groupindex.items()}
    order = tuple(unnamed + named)
    names = tuple([str(index + 1) for index in range(len(unnamed))] + [names_of[number] for number in named])
    return order, names


def compile_rule(rule: Rule, flags: int) -> None:
    """Compile a rule's pattern under the lexer's flags (the regex module when it may backtrack, bounded)."""
    rule.bounded = may_backtrack(rule.pattern or "")
    rule.compiled = (compile_pattern if rule.bounded else compile_fast)(rule.pattern or "", flags)
    rule.dotnet_groups = regexp2_groups(rule.compiled)


@dataclass
class LexerState:
    """One lex: the text, the position, the state stack, and what a rule's mutator and emitter may need (the
    rule that matched, its match and groups, which a mutator may change, and a mutator's own context)."""

    lexer: "RegexLexer"
    registry: "LexerLookup | None"
    text: str
    stack: list[str]
    clock: "Clock"
    state: str = ""
    pos: int = 0
    groups: list[str] = field(default_factory=list)
    rule: "Rule | None" = None
    match: "regex.Match[str] | None" = None
    named: dict[str, str] | None = None
    context: dict[object, object] = field(default_factory=dict)

    def named_groups(self) -> dict[str, str]:
        """LexerState.NamedGroups: every group of the match by its regexp2 name ("0", "1", ..., then the
        named ones), made on first use; a mutator may change it before the emitter reads it."""
        if self.named is None:
            self.named = {}
            if self.rule is not None and self.match is not None:
                match, order = self.match, self.rule.dotnet_groups
                numbers, names = order if order else (range(1, len(match.groups()) + 1),
                                                      [str(number) for number in range(1, len(match.groups()) + 1)])
                self.named["0"] = match.group(0)
                for name, number in zip(names, numbers, strict=True):
                    self.named[name] = match.group(number) or ""
        return self.named


@dataclass
class Clock:
    """The time budget of one top-level block (shared by the lexers it nests)."""

    deadline: float
    timed_out: list[str] = field(default_factory=list)


class RegexLexer:
    """A lexer of ordered rules per state, compiled on first use as Chroma compiles them."""

    def __init__(self, config: Config, load_rules: Callable[[], dict[str, list[Rule]]],
                 registry: "LexerLookup | None" = None, where: str = "") -> None:
        self.config = config
        self._load_rules = load_rules
        self.registry = registry
        self.where = where
        self._rules: dict[str, list[Rule]] | None = None
        self._dispatch: dict[str, Dispatch] = {}   # each state's rules by the character at the position
        self.analyser: Callable[[str], float] | None = None

    def rules(self) -> dict[str, list[Rule]]:
        """The compiled rules: includes and combined states expanded, patterns compiled."""
        if self._rules is None:
            self._rules = self._compile(self._load_rules())
        return self._rules

    def _compile(self, raw: dict[str, list[Rule]]) -> dict[str, list[Rule]]:
        if "root" not in raw:
            raise LexerError(f"{self.where}: no \"root\" state")
        rules = {name: list(state_rules) for name, state_rules in raw.items()}
        flags = 0 if self.config.not_multiline else regex.MULTILINE
        if self.config.case_insensitive:
            flags |= regex.IGNORECASE
        if self.config.dot_all:
            flags |= regex.DOTALL
        # include and combined, spliced as mutators.go's MutateLexer splices them (one at a time, restarting)
        changed = True
        while changed:
            changed = False
            for name in list(rules):
                for index, rule in enumerate(rules[name]):
                    if isinstance(rule.mutator, Include):
                        if rule.mutator.state not in rules:
                            raise LexerError(f"{rule.where}: invalid include state {rule.mutator.state!r}")
                        rules[name][index:index + 1] = rules[rule.mutator.state]
                        changed = True
                        break
                    if isinstance(rule.mutator, Combined):
                        combined = "__combined_" + "__".join(rule.mutator.states)
                        if combined not in rules:
                            merged: list[Rule] = []
                            for part in rule.mutator.states:
                                if part not in rules:
                                    raise LexerError(f"{rule.where}: invalid combine state {part!r}")
                                merged.extend(rules[part])
                            rules[combined] = merged
                        rules[name][index] = Rule(rule.pattern, rule.emitter, Push((combined,)), rule.where)
                        changed = True
                        break
                if changed:
                    break
        for state_rules in rules.values():
            for rule in state_rules:
                if rule.compiled is None:
                    try:
                        compile_rule(rule, flags)
                    except PatternError as error:
                        raise LexerError(f"{rule.where}: the pattern {rule.pattern!r} does not compile: {error}") \
                            from None
        return rules

    def tokens(self, text: str, *, state: str = "root", nested: bool = False, ensure_lf: bool | None = None,
               clock: Clock | None = None) -> list[Token]:
        """Tokenise(): the tokens of text, from a state (Chroma's iterator, collected)."""
        rules = self.rules()
        if ensure_lf if ensure_lf is not None else not nested:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        newline_added = False
        if not nested and self.config.ensure_nl and not text.endswith("\n"):
            text += "\n"
            newline_added = True
        clock = clock or Clock(time.monotonic() + BLOCK_BUDGET)
        lex = LexerState(self, self.registry, text, self.new_stack(state), clock)
        end = len(text) - 1 if newline_added else len(text)
        out: list[Token] = []
        while lex.pos < end and lex.stack:
            lex.state = lex.stack[-1]
            dispatch = self._dispatch.get(lex.state)
            if dispatch is None:
                state_rules = rules.get(lex.state)
                if state_rules is None:
                    raise LexerError(f"{self.where}: unknown state {lex.state!r}")
                dispatch = self._dispatch[lex.state] = Dispatch(state_rules)
            char = text[lex.pos]
            candidates = dispatch.by_char.get(char)
            if candidates is None:
                candidates = dispatch.rules_for(char)
            matched = self._match(candidates, text, lex.pos, clock)
            if matched is None:
                if char == "\n" and lex.state != state:
                    lex.stack = self.new_stack(state)
                    continue
                out.append((ERROR, char))
                lex.pos += 1
                continue
            rule, match = matched
            found = match.groups()
            if rule.dotnet_groups is not None:
                found = tuple(found[number - 1] for number in rule.dotnet_groups[0])
            groups = [group if group is not None else "" for group in found]
            groups.insert(0, match.group(0))
            lex.groups, lex.rule, lex.match, lex.named = groups, rule, match, None
            lex.pos = match.end()
            if rule.mutator is not None:
                rule.mutator.mutate(lex)
            if rule.emitter is not None:
                out.extend(token for token in rule.emitter.emit(lex.groups, lex) if token[0] != IGNORE)
        if lex.pos < len(text) and not lex.stack:
            out.append((ERROR, text[lex.pos:]))
        return out

    def replace_rule(self, state: str, index: int, rule: Rule) -> None:
        """Put a rule in the place of a state's rule at index (a Go-coded mutator editing the compiled rules,
        which every lex of this lexer shares, as Chroma's lexes share them)."""
        state_rules = self.rules().get(state)
        if state_rules is None or not -len(state_rules) <= index < len(state_rules):
            raise LexerError(f"{self.where}: no rule {index} in state {state!r}")
        state_rules[index] = rule
        self._dispatch.pop(state, None)

    def new_stack(self, state: str) -> list[str]:
        """A lex's state stack, holding the state it starts in."""
        return [state]

    def _match(self, state_rules: list[Rule], text: str, pos: int,
               clock: Clock) -> tuple[Rule, regex.Match[str]] | None:
        if time.monotonic() > clock.deadline:
            raise LexingSlow(f"{self.config.name}: lexing took longer than {BLOCK_BUDGET:g}s", [])
        for rule in state_rules:
            compiled = rule.compiled
            assert compiled is not None
            if not rule.bounded:
                match = compiled.match(text, pos)
            else:
                try:
                    match = compiled.match(text, pos, timeout=MATCH_TIMEOUT)  # type: ignore[call-overload]
                except TimeoutError:
                    clock.timed_out.append(rule.where)
                    continue
            if match is not None:
                return rule, match
        return None

    def analyse(self, text: str) -> float:
        """AnalyseText(): how likely text is in this language, 0 to 1, a Go float32 (analysers.float32): the
        Go-coded analyser set on it (analysers.ANALYSERS, in place of its file's), else its <analyse>."""
        if self.analyser is not None:
            return float32(self.analyser(text))
        if not self.config.analyse:
            return 0.0
        flags = regex.IGNORECASE if self.config.case_insensitive else 0
        score = 0.0
        for pattern, weight in self.config.analyse:
            try:
                found = compile_pattern(pattern, flags).search(text, timeout=MATCH_TIMEOUT) is not None
            except (PatternError, TimeoutError):
                return 0.0
            if found and self.config.analyse_first:
                return float32(min(float32(weight), 1.0))
            if found:
                score = float32(score + float32(weight))
        return float32(min(score, 1.0))


def coalesce(tokens: list[Token]) -> list[Token]:
    """chroma.Coalesce: runs of one type joined (while the run is under 8192 bytes), empty tokens dropped."""
    out: list[Token] = []
    for kind, value in tokens:
        if not value:
            continue
        if out and out[-1][0] == kind:
            previous = out[-1][1]
            if len(previous) < 2048 or len(previous.encode("utf-8")) < 8192:
                out[-1] = (kind, previous + value)
                continue
        out.append((kind, value))
    return out
