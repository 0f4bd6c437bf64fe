"""A saved BuilderState as the changes since the full state file (pipeline/state.py's DiskCache): a one-post edit
writes the few entries and objects it changed, not the ~23,000 objects of a 1,000-post site's state.

A change says how a value differs from the full state's value in its place: `["d", changed entries, removed
keys]` a dict, `["s", added, removed]` a frozenset, `["r", {field: change}]` a record (the state, its LastGood and its Site, whose terms
are the same but one), `["i", [index, change, ...]]` a tuple or list of the same length, `["v", value]` a new value. A
value in a change names by reference what it shares with the full state (its frozen records, its search entries'
bytes), so a new Site whose terms are the old ones writes each term as a number. Applying a change gives the
builder copies of every dict, list and mutable record: the full state as read stays as it was, the base of the
next delta.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any, Callable

from ..core.records import dataclass

_MISSING = object()
# Values told unchanged by comparing them (a new string equal to the old one is unchanged).
_COMPARED = frozenset({str, int, float, bool, bytes, type(None)})
_CONTAINERS = (dict, list, set)
_SEQUENCES = (tuple, list)
_kinds: dict[type, str] = {}
# The types whose objects never change in place (the frozen records are added as they are met).
_IMMUTABLE = {*_COMPARED, frozenset}
# The frozen records a change names field by field: each is held in one place (a state has one LastGood, which has
# one Site). Any other record that changed is written whole, so that an object held in several places (a post
# in the site's list, its section's and its terms') comes back as one object.
_FIELD_BY_FIELD = frozenset({"blogbuild.pipeline.state:LastGood", "blogbuild.core.model:Site"})


class DamagedPatch(Exception):
    """A change that does not fit the state it names (a damaged delta file): ignored, as a damaged file is."""


def _kind(cls: type) -> str:
    """"frozen": a record never changed in place (a frozen dataclass or a NamedTuple of blogbuild), "mutable":
    a dataclass that is not frozen, "": no record."""
    known = _kinds.get(cls)
    if known is None:
        params = getattr(cls, "__dataclass_params__", None)
        named_tuple = issubclass(cls, tuple) and hasattr(cls, "_fields")
        if params is not None:
            known = "frozen" if params.frozen else "mutable"
        else:
            known = "frozen" if named_tuple else ""
        _kinds[cls] = known
    return known


def _field_names(value: Any) -> tuple[str, ...]:
    if isinstance(value, tuple):   # a NamedTuple
        names: tuple[str, ...] = type(value)._fields   # type: ignore[attr-defined]
        return names
    return tuple(item.name for item in fields(value))


@dataclass(frozen=True)
class StateBase:
    """A full state file as read: its id, its state (never handed to a builder: a delta is of it), and what a
    delta may name of it: its records by number, its search entries' bytes by position."""

    base_id: str
    state: Any                 # the BuilderState read
    outputs: tuple[str, ...]
    records: list[Any]         # every record of the file, by its number
    blobs: list[bytes]         # the SearchMemo's entries, in the file's order

    def references(self) -> dict[int, int]:
        """The objects a delta writes as references (by id): a record n as n, the k-th bytes value as ~k."""
        shared = {cls for cls in {type(record) for record in self.records} if _kind(cls) == "frozen"}
        references = {id(record): number for number, record in enumerate(self.records) if type(record) in shared}
        references.update((id(blob), ~number) for number, blob in enumerate(self.blobs))
        return references

    def resolver(self, other: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """What a delta's reference names: a number in the full state, any other key as other() says."""
        records, blobs = self.records, self.blobs

        def resolve(key: Any) -> Any:
            if type(key) is not int:
                return other(key)
            try:
                return records[key] if key >= 0 else blobs[~key]
            except IndexError:
                raise DamagedPatch(key) from None
        return resolve


def entry_blobs(state: Any) -> list[bytes]:
    """The bytes a delta may name of a state: its search entries' (each post's entry of index.json)."""
    return [value for value in state.search.entries.values() if type(value) is bytes]


def _immutable(value: Any) -> bool:
    """Whether the same object is the same value as when the full state was read."""
    cls = type(value)
    if cls in _IMMUTABLE:
        return True
    if cls in _CONTAINERS:
        return False
    if cls is tuple:
        return not any(type(item) in _CONTAINERS for item in value)
    immutable = (_kinds.get(cls) or _kind(cls)) in ("frozen", "")
    if immutable:
        _IMMUTABLE.add(cls)
    return immutable


def change_of(old: Any, new: Any, counted: list[int]) -> list | None:
    """How new differs from old (None: it does not), each entry, item or value added to counted[0]."""
    cls = type(new)
    if old is new and _immutable(new):
        return None
    if cls in _COMPARED and type(old) is cls and old == new:
        return None
    if type(old) is not cls:
        counted[0] += 1
        return ["v", new]
    if cls is dict:
        changed = {}
        immutable, get = _IMMUTABLE, old.get
        for key, value in new.items():
            before = get(key, _MISSING)
            if before is value and type(value) in immutable:   # most entries: told apart in a few instructions
                continue
            if before is _MISSING or change_of(before, value, [0]) is not None:
                changed[key] = value
        removed = [key for key in old if key not in new]
        counted[0] += len(changed) + len(removed)
        return ["d", changed, removed] if changed or removed else None
    if cls is frozenset:
        if old == new:
            return None
        added, removed = list(new - old), list(old - new)
        counted[0] += len(added) + len(removed)
        return ["s", added, removed]
    if cls in _SEQUENCES and len(old) == len(new):
        items: list[Any] = []
        immutable = _IMMUTABLE
        for index, (before, after) in enumerate(zip(old, new, strict=True)):
            if before is after and type(after) in immutable:
                continue
            change = change_of(before, after, counted)
            if change is not None:
                items += [index, change]
        return ["i", items] if items or cls is list else None
    kind = _kinds.get(cls) or _kind(cls)
    if kind == "mutable" or f"{cls.__module__}:{cls.__qualname__}" in _FIELD_BY_FIELD:
        record: dict[str, Any] = {}
        for name in _field_names(new):
            change = change_of(getattr(old, name), getattr(new, name), counted)
            if change is not None:
                record[name] = change
        return ["r", record] if record or kind == "mutable" else None
    counted[0] += 1
    return ["v", new]


def _copied(value: Any) -> Any:
    """value with its own containers (and a tuple's, a mutable record's), so that the builder changing them
    leaves the full state's."""
    cls = type(value)
    if cls in _CONTAINERS:
        return cls(value)
    if cls is tuple and any(type(item) in _CONTAINERS for item in value):
        return tuple(_copied(item) for item in value)
    if (_kinds.get(cls) or _kind(cls)) == "mutable":
        return _record_changed(value, {})
    return value


def _record_changed(old: Any, changes: Any) -> Any:
    if type(changes) is not dict:
        raise DamagedPatch("a record's changes that are no dict")
    names = _field_names(old)
    if not set(names).issuperset(changes):
        raise DamagedPatch("a change of fields the record does not have")
    mutable = _kind(type(old)) == "mutable"
    values = {name: changed(getattr(old, name), changes[name]) if name in changes
              else _copied(getattr(old, name)) if mutable else getattr(old, name) for name in names}
    if isinstance(old, tuple):
        return tuple.__new__(type(old), [values[name] for name in names])
    made = object.__new__(type(old))   # as the codec makes a record: no __init__
    made.__dict__.update(values)
    return made


def changed(old: Any, change: Any) -> Any:
    """old with change applied, every container of what changed copied; DamagedPatch when it does not fit."""
    if type(change) is not list or not change or change[0] not in ("d", "s", "r", "i", "v"):
        raise DamagedPatch("a change that is none")
    how, parts = change[0], change[1:]
    cls = type(old)
    if how == "v" and len(parts) == 1:
        return _copied(parts[0])
    if how == "d" and cls is dict and len(parts) == 2 and type(parts[0]) is dict and type(parts[1]) is list:
        removed = set(parts[1])
        value = {key: item for key, item in old.items() if key not in removed} if removed else dict(old)
        value.update(parts[0])
        return value
    if how == "s" and cls is frozenset and len(parts) == 2 and all(type(part) is list for part in parts):
        return (old - frozenset(parts[1])) | frozenset(parts[0])
    if how == "i" and cls in _SEQUENCES and len(parts) == 1 and type(parts[0]) is list and len(parts[0]) % 2 == 0:
        items = list(old) if cls is list else [_copied(item) for item in old]
        numbers = iter(parts[0])
        for index, item_change in zip(numbers, numbers, strict=True):
            if type(index) is not int or not 0 <= index < len(items):
                raise DamagedPatch("a change of an item that is not there")
            items[index] = changed(old[index], item_change)
        return items if cls is list else tuple(items)
    if how == "r" and len(parts) == 1 and _kind(cls) in ("frozen", "mutable"):
        return _record_changed(old, parts[0])
    raise DamagedPatch(f"a change {how!r} that does not fit a {cls.__name__}")
