"""The frozen values whose methods are written once (`referee.ground.frozen`) instead of generated
by `dataclass` at every start (issue 30: about 3.5 million instructions a class, paid by every
command): the moves, a shipping position's records, `referee ship`'s request. Each behaves as
the frozen, slotted dataclass it stands for: the same fields, `__init__`, repr, equality,
hashing, `match` and pickling (the worker processes), and it cannot be changed. The reference
is that dataclass itself, made here from the class's fields."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
from typing import Any

import pytest

from referee.commands.ship import ShipRequest
from referee.diagnostics import Location
from referee.documents.position import PlayerRecord, ShipRecord, read_position
from referee.engine.awaiting import ArrangementAwaited, DrawAwaited, KeepAwaited, MoveAwaited, PhaseOver, RoleAwaited
from referee.ground.frozen import Frozen
from referee.moves.clauses import SAN_JUAN, Arrange, Build, Extra, Keep, Load, Move, Pass, Sell, Settle, SmallWharfLoad, WharfLoad, move_adapter
from referee.rulesets.rules import Rules
from tests.conftest import ROOT

MODULES = ("referee.moves.clauses", "referee.documents.position", "referee.commands.ship", "referee.engine.awaiting")  # where `@frozen` classes are
POSITION = ROOT / "fixtures" / "positions" / "formats-example.yaml"
PHASE: Any = "captain"  # a phase, as the awaited values hold one
MOVES: list[Move] = [
    Pass(),
    Settle(),
    Settle(extra_tile="corn", tile="quarry", hospice=True, forest=True),
    Arrange(tiles={"corn": 1, "quarry": 2}, buildings={"small-market": 1}, san_juan=3),
    Arrange(tiles={}, buildings={}),
    Build(building="harbor"),
    Build(building="harbor", price=7, university=True, pay_colonist=SAN_JUAN, pay_good="corn", pay_vp=True, payments_again=(("vp", None),)),
    Extra(),
    Extra(goods=("corn", "sugar")),
    Sell(good="coffee"),
    Sell(good="coffee", income=5, own_post=True),
    Load(good="corn"),
    Load(good="corn", count=3, ship=5),
    WharfLoad(good="indigo"),
    SmallWharfLoad(goods=(("corn", 2), ("sugar", 1))),
    Keep(),
    Keep(items=(("corn", None), ("sugar", 2))),
]
EXAMPLES: list[Frozen] = [
    *MOVES,
    ShipRecord(4, None, 0),
    ShipRecord(5, "corn", 2),
    PlayerRecord("Anna", {"corn": 3}, ("harbor",), Location("position.yaml", 7, 5)),
    read_position(POSITION.read_bytes(), "position.yaml", None, POSITION.parent),
    ShipRequest(),
    ShipRequest("Anna", "base", True, True, 3, print),
    # what a game awaits (its phase stands in as a name: only the values' behaviour is held here)
    RoleAwaited(0, (("settler", None), ("builder", 1))),
    MoveAwaited(PHASE, 1),
    MoveAwaited(PHASE, 1, ((1, Pass()),)),
    ArrangementAwaited(PHASE, 0),
    KeepAwaited(PHASE, 2),
    DrawAwaited(PHASE, 0, 4),
    PhaseOver(PHASE),
]


def kinds() -> list[type[Frozen]]:
    """Every class made by `frozen` (with fields) in the modules of `MODULES`."""
    for module in MODULES:
        importlib.import_module(module)
    found, todo = [], list(Frozen.__subclasses__())
    while todo:
        kind = todo.pop()
        todo += kind.__subclasses__()
        if kind._fields:
            found.append(kind)
    return sorted(found, key=lambda kind: kind.__name__)


def declared(kind: type[Frozen]) -> list[tuple[str, Any, Any, bool]]:
    """The fields as the class declares them: (name, type, default or MISSING, keyword only). A
    dataclass's from its fields; a `slotted` one's (not a dataclass) from its slots and the
    defaults of its `__init__`."""
    if dataclasses.is_dataclass(kind):
        return [(f.name, f.type, f.default, f.kw_only) for f in dataclasses.fields(kind)]
    written = inspect.signature(kind.__init__).parameters
    return [(name, Any, dataclasses.MISSING if written[name].default is inspect.Parameter.empty else written[name].default, False) for name in kind._fields]


def twin(kind: type[Frozen]) -> type:
    """The class as `@dataclass(frozen=True, slots=True)` would make it (keyword-only as it is)."""
    made = [(name, kind_of, dataclasses.field(default=default) if default is not dataclasses.MISSING else dataclasses.field()) for name, kind_of, default, _ in declared(kind)]
    return dataclasses.make_dataclass(kind.__name__, made, frozen=True, slots=True, kw_only=all(kw_only for *_, kw_only in declared(kind)))


def slots(kind: type) -> tuple[str, ...]:
    """The slots of a class and its bases, the first base's first (a subclass's own are its new fields)."""
    return tuple(name for cls in reversed(kind.__mro__) for name in cls.__dict__.get("__slots__", ()))


def values(value: Frozen) -> dict[str, Any]:
    return {name: getattr(value, name) for name in type(value)._fields}


def alike(one: Frozen, other: Frozen) -> bool:
    """The same class and fields, a ruleset (equal only to itself) counting as the same."""
    return type(one) is type(other) and all(
        (isinstance(a, Rules) and isinstance(b, Rules)) or a == b for a, b in zip(values(one).values(), values(other).values(), strict=True)
    )


def tamed(fields: dict[str, Any]) -> dict[str, Any]:
    """`asdict`'s fields, a ruleset (copied by `asdict`, equal only to itself) said in words."""
    return {name: "a ruleset" if isinstance(field, Rules) else field for name, field in fields.items()}


def test_the_modules_with_frozen_classes_are_all_listed() -> None:
    written = {".".join(path.relative_to(ROOT).with_suffix("").parts) for path in (ROOT / "referee").rglob("*.py") if "@frozen(" in path.read_text()}
    assert written == set(MODULES)


def test_every_kind_has_examples() -> None:
    assert [kind.__name__ for kind in kinds()] == sorted({type(value).__name__ for value in EXAMPLES})
    assert all(dataclasses.is_dataclass(kind) or kind._fields == slots(kind) for kind in kinds())  # a dataclass, or its fields its slots (`slotted`)


@pytest.mark.parametrize("kind", kinds(), ids=lambda kind: kind.__name__)
def test_an_init_takes_the_fields_in_order_with_their_defaults(kind: type[Frozen]) -> None:
    written = inspect.signature(kind.__init__).parameters
    assert list(written) == ["self", *kind._fields]
    for name, _, default, kw_only in declared(kind):
        assert written[name].kind is (inspect.Parameter.KEYWORD_ONLY if kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD), name
        assert written[name].default == (inspect.Parameter.empty if default is dataclasses.MISSING else default), name


@pytest.mark.parametrize("value", EXAMPLES, ids=lambda value: repr(value)[:60])
def test_a_value_behaves_as_its_frozen_dataclass(value: Frozen) -> None:
    reference = twin(type(value))(**values(value))
    assert repr(value) == repr(reference)
    assert type(value).__match_args__ == type(reference).__match_args__  # type: ignore[attr-defined]
    assert slots(type(value)) == slots(type(reference)) and not hasattr(value, "__dict__")
    recorded = dataclasses.is_dataclass(value)  # (a `slotted` value is not a dataclass: nothing reads it as one)
    if recorded:
        assert tamed(dataclasses.asdict(value)) == tamed(dataclasses.asdict(reference))  # type: ignore[call-overload]
    same = type(value)(**values(value))
    assert same == value and same is not value and (same != value) is False
    assert value != reference and value != values(value)  # another class is never equal
    for other in EXAMPLES:
        assert (other == value) == (other is value), (other, value)
    try:
        hash(reference)
    except TypeError:  # a dict among the fields: unhashable, as the dataclass is
        with pytest.raises(TypeError):
            hash(value)
    else:
        assert hash(same) == hash(value) and {value: 1}[same] == 1
    for again in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value), *([dataclasses.replace(value)] if recorded else [])):  # type: ignore[type-var]
        assert alike(again, value)
    first = type(value)._fields[-1]
    # a new attribute too (where the slotted dataclass of Python 3.11 raised a TypeError of its own)
    for change in (lambda: setattr(value, first, None), lambda: delattr(value, first), lambda: setattr(value, "bogus", 1)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            change()
    assert values(value) == values(same)  # nothing changed


def test_moves_are_matched_by_keyword_as_the_engine_matches_them() -> None:
    def said(move: Move) -> str:
        match move:
            case Load(good=good, count=None):
                return f"every {good}"
            case Load(good=good, count=count):
                return f"{count} {good}"
            case Pass():
                return "pass"
            case _:
                return "other"

    assert [said(Load(good="corn")), said(Load(good="corn", count=2)), said(Pass()), said(Keep())] == ["every corn", "2 corn", "pass", "other"]


def test_a_ship_record_is_matched_by_position_as_a_dataclass_is() -> None:
    match ShipRecord(5, "corn", 2):
        case ShipRecord(size, good, count):
            assert (size, good, count) == (5, "corn", 2)


def test_pydantic_makes_the_same_moves_with_their_defaults() -> None:
    adapter = move_adapter()
    for move in MOVES:
        assert adapter.validate_python(dataclasses.asdict(move)) == move
        required = {f.name: getattr(move, f.name) for f in dataclasses.fields(move) if f.default is dataclasses.MISSING}
        assert adapter.validate_python({"kind": move.kind, **required}) == type(move)(**required)  # type: ignore[attr-defined]
    made = adapter.validate_python({"kind": "sell", "good": "corn"})
    assert made == Sell(good="corn")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.good = "sugar"  # type: ignore[misc]


def test_a_class_with_fields_writes_its_init() -> None:
    from referee.ground.frozen import frozen

    with pytest.raises(TypeError, match="writes its own __init__"):

        @frozen()
        class Nameless(Frozen):
            name: str


def test_a_slotted_class_declares_its_fields_as_slots() -> None:
    from referee.ground.frozen import frozen

    with pytest.raises(TypeError, match="declares its fields as a tuple of __slots__"):

        @frozen(slotted=True)
        class Unslotted(Frozen):
            name: str

            def __init__(self, name: str) -> None:
                pass
