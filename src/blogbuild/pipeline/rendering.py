"""The posts stage with memory: each source's post from the last build, the disk cache, or a fresh render."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..config import SiteConfig
from ..core.errors import BlogbuildError, SourceWarning
from ..core.model import Post, SourceFile
from ..core.fingerprint import fingerprint_of
from ..themes import Theme
from ..themes.default import DEFAULT_THEME
from .pools import render_sources
from .reading import refill
from .state import BuilderState, RememberedRender, RenderOutcome

if TYPE_CHECKING:
    from ..markdown.shortcodes import ShortcodeSet
    from .pools import Publishing


@dataclass(frozen=True)
class RenderedPosts:
    """The posts, their warnings and errors, and how many were rendered afresh or reused."""

    posts: list[Post]
    warnings: list[SourceWarning]
    errors: list[BlogbuildError]
    rendered: int
    reused: int
    new_posts: bool   # a post was rendered that the posts cache did not hold


def render_posts(state: BuilderState, sources: Sequence[SourceFile], config: SiteConfig,
                 shortcodes: "ShortcodeSet | None", base: str, jobs: int,
                 theme: Theme = DEFAULT_THEME, publishing: "Publishing | None" = None) -> RenderedPosts:
    """Each source's post: the same SourceFile object as last build keeps its outcome; otherwise the
    fingerprint of its text finds it in the posts cache, or it is rendered (in a pool when many).

    base: the key of the code, the configuration and the templates the posts are rendered under; publishing: the
    page engine's content_publishing() (pools.render_source)."""
    from ..core import progress
    progress.stage("markdown")
    root = str(Path(config.root))
    needed: list[tuple[SourceFile, str]] = []
    results: dict[str, RenderOutcome] = {}
    known = state.remembered
    state.remembered = {}
    for source in sources:
        remembered = known.get(source.rel_path)
        if remembered is not None and remembered.source is source and remembered.base == base:
            state.remembered[source.rel_path] = remembered
            results[source.rel_path] = remembered.outcome
            continue
        if not source.has_text:   # a resumed state's source, wanted afresh (templates changed): read it
            refilled = refill(state, source, root)
            if not isinstance(refilled, SourceFile):
                results[source.rel_path] = RenderOutcome(None, (), (refilled,))
                continue
            source = refilled
        # Hashed only when the SourceFile is new: a rebuild does not hash every file's text.
        fingerprint = fingerprint_of(base, source.rel_path, source.path, source.text, "|".join(source.resources))
        cached = state.rendered.get(fingerprint)
        if cached is not None:
            results[source.rel_path] = cached
            state.remembered[source.rel_path] = RememberedRender(source, base, fingerprint, cached)
        else:
            needed.append((source, fingerprint))
    outcomes = render_sources(needed, config, shortcodes, jobs, theme, publishing)
    new_posts = False
    for (source, fingerprint), outcome in zip(needed, outcomes, strict=True):
        results[source.rel_path] = outcome
        state.remembered[source.rel_path] = RememberedRender(source, base, fingerprint, outcome)
        new_posts = new_posts or outcome.post is not None
    state.rendered = {outcome.post.fingerprint: outcome for outcome in (results[source.rel_path]
                                                                        for source in sources)
                      if outcome.post is not None}
    posts: list[Post] = []
    warnings: list[SourceWarning] = []
    errors: list[BlogbuildError] = []
    for source in sources:
        post, post_warnings, post_errors = results[source.rel_path]
        warnings.extend(post_warnings)
        errors.extend(post_errors)
        if post is not None:
            posts.append(post)
    return RenderedPosts(posts, warnings, errors, len(needed), len(sources) - len(needed), new_posts)
