"""A multilingual site's output: each language's site under its prefix, and the files of the whole site (pure).

Hugo publishes every language as a site of its own ('en/' for English, the default language at the top unless
defaultContentLanguageInSubdir), a sitemap per language under its prefix with /sitemap.xml the index of them all,
and a redirect page where the default language would be (/zh/ to /, or / to /zh/).
"""
from __future__ import annotations

import os
from pathlib import Path
from collections import Counter
from dataclasses import replace
from typing import Mapping, Sequence

from ..config import Language, SiteConfig
from ..core.errors import BlogbuildError, SourceWarning
from ..publish.feeds import xml_escape
from ..core.model import OutputFile, Site
from . import incremental
from .result import BuildResult, BuildStats

SITEMAP = "sitemap.xml"
# A language's files that language_files publishes elsewhere than at their path under its folder, or not at all:
# never reused from that path (made again each build; they are small).
MOVED_FILES = (SITEMAP, "robots.txt")


def redirect_page(target: str, language_code: str) -> bytes:
    """The page Hugo writes where a language's home would be if it were not where it is (its alias template)."""
    return (f'<!DOCTYPE html>\n<html lang="{xml_escape(language_code)}">\n\t<head>\n\t\t<title>{xml_escape(target)}'
            f'</title>\n\t\t<link rel="canonical" href="{xml_escape(target)}">\n\t\t<meta charset="utf-8">\n\t\t'
            f'<meta http-equiv="refresh" content="0; url={xml_escape(target)}">\n\t</head>\n</html>\n').encode("utf-8")


def sitemap_index(entries: Sequence[tuple[str, str]]) -> bytes:
    """Hugo's sitemap index: one <sitemap> per language, (absolute URL of its sitemap, lastmod or '')."""
    lines = ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>',
             '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for url, lastmod in entries:
        modified = f"<lastmod>{lastmod}</lastmod>" if lastmod else ""
        lines.append(f"<sitemap><loc>{xml_escape(url)}</loc>{modified}</sitemap>")
    lines.append("</sitemapindex>\n")
    return "\n".join(lines).encode("utf-8")


def _last_modified(site: Site | None) -> str:
    dates = [post.lastmod or post.date for post in site.pages] if site is not None else []
    known = [date for date in dates if date is not None]
    return max(known).isoformat() if known else ""


def language_files(config: SiteConfig, language: Language, files: Mapping[str, OutputFile],
                   static_folders: tuple[str, ...], published: set[str] | None = None,
                   shared_content: tuple[str, ...] = ()) -> dict[str, OutputFile]:
    """One language's files at their paths in the whole site: under its prefix (a shared file, as Hugo Pipes
    publish, at the top: the first language's); the default language's sitemap
    at <key>/sitemap.xml when it is at the top (/sitemap.xml is the index); robots.txt, the default language's
    only, at the top (even when its pages are in a folder, as Hugo writes the first site's robots.txt); and the
    site's static files: when its own Hugo layouts render it, once, at the top, as Hugo 0.123 and later copy
    static/ (on several hosts, a language with a baseURL of its own, each host's folder has them); under the default
    theme, which links them in the language's folder, in each language's folder (and the default language's at the
    top as well when it has a folder of its own). published: the content files (bundles' and loose files, by their
    source) an earlier language published; when the site's own layouts render it, a content folder the languages
    share (shared_content, _content_folders) has each of its files published once, by the first language that
    publishes it (as Hugo 0.123 and later publish a resource once, where the other languages' pages link it); the set
    is added to."""
    placed: dict[str, OutputFile] = {}
    once = config.markup.render_hooks and not any(dict(item.values).get("base_url") for item in config.languages)
    content = shared_content if once and published is not None else ()
    for path, item in files.items():
        if path == "robots.txt" and language.prefix:
            if language.key != config.languages[0].key:
                continue
            placed[path] = item   # the default language's, at the top even when its pages have a folder
            continue
        source = os.path.abspath(item.source) if item.source else ""
        if published is not None and content and source.startswith(content) and not item.staged:
            if source in published:
                continue
            published.add(source)
        static = bool(item.source) and source.startswith(static_folders)
        target = f"{language.key}/{SITEMAP}" if path == SITEMAP and not language.prefix else \
            path if item.shared or (static and once) else language.prefix + path
        placed[target] = replace(item, path=target) if target != path else item
        if static and not once and language.prefix and language.key == config.languages[0].key:
            placed.setdefault(path, item)
    return placed


def _content_folders(config: SiteConfig) -> tuple[str, ...]:
    """The content folders that more than one language reads (each with a trailing separator)."""
    from ..config import for_language
    folders = Counter(os.path.join(os.path.abspath(Path(config.root) / for_language(config, item.key).source_dir), "")
                      for item in config.languages)
    return tuple(folder for folder, count in folders.items() if count > 1)


def merged_result(config: SiteConfig, results: Sequence[tuple[Language, BuildResult]],
                  previous: Mapping[str, OutputFile], seconds: float) -> BuildResult:
    """The whole site's build from its languages' builds: their files under their prefixes with the root files,
    every error and warning (each once), the counts summed; the default language's Site."""
    errors: dict[str, BlogbuildError] = {}
    warnings: dict[str, SourceWarning] = {}
    for _, result in results:
        errors.update((str(error), error) for error in result.errors)
        warnings.update((str(warning), warning) for warning in result.warnings)
    site = results[0][1].site
    if errors:
        return BuildResult(previous, site, tuple(errors.values()), tuple(warnings.values()), frozenset(),
                           frozenset(), BuildStats(seconds=seconds))
    # The site's static/ and, when its own layouts render it, each of its themes' (sources.static_files).
    from ..disk.sources import theme_static_dirs
    static_folders = tuple(os.path.join(os.path.abspath(folder), "") for folder in
                           (Path(config.root) / config.static_dir, *theme_static_dirs(config)))
    files: dict[str, OutputFile] = {}
    content_published: set[str] = set()
    shared_content = _content_folders(config)
    for language, result in results:
        for path, item in language_files(config, language, result.files, static_folders, content_published,
                                         shared_content).items():
            files.setdefault(path, item)
    sitemaps = [(config.absolute_url(f"{language.prefix or language.key + '/'}{SITEMAP}"), _last_modified(result.site))
                for language, result in results]
    files[SITEMAP] = OutputFile(SITEMAP, sitemap_index(sitemaps))
    default = results[0][0]
    default_code = site.config.language_code if site is not None else config.language_code
    if default.prefix:
        files.setdefault("index.html", OutputFile("index.html", redirect_page(
            config.absolute_url(default.prefix), default_code)))
    else:
        where = f"{default.key}/index.html"
        files.setdefault(where, OutputFile(where, redirect_page(config.absolute_url("/"), default_code)))
    changes = incremental.output_changes(previous, files, partial=False)
    kinds: Counter[str] = Counter()
    for _, result in results:
        kinds.update(result.stats.pages_by_kind)
    stats = BuildStats(pages_by_kind=dict(kinds), seconds=seconds,
                       **{name: sum(getattr(result.stats, name) for _, result in results)
                          for name in ("static_files", "rendered_pages", "reused_pages", "markdown_rendered",
                                       "markdown_reused")})
    sites = {language.key: result.site for language, result in results if result.site is not None}
    return BuildResult(files, site, (), tuple(warnings.values()), changes.changed, changes.removed, stats, sites)
