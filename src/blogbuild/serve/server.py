"""`blogbuild serve`: build in memory, serve the last good build, rebuild on save, push reloads and errors.

The server never serves from disk what the build is writing: each good BuildResult is kept in memory and
the reference is swapped under a lock, so a request sees either the old site or the new one, whole.
A failed rebuild keeps the last good site and shows its errors in an overlay (FIELD-NOTES 8). What a build
changes in the served state is decided by state.next_state; this object applies it.
"""
from __future__ import annotations

import os
import queue
import sys
import threading
import time
import urllib.parse
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence, TextIO

from ..core.errors import BlogbuildError
from ..core.model import OutputFile
from ..disk.site_lock import site_lock
from .watch import ChangeBatcher, ChangeKind, Watcher, classify, plan_for
from .events import EventStreams, reload_event
from .http import HttpServer, listen
from .paths import resolve_request_path
from .diagrams import check_in_background
from .reports import ErrorReport, error_report, saved_file_warnings, warning_lines
from .state import BuildAttempt, RebuildReport, ServedState, next_state
from .trust import Pin, allowed_names, pin_files
from .warm import SavedServe, ServedInputs, first_build, published_tree, save_builder_state, served_tree

if TYPE_CHECKING:
    from ..pipeline import Builder, BuildResult
    from ..core.options import ServeOptions
    from ..config import SiteConfig

PORT_ATTEMPTS = 20


def _default_load_config(options: "ServeOptions", base_url: str) -> SiteConfig:
    from ..pipeline import load_site_config

    # serving: pages for the author's own browser carry no analytics (they would count every reload).
    return replace(load_site_config(options), base_url=base_url, serving=True)


def _default_builder_factory(config: SiteConfig, saved: SavedServe | None = None) -> Builder:
    from ..pipeline import Builder

    # One process: the in-memory caches are what make a one-post rebuild cheap. The disk cache
    # (.blogbuild-cache/, ignored by the watcher) makes the first build of a big blog fast: the posts that
    # `blogbuild build` rendered (the posts cache is shared, see build.posts_key), and the state this server
    # saves when it stops (keep_state), which it carries on from (saved: serve/warm.py).
    return Builder(config, jobs=1, use_cache=True, keep_state=True, resume=saved.build_id if saved else None,
                   output_dir=saved.tree if saved else None)


def release_free_memory() -> None:
    """Give the memory a rebuild freed back to the system (glibc keeps freed heap pages otherwise: a large
    post added and removed left its ~10 MB with the server). A no-op where there is no malloc_trim."""
    import ctypes
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


def _display_host(bind: str) -> str:
    if bind in ("", "0.0.0.0"):
        return "127.0.0.1"
    if bind == "::":
        return "[::1]"
    return f"[{bind}]" if ":" in bind else bind


def _write_output_folder(config: "SiteConfig | None", result: "BuildResult", say: Callable[..., None]) -> None:
    """Publish a good build to --output too (serving never reads it back)."""
    from ..disk.output import write_output
    assert config is not None
    output = Path(config.root) / config.output_dir
    protected = [Path(config.root) / folder for folder in (config.source_dir, config.templates_dir,
                                                           config.static_dir)] + [Path(config.root)]
    try:
        write_output(result.files, output, protected=protected)
    except (OSError, BlogbuildError) as error:
        say(f"serve: could not write {output}: {error}", always=True)


class DevServer:
    """The drafting server: one object holds the builder, the served state, the watcher and the clients."""

    def __init__(self, options: "ServeOptions", *, out: TextIO | None = None,
                 load_config: Callable[["ServeOptions", str], SiteConfig] = _default_load_config,
                 builder_factory: Callable[[SiteConfig, SavedServe | None], Builder] = _default_builder_factory,
                 quiet_seconds: float = 0.1, port_attempts: int = PORT_ATTEMPTS) -> None:
        self.options = options
        self._out = out if out is not None else sys.stdout
        self._load_config = load_config
        self._builder_factory = builder_factory
        self._port_attempts = port_attempts
        self._batcher = ChangeBatcher(quiet_seconds)
        self._state_lock = threading.Lock()
        self._state = ServedState()
        self.streams = EventStreams()
        self._print_lock = threading.Lock()
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._http: HttpServer | None = None
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
        self._builder_whole = False           # the builder's last build() returned (not cut short by Ctrl-C)
        self._saved = False
        self._inputs = ServedInputs()         # what the builder's state is built from (saved with it)
        self.allowed_hosts = allowed_names(options.bind, options.allowed_hosts)   # serve/trust.py

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
        server = listen(self.options.bind, self.options.port, self._port_attempts, self.say)
        server.dev = self
        self._http = server
        self.port = server.server_address[1]
        self.url = f"http://{_display_host(self.options.bind)}:{self.port}/"
        if self.options.port not in (0, self.port):
            self.say(f"serving on port {self.port} instead of {self.options.port}", always=True)
        return self.port

    def start(self) -> None:
        """Bind, build once, then serve, watch and rebuild on background threads."""
        if self._http is None:
            self.bind()
        started = time.perf_counter()
        self._inputs.before_config(self.options)
        self.config = self._load_config(self.options, self.url)
        # Answer from the last server's tree, else the last build's published tree, while the first build
        # runs: before the builder loads its cache (at 10,000 posts that alone takes seconds).
        served = served_tree(self.config)
        published = served[0] if served is not None else published_tree(self.options, self.url)
        if published is not None:
            self._set_state(ServedState(result=published.result, generation=1, rewrite=published.rewrite,
                                        pins=self._pins(published.result.files, ServedState(), frozenset())))
            self._start_thread(self._serve, "blogbuild-http")
            self.say(f"serving the last {'server' if served else 'build'}'s pages at {self.url} while building",
                     always=True)
        self._builder = self._builder_factory(self.config, served[1] if served is not None else None)
        # Watch before the first build, so a save during it is queued rather than lost.
        self._watcher = Watcher(plan_for(self.config, ignored=self._ignored()), self._batcher)
        self._watcher.start()
        with self._build_lock, site_lock(self.options.root or ".", wait=True):   # one build of the site at a time
            cpu_started = time.thread_time()   # this thread's alone: not the HTTP thread's answers meanwhile
            attempt, changed = first_build(self._builder, self._inputs, served[1] if served else None,
                                           self._run_build)
            self._builder_whole = self._builder_whole or attempt.ok   # carried on: no build() ran
            self._apply_build(attempt, frozenset(), started, ("start",), changed, cpu_started)
        if published is None:
            self._start_thread(self._serve, "blogbuild-http")
        self._start_thread(self._rebuild_loop, "blogbuild-rebuild")
        self.say(f"serving {self.config.root} at {self.url} (drafts {'shown' if self.options.drafts else 'hidden'};"
                 " Ctrl-C to stop)", always=True)

    def _start_thread(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def _ignored(self) -> tuple[str, ...]:
        return (self.options.output,) if self.options.output else ()

    def _serve(self) -> None:
        assert self._http is not None
        self._http.serve_forever(poll_interval=0.2)

    def stop(self) -> None:
        """Stop watching, close every event stream and the socket, wait for the threads, save the state."""
        self._stopping.set()
        self._batcher.close()
        if self._watcher is not None:
            self._watcher.stop()
        self.streams.close()
        if self._http is not None:
            if any(thread.name == "blogbuild-http" for thread in self._threads):
                self._http.shutdown()
            self._http.server_close()
        for thread in self._threads:
            thread.join(timeout=10)
        # Save the builder's posts and state for the next `serve` or `build` (serve/warm.py).
        self._saved = self._saved or save_builder_state(self._whole_builder, self._build_lock, self.say,
                                                        self._inputs.entries)

    def _whole_builder(self) -> tuple[Builder, BuildResult | None] | None:
        """The builder when its last build ran to its end, with the served build when that is its last, good."""
        if self._builder is None or not self._builder_whole:
            return None
        state = self.state
        return self._builder, state.result if state.ok and self._builder_in_sync else None

    def __enter__(self) -> "DevServer":
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    # -- building -------------------------------------------------------------------------------------
    def _run_build(self, paths: Iterable[str] | None, kinds: frozenset[ChangeKind] | None) -> BuildAttempt:
        """Build (with a new Builder after a config change, kept only when its build is good)."""
        try:
            if kinds is not None and ChangeKind.CONFIG in kinds:
                # A config change can touch every page: a new Builder with the new config, full build.
                config = self._load_config(self.options, self.url)
                builder = self._builder_factory(config, None)
                result = builder.build(None)
                if result.ok:
                    self._builder, self.config, self._builder_whole = builder, config, True
                return BuildAttempt(result, new_builder=True)
            assert self._builder is not None
            self._builder_whole = False
            result = self._builder.build(sorted(paths) if paths is not None else None)
            self._builder_whole = True
            return BuildAttempt(result)
        except Exception as error:   # noqa: BLE001 - a failed rebuild must never stop the server
            return BuildAttempt(None, (error,))

    def rebuild(self, paths: Iterable[str]) -> RebuildReport:
        """Rebuild for these changed absolute paths and publish the result (the watcher calls this)."""
        with self._build_lock, site_lock(self.options.root or ".", wait=True):   # one build of the site at a time
            started = time.perf_counter()
            paths = tuple(sorted({os.path.abspath(path) for path in paths}))
            plan = self._watcher.plan if self._watcher is not None else plan_for(self.config)
            # After a failed build, every path touched since the last good one is this build's change too: the
            # failed build's changes (a static file added, a file swapped, the config) never reached a good build.
            asked = paths if self.state.ok else tuple(sorted(set(paths) | self._touched_since_good))
            kinds = frozenset(kind for kind in (classify(path, plan) for path in asked) if kind is not None)
            self._inputs.note(paths, new_builder=ChangeKind.CONFIG in kinds)
            attempt = self._run_build(asked, kinds)
            order = [kind.value for kind in ChangeKind if kind in kinds]
            return self._apply_build(attempt, frozenset(paths), started, tuple(order), paths)

    def _apply_build(self, attempt: BuildAttempt, paths: frozenset[str], started: float, kinds: tuple[str, ...],
                     shown_paths: Sequence[str], cpu_started: float | None = None) -> RebuildReport:
        """Apply one build's outcome: the next state (state.next_state decides it), --output, the terminal
        line and the browsers' events."""
        root = str(self.config.root) if self.config is not None else "."
        previous = self.state
        self._touched_since_good |= paths
        reports: tuple[ErrorReport, ...] = ()
        if not attempt.ok:
            errors = attempt.raised if attempt.raised else tuple(attempt.result.errors if attempt.result else ())
            reports = tuple(error_report(error, root) for error in errors)
        elif attempt.new_builder and self._watcher is not None and self.config is not None:
            self._watcher.replan(plan_for(self.config, ignored=self._ignored()))
        plan = self._watcher.plan if self._watcher is not None else plan_for(self.config)
        step = next_state(previous, attempt, reports, frozenset(self._touched_since_good), self._builder_in_sync,
                          plan)
        touched = frozenset(self._touched_since_good)
        self._builder_in_sync, self._touched_since_good = step.in_sync, set(step.touched)
        result = attempt.result
        own = saved_file_warnings(result.warnings, shown_paths, root) if attempt.ok and result is not None \
            and previous.result is not None else []
        pins = self._pins(result.files, previous, touched) if attempt.ok and result is not None else step.state.pins
        self._set_state(replace(step.state, pins=pins, saved_warnings=tuple(
            {"path": item.path, "line": item.line, "message": item.message} for item in own)))
        milliseconds = (time.perf_counter() - started) * 1000
        if not attempt.ok or result is None:
            report = RebuildReport(kinds, tuple(shown_paths), frozenset(), frozenset(), milliseconds, False)
            self._finish(report, reports, previous.result is not None)
            self._broadcast("error", {"errors": [item.to_json() for item in reports]})
            return report
        if self.options.output:
            _write_output_folder(self.config, result, self.say)
        stats = result.stats
        report = RebuildReport(kinds, tuple(shown_paths), step.changed, step.removed, milliseconds, True,
                               stats.rendered_pages, stats.markdown_rendered, stats.rendered_pages + stats.reused_pages,
                               time.thread_time() - cpu_started if cpu_started is not None else None)
        for line in warning_lines(result.warnings, shown_paths, root, is_rebuild=previous.result is not None):
            self.say(line)
        self._finish(report, (), previous.result is not None)
        self._broadcast("ok", {"generation": step.state.generation})
        if previous.result is not None:
            check_in_background(self, result, shown_paths, step.state.generation)
        if previous.result is not None and (step.changed or step.removed):
            self._announce(step.state.generation, step.changed, step.removed)
        return report

    def _pins(self, files: Mapping[str, OutputFile], previous: ServedState,
              touched: frozenset[str]) -> dict[str, Pin | None]:
        """The copied files of a good build pinned to what the build saw (serve/trust.py): inside the site,
        its output and cache folders, or blogbuild's own package (the default theme, vendored assets)."""
        roots = [str(Path(__file__).resolve().parent.parent)]
        if self.config is not None:
            site = Path(self.config.root)
            roots += [str(site), str(site / self.config.output_dir)]
            if self.options.output:
                roots.append(str(Path(self.options.output).resolve()))
        previous_files = previous.result.files if previous.result is not None else {}
        return pin_files(files, roots, previous.pins, previous_files, touched)

    def _finish(self, report: RebuildReport, errors: tuple[ErrorReport, ...], is_rebuild: bool) -> None:
        what = ", ".join(report.kinds) or "start"
        if report.paths:
            shown = self._relative(report.paths[0])
            what += f" {shown}" + (f" (+{len(report.paths) - 1} more)" if len(report.paths) > 1 else "")
        if report.ok:
            self.say(report.summary(what, is_rebuild))
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
            release_free_memory()   # after the browsers were told: a few ms that no reader waits for

    # -- live reload ----------------------------------------------------------------------------------
    def _announce(self, generation: int, changed: frozenset[str], removed: frozenset[str]) -> None:
        self._broadcast(*reload_event(generation, changed, removed))

    def _broadcast(self, event: str, data: Mapping[str, Any]) -> None:
        self.streams.broadcast(event, data)

    def subscribe(self) -> "queue.Queue[bytes | None]":
        """A queue that receives every event message from now on (bytes; None when stopping)."""
        return self.streams.subscribe()

    def unsubscribe(self, client: "queue.Queue[bytes | None]") -> None:
        """Forget an event-stream client."""
        self.streams.unsubscribe(client)

    @property
    def client_count(self) -> int:
        """How many event streams are open (pages with live reload)."""
        return len(self.streams)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def status(self, page: str = "") -> dict[str, Any]:
        """The JSON the injected script fetches (status_json)."""
        return status_json(self.state, page)


def status_json(state: ServedState, page: str = "") -> dict[str, Any]:
    """ok, errors, the saved files' warnings, and when this page last changed."""
    page_generation = None
    if page and state.result is not None:
        resolved = resolve_request_path(urllib.parse.quote(page, safe="/"), state.result.files)
        if resolved.status == 200:
            page_generation = state.page_generations.get(resolved.path)
    return {"ok": state.ok, "generation": state.generation, "page_generation": page_generation,
            "errors": [error.to_json() for error in state.errors], "warnings": list(state.saved_warnings)}



