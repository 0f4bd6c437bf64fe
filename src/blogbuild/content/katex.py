"""KaTeX run in-process to typeset math at build time: TeX to HTML + MathML, batched, deduplicated, cached.

The engine is V8 through mini-racer, running the KaTeX that blogbuild ships (vendor/katex/katex.min.js),
so users need no Node. Why V8 and not QuickJS: KaTeX is a large parser-and-layout program and V8's JIT
runs it about 30x faster once warm (measured: 0.3-0.5 ms per formula in a batch against 15 ms with the
quickjs binding), for 0.1 s to start an isolate. One isolate per process, made on first use: a forked
worker never touches its parent's isolate (V8 does not survive fork) but makes its own.

A post's formulas go to KaTeX in one call (crossing into V8 costs more than a small formula), each
distinct (TeX, display) once. Renders are kept by (TeX, display mode, macros, KaTeX version) in a SQLite
file in .blogbuild-cache/ when the build has a cache (set_cache_file), so a warm build pays nothing for
math even when posts are rendered again (an edit, a new blogbuild).
"""
from __future__ import annotations

import atexit
import hashlib
import html as html_lib
import json
import os
import re
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..media.assets import KATEX_VERSION, VENDOR_DIR
from ..core.errors import SourceWarning
from ..core.model import Post

KATEX_SCRIPT = VENDOR_DIR / "katex" / "katex.min.js"

# One call typesets a list of [tex, display] pairs. The results come back as one string: each "1" + HTML or
# "0" + KaTeX's message, joined by NUL, which KaTeX's HTML never holds (a message quoting the TeX might: then
# the list as JSON after a \u0001). Strings cost most of the way out of V8 (a formula's HTML and MathML are
# ~3.4 kB): a joined string crossed in 0.10 ms a formula, JSON in 0.135-0.145 (2,000 formulas).
# macros are copied per formula: KaTeX writes \gdef definitions into the object it is given.
_BATCH_FUNCTION = """
function blogbuildTypeset(items, macros) {
  var results = [], joinable = true;
  for (var index = 0; index < items.length; index++) {
    var result;
    try {
      result = "1" + katex.renderToString(items[index][0], {
        displayMode: items[index][1], output: "htmlAndMathml", throwOnError: true,
        strict: "ignore", trust: false, macros: Object.assign({}, macros)});
    } catch (error) {
      result = "0" + String(error && error.message ? error.message : error);
    }
    if (result.indexOf("\\u0000") !== -1) joinable = false;
    results.push(result);
  }
  return joinable ? results.join("\\u0000") : "\\u0001" + JSON.stringify(results);
}
"""


class EngineMissing(RuntimeError):
    """mini-racer is not installed (it is a dependency of blogbuild; reinstall to get it)."""


@dataclass(frozen=True)
class Typeset:
    """One formula's outcome: KaTeX's HTML, or KaTeX's message when it rejects the TeX."""

    html: str | None
    error: str | None = None


V8_FLAGS = ("--single-threaded", "--no-opt")   # mini-racer's default, and no TurboFan (see _Engine)


class _Engine:
    """A V8 isolate with KaTeX loaded, for the process that made it."""

    def __init__(self) -> None:
        try:
            from py_mini_racer import MiniRacer, init_mini_racer
        except ImportError as error:
            raise EngineMissing("math typesetting needs the mini-racer package (pip install mini-racer), "
                                "or set math_render: browser") from error
        # V8's optimizing compiler does not pay for itself over a build's few thousand short calls: without
        # it typesetting takes about a fifth less CPU and the isolate 8 MB less memory (bench/bench_math.py).
        init_mini_racer(flags=V8_FLAGS, ignore_duplicate_init=True)
        self.pid = os.getpid()
        self.context = MiniRacer()
        self.context.eval(KATEX_SCRIPT.read_text(encoding="utf-8"))
        self.context.eval(_BATCH_FUNCTION)
        # Closed at exit while V8's threads still run: freed later, during interpreter teardown,
        # the isolate waits for a thread that is already gone (the process hangs instead of exiting).
        atexit.register(self.close)

    def close(self) -> None:
        """Free the isolate (only in the process that made it)."""
        if os.getpid() == self.pid:
            self.context.close()

    def typeset(self, items: Sequence[tuple[str, bool]], macros: Mapping[str, str]) -> list[Typeset]:
        """Typeset items in one call into V8."""
        if not items:
            return []
        raw = self.context.call("blogbuildTypeset", [[tex, display] for tex, display in items], dict(macros))
        results = json.loads(raw[1:]) if raw.startswith("\x01") else raw.split("\x00")
        return [Typeset(result[1:], None) if result[0] == "1" else Typeset(None, result[1:]) for result in results]


class _Cache:
    """Renders on disk, keyed by (TeX, display, macros, KaTeX version); one connection per process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.connection: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection | None:
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


# Renders this process has seen, by (TeX, display, macros) (forked workers start with their parent's).
_memory: dict[tuple[str, bool, str], Typeset] = {}
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


def _key(tex: str, display: bool, macros_text: str) -> str:
    return hashlib.sha256(f"{KATEX_VERSION}\0{int(display)}\0{macros_text}\0{tex}".encode()).hexdigest()


def typeset(formulas: Iterable[tuple[str, bool]], macros: Mapping[str, str] | None = None) -> dict[tuple[str, bool], Typeset]:
    """Typeset each distinct (TeX, display) once: from the cache, else in one call into KaTeX."""
    macros = dict(macros or {})
    macros_text = json.dumps(macros, sort_keys=True, ensure_ascii=False) if macros else ""
    distinct = list(dict.fromkeys(formulas))
    # First this process's memory (posts repeat formulas: the bench corpus's 4,400 are 28 distinct),
    # then the cache file, then KaTeX.
    results: dict[tuple[str, bool], Typeset] = {}
    unknown = []
    for formula in distinct:
        known = _memory.get((formula[0], formula[1], macros_text))
        if known is None:
            unknown.append(formula)
        else:
            results[formula] = known
    if not unknown:
        return results
    keys = {formula: _key(formula[0], formula[1], macros_text) for formula in unknown}
    cache = _current_cache()
    stored = cache.get(list(keys.values())) if cache is not None else {}
    results.update((formula, stored[keys[formula]]) for formula in unknown if keys[formula] in stored)
    missing = [formula for formula in unknown if formula not in results]
    if missing:
        fresh = _current_engine().typeset(missing, macros)
        results.update(zip(missing, fresh, strict=True))
        if cache is not None:
            cache.put({keys[formula]: value for formula, value in zip(missing, fresh, strict=True)})
    if len(_memory) > _MEMORY_LIMIT:
        _memory.clear()
    _memory.update(((tex, display, macros_text), results[(tex, display)]) for tex, display in unknown)
    return results


# The build leaves math as <span class="math inline">TeX</span>, <span class="math display">TeX</span>
# (display math inside a paragraph) or <div class="math display">TeX</div>, the TeX HTML-escaped.
_MATH_ELEMENT = re.compile(r'<(span|div) class="math (inline|display)">([^<]*)</\1>')


def _elements(html: str) -> dict[str, tuple[str, str, str]]:
    """Each distinct math element of some HTML (its whole text) -> (tag, kind, escaped TeX)."""
    if 'class="math ' not in html:
        return {}
    return {match.group(0): match.groups() for match in _MATH_ELEMENT.finditer(html)}  # type: ignore[misc]


def formulas_in(html: str) -> list[tuple[str, bool]]:
    """The distinct (TeX, display) of the formulas the build left in some HTML, in order."""
    return list(dict.fromkeys((html_lib.unescape(escaped), kind == "display")
                              for _tag, kind, escaped in _elements(html).values()))


def _replacement(tag: str, kind: str, escaped: str, outcome: Typeset | None) -> str:
    if outcome is None or outcome.html is None:
        # The TeX stays readable; math-error lets the theme mark it.
        return f'<{tag} class="math {kind} math-error">{escaped}</{tag}>'
    return f'<{tag} class="math {kind}" data-math-rendered="">{outcome.html}</{tag}>'


def replace_formulas(html: str, renders: Mapping[tuple[str, bool], Typeset],
                     elements: Mapping[str, tuple[str, str, str]] | None = None) -> str:
    """The HTML with each formula KaTeX accepted replaced by its render (rejected ones keep their TeX)."""
    elements = _elements(html) if elements is None else elements
    if not elements:
        return html
    # Each distinct element is built once; the substitution is then a dictionary lookup per match.
    table = {text: _replacement(tag, kind, escaped, renders.get((html_lib.unescape(escaped), kind == "display")))
             for text, (tag, kind, escaped) in elements.items()}
    return _MATH_ELEMENT.sub(lambda match: table[match.group(0)], html)


def typeset_html(*documents: str, macros: Mapping[str, str] | None = None) -> tuple[list[str], dict[tuple[str, bool], str]]:
    """Typeset the math of several HTML documents in one batch: (new documents, {formula: KaTeX's error})."""
    found = [_elements(document) for document in documents]
    wanted = [(html_lib.unescape(escaped), kind == "display")
              for elements in found for _tag, kind, escaped in elements.values()]
    if not wanted:
        return list(documents), {}
    renders = typeset(wanted, macros)
    errors = {formula: outcome.error or "" for formula, outcome in renders.items() if outcome.html is None}
    return [replace_formulas(document, renders, elements) for document, elements in zip(documents, found, strict=True)], errors


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

    def __call__(self, content_html: str, summary_html: str) -> tuple[str, str]:
        (content_html, summary_html), errors = typeset_html(content_html, summary_html, macros=self.macros)
        self.errors.update(errors)
        return content_html, summary_html

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
