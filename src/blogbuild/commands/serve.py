"""`blogbuild serve`: the drafting server with live reload, until Ctrl-C."""
from __future__ import annotations

import signal
import sys
import threading
import time
from ..core.options import ServeOptions

__all__ = ["ServeOptions", "run"]


def run(options: ServeOptions) -> int:
    """Serve until Ctrl-C; 0 on a clean stop, 1 when the server cannot start."""
    from ..core.errors import BlogbuildError, describe_chain
    from ..serve import DevServer
    server = DevServer(options)
    # SIGTERM (a service manager, `kill`) stops the server as Ctrl-C does: its state is saved on the way out. So
    # does SIGINT when the server was started ignoring it (a shell script's `blogbuild serve &` job: `kill -INT`).
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        server.start()
        if options.open_browser:
            import webbrowser
            threading.Thread(target=webbrowser.open, args=(server.url,), daemon=True).start()
        while not server.stopping:
            time.sleep(0.5)
    except BlogbuildError as error:
        print(f"Error: {describe_chain(error)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # Ctrl-C is how a drafting session ends: not an error.
        server.say("stopping", always=True)
    finally:
        try:
            server.stop()
        except KeyboardInterrupt:   # Ctrl-C again while stopping: out now (the cache files are never torn)
            server.say("stopped without saving the build state", always=True)
    return 0
