"""The captain phase's rules, once, over compact values: both the engine's captain phase (a log
replayed, the moves listed: `referee.engine.phases.captain.Captain`) and the shipping
calculator's search (`referee.shipping`) move by them, and neither restates one.

- which cargo ship takes a load, and how many barrels (`ships_taking`, `loadable`,
  `holds_loadable`): a kind already on a ship goes only there; else on an empty ship, one of
  those that take the most;
- whose turn: the first player clockwise from the turn pointer who can load on a cargo ship
  (`first_from`, `Turns`);
- the private ships: a wharf or a small wharf may be used once a phase, at a turn of its owner's,
  holding barrels (`wharf_open`, `small_wharf_open`); a wharf takes every barrel of one kind (up
  to its capacity, `Shipper.wharf_takes`), a small wharf any mix of barrels, not none
  (`shipments`); `private_moves` lists both, the wharf's by kind (in the ruleset's order of goods) before the small wharf's;
- what a move earns (`Shipper`): VP per barrel, the captain's privilege with their first load,
  harbors; doubloons (lighthouse); a small wharf's VP per so many barrels; storage at the end;
- storage: which barrels may stay on a board (`keep_fits`: so many kinds whole, then so many
  single barrels), every way to keep the most (`best_keeps`), and the one the calculator takes
  (`preferred_keep`: the more valuable kinds first).

The numbers are the ruleset's, read once when the phase is set up (`Shipper`: what one player's
occupied buildings do). Kinds are compact here: in a player's `Goods`, kind `k` is item `k`
(the calculator numbers kinds by the ruleset, the engine by the board's order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.rulesets.rules import Rules

Goods = tuple[int, ...]  # one player's barrels by kind index

# A move, compactly: (LOAD, kind, ship index, barrels) | (WHARF, kind, barrels) | (SMALL_WHARF, barrels by kind)
LOAD, WHARF, SMALL_WHARF = 0, 1, 2
Move = tuple[object, ...]
# a move on a private ship: (move, barrels after, wharf used, small wharf used, loaded, VP, doubloons)
PrivateMove = tuple[Move, Goods, bool, bool, bool, int, int]


def ships_taking(sizes: Sequence[int], kinds: Sequence[object], counts: Sequence[int], good: object, barrels: int) -> tuple[int, tuple[int, ...]]:
    """How many barrels of `good` go on board, and the indexes of the ships that take that many.

    The loading rule, once, over plain values (ship `i` has size `sizes[i]` and carries
    `counts[i]` of `kinds[i]`, None when empty): a kind already on a ship goes only there (none
    when it is full); otherwise it goes on an empty ship, one of those that take the most."""
    if barrels <= 0:
        return 0, ()
    for i, kind in enumerate(kinds):
        if kind == good:
            room = sizes[i] - counts[i]
            return (0, ()) if room <= 0 else (barrels if barrels < room else room, (i,))
    best, out = 0, ()  # type: tuple[int, tuple[int, ...]]
    for i, kind in enumerate(kinds):
        if kind is None:
            takes = barrels if barrels < sizes[i] else sizes[i]
            if takes > best:
                best, out = takes, (i,)
            elif takes == best:
                out += (i,)
    return best, out


def loadable(sizes: Sequence[int], kinds: Sequence[object], counts: Sequence[int]) -> tuple[dict[object, bool], bool]:
    """Each kind on a cargo ship: has its ship room? And: is a ship empty? (`holds_loadable`
    reads them; the same rule as `ships_taking`.)"""
    empty = False
    room: dict[object, bool] = {}
    for size, kind, held in zip(sizes, kinds, counts, strict=True):
        if kind is None:
            empty = True
        else:
            room[kind] = held < size
    return room, empty


def holds_loadable(goods: Iterable[tuple[Any, int]], room: dict[object, bool], empty: bool) -> bool:
    """Does a player holding `goods` ((kind, barrels) pairs) have a kind that a cargo ship can
    take (see `loadable`)?"""
    # a loop, not any() over a generator: asked for each player at every load
    for good, have in goods:  # noqa: SIM110
        if have > 0 and room.get(good, empty):
            return True
    return False


_CLOCKWISE: dict[tuple[int, int], tuple[int, ...]] = {}


def clockwise(pointer: int, n: int) -> tuple[int, ...]:
    """The players of an `n`-player phase in turn order from the turn pointer `pointer`: the turn
    goes to the first of them who can load on a cargo ship (`first_from`)."""
    order = _CLOCKWISE.get((pointer, n))
    if order is None:
        order = _CLOCKWISE[(pointer, n)] = tuple([(pointer + i) % n for i in range(n)])
    return order


def turn_after(player: int, n: int) -> int:
    """The turn pointer after `player`'s move (a load, a wharf's, a pass): the next player
    clockwise. The turn then goes to the first from there who can load (`first_from`)."""
    return (player + 1) % n


def turns_away(pointer: int, n: int, player: int) -> int:
    """How many turns from the turn pointer `pointer` `player`'s turn comes (0: theirs is the
    pointer's): `p`'s turn comes before `q`'s when it is fewer turns away. A player whose turn
    comes no later than the next loader's may use their wharf first, or let their turn go."""
    return (player - pointer) % n


def first_from(pointer: int, n: int, players: int) -> int:
    """The first of `players` (a bit mask) clockwise from the turn pointer `pointer`: the player
    whose turn it is among those who can load on a cargo ship (-1: none can)."""
    for p in clockwise(pointer, n):
        if players >> p & 1:
            return p
    return -1


class Turns:
    """`first_from` for every turn pointer and set of players of an `n`-player phase, worked out
    once (the calculator asks it at every move)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.table: list[list[int]] = [[first_from(pointer, n, players) for players in range(1 << n)] for pointer in range(n)]

    def first(self, pointer: int, players: int) -> int:
        """`first_from(pointer, n, players)`."""
        return self.table[pointer][players]


@dataclass(frozen=True, slots=True)
class Shipper:
    """What one player's occupied buildings do in a captain phase, read once from the ruleset:
    the VP and doubloons of a load, the private ships, storage. The engine and the calculator
    both score moves through it."""

    privilege: int  # VP with the player's first load of the phase: the captain's privilege, 0 for everyone else
    load_vp: int  # VP with every load (harbors)
    load_doubloons: int  # doubloons with every load (lighthouse)
    wharf: int | None  # the private ship's capacity (None: no wharf)
    small_wharf: int | None  # barrels per VP on the small wharf (None: no small wharf)
    small_wharf_loads: bool  # a small wharf shipment counts as a load
    store_kinds: int  # kinds kept whole (warehouses)
    store_barrels: int  # single barrels kept (windrose, storehouse)
    start_vp_per_pair: int  # VP per pair of barrels at the start of the phase (union hall)
    start_doubloons: int  # doubloons at the start of the phase (the captain's lighthouse)
    barrel_vp: int  # VP per barrel loaded on a cargo ship or a wharf (the ruleset's `barrel_vp`)

    def barrels_vp(self, barrels: int) -> int:
        """VP of the barrels of a load, beside what the load itself earns (`load`)."""
        return barrels * self.barrel_vp

    def load(self, barrels: int, first: bool) -> int:
        """VP of a load of `barrels`. `first`: the player's first load of the phase (a cargo
        ship's, a wharf's, or a small wharf's where it counts as a load). Only the captain's
        earns more (`privilege` is 0 for everyone else), so the engine, which tracks every
        player's, and the calculator, which tracks the captain's alone, give the same VP."""
        return barrels * self.barrel_vp + (self.privilege if first else 0) + self.load_vp

    def small_wharf_vp(self, barrels: int, first: bool) -> int:
        """VP of `barrels` shipped on the small wharf."""
        assert self.small_wharf is not None
        vp = barrels // self.small_wharf
        return vp + (self.privilege if first else 0) + self.load_vp if self.small_wharf_loads else vp

    def wharf_takes(self, barrels: int) -> int:
        """How many of a kind's `barrels` the wharf ships: all of them, up to its capacity."""
        assert self.wharf is not None
        return barrels if barrels < self.wharf else self.wharf


def wharf_open(powers: Shipper, used: bool, barrels: int) -> bool:
    """May the player use a wharf now (`used`: in this phase already; `barrels`: they hold)?
    Once a phase, with a barrel to ship."""
    return powers.wharf is not None and not used and barrels > 0


def small_wharf_open(powers: Shipper, used: bool, barrels: int) -> bool:
    """May the player use a small wharf now? Once a phase, with a barrel to ship."""
    return powers.small_wharf is not None and not used and barrels > 0


def is_shipment(held: Sequence[int], shipped: Sequence[int]) -> bool:
    """May a small wharf ship `shipped` (barrels by kind) of `held`? Any number of each kind
    held, not none."""
    return any(shipped) and all(0 <= n <= have for have, n in zip(held, shipped, strict=True))


def shipments(held: Sequence[int]) -> list[Goods]:
    """Every choice of barrels for a small wharf from `held` (barrels by kind), the first kind's
    count changing slowest: each `shipped` for which `is_shipment(held, shipped)`."""
    choices = product(*(range(have + 1) for have in held))
    next(choices)  # the first, none of each kind: not a shipment
    return list(choices)


def private_moves(powers: Shipper, goods: Goods, wharf_used: bool, small_used: bool, loaded: bool, first: bool) -> list[PrivateMove]:
    """A player's moves on their wharf and small wharf, holding `goods` (`loaded`: they have
    loaded in this phase; `first`: their next load is their first, as `Shipper.load` takes it), in the engine's
    order: the wharf by kind, then the small wharf's shipments (`shipments`)."""
    out: list[PrivateMove] = []
    barrels = sum(goods)
    if wharf_open(powers, wharf_used, barrels):
        for k, held in enumerate(goods):
            if held:
                amount = powers.wharf_takes(held)
                after = goods[:k] + (held - amount,) + goods[k + 1 :]  # noqa: RUF005
                out.append(((WHARF, k, amount), after, True, small_used, True, powers.load(amount, first), powers.load_doubloons))
    if small_wharf_open(powers, small_used, barrels):
        money = powers.load_doubloons if powers.small_wharf_loads else 0
        loaded_after = loaded or powers.small_wharf_loads
        vp = [powers.small_wharf_vp(total, first) for total in range(barrels + 1)]  # by the barrels shipped
        # `shipments` in its order, each with the barrels left: the same product counted down, in step (a
        # small wharf's mixes are many: no list made, nor a function called, for each)
        lefts = product(*(range(have, -1, -1) for have in goods))
        next(lefts)  # all the barrels left: the shipment of none, which `shipments` leaves out
        for shipped, after in zip(shipments(goods), lefts, strict=True):
            out.append(((SMALL_WHARF, shipped), after, wharf_used, True, loaded_after, vp[barrels - sum(after)], money))
    return out


# --- storage ----------------------------------------------------------------------------------


def keep_fits(kept: dict[str, int], kinds: int, barrels: int) -> bool:
    """Can these barrels be stored: `kinds` kinds whole, then `barrels` single barrels?"""
    counts = sorted((n for n in kept.values() if n > 0), reverse=True)
    return sum(counts[kinds:]) <= barrels


def best_keeps(goods: dict[str, int], kinds: int, barrels: int) -> list[dict[str, int]]:
    """Every way to keep the most barrels (distinct results only)."""
    held = {k: n for k, n in goods.items() if n > 0}
    if not held:
        return [{}]
    if keep_fits(held, kinds, barrels):
        return [dict(held)]
    results: dict[tuple[tuple[str, int], ...], dict[str, int]] = {}
    best = 0
    present = sorted(held)
    for whole in combinations(present, min(kinds, len(present))):
        rest = [(k, held[k]) for k in present if k not in whole]
        for extra in _spread(rest, barrels):
            kept = {k: held[k] for k in whole}
            for k, n in extra.items():
                if n:
                    kept[k] = n
            total = sum(kept.values())
            if total > best:
                best, results = total, {}
            if total == best:
                results[tuple(sorted(kept.items()))] = kept
    return list(results.values())


def _spread(rest: list[tuple[str, int]], barrels: int) -> list[dict[str, int]]:
    """Every way to keep exactly min(barrels, all) single barrels from `rest`."""
    total = sum(n for _, n in rest)
    take = min(barrels, total)
    out: list[dict[str, int]] = []

    def go(i: int, left: int, acc: dict[str, int]) -> None:
        if i == len(rest):
            if left == 0:
                out.append(dict(acc))
            return
        k, n = rest[i]
        for c in range(min(n, left), -1, -1):
            acc[k] = c
            go(i + 1, left - c, acc)
        acc.pop(k, None)

    go(0, take, {})
    return out


def preferred_keep(goods: dict[str, int], kinds: int, barrels: int, rules: Rules) -> dict[str, int]:
    """The most barrels the rules allow, the more valuable kinds first (docs/formats/shipping-position.md)."""
    options = best_keeps(goods, kinds, barrels)
    order = {good: i for i, good in enumerate(sorted(rules.goods, key=lambda good: -rules.good[good].price))}

    def value(kept: dict[str, int]) -> tuple[int, ...]:
        vec = [0] * len(order)
        for k, n in kept.items():
            vec[order[k]] = n
        return tuple(vec)

    return max(options, key=value)
