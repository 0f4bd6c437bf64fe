"""Hugo's cascade: front matter a page hands down to itself and the pages below it.

A page's `cascade` (a map, or a list of maps) holds front matter: any field (`layout`, `type`, `slug`, `date`,
`outputs`, `build`, …), and params, written at the top level or under `params`. Each map may carry a `target`
(`_target` before Hugo 0.156): globs of the page's path (`/posts/**`), kind (`home`, `page`, `section`,
`taxonomy`, `term`, `404`), language and build environment; without one it reaches every page. The site's config
may hold a cascade too, reaching the home page and every page below it.

A page reads a field from its own front matter first; what it does not set, it takes from the nearest cascade
that reaches it: its own (a leaf page's cascade reaches the page itself), its section's, each section above it up
to the home page's, then the config's. Of one page's list of maps, the first that sets a field wins. The cascade
itself is not handed down. Hugo 0.168 does the same (`tests/test_hugo_cascade.py` builds a fixture with both).

The cascades of a language's site are gathered before its posts render (`set_cascades`) and read by each post as
it renders (`cascades_of`), in the workers too (they are forked after); their digest (`Cascades.key`) is part of
the posts' render key, so a changed cascade renders the posts again.
"""
from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .globs import GlobError, glob_regex

_TARGET_KEYS = ("target", "_target")
_MATCHERS = ("path", "kind", "lang", "environment")


@dataclass(frozen=True)
class CascadeEntry:
    """One cascade map: the fields it sets (params at the top level, keys in lower case) and its target's globs
    ("" matches any)."""

    values: tuple[tuple[str, Any], ...]
    path: str = ""
    kind: str = ""
    lang: str = ""
    environment: str = ""

    def reaches(self, path: str, kind: str, lang: str, environment: str) -> bool:
        return all(not pattern or _matches(pattern, value)
                   for pattern, value in ((self.path, path), (self.kind, kind), (self.lang, lang),
                                          (self.environment, environment)))


def _matches(pattern: str, value: str) -> bool:
    try:
        return glob_regex(pattern).fullmatch(value.lower()) is not None
    except GlobError:   # a target Hugo cannot read reaches no page
        return False


def cascade_entries(value: Any) -> tuple[CascadeEntry, ...]:
    """A front matter's (or the config's) `cascade` as entries: a map is one, a list one per map in it; anything
    else none."""
    maps = value if isinstance(value, (list, tuple)) else [value]
    entries = []
    for item in maps:
        if not isinstance(item, Mapping):
            continue
        values: dict[str, Any] = {}
        target: Mapping[Any, Any] = {}
        for key, item_value in item.items():
            name = str(key).lower()
            if name in _TARGET_KEYS and isinstance(item_value, Mapping):
                target = target or item_value
            elif name == "params" and isinstance(item_value, Mapping):
                for param, param_value in item_value.items():
                    values.setdefault(str(param).lower(), param_value)
            elif name != "cascade":
                values[name] = item_value
        globs = {str(key).lower(): str(glob) for key, glob in target.items() if str(key).lower() in _MATCHERS}
        entries.append(CascadeEntry(tuple(values.items()), **globs))
    return tuple(entries)


def page_path(rel_path: str, languages: Iterable[str] = ()) -> str:
    """Hugo's path of the page a content file makes, lower case: `posts/a.md` /posts/a, a bundle's `index.md` and
    a section's `_index.md` their folder (/posts/b, /posts), the home page's /; a language's suffix (`a.zh.md`,
    `_index.fr.md`, for a key of languages) left out."""
    stem = rel_path.rsplit(".", 1)[0] if "." in rel_path.rsplit("/", 1)[-1] else rel_path
    head, dot, suffix = stem.rpartition(".")
    if dot and "/" not in suffix and suffix.lower() in {language.lower() for language in languages}:
        stem = head
    folder, _, name = stem.rpartition("/")
    if name in ("index", "_index"):
        stem = folder
    return "/" + stem.lower()


def page_kind(path: str, is_list: bool, taxonomies: Iterable[str]) -> str:
    """The kind of page at a content file's page path (page_path's): a regular page; else, for an _index.md, the
    home page, a taxonomy or term (under a taxonomy's folder) or a section."""
    if not is_list:
        return "page"
    if path == "/":
        return "home"
    top = path.strip("/").split("/")
    if top[0] in {str(name).lower() for name in taxonomies}:
        return "taxonomy" if len(top) == 1 else "term"
    return "section"


def _ancestors(path: str) -> list[str]:
    """The section paths above a page's, nearest first, ending with the home page's."""
    parts = path.strip("/").split("/") if path != "/" else []
    return ["/" + "/".join(parts[:end]) for end in range(len(parts) - 1, -1, -1)] if parts else []


@dataclass(frozen=True)
class Cascades:
    """A language's cascades: each list page's (by its path) and the config's."""

    owners: Mapping[str, tuple[CascadeEntry, ...]] = field(default_factory=dict)
    config: tuple[CascadeEntry, ...] = ()
    environment: str = "production"

    def __bool__(self) -> bool:
        return bool(self.owners or self.config)

    @functools.cached_property
    def key(self) -> str:
        """A digest of every cascade: what the posts' render key takes in."""
        text = json.dumps([sorted((owner, repr(entries)) for owner, entries in self.owners.items()),
                           repr(self.config), self.environment], ensure_ascii=False)
        return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()

    def values_for(self, path: str, kind: str, lang: str, own: tuple[CascadeEntry, ...] = ()) -> dict[str, Any]:
        """The fields that reach the page at path (of kind, in language lang), nearest first; own: its own
        cascade's entries."""
        found: dict[str, Any] = {}
        chain = [own, *(self.owners.get(ancestor, ()) for ancestor in _ancestors(path)), self.config]
        for entries in chain:
            for entry in entries:
                if entry.reaches(path, kind, lang, self.environment):
                    for key, value in entry.values:
                        found.setdefault(key, value)
        return found


def with_cascade(data: Mapping[str, Any], values: Mapping[str, Any]) -> Mapping[str, Any]:
    """A front matter with what a cascade hands down added: the fields it does not set itself (a param under its
    own `params` map counts as set)."""
    if not values:
        return data
    own_params = data.get("params")
    own = set(data) | ({str(key).lower() for key in own_params} if isinstance(own_params, Mapping) else set())
    added = {key: value for key, value in values.items() if key not in own}
    return {**data, **added} if added else data


_REGISTRY: dict[str, Cascades] = {}


def set_cascades(language: str, cascades: Cascades) -> None:
    """The cascades of a language's site, for its posts about to render (and the workers forked for them)."""
    _REGISTRY[language] = cascades


def cascades_of(language: str) -> Cascades:
    return _REGISTRY.get(language) or Cascades()
