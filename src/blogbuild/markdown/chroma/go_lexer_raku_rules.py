"""Chroma's Raku lexer's rules (lexers/raku.go), ported rule for rule with its mutators and emitters; read
when the lexer (go_lexer_raku) is first used.

Raku's quotes, regexes, pod blocks and embedded code end at a delimiter the opening one decides, so the lexer
edits its own rules as it goes, as Chroma's does: findBrackets finds the closing delimiter (counting nested
openings) and moves past the quoted text, or replaces the first rule of a state ("root", "regex") or the last
("pod-formatter") with one matching the closing delimiter (replaceRule); that rule, matched, puts back the rule
it replaced (popRule, from a stack of replaced rules the lex keeps in its context). The rules edited are the
lexer's own, shared by every lex of it (nested lexes of the same block, and later blocks), as in Chroma; the
replacement rules are compiled without the lexer's flags (regexp2.None), as Chroma compiles them."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from .go_lexer_raku_words import BRACKET_PAIRS, BUILTIN_ROUTINES, BUILTIN_TYPES, KEYWORDS, OPERATORS, WORD_OPERATORS
from .go_rules import StateTable, default, groups, pop, push, quote_meta, token, words
from .lexer import (Emitter, Include, LexerError, LexerState, Mutator, Mutators, Pop, Push, Rule, Token,
                    UsingSelf, compile_rule)
from .patterns import PatternError, compile_pattern
from .token_types import ERROR, TYPES
from ...core.records import dataclass

_COLON_PAIR_OPENING = r"(?:<<|<|«|\(|\[|\{)"
_COLON_PAIR_CLOSING = r"(?:>>|>|»|\)|\]|\})"
_COLON_PAIR_PATTERN = r"(?<!:)(?<colon>:)(?<key>\w[\w'-]*)(?<opening_delimiters>" + _COLON_PAIR_OPENING + ")"
_COLON_PAIR_LOOKAHEAD = r"(?=(:['\w-]+" + _COLON_PAIR_OPENING + ".+?" + _COLON_PAIR_CLOSING + ")?"
_NAME_PATTERN = "(?:(?!" + _COLON_PAIR_PATTERN + r")(?:::|[\w':-]))+"
_VARIABLE_PATTERN = r"[$@%&]+[.^:?=!~]?" + _NAME_PATTERN
_GLOBAL_VARIABLE_PATTERN = r"[$@%&]+\*" + _NAME_PATTERN

_KEYWORDS_PATTERN = words(r"(?<!['\w:-])", r"(?!['\w:-])", *KEYWORDS)
_WORD_OPERATORS_PATTERN = words(r"(?<=^|\b|\s)", r"(?=$|\b|\s)", *WORD_OPERATORS)
_OPERATORS_PATTERN = words("", "", *OPERATORS)
_BUILTIN_TYPES_PATTERN = words(r"(?<!['\w:-])", r"(?::[_UD])?(?!['\w:-])", *BUILTIN_TYPES)
_BUILTIN_ROUTINES_PATTERN = words(r"(?<!['\w:-])", r"(?!['\w-])", *BUILTIN_ROUTINES)

# Each opening bracket's closing one; a class of the opening ones (Chroma joins a Go map's keys, in no order).
_BRACKETS = {pair[0]: pair[1] for pair in BRACKET_PAIRS}
_BRACKETS_PATTERN = "[" + quote_meta("".join(_BRACKETS)) + "]"

# The constructs findBrackets is told it is at (raku.go's RakuToken).
QUOTE, NAME_ATTRIBUTE, POD, POD_FORMATTER, POD_DECLARATION = "quote", "name", "pod", "pod-formatter", "pod-decl"
MULTILINE_COMMENT, MATCH_REGEX, SUBSTITUTION_REGEX = "comment", "match-regex", "substitution-regex"

# ruleReplacingConfig's rule positions: the first rule of a state, or the last.
TOP, BOTTOM = 0, -1

_T = TYPES
_SPECIAL = frozenset("\\*+?|{[()^$.# \t\n\r\f\v")
_WHITESPACE_ESCAPES = {"\t": "t", "\n": "n", "\r": "r", "\f": "f", "\v": "v"}


def _escape(text: str) -> str:
    """regexp2.Escape: the metacharacters and white space escaped."""
    return "".join("\\" + _WHITESPACE_ESCAPES.get(char, char) if char in _SPECIAL else char for char in text)


def _cut(text: str, start: int, end: int) -> str:
    """text[start:end] as Go slices runes: out of range is a panic in Chroma, a LexerError here."""
    if not 0 <= start <= end <= len(text):
        raise LexerError(f"lexers/raku.go: slice [{start}:{end}] of a text of {len(text)} characters")
    return text[start:end]


def _rune_count(text: str, byte_length: int) -> int:
    """utf8.RuneCountInString of the first byte_length bytes of text's UTF-8 (each byte of a character cut in
    two counts as one)."""
    count = size = 0
    for char in text:
        width = len(char.encode("utf-8"))
        if size + width > byte_length:
            return count + byte_length - size
        size += width
        count += 1
    return count


def _index_at(text: str, sought: str, pos: int) -> int:
    """indexAt: where sought next occurs in text from pos (a character index), -1 when it does not; one escaped
    by a backslash is skipped once, Chroma's way (the index found after it read as a byte offset)."""
    tail = _cut(text, pos, len(text))
    index = tail.find(sought)
    if index > -1:
        if (index > 1 and tail[index - 1] == "\\" and tail[index - 2] != "\\") or \
                (index == 1 and tail[index - 1] == "\\"):
            after = _index_at(tail, sought, index + 1)
            if after < 0:
                raise LexerError("lexers/raku.go: an escaped delimiter with none after it")
            index = _rune_count(tail, after)
        index += pos
    return index


@dataclass(frozen=True)
class Replacing:
    """ruleReplacingConfig: the rule to put in a state's first or last place (a delimiter, repeated count
    times, or a pattern), what its match emits and does, and whether to pop and push the state."""

    state_name: str
    delimiter: str = ""
    pattern: str = ""
    token_type: Emitter | None = None
    count: int = 0
    mutator: Mutator | None = None
    append_mutator: Mutator | None = None
    position: int = TOP
    pop: bool = False
    pop_state: bool = False
    push_state: bool = False


def _stack_name(config: Replacing) -> str:
    return config.state_name + ("-top-stack" if config.position == TOP else "-bottom-stack")


def _make_rule(config: Replacing, mutator: Mutator | None) -> Rule:
    """makeRule: a rule of the delimiter (not after an unescaped backslash) or the pattern, compiled with no
    flags."""
    if config.delimiter:
        delimiter = config.delimiter * config.count if config.count > 1 else config.delimiter
        pattern = r"(?<!(?<!\\)\\)" + _escape(delimiter)
    else:
        pattern = config.pattern
    rule = Rule(pattern, config.token_type, mutator, "lexers/raku.go")
    try:
        compile_rule(rule, 0)
    except PatternError as error:
        raise LexerError(f"lexers/raku.go: the pattern {pattern!r} does not compile: {error}") from None
    return rule


@dataclass(frozen=True)
class ReplaceRule:
    """replaceRule: puts the config's rule in its state's place (kept on the lex's stack of replaced rules
    unless it is one put back), then pops and pushes the state as asked. A first rule, matched, pops the
    state (or applies its own mutator) and puts back the rule it replaced."""

    config: Replacing

    def mutate(self, state: LexerState) -> None:
        rule = self.config
        name = _stack_name(rule)
        kept = state.context.get(name)
        stack: list[Replacing] = kept if isinstance(kept, list) else []
        if not stack:
            stack = [Replacing(rule.state_name, pattern=r"\A\z", position=rule.position)]
            state.context[name] = stack
        mutators: list[Mutator] = []
        if rule.position == TOP:
            mutators = [rule.mutator if rule.mutator is not None else Pop(1), PopRule(rule)]
        elif rule.mutator is not None:
            mutators = [rule.mutator]
        if rule.append_mutator is not None:
            mutators.append(rule.append_mutator)
        made = _make_rule(rule, Mutators(tuple(mutators)) if mutators else None)
        state.lexer.replace_rule(rule.state_name, 0 if rule.position == TOP else -1, made)
        if rule.pop_state:
            if not state.stack:
                raise LexerError("lexers/raku.go: nothing to pop")
            Pop(1).mutate(state)
        if rule.push_state:
            Push((rule.state_name,)).mutate(state)
        if not rule.pop:
            state.context[name] = stack + [rule]


@dataclass(frozen=True)
class PopRule:
    """popRule: drops the config's rule from the lex's stack of replaced rules and puts back the one before."""

    config: Replacing

    def mutate(self, state: LexerState) -> None:
        name = _stack_name(self.config)
        kept = state.context.get(name)
        if isinstance(kept, list) and kept:
            stack = kept[:-1]
            if not stack:
                raise LexerError("lexers/raku.go: no rule to put back")
            last = replace(stack[-1], push_state=False, pop_state=False, pop=True)
            state.context[name] = stack
            ReplaceRule(last).mutate(state)


def _replace(state_name: str, delimiter: str, *, pop_state: bool = False) -> ReplaceRule:
    """A replaceRule of raku.go's rules: the state's first rule made the delimiter, as Punctuation; the state
    pushed (after popping the current one when pop_state)."""
    return ReplaceRule(Replacing(state_name, delimiter=delimiter, token_type=token("Punctuation"),
                                 pop_state=pop_state, push_state=True))


_HEREDOC_ADVERB = re.compile(r":to\b|:heredoc\b", re.ASCII)   # Go's regexp: \b between ASCII word characters


@dataclass(frozen=True)
class FindBrackets:
    """findBrackets: at an opening delimiter, the closing one. A pod formatter's, a match regex's and a
    substitution's become a replaced rule; for the others the text up to the closing delimiter (nested
    openings counted; a heredoc's terminator line for :to and :heredoc) becomes the match's "value" group, the
    delimiter its "closing_delimiters" (a multi-line comment's match grows to take them in), and the lex goes on
    after it."""

    kind: str

    def mutate(self, state: LexerState) -> None:
        named = state.named_groups()
        if self.kind == POD:
            adverbs, opening = "", "".join(state.groups[1:5])
        else:
            adverbs, opening = named.get("adverbs", ""), named.get("opening_delimiters", "")
        if not opening:
            raise LexerError("lexers/raku.go: no opening delimiter")
        closing_char = _BRACKETS.get(opening[0], "\0")
        exists = self.kind == POD or opening[0] in _BRACKETS
        if self.kind in (POD_FORMATTER, MATCH_REGEX, SUBSTITUTION_REGEX):
            self._replace_rules(state, named, opening, closing_char, exists)
            return
        end, closing, count = self._closing(state, named, opening, closing_char, exists)
        terminator = ""
        heredoc_end = 0
        if _HEREDOC_ADVERB.search(adverbs):
            if end != len(state.text):
                terminator = _cut(state.text, state.pos, end)
                count = len(terminator)
            else:
                end, count = state.pos + 1, 0
            if count > 0:
                heredoc_end = _index_at(_cut(state.text, end, len(state.text)), terminator, 0)
                end = end + heredoc_end if heredoc_end > -1 else len(state.text)
        self._found(state, named, (opening, closing, terminator), end, count, heredoc_end)
        state.pos = end + count

    def _replace_rules(self, state: LexerState, named: dict[str, str], opening: str, closing_char: str,
                       exists: bool) -> None:
        """A pod formatter's closing delimiter ends the pod-formatter state, its text a type by the formatter
        (B bold, I italic, U underlined); a match regex's and a substitution's end the regex state."""
        if self.kind == POD_FORMATTER:
            formatter = {"B": "GenericStrong", "I": "GenericEmph", "U": "GenericUnderline"}.get(
                named.get("keyword", ""), "StringOther")
            text_rule = Replacing("pod-formatter", pattern=".+?", token_type=token(formatter), position=BOTTOM)
            ReplaceRule(text_rule).mutate(state)
            ReplaceRule(Replacing("pod-formatter", delimiter=closing_char, token_type=token("Punctuation"),
                                  push_state=True, count=len(opening), append_mutator=PopRule(text_rule))
                        ).mutate(state)
        elif self.kind == MATCH_REGEX:
            _replace("regex", closing_char if exists else opening, pop_state=True).mutate(state)
        else:
            delimiter = _escape(opening)
            pattern = "(" + delimiter + ")" + r"((?:\\\\|\\/|.)*?)" + "(" + delimiter + ")"
            emits = groups("Punctuation", UsingSelf("qq"), "Punctuation")
            ReplaceRule(Replacing("regex", pattern=pattern, token_type=emits, pop_state=True, push_state=True)
                        ).mutate(state)

    def _closing(self, state: LexerState, named: dict[str, str], opening: str, closing_char: str,
                 exists: bool) -> tuple[int, str, int]:
        """(where the closing delimiter starts, the delimiter, the length to skip): the next one when the
        opening one has no mirror, else the one matching it, nested openings counted (for a pod block its
        "=end name" line)."""
        text, count = state.text, len(opening)
        if not exists:
            end = _index_at(text, opening, state.pos)
            return (end if end >= 0 else len(text)), opening, count
        pod_end = None
        closing = ""
        if self.kind == POD:
            try:
                pod_end = compile_pattern(named.get("ws", "") + "=end" + r"\s+" + _escape(named.get("name", "")), 0)
            except PatternError as error:
                raise LexerError(f"lexers/raku.go: {error}") from None
        else:
            closing = closing_char * count
        level, search, next_close = 1, state.pos - count, 0
        while level > 0:
            if pod_end is not None:
                found = pod_end.search(text, search + count)
                if found is None:
                    raise LexerError("lexers/raku.go: a pod block with no =end")
                closing, next_close = found.group(0), found.start()
            else:
                next_close = _index_at(text, closing, search + count)
            next_open = _index_at(text, opening, search + count)
            if next_close == -1:
                next_close, level = len(text), 0
            elif next_open != -1 and next_open < next_close:
                level, count, search = level + 1, len(opening), next_open
            else:
                level, count, search = level - 1, len(closing), next_close
        return next_close, closing, count

    def _found(self, state: LexerState, named: dict[str, str], delimiters: tuple[str, str, str], end: int,
               count: int, heredoc_end: int) -> None:
        """What the construct's emitter reads: the groups "value", "closing_delimiters" (a heredoc's
        "opening_delimiters" take in its terminator line), or a multi-line comment's whole match."""
        opening, closing, terminator = delimiters
        text, pos = state.text, state.pos
        if self.kind in (POD, POD_DECLARATION, NAME_ATTRIBUTE):
            named["value"] = _cut(text, pos, end)
            named["closing_delimiters"] = closing
        elif self.kind == QUOTE:
            if terminator:
                first = count + len(opening) + 1   # the terminator, the closing delimiter and the ";"
                named["opening_delimiters"] = opening + _cut(text, pos, pos + first)
                named["value"] = _cut(text, pos + first, end)
                if heredoc_end > -1:
                    named["closing_delimiters"] = terminator
            else:
                named["value"] = _cut(text, pos, end)
                if count > 0:
                    named["closing_delimiters"] = closing
        else:
            state.groups = [state.groups[0] + _cut(text, pos, end + count)]


@dataclass(frozen=True)
class ByGroupNames:
    """ByGroupNames: each group, in regexp2's numbering, emitted by the emitter of its name (None: nothing);
    a group of no name listed is an Error token."""

    emitters: tuple[tuple[str, Emitter | None], ...]

    def emit(self, found: Sequence[str], state: LexerState) -> list[Token]:
        named = state.named_groups()
        table = dict(self.emitters)
        if len(named) - 1 == 0:
            emitter = table.get("0")
            return emitter.emit(found, state) if emitter is not None else [(ERROR, found[0])]
        rule = state.rule
        names = rule.dotnet_groups[1] if rule is not None and rule.dotnet_groups else \
            tuple(str(number) for number in range(1, len(named)))
        out: list[Token] = []
        for index in range(1, len(named)):
            name = names[index - 1] if index <= len(names) else ""
            group = named.get(name, "")
            if name in table:
                emitter = table[name]
                if emitter is not None:
                    out.extend(emitter.emit([group], state))
            else:
                out.append((ERROR, group))
        return out


def _lexed(state: LexerState, text: str, state_name: str) -> list[Token]:
    """The text lexed by this lexer from a state, nested."""
    return state.lexer.tokens(text, state=state_name, nested=True, clock=state.clock)


@dataclass(frozen=True)
class ColonPair:
    """colonPair: a pair :key<value> as its punctuation, its key (a name of the given type, or lexed: as a
    number when all digits, else as a quote) and its value lexed by its brackets (code in (), {} and [], words
    in <<>> and «», a quote in <>)."""

    token_type: str

    def emit(self, found: Sequence[str], state: LexerState) -> list[Token]:
        named = state.named_groups()
        key, opening = named.get("key", ""), named.get("opening_delimiters", "")
        out: list[Token] = [(_T["Punctuation"], named.get("colon", ""))]
        if self.token_type == "NameAttribute":
            out.append((_T["NameAttribute"], key))
        else:
            out.extend(_lexed(state, key, "common" if re.fullmatch(r"[0-9]+", key) else "Q"))
        out.append((_T["Punctuation"], opening))
        value_state = {"(": "root", "{": "root", "[": "root", "<<": "ww", "«": "ww", "<": "Q"}.get(opening, "")
        if value_state:
            out.extend(_lexed(state, named.get("value", ""), value_state))
        out.append((_T["Punctuation"], named.get("closing_delimiters", "")))
        return out


def _quote_state(keyword: str, adverbs: str) -> str:
    """The state a quote's text is lexed in, by its keyword and adverbs (qq interpolates, ww splits words, c
    closures, s a h f variables, q and Q neither)."""
    states = []
    for adverb in adverbs.split(":"):
        if adverb in ("c", "closure"):
            states.append("Q-closure")
        elif adverb == "qq":
            states.append("qq")
        elif adverb == "ww":
            states.append("ww")
        elif adverb in ("s", "scalar", "a", "array", "h", "hash", "f", "function"):
            states.append("Q-variable")
    if keyword == "qq" or "qq" in states:
        return "qq"
    if adverbs == "ww" or "ww" in states:
        return "ww"
    if "Q-closure" in states and "Q-variable" in states:
        return "qq"
    if "Q-closure" in states:
        return "Q-closure"
    if "Q-variable" in states:
        return "Q-variable"
    return "Q"


@dataclass(frozen=True)
class Quote:
    """quote: a quoting construct's keyword, adverbs, space and delimiters, its text lexed by _quote_state."""

    def emit(self, found: Sequence[str], state: LexerState) -> list[Token]:
        named = state.named_groups()
        keyword, adverbs = named.get("keyword", ""), named.get("adverbs", "")
        out: list[Token] = [(_T["Keyword"], keyword), (_T["StringAffix"], adverbs), (_T["Text"], named.get("ws", "")),
                            (_T["Punctuation"], named.get("opening_delimiters", ""))]
        out.extend(_lexed(state, named.get("value", ""), _quote_state(keyword, adverbs)))
        out.append((_T["Punctuation"], named.get("closing_delimiters", "")))
        return out


@dataclass(frozen=True)
class PodConfig:
    """podConfig: a pod block's configuration lexed as colon pairs."""

    def emit(self, found: Sequence[str], state: LexerState) -> list[Token]:
        return _lexed(state, found[0], "colon-pair-attribute")


_POD_LANG = re.compile(r":lang\W+(\w+)", re.ASCII)   # Go's regexp: \w and \W are ASCII


@dataclass(frozen=True)
class PodCode:
    """podCode: a "=begin code" block, its code lexed by the lexer its :lang names (lexers.Get), else one
    StringDoc token."""

    def emit(self, found: Sequence[str], state: LexerState) -> list[Token]:
        named = state.named_groups()
        config = named.get("config", "")
        out: list[Token] = [(_T["Comment"], named.get("ws", "")), (_T["Keyword"], named.get("keyword", "")),
                            (_T["Keyword"], named.get("ws2", "")), (_T["Keyword"], named.get("name", ""))]
        out.extend(PodConfig().emit([config], state))
        lang = _POD_LANG.search(config)
        lexer = state.registry.get(lang.group(1) if lang else "") if state.registry else None
        if lexer is not None:
            out.extend(lexer.tokens(named.get("value", ""), clock=state.clock))
        else:
            out.append((_T["StringDoc"], named.get("value", "")))
        out.extend([(_T["Comment"], named.get("ws3", "")), (_T["Keyword"], named.get("end_keyword", "")),
                    (_T["Keyword"], named.get("ws4", "")), (_T["Keyword"], named.get("name", ""))])
        return out


_DELIMITER_GROUPS = ByGroupNames((("opening_delimiters", token("Punctuation")), ("delimiter", None)))
_METHOD_GROUPS = ByGroupNames((("operator", token("Operator")), ("method_name", token("NameFunction"))))
_POD_DECLARATION_GROUPS = ByGroupNames((
    ("keyword", token("Keyword")), ("opening_delimiters", token("Punctuation")), ("delimiter", None),
    ("value", UsingSelf("pod-declaration")), ("closing_delimiters", token("Punctuation"))))
_POD_BEGIN_GROUPS = ByGroupNames((
    ("ws", token("Comment")), ("keyword", token("Keyword")), ("ws2", token("StringDoc")), ("name", token("Keyword")),
    ("config", PodConfig()), ("value", UsingSelf("pod-begin")), ("closing_delimiters", token("Keyword"))))

# rakuRules: the first rules of "root" and "regex" and the last of "pod-formatter" are the places replaceRule
# puts its rules in ("\A\z" matches nothing there).
RAKU: StateTable = {
    "root": [
        (r"\A\z", None),
        Include("common"),
        ("{", "Punctuation", push("root")),
        (r"\(", "Punctuation", push("root")),
        ("[)}]", "Punctuation", pop(1)),
        (";", "Punctuation"),
        (r"\[|\]", "Operator"),
        (".+?", "Text"),
    ],
    "common": [
        (r"^#![^\n]*$", "CommentHashbang"),
        Include("pod"),
        ("#`(?<opening_delimiters>(?<delimiter>" + _BRACKETS_PATTERN + r")\k<delimiter>*)",
         "CommentMultiline", FindBrackets(MULTILINE_COMMENT)),
        (r"#[^\n]*$", "CommentSingle"),
        (r"(?<=(?:^|\(|=|:|~~|\[|{|,|=>)\s*)(/)(?!\]|\))((?:\\\\|\\/|.)*?)((?<!(?<!\\)\\)/(?!'|" + '"))',
         groups("Punctuation", UsingSelf("regex"), "Punctuation")),
        Include("variable"),
        (r"::\?\w+(?::[_UD])?", "NameVariableGlobal"),
        (r"\b(v)(\d+)((?:\.(?:\*|[\d\w]+))*)(\+)?", groups("Keyword", "NumberInteger", "NameEntity", "Operator")),
        Include("number"),
        (r"(>>)(\S+?)(<<)", groups("Operator", UsingSelf("root"), "Operator")),
        (r"(»)(\S+?)(«)", groups("Operator", UsingSelf("root"), "Operator")),
        (r"(<<)(\S+?)(<<)", groups("Operator", UsingSelf("root"), "Operator")),
        (r"(«)(\S+?)(«)", groups("Operator", UsingSelf("root"), "Operator")),
        (r"(>>)(\S+?)(>>)", groups("Operator", UsingSelf("root"), "Operator")),
        (r"(»)(\S+?)(»)", groups("Operator", UsingSelf("root"), "Operator")),
        (r"(?<!(?:\d+|\.(?:Int|Numeric)|[$@%]\*?[\w':-]+\s+|[\])}]\s+)\s*)"
         r"(<<)(?!(?:(?!>>)[^\n])+?[},;] *\n)(?!(?:(?!>>).)+?>>\S+?>>)",
         "Punctuation", push("<<")),
        (r"(?<!(?:\d+|\.(?:Int|Numeric)|[$@%]\*?[\w':-]+\s+|[\])}]\s+)\s*)(«)(?![^»]+?[},;] *\n)(?![^»]+?»\S+?»)",
         "Punctuation", push("«")),
        (r"(?<=\[\\?)<(?=\])", "Operator"),
        (r"(?<=[$@%&]?\w[\w':-]* +)(<=?)( *[^ ]+? *)(>=?)(?= *[$@%&]?\w[\w':-]*)",
         groups("Operator", UsingSelf("root"), "Operator")),
        (r"(?<!(?:\d+|\.(?:Int|Numeric)|[$@%]\*?[\w':-]+\s+|[\])}]\s+)\s*)(<)((?:(?![,;)}] *(?:#[^\n]+)?\n)[^<>])+?)"
         r"(>)(?!\s*(?:\d+|\.(?:Int|Numeric)|[$@%]\*?\w[\w':-]*[^(]|\s+\[))",
         groups("Punctuation", "String", "Punctuation")),
        (r"C?X::['\w:-]+", "NameException"),
        Include("metaoperator"),
        (r"(\w[\w'-]*)(\s*)(=>)", groups("String", "Text", "Operator")),
        Include("colon-pair"),
        (r"(?<=(?:^|\s)(?:regex|token|rule)(\s+))" + _NAME_PATTERN + _COLON_PAIR_LOOKAHEAD + r"\s*[({])",
         "NameFunction", push("token", "name-adverb")),
        (r"(?<=^|\b|\s)(?<!\.)(ss|S|s|TR|tr)\b(\s*)", groups("Keyword", "Text"), push("substitution")),
        (_KEYWORDS_PATTERN, "Keyword"),
        (_BUILTIN_TYPES_PATTERN, "KeywordType"),
        (_BUILTIN_ROUTINES_PATTERN, "NameBuiltin"),
        (r"(?<=(?:^|\s)(?:class|grammar|role|does|but|is|subset|of)\s+)" + _NAME_PATTERN,
         "NameClass", push("name-adverb")),
        (r"(?<=(?:^|\s)(?:sub|method|multi sub|multi)\s+)!?" + _NAME_PATTERN + _COLON_PAIR_LOOKAHEAD + r"\s*[({])",
         "NameFunction", push("name-adverb")),
        (r"(?<=\bconstant\s+)" + _NAME_PATTERN, "NameConstant", push("name-adverb")),
        (r"(?<=\b(?:use|module|package)\s+)" + _NAME_PATTERN, "NameNamespace", push("name-adverb")),
        Include("operator"),
        Include("single-quote"),
        (r'(?<!(?<!\\)\\)"', "Punctuation", push("double-quotes")),
        (r"(?<=^|\b|\s)(ms|m|rx)\b(\s*)", groups("Keyword", "Text"), push("rx")),
        (r"(?<=^|\b|\s)(?<keyword>(?:qq|q|Q))(?<adverbs>(?::?(?:heredoc|to|qq|ww|q|w|s|a|h|f|c|b|to|v|x))*)"
         r"(?<ws>\s*)(?<opening_delimiters>(?<delimiter>[^0-9a-zA-Z:\s])\k<delimiter>*)",
         Quote(), FindBrackets(QUOTE)),
        (r"\b" + _NAME_PATTERN + _COLON_PAIR_LOOKAHEAD + r"\()", "NameFunction", push("name-adverb")),
        (r"(?<!\.\.[?^*+]?)(?<=(?:\.[?^*+&]?)|self!)" + _NAME_PATTERN + _COLON_PAIR_LOOKAHEAD + r"\b)",
         "NameFunction", push("name-adverb")),
        (_NAME_PATTERN + r"(?=\s+\W?['\w:-]+:\W)", "NameFunction", push("name-adverb")),
        (r"(?<=\W)(?:∅|i|e|𝑒|tau|τ|pi|π|Inf|∞)(?=\W)", "NameConstant"),
        ("(｢)([^｣]*)(｣)", groups("Punctuation", "String", "Punctuation")),
        (r"(?<=^ *)\b" + _NAME_PATTERN + r"(?=:\s*(?:for|while|loop))", "NameLabel"),
        (r"(?<=\b(?:my|our|constant|let|temp)\s+)\\" + _NAME_PATTERN, "NameVariable", push("name-adverb")),
        (_NAME_PATTERN, "Name", push("name-adverb")),
    ],
    "rx": [
        Include("colon-pair-attribute"),
        (r"(?<opening_delimiters>(?<delimiter>[^\w:\s])\k<delimiter>*)",
         _DELIMITER_GROUPS, FindBrackets(MATCH_REGEX)),
    ],
    "substitution": [
        Include("colon-pair-attribute"),
        ("(?<opening_delimiters>(?<delimiter>" + _BRACKETS_PATTERN + r")\k<delimiter>*)",
         _DELIMITER_GROUPS, FindBrackets(MATCH_REGEX)),
        (r"(?<opening_delimiters>[^\w:\s])", "Punctuation", FindBrackets(SUBSTITUTION_REGEX)),
    ],
    "number": [
        ("0_?[0-7]+(_[0-7]+)*", "LiteralNumberOct"),
        ("0x[0-9A-Fa-f]+(_[0-9A-Fa-f]+)*", "LiteralNumberHex"),
        ("0b[01]+(_[01]+)*", "LiteralNumberBin"),
        (r"(?i)(\d*(_\d*)*\.\d+(_\d*)*|\d+(_\d*)*\.\d+(_\d*)*)(e[+-]?\d+)?", "LiteralNumberFloat"),
        (r"(?i)\d+(_\d*)*e[+-]?\d+(_\d*)*", "LiteralNumberFloat"),
        (r"(?<=\d+)i", "NameConstant"),
        (r"\d+(_\d+)*", "LiteralNumberInteger"),
    ],
    "name-adverb": [
        Include("colon-pair-attribute-keyvalue"),
        default(pop(1)),
    ],
    "colon-pair": [
        (_COLON_PAIR_PATTERN, ColonPair("String"), FindBrackets(NAME_ATTRIBUTE)),
        (r"(:)(\d+)(\w[\w'-]*)", groups("Punctuation", UsingSelf("number"), "String")),
        (r"(:)(!?)(\w[\w'-]*)", groups("Punctuation", "Operator", "String")),
        (r"\s+", "Text"),
    ],
    "colon-pair-attribute": [
        (_COLON_PAIR_PATTERN, ColonPair("NameAttribute"), FindBrackets(NAME_ATTRIBUTE)),
        (r"(:)(\d+)(\w[\w'-]*)", groups("Punctuation", UsingSelf("number"), "NameAttribute")),
        (r"(:)(!?)(\w[\w'-]*)", groups("Punctuation", "Operator", "NameAttribute")),
        (r"\s+", "Text"),
    ],
    "colon-pair-attribute-keyvalue": [
        (_COLON_PAIR_PATTERN, ColonPair("NameAttribute"), FindBrackets(NAME_ATTRIBUTE)),
    ],
    "escape-qq": [
        (r"(?<!(?<!\\)\\)(\\qq)(\[)(.+?)(\])", groups("StringEscape", "Punctuation", UsingSelf("qq"), "Punctuation")),
    ],
    "escape-char": [
        (r"(?<!(?<!\\)\\)(\\[abfrnrt])", "StringEscape"),
    ],
    "escape-single-quote": [
        (r"(?<!(?<!\\)\\)(\\)(['\\])", groups("StringEscape", "StringSingle")),
    ],
    "escape-c-name": [
        (r"(?<!(?<!\\)\\)(\\[c|C])(\[)(.+?)(\])", groups("StringEscape", "Punctuation", "String", "Punctuation")),
    ],
    "escape-hexadecimal": [
        (r"(?<!(?<!\\)\\)(\\[x|X])(\[)([0-9a-fA-F]+)(\])",
         groups("StringEscape", "Punctuation", "NumberHex", "Punctuation")),
        (r"(\\[x|X])([0-9a-fA-F]+)", groups("StringEscape", "NumberHex")),
    ],
    "regex": [
        (r"\A\z", None),
        Include("regex-escape-class"),
        Include("regex-character-escape"),
        (r"([$@])((?<!(?<!\\)\\)\()", groups("Keyword", "Punctuation"), _replace("root", ")")),
        (r"\$(?=/)", "NameEntity"),
        (r"\$(?=\z|\s|[^<(\w*!.])", "NameEntity"),
        Include("variable"),
        Include("escape-c-name"),
        Include("escape-hexadecimal"),
        Include("number"),
        Include("single-quote"),
        (r"(?<!(?<!\\)\\)(:)(my|our|state|constant|temp|let)",
         groups("Operator", "KeywordDeclaration"), _replace("root", ";")),
        (r"(?<!(?<!\\)\\)(<)([?!.]*)((?<!(?<!\\)\\){)",
         groups("Punctuation", "Operator", "Punctuation"), _replace("root", "}>")),
        Include("closure"),
        (r"(:)(\w+)", groups("Punctuation", "NameAttribute")),
        (r"\|\||\||&&|&|\.\.|\*\*|%%|%|:|!|<<|«|>>|»|\+|\*\*|\*|\?|=|~|<~~>", "Operator"),
        (r"\^\^|\^|\$\$|\$", "NameEntity"),
        (r"\.", "NameEntity"),
        (r"#[^\n]*\n", "CommentSingle"),
        (r"(?<!(?<!\\)\\)(<)(\s*)([?!.]+)(\s*)(after|before)",
         groups("Punctuation", "Text", "Operator", "Text", "OperatorWord"), _replace("regex", ">")),
        (r"(?<!(?<!\\)\\)(<)([|!?.]*)(wb|ww|ws|w)(>)",
         groups("Punctuation", "Operator", "OperatorWord", "Punctuation")),
        (r"(?<!(?<!\\)\\)(<)([?!.]*)([$@]\w[\w:-]*)(>)",
         groups("Punctuation", "Operator", "NameVariable", "Punctuation")),
        (r"(?<!(?<!\\)\\)<\(|\)>", "Operator"),
        (r"(?<!(?<!\\)\\)(<)(\w[\w:-]*)(=\.?)",
         groups("Punctuation", "NameVariable", "Operator"), push("regex-variable")),
        (r"(?<!(?<!\\)\\)(<)([|!?.&]*)(\w(?:(?!:\s)[\w':-])*)",
         groups("Punctuation", "Operator", "NameFunction"), push("regex-function")),
        (r"(?<!(?<!\\)\\)<", "Punctuation", push("regex-property")),
        (r'(?<!(?<!\\)\\)"', "Punctuation", push("double-quotes")),
        (r"(?<!(?<!\\)\\)(?:\]|\))", "Punctuation", pop(1)),
        (r"(?<!(?<!\\)\\)(?:\[|\()", "Punctuation", push("regex")),
        (".+?", "StringRegex"),
    ],
    "regex-class-builtin": [
        (r"\b(?:alnum|alpha|blank|cntrl|digit|graph|lower|print|punct|space|upper|xdigit|same|ident)\b",
         "NameBuiltin"),
    ],
    "regex-function": [
        (r"(?<!(?<!\\)\\)>", "Punctuation", pop(1)),
        (r"\(", "Punctuation", _replace("root", ")>", pop_state=True)),
        (r"\s+", "StringRegex", _replace("regex", ">", pop_state=True)),
        (":", "Punctuation", _replace("root", ">", pop_state=True)),
    ],
    "regex-variable": [
        Include("regex-starting-operators"),
        (r"(&)?(\w(?:(?!:\s)[\w':-])*)(?=\()",
         groups("Operator", "NameFunction"), Mutators((pop(1), push("regex-function")))),
        (r"(&)?(\w[\w':-]*)(>)", groups("Operator", "NameFunction", "Punctuation"), pop(1)),
        default(pop(1), push("regex-property")),
    ],
    "regex-property": [
        (r"(?<!(?<!\\)\\)>", "Punctuation", pop(1)),
        Include("regex-class-builtin"),
        Include("variable"),
        Include("regex-starting-operators"),
        Include("colon-pair-attribute"),
        (r"(?<!(?<!\\)\\)\[", "Punctuation", push("regex-character-class")),
        (r"\+|\-", "Operator"),
        (r"@[\w':-]+", "NameVariable"),
        (".+?", "StringRegex"),
    ],
    "regex-starting-operators": [
        ("(?<=<)[|!?.]+", "Operator"),
    ],
    "regex-escape-class": [
        (r"(?i)\\n|\\t|\\h|\\v|\\s|\\d|\\w", "StringEscape"),
    ],
    "regex-character-escape": [
        (r"(?<!(?<!\\)\\)(\\)(.)", groups("StringEscape", "StringRegex")),
    ],
    "regex-character-class": [
        (r"(?<!(?<!\\)\\)\]", "Punctuation", pop(1)),
        Include("regex-escape-class"),
        Include("escape-c-name"),
        Include("escape-hexadecimal"),
        Include("regex-character-escape"),
        Include("number"),
        (r"\.\.", "Operator"),
        (".+?", "StringRegex"),
    ],
    "metaoperator": [
        (r"\b([RZX]+)\b(\[)([^\s\]]+?)(\])", groups("OperatorWord", "Punctuation", UsingSelf("root"), "Punctuation")),
        (r"\b([RZX]+)\b([^\s\]]+)", groups("OperatorWord", UsingSelf("operator"))),
    ],
    "operator": [
        (_WORD_OPERATORS_PATTERN, "OperatorWord"),
        (_OPERATORS_PATTERN, "Operator"),
    ],
    "pod": [
        (r"(#[|=])\s", "Keyword", push("pod-single")),
        ("(?<keyword>#[|=])(?<opening_delimiters>(?<delimiter>" + _BRACKETS_PATTERN
         + r")\k<delimiter>*)(?<value>)(?<closing_delimiters>)",
         _POD_DECLARATION_GROUPS, FindBrackets(POD_DECLARATION)),
        Include("pod-blocks"),
    ],
    "pod-blocks": [
        (r"(?<=^ *)(?<ws> *)(?<keyword>=begin)(?<ws2> +)(?<name>code)(?<config>[^\n]*)(?<value>.*?)"
         r"(?<ws3>^\k<ws>)(?<end_keyword>=end)(?<ws4> +)\k<name>",
         PodCode()),
        (r"(?<=^ *)(?<ws> *)(?<keyword>=begin)(?<ws2> +)(?!code)(?<name>\w[\w'-]*)(?<config>[^\n]*)(?<value>)"
         r"(?<closing_delimiters>)",
         _POD_BEGIN_GROUPS, FindBrackets(POD)),
        (r"(?<=^ *)(?<ws> *)(?<keyword>=(?:for|defn))(?<ws2> +)(?<name>\w[\w'-]*)(?<config>[^\n]*\n)",
         groups("Comment", "Keyword", "StringDoc", "Keyword", PodConfig()), push("pod-paragraph")),
        (r"(?<=^ *)(?<ws> *)(?<keyword>=config)(?<ws2> +)(?<name>\w[\w'-]*)(?<config>[^\n]*\n)",
         groups("Comment", "Keyword", "StringDoc", "Keyword", PodConfig())),
        (r"(?<=^ *)(?<ws> *)(?<keyword>=alias)(?<ws2> +)(?<name>\w[\w'-]*)(?<value>[^\n]*\n)",
         groups("Comment", "Keyword", "StringDoc", "Keyword", "StringDoc")),
        (r"(?<=^ *)(?<ws> *)(?<keyword>=encoding)(?<ws2> +)(?<name>[^\n]+)",
         groups("Comment", "Keyword", "StringDoc", "Name")),
        (r"(?<=^ *)(?<ws> *)(?<keyword>=(?:para|table|pod))(?<config>(?<!\n\s*)[^\n]*\n)",
         groups("Comment", "Keyword", PodConfig()), push("pod-paragraph")),
        (r"(?<=^ *)(?<ws> *)(?<keyword>=head\d+)(?<ws2> *)(?<config>#?)",
         groups("Comment", "Keyword", "GenericHeading", "Keyword"), push("pod-heading")),
        (r"(?<=^ *)(?<ws> *)(?<keyword>=(?:item\d*|comment|data|[A-Z]+))(?<ws2> *)(?<config>#?)",
         groups("Comment", "Keyword", "StringDoc", "Keyword"), push("pod-paragraph")),
        (r"(?<=^ *)(?<ws> *)(?<keyword>=finish)(?<config>[^\n]*)",
         groups("Comment", "Keyword", PodConfig()), push("pod-finish")),
        (r"(?<=^ *)(?<ws> *)(?<name>=\w[\w'-]*)(?<ws2> *)(?<config>#?)",
         groups("Comment", "Name", "StringDoc", "Keyword"), push("pod-paragraph")),
        (r"(?<=^ *)(?<keyword> *=)(?<ws> *)(?<config>(?::\w[\w'-]*(?:" + _COLON_PAIR_OPENING + ".+?"
         + _COLON_PAIR_CLOSING + r") *)*\n)", groups("Keyword", "StringDoc", PodConfig())),
    ],
    "pod-begin": [
        Include("pod-blocks"),
        Include("pre-pod-formatter"),
        (".+?", "StringDoc"),
    ],
    "pod-declaration": [
        Include("pre-pod-formatter"),
        (".+?", "StringDoc"),
    ],
    "pod-paragraph": [
        (r"\n *\n|\n(?=^ *=)", "StringDoc", pop(1)),
        Include("pre-pod-formatter"),
        (".+?", "StringDoc"),
    ],
    "pod-single": [
        (r"\n", "StringDoc", pop(1)),
        Include("pre-pod-formatter"),
        (".+?", "StringDoc"),
    ],
    "pod-heading": [
        (r"\n *\n|\n(?=^ *=)", "GenericHeading", pop(1)),
        Include("pre-pod-formatter"),
        (".+?", "GenericHeading"),
    ],
    "pod-finish": [
        (r"\z", None, pop(1)),
        Include("pre-pod-formatter"),
        (".+?", "StringDoc"),
    ],
    "pre-pod-formatter": [
        ("(?<keyword>[CBIUDTKRPAELZVMSXN])(?<opening_delimiters><+|«)",
         groups("Keyword", "Punctuation"), FindBrackets(POD_FORMATTER)),
    ],
    "pod-formatter": [
        (">", "Punctuation", pop(1)),
        Include("pre-pod-formatter"),
        (".+?", "StringOther"),
    ],
    "variable": [
        (_VARIABLE_PATTERN, "NameVariable", push("name-adverb")),
        (_GLOBAL_VARIABLE_PATTERN, "NameVariableGlobal", push("name-adverb")),
        ("[$@]<[^>]+>", "NameVariable"),
        (r"\$[/!¢]", "NameVariable"),
        ("[$@%]", "NameVariable"),
    ],
    "single-quote": [
        (r"(?<!(?<!\\)\\)'", "Punctuation", push("single-quote-inner")),
    ],
    "single-quote-inner": [
        (r"(?<!(?<!(?<!\\)\\)\\)'", "Punctuation", pop(1)),
        Include("escape-single-quote"),
        Include("escape-qq"),
        (r"(?:\\\\|\\[^\\]|[^'\\])+?", "StringSingle"),
    ],
    "double-quotes": [
        (r'(?<!(?<!\\)\\)"', "Punctuation", pop(1)),
        Include("qq"),
    ],
    "<<": [
        (r">>(?!\s*(?:\d+|\.(?:Int|Numeric)|[$@%]\*?[\w':-]+|\s+\[))", "Punctuation", pop(1)),
        Include("ww"),
    ],
    "«": [
        (r"»(?!\s*(?:\d+|\.(?:Int|Numeric)|[$@%]\*?[\w':-]+|\s+\[))", "Punctuation", pop(1)),
        Include("ww"),
    ],
    "ww": [
        Include("single-quote"),
        Include("qq"),
    ],
    "qq": [
        Include("qq-variable"),
        Include("closure"),
        Include("escape-char"),
        Include("escape-hexadecimal"),
        Include("escape-c-name"),
        Include("escape-qq"),
        (".+?", "StringDouble"),
    ],
    "qq-variable": [
        (r"(?<!(?<!\\)\\)(?:" + _VARIABLE_PATTERN + "|" + _GLOBAL_VARIABLE_PATTERN + ")" + _COLON_PAIR_LOOKAHEAD + ")",
         "NameVariable", push("qq-variable-extras", "name-adverb")),
    ],
    "qq-variable-extras": [
        (r"(?<operator>\.)(?<method_name>" + _NAME_PATTERN + ")" + _COLON_PAIR_LOOKAHEAD + r"\()",
         _METHOD_GROUPS, push("name-adverb")),
        (r"\(", "Punctuation", _replace("root", ")")),
        default(pop(1)),
    ],
    "Q": [
        Include("escape-qq"),
        (".+?", "String"),
    ],
    "Q-closure": [
        Include("escape-qq"),
        Include("closure"),
        (".+?", "String"),
    ],
    "Q-variable": [
        Include("escape-qq"),
        Include("qq-variable"),
        (".+?", "String"),
    ],
    "closure": [
        (r"(?<!(?<!\\)\\){", "Punctuation", _replace("root", "}")),
    ],
    "token": [
        (r"\(", "Punctuation", _replace("root", ")")),
        ("{", "Punctuation", _replace("regex", "}", pop_state=True)),
        (r"\s*", "Text"),
        default(pop(1)),
    ],
}

