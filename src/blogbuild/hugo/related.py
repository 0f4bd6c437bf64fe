"""Hugo's related content (`.Related` of a page list), as Hugo's related package finds it.

The config (Hugo's `[related]`, or its default: keywords weight 100, date 10, and tags 80 when the site has the
tag taxonomy; threshold 80; newer pages left out) is decoded by `related_config`. `search` indexes a list of
documents by each index's keywords (a date index: the date formatted with its pattern, the year by default),
then ranks every other document sharing a keyword: each match adds its index's weight; a document is kept when
its average weight, normalised to 0..100 between the lowest and highest configured weight, reaches the
threshold divided by its number of matches (whole numbers, as Go divides). The kept are ordered by their total
weight, then newest first, then by name.

A document is whatever the caller gives; `values(document, index_name)` reads its value for an index (a string, a
list of strings, a datetime, or None), `date(document)` its publish date (None when it has none) and
`name(document)` its tiebreaking name.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any


class RelatedError(ValueError):
    """A related config or search Hugo would stop at, or one blogbuild cannot answer as Hugo does."""


@dataclass(frozen=True)
class RelatedIndex:
    name: str
    weight: int
    pattern: str = ""
    to_lower: bool = False
    cardinality_threshold: int = 0


@dataclass(frozen=True)
class RelatedConfig:
    indices: tuple[RelatedIndex, ...]
    threshold: int = 80
    include_newer: bool = False

    @property
    def weight_range(self) -> tuple[int, int]:
        """Hugo's normalisation scale: from min(0, weights) to max(0, weights)."""
        weights = [index.weight for index in self.indices]
        return min([0, *weights]), max([0, *weights])

    def index(self, name: str) -> RelatedIndex:
        found = next((index for index in self.indices if index.name == name), None)
        if found is None:
            raise RelatedError(f"index {name!r} not found")
        return found


def default_config(has_tag_taxonomy: bool) -> RelatedConfig:
    """Hugo's default: keywords 100 and date 10, and tags 80 when the site's taxonomies have `tag`."""
    indices = [RelatedIndex("keywords", 100), RelatedIndex("date", 10)]
    if has_tag_taxonomy:
        indices.append(RelatedIndex("tags", 80))
    return RelatedConfig(tuple(indices))


def _keyed(mapping: Mapping[Any, Any]) -> dict[str, Any]:
    return {str(key).lower(): value for key, value in mapping.items()}


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool):
        return int(value)
    try:
        return int(str(value)) if not isinstance(value, (int, float)) else int(value)
    except ValueError:
        raise RelatedError(f"related {what} must be a number, not {value!r}") from None


def _bool(value: Any) -> bool:
    return value if isinstance(value, bool) else str(value).lower() in ("true", "1")


def related_config(given: Any, has_tag_taxonomy: bool) -> RelatedConfig:
    """The site's related config: Hugo's `[related]` (keys in any case, values weakly typed, as Hugo decodes
    them), or Hugo's default when the config has none."""
    if given is None:
        return default_config(has_tag_taxonomy)
    if not isinstance(given, Mapping) or not given:
        raise RelatedError("related must be a mapping with indices")
    keyed = _keyed(given)
    to_lower = _bool(keyed.get("tolower", False))
    threshold = _int(keyed.get("threshold", 0), "threshold")
    if not 0 <= threshold <= 100:
        raise RelatedError("related threshold must be between 0 and 100")
    indices = []
    for entry in keyed.get("indices") or []:
        if not isinstance(entry, Mapping):
            raise RelatedError("each of related's indices must be a mapping with a name")
        index = _keyed(entry)
        kind = str(index.get("type") or "basic")
        if kind != "basic":
            raise RelatedError(f"related index type {kind!r} is not supported by blogbuild")
        cardinality = _int(index.get("cardinalitythreshold", 0), "cardinalityThreshold")
        if not 0 <= cardinality <= 100:
            raise RelatedError("cardinalityThreshold threshold must be between 0 and 100")
        indices.append(RelatedIndex(str(index.get("name", "")).lower(), _int(index.get("weight", 0), "weight"),
                                    str(index.get("pattern") or ""), to_lower or _bool(index.get("tolower", False)),
                                    cardinality))
    return RelatedConfig(tuple(indices), threshold, _bool(keyed.get("includenewer", False)))


def config_mapping(config: RelatedConfig) -> dict[str, Any]:
    """The config as plain values (what SiteConfig keeps), read back by `from_mapping`."""
    return {"threshold": config.threshold, "include_newer": config.include_newer,
            "indices": tuple((index.name, index.weight, index.pattern, index.to_lower, index.cardinality_threshold)
                             for index in config.indices)}


def from_mapping(kept: Mapping[str, Any]) -> RelatedConfig:
    if "unsupported" in kept:
        raise RelatedError(str(kept["unsupported"]))
    return RelatedConfig(tuple(RelatedIndex(*entry) for entry in kept["indices"]), int(kept["threshold"]),
                         bool(kept["include_newer"]))


def string_slice(value: Any) -> list[str]:
    """cast.ToStringSlice, as Hugo reads a page's keywords and a list param: a text's words (strings.Fields), a
    list's items as text (booleans "true", numbers as Go prints them); none when an item is not a scalar (a map
    a YAML `key: value` made), or for anything else."""
    from .gotemplate.escape import go_string
    if isinstance(value, str):
        return value.split()
    if not isinstance(value, (list, tuple)):
        return []
    if not all(item is None or isinstance(item, (str, int, float, bool)) for item in value):
        return []
    return [go_string(item) for item in value]


def keywords(value: Any, index: RelatedIndex, format_date: Callable[[datetime, str], str]) -> list[str]:
    """An index's keywords of one value, as Hugo's ToKeywords makes them (a list as cast.ToStringSlice reads it)."""
    if value is None:
        return []
    if isinstance(value, datetime):
        return [format_date(value, index.pattern or "2006")]
    if isinstance(value, str):
        words = [value]
    elif isinstance(value, (list, tuple)):
        words = string_slice(value)
    else:
        raise RelatedError(f"indexing is not supported for index {index.name!r} and a {type(value).__name__}")
    return [word.lower() for word in words] if index.to_lower else words


@dataclass
class _Rank:
    document: Any
    weight: int
    matches: int = 1


class RelatedIndexes:
    """The inverted index of one list of documents (each index: keyword -> documents, in list order)."""

    def __init__(self, config: RelatedConfig, documents: Sequence[Any], words: Callable[[Any, RelatedIndex],
                                                                                         list[str]]) -> None:
        self.config = config
        self.words = words
        self.postings: dict[str, dict[str, list[Any]]] = {}
        for index in config.indices:
            if index.weight == 0:
                continue
            posting: dict[str, list[Any]] = {}
            counted = 0
            for document in documents:
                found = words(document, index)
                for word in found:
                    posting.setdefault(word, []).append(document)
                counted += bool(found)
            if index.cardinality_threshold and counted:
                posting = {word: listed for word, listed in posting.items()
                           if math.ceil(len(listed) / counted * 100) <= index.cardinality_threshold}
            self.postings[index.name] = posting

    def search(self, document: Any, names: Iterable[str], date: Callable[[Any], datetime | None],
               name: Callable[[Any], str]) -> list[Any]:
        """The documents related to one (never itself), best first."""
        wanted = [self.config.index(name) for name in names] or list(self.config.indices)
        upper = date(document)
        newer_out = not self.config.include_newer and upper is not None
        ranks: dict[int, _Rank] = {}
        for index in wanted:
            posting = self.postings.get(index.name, {})
            for word in self.words(document, index):
                for other in posting.get(word, ()):
                    if other == document:
                        continue
                    when = date(other)
                    if newer_out and when is not None and upper is not None and when > upper:
                        continue
                    rank = ranks.get(id(other))
                    if rank is None:
                        ranks[id(other)] = _Rank(other, index.weight)
                    else:
                        rank.weight += index.weight
                        rank.matches += 1
        low, high = self.config.weight_range
        kept = [rank for rank in ranks.values()
                if _norm(_go_div(rank.weight, rank.matches), low, high) >= _go_div(self.config.threshold, rank.matches)]

        def order(rank: _Rank) -> tuple[Any, ...]:
            when = date(rank.document)
            return (-rank.weight, -(when.timestamp() if when is not None else float("-inf")), name(rank.document))
        return [rank.document for rank in sorted(kept, key=order)]


def _go_div(a: int, b: int) -> int:
    """Go's integer division (towards zero)."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def _norm(number: int, low: int, high: int) -> int:
    if high == low:
        raise RelatedError("related indices need a weight other than 0")
    return math.floor((number - low) / (high - low) * 100 + 0.5)
