"""The incremental policy: what a change re-renders.

A change to known markdown files whose posts kept their front matter, file and URL keeps the Site's
structure: only the outputs that can show those posts are planned again (Planner.plan_affected). Anything
else (a new or deleted file, a template, a static file, a front-matter edit) plans the whole site, and
the page keys decide which pages render. A Hugo site's own layouts may show anything of any page on every page:
the whole site is planned for any change, each page keyed by the front matter of every page, and a page is made
again besides only when a post whose body its last render read has changed (pages.py).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..config import SiteConfig
from ..core.model import OutputFile, Post
from .state import LastGood
from ..core.records import dataclass


def only_known_posts(changed: set[str] | None, known: Mapping[str, Any]) -> bool:
    """Whether the changed paths are all markdown files of the last walk (a watcher's save, not a new file)."""
    return changed is not None and all(path in known for path in changed)


def content_only_edits(last_good: LastGood | None, templates_key: str, posts: Sequence[Post]) -> list[Post] | None:
    """The posts whose body changed but whose front matter, file and URL did not, when that is the only
    change since the last good build (then the Site's structure is the same); else None."""
    if last_good is None or last_good.templates_key != templates_key:
        return None
    previous = last_good.posts
    if len(previous) != len(posts):
        return None
    edited = []
    for post in posts:
        old = previous.get(post.rel_path)
        if old is None:
            return None
        if old.fingerprint == post.fingerprint:
            continue
        if (post.kind != "page" or old.kind != "page" or post.url != old.url or post.params != old.params
                or post.resources != old.resources or post.title != old.title):
            return None
        edited.append(post)
    published = {page.url for page in last_good.site.pages}
    return [post for post in edited if post.url in published]


@dataclass(frozen=True)
class OutputChanges:
    """The output paths that differ from the last good build, and those it had that are gone."""

    changed: frozenset[str]
    removed: frozenset[str]


def output_changes(previous: Mapping[str, OutputFile], files: Mapping[str, OutputFile],
                   partial: bool) -> OutputChanges:
    """What differs from the last good build's output; after a partial build only the replaced files can."""
    if partial:
        return OutputChanges(frozenset(path for path, item in files.items()
                                       if item is not previous.get(path) and previous.get(path) != item),
                             frozenset())
    return OutputChanges(frozenset(path for path, item in files.items() if previous.get(path) != item),
                         frozenset(set(previous) - set(files)))


def edited_posts(changed_inputs: Sequence[str] | None, config: SiteConfig) -> list[str] | None:
    """The absolute paths of the posts edited since the last build, when that is all that changed: each
    an existing markdown file in the content folder (a new, deleted or renamed file changes its folder's
    names, which is not a post). None otherwise."""
    if not changed_inputs:
        return None
    from ..disk.sources import MARKDOWN_SUFFIXES
    content = os.path.abspath(Path(config.root) / config.source_dir) + os.sep
    paths = [os.path.abspath(path) for path in changed_inputs]
    if all(path.startswith(content) and path.lower().endswith(MARKDOWN_SUFFIXES) and os.path.isfile(path)
           for path in paths):
        return paths
    return None
