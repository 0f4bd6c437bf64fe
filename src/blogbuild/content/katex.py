"""KaTeX run in-process to typeset math at build time: TeX to HTML + MathML, batched, deduplicated, cached.

The engine is V8 through mini-racer, running the KaTeX that blogbuild ships (vendor/katex/katex.min.js),
so users need no Node. Why V8 and not QuickJS: KaTeX is a large parser-and-layout program and V8's JIT
runs it about 30x faster once warm (measured: 0.3-0.5 ms per formula in a batch against 15 ms with the
quickjs binding), for 0.1 s to start an isolate. One isolate per process, made on first use: a forked
worker never touches its parent's isolate (V8 does not survive fork) but makes its own.

A page's formulas are typeset as KaTeX auto-render typesets them in the reader's browser: in document order,
sharing one macros object that starts as the site's math_macros, so that a \\gdef in one formula holds for the
formulas after it. They go to KaTeX in one call (crossing into V8 costs more than a small formula), each
distinct (TeX, display, macro state) once. A formula's macro state is the chain of the page's formulas before
it that may define macros (_DEFINES); renders are kept by (TeX, display mode, macros, that chain, KaTeX
version) in a SQLite file in .blogbuild-cache/ when the build has a cache (set_cache_file), so a warm build
pays nothing for math even when posts are rendered again (an edit, a new blogbuild), and no render made
under other macros is ever served. mhchem (\\ce, \\pu) is loaded beside KaTeX.
"""
from __future__ import annotations

import hashlib
import html as html_lib
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..media.assets import KATEX_VERSION, VENDOR_DIR
from .v8 import new_isolate
from ..core.errors import SourceWarning
from ..core.model import Post, TocEntry
from ..core.records import dataclass

if TYPE_CHECKING:
    import sqlite3   # imported when a formula is first looked up: most builds typeset none

KATEX_SCRIPT = VENDOR_DIR / "katex" / "katex.min.js"
MHCHEM_SCRIPT = VENDOR_DIR / "katex" / "contrib" / "mhchem.min.js"   # \ce and \pu, as sites load it

# One call typesets a list of [tex, display, flags] items in order. flags & 1: start a fresh macros object (a
# copy of the site's) before this item, as a new page does; every other item shares the object of the item
# before it, which KaTeX's \gdef writes into. flags & 2: the item's result is wanted (others are only run for
# the macros they define). The results come back as one string: each "1" + HTML or "0" + KaTeX's message,
# joined by NUL, which KaTeX's HTML never holds (a message quoting the TeX might: then the list as JSON after
# a \u0001). Strings cost most of the way out of V8 (a formula's HTML and MathML are ~3.4 kB): a joined
# string crossed in 0.10 ms a formula, JSON in 0.135-0.145 (2,000 formulas).
_BATCH_FUNCTION = """
function blogbuildTypeset(items, macros) {
  var results = [], joinable = true, state = Object.assign({}, macros);
  for (var index = 0; index < items.length; index++) {
    var item = items[index], result;
    if (item[2] & 1) state = Object.assign({}, macros);
    try {
      result = "1" + katex.renderToString(item[0], {
        displayMode: item[1], output: "htmlAndMathml", throwOnError: true,
        strict: "ignore", trust: false, macros: state});
    } catch (error) {
      result = "0" + String(error && error.message ? error.message : error);
    }
    if (!(item[2] & 2)) continue;
    if (result.indexOf("\\u0000") !== -1) joinable = false;
    results.push(result);
  }
  return joinable ? results.join("\\u0000") : "\\u0001" + JSON.stringify(results);
}
"""


@dataclass(frozen=True)
class Typeset:
    """One formula's outcome: KaTeX's HTML, or KaTeX's message when it rejects the TeX."""

    html: str | None
    error: str | None = None


class _Engine:
    """A V8 isolate with KaTeX loaded, for the process that made it."""

    def __init__(self) -> None:
        self.context = new_isolate("math typesetting needs the mini-racer package (pip install mini-racer), "
                                   "or set math_render: browser")
        self.context.eval(KATEX_SCRIPT.read_text(encoding="utf-8"))
        self.context.eval(MHCHEM_SCRIPT.read_text(encoding="utf-8"))
        self.context.eval(_BATCH_FUNCTION)

    def typeset(self, items: Sequence[tuple[str, bool, int]], macros: Mapping[str, str]) -> list[Typeset]:
        """Run (TeX, display, flags) items in one call into V8; the outcomes of those flagged wanted, in order."""
        if not items:
            return []
        raw = self.context.call("blogbuildTypeset", [list(item) for item in items], dict(macros))
        if not raw:
            return []
        results = json.loads(raw[1:]) if raw.startswith("\x01") else raw.split("\x00")
        return [Typeset(result[1:], None) if result[0] == "1" else Typeset(None, result[1:]) for result in results]


class _Cache:
    """Renders on disk, keyed by (TeX, display, macros, KaTeX version); one connection per process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.connection: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection | None:
        import sqlite3
        if self.connection is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # The server builds in its own threads, one build at a time: the connection goes from thread
                # to thread, which SQLite's serialized mode (threadsafety 3, Python's usual build) allows.
                connection = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                                             check_same_thread=sqlite3.threadsafety != 3)
                # A cache: losing the last writes on a crash costs a re-render, never a wrong page.
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=OFF")
                connection.execute("CREATE TABLE IF NOT EXISTS formulas (key TEXT PRIMARY KEY, html TEXT, error TEXT)")
                self.connection = connection
            except sqlite3.Error:
                return None   # a read-only or damaged cache folder: typeset without a cache
        return self.connection

    def get(self, keys: Sequence[str]) -> dict[str, Typeset]:
        """The stored renders among keys."""
        import sqlite3
        connection = self._connect()
        found: dict[str, Typeset] = {}
        if connection is None or not keys:
            return found
        try:
            for start in range(0, len(keys), 500):   # SQLite's limit on bound parameters
                chunk = keys[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for key, html, error in connection.execute(
                        f"SELECT key, html, error FROM formulas WHERE key IN ({marks})", chunk):
                    found[key] = Typeset(html, error)
        except sqlite3.Error:
            return {}
        return found

    def put(self, renders: Mapping[str, Typeset]) -> None:
        """Store new renders (one transaction)."""
        import sqlite3
        connection = self._connect()
        if connection is None or not renders:
            return
        try:
            with connection:
                connection.execute("BEGIN")
                connection.executemany("INSERT OR REPLACE INTO formulas VALUES (?, ?, ?)",
                                       [(key, value.html, value.error) for key, value in renders.items()])
        except sqlite3.Error:
            pass   # another process holding the lock too long: these renders are simply not kept


# Renders this process has seen, by (TeX, display, macros, macro state) (forked workers start with their parent's).
_memory: dict[tuple[str, bool, str, str], Typeset] = {}
_MEMORY_LIMIT = 100_000
_engine: _Engine | None = None
_cache: _Cache | None = None
_cache_path: Path | None = None


def set_cache_file(path: Path | None) -> None:
    """Keep renders in this SQLite file (the build's cache folder), or nowhere (None)."""
    global _cache_path, _cache
    if _cache is not None and _cache.path == path:
        return
    if _cache is not None and _cache.connection is not None:
        import sqlite3
        try:
            _cache.connection.close()
        except sqlite3.ProgrammingError:
            pass   # made in another thread by an SQLite without serialized mode: freed with the process
    _cache_path = path
    _cache = None


def forget_renders() -> None:
    """Drop the renders this process keeps in memory (the cache file stays)."""
    _memory.clear()


def cache_file_for(cache_dir: Path) -> Path:
    """The render cache's file inside a cache folder (named by KaTeX's version)."""
    return cache_dir / f"katex-{KATEX_VERSION}.sqlite"


# A forked child must neither use nor free its parent's isolate or SQLite connection: freeing the
# isolate waits for a V8 thread that does not exist in the child (a hang), closing the connection
# could touch the parent's locks. The child keeps them here, unused, until it exits.
_inherited: list[object] = []


def _after_fork_in_child() -> None:
    global _engine, _cache
    _inherited.extend(item for item in (_engine, _cache) if item is not None)
    _engine = None
    _cache = None


os.register_at_fork(after_in_child=_after_fork_in_child)


def _current_engine() -> _Engine:
    global _engine
    if _engine is None:
        _engine = _Engine()
    return _engine


def _current_cache() -> _Cache | None:
    global _cache
    if _cache_path is None:
        return None
    if _cache is None:
        _cache = _Cache(_cache_path)
    return _cache


# What may change the macros the formulas after it see: KaTeX keeps what \gdef, \xdef and \global define in
# the macros object it is given, and auto-render gives every formula of a page the same object. The list is
# wider than what KaTeX keeps: a formula counted here that changes nothing costs only a finer cache key.
_DEFINES = re.compile(r"\\(?:[gxe]?def|global|(?:re)?newcommand|providecommand|(?:future)?let|DeclareMathOperator)"
                      r"(?![A-Za-z])")

_FRESH, _WANTED = 1, 2   # the flags of blogbuildTypeset's items

# A formula of a page: (TeX, display); its key in memory: (TeX, display, macros as JSON, macro state).
Formula = tuple[str, bool]
_MemoryKey = tuple[str, bool, str, str]


def _key(memory_key: _MemoryKey) -> str:
    tex, display, macros_text, state = memory_key
    # A formula typeset under no definitions keeps the key it has always had.
    chain = f"\0{state}" if state else ""
    return hashlib.sha256(f"{KATEX_VERSION}\0{int(display)}\0{macros_text}{chain}\0{tex}".encode()).hexdigest()


def _page_keys(page: Sequence[Formula], macros_text: str, every_formula_defines: bool) -> list[tuple[_MemoryKey, bool]]:
    """Each formula's memory key (with the macro state it is typeset under) and whether it may define macros."""
    state = ""
    keys = []
    for tex, display in page:
        defines = every_formula_defines or _DEFINES.search(tex) is not None
        keys.append(((tex, display, macros_text, state), defines))
        if defines:
            state = hashlib.sha256(f"{state}\0{int(display)}\0{tex}".encode()).hexdigest()[:32]
    return keys


def _batch(pages: Sequence[list[tuple[_MemoryKey, bool]]], missing: set[_MemoryKey]) -> tuple[list[tuple[str, bool, int]], list[_MemoryKey]]:
    """The items one call into V8 runs to typeset every missing formula (each once) under its macro state:
    per page that has one, its formulas up to the last missing one, skipping those that neither define
    macros nor are wanted; and the keys of the wanted items, in order."""
    items: list[tuple[str, bool, int]] = []
    wanted: list[_MemoryKey] = []
    queued: set[_MemoryKey] = set()
    for keys in pages:
        last = max((index for index, (key, _defines) in enumerate(keys) if key in missing and key not in queued),
                   default=-1)
        flags = _FRESH
        for key, defines in keys[:last + 1]:
            want = key in missing and key not in queued
            if not (want or defines):
                continue
            if want:
                queued.add(key)
                wanted.append(key)
            items.append((key[0], key[1], flags | (_WANTED if want else 0)))
            flags = 0
    return items, wanted


def typeset_pages(pages: Sequence[Sequence[Formula]], macros: Mapping[str, str] | None = None) -> list[list[Typeset]]:
    """Typeset each page's formulas in document order, as KaTeX auto-render does in the reader's browser: one
    macros object per page, starting as macros, that a formula's \\gdef changes for the formulas after it.
    Each distinct (formula, macro state) once: from memory, the cache, else all in one call into KaTeX."""
    macros = dict(macros or {})
    macros_text = json.dumps(macros, sort_keys=True, ensure_ascii=False) if macros else ""
    # A site macro that itself defines (\\setup -> \\gdef...) may act from any formula.
    every_formula_defines = any(_DEFINES.search(expansion) for expansion in macros.values())
    page_keys = [_page_keys(page, macros_text, every_formula_defines) for page in pages]
    # First this process's memory (posts repeat formulas: the bench corpus's 4,400 are 28 distinct),
    # then the cache file, then KaTeX.
    results: dict[_MemoryKey, Typeset] = {}
    unknown: dict[_MemoryKey, None] = {}
    for keys in page_keys:
        for key, _defines in keys:
            if key not in results:
                known = _memory.get(key)
                if known is None:
                    unknown[key] = None
                else:
                    results[key] = known
    if unknown:
        hashed = {key: _key(key) for key in unknown}
        cache = _current_cache()
        stored = cache.get(list(hashed.values())) if cache is not None else {}
        results.update((key, stored[hashed[key]]) for key in unknown if hashed[key] in stored)
        missing = {key for key in unknown if key not in results}
        if missing:
            items, wanted = _batch(page_keys, missing)
            fresh = _current_engine().typeset(items, macros)
            results.update(zip(wanted, fresh, strict=True))
            if cache is not None:
                cache.put({hashed[key]: value for key, value in zip(wanted, fresh, strict=True)})
        if len(_memory) > _MEMORY_LIMIT:
            _memory.clear()
        _memory.update((key, results[key]) for key in unknown)
    return [[results[key] for key, _defines in keys] for keys in page_keys]


def typeset(formulas: Iterable[Formula], macros: Mapping[str, str] | None = None) -> dict[Formula, Typeset]:
    """Typeset each distinct (TeX, display) once, each on its own (as the only formula of a page)."""
    distinct = list(dict.fromkeys(formulas))
    outcomes = typeset_pages([[formula] for formula in distinct], macros)
    return {formula: outcome[0] for formula, outcome in zip(distinct, outcomes, strict=True)}


# The build leaves math as <span class="math inline">TeX</span>, <span class="math display">TeX</span>
# (display math inside a paragraph) or <div class="math display">TeX</div>, the TeX HTML-escaped.
_MATH_ELEMENT = re.compile(r'<(span|div) class="math (inline|display)">([^<]*)</\1>')


def _elements(html: str) -> list[tuple[str, str, str]]:
    """Each math element of some HTML, in document order: (tag, kind, escaped TeX)."""
    if 'class="math ' not in html:
        return []
    return [match.groups() for match in _MATH_ELEMENT.finditer(html)]  # type: ignore[misc]


def _formulas(elements: Sequence[tuple[str, str, str]]) -> list[Formula]:
    return [(html_lib.unescape(escaped), kind == "display") for _tag, kind, escaped in elements]


def formulas_in(html: str) -> list[Formula]:
    """The distinct (TeX, display) of the formulas the build left in some HTML, in order."""
    return list(dict.fromkeys(_formulas(_elements(html))))


def _replacement(tag: str, kind: str, escaped: str, outcome: Typeset | None) -> str:
    if outcome is None or outcome.html is None:
        # The TeX stays readable; math-error lets the theme mark it.
        return f'<{tag} class="math {kind} math-error">{escaped}</{tag}>'
    return f'<{tag} class="math {kind}" data-math-rendered="">{outcome.html}</{tag}>'


def replace_formulas(html: str, outcomes: Sequence[Typeset | None]) -> str:
    """The HTML with its n-th formula replaced by the n-th outcome's render (a rejected one keeps its TeX)."""
    if not outcomes:
        return html
    found = iter(outcomes)
    return _MATH_ELEMENT.sub(lambda match: _replacement(match[1], match[2], match[3], next(found, None)), html)


def typeset_html(*documents: str, macros: Mapping[str, str] | None = None,
                 borrowing: Sequence[str] = ()) -> tuple[list[str], list[str], dict[Formula, str]]:
    """Typeset the math of several HTML documents in one batch, each as a page of its own (a summary, the
    start of its page, gets the page's macro state at each formula), and of the borrowing documents (a
    TOC's headings), whose formulas take the render of the first document's same formula:
    (new documents, new borrowing documents, {formula: KaTeX's error})."""
    pages = [_formulas(_elements(document)) for document in documents]
    borrowed_formulas = [_formulas(_elements(document)) for document in borrowing]
    if not any(pages) and not any(borrowed_formulas):
        return list(documents), list(borrowing), {}
    first_page = pages[0] if pages else []
    # A borrowed formula the first document does not hold is typeset on its own.
    alone = [formula for formulas in borrowed_formulas for formula in formulas if formula not in first_page]
    outcomes = typeset_pages([*pages, *([formula] for formula in dict.fromkeys(alone))], macros)
    by_formula: dict[Formula, Typeset] = {}
    for formula, outcome in zip([*first_page, *dict.fromkeys(alone)],
                                [*(outcomes[0] if pages else []), *(page[0] for page in outcomes[len(pages):])],
                                strict=True):
        # A heading's formula is typeset where the heading is; the first render KaTeX accepted stands for it.
        if formula not in by_formula or (by_formula[formula].html is None and outcome.html is not None):
            by_formula[formula] = outcome
    errors: dict[Formula, str] = {}
    for formulas, page_outcomes in zip(pages, outcomes, strict=False):
        for formula, outcome in zip(formulas, page_outcomes, strict=True):
            if outcome.html is None:
                errors.setdefault(formula, outcome.error or "")
    new_documents = [replace_formulas(document, page_outcomes)
                     for document, page_outcomes in zip(documents, outcomes, strict=False)]
    new_borrowing = [replace_formulas(document, [by_formula[formula] for formula in formulas])
                     for document, formulas in zip(borrowing, borrowed_formulas, strict=True)]
    return new_documents, new_borrowing, errors


def _formula_line(text: str, tex: str, first_line: int) -> int:
    """The file line (1-based) where a formula's TeX first appears at or after first_line; first_line if not found."""
    needle = next((line.strip() for line in tex.splitlines() if line.strip()), "")
    lines = text.split("\n")
    for number in range(max(first_line - 1, 0), len(lines)):
        if needle and needle in lines[number]:
            return number + 1
    return first_line


class PostTypesetter:
    """The typeset step of posts.make_post for one post: the math of its content and summary HTML typeset before
    the content is packed; KaTeX's errors kept for warnings() once the Post (its marks) exists."""

    def __init__(self, macros: Mapping[str, str] | None = None) -> None:
        self.macros = macros
        self.errors: dict[tuple[str, bool], str] = {}

    def __call__(self, content_html: str, summary_html: str,
                 toc: tuple[TocEntry, ...] = ()) -> tuple[str, str, tuple[TocEntry, ...]]:
        """The content, summary and TOC with their formulas typeset (a TOC entry's as in its heading)."""
        with_math = [index for index, entry in enumerate(toc) if entry.html]
        (content_html, summary_html), toc_html, errors = typeset_html(
            content_html, summary_html, macros=self.macros, borrowing=[toc[index].html for index in with_math])
        self.errors.update(errors)
        if with_math:
            entries = list(toc)
            for index, html in zip(with_math, toc_html, strict=True):
                entries[index] = replace(entries[index], html=html)
            toc = tuple(entries)
        return content_html, summary_html, toc

    def warnings(self, post: Post, source_text: str, body_line: int) -> tuple[SourceWarning, ...]:
        """A warning for each formula KaTeX rejected (it stays TeX), at its line in the file."""
        # The markdown stage's marks carry each formula's file line; a formula a shortcode wrote has none.
        marked = {mark.value: mark.line for mark in reversed(post.marks) if mark.kind == "math"}
        return tuple(
            SourceWarning(post.source, marked.get(tex) or _formula_line(source_text, tex, body_line),
                          f"math {_shortened(tex)}: KaTeX cannot typeset it ({' '.join(message.split())}); "
                          "it is shown as TeX")
            for (tex, _display), message in self.errors.items())


def _shortened(tex: str, limit: int = 40) -> str:
    flat = " ".join(tex.split())
    # Quoted as written: repr() would double every backslash of the TeX.
    return "'" + (flat if len(flat) <= limit else flat[:limit - 1] + "…") + "'"
