"""Outcomes of the phase: what one end looks like to the players, and the list of every distinct
end (`referee ship --all`), produced one at a time.

An end is told apart by what the table sees: each player's VP, barrels shipped, kept and lost,
doubloons gained, and the cargo ships after unloading. The list walks the states of the phase
once each, by layers of barrels held (every move takes some), carrying to each state the distinct
*prefixes* that reach it (VP and doubloons so far, the tails of the players who dropped out); a
line of play is never held, only the layers to come and the ends already written. One end comes
at once, from the line of first moves; every end comes exactly once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import product

from referee.documents.position import ShipRecord
from referee.jobs.shipping.compact import DECIDER
from referee.jobs.shipping.phase import CaptainPhase, Goods, State, Step, T, replaced
from referee.jobs.shipping.values import quiet_search

# ships after unloading, and each player's (VP, barrels left, doubloons gained)
End = tuple[tuple[tuple[int | None, int], ...], tuple[tuple[int, Goods, int], ...]]
Seen = State  # a state as the outcome list keys its tables by it
Prefix = tuple[tuple[int, ...], tuple[int, ...], tuple[int | None, ...]]  # VP and doubloons so far, the tails of those who dropped out


@dataclass(frozen=True, slots=True)
class PlayerOutcome:
    """One player's result of the phase (goods by the ruleset's names)."""

    vp: int
    shipped: dict[str, int]
    kept: dict[str, int]
    lost: dict[str, int]
    doubloons: int = 0  # gained in the phase (a lighthouse)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One distinct end of the phase: each player's result, and the cargo ships after unloading
    (`ShipRecord`s as a position's: the kind on a ship is the ruleset's id, `rules.name` names it)."""

    players: tuple[PlayerOutcome, ...]
    ships: tuple[ShipRecord, ...]


@dataclass(slots=True)
class Parts:
    """What the ends of a long list share, each read once: each player's barrels shipped, kept
    and lost, by the barrels they have left (a list has many ends and few of those); the cargo
    ships after unloading."""

    players: dict[tuple[int, Goods], tuple[tuple[tuple[str, int], ...], ...]] = field(default_factory=dict)
    ships: dict[tuple[tuple[int | None, int], ...], tuple[ShipRecord, ...]] = field(default_factory=dict)


def outcome(phase: CaptainPhase, end: End, parts: Parts | None = None) -> Outcome:
    """An end as the players read it: barrels shipped since the position, kept and lost in storage
    (`parts`: shared by the ends of a list)."""
    if parts is None:
        parts = Parts()
    ships, players = end
    results = []
    for p, (vp, goods, money) in enumerate(players):
        part = parts.players.get((p, goods))
        if part is None:
            part = parts.players[(p, goods)] = _part(phase, p, goods)
        shipped, kept, lost = part
        results.append(PlayerOutcome(vp, dict(shipped), dict(kept), dict(lost), money))
    records = parts.ships.get(ships)
    if records is None:
        records = parts.ships[ships] = tuple(ShipRecord(size, None if kind is None else phase.kinds[kind], held) for size, (kind, held) in zip(phase.sizes, ships, strict=True))
    return Outcome(tuple(results), records)


def _part(phase: CaptainPhase, p: int, goods: Goods) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Player `p`'s barrels shipped, kept and lost, holding `goods` at the end (by the ruleset's names)."""
    named = phase.rules.name
    kept = phase.keep(p, goods)
    start = phase.start_goods[p]
    return (
        tuple((named(good), start[k] - goods[k]) for k, good in enumerate(phase.kinds) if start[k] > goods[k]),
        tuple((named(good), kept[k]) for k, good in enumerate(phase.kinds) if kept[k]),
        tuple((named(good), goods[k] - kept[k]) for k, good in enumerate(phase.kinds) if goods[k] > kept[k]),
    )


def ends(phase: CaptainPhase) -> Iterator[End]:
    """Every distinct end of the phase, each once (see the module). The phase keeps every
    player who can load on a cargo ship in its states (`Reductions.independent` off): the list
    comes in the order of those states."""
    assert not phase.reductions.independent, "the outcome list walks the phase without the independent players' reduction"
    written: set[bytes | End] = set()  # ends written, packed
    unloaded: dict[tuple[tuple[int | None, ...], tuple[int, ...]], tuple[tuple[int | None, int], ...]] = {}
    interned: dict[tuple[int | None, ...], tuple[int | None, ...]] = {}
    tails: list[int | None] = [None] * phase.n
    for p, number in phase.root_drops:
        tails[p] = number
    root: Prefix = (phase.start_vp, phase.start_doubloons, tuple(tails))

    def finish(state: State, prefixes: Iterable[Prefix]) -> Iterator[End]:
        cargo = phase.cargo(state)
        ships = unloaded.get(cargo)
        if ships is None:
            ships = unloaded[cargo] = phase.unloaded(*cargo)
        for vp, money, dropped in prefixes:
            options = [phase.tails.ends(phase.tail_keys[number]) for number in dropped if number is not None]
            for combo in product(*options):
                players = tuple((vp[p] + e.vp, e.goods, money[p] + e.doubloons) for p, e in enumerate(combo))
                flat: list[int | None] = [x for ship in ships for x in ship]
                for player in players:
                    flat += (player[0], *player[1], player[2])
                mark = _pack((ships, players), flat)
                if mark not in written:
                    written.add(mark)
                    yield ships, players

    with quiet_search():
        yield from finish(*_first_line(phase, root))  # one end at once, before the long walk
        # Every move takes barrels from the players: a state's predecessors all hold more
        # barrels than it does, so by layers of barrels held, a state is reached by all its
        # prefixes before it is expanded, once. The prefixes of a state are the keys of a dict, in
        # the order met: a set's order would follow hashes, which for tuples holding None (by its
        # address, before Python 3.12) change from run to run, and so would the list's order.
        layers: dict[int, dict[Seen, dict[Prefix, None]]] = {_barrels(phase, phase.root): {phase.root: {root: None}}}
        while layers:
            layer = layers.pop(max(layers))
            for state, prefixes in layer.items():
                q = state[DECIDER]
                assert isinstance(q, int)
                if q < 0:
                    yield from finish(state, prefixes)
                    continue
                for step in phase.steps(state):
                    child = step.child
                    below = layers.setdefault(_barrels(phase, child), {})
                    reached = below.get(child)
                    if reached is None:
                        reached = below[child] = {}
                    for prefix in prefixes:
                        reached[_after(prefix, q, step, interned)] = None
            del layer


def _barrels(phase: CaptainPhase, state: State) -> int:
    """The barrels still held by the players in the state."""
    return phase.barrels(state)


def _first_line(phase: CaptainPhase, prefix: Prefix) -> tuple[State, list[Prefix]]:
    """The end of the line of first moves, and its prefix."""
    state = phase.root
    while True:
        q = state[DECIDER]
        assert isinstance(q, int)
        if q < 0:
            return state, [prefix]
        step = phase.steps(state)[0]
        prefix = _after(prefix, q, step, {})
        state = step.child


def _after(prefix: Prefix, q: int, step: Step, interned: dict[tuple[int | None, ...], tuple[int | None, ...]]) -> Prefix:
    """A prefix carried over a move of decider `q`: their VP and doubloons, the tails of the
    players who dropped out with it (each distinct tuple of tails kept once, in `interned`)."""
    vp, money, dropped = prefix
    if step.drops:
        out = list(dropped)
        for p, number in step.drops:
            out[p] = number
        dropped = interned.setdefault(tuple(out), tuple(out))
    return replaced(vp, q, vp[q] + step.vp), replaced(money, q, money[q] + step.doubloons) if step.doubloons else money, dropped


def _pack(value: T, numbers: list[int | None]) -> bytes | T:
    """`value` as bytes (a tenth of the memory of its tuples, for the set of what was written):
    its small numbers, None as 255; the value itself when a number does not fit in a byte."""
    try:
        return bytes([255 if x is None else x for x in numbers])
    except ValueError:
        return value
