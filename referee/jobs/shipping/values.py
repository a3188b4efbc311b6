"""Guaranteed, expected and best VP of every player, computed once per state of the phase.

From a state, a player's *best* is the most VP they can still gain over every legal way the rest
of the phase can be played; their *guaranteed* VP is what they can be sure to gain, the rest of
the phase played as a game of that player against all the others together: where they decide,
the most over their moves, where anyone else decides, the fewest (one such game per player, all
valued in the same pass). The *expected* play is the one in which
each decider takes the move that gives them the most VP, then the most barrels kept after
storage, and where still indifferent the move worst for the player asking (VP, then barrels
kept), then the one that gives the others the fewest VP (seat order), and then the first in the
order moves are listed (docs/formats/shipping-position.md, docs/shipping.md). A dropped-out player's rest is their tail (`tails`), the
same for every play around it, so it is added where they drop out: nobody else's moves change
it, so what they are guaranteed there is the most their own moves reach (`Tail.guaranteed`).

The values of a state are, as read off, one flat tuple of integers, `4 * players` long: best,
expected VP, expected barrels kept and guaranteed VP of each player (0 for players no longer in
the state). The search keeps them as four integers (`Blocks`), one a block, each holding every
player's value of it in `WIDTH` bits: a move's VP is three additions, the fewest or most over a
decider's moves a few operations on a whole block, whatever the number of players;
and with five players (the rulesets' most) a block is 50 bits: a native 64-bit integer (`i64`), compiled. Every
state is valued once, memoised by its key (`keys`: the states under one key have the same values
but for a shift, VP certain to come, which moves every end of a player's by the same VP and so
their most, expected and guaranteed alike), so the work grows with the number of
distinct keys, not with the lines of play.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

from referee.ground.collector import collection_paused
from referee.jobs.shipping.compact import DECIDER, VALUE_BITS, Move, i64
from referee.jobs.shipping.compiled import REASON
from referee.jobs.shipping.memo import Blocks, DictMemo, Memo
from referee.jobs.shipping.phase import CaptainPhase, Drops, Key, Room, Shift, State, Step, Visitor

Values = tuple[int, ...]  # a state's values as read off (see the module): `BLOCKS * players` integers
BLOCKS: Final = 4
# the blocks in their order (`Blocks`); in `Values`, block `b` of player `p` is item `b * players + p`
BEST: Final = 0
EXPECTED: Final = 1
KEPT: Final = 2
GUARANTEED: Final = 3
PROGRESS_EVERY: Final = 1024  # states valued between two calls of a search's `progress`
WIDTH: Final = VALUE_BITS  # bits of one player's value in a block: the top one a guard (values under 512: VP and barrels of one phase)
LOW: Final = (1 << (VALUE_BITS - 1)) - 1  # a value's bits below its guard
NOTHING: Final = (0, 0, 0, 0)  # a state's values where nothing more happens (`Blocks`)


class Valuation:
    """The values of every state reached from the root, for one player asking."""

    def __init__(self, phase: CaptainPhase, asker: int, progress: Callable[[int], None] | None = None) -> None:
        """Value the phase from its root (`progress`: called with the states valued so far,
        every `PROGRESS_EVERY` of them)."""
        self.phase = phase
        self.asker = asker
        self.progress = progress
        n = self.n = phase.n
        self.at = [WIDTH * (n - 1 - p) for p in range(n)]  # where player p's value lies in a block: the first player highest
        ones = sum(1 << (WIDTH * p) for p in range(n))
        self.guards = ones << (WIDTH - 1)  # the top bit of every player's value
        self.ones = self.guards - ones  # every value's bits below its guard
        self.own = [LOW << self.at[p] for p in range(n)]  # player p's value in a block
        # by the state's key (packed: `keys`), less its shift; the only table that grows with the
        # search (a second one by state, to skip reading keys again, took twice its memory for no time gained)
        self.memo: Memo = new_memo(phase.keys.native)
        self.keys = phase.keys
        # by number (`CaptainPhase.tail_keys`; None: not read yet): each tail's best, expected VP,
        # barrels kept and guaranteed VP, in its player's place (a list: read at every drop, where a dictionary is a look-up)
        self._tails: list[Blocks | None] = []
        with quiet_search():
            self.value(phase.root, phase.root_room, phase.root_key, phase.root_shift)

    @property
    def states(self) -> int:
        """How many states were valued."""
        return self.memo.size()

    def value(self, state: State, room: Room, key: Key, shift: Shift) -> Blocks:
        """The values of `state` (what its ships take: `room`), whose memo key and shift are
        `key` and `shift` (see the module; the shift is a block already: `keys` packs it so)."""
        if state[DECIDER] == -1:
            return NOTHING
        memo = self.memo
        entry = memo.find(key)
        if entry >= 0:
            hit = memo.values(entry)
            if not shift:
                return hit
            return hit[0] + shift, hit[1] + shift, hit[2], hit[3] + shift
        decider: int = state[DECIDER]
        decision = Decision(self, decider, room.ships.dead_mask, key[4])
        self.phase.visit(state, room, decision)
        result = decision.values()
        if not shift:
            memo.put(key, result)
        else:
            memo.put(key, (result[0] - shift, result[1] - shift, result[2], result[3] - shift))
        if self.progress is not None and not memo.size() % PROGRESS_EVERY:
            self.progress(memo.size())
        return result

    def after(self, step: Step, decider: int) -> Blocks:
        """The values of a move (`after_move`)."""
        return self.after_move(step.child, step.room, step.drops, step.vp, decider)

    def after_move(self, child: State, room: Room, drops: Drops, vp: int, decider: int, dead: int = -1) -> Blocks:
        """The values of a move of `decider`'s that earned them `vp` and leads to `child` (whose
        ships take what `room` says), the players `drops` dropping out: the child's, plus the
        move's VP, plus the tails of the players who dropped out with it. (`dead`: the number of
        the child's dead barrels in its key, where known: `Keys.key`.)"""
        if child[0] == -1:
            values = NOTHING
        else:
            key, shift = self.keys.key(child, room, dead)  # (not unpacked into the call: compiled, that would be a call by Python's protocol)
            values = self.value(child, room, key, shift)
        gained = vp << self.at[decider]
        best, expected, kept, guaranteed = values
        best += gained
        expected += gained
        guaranteed += gained
        for p, number in drops:
            tail = self._tails[number] if number < len(self._tails) else None
            if tail is None:
                tail = self._tail(p, number)
            best += tail[0]
            expected += tail[1]
            kept += tail[2]
            guaranteed += tail[3]
        return best, expected, kept, guaranteed

    def prefers(self, values: Blocks, than: Blocks, decider: int) -> bool:
        """Does the expected play of `decider` take a move with `values` over one with `than`?
        The decider's VP, then barrels kept, the more the better; then the asker's VP and
        barrels kept, the fewer the better; then the fewer VP (then barrels kept) for the
        players in seat order (`unfavoured`); on a full tie, the one met first. Like every
        comparison here, it reads values only, never the order of the moves, so a state's
        values do not depend on how its kinds are numbered (see `keys`)."""
        return self.rank(values, decider) > self.rank(than, decider) or (self.rank(values, decider) == self.rank(than, decider) and self.unfavoured(values) > self.unfavoured(than))

    def rank(self, values: Blocks, decider: int) -> tuple[int, int, int, int]:
        """How the expected play orders a move of `decider` with these values: their VP, their
        barrels kept, then the asker's VP and barrels kept, the fewer the better."""
        at, asker = self.at[decider], self.at[self.asker]
        return (values[1] >> at & LOW, values[2] >> at & LOW, -(values[1] >> asker & LOW), -(values[2] >> asker & LOW))

    def unfavoured(self, values: Blocks) -> tuple[int, int]:
        """The last tie-break between moves that `rank` cannot tell apart: the fewer VP (then
        barrels kept) for the players in seat order, the better (the first player's value is the
        highest of a block: the blocks compare as the players' values in seat order)."""
        return -values[1], -values[2]

    def choose(self, state: State) -> tuple[list[Step], list[Values], int]:
        """The decider's moves at `state`, the values of each (as read off), and the index of
        the expected one (the first of those the expected play cannot tell apart, in the listing's order)."""
        decider = state[DECIDER]
        assert decider >= 0
        steps = self.phase.steps(state)
        values = [self.after(step, decider) for step in steps]
        chosen = 0
        for i in range(1, len(values)):
            if self.prefers(values[i], values[chosen], decider):
                chosen = i
        return steps, [self.unpack(v) for v in values], chosen

    def unpack(self, values: Blocks) -> Values:
        """The values as read off: each block, player after player."""
        return tuple([block >> at & LOW for block in values for at in self.at])

    def root_values(self) -> Values:
        """The values of the whole phase, from the position: the root's, plus the VP the phase
        gave at its start (union halls) and the tails of the players out from the start."""
        best, expected, kept, guaranteed = self.value(self.phase.root, self.phase.root_room, self.phase.root_key, self.phase.root_shift)
        start = sum(vp << self.at[p] for p, vp in enumerate(self.phase.start_vp))  # all but the barrels kept
        best, expected, guaranteed = best + start, expected + start, guaranteed + start
        for p, number in self.phase.root_drops:
            tail = self._tail(p, number)
            best, expected, kept, guaranteed = best + tail[0], expected + tail[1], kept + tail[2], guaranteed + tail[3]
        out = self.unpack((best, expected, kept, guaranteed))
        assert all(0 <= value < LOW for value in out), "a value of one phase fits its bits"
        return out

    def _tail(self, p: int, number: int) -> Blocks:
        """A tail's best and expected VP, barrels kept and guaranteed VP (`tails`), in its
        player `p`'s place, remembered by its number (`CaptainPhase.tail_keys`)."""
        tail = self.phase.tail(self.phase.tail_keys[number])
        at = self.at[p]
        hit = (tail.best << at, tail.vp << at, tail.kept << at, tail.guaranteed << at)
        if number >= len(self._tails):
            self._tails.extend([None] * (number + 1 - len(self._tails)))
        self._tails[number] = hit
        return hit


class Decision(Visitor):
    """A state's values, folded from its decider's moves as the phase hands them over
    (`CaptainPhase.visit`): every player's best (the most over the moves) and guaranteed VP
    (the decider's the most, everyone else's the fewest), and the expected play's move (the
    decider's VP, then barrels kept; then the fewer for the asker; then `unfavoured`; on a full
    tie, the first). Each a block of values, every player's in `WIDTH` bits: a few operations a
    block, whatever the number of players."""

    def __init__(self, valuation: Valuation, decider: int, dead: i64, frozen: int) -> None:
        self.valuation = valuation
        self.decider = decider
        # the state's dead kinds (bit mask) and the number of their barrels in its key: a load on a cargo
        # ship that nobody drops out with, and after which the same kinds are dead, leaves them as they were
        self.dead = dead
        self.frozen = frozen
        self.moves: i64 = 0
        self.ones: i64 = valuation.ones
        self.guards: i64 = valuation.guards
        self.own: i64 = valuation.own[decider]
        self.at: i64 = valuation.at[decider]
        self.asker_at: i64 = valuation.at[valuation.asker]
        self.best: i64 = 0
        self.expected: i64 = 0
        self.kept: i64 = 0
        self.guaranteed: i64 = 0
        self.mine: i64 = 0  # the decider's guaranteed VP: the most over their moves (the others': the fewest)
        self.rank: i64 = 0  # the expected move's VP and barrels kept for the decider
        self.asked: i64 = 0  # the same for the asker, the fewer the better

    def move(self, move: Move, vp: int, doubloons: int, child: State, drops: Drops, room: Room, cargo: bool) -> None:
        """One more move, valued and folded in."""
        dead = self.frozen if cargo and not drops and room.ships.dead_mask == self.dead else -1
        best, expected, kept, guaranteed = self.valuation.after_move(child, room, drops, vp, self.decider, dead)
        at, asker_at = self.at, self.asker_at
        move_rank = (expected >> at & LOW) << WIDTH | kept >> at & LOW
        move_asked = (LOW - (expected >> asker_at & LOW)) << WIDTH | LOW - (kept >> asker_at & LOW)
        self.moves += 1
        if self.moves == 1:  # the first move (a decider must load: there is one)
            self.best, self.expected, self.kept, self.guaranteed, self.mine = best, expected, kept, guaranteed, guaranteed
            self.rank, self.asked = move_rank, move_asked
            return
        ones, guards = self.ones, self.guards
        low: i64 = WIDTH - 1
        # player by player, the most so far (and the fewest, below): a guard stays where the first is not under the second
        over = ((self.best | guards) - best) & guards
        over = ones ^ (over - (over >> low))
        self.best = (best & over) | (self.best & ~over)
        under = ((guaranteed | guards) - self.guaranteed) & guards
        under = ones ^ (under - (under >> low))
        self.guaranteed = (guaranteed & under) | (self.guaranteed & ~under)
        own = self.own
        if (guaranteed & own) > (self.mine & own):
            self.mine = guaranteed
        # the expected play: the decider's VP, then barrels kept; then the fewer for the asker; then `unfavoured`
        if move_rank < self.rank:
            return
        if move_rank > self.rank or move_asked > self.asked or (move_asked == self.asked and (expected < self.expected or (expected == self.expected and kept < self.kept))):
            self.rank, self.asked, self.expected, self.kept = move_rank, move_asked, expected, kept

    def values(self) -> Blocks:
        """The state's values, every move folded in."""
        own = self.own
        return self.best, self.expected, self.kept, (self.guaranteed & ~own) | (self.mine & own)


def new_memo(native: bool) -> Memo:
    """The memo for a search whose keys fit in 64-bit words (`native`) or not: the native table
    (`memo_native`) where the search is compiled and `librt` is there (it comes with mypyc), else
    a dictionary (`memo`)."""
    if native and REASON is None:
        try:
            from referee.jobs.shipping.memo_native import NativeMemo
        except ImportError:  # pragma: no cover (a compiled build without librt installed)
            return DictMemo()
        return NativeMemo()
    return DictMemo()


@contextmanager
def quiet_search() -> Iterator[None]:
    """For the length of a search: a recursion limit above the deepest line of play (one level
    a move: a few hundred at most), and the cyclic garbage collector paused (the search makes no
    reference cycles, but its memo grows to many objects, which the collector would walk again
    and again: `collection_paused`)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        with collection_paused():
            yield
    finally:
        sys.setrecursionlimit(old)
