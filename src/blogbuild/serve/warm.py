"""Starting from the last build: until the server's own first build is done (seconds to minutes on a big
site), it answers from the tree the last `blogbuild build` of this site published, when that build's record
says the tree is intact (manifest.examine). Pages then reload onto the server's own build.

The published pages carry the site's base URL where the server's carry its own address: text responses
of the published tree get the one replaced by the other (ServedState.rewrite)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import BlogbuildError
from ..model import OutputFile

if TYPE_CHECKING:
    from ..build import BuildResult
    from ..commands.serve import ServeOptions


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
