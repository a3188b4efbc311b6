"""Frozen values made cheaply: dataclasses whose methods are written once, here.

`@dataclass(frozen=True, slots=True)` compiles each method it makes (`__init__`, `__repr__`,
`__eq__`, `__hash__`, `__setattr__`, `__delattr__`) from source text, with `exec`, at every
start of every command: about 3.5 million instructions a class, paid before any work (issue 30).
`@frozen` lets `dataclass` record the fields (what pydantic, `dataclasses.fields`, `asdict` and
`replace` read) and make the slots, and nothing else: the methods are `Frozen`'s, written from
the fields' names, and each class writes its own `__init__` (the fields in order, each with
its default: tests/test_frozen.py holds every such class to the dataclass it stands for).
Type checkers see frozen dataclasses (`dataclass_transform`). `frozen(slotted=True)` does
without `dataclass` for values that nothing reads as dataclasses (the engine's answers): their
fields are the `__slots__` they declare.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, fields
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar, TypeVar, dataclass_transform

_Value = TypeVar("_Value", bound="Frozen")

set_field = object.__setattr__  # how an `__init__` of a frozen value sets its fields: `set_field(self, "name", name)`
FieldSetter = Callable[[object, object], None]


class Frozen:
    """The methods of a frozen dataclass, for the classes made by `frozen`: equality (same
    class, same fields), hashing and repr as `dataclass` writes them, pickling and copies, and
    no assignment (`FrozenInstanceError`)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()  # the fields' names, in order (`frozen`)
    if TYPE_CHECKING:
        _values: ClassVar[attrgetter[object]]  # the fields' values: what equality and hashing compare

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self._fields)})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(self._values(self) == self._values(other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> list[object]:
        return [getattr(self, name) for name in self._fields]

    def __setstate__(self, state: list[object]) -> None:
        for name, value in zip(self._fields, state, strict=True):
            set_field(self, name, value)


@dataclass_transform(frozen_default=True)
def frozen(*, kw_only: bool = False, slotted: bool = False) -> Callable[[type[_Value]], type[_Value]]:
    """A subclass of `Frozen` made a frozen, slotted dataclass (`kw_only`: its fields given by
    keyword only), without `dataclass`'s generated methods (see the module's docstring).

    `slotted`: not a dataclass at all, for a value that nothing reads as one (no pydantic, no
    `fields` or `replace`: the engine's answers). Its fields are the `__slots__` it declares
    (after its base's), their defaults its `__init__`'s; it is made in a third of the time
    `dataclass` takes to record the fields (a quarter of a million instructions a class, at
    every start)."""

    def make(cls: type[_Value]) -> type[_Value]:
        if slotted:
            own = cls.__dict__.get("__slots__")
            if own is None or isinstance(own, str):
                raise TypeError(f"{cls.__qualname__} declares its fields as a tuple of __slots__ (referee.ground.frozen)")
            made = cls
            made._fields = (*cls._fields, *own)
            made.__match_args__ = made._fields  # type: ignore[attr-defined,misc]  # (as a dataclass has)
        else:
            made = dataclass(init=False, repr=False, eq=False, slots=True, kw_only=kw_only)(cls)
            made._fields = tuple(field.name for field in fields(made))  # type: ignore[arg-type]  # a dataclass now
        if made._fields:
            if "__init__" not in cls.__dict__:
                raise TypeError(f"{cls.__qualname__} writes its own __init__ (referee.ground.frozen)")
            made._values = attrgetter(*made._fields)
        return made

    return make


def field_setters(cls: type[Frozen]) -> tuple[FieldSetter, ...]:
    """The setters of a `frozen` class's fields, in order, for an `__init__` run in a hot loop:
    `setter(self, value)` is a third the cost of `set_field(self, "name", value)` (the slot's
    own descriptor, not the name looked up through the class at each call)."""
    return tuple(getattr(cls, name).__set__ for name in cls._fields)
