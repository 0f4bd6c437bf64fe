"""`blogbuild serve`: the drafting server with live reload, until Ctrl-C."""
from __future__ import annotations

import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ServeOptions:
    """Options of `blogbuild serve`."""

    root: str = "."
    source: str | None = None
    config: str | None = None
    output: str | None = None
    port: int = 1313
    bind: str = "127.0.0.1"
    drafts: bool = True
    future: bool = False
    expired: bool = False
    open_browser: bool = False
    quiet: bool = False
    allowed_hosts: tuple[str, ...] = ()   # host names answered beside IP addresses and localhost

    def config_overrides(self) -> dict[str, Any]:
        """The site config keys these flags set (None: keep the config file's value)."""
        return {"drafts": self.drafts, "future": self.future or None, "expired": self.expired or None, "strict": False, "base_url": None,
                "source_dir": self.source, "output_dir": self.output}


def run(options: ServeOptions) -> int:
    """Serve until Ctrl-C; 0 on a clean stop, 1 when the server cannot start."""
    from ..core.errors import BlogbuildError, describe_chain
    from ..serve import DevServer
    server = DevServer(options)
    # SIGTERM (a service manager, `kill`) stops the server as Ctrl-C does: its state is saved on the way out.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
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
