"""The rest of the phase of a player who dropped out of the search's states: their *tail*.

A player drops out when nothing they can still do changes anything for anyone else (see
`CaptainPhase.settle`): either they can no longer load on a cargo ship (what is left to them is
a wharf or a small wharf, at any turn of theirs, or nothing at all), or every kind they can still
load is on a cargo ship with room for every barrel anyone holds of it (they must still load at
each turn of theirs while they can, but their loads crowd nobody out and nobody crowds them out).
Their rest is then the same for every play around it, and is settled once, here, on its own.

A tail is a small search of its own over the player's moves: their loads on those ships (all of a
kind: the ship has room for it), their wharf and small wharf, and, once they cannot load, the
choice to stop. Its expected end is the one the calculator's expected play takes for a player
whose moves touch nobody: the most VP, then the most barrels kept, then the first move in the
listing's order (cargo loads by kind, in the ruleset's order of goods, then the wharf, then the small wharf); stopping comes first.
Every move of a tail is the player's own, and nobody else can take one from them (their loads
have room whatever anyone does, and the phase goes on while anyone may still use a wharf at their
turn), so the VP they are guaranteed there, whatever the others do, is the most the tail reaches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine.captain_rules import PrivateMove, Shipper, preferred_keep, private_moves
from referee.jobs.shipping.compact import LOAD, Goods, Move, replaced

if TYPE_CHECKING:
    from referee.rulesets.rules import Rules

Places = tuple[int, ...]  # for each kind: the cargo ship that takes the player's barrels of it (-1: none)
TailKey = tuple[int, Goods, bool, bool, bool, Places]  # player, barrels, wharf used, small wharf used, loaded, places
TailMove = tuple[Move, "TailKey", int, int]  # a move, the tail after it, the VP and doubloons it earns


class TailEnd:
    """One way a tail can end: VP and doubloons gained, the barrels left and how many of them
    storage keeps, and the moves (in order) that lead there. (Plain classes here, read only by
    convention: compiled, a frozen dataclass is made through Python's protocol, at many a tail.)"""

    __slots__ = ("doubloons", "goods", "kept", "moves", "vp")

    def __init__(self, vp: int, doubloons: int, goods: Goods, kept: int, moves: tuple[Move, ...]) -> None:
        self.vp = vp
        self.doubloons = doubloons
        self.goods = goods
        self.kept = kept
        self.moves = moves


class Tail:
    """A tail's most VP, and its expected end (see the module): its VP and barrels kept (what
    the valuation reads), and the end itself, written out when it is read (`expected`: the
    first move and the tail it leaves, followed; a small wharf's tails are many, and most ends
    are never read)."""

    __slots__ = ("_stop", "best", "first", "kept", "rest", "vp")

    def __init__(self, best: int, vp: int, kept: int, first: TailMove | None, rest: Tail | None, stop: TailEnd | None) -> None:
        self.best = best
        self.vp = vp  # the expected end's VP
        self.kept = kept  # and its barrels kept
        self.first = first  # the expected end's first move (None: it stops here, at `stop`)
        self.rest = rest  # the tail after it
        self._stop = stop

    @property
    def guaranteed(self) -> int:
        """The VP the player can be sure of in their tail, whatever the others do: its most VP,
        since every move of a tail is the player's own and nobody else's move changes it."""
        return self.best

    @property
    def expected(self) -> TailEnd:
        """The expected end: VP and doubloons, barrels left and kept, and its moves."""
        moves: list[Move] = []
        vp = doubloons = 0
        tail = self
        while tail.first is not None and tail.rest is not None:
            move, _, gained, paid = tail.first
            moves.append(move)
            vp, doubloons = vp + gained, doubloons + paid
            tail = tail.rest
        end = tail._stop
        assert end is not None, "a tail ends where its player stops"
        return TailEnd(vp + end.vp, doubloons + end.doubloons, end.goods, end.kept, (*moves, *end.moves))


class OwnMoves:
    """What each player does on their own: their moves on their wharf and small wharf, and what
    storage keeps for them at the end; the rules' own (`captain_rules.private_moves`,
    `preferred_keep`), made tables of the position. (Holding nothing of the phase, it lets the
    phase's tables be freed as soon as the search is done, with no cycle for Python's collector
    to find.)"""

    def __init__(self, shippers: tuple[Shipper, ...], kinds: tuple[str, ...], rules: Rules) -> None:
        self.shippers, self.kinds, self.rules = shippers, kinds, rules
        self._private: dict[tuple[int, Goods, bool, bool, bool], list[PrivateMove]] = {}  # by `private_moves`'s arguments
        self._keeps: dict[tuple[int, Goods], Goods] = {}

    def private_moves(self, p: int, goods: Goods, wharf_used: bool, small_used: bool, loaded: bool) -> list[PrivateMove]:
        """Player `p`'s moves on their wharf and small wharf, holding `goods` (`loaded`: they have
        loaded in this phase): (move, barrels after, wharf used, small wharf used, loaded, VP,
        doubloons). The decider's, among their other moves, and a dropped-out player's tail;
        each entry made once (a small wharf's shipments are many, and the same barrels come back
        in many states)."""
        table_key = (p, goods, wharf_used, small_used, loaded)
        hit = self._private.get(table_key)
        if hit is None:
            hit = self._private[table_key] = private_moves(self.shippers[p], goods, wharf_used, small_used, loaded, p == 0 and not loaded)
        return hit

    def keep(self, p: int, goods: Goods) -> Goods:
        """What player `p` keeps holding `goods` at the end: the engine's `preferred_keep`."""
        hit = self._keeps.get((p, goods))
        if hit is None:
            powers = self.shippers[p]
            held = {good: n for good, n in zip(self.kinds, goods, strict=True) if n}
            kept = preferred_keep(held, powers.store_kinds, powers.store_barrels, self.rules)
            hit = self._keeps[(p, goods)] = tuple(kept.get(good, 0) for good in self.kinds)
        return hit


class Tails:
    """The tails of one phase, each settled once (remembered by key)."""

    def __init__(self, own: OwnMoves) -> None:
        self.own = own
        self._tails: dict[TailKey, Tail] = {}
        self._moves: dict[TailKey, list[TailMove]] = {}

    def tail(self, key: TailKey) -> Tail:
        """The tail from `key`: its best (and so guaranteed) VP and its expected end."""
        hit = self._tails.get(key)
        if hit is None:
            hit = self._tails[key] = self._settle(key)
        return hit

    def _settle(self, key: TailKey) -> Tail:
        """The tail from `key`, read off its first decision (as `options` lists it): the most VP
        over its options, and the expected end: the first of the options with the most VP, then
        barrels kept. (One pass, no list made: a tail is settled at every state of a tail
        search; its end is written out only when read, `Tail.expected`.)"""
        stop = None if must_load(key) else self._stop(key)
        moves = self.moves(key)
        assert stop is not None or moves, "a player who must load has a load"
        # stopping, where the player may, is an option of 0 VP that keeps what storage keeps
        best = 0 if stop is not None else -1
        rank_vp, rank_kept = (0, stop.kept) if stop is not None else (-1, -1)  # the expected option's VP and barrels kept
        chosen: TailMove | None = None  # (None: stopping)
        chosen_rest: Tail | None = None
        for move in moves:
            rest = self.tail(move[1])
            vp = move[2]
            if rest.best + vp > best:
                best = rest.best + vp
            if rest.vp + vp > rank_vp or (rest.vp + vp == rank_vp and rest.kept > rank_kept):  # the first of the best
                chosen, chosen_rest, rank_vp, rank_kept = move, rest, rest.vp + vp, rest.kept
        return Tail(best, rank_vp, rank_kept, chosen, chosen_rest, stop if chosen is None else None)

    def _stop(self, key: TailKey) -> TailEnd:
        p, goods = key[0], key[1]
        return TailEnd(0, 0, goods, sum(self.own.keep(p, goods)), ())

    def options(self, key: TailKey) -> list[tuple[Move | None, Tail]]:
        """The first decision of the tail from `key`: each move (None: stopping, for a player who
        no longer has to load) and the tail it leaves, counted from `key`."""
        out: list[tuple[Move | None, Tail]] = []
        if not must_load(key):
            stop = self._stop(key)
            out.append((None, Tail(0, 0, stop.kept, None, None, stop)))
        for move in self.moves(key):
            rest = self.tail(move[1])
            out.append((move[0], Tail(rest.best + move[2], rest.vp + move[2], rest.kept, move, rest, None)))
        return out

    def expected_move(self, key: TailKey) -> TailMove:
        """The expected first move of a tail whose player must load, with where it leads."""
        first = self.tail(key).first
        assert first is not None, "a player who must load has a load"
        return first

    def moves(self, key: TailKey) -> list[TailMove]:
        """The player's moves from `key`, in the listing's order: their loads (all their barrels
        of a kind, on the ship that takes it), then their wharf and small wharf."""
        hit = self._moves.get(key)
        if hit is not None:
            return hit
        p, goods, wharf_used, small_used, loaded, places = key
        powers = self.own.shippers[p]
        out: list[TailMove] = []
        loading = must_load(key)
        if loading:
            for k, ship in enumerate(places):
                if ship >= 0:
                    vp = powers.load(goods[k], p == 0 and not loaded)
                    after = _without(goods, places, k, 0)
                    out.append(((LOAD, k, ship, goods[k]), (p, after[0], wharf_used, small_used, True, after[1]), vp, powers.load_doubloons))
        for move, left, wharf_after, small_after, loaded_after, vp_after, money in self.own.private_moves(p, goods, wharf_used, small_used, loaded):
            # where their barrels still go (none, for a player who no longer loads: the same places)
            kept_places = tuple([-1 if not left[k] else ship for k, ship in enumerate(places)]) if loading else places
            out.append((move, (p, left, wharf_after, small_after, loaded_after, kept_places), vp_after, money))
        self._moves[key] = out
        return out

    def ends(self, key: TailKey) -> tuple[TailEnd, ...]:
        """Every distinct end of a tail whose player can no longer load on a cargo ship, the
        first being no move at all, in the order they are met move by move (`--all` lists
        outcomes in that order)."""
        assert not must_load(key), "the outcome list keeps players who can load in its states"
        ends: dict[tuple[int, int, Goods], TailEnd] = {}
        self._walk(key, 0, 0, (), ends)
        return tuple(ends.values())

    def _walk(self, key: TailKey, vp: int, money: int, moves: tuple[Move, ...], ends: dict[tuple[int, int, Goods], TailEnd]) -> None:
        p, goods = key[0], key[1]
        ends.setdefault((vp, money, goods), TailEnd(vp, money, goods, sum(self.own.keep(p, goods)), moves))
        for move, after, gained, paid in self.moves(key):
            self._walk(after, vp + gained, money + paid, (*moves, move), ends)


def must_load(key: TailKey) -> bool:
    """Does the tail's player still hold a kind a cargo ship takes (and so must load at each of
    their turns)?"""
    return any(ship >= 0 for ship in key[5])


def _without(goods: Goods, places: Places, k: int, left: int) -> tuple[Goods, Places]:
    """Barrels and places after the player's barrels of kind `k` go down to `left`."""
    return replaced(goods, k, left), (places if left else replaced(places, k, -1))
