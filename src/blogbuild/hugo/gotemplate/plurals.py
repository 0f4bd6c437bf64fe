"""The plural form Hugo's i18n picks for a count: CLDR's plural rules (vendor/cldr/plurals.xml, as the go-i18n that
Hugo 0.168 pins ships them), read and evaluated as that go-i18n's generated code evaluates them, the count made
into CLDR's operands as Hugo and go-i18n make them.

`{{ i18n "minutes" 2 }}` in Arabic is the `two` form ("دقيقتان"), 3 the `few` one; `1.0` in English is `other`
(a visible fraction digit), `1` is `one`. A translation without the form picked falls back to `other`.
"""
from __future__ import annotations

import functools
import math
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PLURALS_FILE = Path(__file__).resolve().parent.parent.parent / "vendor" / "cldr" / "plurals.xml"   # assets' VENDOR_DIR
# A relation as go-i18n's code generator reads one (operand, modulus, = or !=, the values): a relation it cannot
# read is left out of its condition, as there.
_RELATION = re.compile(r"([niftvw])(?:\s*%\s*([0-9]+))?\s*(!=|=)(.*)")


@dataclass(frozen=True)
class Operands:
    """CLDR's operands of a number (tr35-numbers): i its integer digits, v and w its visible fraction digits with
    and without trailing zeros, f and t those digits as a number."""

    i: int
    v: int = 0
    w: int = 0
    f: int = 0
    t: int = 0


# One relation: (operand, modulus or 0, negated, values, ranges).
Relation = tuple[str, int, bool, tuple[int, ...], tuple[tuple[int, int], ...]]


def _relation(text: str) -> Relation | None:
    found = _RELATION.search(text)
    if found is None:
        return None
    operand, modulus, operator, right = found.groups()
    values, ranges = [], []
    for item in right.split(","):
        low, dots, high = item.strip().partition("..")
        if dots:
            ranges.append((int(low), int(high)))
        elif low:
            values.append(int(low))
    return operand, int(modulus or 0), operator == "!=", tuple(values), tuple(ranges)


def _condition(text: str) -> tuple[tuple[Relation, ...], ...]:
    """A rule's condition (before its @ samples): its "or" alternatives, each the relations "and" joins."""
    return tuple(tuple(relation for relation in map(_relation, alternative.split("and")) if relation is not None)
                 for alternative in text.split("@", 1)[0].split("or"))


def _holds(relation: Relation, ops: Operands) -> bool:
    """A relation as go-i18n evaluates it: n's values and ranges hold only for a whole number (t = 0), compared
    by its integer digits (n % m by i % m); the other operands are integers as they are."""
    operand, modulus, negated, values, ranges = relation
    whole = operand != "n" or ops.t == 0
    number = ops.i if operand == "n" else getattr(ops, operand)
    if modulus:
        number %= modulus
    found = whole and (number in values or any(low <= number <= high for low, high in ranges))
    return found != negated


@functools.lru_cache(maxsize=1)
def _rules() -> dict[str, tuple[tuple[str, tuple[tuple[Relation, ...], ...]], ...]]:
    """{locale (lower case, "-" between its parts): its forms in the file's order with their conditions}."""
    root = ElementTree.parse(PLURALS_FILE).getroot()
    rules: dict[str, tuple[tuple[str, tuple[tuple[Relation, ...], ...]], ...]] = {}
    for group in root.iter("pluralRules"):
        forms = tuple((rule.get("count", "other"), _condition(rule.text or ""))
                      for rule in group.iter("pluralRule") if rule.get("count") != "other")
        for locale in (group.get("locales") or "").split():
            rules[locale.lower().replace("_", "-")] = forms
    return rules


def plural_form(language: str, count: Any) -> str:
    """The form ("zero", "one", "two", "few", "many", "other") Hugo picks for count (i18n's second argument, or its
    Count) in a language (the i18n file's: "ar", "pt-BR"): the language's own rule, else its base language's;
    "other" without a count, for a count that is no number, or a language CLDR has no rule for."""
    ops = operands(plural_count(count))
    if ops is None:
        return "other"
    tag = language.lower().replace("_", "-")
    rules = _rules()
    forms = rules.get(tag) or rules.get(tag.split("-")[0], ())
    for form, condition in forms:
        if any(alternative and all(_holds(relation, ops) for relation in alternative) for alternative in condition):
            return form
    return "other"


def plural_count(data: Any) -> int | str | None:
    """The count Hugo gives go-i18n for i18n's data (getPluralCount): a map's Count key (in any case) or an
    object's Count, else the data itself; an integer as it is, a float as text with a decimal point ("1.0"), a
    text only when it reads as a number; None otherwise."""
    if data is None:
        return None
    if isinstance(data, Mapping):
        data = next((value for key, value in data.items() if str(key).lower() == "count"), data)
    elif not isinstance(data, (bool, int, float, str)):
        try:   # an object's Count (a page, a menu entry has none: Hugo then counts nothing)
            data = data.Count
        except Exception:  # noqa: BLE001 - the page model raises its own error for a field it lacks
            return None
    if isinstance(data, bool):
        return int(data)   # cast.ToIntE(true) is 1
    if isinstance(data, int):
        return data
    if isinstance(data, float):
        if not math.isfinite(data):
            return None
        text = _go_float(data)
        return text if "." in text else text + ".0"
    if isinstance(data, str):
        try:
            float(data.strip())
        except ValueError:
            return None
        return data
    return None


def _go_float(value: float) -> str:
    """strconv.FormatFloat(value, 'f', -1, 64): the shortest digits that read back as the value, no exponent."""
    from decimal import Decimal
    return format(Decimal(repr(value)), "f")


def operands(count: int | str | None) -> Operands | None:
    """go-i18n's operands of a count: an integer's absolute value; a text's digits as written (its sign dropped,
    "1.50" has v 2, w 1, f 50, t 5). None for no count, or a text go-i18n cannot read (then Hugo writes ""
    for the message, which blogbuild takes as other)."""
    if count is None:
        return None
    if isinstance(count, int):
        return Operands(abs(count))
    text = count[1:] if count.startswith("-") else count
    whole, dot, fraction = text.partition(".")
    if not re.fullmatch(r"[0-9]+", whole) or (dot and not re.fullmatch(r"[0-9]*", fraction)):
        return None
    if not fraction:
        return Operands(int(whole))
    kept = fraction.rstrip("0")
    return Operands(int(whole), len(fraction), len(kept), int(fraction), int(kept) if kept else 0)
