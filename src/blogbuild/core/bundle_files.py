"""Which language's page publishes a multilingual bundle's file, as Hugo 0.123 and later publish them (pure)."""
from __future__ import annotations

from typing import Any

from .model import Post, Site, Translation


def file_language(file: str, config: Any) -> str:
    """The language a bundle's file is named for (map.fr.png is fr's), "" for a file every language shares."""
    stem, dot, _ = file.rpartition("/")[2].rpartition(".")
    base, _, key = stem.rpartition(".")
    return key if dot and base and any(language.key == key for language in config.languages) else ""


def shared_files_page(site: Site, post: Post) -> Translation | None:
    """Where the bundle files every language shares are published, when not beside this page: Hugo (0.123 and
    later) publishes them once, beside the page's version in the first language of the config that has one, and
    every version links them there; on several hosts (a language with a baseURL of its own) each language's page
    has its own, and so does every page under blogbuild's default theme (which links them beside the page)."""
    config = site.config
    if len(config.languages) < 2 or not config.markup.render_hooks or \
            any(dict(language.values).get("base_url") for language in config.languages):
        return None
    versions = {translation.language: translation for translation in site.translated(post.url)}
    first = next((language.key for language in config.languages if language.key in versions), config.language)
    return versions[first] if first != config.language else None


def publishes_bundle_file(site: Site, post: Post, file: str) -> bool:
    """Whether this language's page publishes its bundle's file: a file named for a language only by that
    language's page, a shared one as shared_files_page says."""
    named = file_language(file, site.config)
    if named:
        return named == site.config.language or not site.config.languages
    return shared_files_page(site, post) is None
