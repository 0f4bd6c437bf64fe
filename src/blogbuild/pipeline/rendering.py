"""The posts stage with memory: each source's post from the last build, the disk cache, or a fresh render."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from ..config import SiteConfig
from ..core.errors import BlogbuildError, SourceWarning
from ..core.model import Post, SourceFile
from ..core.fingerprint import fingerprint_of
from ..themes import Theme
from ..themes.default import DEFAULT_THEME
from . import pools
from .pools import render_sources
from .reading import read_sources, refill
from .state import BuilderState, RememberedRender, RenderOutcome
from ..core.records import dataclass

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


def post_fingerprint(base: str, source: SourceFile) -> str:
    """What a post's render is kept by: the key its posts are rendered under (code, configuration, templates)
    and its file's path, text and resources."""
    return fingerprint_of(base, source.rel_path, source.path, source.text, "|".join(source.resources))


def with_cascades(state: BuilderState, sources: Sequence[SourceFile], config: SiteConfig, base: str) -> str:
    """A Hugo site's cascades (core/cascade.py) gathered from its list pages' _index.md files and its config, set
    for its posts about to render; the key they render under, which takes the cascades in."""
    from ..core.cascade import Cascades, set_cascades
    if not config.markup.render_hooks:   # a Hugo site's own layouts only
        set_cascades(config.language, Cascades())
        return base
    root = str(Path(config.root))
    owners = {}
    for source in sources:
        if source.kind != "section":
            continue
        if not source.has_text:
            refilled = refill(state, source, root)
            if not isinstance(refilled, SourceFile):
                continue
            source = refilled
        entries = _own_cascade(source.rel_path, source.path, source.text, config)
        if entries:
            owners[_page_path(source.rel_path, config)] = entries
    cascades = Cascades(owners, _config_cascade(config), "development" if config.serving else "production")
    set_cascades(config.language, cascades)
    return f"{base}:{cascades.key}" if cascades else base


def _page_path(rel_path: str, config: SiteConfig) -> str:
    from ..core.cascade import page_path
    return page_path(rel_path, (language.key for language in config.languages))


def _config_cascade(config: SiteConfig) -> tuple:
    from ..core.cascade import cascade_entries
    return cascade_entries(config.hugo_cascade)


def _own_cascade(rel_path: str, path: str, text: str, config: SiteConfig) -> tuple:
    """The cascade an _index.md's front matter holds (none when its front matter does not parse: its render says
    why)."""
    from ..content.posts import as_hugo_reads
    from ..core.cascade import cascade_entries
    from ..disk.frontmatter import parse_front_matter
    if "cascade" not in text.lower():
        return ()
    try:
        data = parse_front_matter(SourceFile(path, rel_path, text, kind="section")).data
    except BlogbuildError:
        return ()
    return cascade_entries(as_hugo_reads(data, config).get("cascade"))


def _still_rendered(known: Mapping[str, RememberedRender], source: SourceFile, base: str) -> RememberedRender | None:
    """The last build's render of the very same SourceFile under the same key, if it made one."""
    remembered = known.get(source.rel_path)
    return remembered if remembered is not None and remembered.source is source and remembered.base == base else None


def needed_posts(state: BuilderState, sources: Sequence[SourceFile], base: str) -> list[tuple[SourceFile, str]]:
    """The sources with text whose render neither the last build nor the posts cache holds, with their
    fingerprints (what render_posts will render, for a pool that renders ahead)."""
    needed = []
    for source in sources:
        if not source.has_text or _still_rendered(state.remembered, source, base) is not None:
            continue
        fingerprint = post_fingerprint(base, source)
        if fingerprint not in state.rendered:
            needed.append((source, fingerprint))
    return needed


def _named_pages_hold(outcome: RenderOutcome, source: SourceFile, config: SiteConfig) -> bool:
    """Whether each page a post's content named while it rendered (Post.page_lookups) is still the one found:
    a page it named that appeared or went renders it again."""
    post = outcome.post
    if post is None or not post.page_lookups:
        return True
    from ..core.page_lookups import lookups_hold
    return lookups_hold(config.language, source.rel_path, post.page_lookups)


def render_posts(state: BuilderState, sources: Sequence[SourceFile], config: SiteConfig,
                 shortcodes: "ShortcodeSet | None", base: str, jobs: int,
                 theme: Theme = DEFAULT_THEME, publishing: "Publishing | None" = None,
                 ahead: Mapping[str, RenderOutcome] | None = None) -> RenderedPosts:
    """Each source's post: the same SourceFile object as last build keeps its outcome; otherwise the
    fingerprint of its text finds it in the posts cache, or it is rendered (in a pool when many).

    base: the key of the code, the configuration and the templates the posts are rendered under; publishing: the
    page engine's content_publishing() (pools.render_source); ahead: posts this build rendered already, by
    fingerprint (a multilingual site's languages in one pool): counted as rendered, not rendered again."""
    from ..core import progress
    from ..core.page_lookups import set_content_files
    progress.stage("markdown")
    root = str(Path(config.root))
    set_content_files(config.language, (source.rel_path for source in sources))   # what GetPage finds
    base = with_cascades(state, sources, config, base)
    needed: list[tuple[SourceFile, str]] = []
    results: dict[str, RenderOutcome] = {}
    known = state.remembered
    state.remembered = {}
    for source in sources:
        remembered = _still_rendered(known, source, base)
        if remembered is not None and _named_pages_hold(remembered.outcome, source, config):
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
        fingerprint = post_fingerprint(base, source)
        cached = state.rendered.get(fingerprint)
        if cached is not None and _named_pages_hold(cached, source, config):
            results[source.rel_path] = cached
            state.remembered[source.rel_path] = RememberedRender(source, base, fingerprint, cached)
        else:
            needed.append((source, fingerprint))
    ahead = ahead or {}
    fresh = iter(render_sources([job for job in needed if job[1] not in ahead], config, shortcodes, jobs, theme,
                                publishing))
    outcomes = [ahead[fingerprint] if fingerprint in ahead else next(fresh) for _, fingerprint in needed]
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


def render_ahead(languages: Sequence[tuple[BuilderState, SiteConfig, Theme, "Publishing | None", str]],
                 jobs: int) -> list[dict[str, RenderOutcome]]:
    """A multilingual site's posts to render, every language's in one pool of workers, by fingerprint for each
    language (its render_posts then takes them as `ahead`): built one after another, each language would start
    a pool of its own, and render a small one in this process alone. Each language is (its builder's state,
    config, theme, content_publishing(), the key its posts render under); nothing when there are few."""
    from ..core import progress
    from ..core.page_lookups import set_content_files
    needed = []
    for state, config, _, _, base in languages:
        sources = read_sources(state, config, None).sources
        set_content_files(config.language, (source.rel_path for source in sources))   # what GetPage finds
        needed.append(needed_posts(state, sources, with_cascades(state, sources, config, base)))
    ahead: list[dict[str, RenderOutcome]] = [{} for _ in languages]
    if jobs <= 1 or not pools.can_fork() or sum(len(posts) for posts in needed) < pools.POSTS_PER_POOL:
        return ahead
    progress.stage("markdown")
    work = [(index, source, fingerprint) for index, posts in enumerate(needed) for source, fingerprint in posts]
    outcomes = pools.render_in_pool([pools.language_of(config, theme, publishing)
                                     for _, config, theme, publishing, _ in languages], work, jobs)
    for (index, _, fingerprint), outcome in zip(work, outcomes, strict=True):
        ahead[index][fingerprint] = outcome
    return ahead
