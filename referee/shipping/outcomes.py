"""Outcomes of the phase: what one end looks like to the players, and the list of every distinct
end (`referee ship --all`), produced one at a time.

An end is told apart by what the table sees: each player's VP, barrels shipped, kept and lost,
doubloons gained, and the cargo ships after unloading. The list walks the phase depth first over
*configurations* (a state, the VP and doubloons gained so far, and the tails of the players who
dropped out), each visited once; a line of play is never held, only the configurations seen and
the ends already written. The first end comes at once; every end comes exactly once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from referee.records.position import ShipRecord
from referee.shipping.phase import CaptainPhase, Goods, State, TailKey, replaced
from referee.shipping.values import quiet_search

# ships after unloading, and each player's (VP, barrels left, doubloons gained)
End = tuple[tuple[tuple[int | None, int], ...], tuple[tuple[int, Goods, int], ...]]
Config = tuple[State, tuple[int, ...], tuple[int, ...], tuple[TailKey | None, ...]]


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
    """One distinct end of the phase: each player's result, and the cargo ships after unloading."""

    players: tuple[PlayerOutcome, ...]
    ships: tuple[ShipRecord, ...]


def outcome(phase: CaptainPhase, end: End) -> Outcome:
    """An end as the players read it: barrels shipped since the position, kept and lost in storage."""
    ships, players = end
    rules = phase.rules
    named = rules.name
    results = []
    for p, (vp, goods, money) in enumerate(players):
        kept = phase.keep(p, goods)
        start = phase.start_goods[p]
        results.append(
            PlayerOutcome(
                vp,
                {named(good): start[k] - goods[k] for k, good in enumerate(phase.kinds) if start[k] > goods[k]},
                {named(good): kept[k] for k, good in enumerate(phase.kinds) if kept[k]},
                {named(good): goods[k] - kept[k] for k, good in enumerate(phase.kinds) if goods[k] > kept[k]},
                money,
            )
        )
    records = tuple(ShipRecord(size, None if kind is None else phase.kinds[kind], held) for size, (kind, held) in zip(phase.sizes, ships, strict=True))
    return Outcome(tuple(results), records)


def ends(phase: CaptainPhase) -> Iterator[End]:
    """Every distinct end of the phase, each once, the first at once (see the module)."""
    seen: set[Config] = set()
    written: set[End] = set()
    unloaded: dict[tuple[tuple[int | None, ...], tuple[int, ...]], tuple[tuple[int | None, int], ...]] = {}
    tails: list[TailKey | None] = [None] * phase.n
    for p, key in phase.root_drops:
        tails[p] = key
    stack: list[Config] = [(phase.root, phase.start_vp, phase.start_doubloons, tuple(tails))]
    with quiet_search():
        while stack:
            config = stack.pop()
            if config in seen:
                continue
            seen.add(config)
            state, vp, money, dropped = config
            q = state[0]
            assert isinstance(q, int)
            if q < 0:
                cargo = phase.cargo(state)
                ships = unloaded.get(cargo)
                if ships is None:
                    ships = unloaded[cargo] = phase.unloaded(*cargo)
                options = [phase.tail(key).ends for key in dropped if key is not None]
                for combo in product(*options):
                    end = (ships, tuple((vp[p] + e.vp, e.goods, money[p] + e.doubloons) for p, e in enumerate(combo)))
                    if end not in written:
                        written.add(end)
                        yield end
                continue
            for step in reversed(phase.steps(state)):
                gained = replaced(vp, q, vp[q] + step.vp)
                paid = replaced(money, q, money[q] + step.doubloons) if step.doubloons else money
                now = dropped
                if step.drops:
                    out = list(dropped)
                    for p, key in step.drops:
                        out[p] = key
                    now = tuple(out)
                stack.append((step.child, gained, paid, now))
