"""Live-reload events: what to tell the open pages after a build, and the event streams that carry it."""
from __future__ import annotations

import json
import os
import queue
import threading
from typing import Any, Mapping

from ..core.urls import output_path_to_url

MAX_LISTED_PAGES = 500       # beyond this a reload event just says "all"
# Files that other pages load: when one changes, every open page reloads (or swaps its stylesheets).
_ASSET_SUFFIXES = frozenset({".css", ".js", ".mjs", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif",
                             ".svg", ".ico", ".woff", ".woff2", ".ttf", ".otf", ".wasm"})


def reload_event(generation: int, changed: frozenset[str], removed: frozenset[str]) -> tuple[str, dict[str, Any]]:
    """The event for changed output paths: "css" when only stylesheets changed (swapped in place), else
    "reload" with the changed pages' URLs and the assets'."""
    touched = changed | removed
    assets = sorted(path for path in touched if os.path.splitext(path)[1].lower() in _ASSET_SUFFIXES)
    asset_set = set(assets)
    pages = sorted(path for path in touched if path not in asset_set)
    if assets and not pages and all(path.endswith(".css") for path in assets):
        return "css", {"generation": generation, "stylesheets": [output_path_to_url(path) for path in assets]}
    data: dict[str, Any] = {"generation": generation, "assets": [output_path_to_url(path) for path in assets]}
    if len(pages) > MAX_LISTED_PAGES:
        data.update(all=True, pages=[])
    else:
        data.update(all=False, pages=[output_path_to_url(path) for path in pages])
    return "reload", data


class EventStreams:
    """The open event streams (one queue each); a message put on each, None when the server stops."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: set[queue.Queue[bytes | None]] = set()

    def broadcast(self, event: str, data: Mapping[str, Any]) -> None:
        """Send one server-sent event to every open stream."""
        message = f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
        with self._lock:
            for client in self._clients:
                client.put(message)

    def close(self) -> None:
        """Tell every stream to end."""
        with self._lock:
            for client in self._clients:
                client.put(None)

    def subscribe(self) -> queue.Queue[bytes | None]:
        """A queue that receives every event message from now on (bytes; None when stopping)."""
        client: queue.Queue[bytes | None] = queue.Queue()
        with self._lock:
            self._clients.add(client)
        return client

    def unsubscribe(self, client: queue.Queue[bytes | None]) -> None:
        """Forget an event-stream client."""
        with self._lock:
            self._clients.discard(client)

    def __len__(self) -> int:
        with self._lock:
            return len(self._clients)
