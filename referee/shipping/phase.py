"""The captain phase as the calculator searches it: compact states of small integers, and the
moves between them, scored by the engine's own rule functions.

The position is first set up in the engine (`Game`, `Captain`): that checks it, and pays the
powers at the start of the phase (union hall, the captain's lighthouse). From there the phase
is a graph of states; every rule of a move is the engine's (`ships_taking` and `loadable` for
which ship takes what, `Shipper` for the VP and doubloons of a load, `preferred_keep` for
storage). What this module adds is the shape of the graph, and two reductions, both exact:

- **Players drop out.** A player who cannot load on a cargo ship now never can again (ships only
  fill up during the phase). What they still may do (their wharf or small wharf, at any turn of
  theirs, or not at all) touches nobody else, so it is settled once, on its own, as their *tail*
  (`Tail`), and the player leaves the state. The decision at a state is therefore always that
  of the next player who can load on a cargo ship, who must load (on a cargo ship or a wharf).
- **Whose turn, not the turn pointer.** A state names the player to decide, not the pointer
  that led there: players between the two have dropped out.

A state is one flat tuple of small integers (quick to hash and to copy):
`(decider, captain_loaded, wharf_used, small_wharf_used, active, kinds..., counts..., goods...)`:
the decider (-1: the phase is over), whether the captain has loaded (their privilege comes with
their first load), bit masks of the players who used their wharf or small wharf and of those
still in the state, the kind index on each cargo ship (None: empty) and its barrels, and each
player's barrels by kind index, player after player (zeros for a player who dropped out).

Values are the same for states that differ only in the names of kinds, or in which dead kinds
(kinds no cargo ship will take again) a player holds, as long as the numbers are the same:
`canonical` gives those states one key (the valuation's memo key).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import product
from typing import NamedTuple, TypeVar

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, RuleViolation
from referee.engine.game import Game
from referee.engine.phases.captain import Captain, Shipper, holds_loadable, load_move, loadable, preferred_keep, ships_taking
from referee.engine.state import CargoShip
from referee.moves import AnyMove, SmallWharfLoad, WharfLoad
from referee.records.position import Position
from referee.rulesets.rules import Rules

T = TypeVar("T")
State = tuple[int | None, ...]  # see the module: one flat tuple
HEAD = 5  # decider, captain loaded, wharf used, small wharf used, active
Goods = tuple[int, ...]  # one player's barrels by kind index
TailKey = tuple[int, Goods, bool, bool, bool]  # player, barrels, wharf used, small wharf used, loaded

# A move, compactly: (LOAD, kind, ship index, barrels) | (WHARF, kind, barrels) | (SMALL_WHARF, barrels by kind)
LOAD, WHARF, SMALL_WHARF = 0, 1, 2
Move = tuple[object, ...]


class Step(NamedTuple):
    """One transition of the search: the decider's move, the state it leads to, what it earned
    them, and the players who dropped out with it (each with their tail's key)."""

    move: Move
    child: State
    drops: tuple[tuple[int, TailKey], ...]
    vp: int
    doubloons: int


@dataclass(frozen=True, slots=True)
class TailEnd:
    """One way a dropped-out player's rest of the phase can end: VP and doubloons gained, the
    barrels left and how many of them storage keeps, and the moves (in order) that lead there."""

    vp: int
    doubloons: int
    goods: Goods
    kept: int
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class Tail:
    """Every distinct end of a dropped-out player's rest, the first being no move at all; the
    fewest and most VP; the expected end (most VP, then most barrels kept, then the first)."""

    ends: tuple[TailEnd, ...]
    worst: int
    best: int
    expected: TailEnd


class CaptainPhase:
    """A position's captain phase: its root state and the moves from any state."""

    def __init__(self, position: Position) -> None:
        """Set the position up in the engine (InputError if it cannot be) and read it compactly."""
        self.position = position
        self.rules: Rules = position.rules
        game, captain = setup(position)
        self.n = game.n
        self.kinds: tuple[str, ...] = tuple(self.rules.goods)
        self.sizes = tuple(s.size for s in game.ships)
        self.shippers: tuple[Shipper, ...] = tuple(captain.shippers)
        index = {good: k for k, good in enumerate(self.kinds)}
        self._live: dict[State, tuple[int, ...]] = {}  # kinds a cargo ship can take, by the ships' kinds and counts
        start_money = self.rules.players(self.n).doubloons
        self.start_vp = tuple(b.vp for b in game.boards)  # union halls
        self.start_doubloons = tuple(b.doubloons - start_money for b in game.boards)  # the captain's lighthouse
        self.start_goods: tuple[Goods, ...] = tuple(tuple(b.goods.get(good, 0) for good in self.kinds) for b in game.boards)
        kinds = tuple(None if s.good is None else index[s.good] for s in game.ships)
        counts = tuple(s.count for s in game.ships)
        self.ships = len(self.sizes)
        self.goods_at = HEAD + 2 * self.ships  # where the players' barrels start in a state
        self._nothing = (0,) * len(self.kinds)
        self._no_place = [-1] * len(self.kinds)
        self._dead: dict[tuple[int, ...], tuple[int, ...]] = {}  # the kinds not in a live tuple
        self._rotation = [tuple((pointer + i) % self.n for i in range(self.n)) for pointer in range(self.n)]
        goods = [n for held in self.start_goods for n in held]
        self.root, self.root_drops = self.normalize([0, 0, 0, 0, (1 << self.n) - 1, *kinds, *counts, *goods])
        self.doubloons = any(s.load_doubloons or s.start_doubloons for s in self.shippers)  # a lighthouse: doubloons change hands
        self._tails: dict[TailKey, Tail] = {}
        self._keeps: dict[tuple[int, Goods], Goods] = {}

    # --- states and moves -------------------------------------------------------------------

    def cargo(self, state: State) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
        """The kind on each cargo ship (None: empty) and its barrels."""
        s = self.ships
        return state[HEAD : HEAD + s], state[HEAD + s : HEAD + 2 * s]  # type: ignore[return-value]

    def normalize(self, state: list[int | None], pointer: int = 0, mover: int | None = None, before: tuple[int, ...] | None = None) -> tuple[State, tuple[tuple[int, TailKey], ...]]:
        """The state after a move, from a list that the caller gives up (turn pointer at
        `pointer`): players who can no longer load on a cargo ship drop out (with their tails'
        keys), and the decider is found. When the kinds a cargo ship can take are still `before`
        (those before the move), only the `mover` can have dropped out."""
        kinds_n, at, n = len(self.kinds), self.goods_at, self.n
        live = self.live(state)  # type: ignore[arg-type]
        drops: tuple[tuple[int, TailKey], ...] = ()
        active: int = state[4]  # type: ignore[assignment]
        for p in range(n) if mover is None or live != before else (mover,):
            if active >> p & 1:
                base = at + p * kinds_n
                for k in live:
                    if state[base + k]:
                        break
                else:  # nothing a cargo ship can take: out
                    have: Goods = tuple(state[base : base + kinds_n])  # type: ignore[arg-type]
                    bit = 1 << p
                    drops += ((p, (p, have, bool(state[2] & bit), bool(state[3] & bit), p == 0 and state[1] == 1)),)  # type: ignore[operator]
                    state[base : base + kinds_n] = self._nothing
                    active &= ~bit
                    state[2] &= ~bit  # type: ignore[operator]
                    state[3] &= ~bit  # type: ignore[operator]
        state[4] = active
        decider = -1
        if active:
            for p in self._rotation[pointer]:
                if active >> p & 1:
                    decider = p
                    break
        state[0] = decider
        if not active & 1:
            state[1] = 0
        return tuple(state), drops

    def steps(self, state: State) -> list[Step]:
        """The decider's moves from `state`, in the engine's order (cargo loads by kind and ship,
        then the wharf, then the small wharf), each with where it leads."""
        q: int = state[0]  # type: ignore[assignment]
        assert q >= 0
        s, kinds_n = self.ships, len(self.kinds)
        base = self.goods_at + q * kinds_n
        have: Goods = state[base : base + kinds_n]  # type: ignore[assignment]
        powers = self.shippers[q]
        first = q == 0 and not state[1]
        after = (q + 1) % self.n
        bit = 1 << q
        kinds, counts = self.cargo(state)
        live = self.live(state)
        normalize = self.normalize
        out: list[Step] = []
        for k in live:
            held = have[k]
            if held:
                amount, ships = ships_taking(self.sizes, kinds, counts, k, held)
                for i in ships:
                    child = list(state)
                    child[HEAD + i] = k
                    child[HEAD + s + i] = counts[i] + amount
                    child[base + k] = held - amount
                    if q == 0:
                        child[1] = 1
                    out.append(Step((LOAD, k, i, amount), *normalize(child, after, q, live), powers.load(amount, first), powers.load_doubloons))
        wharf_used, small_used = bool(state[2] & bit), bool(state[3] & bit)  # type: ignore[operator]
        for move, left, wharf_after, small_after, loaded_after, vp, money in self.private_moves(q, have, wharf_used, small_used, q == 0 and bool(state[1])):
            child = list(state)
            child[base : base + kinds_n] = left
            child[2] = state[2] | bit if wharf_after else state[2]  # type: ignore[operator]
            child[3] = state[3] | bit if small_after else state[3]  # type: ignore[operator]
            if q == 0 and loaded_after:
                child[1] = 1
            out.append(Step(move, *normalize(child, after, q, live), vp, money))
        return out

    def live(self, state: State) -> tuple[int, ...]:
        """The kinds a cargo ship can still take in `state` (the engine's `loadable`); the others
        are *dead*: no cargo ship will take them again in this phase."""
        cargo = tuple(state[HEAD : self.goods_at])
        live = self._live.get(cargo)
        if live is None:
            s = self.ships
            room, empty = loadable(self.sizes, cargo[:s], cargo[s:])  # type: ignore[arg-type]
            live = self._live[cargo] = tuple(k for k in range(len(self.kinds)) if holds_loadable(((k, 1),), room, empty))
        return live

    def canonical(self, state: State) -> tuple[object, ...]:
        """One key for the states whose values are the same for a reason the rules give (see
        the module): a kind's name never matters (only which ship carries it and who holds how
        many), and a dead kind's barrels matter to their owner only as a number (a wharf takes
        them all, a small wharf any of them, storage counts them), whatever the kind.

        The key: the state's head; the barrels on each ship (0: empty; a full ship's kind is
        dead); each live kind as (its ship, or -1, and every player's barrels of it), sorted;
        each player's barrels of the dead kinds, sorted."""
        s, kinds_n, at = self.ships, len(self.kinds), self.goods_at
        live = self.live(state)
        place = self._no_place[:]
        for i in range(s):
            kind = state[HEAD + i]
            if kind is not None:
                place[kind] = i
        kinds = sorted([(place[k], state[at + k :: kinds_n]) for k in live])
        dead = self._dead.get(live)
        if dead is None:
            dead = self._dead[live] = tuple(k for k in range(kinds_n) if k not in live)
        if len(dead) > 1:
            held = tuple(tuple(sorted(held)) for held in zip(*[state[at + k :: kinds_n] for k in dead], strict=True))
        else:
            held = tuple(state[at + k :: kinds_n] for k in dead)
        return (state[:HEAD], state[HEAD + s : at], tuple(kinds), held)

    # --- the players who dropped out ---------------------------------------------------------

    def tail(self, key: TailKey) -> Tail:
        """A dropped-out player's rest of the phase: every distinct way it can end (remembered)."""
        hit = self._tails.get(key)
        if hit is None:
            ends: dict[tuple[int, int, Goods], TailEnd] = {}
            p, goods, wharf_used, small_used, loaded = key
            self._tail_ends(p, goods, wharf_used, small_used, loaded, 0, 0, (), ends)
            found = tuple(ends.values())
            expected = max(found, key=lambda e: (e.vp, e.kept))  # the first of the best
            hit = self._tails[key] = Tail(found, min(e.vp for e in found), max(e.vp for e in found), expected)
        return hit

    def tail_options(self, key: TailKey) -> list[tuple[Move | None, Tail]]:
        """A dropped-out player's first decision: each first move (None: no move at all), and the
        ends that it leaves open."""
        p, goods, wharf_used, small_used, loaded = key
        out: list[tuple[Move | None, Tail]] = [(None, self.tail((p, goods, True, True, loaded)))]
        for move, goods_after, wharf_after, small_after, loaded_after, vp, money in self.private_moves(p, goods, wharf_used, small_used, loaded):
            rest = self.tail((p, goods_after, wharf_after, small_after, loaded_after))
            ends = tuple(TailEnd(e.vp + vp, e.doubloons + money, e.goods, e.kept, (move, *e.moves)) for e in rest.ends)
            out.append((move, Tail(ends, rest.worst + vp, rest.best + vp, max(ends, key=lambda e: (e.vp, e.kept)))))
        return out

    def _tail_ends(self, p: int, goods: Goods, wharf_used: bool, small_used: bool, loaded: bool, vp: int, money: int, moves: tuple[Move, ...], ends: dict[tuple[int, int, Goods], TailEnd]) -> None:
        ends.setdefault((vp, money, goods), TailEnd(vp, money, goods, sum(self.keep(p, goods)), moves))
        for move, goods_after, wharf_after, small_after, loaded_after, gained, paid in self.private_moves(p, goods, wharf_used, small_used, loaded):
            self._tail_ends(p, goods_after, wharf_after, small_after, loaded_after, vp + gained, money + paid, (*moves, move), ends)

    def private_moves(self, p: int, goods: Goods, wharf_used: bool, small_used: bool, loaded: bool) -> list[tuple[Move, Goods, bool, bool, bool, int, int]]:
        """Player `p`'s moves on their wharf and small wharf, holding `goods` (`loaded`: they have
        loaded in this phase): (move, barrels after, wharf used, small wharf used, loaded, VP,
        doubloons). The decider's, among their other moves, and a dropped-out player's tail."""
        powers = self.shippers[p]
        first = p == 0 and not loaded
        out: list[tuple[Move, Goods, bool, bool, bool, int, int]] = []
        if powers.wharf is not None and not wharf_used:
            for k, held in enumerate(goods):
                if held:
                    amount = min(held, powers.wharf)
                    after = replaced(goods, k, held - amount)
                    out.append(((WHARF, k, amount), after, True, small_used, True, powers.load(amount, first), powers.load_doubloons))
        if powers.small_wharf is not None and not small_used:
            money = powers.load_doubloons if powers.small_wharf_loads else 0
            for shipped in _shipments(goods):
                after = tuple(h - s for h, s in zip(goods, shipped, strict=True))
                out.append(((SMALL_WHARF, shipped), after, wharf_used, True, loaded or powers.small_wharf_loads, powers.small_wharf_vp(sum(shipped), first), money))
        return out

    # --- storage, ships, words --------------------------------------------------------------

    def keep(self, p: int, goods: Goods) -> Goods:
        """What player `p` keeps holding `goods` at the end: the engine's `preferred_keep`."""
        hit = self._keeps.get((p, goods))
        if hit is None:
            powers = self.shippers[p]
            held = {good: n for good, n in zip(self.kinds, goods, strict=True) if n}
            kept = preferred_keep(held, powers.store_kinds, powers.store_barrels, self.rules)
            hit = self._keeps[(p, goods)] = tuple(kept.get(good, 0) for good in self.kinds)
        return hit

    def unloaded(self, kinds: Sequence[int | None], counts: Sequence[int]) -> tuple[tuple[int | None, int], ...]:
        """The cargo ships after the phase: the engine's `Captain.unload` empties the full ones."""
        ships = [CargoShip(size, None if kind is None else self.kinds[kind], held) for size, kind, held in zip(self.sizes, kinds, counts, strict=True)]
        self._captain.game.ships = ships
        self._captain.unload()
        index = {good: k for k, good in enumerate(self.kinds)}
        return tuple((None if s.good is None else index[s.good], s.count) for s in ships)

    @cached_property
    def _captain(self) -> Captain:
        return setup(self.position)[1]

    def move(self, move: Move) -> AnyMove:
        """A compact move as the game log writes it."""
        if move[0] == LOAD:
            _, k, i, amount = move
            assert isinstance(k, int) and isinstance(i, int) and isinstance(amount, int)
            return load_move(self.kinds[k], amount, self.sizes[i])
        if move[0] == WHARF:
            kind = move[1]
            assert isinstance(kind, int)
            return WharfLoad(good=self.kinds[kind])
        shipped = move[1]
        assert isinstance(shipped, tuple)
        return SmallWharfLoad(goods=tuple((self.kinds[k], n) for k, n in enumerate(shipped) if n))


def replaced(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """`values` with item `i` replaced (concatenation: faster than unpacking, in the search's loop)."""
    return values[:i] + (value,) + values[i + 1 :]  # noqa: RUF005


def _shipments(goods: Goods) -> list[Goods]:
    """Every choice of barrels for a small wharf: any number of each kind held, not none."""
    return [choice for choice in product(*(range(held + 1) for held in goods)) if any(choice)]


def setup(position: Position) -> tuple[Game, Captain]:
    """A game holding only what the captain phase needs, with the captain's phase started."""
    rules = position.rules
    try:
        game = Game(rules, [p.name for p in position.players], face_up=None)
        for board, player in zip(game.boards, position.players, strict=True):
            board.goods = dict(player.goods)
            board.buildings = {b: 1 for b in player.buildings}
        game.ships = [CargoShip(s.size, s.good, s.count) for s in position.ships]
        if position.vp_left is not None:
            game.vp_chips = position.vp_left
        for good in rules.goods:
            held = sum(s.count for s in position.ships if s.good == good) + sum(p.goods.get(good, 0) for p in position.players)
            game.goods_supply[good] = max(0, game.goods_supply[good] - held)
        game.choose_role(0, "captain")
    except RuleViolation as exc:
        raise InputError([Diagnostic(exc.rule, exc.message, position.players_location, READ_ERROR)]) from None
    phase = game.phase
    assert isinstance(phase, Captain)
    return game, phase
