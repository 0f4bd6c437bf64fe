"""Hugo's `where` condition (tpl/collections/where.go, checkCondition): how an element's field compares with the
value a template gives, by the kinds of the two as Go's reflection sees them.

- nil on either side: only equal (both nil) or unequal (one nil); every other operator is false;
- two bools: only equal or unequal;
- a page (Hugo's Eqer) on either side: equal or unequal by the page;
- the same kind: two integers, two strings (compared byte by byte), two floats, two times (by their Unix
  seconds), two lists (for intersect);
- two numbers of different kinds: as floats;
- else the value must be a list: its elements converted to the field's kind (those that convert) for `in` and
  `not in` (an empty list: `not in` holds, nothing else does); an ordering or equality then never holds;
- `in` of a string in a string is a substring test; `like` a Go regular expression found in the string;
- an unknown operator stops the build, as Hugo does ("no such operator").
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from .function_error import HugoFunctionError
from .objects import GoObject, GoTime

_EQUAL = ("", "=", "==", "eq")
_UNEQUAL = ("!=", "<>", "ne")
_ORDER = {">=": "ge", ">": "gt", "<=": "le", "<": "lt", "ge": "ge", "gt": "gt", "le": "le", "lt": "lt"}
OPERATORS = frozenset((*_EQUAL, *_UNEQUAL, *_ORDER, "in", "not in", "intersect", "like"))


def where_operator(operator: Any) -> str:
    """The operator as Hugo reads it (trimmed, lower case); HugoFunctionError when it is none of Hugo's."""
    if not isinstance(operator, str):
        raise HugoFunctionError("where: operator argument must be string type")
    name = operator.strip().lower()
    if name not in OPERATORS:
        raise HugoFunctionError(f"where: no such operator {operator!r}")
    return name


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (GoTime, datetime)):
        return "time"
    if isinstance(value, (list, tuple)):
        return "list"
    return "other"


def _unix(value: Any) -> int:
    return int((value.value if isinstance(value, GoTime) else value).timestamp())


def holds(found: Any, operator: str, value: Any) -> bool:
    """Whether `found OPERATOR value` holds, as Hugo's where decides it (the operator as where_operator gives it)."""
    if found is None or value is None:
        if operator in _EQUAL:
            return found is None and value is None
        if operator in _UNEQUAL:
            return (found is None) != (value is None)
        return False
    kinds = (_kind(found), _kind(value))
    if kinds == ("bool", "bool"):
        return (found == value) if operator in _EQUAL else (found != value) if operator in _UNEQUAL else False
    if operator in _EQUAL + _UNEQUAL and "time" not in kinds and \
            (isinstance(found, GoObject) or isinstance(value, GoObject)) and "list" not in kinds:
        return (found == value) == (operator in _EQUAL)   # a page's Eq
    if kinds[0] == kinds[1] and kinds[0] in ("int", "string", "float", "time"):
        pair = (_unix(found), _unix(value)) if kinds[0] == "time" else (found, value)
        return _compared(pair[0], operator, pair[1])
    if kinds == ("list", "list"):
        return operator == "intersect" and any(item in value for item in found)
    if kinds[0] in ("int", "float") and kinds[1] in ("int", "float"):
        return _compared(float(found), operator, float(value))
    if kinds[1] != "list":
        return False
    if not value:
        return operator == "not in" and kinds[0] != "list"
    if operator not in ("in", "not in") or kinds[0] not in ("int", "float", "string", "time"):
        return False
    if kinds[0] == "time":   # times against the list's times; a list of none answers neither in nor not in
        times = [_unix(item) for item in value if isinstance(item, (GoTime, datetime))]
        return bool(times) and (_unix(found) in times) == (operator == "in")
    if kinds[0] == "string":
        found_in = any(isinstance(item, str) and item == found for item in value)
    else:   # a number against the list's numbers, of either kind
        found_in = any(_kind(item) in ("int", "float") and item == found for item in value)
    return found_in == (operator == "in")


def _compared(found: Any, operator: str, value: Any) -> bool:
    """Two values of one kind (int, float, string or Unix seconds)."""
    if operator in _EQUAL:
        return bool(found == value)
    if operator in _UNEQUAL:
        return bool(found != value)
    order = _ORDER.get(operator)
    if order is not None:
        return bool({"ge": found >= value, "gt": found > value, "le": found <= value, "lt": found < value}[order])
    if operator in ("in", "not in"):
        if isinstance(found, str) and isinstance(value, str):   # a substring of the string
            return (found in value) == (operator == "in")
        return False
    if operator == "like" and isinstance(found, str) and isinstance(value, str):
        from .functions import go_pattern
        return go_pattern(value).search(found) is not None
    return False
