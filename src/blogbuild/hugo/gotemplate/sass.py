"""Sass in Hugo Pipes: `css.Sass` (and its alias `toCSS`) compiled by LibSass, through the `libsass` package,
the Python binding of the LibSass that Hugo extended embeds, so the CSS is Hugo's byte for byte.

What Hugo's libsass transpiler does (resources/resource_transformers/tocss/scss), done the same way here:
- the options `targetPath`, `outputStyle` (nested, expanded, compact, compressed; anything else is nested),
  `precision` (8 when 0 or absent, as bootstrap needs), `includePaths` (each looked up in the site folder, then
  each theme's; a path found in none is left out), `enableSourceMap`, `vars`, `transpiler`;
- `@import "hugo:vars"` gives `vars` as Sass variables (`$name: value;` in name order; a CSS value such as
  `24px`, `#fff`, `calc(…)` or a number as it is, other text through `unquote("…")`, `css.Quoted` text
  quoted; a map is left out);
- an import resolves in the union of the assets folders (the site's, then each theme's, first wins) relative to
  the importing file, trying `_name.scss`, `name.scss`, `_name.sass`, `name.sass`, then `name/_index.scss`,
  `name/index.scss`, …; what that does not find, LibSass's own search finds (relative to the importing file,
  then the include paths: the entry's folder in each assets folder, then `includePaths`);
- `@import "x.css";` in the entry file stays a plain CSS import, as Hugo keeps it.

Every file an import reaches is found here (LibSass searches nothing on its own), and its real path must be
inside the folders the site may read. A compile error is a SassError at the Sass file's line.
"""
from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core.names import is_inside
from .escape import go_string
from .function_error import HugoFunctionError

OUTPUT_STYLES = ("nested", "expanded", "compact", "compressed")
VARS_IMPORT = "hugo:vars"
_EXTENSIONS = (".scss", ".sass", ".css")   # LibSass's own search
_MAX_IMPORTS = 2000                         # files one compile may import
_MAX_READ_BYTES = 32 * 1024 * 1024          # a .css file an import reads (pipes.py's bound on an asset)


class QuotedString(str):
    """css.Quoted: text a `vars` stylesheet writes quoted."""


class UnquotedString(str):
    """css.Unquoted: text a `vars` stylesheet writes as it is."""


class SassError(HugoFunctionError):
    """A Sass file that does not compile: where (the file as the site names it, line, column) and why."""

    def __init__(self, path: str, line: int, column: int, message: str, asset: str) -> None:
        super().__init__(f"css.Sass of {asset}: {path}:{line}:{column}: {message}")
        self.path, self.line, self.column, self.message, self.asset = path, line, column, message, asset


@dataclass(frozen=True)
class SassOptions:
    """Hugo's css.Sass options, decoded as Hugo decodes them (keys in any case, values converted weakly)."""

    target_path: str = ""
    output_style: str = "nested"
    precision: int = 8
    include_paths: tuple[str, ...] = ()
    source_map: bool = False
    vars: str = ""          # the `hugo:vars` stylesheet ("" without vars)


def sass_options(value: Any, what: str) -> SassOptions:
    """The options map of css.Sass (or a string: the target path), checked."""
    if value is None:
        return SassOptions()
    if isinstance(value, str):
        return SassOptions(target_path=value.replace("\\", "/").lstrip("/"))
    if not isinstance(value, Mapping):
        raise HugoFunctionError(f"{what}: the options must be a map (dict \"targetPath\" …), not "
                                f"{go_string(value)[:60]!r}")
    options = {str(key).lower(): item for key, item in value.items()}
    transpiler = go_string(options.get("transpiler", "libsass"))
    if transpiler == "dartsass":
        raise HugoFunctionError(f"{what}: the transpiler dartsass is not supported: blogbuild compiles Sass with "
                                "LibSass (Hugo extended's default, transpiler \"libsass\"); drop the option, or "
                                "compile the stylesheet yourself and load the CSS with resources.Get")
    if transpiler != "libsass":
        raise HugoFunctionError(f"{what}: unsupported transpiler {transpiler!r}; valid values are \"libsass\" or "
                                "\"dartsass\"")
    style = go_string(options.get("outputstyle") or "").lower()
    precision = _integer(options.get("precision"), f"{what}: precision")
    paths = options.get("includepaths") or ()
    vars_value = options.get("vars")
    if vars_value is not None and not isinstance(vars_value, Mapping):
        raise HugoFunctionError(f"{what}: vars must be a map, not {go_string(vars_value)[:60]!r}")
    return SassOptions(
        target_path=go_string(options.get("targetpath") or "").replace("\\", "/").lstrip("/"),
        output_style=style if style in OUTPUT_STYLES else "nested",
        precision=precision or 8,
        include_paths=tuple(go_string(path) for path in (paths if isinstance(paths, (list, tuple)) else [paths])),
        source_map=_boolean(options.get("enablesourcemap"), f"{what}: enableSourceMap"),
        vars=vars_stylesheet(vars_value, what) if vars_value is not None else "")


def _integer(value: Any, what: str) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        raise HugoFunctionError(f"{what} {go_string(value)!r} is not a number") from None


def _boolean(value: Any, what: str) -> bool:
    if value is None:
        return False
    if isinstance(value, (bool, int, float)):
        return bool(value)
    text = str(value)
    if text in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if text in ("", "0", "f", "F", "FALSE", "false", "False"):
        return False
    raise HugoFunctionError(f"{what} {text!r} is not a boolean")


# ---------------------------------------------------------------------------- hugo:vars

_CSS_COLOR = re.compile(r"#[0-9a-fA-F]{3,6}")
_CSS_FUNCTION = re.compile(r"[a-zA-Z-]+\(")
_CSS_UNIT = re.compile(r"[0-9]+(?:\.[0-9]+)?[a-zA-Z%-]+")


def vars_stylesheet(values: Mapping[Any, Any], what: str) -> str:
    """The stylesheet `@import "hugo:vars"` gives: one `$name: value;` line per value, sorted (Hugo's
    CreateVarsStyleSheet for libsass)."""
    lines = []
    for key, value in values.items():
        if isinstance(value, Mapping):   # Hugo leaves maps out (dart-sass alone imports them as hugo:vars/NAME)
            continue
        name = str(key) if str(key).startswith("$") else f"${key}"
        lines.append(f"{name}: {_sass_value(value, f'{what}: vars.{key}')};")
    return "\n".join(sorted(lines))


def _sass_value(value: Any, what: str) -> str:
    if isinstance(value, QuotedString):
        return go_quote(str(value))
    if isinstance(value, UnquotedString) or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return go_string(value)
    if isinstance(value, str):
        if _CSS_COLOR.fullmatch(value) or _CSS_FUNCTION.match(value) or _CSS_UNIT.fullmatch(value):
            return value
        return f"unquote({go_quote(value)})"
    if isinstance(value, bool) or value is None:   # what Go's %q writes of them (LibSass then rejects it)
        return "unquote(%!q(" + ("<nil>" if value is None else f"bool={go_string(value)}") + "))"
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return "unquote([" + " ".join(go_quote(item) for item in value) + "])"
    raise HugoFunctionError(f"{what}: {go_string(value)[:60]!r} is not a value blogbuild writes as a Sass "
                            "variable (give a string or a number)")


_QUOTE_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v",
                  '"': '\\"', "\\": "\\\\"}


def go_quote(text: str) -> str:
    """Text as Go's strconv.Quote writes it (fmt's %q)."""
    out = ['"']
    for character in text:
        if character in _QUOTE_ESCAPES:
            out.append(_QUOTE_ESCAPES[character])
        elif character.isprintable():
            out.append(character)
        elif ord(character) < 0x80:
            out.append(f"\\x{ord(character):02x}")
        elif ord(character) <= 0xFFFF:
            out.append(f"\\u{ord(character):04x}")
        else:
            out.append(f"\\U{ord(character):08x}")
    out.append('"')
    return "".join(out)


# ---------------------------------------------------------------------------- imports

@dataclass(frozen=True)
class SassSource:
    """What a compile starts from: the entry's text, its name in the assets folders ("sass/main.scss"), the
    file the site has it in ("assets/sass/main.scss", or the name for a resource made from a string)."""

    text: str
    name: str
    site_path: str
    indented: bool      # the entry is .sass (indented syntax)


@dataclass
class _Resolver:
    """LibSass's importer: Hugo's rule over the union of the assets folders, then LibSass's own search, both
    inside the site. A failure is kept (the binding turns an exception into a traceback text)."""

    find: Callable[[str], Path | None]          # a name in the union of the assets folders -> its file
    assets_folders: tuple[Path, ...]
    include_dirs: tuple[Path, ...]
    allowed: tuple[str, ...]
    base_dir: str                               # the entry's folder in the union ("" at its top)
    entry: str                                  # the path LibSass gives the entry as the previous file
    root: Path                                  # where an entry's own relative import is looked for
    vars_sheet: str
    failure: str = ""
    by_rule: set[str] = field(default_factory=set)   # files Hugo's rule found (their imports follow it too)
    count: int = 0

    @property
    def vars_path(self) -> str:
        return str(self.root / VARS_IMPORT)

    def __call__(self, url: str, previous: str) -> Any:
        try:
            return self._resolve(url, previous)
        except HugoFunctionError as error:
            self.failure = str(error)
            raise

    def _resolve(self, url: str, previous: str) -> Any:
        self.count += 1
        if self.count > _MAX_IMPORTS:
            raise HugoFunctionError(f"more than {_MAX_IMPORTS} imports (an import loop?)")
        if url == VARS_IMPORT and self.vars_sheet:
            return [(self.vars_path, self.vars_sheet)]
        folder = self._folder_in_union(previous)
        if folder is not None and url != VARS_IMPORT:
            found = self._hugo_rule(folder, url)
            if found is not None:
                self.by_rule.add(str(found))
                return [(str(found),)]
        if _plain_css(url):
            return None     # LibSass writes it as a CSS @import and reads nothing
        return self._libsass_search(url, previous)

    def _folder_in_union(self, previous: str) -> str | None:
        """The importing file's folder in the union of the assets folders, when Hugo's rule applies to it."""
        if previous == self.entry:
            return self.base_dir
        if previous not in self.by_rule:
            return None
        for folder in self.assets_folders:
            try:
                relative = Path(previous).parent.relative_to(folder).as_posix()
            except ValueError:
                continue
            return None if relative == "." else relative   # a file at the top: LibSass's search, as in Hugo
        return None

    def _hugo_rule(self, folder: str, url: str) -> Path | None:
        directory, _, name = url.rpartition("/")
        base = os.path.normpath(os.path.join(folder, directory)) if folder or directory else ""
        if "." in name:
            patterns = ["_{}", "{}"]
        elif name.startswith("_"):
            patterns = ["_{}.scss", "_{}.sass"]
        else:
            patterns = ["_{}.scss", "{}.scss", "_{}.sass", "{}.sass", "{}/_index.scss", "{}/_index.sass",
                        "{}/index.scss", "{}/index.sass"]
        name = name.removeprefix("_")
        for pattern in patterns:
            candidate = os.path.join(base, pattern.format(name)) if base not in ("", ".") else pattern.format(name)
            if candidate.startswith(".."):
                return None
            found = self.find(candidate)
            if found is not None:
                return found
        return None

    def _libsass_search(self, url: str, previous: str) -> Any:
        bases = [self.root if previous == self.entry else Path(previous).parent, *self.include_dirs]
        for base in bases:
            found = _candidates(base, url)
            if len(found) > 1:
                raise HugoFunctionError(f"It's not clear which file to import for '@import \"{url}\"'. Candidates: "
                                        + ", ".join(str(path) for path in found))
            if found:
                path = found[0]
                if not is_inside(os.path.realpath(path), self.allowed):
                    raise HugoFunctionError(f"the import {url!r} is {os.path.realpath(path)}, outside the site: a "
                                            "build reads nothing outside the site folder")
                if path.suffix == ".css":   # LibSass reads a .css file it finds itself as Sass
                    return [(str(path), _read(path))]
                return [(str(path),)]
        raise HugoFunctionError(f"File to import not found or unreadable: {url}.")


def _plain_css(url: str) -> bool:
    """An import LibSass leaves to the browser: a URL with a scheme, a protocol-relative one, a .css file."""
    return bool(re.match(r"[A-Za-z_][\w-]*://", url)) or url.startswith("//") or (len(url) > 4 and url.endswith(".css"))


def _candidates(base: Path, url: str) -> list[Path]:
    """LibSass's resolve_includes: the files an import could mean under one folder."""
    target = base / url
    folder, name = target.parent, target.name
    found = [path for path in (folder / name, folder / f"_{name}") if path.is_file()]
    found += [folder / f"_{name}{ext}" for ext in _EXTENSIONS if (folder / f"_{name}{ext}").is_file()]
    found += [folder / f"{name}{ext}" for ext in _EXTENSIONS if (folder / f"{name}{ext}").is_file()]
    if not found and not name.endswith(_EXTENSIONS):
        found += [folder / name / f"_index{ext}" for ext in _EXTENSIONS if (folder / name / f"_index{ext}").is_file()]
        found += [folder / name / f"index{ext}" for ext in _EXTENSIONS if (folder / name / f"index{ext}").is_file()]
    return found


def _read(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_READ_BYTES + 1)
    except OSError as error:
        raise HugoFunctionError(f"cannot read {path}: {error.strerror}") from None
    if len(data) > _MAX_READ_BYTES:
        raise HugoFunctionError(f"{path} is larger than {_MAX_READ_BYTES} bytes")
    return data.decode("utf-8", "replace")


# ---------------------------------------------------------------------------- compiling

# Hugo keeps the entry's `@import "x.css";` a CSS import by hiding it from LibSass in a comment.
_CSS_IMPORT_IN = re.compile(r'.*(@import "(.*\.css)";).*')
_CSS_IMPORT_OUT = re.compile(r".*(/\* HUGO_IMPORT_START (.*) HUGO_IMPORT_END \*/).*")
_ERROR = re.compile(r"Error: (?P<message>.*?)\n\s*on line (?P<line>\d+):(?P<column>\d+) of (?P<file>[^\n]*?)"
                    r"(?:, in [^\n]*)?\n", re.S)


@dataclass(frozen=True)
class SassPlace:
    """Where a compile looks: the site folder, the assets folders and theme folders in lookup order, the real
    folders it may read, and how a name in the assets folders is found (AssetFiles.find)."""

    root: Path
    assets_folders: tuple[Path, ...]
    theme_roots: tuple[Path, ...]
    allowed: tuple[str, ...]
    find: Callable[[str], Path | None]

    def include_dirs(self, base_dir: str, include_paths: tuple[str, ...]) -> tuple[Path, ...]:
        """Hugo's include paths: the entry's folder in each assets folder that has it, then each of
        `includePaths` in the site folder or else a theme's (a path in none is left out)."""
        found = [folder / base_dir if base_dir else folder for folder in self.assets_folders]
        found = [path for path in found if path.is_dir()]
        for given in include_paths:
            clean = os.path.normpath(given.replace("\\", "/")).lstrip("/")
            if clean in ("", ".") or clean.startswith(".."):
                continue
            for top in (self.root, *self.theme_roots):
                if (top / clean).exists():
                    if is_inside(os.path.realpath(top / clean), self.allowed):
                        found.append(top / clean)
                    break
        return tuple(found)


def compile_sass(source: SassSource, options: SassOptions, place: SassPlace, output_name: str
                 ) -> tuple[str, str | None]:
    """The CSS (and the source map with enableSourceMap) of a Sass entry, as Hugo's libsass transpiler makes
    them; output_name is the CSS file's name (the map's is it plus `.map`)."""
    try:
        import sass  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise HugoFunctionError(f"css.Sass of {source.name}: the libsass package is not installed (reinstall "
                                "blogbuild: it is one of its dependencies)") from None
    text, protected = _line_subn(_CSS_IMPORT_IN, r"/* HUGO_IMPORT_START \2 HUGO_IMPORT_END */", source.text,
                                 '@import "', '.css";')
    base_dir = source.name.rpartition("/")[0]
    with tempfile.TemporaryDirectory(prefix="blogbuild-sass-") as scratch:
        entry = "stdin"
        arguments: dict[str, Any] = {"output_style": options.output_style, "precision": options.precision}
        if options.source_map:
            # Only a file compile makes a source map: the entry is written to a file LibSass names as "stdin"
            # is named in Hugo's map; the map's paths are relative to the site folder, as Hugo's are.
            entry = os.path.join(scratch, "stdin.sass" if source.indented else "stdin")
            Path(entry).write_text(text, encoding="utf-8")
            arguments.update(filename=entry, source_map_filename=str(place.root / f"{output_name}.map"),
                             output_filename_hint=str(place.root / output_name), source_map_contents=True,
                             source_map_root=str(place.root))
        else:
            arguments.update(string=text, indented=source.indented)
        resolver = _Resolver(place.find, place.assets_folders, place.include_dirs(base_dir, options.include_paths),
                             place.allowed, base_dir, entry, place.root, options.vars)
        try:
            result = sass.compile(importers=[(0, resolver)], **arguments)
        except sass.CompileError as error:
            raise _error(str(error), resolver, source, place, entry) from None
    css, source_map = (result if options.source_map else (result, None))
    if protected:
        css = _line_subn(_CSS_IMPORT_OUT, r'@import "\2";', css, "/* HUGO_IMPORT_START ", " HUGO_IMPORT_END */")[0]
    if source_map is not None:
        # Hugo names the entry by its file (relative to the site folder) where LibSass wrote "stdin"
        source_map = re.sub(r'"[^"\n]*stdin(?:\.sass)?"', lambda _: _json_string(source.site_path), source_map,
                            count=1)
        source_map = source_map.replace(_json_string(resolver.vars_path)[1:-1], VARS_IMPORT)
    return css, source_map


def _line_subn(pattern: re.Pattern[str], template: str, text: str, first: str, then: str) -> tuple[str, int]:
    """pattern.subn(template, text) for Hugo's `.*(…first….*then).*` patterns, which replace whole lines: tried only
    on a line holding first with then after it, the lines such a pattern matches. Go's regexp is linear; Python's
    tries a line the pattern does not match from each of its characters to its end and back (a minified
    stylesheet's one line of 100 kB: minutes)."""
    lines = text.split("\n")
    count = 0
    for number, line in enumerate(lines):
        start = line.find(first)
        if start >= 0 and line.find(then, start + len(first)) >= 0:
            lines[number], found = pattern.subn(template, line)
            count += found
    return ("\n".join(lines), count) if count else (text, 0)


def _json_string(text: str) -> str:
    import json
    return json.dumps(text, ensure_ascii=False)


def _error(text: str, resolver: _Resolver, source: SassSource, place: SassPlace, entry: str) -> SassError:
    """LibSass's message as a SassError at the file (as the site names it), line and column."""
    found = _ERROR.search(text)
    if found is None:
        return SassError(source.site_path, 1, 1, resolver.failure or text.strip().splitlines()[0], source.name)
    file = found.group("file")
    absolute = os.path.normpath(os.path.join(os.getcwd(), file))
    if file == "stdin" or absolute == os.path.normpath(entry):
        path = source.site_path
    elif absolute == os.path.normpath(resolver.vars_path):
        path = VARS_IMPORT
    else:
        try:
            path = Path(absolute).relative_to(place.root).as_posix()
        except ValueError:
            path = absolute
    message = resolver.failure or " ".join(line.strip() for line in found.group("message").splitlines())
    return SassError(path, int(found.group("line")), int(found.group("column")), message, source.name)
