"""Hugo's functions over lists and maps: `merge`, `union`, `intersect`, `symdiff`, `complement`, `shuffle`
and `sort`, with Hugo's rules (numbers compared as numbers, the last map wins, strings in the site language's collation)."""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import jinja2

from .arithmetic import HugoFunctionError
from .collation import collation_key
from .escape import go_string
from .objects import GoTime, go_type, truthy


def same_kind(original: Any, items: Any) -> Any:
    """items as a list of original's kind: a page list stays a page list (with .ByTitle, .Len, …), as Hugo's
    functions keep the slice's type."""
    kind = type(original)
    if isinstance(original, list) and kind is not list:
        return kind(items)
    return list(items)


def is_list(value: Any) -> bool:
    """A Go slice or array (reflect.IsSlice)."""
    return isinstance(value, (list, tuple))


def _identity(value: Any) -> Any:
    """What sets compare by: numbers as float64 (Hugo's normalize), anything else as it is."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    try:
        hash(value)
    except TypeError:
        raise HugoFunctionError("the sets hold values that cannot be compared (maps or lists)") from None
    return value


def _identities(*collections: Any) -> set[Any]:
    found: set[Any] = set()
    for collection in collections:
        items = collection if is_list(collection) else [collection]
        found |= {_identity(item) for item in items if item is not None}
    return found


def union(left: Any, right: Any) -> Any:
    """union: left's elements, then right's it lacks, each once; nil on one side gives the other."""
    if left is None:
        return right
    if right is None:
        return left
    if not is_list(left) or not is_list(right):
        raise HugoFunctionError("union needs two lists (slices or arrays)")
    out, seen = [], set()
    for item in [*left, *right]:
        key = _identity(item)
        if item is not None and key not in seen:
            seen.add(key)
            out.append(item)
    return same_kind(left, out)


def intersect(left: Any, right: Any) -> list[Any]:
    """intersect: left's elements that right has too, each once, in left's order."""
    if left is None or right is None:
        return []
    if not is_list(left) or not is_list(right):
        raise HugoFunctionError("intersect needs two lists (slices or arrays)")
    inside = _identities(right)
    out, seen = [], set()
    for item in left:
        key = _identity(item)
        if key in inside and key not in seen:
            seen.add(key)
            out.append(item)
    return same_kind(left, out)


def symdiff(second: Any, first: Any) -> list[Any]:
    """`first | symdiff second`: first's elements not in second, then second's not in first."""
    for value in (first, second):
        if not is_list(value):
            raise HugoFunctionError("symdiff needs lists (slices or arrays)")
    in_first, in_second = _identities(first), _identities(second)
    return same_kind(first, [item for item in [*first, *second]
                             if (_identity(item) in in_first) != (_identity(item) in in_second)])


def complement(*collections: Any) -> list[Any]:
    """The last list's elements found in none of the others (lists or single values)."""
    if len(collections) < 2:
        raise HugoFunctionError("complement needs at least two arguments")
    universe = collections[-1]
    if not all(is_list(collection) for collection in collections):
        raise HugoFunctionError("complement: arguments must be slices or arrays")
    others = _identities(*collections[:-1])
    return same_kind(universe, [item for item in universe if _identity(item) not in others])


def merge(*maps: Any) -> Any:
    """Hugo's merge: a copy of the last map with each earlier map's keys it lacks (keys compared
    case-insensitively), maps inside both merged the same way: the last map wins."""
    if len(maps) < 2:
        raise HugoFunctionError("merge requires at least two parameters")
    result = maps[-1]
    for source in reversed(maps[:-1]):
        if not isinstance(result, Mapping):
            raise HugoFunctionError(f"merge: destination must be a map, got {go_type(result)}")
        if not truthy(source):
            continue
        if not isinstance(source, Mapping):
            raise HugoFunctionError(f"merge: source must be a map, got {go_type(source)}")
        result = _merge_maps(result, source)
    return result


def _merge_maps(destination: Mapping, source: Mapping) -> Mapping:
    lower = getattr(type(destination), "case_insensitive", False)
    out = type(destination)(destination) if isinstance(destination, dict) else dict(destination)
    names = {str(key).lower(): key for key in destination}
    for key, value in source.items():
        found = names.get(str(key).lower())
        if found is None:
            out[str(key).lower() if lower else key] = value
            continue
        current = destination[found]
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            out[key] = _merge_maps(current, value)    # under the source's key, as Hugo's mergeMap sets it
    return out


def shuffle(items: Any) -> list[Any]:
    """shuffle: Hugo's order is random on every build; blogbuild's is a fixed permutation of the values (the
    same list shuffles alike on every build), so two builds give the same bytes."""
    import random
    if items is None:
        raise HugoFunctionError("shuffle can't iterate over a nil value")
    values = list(items)
    random.Random(hashlib.sha256(go_string(values).encode()).hexdigest()).shuffle(values)
    return same_kind(items, values)


def _collated(value: Any, table: str) -> Any:
    """A sort key as Hugo's sort compares: numbers by value, times by their instant, strings in the site
    language's collation (collation.py)."""
    if isinstance(value, bool):
        return (0, int(value), ())
    if isinstance(value, (int, float)):
        return (0, value, ())
    if isinstance(value, GoTime):     # times by their instant in whole seconds, as Hugo's compare
        return (0, value.Unix, ())
    if value is not None and not isinstance(value, str):   # a page, a menu entry, a map: Hugo cannot compare
        return (2, 0, ())                                  # them, and its stable sort keeps their order
    return (1, 0, collation_key(go_string(value), table))


def sort(context: jinja2.runtime.Context, items: Any, *arguments: Any) -> list[Any]:
    """Hugo's sort: a list by its values or by a key path ("Params.weight", "title"), a map's values by their
    keys (or "value"); "desc" as the second argument reverses; the sort is stable; strings in the collation of
    the site's language."""
    environment = context.environment
    table = getattr(context.get("site"), "collation", "root")
    key_path = ""
    descending = False
    for position, argument in enumerate(arguments):
        if position == 0:
            key_path = argument if isinstance(argument, str) else ""
        elif position == 1:
            descending = argument == "desc"
    if items is None:
        return []
    path = [part for part in key_path.strip(".").split(".") if part]
    if isinstance(items, Mapping):
        pairs = [(key, items[key]) for key in items]
        if not key_path:
            keyed = [(key, value) for key, value in pairs]
        elif key_path == "value":
            keyed = [(value, value) for _, value in pairs]
        else:
            keyed = [(_sub_element(environment, value, path), value) for _, value in pairs]
    else:
        values = list(items)
        if not key_path or key_path == "value":
            keyed = [(value, value) for value in values]
        else:
            keyed = [(_sub_element(environment, value, path), value) for value in values]
    ordered = sorted(keyed, key=lambda pair: _collated(pair[0], table), reverse=descending)
    return same_kind(items, [value for _, value in ordered])


def _sub_element(environment: jinja2.Environment, value: Any, path: list[str]) -> Any:
    """The value at a key path ("Params.rank"), read as the template reads fields (Go's lookups)."""
    for name in path:
        if value is None:
            return None
        value = environment.getattr(value, name)
        if callable(value) and not isinstance(value, (Mapping, list)):
            value = value()
    return value
