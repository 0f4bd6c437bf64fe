"""Starting from the last build, and saving the server's own when it stops.

Until the server's own first build is done (seconds to minutes on a big
site), it answers from the tree the last `blogbuild build` of this site published, when that build's record
says the tree is intact (manifest.examine). Pages then reload onto the server's own build.

The published pages carry the site's base URL where the server's carry its own address: text responses
of the published tree get the one replaced by the other (ServedState.rewrite).

When it stops, the server saves its builder's rendered posts and state to the disk cache, which `build`
shares (build/state.py DiskCache): the next `serve` or `build` renders only what changed since."""
from __future__ import annotations

import pickle
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..errors import BlogbuildError
from ..model import OutputFile

if TYPE_CHECKING:
    from ..build import Builder, BuildResult
    from ..commands.serve import ServeOptions

SAVE_WAIT_SECONDS = 120.0   # how long stopping waits for a running rebuild before it saves


@dataclass(frozen=True)
class PublishedTree:
    """The last build's published files as a BuildResult, and the base URL to replace in them."""

    result: "BuildResult"
    rewrite: tuple[bytes, bytes]   # (the site's base URL, the server's), without trailing slashes


def published_tree(options: "ServeOptions", server_url: str) -> PublishedTree | None:
    """The tree the last `blogbuild build` of this site published (with the server's drafts setting, else
    without drafts: it is only shown until the server's own build is done); None when there is none, its
    record does not match the disk, or the site lives under a path (its links would not resolve here)."""
    from .. import manifest
    from ..build import BuildResult, load_site_config
    from ..commands.build import BuildOptions
    from ..output import MARKER
    for drafts in dict.fromkeys((options.drafts, False)):
        build_options = BuildOptions(root=options.root, source=options.source, config=options.config,
                                     drafts=drafts, future=options.future)
        found = manifest.examine(build_options)
        if found is not None:
            break
    else:
        return None
    try:
        config = load_site_config(build_options)
    except BlogbuildError:
        return None
    if config.base_path != "/":
        return None
    output = Path(config.root) / config.output_dir
    paths = [path for path in manifest.published_files(build_options, found, output) if path != MARKER]
    if "index.html" not in paths:
        return None
    files = {path: OutputFile(path, source=str(output / path)) for path in paths}
    result = BuildResult(files, None, (), (), frozenset(), frozenset())
    return PublishedTree(result, (config.base_url.rstrip("/").encode(), server_url.rstrip("/").encode()))


def save_builder_state(whole_builder: Callable[[], "Builder | None"], build_lock: threading.Lock,
                       say: Callable[..., None]) -> bool:
    """Save the server's builder to the disk cache; True when done. Only a builder whose last build ran to
    its end is saved (whole_builder gives None otherwise: a build cut short by Ctrl-C may have left its
    state half updated). A rebuild still running finishes first. Each file is replaced atomically, so a
    server killed while saving leaves the older cache; a failure is said, never raised."""
    if whole_builder() is None:
        return False
    if not build_lock.acquire(timeout=SAVE_WAIT_SECONDS):
        say("serve: a rebuild is still running; the build state was not saved", always=True)
        return False
    try:
        builder = whole_builder()
        if builder is None:
            return False
        started = time.perf_counter()
        builder.save_cache(f"serve-{uuid.uuid4().hex}")
        say(f"saved the build state in {(time.perf_counter() - started) * 1000:.0f} ms")
        return True
    except (OSError, pickle.PicklingError, RecursionError) as error:
        say(f"serve: could not save the build state: {error}", always=True)
        return False
    finally:
        build_lock.release()
