"""Whom and what the drafting server trusts: the Host and Origin a request names, and the files it answers with.

A page on another site can point its own host name at 127.0.0.1 (DNS rebinding) and then read whatever the
server answers, drafts included; it cannot make the browser send a `Host` or `Origin` that is not its own
name. So a request is answered only when its `Host` (and its `Origin`, when it has one) names this server:
an IP address (a rebinding page has a name, not an address), `localhost` and its subdomains (browsers
resolve those to the loopback themselves), or a name the server was started with (`--allowed-host`).

A copied file of a good build (a static file, a bundle resource, a cached image) is pinned when the build is
applied: its real path, checked to lie inside the folders a build may read, and its device, inode, size and
mtime. A request reads the file through a descriptor opened without following a final link and answers only
when that descriptor is the pinned file; a file swapped since (for a link out of the site, say) is never
served, and the next good build pins it again.
"""
from __future__ import annotations

import ipaddress
import os
import stat
import urllib.parse
from typing import Iterable, Mapping

from ..core.model import OutputFile
from ..core.names import is_inside
from ..core.records import dataclass

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def host_name(header: str) -> str:
    """The host of a Host header's value, without its port, lowercased, without a final dot."""
    value = header.strip().lower()
    if value.startswith("["):
        name = value[1:value.find("]")] if "]" in value else value[1:]
    elif value.count(":") == 1:
        name = value.partition(":")[0]
    else:
        name = value   # a bare IPv6 address (not valid in Host, read leniently) or a plain name
    return name.rstrip(".")


def allowed_names(bind: str, extra: Iterable[str]) -> frozenset[str]:
    """The host names a server bound to `bind` answers to, beside every IP address and localhost."""
    names = {"localhost"}
    if bind and bind not in ("0.0.0.0", "::"):
        names.add(host_name(f"[{bind}]" if ":" in bind else bind))
    names.update(host_name(name) for name in extra if name.strip())
    return frozenset(names)


def name_allowed(name: str, allowed: frozenset[str]) -> bool:
    """Whether a request naming this host may be answered (see the module's docstring)."""
    if not name:
        return False
    if name in allowed or name.endswith(".localhost"):
        return True
    if any(entry.startswith(".") and (name.endswith(entry) or name == entry[1:]) for entry in allowed):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def refusal(host: str | None, origin: str | None, allowed: frozenset[str]) -> str | None:
    """Why a request with these Host and Origin headers is refused, in one line; None when it is answered."""
    if host is not None and not name_allowed(host_name(host), allowed):
        name = host_name(host)
        return (f"blogbuild serve answers only its own names, not '{name}' (a page elsewhere may have pointed "
                f"that name at this server); open it as 127.0.0.1 or localhost, or restart with "
                f"--allowed-host {name or 'NAME'}")
    if origin is not None:
        parts = urllib.parse.urlsplit(origin.strip())
        name = host_name(parts.netloc) if parts.scheme in ("http", "https") else ""
        if not name_allowed(name, allowed):
            return (f"blogbuild serve refuses requests made by pages of another site (Origin {origin.strip()!r}); "
                    "open the page from this server, or restart with --allowed-host NAME")
    return None


@dataclass(frozen=True)
class Pin:
    """The file a copied output was built from, as the build saw it."""

    real: str
    device: int
    inode: int
    size: int
    mtime_ns: int


def pin(source: str, roots: tuple[str, ...]) -> Pin | None:
    """The pin of a copied file's source; None when it is not a regular file inside the roots."""
    try:
        real = os.path.realpath(source)
        if not is_inside(real, roots):
            return None
        info = os.stat(real, follow_symlinks=False)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return Pin(real, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def pin_files(files: Mapping[str, OutputFile], roots: Iterable[str], previous: Mapping[str, Pin | None],
              previous_files: Mapping[str, OutputFile], touched: frozenset[str]) -> dict[str, Pin | None]:
    """Every copied output of a build with its pin. An output copied from the same source as in the
    previously pinned build keeps its pin unless its source was touched since (a missed change is still
    caught when the file is read: read_pinned compares the descriptor with the pin)."""
    real_roots = tuple(os.path.realpath(root) for root in roots)
    pins: dict[str, Pin | None] = {}
    for path, output in files.items():
        if not output.source:
            continue
        before = previous_files.get(path)
        if (path in previous and before is not None and before.source == output.source
                and os.path.abspath(output.source) not in touched):
            pins[path] = previous[path]
            continue
        pins[path] = pin(output.source, real_roots)
    return pins


class Changed(Exception):
    """The pinned file is no longer the one the build saw."""


def read_pinned(pinned: Pin) -> bytes:
    """The bytes of a pinned file, read through one descriptor that is checked to be the pinned file;
    Changed when it is not (replaced, linked elsewhere, edited since) or cannot be read."""
    try:
        descriptor = os.open(pinned.real, _OPEN_FLAGS)
    except OSError as error:
        raise Changed(pinned.real) from error
    try:
        info = os.fstat(descriptor)
        if (not stat.S_ISREG(info.st_mode) or info.st_dev != pinned.device or info.st_ino != pinned.inode
                or info.st_size != pinned.size or info.st_mtime_ns != pinned.mtime_ns):
            raise Changed(pinned.real)
        chunks = []
        remaining = pinned.size
        while remaining > 0:
            chunk = os.read(descriptor, min(remaining, 1 << 20))
            if not chunk:
                raise Changed(pinned.real)   # shorter than when pinned: written meanwhile
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)
    except OSError as error:
        raise Changed(pinned.real) from error
    finally:
        os.close(descriptor)
