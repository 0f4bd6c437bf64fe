"""`blogbuild serve`: build in memory, serve the last good build, rebuild on save, push reloads and errors.

The server never serves from disk what the build is writing: each good BuildResult is kept in memory and
the reference is swapped under a lock, so a request sees either the old site or the new one, whole.
A failed rebuild keeps the last good site and shows its errors in an overlay (FIELD-NOTES 8).
"""
from __future__ import annotations

import errno
import http.server
import json
import mimetypes
import os
import queue
import socket
import sys
import threading
import time
import traceback
import urllib.parse
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence, TextIO

from .errors import BlogbuildError, describe_chain
from .urls import output_path_to_url
from .watch import ChangeBatcher, ChangeKind, Watcher, classify, plan_for

if TYPE_CHECKING:
    from .build import Builder
    from .commands.serve import ServeOptions
    from .config import SiteConfig

EVENTS_PATH = "/__blogbuild/events"
STATUS_PATH = "/__blogbuild/status"
SCRIPT_PATH = "/__blogbuild/reload.js"
PORT_ATTEMPTS = 20
EXCERPT_CONTEXT = 2          # source lines shown before and after an error's line
MAX_LISTED_PAGES = 500       # beyond this a reload event just says "all"


# ---- request paths ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Resolved:
    """Where a request path leads: 200 and an output path, 301 and a location, 400 or 404."""

    status: int
    path: str = ""
    location: str = ""


def resolve_request_path(target: str, files: Mapping[str, Any]) -> Resolved:
    """Map a request target to a file of the build; anything that tries to leave the site is 400."""
    raw_path, _, query = target.partition("?")
    raw_path = raw_path.partition("#")[0]
    # Only origin-form paths; no absolute URLs, backslashes, NULs, doubled slashes or encoded separators.
    if not raw_path.startswith("/") or "\\" in raw_path or "\x00" in raw_path or "//" in raw_path:
        return Resolved(400)
    lowered = raw_path.lower()
    if "%00" in lowered or "%2f" in lowered or "%5c" in lowered:
        return Resolved(400)
    try:
        path = urllib.parse.unquote(raw_path, errors="strict")
    except UnicodeDecodeError:
        return Resolved(400)
    if any(ord(character) < 32 or ord(character) == 127 for character in path):
        return Resolved(400)
    if any(segment in (".", "..") for segment in path.split("/")):
        return Resolved(400)
    relative = path[1:]
    if relative == "" or relative.endswith("/"):
        index = relative + "index.html"
        return Resolved(200, index) if index in files else Resolved(404)
    if relative in files:
        return Resolved(200, relative)
    if relative + "/index.html" in files:
        # Like Hugo and every static host: /posts/x -> /posts/x/ so relative links keep working.
        return Resolved(301, location=raw_path + "/" + ("?" + query if query else ""))
    return Resolved(404)


_TYPES = {
    ".html": "text/html", ".htm": "text/html", ".css": "text/css", ".js": "text/javascript",
    ".mjs": "text/javascript", ".json": "application/json", ".map": "application/json",
    ".xml": "application/xml", ".xsl": "application/xslt+xml", ".txt": "text/plain", ".md": "text/plain",
    ".svg": "image/svg+xml", ".webmanifest": "application/manifest+json", ".png": "image/png",
    ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
    ".avif": "image/avif", ".ico": "image/x-icon", ".woff2": "font/woff2", ".woff": "font/woff",
    ".ttf": "font/ttf", ".otf": "font/otf", ".pdf": "application/pdf", ".wasm": "application/wasm",
    ".mp4": "video/mp4", ".webm": "video/webm",
}
_TEXT_TYPES = frozenset({"application/json", "application/xml", "application/xslt+xml", "image/svg+xml",
                         "application/manifest+json", "application/javascript"})
# Files that other pages load: when one changes, every open page reloads (or swaps its stylesheets).
_ASSET_SUFFIXES = frozenset({".css", ".js", ".mjs", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif",
                             ".svg", ".ico", ".woff", ".woff2", ".ttf", ".otf", ".wasm"})


def content_type(path: str) -> str:
    """The Content-Type of an output path, with charset=utf-8 for text."""
    suffix = os.path.splitext(path)[1].lower()
    kind = _TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind in _TEXT_TYPES:
        return f"{kind}; charset=utf-8"
    return kind


def inject_reload_script(html: bytes, generation: int, page: str) -> bytes:
    """The page with the live-reload script tag before its last </body> (appended when there is none)."""
    # Percent-encoded with only "/" kept, so the attribute needs no HTML escaping.
    tag = (f'<script src="{SCRIPT_PATH}" data-generation="{generation}" '
           f'data-page="{urllib.parse.quote(page, safe="/")}"></script>').encode()
    index = html.lower().rfind(b"</body>")
    if index < 0:
        return html + tag
    return html[:index] + tag + html[index:]


# ---- errors as the overlay and the terminal show them -----------------------------------------------

@dataclass(frozen=True)
class ErrorReport:
    """One build error with a few source lines around it, for the overlay and the terminal."""

    path: str
    line: int
    stage: str
    message: str
    text: str
    excerpt: tuple[tuple[int, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The JSON object the browser receives."""
        return {"path": self.path, "line": self.line, "stage": self.stage, "message": self.message,
                "text": self.text, "excerpt": [{"line": number, "text": text} for number, text in self.excerpt]}

    def terminal_text(self) -> str:
        """The same error as text for the terminal: the message, then the numbered lines."""
        lines = [self.text]
        for number, text in self.excerpt:
            marker = ">" if number == self.line else " "
            lines.append(f"  {marker} {number:4d} | {text}")
        return "\n".join(lines)


def _read_excerpt(path: str, line: int, root: str) -> tuple[tuple[int, str], ...]:
    if not path or line <= 0:
        return ()
    for candidate in (Path(path), Path(root) / path):
        try:
            if candidate.is_file() and candidate.stat().st_size < 4_000_000:
                lines = candidate.read_text(encoding="utf-8-sig", errors="replace").splitlines()
                break
        except OSError:
            continue
    else:
        return ()
    first = max(1, line - EXCERPT_CONTEXT)
    last = min(len(lines), line + EXCERPT_CONTEXT)
    return tuple((number, lines[number - 1]) for number in range(first, last + 1))


def error_report(error: BaseException, root: str = ".") -> ErrorReport:
    """An ErrorReport of any build error; SourceErrors bring their path, line and source lines."""
    path = str(getattr(error, "path", "") or "")
    line = int(getattr(error, "line", 0) or 0)
    stage = str(getattr(error, "stage", "") or "")
    message = str(getattr(error, "message", "") or error)
    if isinstance(error, BlogbuildError):
        text = describe_chain(error)
    else:
        # Not a content error: a bug in blogbuild. Say so plainly and keep serving the last good site.
        text = f"internal error: {type(error).__name__}: {error}"
        frames = traceback.extract_tb(error.__traceback__)
        if frames:
            text += f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}; please report it)"
        message = text
    return ErrorReport(path=path, line=line, stage=stage, message=message, text=text,
                       excerpt=_read_excerpt(path, line, root))


# ---- the served state ------------------------------------------------------------------------------

@dataclass(frozen=True)
class ServedState:
    """What the server shows: the last good build, its generation, and the latest build's errors."""

    result: Any = None                      # the last good BuildResult, None before the first one
    generation: int = 0                     # counts good builds that changed something
    page_generations: Mapping[str, int] = field(default_factory=dict)   # output path -> last changed in
    errors: tuple[ErrorReport, ...] = ()    # () when the latest build was good

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class RebuildReport:
    """What one rebuild did, as printed in one terminal line."""

    kinds: tuple[str, ...]
    paths: tuple[str, ...]
    changed: frozenset[str]
    removed: frozenset[str]
    milliseconds: float
    ok: bool
    rendered: int = 0                        # pages the builder rendered (the rest came from its cache)


def _diff_files(old: Mapping[str, Any], new: Mapping[str, Any],
                touched_sources: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Output paths that differ between two builds; copied files count as changed when their source was."""
    changed = set()
    for path, output in new.items():
        before = old.get(path)
        if before is None or before is output:
            if before is None:
                changed.add(path)
            continue
        if before.data != output.data or before.source != output.source:
            changed.add(path)
        elif output.source and os.path.abspath(output.source) in touched_sources:
            changed.add(path)
    removed = frozenset(path for path in old if path not in new)
    return frozenset(changed), removed


def _copied_from(files: Mapping[str, Any], touched: frozenset[str]) -> frozenset[str]:
    """Output paths of copied files whose source is among the touched paths."""
    if not touched:
        return frozenset()
    return frozenset(path for path, output in files.items()
                     if output.source and os.path.abspath(output.source) in touched)


def _default_load_config(options: "ServeOptions", base_url: str) -> "SiteConfig":
    from .build import load_site_config

    # serving: pages for the author's own browser carry no analytics (they would count every reload).
    return replace(load_site_config(options), base_url=base_url, serving=True)


def _default_builder_factory(config: "SiteConfig") -> "Builder":
    from .build import Builder

    # One process: the in-memory caches are what make a one-post rebuild cheap. The disk cache
    # (.blogbuild-cache/, ignored by the watcher) makes the first build of a big blog fast.
    return Builder(config, jobs=1, use_cache=True)


def _display_host(bind: str) -> str:
    if bind in ("", "0.0.0.0"):
        return "127.0.0.1"
    if bind == "::":
        return "[::1]"
    return f"[{bind}]" if ":" in bind else bind


class _HttpServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    dev: "DevServer"

    def handle_error(self, request, client_address) -> None:
        # A reader closing the tab mid-response is normal; anything else is a bug worth a line.
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        self.dev.say(f"serve: error answering {client_address}: {error!r}", always=True)


class _HttpServer6(_HttpServer):
    address_family = socket.AF_INET6


class DevServer:
    """The drafting server: one object holds the builder, the served state, the watcher and the clients."""

    def __init__(self, options: "ServeOptions", *, out: TextIO | None = None,
                 load_config: Callable[["ServeOptions", str], "SiteConfig"] = _default_load_config,
                 builder_factory: Callable[["SiteConfig"], "Builder"] = _default_builder_factory,
                 quiet_seconds: float = 0.1, port_attempts: int = PORT_ATTEMPTS) -> None:
        self.options = options
        self._out = out if out is not None else sys.stdout
        self._load_config = load_config
        self._builder_factory = builder_factory
        self._port_attempts = port_attempts
        self._batcher = ChangeBatcher(quiet_seconds)
        self._state_lock = threading.Lock()
        self._state = ServedState()
        self._clients_lock = threading.Lock()
        self._clients: set[queue.Queue] = set()
        self._print_lock = threading.Lock()
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._http: _HttpServer | None = None
        self._watcher: Watcher | None = None
        self._builder: "Builder | None" = None
        self._builder_in_sync = False         # the builder's previous build is the served one
        self._touched_since_good: set[str] = set()
        self.config: "SiteConfig | None" = None
        self.url = ""
        self.port = 0
        self.rebuilds = 0                     # finished rebuilds, good or bad (tests wait on it)
        self._rebuilt = threading.Condition()
        self._build_lock = threading.Lock()   # one build at a time: the Builder's caches are not shared

    # -- output ---------------------------------------------------------------------------------------
    def say(self, text: str, *, always: bool = False) -> None:
        """Print one line to the terminal (errors always, the rest unless quiet)."""
        if self.options.quiet and not always:
            return
        with self._print_lock:
            print(text, file=self._out, flush=True)

    # -- state ----------------------------------------------------------------------------------------
    @property
    def state(self) -> ServedState:
        """The current served state (an immutable snapshot)."""
        with self._state_lock:
            return self._state

    def _set_state(self, state: ServedState) -> None:
        with self._state_lock:
            self._state = state

    # -- lifecycle ------------------------------------------------------------------------------------
    def bind(self) -> int:
        """Bind the listening socket: the asked port, else the next free one (said aloud); returns it."""
        host = self.options.bind
        server_class = _HttpServer6 if ":" in host else _HttpServer
        port = self.options.port
        attempts = 1 if port == 0 else self._port_attempts
        last_error: OSError | None = None
        for offset in range(attempts):
            try:
                server = server_class((host, port + offset), _Handler)
            except OSError as error:
                if error.errno not in (errno.EADDRINUSE, errno.EACCES):
                    raise BlogbuildError(f"cannot listen on {host}:{port + offset}: {error.strerror}; "
                                         "check --bind and --port") from error
                last_error = error
                self.say(f"port {port + offset} is in use (or not allowed)"
                         + ("; trying the next one" if offset + 1 < attempts else ""), always=True)
                continue
            break
        else:
            raise BlogbuildError(f"no free port in {port}-{port + attempts - 1}; pass --port N "
                                 f"or stop the other server") from last_error
        server.dev = self
        self._http = server
        self.port = server.server_address[1]
        self.url = f"http://{_display_host(host)}:{self.port}/"
        if self.options.port not in (0, self.port):
            self.say(f"serving on port {self.port} instead of {self.options.port}", always=True)
        return self.port

    def start(self) -> None:
        """Bind, build once, then serve, watch and rebuild on background threads."""
        if self._http is None:
            self.bind()
        self.config = self._load_config(self.options, self.url)
        self._builder = self._builder_factory(self.config)
        # Watch before the first build, so a save during it is queued rather than lost.
        self._watcher = Watcher(plan_for(self.config, ignored=self._ignored()), self._batcher)
        self._watcher.start()
        started = time.perf_counter()
        with self._build_lock:
            self._apply_build(self._run_build(None, None), frozenset(), started, ("start",), ())
        for target, name in ((self._serve, "blogbuild-http"), (self._rebuild_loop, "blogbuild-rebuild")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        self.say(f"serving {self.config.root} at {self.url} (drafts {'shown' if self.options.drafts else 'hidden'};"
                 " Ctrl-C to stop)", always=True)

    def _ignored(self) -> tuple[str, ...]:
        return (self.options.output,) if self.options.output else ()

    def _serve(self) -> None:
        assert self._http is not None
        self._http.serve_forever(poll_interval=0.2)

    def stop(self) -> None:
        """Stop watching, close every event stream and the socket, and wait for the threads."""
        self._stopping.set()
        self._batcher.close()
        if self._watcher is not None:
            self._watcher.stop()
        with self._clients_lock:
            for client in self._clients:
                client.put(None)
        if self._http is not None:
            if any(thread.name == "blogbuild-http" for thread in self._threads):
                self._http.shutdown()
            self._http.server_close()
        for thread in self._threads:
            thread.join(timeout=10)

    def __enter__(self) -> "DevServer":
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    # -- building -------------------------------------------------------------------------------------
    def _run_build(self, paths: Iterable[str] | None, kinds: frozenset[ChangeKind] | None):
        """Build; returns (result or None, errors, new builder or None)."""
        try:
            if kinds is not None and ChangeKind.CONFIG in kinds:
                # A config change can touch every page: a new Builder with the new config, full build.
                config = self._load_config(self.options, self.url)
                builder = self._builder_factory(config)
                return builder.build(None), (), (builder, config)
            assert self._builder is not None
            return self._builder.build(sorted(paths) if paths is not None else None), (), None
        except Exception as error:   # noqa: BLE001 - a failed rebuild must never stop the server
            return None, (error,), None

    def rebuild(self, paths: Iterable[str]) -> RebuildReport:
        """Rebuild for these changed absolute paths and publish the result (the watcher calls this)."""
        with self._build_lock:
            started = time.perf_counter()
            paths = tuple(sorted({os.path.abspath(path) for path in paths}))
            plan = self._watcher.plan if self._watcher is not None else plan_for(self.config)
            kinds = frozenset(kind for kind in (classify(path, plan) for path in paths) if kind is not None)
            build = self._run_build(paths, kinds)
            order = [kind.value for kind in ChangeKind if kind in kinds]
            return self._apply_build(build, frozenset(paths), started, tuple(order), paths)

    def _apply_build(self, build, paths: frozenset[str], started: float, kinds: tuple[str, ...],
                     shown_paths: Sequence[str]) -> RebuildReport:
        result, raised, replacement = build
        root = str(self.config.root) if self.config is not None else "."
        previous = self.state
        self._touched_since_good |= paths
        if raised or result is None or not result.ok:
            errors = raised if raised else tuple(result.errors)
            reports = tuple(error_report(error, root) for error in errors)
            # The builder remembers this failed build, so its next `changed` is not relative to what we serve.
            self._builder_in_sync = False
            self._set_state(replace(previous, errors=reports))
            report = RebuildReport(kinds, tuple(shown_paths), frozenset(), frozenset(),
                                   (time.perf_counter() - started) * 1000, False)
            self._finish(report, reports, previous.result is not None)
            self._broadcast("error", {"errors": [item.to_json() for item in reports]})
            return report
        if replacement is not None:
            self._builder, self.config = replacement
            if self._watcher is not None:
                self._watcher.replan(plan_for(self.config, ignored=self._ignored()))
        touched = frozenset(self._touched_since_good)
        if previous.result is None:
            changed, removed = frozenset(result.files), frozenset()
        elif self._builder_in_sync and replacement is None:
            # A copied file (static, bundle resource) is the same OutputFile when only its bytes on disk
            # changed, so the builder cannot see it; the watcher did.
            changed = frozenset(result.changed) | _copied_from(result.files, self._copy_candidates(touched))
            removed = frozenset(result.removed)
        else:
            changed, removed = _diff_files(previous.result.files, result.files, touched)
        self._builder_in_sync = True
        self._touched_since_good = set()
        generation = previous.generation + 1 if (changed or removed or previous.result is None) \
            else previous.generation
        page_generations = previous.page_generations
        if changed or removed:
            page_generations = dict(page_generations)
            for path in changed:
                page_generations[path] = generation
            for path in removed:
                page_generations.pop(path, None)
        self._set_state(ServedState(result=result, generation=generation, page_generations=page_generations))
        if self.options.output:
            self._write(result)
        stats = getattr(result, "stats", None)
        report = RebuildReport(kinds, tuple(shown_paths), changed, removed,
                               (time.perf_counter() - started) * 1000, True,
                               int(getattr(stats, "rendered_pages", 0) or 0))
        for warning in getattr(result, "warnings", ()):
            self.say(str(warning))
        self._finish(report, (), previous.result is not None)
        self._broadcast("ok", {"generation": generation})
        if previous.result is not None and (changed or removed):
            self._announce(generation, changed, removed)
        return report

    def _copy_candidates(self, touched: frozenset[str]) -> frozenset[str]:
        """Touched paths that may be copied as they are: static files and bundle resources, not markdown."""
        plan = self._watcher.plan if self._watcher is not None else plan_for(self.config)
        return frozenset(path for path in touched
                         if classify(path, plan) is ChangeKind.STATIC
                         or (classify(path, plan) is ChangeKind.CONTENT
                             and not path.endswith((".md", ".markdown"))))

    def _write(self, result) -> None:
        """Publish a good build to --output too (serving never reads it back)."""
        from .output import write_output
        config = self.config
        output = Path(config.root) / config.output_dir
        protected = [Path(config.root) / folder for folder in (config.source_dir, config.templates_dir,
                                                               config.static_dir)] + [Path(config.root)]
        try:
            write_output(result.files, output, protected=protected)
        except (OSError, BlogbuildError) as error:
            self.say(f"serve: could not write {output}: {error}", always=True)

    def _finish(self, report: RebuildReport, errors: tuple[ErrorReport, ...], is_rebuild: bool) -> None:
        what = ", ".join(report.kinds) or "start"
        if report.paths:
            shown = self._relative(report.paths[0])
            what += f" {shown}" + (f" (+{len(report.paths) - 1} more)" if len(report.paths) > 1 else "")
        if report.ok:
            self.say(f"{'rebuilt' if is_rebuild else 'built'} in {report.milliseconds:.0f} ms: {what}; "
                     f"{report.rendered} pages rendered, {len(report.changed)} files changed, "
                     f"{len(report.removed)} removed")
        else:
            count = len(errors)
            self.say(f"build failed in {report.milliseconds:.0f} ms ({what}) with {count} "
                     f"error{'s' if count != 1 else ''}; still serving the last good build", always=True)
            for error in errors:
                self.say(error.terminal_text(), always=True)
        with self._rebuilt:
            self.rebuilds += 1
            self._rebuilt.notify_all()

    def _relative(self, path: str) -> str:
        try:
            return os.path.relpath(path, self.config.root if self.config else ".")
        except ValueError:
            return path

    def wait_for_rebuilds(self, count: int, timeout: float = 30.0) -> bool:
        """Block until `count` rebuilds have finished in total; False on timeout (for tests and tools)."""
        with self._rebuilt:
            return self._rebuilt.wait_for(lambda: self.rebuilds >= count, timeout)

    def _rebuild_loop(self) -> None:
        while not self._stopping.is_set():
            paths = self._batcher.take()
            if paths is None:
                return
            self.rebuild(paths)

    # -- live reload ----------------------------------------------------------------------------------
    def _announce(self, generation: int, changed: frozenset[str], removed: frozenset[str]) -> None:
        touched = changed | removed
        assets = sorted(path for path in touched if os.path.splitext(path)[1].lower() in _ASSET_SUFFIXES)
        pages = sorted(path for path in touched if path not in set(assets))
        if assets and not pages and all(path.endswith(".css") for path in assets):
            stylesheets = [output_path_to_url(path) for path in assets]
            self._broadcast("css", {"generation": generation, "stylesheets": stylesheets})
            return
        data: dict[str, Any] = {"generation": generation, "assets": [output_path_to_url(path) for path in assets]}
        if len(pages) > MAX_LISTED_PAGES:
            data.update(all=True, pages=[])
        else:
            data.update(all=False, pages=[output_path_to_url(path) for path in pages])
        self._broadcast("reload", data)

    def _broadcast(self, event: str, data: Mapping[str, Any]) -> None:
        message = f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
        with self._clients_lock:
            for client in self._clients:
                client.put(message)

    def subscribe(self) -> queue.Queue:
        """A queue that receives every event message from now on (bytes; None when stopping)."""
        client: queue.Queue = queue.Queue()
        with self._clients_lock:
            self._clients.add(client)
        return client

    def unsubscribe(self, client: queue.Queue) -> None:
        """Forget an event-stream client."""
        with self._clients_lock:
            self._clients.discard(client)

    @property
    def client_count(self) -> int:
        """How many event streams are open (pages with live reload)."""
        with self._clients_lock:
            return len(self._clients)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def status(self, page: str = "") -> dict[str, Any]:
        """The JSON the injected script fetches: ok, errors, and when this page last changed."""
        state = self.state
        page_generation = None
        if page and state.result is not None:
            resolved = resolve_request_path(urllib.parse.quote(page, safe="/"), state.result.files)
            if resolved.status == 200:
                page_generation = state.page_generations.get(resolved.path)
        return {"ok": state.ok, "generation": state.generation, "page_generation": page_generation,
                "errors": [error.to_json() for error in state.errors]}


_SCRIPT_CACHE: dict[str, bytes] = {}


def reload_script() -> bytes:
    """The bytes of js/reload.js (package data)."""
    if "script" not in _SCRIPT_CACHE:
        _SCRIPT_CACHE["script"] = resources.files("blogbuild").joinpath("js/reload.js").read_bytes()
    return _SCRIPT_CACHE["script"]


_NOT_FOUND_PAGE = (b"<!doctype html><html><head><meta charset=\"utf-8\"><title>Not found</title></head>"
                   b"<body><h1>Not found</h1><p>No page at this address in the current build.</p></body></html>")
_NO_BUILD_PAGE = (b"<!doctype html><html><head><meta charset=\"utf-8\"><title>blogbuild</title></head>"
                  b"<body><h1>No good build yet</h1><p>Fix the errors shown above; this page reloads "
                  b"when the build succeeds.</p></body></html>")


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _HttpServer
    server_version = "blogbuild"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:   # noqa: A002 - the base class's name
        # Request logs would bury the rebuild lines; errors are printed by the server itself.
        return

    def do_GET(self) -> None:
        self._answer(head=False)

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def _send(self, status: int, body: bytes, kind: str, *, head: bool,
              headers: Mapping[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _answer(self, *, head: bool) -> None:
        dev = self.server.dev
        target = self.path
        if target.startswith("/__blogbuild/"):
            return self._internal(target, head=head)
        state = dev.state
        result = state.result
        if result is None:
            body = inject_reload_script(_NO_BUILD_PAGE, 0, output_path_to_url("index.html"))
            return self._send(503, body, "text/html; charset=utf-8", head=head)
        resolved = resolve_request_path(target, result.files)
        if resolved.status == 400:
            return self._send(400, b"Bad request path\n", "text/plain; charset=utf-8", head=head)
        if resolved.status == 301:
            return self._send(301, b"", "text/plain; charset=utf-8", head=head,
                              headers={"Location": resolved.location})
        if resolved.status == 404:
            page = result.files.get("404.html")
            body = self._bytes(page) if page is not None else _NOT_FOUND_PAGE
            body = inject_reload_script(body, state.generation, "/404.html")
            return self._send(404, body, "text/html; charset=utf-8", head=head)
        body = self._bytes(result.files[resolved.path])
        if body is None:
            return self._send(404, _NOT_FOUND_PAGE, "text/html; charset=utf-8", head=head)
        kind = content_type(resolved.path)
        if kind.startswith("text/html"):
            body = inject_reload_script(body, state.generation, output_path_to_url(resolved.path))
        self._send(200, body, kind, head=head)

    @staticmethod
    def _bytes(output) -> bytes | None:
        if not output.source:
            return output.data
        try:
            # Read whole before sending, so Content-Length always matches what follows.
            return Path(output.source).read_bytes()
        except OSError:
            return None

    def _internal(self, target: str, *, head: bool) -> None:
        dev = self.server.dev
        path, _, query = target.partition("?")
        if path == SCRIPT_PATH:
            return self._send(200, reload_script(), "text/javascript; charset=utf-8", head=head)
        if path == STATUS_PATH:
            page = urllib.parse.parse_qs(query).get("page", [""])[0]
            body = json.dumps(dev.status(page), ensure_ascii=False).encode()
            return self._send(200, body, "application/json; charset=utf-8", head=head)
        if path == EVENTS_PATH and not head:
            return self._events()
        self._send(404, b"Not found\n", "text/plain; charset=utf-8", head=head)

    def _events(self) -> None:
        dev = self.server.dev
        client = dev.subscribe()
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b"retry: 1000\n\n")
            self.wfile.flush()
            while not dev.stopping:
                try:
                    message = client.get(timeout=15)
                except queue.Empty:
                    message = b": keep-alive\n\n"   # lets a closed tab be noticed
                if message is None:
                    return
                self.wfile.write(message)
                self.wfile.flush()
        except (ConnectionError, TimeoutError, ValueError):
            return
        finally:
            dev.unsubscribe(client)
            self.close_connection = True
