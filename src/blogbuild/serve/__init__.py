"""`blogbuild serve`: HTTP and live reload (http.py, paths.py), build errors for the overlay (reports.py), the
served state and the pure function that changes it (state.py), and the server that applies it (server.py)."""
from __future__ import annotations

from .paths import EVENTS_PATH, SCRIPT_PATH, STATUS_PATH, Resolved, content_type, inject_reload_script, \
    reload_script, resolve_request_path
from .reports import ErrorReport, error_report
from .server import DevServer
from .state import BuildAttempt, RebuildReport, ServedState, Transition, next_state

__all__ = ["EVENTS_PATH", "SCRIPT_PATH", "STATUS_PATH", "BuildAttempt", "DevServer", "ErrorReport", "RebuildReport",
           "Resolved", "ServedState", "Transition", "content_type", "error_report",
           "inject_reload_script", "next_state", "reload_script", "resolve_request_path"]
