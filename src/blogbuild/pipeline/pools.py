"""The worker pools: markdown of many posts, and templates of many pages, in forked processes.

Small batches run in this process (a pool costs more than it saves). Errors come back as values.
"""
from __future__ import annotations

import gc
import os
import pickle
import signal
import struct
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from ..config import SiteConfig
from ..core.errors import BlogbuildError, SourceError
from ..core.model import SourceFile, TextMetrics
from ..core.fingerprint import fingerprint_of
from ..core.frames import read_frames, write_frame
from ..disk.output import check_output_path
from ..themes import Theme
from ..themes.default import DEFAULT_THEME
from .state import RenderOutcome

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from ..core.model import FrontMatter, Post
    from ..publish.outputs import PlannedPage
    from ..templating import PageEngine
    from ..markdown.shortcodes import ShortcodeSet

# The page engine's content_publishing(): a render's context in which what it publishes fills the dict.
Publishing = Callable[[], "AbstractContextManager[dict[str, str]]"]

# A post's measures before they are made (a Hugo site's own layouts: pools.render_source makes them of Hugo's).
UNMEASURED = TextMetrics(plain_text="", word_count=0, reading_minutes=0, summary_html="", truncated=False)

POSTS_PER_POOL = 64      # fewer posts than this render in this process
PAGES_PER_POOL = 200     # fewer pages than this render in this process


def render_source(source: SourceFile, config: SiteConfig, shortcodes: "ShortcodeSet | None",
                  fingerprint: str, publishing: "Publishing | None" = None,
                  store: dict[str, Any] | None = None, measure: bool = True) -> RenderOutcome:
    """One content file through front matter, markdown and text metrics; errors are returned, not raised.
    publishing: the page engine's content_publishing(), in whose context the markdown renders (what its shortcodes
    and hooks publish becomes the post's published_files). store: the page's Store as its layouts have set it,
    which its shortcodes and render hooks then read and write (a new empty one when None). measure: the post's
    own measures (text.py); else, on a Hugo site whose own layouts render its pages, Hugo's (page_text.py), which
    the layouts read anyway."""
    from contextlib import nullcontext
    from dataclasses import replace
    from ..disk.frontmatter import parse_front_matter
    from ..markdown import render_post
    from ..content.posts import as_hugo_reads, make_post, shortcode_page
    try:
        front_matter = parse_front_matter(source)
        front_matter = replace(front_matter, data=as_hugo_reads(front_matter.data, config))
        if config.markup.render_hooks:   # a Hugo site's own layouts: what its cascades hand down
            front_matter = _cascaded(front_matter, source, config)
        # What Go shortcodes, the param shortcode and a Hugo site's render hooks see of the page (only where one
        # may run).
        page = shortcode_page(source, front_matter.data, config) \
            if "{{" in front_matter.body or config.markup.render_hooks else None
        if page is not None and store is not None:
            object.__setattr__(page, "store", store)
        from ..core.page_lookups import looking_up_pages
        try:
            # The text measures come from the same tokens as the HTML: one parse per post.
            with publishing() if publishing is not None else nullcontext({}) as published, \
                    looking_up_pages() as lookups:
                rendered, metrics = render_post(front_matter.body, path=source.path,
                                                line_offset=front_matter.body_line - 1, config=config,
                                                shortcodes=shortcodes, page=page,
                                                measure=measure or not config.markup.render_hooks)
        except SourceError as error:   # a repaired text's line: name the file's own
            if not front_matter.line_map or error.path != source.path:
                raise
            raise SourceError(error.path, front_matter.file_line(error.line), error.message, stage=error.stage,
                              column=error.location.column, source_line=error.source_line) from error.__cause__
        typeset = None
        if config.math_render == "build" and rendered.has_math:
            # After the text measures: search, summaries' text and the TOC keep the plain TeX.
            from ..content.katex import PostTypesetter
            typeset = PostTypesetter(dict(config.math_macros))
        post, warnings = make_post(source, front_matter, rendered, metrics or UNMEASURED, config, fingerprint,
                                   typeset)
        if typeset is not None:
            warnings = (*warnings, *typeset.warnings(post, source.text, front_matter.body_line))
        if published:
            post = replace(post, published_files=tuple(sorted(published.items())))
        if lookups:
            post = replace(post, page_lookups=tuple(sorted(lookups)))
        if config.markup.render_hooks and len(config.languages) > 1 and post.resources:
            from ..content.posts import shared_files_at
            elsewhere = shared_files_at(config, source.rel_path, post.url)
            post = replace(post, shared_files_at=elsewhere[0]) if elsewhere else post
        if config.markup.render_hooks:   # a Hugo site's own layouts: its text measures, once a post
            from ..hugo.gotemplate import hugo_text
            text = hugo_text(post, config)
            post = replace(post, hugo_text=text, **({} if metrics is not None else _measured(post, text, config)))
        return RenderOutcome(post, warnings, ())
    except SourceError as error:
        return RenderOutcome(None, (), (error,))
    except RecursionError:
        return RenderOutcome(None, (), (SourceError(source.path, 1, "too deeply nested to render (quotes or "
                                                    "lists thousands of levels deep); flatten the nesting",
                                                    stage="markdown"),))


def _cascaded(front_matter: "FrontMatter", source: SourceFile, config: SiteConfig) -> "FrontMatter":
    """The front matter with what reaches the page of its cascades (core/cascade.py): its own, its sections',
    the config's; the fields it sets itself stay."""
    from dataclasses import replace
    from ..core.cascade import cascade_entries, cascades_of, page_kind, page_path, with_cascade
    cascades = cascades_of(config.language)
    given = front_matter.data.get("cascade")
    if given is not None and not (isinstance(given, Mapping) or (isinstance(given, (list, tuple)) and all(
            isinstance(item, Mapping) for item in given))):   # Hugo refuses the page too: "expected a map"
        from ..core.keys import key_line
        raise SourceError(source.path, key_line(source.text, "cascade"),
                          "cascade must be a map of front matter (and an optional target), or a list of such maps, "
                          f"not {type(given).__name__} {str(given)[:40]!r}; write it as `cascade:` followed by "
                          "indented `key: value` lines")
    own = cascade_entries(given)
    if not cascades and not own:
        return front_matter
    path = page_path(source.rel_path, (language.key for language in config.languages))
    kind = page_kind(path, source.kind == "section", config.taxonomies)
    data = with_cascade(front_matter.data, cascades.values_for(path, kind, config.language, own))
    return front_matter if data is front_matter.data else replace(front_matter, data=data)


def _measured(post: "Post", text: tuple[Any, ...], config: SiteConfig) -> dict[str, Any]:
    """The post's own measures made of Hugo's (hugo_measures), a divider's summary cut as blogbuild cuts it."""
    from ..content.text import plain_text, summarize
    from ..hugo.gotemplate import hugo_measures
    measures = hugo_measures(post, text, config)
    if "summary_html" not in measures and not post.summary_html:   # the content has a summary divider
        summary, truncated = summarize(post.content_html, length=config.summary_length)
        measures.update(summary_html=summary, truncated=truncated or post.truncated,
                        summary_text=plain_text(summary) if summary else "")
    return measures


def content_again(config: SiteConfig, shortcodes: "ShortcodeSet", drawn_by_site: frozenset[str],
                  post: "Post", store: dict[str, Any], posts: Sequence["Post"]) -> "tuple[Post, bool] | None":
    """A post's content as Hugo renders it when a layout first reads it, with the page's Store as its layouts
    have set it: (the post with that content, whether it was rendered whole). When the markdown stage kept the
    hook calls that read the Store (Post.hook_replays), only they run again, their HTML put in place of what
    they drew before (the rest of the content, and what its render wrote to the Store and published, stand);
    else the whole content is rendered again from its file, writing to the Store and publishing as it goes, its
    links resolved against the site's posts as the links stage resolves them (the tables made once for those
    posts). None when the file cannot be read or renders with an error (the markdown stage's content then
    stands; that render reported its problems)."""
    from ..content.links import link_post, link_tables
    from ..disk.sources import MAX_SOURCE_BYTES
    if post.hook_replays:
        replayed = _hooks_again(config, shortcodes, post, store)
        if replayed is not None:
            return replayed, False
    path = Path(post.source)
    path = path if path.is_absolute() else Path(config.root) / path
    try:   # the file the markdown stage read (and checked): read again, within the same bound
        if path.stat().st_size > MAX_SOURCE_BYTES:
            return None
        text = path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except (OSError, UnicodeDecodeError):
        return None
    source = SourceFile(post.source, post.rel_path, text, "page", post.resources)
    outcome = render_source(source, config, shortcodes, post.fingerprint, None, store, measure=False)
    if outcome.post is None:
        return None
    kept = _LINK_TABLES.get("tables")
    if kept is None or kept[0] is not posts or kept[1] != drawn_by_site:   # the site's posts of this build
        kept = _LINK_TABLES["tables"] = (posts, drawn_by_site, link_tables(posts, config, drawn_by_site))
    linked, errors, _warnings, _nothing = link_post(outcome.post, kept[2])
    return None if errors else (linked, True)


def _hooks_again(config: SiteConfig, shortcodes: "ShortcodeSet", post: "Post",
                 store: dict[str, Any]) -> "Post | None":
    """The post with its kept hook calls (Post.hook_replays) drawn again with the page's Store, sealed against
    writes; None when one cannot run or writes, or when what it draws now would need what the markdown stage did
    after the hooks (links to resolve, formulas to typeset) or cannot be found in the content as it drew it. The
    hooks' `.Page` is made as the markdown stage made it, from the post's front matter (Post.params), without
    reading its file again."""
    from ..content.posts import shortcode_page
    from ..hugo.gotemplate import ContentStore
    from ..markdown.render import page_render_hooks
    source = SourceFile(post.source, post.rel_path, "", "page", post.resources)
    page = shortcode_page(source, post.params, config)
    sealed = ContentStore(store)
    sealed.sealed = True
    object.__setattr__(page, "store", sealed)
    hooks = page_render_hooks(config, shortcodes, page)
    return _spliced(post, hooks) if hooks is not None else None


def _spliced(post: "Post", hooks: Any) -> "Post | None":
    """The post with what its kept hook calls draw with these hooks in place of what they drew before."""
    from dataclasses import replace
    from ..core.model import pack_html
    from ..content.content_links import has_links_to_rewrite
    from ..markdown.hooks import drawn_key, find_drawn, replay_hooks
    html, places, cursor = post.content_html, [], 0
    for call in post.hook_replays:   # where each call's HTML stands, in order
        at = find_drawn(html, call[-1], cursor)
        if at < 0:
            return None
        places.append(at)
        cursor = at + call[-1][1]
    # The highlights each call made, read from its HTML in place: the same code, language and options.
    highlighted = [{key: html[at + start:at + start + length] for key, start, length in call[-2]}
                   for call, at in zip(post.hook_replays, places, strict=True)]
    drawn = replay_hooks(post.hook_replays, hooks, highlighted)
    if drawn is None:
        return None
    pieces, cursor, changed = [], 0, False
    for call, at, now in zip(post.hook_replays, places, drawn, strict=True):
        if drawn_key(now) != call[-1]:
            if post.has_math or has_links_to_rewrite(now):
                return None
            changed = True
        pieces += [html[cursor:at], now]
        cursor = at + call[-1][1]
    return replace(post, packed_html=pack_html("".join([*pieces, html[cursor:]]))) if changed else post


# content_again's link tables: (the posts they were made of, drawn_by_site, LinkTables), one build's at a time.
_LINK_TABLES: dict[str, tuple[Sequence["Post"], frozenset[str], Any]] = {}


def die_with_parent(parent: int) -> None:
    """In a forked worker: be killed when the process that forked it dies (a SIGKILL of `blogbuild build`
    leaves no worker running). Linux's PR_SET_PDEATHSIG; elsewhere the pool's own broken pipe ends them."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)   # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:   # the parent died before the signal was asked for
        os._exit(1)


_TICKET = struct.Struct("<I")   # a chunk's number, as the pipe of tickets holds it
_MAX_CHUNKS = 4096              # tickets of 4 bytes: all of them fit in a pipe's buffer (64 KiB on Linux)


def shared_map(function: Callable[[int], Any], count: int, jobs: int) -> list[Any]:
    """[function(index) for index in range(count)], the work shared between this process and jobs - 1 helpers
    forked from it, which inherit everything it holds (nothing is pickled but their results). The indexes
    come in chunks, eight for each process, whose numbers wait in a pipe: whoever is free reads the next one
    (a pipe's read of four bytes takes one whole ticket), so a slow chunk holds nobody up. This process takes
    its share rather than waiting: one fork fewer than a pool of `jobs` workers, whose copies of the heap's
    pages (a fork copies a page when either side first writes to it, and every object read is written: its
    reference count) and whose warming up of caches were a tenth of a 1,000-post build's CPU. A helper that
    fails (a bug, a kill) loses nothing: the chunks it took and did not send back are done here at the end,
    where a bug raises as it would without helpers."""
    size = max(1, -(-count // (jobs * 8)), -(-count // _MAX_CHUNKS))
    chunks = [range(start, min(start + size, count)) for start in range(0, count, size)]
    tickets, filler = os.pipe()
    os.write(filler, b"".join(_TICKET.pack(number) for number in range(len(chunks))))
    os.close(filler)   # once the tickets are taken, a read finds the end of the pipe
    gc.freeze()   # the helpers' collections then skip (and do not copy) the inherited heap
    helpers = [helper for helper in (_Helper.fork(function, chunks, tickets) for _ in range(jobs - 1)) if helper]
    for helper in helpers:   # the threads once every helper is forked: none is copied into a helper
        helper.reader.start()
    done: dict[int, list[Any]] = {}
    try:
        for number in _taken(tickets):
            done[number] = [function(index) for index in chunks[number]]
    except BaseException:   # an error (or ^C) here ends the helpers' work too
        for helper in helpers:
            helper.kill()
        raise
    finally:
        os.close(tickets)
        for helper in helpers:
            done.update(helper.results())
    for number, chunk in enumerate(chunks):   # taken by a helper that failed
        if number not in done:
            done[number] = [function(index) for index in chunk]
    return [result for number in range(len(chunks)) for result in done[number]]


def _taken(tickets: int) -> Iterator[int]:
    """The numbers of the chunks this process takes, one at a time, until none is left."""
    while True:
        data = os.read(tickets, _TICKET.size)
        if len(data) < _TICKET.size:
            return
        yield _TICKET.unpack(data)[0]


class _Helper:
    """A process forked to take chunks from the pipe of tickets; a thread of this one reads what it sends
    back as it comes (it never waits on a full pipe while this process works)."""

    def __init__(self, pid: int, read: int) -> None:
        self.pid = pid
        self.sent: list[tuple[int, bytes]] = []   # (chunk's number, its pickled results), as they arrived
        self.reader = threading.Thread(target=self._read, args=(read,), name="shared-map", daemon=True)

    @classmethod
    def fork(cls, function: Callable[[int], Any], chunks: list[range], tickets: int) -> "_Helper | None":
        read, write = os.pipe()
        parent = os.getpid()
        try:
            pid = os.fork()
        except OSError:   # no process to spare: this one does the work
            os.close(read)
            os.close(write)
            return None
        if pid == 0:   # the helper: never returns into the caller's code, never runs its exit handlers
            code = 1
            try:
                die_with_parent(parent)
                os.close(read)
                with os.fdopen(write, "wb") as pipe:
                    for number in _taken(tickets):
                        made = [function(index) for index in chunks[number]]
                        write_frame(pipe, number, pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        return cls(pid, read)

    def _read(self, read: int) -> None:
        self.sent.extend(read_frames(read))

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def results(self) -> dict[int, list[Any]]:
        """The chunks it sent whole, once it has ended (by their numbers)."""
        self.reader.join()
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        results: dict[int, list[Any]] = {}
        for number, data in self.sent:
            try:
                results[number] = pickle.loads(data)
            except Exception:   # noqa: BLE001 - a chunk that does not unpickle: done again in this process
                continue
        return results


# A pool's workers get each language's config once (a site of one language has one) and load its shortcodes
# the first time they render one of its posts (they are Jinja templates: not worth pickling); a job is then
# only its language's index, its source file and fingerprint.
# (template dirs, folders inside the site, config, content_publishing(), whether posts make their own measures)
WorkerLanguage = tuple[list[str], tuple[str, ...], SiteConfig, "Publishing | None", bool]
_WORKER_LANGUAGES: list[WorkerLanguage] = []
_WORKER_SHORTCODES: dict[int, Any] = {}


def _render_in_worker(job: tuple[int, SourceFile, str]) -> RenderOutcome:
    from ..markdown.shortcodes import load_shortcodes
    index, source, fingerprint = job
    assert _WORKER_LANGUAGES, "a worker renders only inside render_in_pool"
    template_dirs, inside, config, publishing, measure = _WORKER_LANGUAGES[index]
    shortcodes = _WORKER_SHORTCODES.get(index)
    if shortcodes is None:
        shortcodes = _WORKER_SHORTCODES[index] = load_shortcodes([Path(folder) for folder in template_dirs],
                                                                 inside, config)
    return render_source(source, config, shortcodes, fingerprint, publishing, measure=measure)


def language_of(config: SiteConfig, theme: Theme = DEFAULT_THEME, publishing: "Publishing | None" = None) -> WorkerLanguage:
    """What a pool's workers need to render a language's posts (each site of a multilingual one is one)."""
    from ..disk.sources import site_folders, template_dirs
    return ([str(folder) for folder in template_dirs(config, theme)], site_folders(config), config, publishing,
            own_measures(theme))


def own_measures(theme: Theme) -> bool:
    """Whether posts rendered for pages of this theme make their own measures (text.py): all but a Hugo site's
    own layouts, which read Hugo's (page_text.py)."""
    return theme.engine is None


def render_in_pool(languages: list[WorkerLanguage], jobs_needed: Sequence[tuple[int, SourceFile, str]],
                   jobs: int) -> list[RenderOutcome]:
    """render_source for each (language's index, source, fingerprint), in one pool of forked workers."""
    highlighting = {index for index, (_dirs, _inside, config, _publishing, _measure) in enumerate(languages)
                    if config.markup.render_hooks}   # a Hugo site's own layouts: Chroma highlights as Hugo does
    if highlighting:
        from ..markdown.code import compile_lexers
        compile_lexers([source.text for index, source, _fingerprint in jobs_needed if index in highlighting])
    global _WORKER_LANGUAGES
    _WORKER_LANGUAGES = languages   # this process renders its share too, as the helpers forked from it do
    try:
        return shared_map(lambda index: _render_in_worker(jobs_needed[index]), len(jobs_needed), jobs)
    finally:
        _WORKER_LANGUAGES = []
        _WORKER_SHORTCODES.clear()


def render_sources(jobs_needed: Sequence[tuple[SourceFile, str]], config: SiteConfig,
                   shortcodes: "ShortcodeSet | None", jobs: int, theme: Theme = DEFAULT_THEME,
                   publishing: "Publishing | None" = None) -> list[RenderOutcome]:
    """render_source for each (source, fingerprint), in worker processes when there are many."""
    if len(jobs_needed) < POSTS_PER_POOL or jobs <= 1:
        return [render_source(source, config, shortcodes, fingerprint, publishing, measure=own_measures(theme))
                for source, fingerprint in jobs_needed]
    return render_in_pool([language_of(config, theme, publishing)],
                          [(0, source, fingerprint) for source, fingerprint in jobs_needed], jobs)


class InBackground:
    """A function run in a forked process while this one goes on; its (pickled) result read back at the end.
    Whatever goes wrong there (an exception, a crash, a kill) makes result() None: the caller then does the
    work itself, so running in the background can only save time, never change the outcome."""

    def __init__(self, function: Callable[[], Any]) -> None:
        import pickle
        read, write = os.pipe()
        gc.freeze()   # as before a pool: the child's collections then skip (and do not copy) the inherited heap
        parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:   # the child: never returns into the caller's code, never runs its exit handlers
            code = 1
            try:
                die_with_parent(parent)
                os.close(read)
                data = pickle.dumps(function(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write, "wb") as pipe:
                    pipe.write(data)
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        self._read = read

    def result(self) -> Any:
        """The function's result, once its process has ended; None when it failed."""
        import pickle
        with os.fdopen(self._read, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        if status != 0 or not data:
            return None
        try:
            return pickle.loads(data)
        except Exception:   # a torn result: as if it had failed
            return None


def tune_collector() -> None:
    """A build's objects for this process and the workers it forks: the cyclic collector's youngest generation
    collected every 20,000 allocations instead of Python's 700. A build allocates millions of short-lived
    objects (tokens, template contexts, page fields), almost none in cycles; collecting them 30 times less often
    saves ~0.2 CPU s of a 1,000-post cold build (bench_real_blogs.py), and frees the same objects, later."""
    gc.set_threshold(20_000, 20, 20)


def can_fork() -> bool:
    """Whether work can go to forked processes here (Linux; elsewhere everything runs in this process)."""
    return sys.platform.startswith("linux")


# The pages a forked pool renders: set before forking, so the workers inherit the Site instead of unpickling it.
_FORKED_PAGES: "tuple[PageEngine, Sequence[PlannedPage], str | None] | None" = None

PageOutcome = bytes | str | SourceError   # the page's bytes, the path it was spooled to, or why it failed


def _render_forked(index: int) -> tuple[PageOutcome, frozenset[str] | None]:
    from ..publish.planner import render_template
    assert _FORKED_PAGES is not None
    templates, pages, stage = _FORKED_PAGES
    try:
        body = render_template(templates, pages[index])
    except SourceError as error:
        return error, None
    return (spool(body, stage, pages[index].output_path) if stage else body), templates.take_reads()


def render_pages(templates: "PageEngine", pages: Sequence["PlannedPage"], jobs: int,
                 stage: str | None, reads: dict[str, frozenset[str]] | None = None) -> dict[str, PageOutcome]:
    """Render pages, in forked worker processes when there are many (they inherit the Site, nothing is
    pickled but the bytes coming back); a template that fails once is not tried again. With a stage
    folder, pages are spooled there and their paths come back instead of their bytes. reads, when given, receives
    each rendered page's take_reads() (by output path) from an engine that tracks them."""
    from ..publish.planner import render_template
    global _FORKED_PAGES
    if len(pages) >= PAGES_PER_POOL and jobs > 1 and sys.platform.startswith("linux"):
        _FORKED_PAGES = (templates, pages, stage)
        templates.preload(page.template for page in pages)
        try:
            made = shared_map(_render_forked, len(pages), jobs)
        finally:
            _FORKED_PAGES = None
        if reads is not None:
            reads.update((page.output_path, read) for page, (_, read) in zip(pages, made, strict=True)
                         if read is not None)
        return {page.output_path: body for page, (body, _) in zip(pages, made, strict=True)}
    results: dict[str, PageOutcome] = {}
    failed: dict[str, SourceError] = {}
    for page in pages:
        if page.template in failed:
            results[page.output_path] = failed[page.template]
            continue
        try:
            body = render_template(templates, page)
        except SourceError as error:
            failed[page.template] = error
            results[page.output_path] = error
            continue
        read = templates.take_reads()
        if reads is not None and read is not None:
            reads[page.output_path] = read
        results[page.output_path] = spool(body, stage, page.output_path) if stage else body
    return results


_SPOOL_FOLDERS: set[str] = set()   # folders this process has made in the stage (saves a syscall a page)


def forget_spool_folders() -> None:
    """A new stage folder: the folders made in the last one are not there."""
    _SPOOL_FOLDERS.clear()


def spool(body: bytes, stage: str, output_path: str) -> str:
    """Write a rendered page into the stage folder at its output path and return that path: the build
    keeps paths, not bytes (a 10,000-post build does not hold half a gigabyte of HTML), and when there is
    no spare tree the stage becomes the new output tree as it is (output.write_output). Workers make the
    folders, in parallel. A path that would leave the folder is written aside under a name no page has;
    write_output refuses that page before anything is published."""
    try:
        check_output_path(output_path)
        path = os.path.join(stage, output_path)
    except BlogbuildError:
        path = os.path.join(stage, f".refused-{fingerprint_of(output_path)}")
    folder = os.path.dirname(path)
    if folder not in _SPOOL_FOLDERS:
        os.makedirs(folder, exist_ok=True)
        _SPOOL_FOLDERS.add(folder)
    with open(path, "wb") as handle:
        handle.write(body)
    return path
