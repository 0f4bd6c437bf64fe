"""The HTTP side of `blogbuild serve`: answer from the served state in memory, stream reload events."""
from __future__ import annotations

import errno
import http.server
import json
import queue
import socket
import sys
import threading
import urllib.parse
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from ..core.errors import BlogbuildError
from ..core.urls import output_path_to_url
from .paths import EVENTS_PATH, SCRIPT_PATH, STATUS_PATH, content_type, inject_reload_script, reload_script, \
    resolve_request_path
from .trust import Changed, read_pinned, refusal

if TYPE_CHECKING:
    from .state import ServedState


class ServedSite(Protocol):
    """What the HTTP side asks of the server it answers for (serve/server.py's DevServer)."""

    allowed_hosts: frozenset[str]

    @property
    def state(self) -> ServedState: ...

    @property
    def client_count(self) -> int: ...

    @property
    def stopping(self) -> bool: ...

    def status(self, page: str = "") -> dict[str, Any]: ...

    def subscribe(self) -> queue.Queue[bytes | None]: ...

    def unsubscribe(self, client: queue.Queue[bytes | None]) -> None: ...

    def say(self, text: str, *, always: bool = False) -> None: ...


MAX_CONNECTIONS = 256       # open connections at once; beyond, a new one is closed at once
MAX_EVENT_STREAMS = 64      # open live-reload streams at once; beyond, 503 (a reader reconnects in a second)
IDLE_SECONDS = 15.0         # a kept-alive connection idle, or a request half sent, this long is closed


class HttpServer(http.server.ThreadingHTTPServer):
    """A threading HTTP server that knows its DevServer: a real listen backlog, a cap on connections."""

    daemon_threads = True
    request_queue_size = 128
    dev: "ServedSite"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__(*args, **kwargs)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)   # over the cap: closed at once, the thread never started
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A reader closing the tab mid-response is normal; anything else is a bug worth a line.
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        self.dev.say(f"serve: error answering {client_address}: {error!r}", always=True)


class HttpServer6(HttpServer):
    """The same on IPv6."""

    address_family = socket.AF_INET6


def listen(host: str, port: int, attempts: int, say: "Callable[..., None]") -> HttpServer:
    """A server listening on host at port, else the next free one of `attempts` ports (each taken one said)."""
    server_class = HttpServer6 if ":" in host else HttpServer
    attempts = 1 if port == 0 else attempts
    last_error: OSError | None = None
    for offset in range(attempts):
        try:
            return server_class((host, port + offset), Handler)
        except OSError as error:
            if error.errno not in (errno.EADDRINUSE, errno.EACCES):
                raise BlogbuildError(f"cannot listen on {host}:{port + offset}: {error.strerror}; "
                                     "check --bind and --port") from error
            last_error = error
            say(f"port {port + offset} is in use (or not allowed)"
                + ("; trying the next one" if offset + 1 < attempts else ""), always=True)
    raise BlogbuildError(f"no free port in {port}-{port + attempts - 1}; pass --port N "
                         f"or stop the other server") from last_error


_NOT_FOUND_PAGE = (b"<!doctype html><html><head><meta charset=\"utf-8\"><title>Not found</title></head>"
                   b"<body><h1>Not found</h1><p>No page at this address in the current build.</p></body></html>")
_NO_BUILD_PAGE = (b"<!doctype html><html><head><meta charset=\"utf-8\"><title>blogbuild</title></head>"
                  b"<body><h1>No good build yet</h1><p>Fix the errors shown above; this page reloads "
                  b"when the build succeeds.</p></body></html>")
_CHANGED_PAGE = (b"<!doctype html><html><head><meta charset=\"utf-8\"><title>Changed</title></head>"
                 b"<body><h1>Changed since the last good build</h1><p>This file changed on disk after the build "
                 b"that published it; it is served again once the next build succeeds.</p></body></html>")


class Handler(http.server.BaseHTTPRequestHandler):
    """Answers one request from the served state (pages, reload script, status, event stream)."""

    server: HttpServer
    server_version = "blogbuild"
    sys_version = ""
    protocol_version = "HTTP/1.1"   # keep-alive: a page's many assets come over a few connections
    timeout = IDLE_SECONDS

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
        refused = refusal(self.headers.get("Host"), self.headers.get("Origin"), dev.allowed_hosts)
        if refused is not None:
            return self._send(403, (refused + "\n").encode(), "text/plain; charset=utf-8", head=head)
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
            try:
                found = self._bytes("404.html", state)
            except Changed:
                found = None
            if found is not None and state.rewrite is not None:
                found = found.replace(*state.rewrite)
            body = inject_reload_script(found if found is not None else _NOT_FOUND_PAGE, state.generation,
                                        "/404.html")
            return self._send(404, body, "text/html; charset=utf-8", head=head)
        try:
            served = self._bytes(resolved.path, state)
        except Changed:
            return self._send(503, _CHANGED_PAGE, "text/html; charset=utf-8", head=head,
                              headers={"Retry-After": "1"})
        if served is None:
            return self._send(404, _NOT_FOUND_PAGE, "text/html; charset=utf-8", head=head)
        body = served
        kind = content_type(resolved.path)
        if state.rewrite is not None and "charset=" in kind:   # the last build's text: the server's address
            body = body.replace(*state.rewrite)
        if kind.startswith("text/html"):
            body = inject_reload_script(body, state.generation, output_path_to_url(resolved.path))
        self._send(200, body, kind, head=head)

    @staticmethod
    def _bytes(path: str, state: "ServedState") -> bytes | None:
        """An output's bytes: in memory, or its copied file read whole (so Content-Length always matches what
        follows) only when it is still the file the build pinned; None when there is no such output."""
        assert state.result is not None
        output = state.result.files.get(path)
        if output is None:
            return None
        if not output.source:
            return output.data
        pinned = state.pins.get(path)
        if pinned is None:
            return None   # not a regular file inside the site when the build was applied: never served
        return read_pinned(pinned)

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
        if dev.client_count >= MAX_EVENT_STREAMS:
            return self._send(503, b"Too many live-reload streams\n", "text/plain; charset=utf-8", head=False,
                              headers={"Retry-After": "1"})
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


