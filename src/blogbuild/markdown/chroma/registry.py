"""Chroma's lexer registry (registry.go, lexers/lexers.go): every vendored XML lexer and the Go-coded ones
ported here, looked up as Hugo's lexers.Get looks them up (name, alias, either lower-cased, then file name)."""
from __future__ import annotations

import fnmatch
import functools
import json
import posixpath
import threading
from collections.abc import Mapping
from dataclasses import field, fields
from pathlib import Path
from typing import Any, Callable

from .analysers import ANALYSERS
from .lexer import Config, LexerError, RegexLexer, Rule
from .xml_lexers import XmlLexerFile
from ...core.records import dataclass

LEXER_DIR = Path(__file__).resolve().parent.parent.parent / "vendor" / "chroma" / "lexers"
# Every vendored lexer file's <config>, as read_config reads it, by file name: a registry is made from this
# instead of reading 279 files (0.04 s of every process that highlights); scripts/index_chroma_lexers.py
# writes it, tests/test_chroma_registry.py fails while it differs from the files.
CONFIG_INDEX = Path(__file__).resolve().parent / "lexer-configs.json"

_IGNORED_SUFFIXES = ("~", ".bak", ".old", ".orig", ".dpkg-dist", ".dpkg-old", ".ucf-dist", ".ucf-new",
                     ".ucf-old", ".rpmnew", ".rpmorig", ".rpmsave", ".in")


def _glob_match(glob: str, name: str) -> bool:
    """Go's filepath.Match on a base name (case-sensitive; [^...] negates)."""
    return fnmatch.fnmatchcase(name, glob.replace("[^", "[!"))


def _priority(lexer: RegexLexer) -> float:
    return lexer.config.priority or 1.0


@dataclass
class Registry:
    """The lexers by name and alias, in registration order; `warnings` holds the files that failed to load."""

    lexers: list[RegexLexer] = field(default_factory=list)
    by_name: dict[str, RegexLexer] = field(default_factory=dict)
    by_alias: dict[str, RegexLexer] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    # get()'s answers so far (a name that finds no lexer walks every file pattern); emptied by (un)register.
    found: dict[str, RegexLexer | None] = field(default_factory=dict)

    def register(self, lexer: RegexLexer) -> RegexLexer:
        self.found.clear()
        lexer.registry = self
        config = lexer.config
        self.by_name[config.name] = lexer
        self.by_name[config.name.lower()] = lexer
        for alias in config.aliases:
            self.by_alias[alias] = lexer
            self.by_alias[alias.lower()] = lexer
        for index, known in enumerate(self.lexers):
            if known.config.name == config.name:
                self.lexers[index] = lexer
                return lexer
        self.lexers.append(lexer)
        return lexer

    def load_folder(self, folder: Path, shown_as: str = "",
                    configs: Mapping[str, Config] | None = None) -> list[RegexLexer]:
        """Register every lexer XML file of a folder (a later one of a name replaces the earlier); a file that
        fails to load is a warning in `warnings` naming it. shown_as is the folder's name in messages; configs:
        the files' configs already read, by file name (a file without one is read)."""
        loaded = []
        for path in sorted(folder.glob("*.xml")):
            lexer = _xml_lexer(path, self, shown_as or str(folder), (configs or {}).get(path.name))
            if lexer is not None:
                loaded.append(self.register(lexer))
        return loaded

    def unregister(self, lexer: RegexLexer) -> None:
        """Take a lexer out again (its name and aliases find nothing, or what they found before it)."""
        self.found.clear()
        self.lexers = [known for known in self.lexers if known is not lexer]
        for table in (self.by_name, self.by_alias):
            for key in [key for key, value in table.items() if value is lexer]:
                del table[key]

    def get(self, name: str) -> RegexLexer | None:
        """lexers.Get: by name, by alias, both lower-cased, then the best lexer for a file of that name or
        extension."""
        if name not in self.found:
            self.found[name] = self._get(name)
        return self.found[name]

    def _get(self, name: str) -> RegexLexer | None:
        for table, key in ((self.by_name, name), (self.by_alias, name), (self.by_name, name.lower()),
                           (self.by_alias, name.lower())):
            if key in table:
                return table[key]
        candidates = [lexer for lexer in (self.match("filename." + name), self.match(name)) if lexer is not None]
        if not candidates:
            return None
        return sorted(candidates, key=_priority, reverse=True)[0]

    def match_mime_type(self, mime_type: str) -> RegexLexer | None:
        """lexers.MatchMimeType: the lexer listing exactly this MIME type, by priority (the first registered of
        equal ones)."""
        matched = [lexer for lexer in self.lexers for listed in lexer.config.mime_types if listed == mime_type]
        return sorted(matched, key=_priority, reverse=True)[0] if matched else None

    def match(self, filename: str) -> RegexLexer | None:
        """lexers.Match: the lexer whose file patterns match a file's base name, by priority."""
        filename = posixpath.basename(filename)
        # A glob with an ignored suffix (x.py~) matches what the name is without that suffix: the suffixes are
        # literal text, so the name is tried as it is and once without each suffix it ends with.
        names = [filename] + [filename[:-len(suffix)] for suffix in _IGNORED_SUFFIXES if filename.endswith(suffix)]
        for attribute in ("filenames", "alias_filenames"):
            matched = []
            for lexer in self.lexers:
                for glob in getattr(lexer.config, attribute):
                    if any(_glob_match(glob, name) for name in names):
                        matched.append(lexer)
            if matched:
                return sorted(matched, key=_priority, reverse=True)[0]
        return None

    def analyse(self, text: str) -> RegexLexer | None:
        """lexers.Analyse: the lexer whose analyser scores text highest (guessSyntax); of equal scores the
        first registered (the lexer files in name order, then the Go-coded lexers)."""
        picked: RegexLexer | None = None
        highest = 0.0
        for lexer in self.lexers:
            try:
                weight = lexer.analyse(text)
            except LexerError:
                continue
            if weight > highest:
                picked, highest = lexer, weight
        return picked


def _xml_lexer(path: Path, registry: Registry, shown_as: str, config: Config | None = None) -> RegexLexer | None:
    source = XmlLexerFile(path, f"{shown_as}/{path.name}")
    if config is None:
        try:
            config = source.config(source.head())
        except LexerError as error:
            registry.warnings.append(str(error))
            return None
    return RegexLexer(config, source.rules, where=source.where)


def config_record(config: Config) -> list[Any]:
    """A Config as the index holds it (JSON: its fields in order, tuples as lists)."""
    return [getattr(config, field.name) for field in fields(Config)]


def read_config_index(path: Path = CONFIG_INDEX) -> dict[str, Config]:
    """The index's configs by file name; none when it is missing or not what this code reads (the files are
    read then)."""
    try:
        records = json.loads(path.read_text(encoding="utf-8"))["configs"]
        return {name: _config(record) for name, record in records.items()}
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return {}


def _config(record: list[Any]) -> Config:
    name, aliases, filenames, alias_filenames, mime_types, case_insensitive, dot_all, not_multiline, ensure_nl, \
        priority, analyse, analyse_first = record
    return Config(str(name), tuple(aliases), tuple(filenames), tuple(alias_filenames), tuple(mime_types),
                  bool(case_insensitive), bool(dot_all), bool(not_multiline), bool(ensure_nl), float(priority),
                  tuple((str(pattern), float(score)) for pattern, score in analyse), bool(analyse_first))


_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def _registry() -> Registry:
    from .go_lexers import register_go_lexers
    registry = Registry()
    registry.load_folder(LEXER_DIR, "blogbuild/vendor/chroma/lexers", read_config_index())
    register_go_lexers(registry, lambda name: _xml_file_lexer(registry, name))
    for name, analyser in ANALYSERS.items():   # lexers/*.go's init(): Get(name).SetAnalyser(...)
        registry.by_name[name].analyser = analyser
    return registry


def _xml_file_lexer(registry: Registry, name: str) -> RegexLexer:
    """A second lexer of one XML file, for a Go-coded lexer that reuses its rules under another config."""
    path = LEXER_DIR / name
    source = XmlLexerFile(path, f"blogbuild/vendor/chroma/lexers/{name}")
    lexer = RegexLexer(source.config(source.document()), source.rules, registry, source.where)
    return lexer


def registry() -> Registry:
    """The one registry (built on first use, thread-safe)."""
    with _LOCK:
        return _registry()


def get_lexer(name: str) -> RegexLexer | None:
    """Hugo's chromalexers.Get: the lexer of a code block's language, or None."""
    return registry().get(name)


def fallback_lexer() -> RegexLexer:
    """lexers.Fallback: plain text, one token a line (Hugo's lexer when guessSyntax finds none)."""
    return _fallback()


@functools.lru_cache(maxsize=1)
def _fallback() -> RegexLexer:
    from .lexer import TokenEmitter
    from .token_types import TEXT

    def rules() -> dict[str, list[Rule]]:
        return {"root": [Rule(".+", TokenEmitter(TEXT), where="fallback"),
                         Rule("\n", TokenEmitter(TEXT), where="fallback")]}
    return RegexLexer(Config("fallback", filenames=("*",), priority=-1), rules, where="fallback")


LexerFactory = Callable[[str], RegexLexer]
