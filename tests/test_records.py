"""core/records.py: blogbuild's `dataclass` gives a class the standard library's __repr__, __eq__ and __hash__
(the same results, by the same rules), from functions shared by every class instead of code compiled per class."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, ClassVar

import pytest

from blogbuild.core.records import dataclass as records_dataclass


def _classes(make: Callable[..., Any]) -> dict[str, type]:
    """The same class bodies under one dataclass decorator or the other."""
    @make(frozen=True)
    class Frozen:
        name: str
        count: int = 0
        tags: tuple[str, ...] = ()
        note: str = dataclasses.field(default="", compare=False)
        hidden: str = dataclasses.field(default="", repr=False)
        hashed_only: int = dataclasses.field(default=0, compare=False, hash=True)
        kind: ClassVar[str] = "frozen"

    @make
    class Plain:
        items: list = dataclasses.field(default_factory=list)
        label: str = "x"

    @make(frozen=True)
    class Empty:
        pass

    @make(frozen=True)
    class One:
        value: Any

    @make(frozen=True)
    class Child(Frozen):
        extra: int = 1

    @make(frozen=True)
    class OwnMethods:
        value: int

        def __repr__(self) -> str:
            return "own"

        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 7

    @make(eq=False)
    class Identity:
        value: int

    @make(unsafe_hash=True)
    class Unsafe:
        value: int

    @make(slots=True, eq=False)
    class Slotted:
        value: int

    return {"Frozen": Frozen, "Plain": Plain, "Empty": Empty, "One": One, "Child": Child, "OwnMethods": OwnMethods,
            "Identity": Identity, "Unsafe": Unsafe, "Slotted": Slotted}


OURS, THEIRS = _classes(records_dataclass), _classes(dataclasses.dataclass)
INSTANCES = {
    "Frozen": [("a", 1, ("t",), "n", "h", 3), ("a", 1, ("t",), "other note", "h", 3), ("b",)],
    "Plain": [([1, 2], "y"), ([1, 2], "y"), ()],
    "Empty": [(), ()],
    "One": [("x",), ("x",), (("x",),)],
    "Child": [("a", 1, (), "n", "h", 3, 2), ("a",)],
    "OwnMethods": [(1,), (2,)],
    "Identity": [(1,), (1,)],
    "Unsafe": [(1,), (1,), (2,)],
    "Slotted": [(1,)],
}


def _behaviour(classes: dict[str, type], name: str) -> list:
    cls = classes[name]
    made = [cls(*arguments) for arguments in INSTANCES[name]]
    seen: list = [cls.__hash__ is None, [repr(value) for value in made]]
    for first in made:
        for second in made:
            seen.append((first == second, first != second) if first is not second else first == second)
    seen.append(cls.__hash__ is object.__hash__)   # eq=False: compared and hashed as objects are
    seen.append([hash(value) for value in made] if cls.__hash__ not in (None, object.__hash__) else None)
    seen.append([field.name for field in dataclasses.fields(cls)])
    return seen


@pytest.mark.parametrize("name", sorted(INSTANCES))
def test_the_methods_behave_as_the_standard_librarys(name: str) -> None:
    assert _behaviour(OURS, name) == _behaviour(THEIRS, name)


def test_a_frozen_class_stays_frozen_and_replace_works() -> None:
    value = OURS["Frozen"]("a", 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.name = "b"   # type: ignore[misc]
    assert dataclasses.replace(value, name="b") == OURS["Frozen"]("b", 1)
    assert dataclasses.is_dataclass(value)


def test_a_value_holding_itself_shows_dots_as_the_standard_librarys() -> None:
    ours, theirs = OURS["Plain"](), THEIRS["Plain"]()
    ours.items.append(ours)
    theirs.items.append(theirs)
    assert repr(ours) == repr(theirs) and repr(ours).endswith("Plain(items=[...], label='x')")


def test_no_method_is_compiled_for_a_class() -> None:
    """Every class shares the code of its __repr__, __eq__ and __hash__ (the standard library compiles each)."""
    frozen, one = OURS["Frozen"], OURS["One"]
    for method in ("__repr__", "__eq__", "__hash__"):
        assert getattr(frozen, method).__code__ is getattr(one, method).__code__
        assert getattr(frozen, method).__qualname__ == f"{frozen.__qualname__}.{method}"
