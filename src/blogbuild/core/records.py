"""`dataclass` as the standard library's, with the same `__repr__`, `__eq__` and `__hash__`, made without compiling
code for each class.

Python 3.11 compiles every method a dataclass is given from source text when the class is made, about a million
instructions each, and a build that carries on from its cache makes some ninety classes before it reads a file
(a deploy of 1,000 posts: 390 M of its 3.3 G instructions). Here the standard library still makes `__init__` (and
a frozen class's `__setattr__` and `__delattr__`); `__repr__`, `__eq__` and `__hash__` are functions shared by
every class, reading the fields `dataclasses.fields` lists: the same results, the same rules for which of them a
class gets (one it defines itself is kept), for about a third less. Type checkers see the standard `dataclass`.
"""
from __future__ import annotations

import dataclasses
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:
    def dataclass(cls: Any = None, /, *, init: bool = True, repr: bool = True, eq: bool = True,
                  order: bool = False, unsafe_hash: bool = False, frozen: bool = False, match_args: bool = True,
                  kw_only: bool = False, slots: bool = False, weakref_slot: bool = False) -> Any:
        """dataclasses.dataclass, its __repr__, __eq__ and __hash__ shared rather than compiled per class."""
        def wrap(cls: type) -> type:
            if order:   # ordering methods compare as __eq__ does: the standard library makes them all
                return dataclasses.dataclass(
                    cls, init=init, repr=repr, eq=eq, order=order, unsafe_hash=unsafe_hash, frozen=frozen,
                    match_args=match_args, kw_only=kw_only, slots=slots, weakref_slot=weakref_slot)
            own_hash = cls.__dict__.get("__hash__", dataclasses.MISSING)
            explicit_hash = not (own_hash is dataclasses.MISSING or (own_hash is None and "__eq__" in cls.__dict__))
            made = dataclasses.dataclass(cls, init=init, repr=False, eq=False, order=False, unsafe_hash=False,
                                         frozen=frozen, match_args=match_args, kw_only=kw_only, slots=slots,
                                         weakref_slot=weakref_slot)
            _add_methods(made, repr, eq, frozen, unsafe_hash, explicit_hash)
            return made
        return wrap if cls is None else wrap(cls)


def _values(names: list[str]) -> Callable[[Any], tuple]:
    """The tuple of these attributes of an object (what the generated methods build as `(self.a, self.b,)`)."""
    if not names:
        return lambda value: ()
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda value: (get(value),)
    return attrgetter(*names)


def _named(cls: type, function: Any) -> Any:
    function.__qualname__ = f"{cls.__qualname__}.{function.__name__}"
    return function


def _repr_of(cls: type, fields: list[dataclasses.Field]) -> Any:
    names = [field.name for field in fields if field.repr]
    values = _values(names)
    running: set[tuple[int, int]] = set()   # as the standard library's: a value holding itself shows "..."

    def __repr__(self: Any) -> str:
        import _thread
        key = (id(self), _thread.get_ident())
        if key in running:
            return "..."
        running.add(key)
        try:
            shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, values(self)))   # noqa: B905
            return f"{self.__class__.__qualname__}({shown})"
        finally:
            running.discard(key)
    return _named(cls, __repr__)


def _eq_of(cls: type, fields: list[dataclasses.Field]) -> Any:
    values = _values([field.name for field in fields if field.compare])

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented
    return _named(cls, __eq__)


def _hash_of(cls: type, fields: list[dataclasses.Field]) -> Any:
    values = _values([field.name for field in fields if (field.compare if field.hash is None else field.hash)])

    def __hash__(self: Any) -> int:
        return hash(values(self))
    return _named(cls, __hash__)


def _add_methods(cls: type, repr: bool, eq: bool, frozen: bool, unsafe_hash: bool, explicit_hash: bool) -> None:
    """The methods dataclasses would add, by its rules (its _hash_action table for __hash__)."""
    fields = list(dataclasses.fields(cls))
    if repr and "__repr__" not in cls.__dict__:
        setattr(cls, "__repr__", _repr_of(cls, fields))   # noqa: B010 - a method of the class, set after it is made
    if eq and "__eq__" not in cls.__dict__:
        setattr(cls, "__eq__", _eq_of(cls, fields))   # noqa: B010
    if unsafe_hash:
        if explicit_hash:
            raise TypeError(f"Cannot overwrite attribute __hash__ in class {cls.__name__}")
        setattr(cls, "__hash__", _hash_of(cls, fields))   # noqa: B010
    elif eq and not explicit_hash:
        setattr(cls, "__hash__", _hash_of(cls, fields) if frozen else None)   # noqa: B010
