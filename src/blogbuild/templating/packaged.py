"""The default theme's templates as compiled when the package was made: Jinja's compile of the theme's 16
templates costs ~0.3 s of CPU, paid by every process that renders pages (0.1 s of a deploy's 1.3 s, which renders a
few kinds of page), so the package carries their code, and a build takes it instead of compiling.

The code lives in the package beside the templates (`theme/templates.compiled`, written by
`scripts/compile_theme.py`), never in the site's cache: a cache file never runs code. It is used for a template
only when everything its code depends on is as it was made: the Python and Jinja versions (a header line, read
before anything else), the environment's compile settings and filters (environment_key), and the template's own
text (its checksum, as Jinja's bytecode caches check it): a site's own template of the same name, a changed
setting or another Python compiles as before.
"""
from __future__ import annotations

import functools
import hashlib
import marshal
import sys
from pathlib import Path
from types import CodeType
from typing import Any

import jinja2
from jinja2.bccache import Bucket

COMPILED = Path(__file__).resolve().parent.parent / "theme" / "templates.compiled"
_FORMAT = "blogbuild-compiled-templates 1"


def header(environment: jinja2.Environment) -> bytes:
    """The first line of a compiled file: what its code was made for (format, Python, Jinja, environment)."""
    python = f"{sys.implementation.name}-{sys.version_info[0]}.{sys.version_info[1]}"
    return f"{_FORMAT} {python} jinja-{jinja2.__version__} {environment_key(environment)}\n".encode("ascii")


def environment_key(environment: jinja2.Environment) -> str:
    """What Jinja's compile of a template reads of its environment besides the text: delimiters, white space
    and newline settings, extensions, autoescaping (by kind of file), finalize, undefined, constant folding, and
    each filter's and test's name and how it is called (the code passes the context or environment to them)."""
    autoescape = environment.autoescape
    escaped = tuple(bool(autoescape(name)) if callable(autoescape) else bool(autoescape)
                    for name in ("x.html", "x.xml", "x.txt", "x"))
    settings = (type(environment).__qualname__, environment.code_generator_class.__qualname__,
                environment.block_start_string, environment.block_end_string, environment.variable_start_string,
                environment.variable_end_string, environment.comment_start_string, environment.comment_end_string,
                environment.line_statement_prefix, environment.line_comment_prefix, environment.trim_blocks,
                environment.lstrip_blocks, environment.newline_sequence, environment.keep_trailing_newline,
                environment.optimized, environment.is_async, sorted(environment.extensions), escaped,
                environment.finalize is not None, environment.undefined.__qualname__,
                sorted((name, repr(_pass_arg(function))) for name, function in environment.filters.items()),
                sorted((name, repr(_pass_arg(function))) for name, function in environment.tests.items()))
    return hashlib.sha256(repr(settings).encode("utf-8")).hexdigest()[:32]


def _pass_arg(function: Any) -> Any:
    """What Jinja passes a filter or test first (its context, eval context, environment, or nothing)."""
    return getattr(function, "jinja_pass_arg", None)


class PackagedTemplates(jinja2.BytecodeCache):
    """A read-only bytecode cache over the package's compiled templates (name -> (checksum of the text, code)).
    A template whose text is not the one compiled, or that the package does not have, is compiled by Jinja as
    usual and not kept."""

    def __init__(self, compiled: dict[str, tuple[str, CodeType]]) -> None:
        self.compiled = compiled

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> Bucket:
        bucket = Bucket(environment, name, self.get_source_checksum(source))
        entry = self.compiled.get(name)
        if entry is not None and entry[0] == bucket.checksum:
            bucket.code = _with_filename(entry[1], filename or name)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        """Buckets are filled by get_bucket."""

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Nothing is written: the package's code is made by scripts/compile_theme.py only."""

    def set_bucket(self, bucket: Bucket) -> None:
        """Nothing is kept (a template compiled here was not the package's)."""


def packaged_templates(environment: jinja2.Environment, path: Path = COMPILED) -> PackagedTemplates | None:
    """The package's compiled templates for this environment, or None when the file is missing or was made for
    another Python, Jinja or environment."""
    compiled = _read(path, header(environment))
    return PackagedTemplates(compiled) if compiled is not None else None


@functools.lru_cache(maxsize=4)
def _read(path: Path, expected: bytes) -> dict[str, tuple[str, CodeType]] | None:
    try:
        with open(path, "rb") as handle:
            if handle.readline() != expected:   # made for other code: its payload is never unmarshalled
                return None
            loaded: Any = marshal.load(handle)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(loaded, dict) or not all(
            isinstance(name, str) and isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str)
            and isinstance(entry[1], CodeType) for name, entry in loaded.items()):
        return None
    return loaded


def compile_all(environment: jinja2.Environment, names: list[str]) -> bytes:
    """The compiled file's bytes for the environment's templates of these names (scripts/compile_theme.py): the
    header line, then a marshalled dict of name -> (checksum of the text, code). The code names its template by
    name only ("<blogbuild theme>/base.html"); get_bucket puts the file's path in when it is used."""
    assert environment.loader is not None
    cache = PackagedTemplates({})
    compiled: dict[str, tuple[str, CodeType]] = {}
    # Jinja's compile calls a filter (or test) whose arguments are constants and writes its result into the code
    # (`{{ "/favicon.svg" | url }}` becomes the URL under this site's base path): the package's code must call
    # every one when it runs, so here each refuses to be called and stays a call.
    filters, tests = environment.filters, environment.tests
    environment.filters = {name: _refused(function) for name, function in filters.items()}
    environment.tests = {name: _refused(function) for name, function in tests.items()}
    try:
        for name in sorted(names):
            source, _, _ = environment.loader.get_source(environment, name)
            code = environment.compile(source, name, f"<blogbuild theme>/{name}")
            compiled[name] = (cache.get_source_checksum(source), code)
    finally:
        environment.filters, environment.tests = filters, tests
    return header(environment) + marshal.dumps(compiled)


def _refused(function: Any) -> Any:
    """A stand-in for a filter or test while compiling: called the same way (the code passes it what the real
    one takes), and refusing every call, so the compile leaves each call in the code."""
    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a filter is called when the template runs, not when it is compiled")
    pass_arg = _pass_arg(function)
    if pass_arg is not None:
        refuse.jinja_pass_arg = pass_arg   # type: ignore[attr-defined]
    return refuse


def _with_filename(code: CodeType, filename: str) -> CodeType:
    """The code (and the functions it defines) naming filename as its file: tracebacks and Jinja's error
    rewriting then point at the template where it is."""
    consts = tuple(_with_filename(const, filename) if isinstance(const, CodeType) else const
                   for const in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)
