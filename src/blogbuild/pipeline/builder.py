"""The Builder: one build as a recipe, sources -> posts -> links -> site -> plan -> pages -> assemble.

A Builder keeps its BuilderState between builds (serve, and a warm `blogbuild build` through the disk
cache), so each build() reads, renders and plans only what changed.
"""
from __future__ import annotations

import contextlib
import gc
import os
import time
from dataclasses import replace
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from ..config import Language, SiteConfig, for_language
from ..core.errors import BlogbuildError, SourceError, SourceWarning
from ..core.dates import read_dates_in
from ..content.links import resolve_links
from ..core.cache_keys import CACHE_DIR, code_key, config_key, posts_key, templates_key
from ..core.model import OutputFile, Post, Site, Translation
from ..core.fingerprint import fingerprint_of
from ..themes import Theme
from ..themes.default import DEFAULT_THEME
from . import incremental
from .assemble import Assembly, alias_warnings, assemble, copied_files, copied_only, overlay, url_conflicts
from .pages import PageStore
from .pools import InBackground, can_fork, die_with_parent, own_measures
from .reading import read_sources
from .rendering import render_ahead, render_posts
from .result import BuildResult, BuildStats
from .state import BuilderState, DiskCache, LastGood, RenderOutcome, SavedState
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..media.images import ImageStats
    from ..markdown.shortcodes import ShortcodeSet
    from ..publish.outputs import PlannedData, PlannedPage
    from ..templating import PageEngine
    from ..disk.sources import ContentTree, FoundFile, SkippedLink
    from ..hugo.gotemplate import GoTemplates


_MEDIA_SCRATCH: str | None = None   # image variants and cards of builds without a cache (_media_folder)
PUBLISHED_CACHE = "page-files"      # the files page renders published besides the pages (PageEngine.page_files)
VENDORED_OWNER = "<blogbuild's vendored assets>"   # the owner of KaTeX's and mermaid's files a build publishes


def _templates_key(folders: list[Path], inside: tuple[str, ...] = (),
                   walked: dict[Path, list["FoundFile"]] | None = None) -> str:
    """cache_keys.templates_key of the files in these template folders; a link out of the site
    (sources.walk_files) is not read. walked: the folders listed already in this look at the templates (a
    Hugo site's assets folders hold thousands of files), filled in as they are listed."""
    from ..disk.sources import walk_files
    walked = {} if walked is None else walked
    for folder in folders:
        if folder not in walked:
            walked[folder] = walk_files(folder, inside=inside)
    return templates_key((index, item.rel_path, item.path) for index, folder in enumerate(folders)
                         for item in walked[folder])


def _from_cache(files: Iterable[tuple[str, str]], label: str) -> list[tuple[OutputFile, str]]:
    """(output path, file in the cache) as files to publish, linked rather than copied (OutputFile.from_cache)."""
    return [(OutputFile(path, source=file, from_cache=True), label) for path, file in files]


def _as_published(path: str, item: OutputFile, base: str) -> OutputFile:
    """The output file at path as the published tree in base holds it: item itself when it already names that
    file (a page a resumed build did not write again), else a new OutputFile naming it."""
    source = f"{base}/{path}"
    if item.source == source and not (item.data or item.staged or item.from_cache or item.shared):
        return item
    return OutputFile(path, source=source)


def _media_folder(use_cache: bool, root: Path) -> Path:
    """Where image variants and cards are kept: the site's cache, or without a cache a scratch folder
    shared by the process's builders (content-addressed files, so sharing is safe) and removed at exit.
    The scratch folder is named for the process, so a build killed before its exit handlers ran leaves one
    that the next build without a cache removes."""
    if use_cache:
        return root / CACHE_DIR
    global _MEDIA_SCRATCH
    if _MEDIA_SCRATCH is None:
        import atexit
        import shutil
        import tempfile
        _remove_dead_scratch(Path(tempfile.gettempdir()))
        _MEDIA_SCRATCH = tempfile.mkdtemp(prefix=f"{_SCRATCH_PREFIX}{os.getpid()}-")
        atexit.register(shutil.rmtree, _MEDIA_SCRATCH, True)
    return Path(_MEDIA_SCRATCH)


_SCRATCH_PREFIX = "blogbuild-media-"


def _remove_dead_scratch(folder: Path) -> None:
    """Remove the scratch folders in folder of processes that are gone."""
    import shutil
    from ..disk.site_lock import process_alive
    for scratch in folder.glob(f"{_SCRATCH_PREFIX}*-*"):
        pid = scratch.name[len(_SCRATCH_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and scratch.is_dir() and not scratch.is_symlink() and not process_alive(int(pid)):
            shutil.rmtree(scratch, ignore_errors=True)


def _link_warnings(config: SiteConfig, site: Site, assembly: Assembly, edited: list[Post] | None,
                   seen: dict[str, list[SourceWarning]]) -> list[SourceWarning]:
    """Links in posts that lead nowhere (check.content_link_warnings): every post's after a build that may have
    moved pages, only the edited posts' after an edit that kept the site's structure (the others' targets are as
    they were: their warnings are the last full look's, kept in seen, when this builder took one)."""
    from .check import content_link_warnings
    if edited is None:
        seen.clear()
    for post in edited or ():
        seen.pop(post.source, None)
    for warning in content_link_warnings(config, site.pages if edited is None else edited, assembly.files):
        seen.setdefault(warning.path, []).append(warning)
    return [warning for found in seen.values() for warning in found]


def _drawn_by_site(config: SiteConfig, go: "GoTemplates | None") -> frozenset[str]:
    """The content attributes a Hugo site's own render hooks draw ("href": its link hook, "src": its image
    hook), when its own layouts render it."""
    if not config.markup.render_hooks or go is None:
        return frozenset()
    hooks = go.runnable_hooks()
    return frozenset(attribute for attribute, hook in (("href", "render-link"), ("src", "render-image")) if hook in hooks)


def _static_files(config: SiteConfig, theme: Theme) -> tuple[list["FoundFile"], list["SkippedLink"], list[SourceError]]:
    """The static files to publish (the theme's under the site's), the links among them not followed, and
    the folders that could not be read."""
    from ..disk.sources import static_files
    skipped: list["SkippedLink"] = []
    unreadable: list[SourceError] = []
    return static_files(config, skipped, unreadable, theme), skipped, unreadable


def _with_stylesheet(site: Site, copied: list[tuple[OutputFile, str]], config: SiteConfig
                     ) -> tuple[Site, list[tuple[OutputFile, str]], list[SourceWarning]]:
    """The site's own stylesheets (theme.extended_css) as one published file, and the Site that links it."""
    from ..disk.sources import stylesheet_bundle
    from .assemble import SITE_CSS
    bundle, warnings = stylesheet_bundle(config)
    if not bundle:
        return site, copied, warnings
    return (replace(site, stylesheet="/" + SITE_CSS),
            [*copied, (OutputFile(SITE_CSS, bundle), "<the site's stylesheets, theme.extended_css>")], warnings)


@dataclass(frozen=True)
class _Prepared:
    """What the posts half of a build made, for the site half (Builder._finish)."""

    started: float
    changed: set[str] | None
    warnings: list[SourceWarning]
    errors: list[BlogbuildError]
    templates: "_Templates"
    posts: list[Post]
    tree: "ContentTree"
    media: Mapping[str, str]
    static: list["FoundFile"]
    stats: BuildStats


@dataclass(frozen=True)
class _Templates:
    """The templates and shortcodes of one set of template files, and the key of those files."""

    key: str
    templates: "PageEngine"
    shortcodes: "ShortcodeSet"
    skipped: tuple["SkippedLink", ...] = ()   # template links not followed (sources.skipped_templates)
    theme_warnings: tuple[SourceWarning, ...] = ()   # why a Hugo site's own page layouts do not render it
    layouts_key: str = ""     # the key of the Go template files alone (layouts/, themes/*/layouts/, i18n/)


class CacheKeeping:
    """The disk-cache half of a Builder: what it loads when it starts (the rendered posts, a saved state to
    carry on from, the published pages' keys) and what it records and saves after a build is published."""

    config: SiteConfig
    root: Path
    state: BuilderState
    pages: PageStore
    keep_state: bool
    use_cache: bool
    resumed: bool
    _cache: DiskCache
    _cache_warnings: list[SourceWarning]
    _languages: list[tuple[Language, "Builder"]]
    _posts_dirty: bool
    _published_dirty: bool
    _templates: "_Templates | None"
    theme: Theme

    @staticmethod
    def disk_cache_for(config: SiteConfig) -> DiskCache:
        """The disk cache a builder of this configuration uses (naming its files reads none of them)."""
        return DiskCache(Path(config.root) / CACHE_DIR, config_key(config), posts_key(config), code_key())

    @property
    def disk_cache(self) -> DiskCache:
        """Where this builder's caches live on disk (their files named by code and configuration)."""
        return self._cache

    def _load_cache(self, resume: str | None, output_dir: Path | None) -> None:
        loaded = self._cache.load()
        self._cache_warnings = loaded.warnings
        self.state.rendered = loaded.rendered
        root = os.path.abspath(self.root)
        if resume is not None and loaded.state is not None and loaded.state.build_id == resume:
            # Take up the saved state (made in this folder, or in another one this site was cloned from);
            # the published files stand in for the last build's output.
            state = loaded.state.state.relocated(loaded.state.root, root).published_at(str(output_dir),
                                                                                     loaded.state.outputs)
            self.state = replace(state, rendered=loaded.rendered)
            self.resumed = True
        self.pages.published = loaded.published
        if loaded.output_dir is not None:
            self.pages.published_dir = os.path.join(self.root, loaded.output_dir)

    def _posts_base(self, templates: "_Templates") -> str:
        """The key this builder's posts render under: the code, the posts' configuration, the templates, and
        whose measures they make (a Hugo site's own layouts read Hugo's: pools.own_measures)."""
        return fingerprint_of(self._cache.code_key, posts_key(self.config), templates.key,
                              str(own_measures(self.theme)))

    def _list_key(self, post: Post) -> str:
        """A post's list entry key, kept in the state by the post's fingerprint."""
        key = self.state.list_keys.get(post.fingerprint)
        if key is None:
            from ..publish.planner import post_list_key
            key = post_list_key(post)
            self.state.list_keys[post.fingerprint] = key
        return key

    def record_published(self, output_dir: Path, stats: Mapping[str, list | None] | None = None) -> None:
        """Remember each written page's key, size and mtime, so the next process can reuse it (see save_cache).
        stats: manifest.snapshot_outputs() of the same tree, when taken, so no file is stated twice."""
        if not self.use_cache:
            return
        from .languages import MOVED_FILES
        for language, builder in self._languages:
            builder.record_published(output_dir / language.prefix)
            for moved in MOVED_FILES:   # not at its path under the language's folder (languages.language_files)
                builder.pages.published.pop(moved, None)
        self.pages.record(output_dir, self.state.output_keys, stats)
        self._published_dirty = True

    def published(self, output_dir: Path) -> None:
        """The last build's output is now the published tree: let go of its bytes (the feeds and the search
        index, 40 MB at 10,000 posts), so saving the cache does not hold them too (the peak of a build)."""
        for language, builder in self._languages:
            builder.published(output_dir / language.prefix)
        base = str(output_dir)
        self.state.previous = {path: _as_published(path, item, base) for path, item in self.state.previous.items()}
        self.pages.cache.clear()

    def save_cache(self, build_id: str | None = None) -> None:
        """Write the rendered-posts cache and the published-page keys (atomically) when they changed; with
        build_id (and keep_state), the builder's state too, under that id."""
        if not self.use_cache:
            return
        if self._languages:
            for _, builder in self._languages:
                builder.save_cache()
            return
        if self._published_dirty and self.pages.published_dir is not None:
            published_dir = os.path.abspath(self.pages.published_dir)
            relative = os.path.relpath(published_dir, os.path.abspath(self.root))
            self._cache.save_published(published_dir if relative.startswith("..") else relative,
                                       self.pages.published)
            self._published_dirty = False
        if not self._posts_dirty and build_id is None:
            return
        saved = None
        if build_id is not None and self.keep_state and self.state.last_good is not None:
            if self._templates is not None:
                self.state.closure = self._templates.templates.closures()
            saved = SavedState(build_id, self.state.saved(), os.path.abspath(self.root), tuple(self.state.previous))
        self._cache.save_posts(self.state.rendered, saved)
        self._posts_dirty = False


class TemplateKeeping:
    """The templates half of a Builder: the theme (a Hugo site's own page layouts when blogbuild can run them)
    and its page engine, made again only when a template file changed."""

    config: SiteConfig
    theme: Theme
    state: BuilderState
    pages: PageStore
    use_cache: bool
    root: Path
    _templates: _Templates | None
    _chooses_theme: bool
    _failed_layouts: str          # the templates key of own layouts that failed on a page ("" none)
    _cache_warnings: list[SourceWarning]
    stage_dir: str | None
    jobs: int

    def _load_templates(self) -> _Templates:
        """The templates, made again only when a template file changed (then rendered pages are stale)."""
        from ..disk.sources import go_template_folders, site_folders, skipped_templates, template_dirs
        dirs = template_dirs(self.config, self.theme)
        inside = site_folders(self.config)
        go_folders = go_template_folders(self.config)
        walked: dict[Path, list["FoundFile"]] = {}
        key = _templates_key([*dirs, *go_folders], inside, walked)
        if self._templates is not None and self._templates.key == key:
            return self._templates
        from ..publish.environment import page_engine
        from ..markdown.shortcodes import load_shortcodes
        shortcodes = load_shortcodes(dirs, inside, self.config)
        layouts_key = _templates_key(go_folders, inside, walked)
        theme_warnings = self._choose_theme(shortcodes.go, layouts_key)
        chosen_dirs = template_dirs(self.config, self.theme)
        if chosen_dirs != dirs:   # kept under the chosen theme's key, which the next call computes
            dirs = chosen_dirs
            key = _templates_key([*dirs, *go_folders], inside, walked)
        make = self.theme.engine or partial(page_engine, theme=self.theme)
        templates = make(self.config, dirs, shortcodes.go)
        templates.keep_files_in(_media_folder(self.use_cache, self.root) / PUBLISHED_CACHE)
        from .pools import content_again
        templates.render_content_with(partial(content_again, self.config, shortcodes,
                                              _drawn_by_site(self.config, shortcodes.go)))
        if key == self.state.templates_key:   # a resumed state: same templates, known closures
            templates.remember_closures(self.state.closure)
        else:
            self.pages.cache.clear()
        self.state.templates_key = key
        self._templates = _Templates(key, templates, shortcodes,
                                     tuple(skipped_templates(self.config)), tuple(theme_warnings), layouts_key)
        return self._templates

    def _layouts_failed(self, errors: Sequence[BlogbuildError], key: str) -> bool:
        """Whether the site's own layouts failed on a page (a field or function blogbuild lacks, found only when
        it runs): then the default theme renders the site, with one warning naming the first failure."""
        if not self._chooses_theme or self.theme is DEFAULT_THEME:
            return False
        failed = next((error for error in errors if isinstance(error, SourceError) and error.stage == "template"),
                      None)
        if failed is None:
            return False
        self._failed_layouts = key
        self._templates = None
        self._cache_warnings.append(SourceWarning(failed.path, failed.line, f"{failed.message.split('; port')[0]}; "
                                                  "blogbuild cannot run the site's layouts, the default theme "
                                                  "renders the pages instead (see docs/go-templates.md)"))
        return True

    def _choose_theme(self, go: "GoTemplates | None", key: str) -> list[SourceWarning]:
        """A Hugo site's own page layouts become the theme when blogbuild can run them (hugo/site_theme.py);
        the warnings say why not when the site has some it cannot. Layouts that failed on a page stay unused
        until a Go template file changes (key: theirs alone)."""
        if not self._chooses_theme or key == self._failed_layouts or go is None:
            # No Go templates, no layouts of the site's own to run: the Hugo modules are not even imported.
            self.theme = self.theme if not self._chooses_theme else DEFAULT_THEME
            return []
        from ..hugo.site_theme import site_theme
        # A one-shot build with a second core compiles the site's templates ahead in a second process.
        theme, warnings = site_theme(self.config, go, compile_ahead=self.stage_dir is not None and self.jobs > 1)
        self.theme = theme or DEFAULT_THEME
        return warnings


def _render_ahead(builders: Sequence["Builder"], jobs: int) -> None:
    """Every language's posts to render, in one pool (rendering.render_ahead); each language's stage then takes
    its own. A language whose templates fail is left to its stage, which reports it."""
    languages = []
    for builder in builders:
        try:
            templates = builder._load_templates()
        except BlogbuildError:
            continue
        if (Path(builder.config.root) / builder.config.source_dir).is_dir():
            languages.append((builder, templates))
    ahead = render_ahead([(builder.state, builder.config, builder.theme, templates.templates.content_publishing(),
                           builder._posts_base(templates)) for builder, templates in languages], jobs)
    for (builder, _), rendered in zip(languages, ahead, strict=True):
        builder._rendered_ahead = rendered


def _config_warnings(config: SiteConfig) -> list[SourceWarning]:
    """What the config says of itself (Hugo settings not used, a theme not checked out) and of its time zone, which
    the dates are read in from now on (core/dates.read_dates_in)."""
    return [SourceWarning(config.config_path, 1, notice) for notice in config.notices] + read_dates_in(config)


class Builder(CacheKeeping, TemplateKeeping):
    """Keeps caches between builds (for serve and warm builds); each build() re-reads what changed."""

    def __init__(self, config: SiteConfig, *, jobs: int = 1, use_cache: bool = False,
                 stage_dir: str | None = None, keep_state: bool = False, resume: str | None = None,
                 output_dir: Path | None = None, theme: Theme | None = None) -> None:
        # keep_state: save this builder's state with the cache (one-shot CLI builds), so the next process can
        # carry on where it stopped; resume: the id of the saved state to carry on from, checked by the caller
        # against the build record (manifest.py). output_dir: where it publishes; theme: under the site's own
        # (None: a Hugo site's own page layouts when blogbuild can run them, else the default theme).
        self.config = config
        self.theme = theme or DEFAULT_THEME
        self._chooses_theme = theme is None
        self._failed_layouts = ""
        self.jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
        self.use_cache = use_cache
        self.keep_state = keep_state and use_cache
        self.stage_dir = stage_dir     # spool rendered pages here (one-shot CLI builds) instead of memory
        self.root = Path(config.root)
        self.state = BuilderState()
        self.pages = PageStore()
        self.resumed = False
        self._templates: _Templates | None = None
        self._site_made_at = datetime.now(timezone.utc)
        self._cache = Builder.disk_cache_for(config)
        self._cache_warnings: list[SourceWarning] = []
        self._posts_dirty = False
        self._published_dirty = False
        self.cards_drawn = 0                  # social cards this builder drew (the rest came from the cache)
        self.image_stats: ImageStats | None = None   # what the last images stage did (None: it had nothing to do)
        self._links_seen: dict[str, list[SourceWarning]] = {}   # the last look at links, by post (_link_warnings)
        self._translations: dict[str, tuple[Translation, ...]] = {}
        self._rendered_ahead: dict[str, RenderOutcome] = {}   # this build's posts rendered already (render_ahead)
        # A multilingual site: a builder per language, each with its own caches; this one only merges their output
        # (and saves no state to carry on from: every build of it reads the sources' stats again).
        self._languages: list[tuple[Language, Builder]] = []
        if config.languages and not config.language:
            self.keep_state = False
            for language in config.languages:
                stage = os.path.join(stage_dir, language.prefix) if stage_dir and language.prefix else stage_dir
                self._languages.append((language, Builder(
                    for_language(config, language.key), jobs=jobs, use_cache=use_cache, stage_dir=stage,
                    output_dir=output_dir / language.prefix if output_dir is not None else None)))
        elif use_cache:
            self._load_cache(resume, output_dir)
        # Typeset formulas are kept beside the other caches (the workers forked later inherit the setting).
        from ..content.katex import cache_file_for, set_cache_file
        set_cache_file(cache_file_for(self.root / CACHE_DIR) if use_cache else None)

    @property
    def last_good(self) -> LastGood | None:
        """The last build without errors (its posts and Site; a multilingual site's default language's), None
        before one."""
        return self._languages[0][1].last_good if self._languages else self.state.last_good

    # -- the recipe -----------------------------------------------------------------------------------
    def build(self, changed_paths: Iterable[str] | None = None) -> BuildResult:
        """Build everything, reusing what did not change; content errors are in the result, not raised."""
        read_dates_in(self.config)
        if self._languages:
            return self._build_languages(changed_paths)
        prepared = self._prepare(changed_paths)
        return prepared if isinstance(prepared, BuildResult) else self._finish(prepared)

    def _prepare(self, changed_paths: Iterable[str] | None) -> "_Prepared | BuildResult":
        """sources -> posts -> links -> images: every post of the site, or the failed result when the templates or
        the content folder are missing."""
        started = time.perf_counter()
        changed = {os.path.abspath(path) for path in changed_paths} if changed_paths is not None else None
        warnings: list[SourceWarning] = self._cache_warnings
        warnings += _config_warnings(self.config)
        self._cache_warnings = []
        try:
            templates = self._load_templates()
        except BlogbuildError as error:
            return self._failed([error], warnings, started)
        content = Path(self.config.root) / self.config.source_dir
        if not content.is_dir():   # gone while serving (a build without one is refused before it starts)
            return self._failed([SourceError(str(self.config.source_dir), 0, "the content folder is missing; "
                                             "restore it (or pass --source DIR)", stage="read")], warnings, started)
        read = read_sources(self.state, self.config, changed)
        errors: list[BlogbuildError] = [*read.errors, *read.tree.errors]
        static, skipped, unreadable = _static_files(self.config, self.theme)
        errors += unreadable
        warnings += [link.warning() for link in (*templates.skipped, *read.tree.skipped, *skipped)]
        warnings += templates.shortcodes.go.warnings(extension_partials=self.theme.engine is None) \
            if templates.shortcodes.go else []
        if templates.shortcodes.go and self.config.markup.render_hooks:
            warnings += templates.shortcodes.go.hook_warnings()
        warnings += templates.theme_warnings
        warnings += read.tree.warnings
        rendered = render_posts(self.state, read.sources, self.config, templates.shortcodes, self._posts_base(templates),
                                self.jobs, self.theme, templates.templates.content_publishing(), self._rendered_ahead)
        self._rendered_ahead = {}
        self._posts_dirty = self._posts_dirty or rendered.new_posts
        warnings += rendered.warnings
        errors += rendered.errors
        go = templates.shortcodes.go
        linked = resolve_links(rendered.posts, self.config, self.state.plain_posts,
                               {source.rel_path: source for source in read.sources},
                               drawn_by_site=_drawn_by_site(self.config, go))
        tree = read.tree
        if self.stage_dir is not None:   # one-shot: no post renders again, its text need not stay resident
            self.state = self.state.without_texts()
            del read
        self.state.plain_posts = linked.plain
        warnings += linked.warnings
        errors += linked.errors
        posts, media, media_warnings = self._media(list(linked.posts), tree, static)
        warnings += media_warnings
        return _Prepared(started, changed, warnings, errors, templates, posts, tree, media, static,
                         BuildStats(markdown_rendered=rendered.rendered, markdown_reused=rendered.reused))

    def _finish(self, prepared: "_Prepared", translations: Mapping[str, tuple[Translation, ...]] | None = None
                ) -> BuildResult:
        """site -> plan -> pages -> assemble, for the whole site or (a body edit) the pages it shows on.

        translations: a multilingual site's pages in the other languages, by URL in this one (site.translations)."""
        changed, warnings, errors, posts = prepared.changed, prepared.warnings, prepared.errors, prepared.posts
        templates = prepared.templates
        self._translations = dict(translations or {})
        edited = None
        if not errors and incremental.only_known_posts(changed, self.state.known):
            edited = incremental.content_only_edits(self.state.last_good, templates.key, posts)
        if edited is not None and any(path not in self.state.previous for path in prepared.media):
            edited = None   # an edit shows a new image: its variants must join the output
        if edited is not None and self.state.last_good is not None and \
                self.state.last_good.site.translations != self._translations:
            edited = None   # a translation came or went: the pages that link it change
        if edited is not None:
            site, assembly = self._assemble_edits(templates.templates, edited)
            warnings += assembly.warnings
        else:
            site, assembly, card_warnings = self._assemble_site(templates.templates, posts, prepared.tree,
                                                                prepared.media, prepared.static)
            warnings += card_warnings
        errors += assembly.errors
        if assembly.errors and self._layouts_failed(assembly.errors, templates.layouts_key):
            _unstage(assembly.files.values())   # what the site's layouts rendered is not published
            again = self._prepare(prepared.changed)   # with the default theme
            return again if isinstance(again, BuildResult) else self._finish(again, translations)
        if not errors:
            warnings += _link_warnings(self.config, site, assembly, edited, self._links_seen)
        if self.config.strict and warnings:
            errors += [SourceError(w.path, w.line, f"{w.message} (--strict makes warnings errors)", stage="strict")
                       for w in warnings]
        if errors:
            return self._failed(errors, warnings, prepared.started, site)
        return self._succeeded(posts, site, assembly, edited, warnings,
                               replace(prepared.stats, edited_posts=len(changed or ()) if edited is not None else 0),
                               prepared.started)

    def _build_languages(self, changed_paths: Iterable[str] | None) -> BuildResult:
        """A multilingual site: each language's site built as a site of its own and published under its prefix
        ('en/'), the pages linked to their translations, and the root files of the whole site (the sitemap
        index, the redirect to the default language)."""
        started = time.perf_counter()
        changed = list(changed_paths) if changed_paths is not None else None
        if changed is None:
            _render_ahead([builder for _, builder in self._languages], self.jobs)
        prepared = [(language, builder, builder._prepare(changed)) for language, builder in self._languages]
        from ..site.site import translations_of
        linked = translations_of(_languages_posts(prepared), self._site_made_at_now())
        results = [(language, outcome if isinstance(outcome, BuildResult)
                    else builder._finish(outcome, linked.get(language.key, {})))
                   for language, builder, outcome in prepared]
        from .languages import merged_result
        result = merged_result(self.config, results, self.state.previous, time.perf_counter() - started)
        if result.ok:
            self.state.previous = dict(result.files)
        return result

    def _site_made_at_now(self) -> datetime:
        self._site_made_at = datetime.now(timezone.utc)
        return self._site_made_at

    def _assemble_site(self, templates: "PageEngine", posts: list[Post], tree: "ContentTree",
                       media: Mapping[str, str], static: list["FoundFile"]) -> tuple[Site, Assembly, list[SourceWarning]]:
        """site -> plan -> pages -> assemble, for the whole site (with the images' variants and the cards)."""
        from ..media.assets import vendor_outputs
        from ..media.cards import CARD_CACHE, card_stage
        from ..markdown import highlight_css
        from ..publish.planner import Planner
        from ..site.site import build_site
        from ..disk.sources import display_path
        self._site_made_at = datetime.now(timezone.utc)
        site = build_site(posts, self.config, now=self._site_made_at, translations=self._translations)
        conflict_errors, conflicted = url_conflicts(site)
        copied = copied_files(site, static, tree,
                              lambda path: display_path(path, str(self.root)))
        site, copied, css_warnings = _with_stylesheet(site, copied, self.config)
        copied += _from_cache(media.items(), "<image variants>")
        card_folder = _media_folder(self.use_cache, self.root) / CARD_CACHE
        # With more than one worker the cards are drawn in a forked process while this one plans and renders
        # the pages: the cores otherwise wait on this process's serial stages. Its result is read at the end. That
        # process draws every card itself: a pool of its own beside the page workers cost 7% more CPU (a second
        # set of forked workers warming fonts and caches) for no gain in wall time (1,000 posts, 2 cores).
        drawing = InBackground(partial(card_stage, site, self.config, card_folder, 1)) \
            if self.config.cards.enabled and self.jobs > 1 and can_fork() else None
        # KaTeX and mermaid, from inside the package, only when some page needs them (none with cdn_assets).
        copied += [(OutputFile(path, source=str(vendored)), VENDORED_OWNER)
                   for path, vendored in vendor_outputs(self.config, math=any(post.has_math for post in site.pages),
                                                        mermaid=any(post.has_mermaid for post in site.pages))]
        css = highlight_css(self.config.code_style_light, self.config.code_style_dark).encode("utf-8")
        try:
            planner = Planner(site, templates, self._list_key, self.state.search, self.theme)
            pages, data = planner.plan()
        except SourceError as error:   # a template that does not parse: report it with the content errors
            copied, card_warnings = self._with_cards(copied, site, card_folder, drawing)
            assembly = copied_only(copied, css, error)
            return site, replace(assembly, errors=(*conflict_errors, *assembly.errors)), card_warnings
        planned: list[PlannedPage | PlannedData] = [*pages, *data]
        self.state.output_keys = {item.output_path: item.key for item in planned}
        made = self.pages.make_all(templates, pages, data, self.jobs, self.stage_dir)
        # A vendored file a page loads (a theme's CDN KaTeX, blogbuild's copy) may be published for the posts too.
        vendored = {item.path for item, owner in copied if owner == VENDORED_OWNER}
        published = [(item, "<the layouts' Hugo Pipes>") for item in templates.page_files(
            (page.key for page in pages if isinstance(made.outputs.get(page.output_path), OutputFile)), every=True)
            if item.path not in vendored]
        copied, card_warnings = self._with_cards(copied, site, card_folder, drawing)
        assembly = assemble(copied, css, pages, data, made.outputs, conflicted, published)
        self.state.static_count = assembly.static_files
        return site, replace(assembly, errors=(*conflict_errors, *assembly.errors),
                             rendered=made.rendered, reused=made.reused), [
            *alias_warnings(site, self.config.aliases), *css_warnings, *card_warnings, *assembly.warnings,
            *planner.warnings]

    def _with_cards(self, copied: list[tuple[OutputFile, str]], site: Site, card_folder: Path,
                    drawing: InBackground | None) -> tuple[list[tuple[OutputFile, str]], list[SourceWarning]]:
        """The copied files with the posts' social cards: drawn in the background, or (without one, or when
        it failed) here."""
        from ..media.cards import card_stage
        outcome = drawing.result() if drawing is not None else None
        if outcome is None:
            outcome = card_stage(site, self.config, card_folder, self.jobs)
        cards, warnings, self.cards_drawn = outcome
        return [*copied, *_from_cache(cards, "<social cards>")], warnings

    def _assemble_edits(self, templates: "PageEngine", edited: list[Post]) -> tuple[Site, Assembly]:
        """Re-plan only the outputs that can show the edited posts; reuse every other file as it was."""
        from ..publish.planner import Planner
        from ..site.site import replace_posts
        assert self.state.last_good is not None
        self._site_made_at = self.state.last_good.made_at
        site = replace_posts(self.state.last_good.site, {post.url: post for post in edited})
        planner = Planner(site, templates, self._list_key, self.state.search, self.theme)
        pages, data = planner.plan_affected(edited)
        planned: list[PlannedPage | PlannedData] = [*pages, *data]
        for item in planned:   # what record_published keeps for the next process's reuse check
            self.state.output_keys[item.output_path] = item.key
        made = self.pages.make_affected(templates, pages, data, self.jobs, self.stage_dir)
        published = {item.path: item for item in templates.page_files(
            page.key for page in pages if isinstance(made.outputs.get(page.output_path), OutputFile))}
        assembly = overlay(self.state.previous, pages, {**published, **made.outputs}, self.state.static_count)
        return site, replace(assembly, rendered=made.rendered, reused=made.reused,
                             warnings=(*assembly.warnings, *planner.warnings))

    def _succeeded(self, posts: list[Post], site: Site, assembly: Assembly, edited: list[Post] | None,
                   warnings: list[SourceWarning], stats: BuildStats, started: float) -> BuildResult:
        """Keep a good build as the last good one, and say what it changed."""
        state = self.state
        changes = incremental.output_changes(state.previous, assembly.files, partial=edited is not None)
        if edited is not None:
            assert state.last_good is not None
            state.search.forget_posts(state.last_good.posts[post.rel_path].fingerprint for post in edited)
        else:
            state.search.keep_posts(post.fingerprint for post in posts)
        state.previous = assembly.files
        assert self._templates is not None
        state.last_good = LastGood(self._templates.key, {post.rel_path: post for post in posts}, site,
                                   self._site_made_at)
        # The site model is millions of long-lived objects: keep the cyclic GC from walking them on every
        # later allocation burst.
        gc.freeze()
        stats = replace(stats, pages_by_kind=assembly.pages_by_kind, static_files=assembly.static_files,
                        rendered_pages=assembly.rendered, reused_pages=assembly.reused,
                        seconds=time.perf_counter() - started, partial=edited is not None)
        return BuildResult(assembly.files, site, (), tuple(warnings), changes.changed, changes.removed, stats)

    def _failed(self, errors: list[BlogbuildError], warnings: list[SourceWarning], started: float,
                site: Site | None = None) -> BuildResult:
        unique: dict[str, BlogbuildError] = {}
        for error in errors:
            unique.setdefault(str(error), error)
        return BuildResult(self.state.previous, site, tuple(unique.values()), tuple(warnings), frozenset(),
                           frozenset(), BuildStats(seconds=time.perf_counter() - started))

    # -- images and cards -----------------------------------------------------------------------------

    def _media(self, posts: list[Post], tree: "ContentTree",
               static: list["FoundFile"]) -> tuple[list[Post], dict[str, str], list[SourceWarning]]:
        """The images stage: posts' images sized, their variants (output path -> cached file)."""
        if not any(post.has_images for post in posts):   # no <img> anywhere: the stage is not even imported
            self.image_stats = None
            return posts, {}, []
        from ..media.images import IMAGE_CACHE, image_stage, published_sources
        published = published_sources(posts, static, tree.files)
        posts, files, warnings, self.image_stats = image_stage(posts, self.config, published, _media_folder(
            self.use_cache, self.root) / IMAGE_CACHE, self.jobs, die_with_parent if can_fork() else None)
        return posts, files, warnings


def _unstage(files: Iterable[OutputFile]) -> None:
    """Remove the pages a render spooled to the build's stage (their render is abandoned)."""
    for item in files:
        if item.staged and item.source:
            with contextlib.suppress(OSError):
                os.unlink(item.source)


def _languages_posts(prepared: Sequence[tuple[Any, "Builder", Any]]) -> list[tuple[SiteConfig, list[Post]]]:
    """Each prepared language's config and posts; set for the other languages' sites in `.Sites`, whose GetPage
    finds their pages (core/page_lookups.set_language_pages)."""
    from ..core.page_lookups import set_language_pages
    found = [(builder.config, outcome.posts) for _, builder, outcome in prepared if isinstance(outcome, _Prepared)]
    for config, posts in found:
        set_language_pages(config.language, config, posts)
    return found
