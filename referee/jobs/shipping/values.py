"""Guaranteed, worst, expected and best VP of every player, computed once per state of the phase.

From a state, a player's *worst* and *best* are the fewest and most VP they can still gain over
every legal way the rest of the phase can be played; their *guaranteed* VP is what they can be
sure to gain, the rest of the phase played as a game of that player against all the others
together: where they decide, the most over their moves, where anyone else decides, the fewest
(one such game per player, all valued in the same pass). The *expected* play is the one in which
each decider takes the move that gives them the most VP, then the most barrels kept after
storage, and where still indifferent the move worst for the player asking (VP, then barrels
kept), then the one that gives the others the fewest VP (seat order), and then the first in the
engine's order (docs/formats/shipping-position.md, docs/shipping.md). A dropped-out player's rest is their tail (`tails`), the
same for every play around it, so it is added where they drop out: nobody else's moves change
it, so what they are guaranteed there is the most their own moves reach (`Tail.guaranteed`).

The values of a state are one flat tuple of integers, `5 * players` long: worst, best, expected
VP, expected barrels kept and guaranteed VP of each player (0 for players no longer in the
state). Every state is valued once, memoised by its key (`keys`: the states under one key have
the same values but for a shift, VP certain to come, which moves every end of a player's by the
same VP and so their fewest, most, expected and guaranteed alike), so the work grows with the
number of distinct keys, not with the lines of play.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from referee.jobs.shipping.phase import CaptainPhase, Key, Shift, State, Step, TailKey
from referee.located.tree import collection_paused

Values = tuple[int, ...]  # a state's values as read off (see the module): `BLOCKS * players` integers
Packed = int  # the same values packed into one integer (`Packing`), as the search keeps them
BLOCKS = 5  # a state's values: worst, best, expected VP, expected barrels kept, guaranteed VP; `players` long each
PROGRESS_EVERY = 1024  # states valued between two calls of a search's `progress`
WIDTH = 10  # bits of one value in a packed integer: the top one a guard (values under 512: VP and barrels of one phase)


class Packing:
    """A state's values packed into one integer, `WIDTH` bits a value, the first value in the
    highest bits: the search adds a move's VP, takes each player's fewest and most over a
    decider's moves, and compares expected plays on whole integers, a few operations a move
    whatever the number of players (a tuple of values took one loop a player)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.size = BLOCKS * n
        ones = sum(1 << (WIDTH * i) for i in range(self.size))
        self.guards = ones << (WIDTH - 1)  # the top bit of every value
        self.ones = self.guards - ones  # every value's bits below its guard
        self.low = (1 << (WIDTH - 1)) - 1  # one value's bits below its guard
        # the VP of a move or of a tail come to a player's worst, best, expected and guaranteed VP alike
        self.reward = [sum(self.bit(block * n + p) for block in (0, 1, 2, 4)) for p in range(n)]
        # where a decider's values take the fewest over their moves (everyone's worst, the
        # others' guaranteed VP), the most (everyone's best, their own guaranteed VP), the chosen move's (expected VP, barrels kept)
        every = (1 << (WIDTH * n)) - 1
        blocks = [every << (WIDTH * (self.size - (block + 1) * n)) for block in range(BLOCKS)]
        own = [((1 << WIDTH) - 1) * self.bit(4 * n + p) for p in range(n)]
        self.fewest = [blocks[0] | blocks[4] & ~own[p] for p in range(n)]
        self.most = [blocks[1] | own[p] for p in range(n)]
        self.chosen = blocks[2] | blocks[3]
        self.expected_at = WIDTH * (self.size - 4 * n)  # the expected VP and barrels kept, as one integer: shifted down by this
        self.expected_mask = (1 << (WIDTH * 2 * n)) - 1
        self._shifts: dict[Shift, Packed] = {}

    def bit(self, i: int) -> int:
        """The lowest bit of value `i`."""
        return 1 << (WIDTH * (self.size - 1 - i))

    def get(self, values: Packed, i: int) -> int:
        """Value `i` of `values`."""
        return values >> (WIDTH * (self.size - 1 - i)) & self.low

    def pack(self, values: Values) -> Packed:
        """`values` packed (each under 2 ** (WIDTH - 1))."""
        out = 0
        for i, value in enumerate(values):
            assert 0 <= value <= self.low, "a value of one phase fits its bits"
            out |= value * self.bit(i)
        return out

    def unpack(self, values: Packed) -> Values:
        """The values of `values`, in order."""
        return tuple([self.get(values, i) for i in range(self.size)])

    def shift(self, shift: Shift) -> Packed:
        """A state's shift (VP by player) as a packed integer to add (`Reward`s)."""
        hit = self._shifts.get(shift)
        if hit is None:
            hit = self._shifts[shift] = sum(vp * self.reward[p] for p, vp in enumerate(shift))
        return hit


class Valuation:
    """The values of every state reached from the root, for one player asking."""

    def __init__(self, phase: CaptainPhase, asker: int, progress: Callable[[int], None] | None = None) -> None:
        """Value the phase from its root (`progress`: called with the states valued so far,
        every `PROGRESS_EVERY` of them)."""
        self.phase = phase
        self.asker = asker
        self.progress = progress
        self.n = phase.n
        self.packing = packing = Packing(self.n)
        self._ones = packing.ones
        self._guards = packing.guards
        # by the state's key (packed: `keys`), less its shift; the only table that grows with the
        # search (a second one by state, to skip reading keys again, took twice its memory for no time gained)
        self.memo: dict[Key, Packed] = {}
        self._tails: dict[TailKey, Packed] = {}  # each tail's worst, best, expected VP, barrels kept and guaranteed VP, packed for its player
        n = self.n
        # how the expected play ranks a decider's move: their expected VP, then barrels kept, then
        # the asker's, the fewer the better (`rank`): where each is read
        self._rank_at = [(WIDTH * (packing.size - 1 - (2 * n + d)), WIDTH * (packing.size - 1 - (3 * n + d))) for d in range(n)]
        self._asker_at = (WIDTH * (packing.size - 1 - (2 * n + asker)), WIDTH * (packing.size - 1 - (3 * n + asker)))
        with quiet_search():
            self.value(phase.root, phase.root_key, phase.root_shift)

    @property
    def states(self) -> int:
        """How many states were valued."""
        return len(self.memo)

    def value(self, state: State, key: Key, shift: Shift | None) -> Packed:
        """The values of `state`, whose memo key and shift are `key` and `shift` (see the module)."""
        if state[0] == -1:
            return 0
        hit = self.memo.get(key)
        if hit is not None:
            return hit if shift is None else hit + self.packing.shift(shift)
        decider: int = state[0]
        steps = self.phase.steps(state)
        first = self.after(steps[0], decider)  # a decider must load: there is a move
        if len(steps) == 1:  # one move (common): its values are the state's
            result = first
        else:
            packing = self.packing
            ones, guards, low = self._ones, self._guards, WIDTH - 1
            fewest = most = chosen = first
            chosen_rank = self.rank(first, decider)
            for step in steps[1:]:
                values = self.after(step, decider)
                # value by value, the fewest and the most so far (the guard of a value stays where `values` is not under `fewest`)
                under = ((values | guards) - fewest) & guards
                under = ones ^ (under - (under >> low))
                fewest = (values & under) | (fewest & ~under)
                over = ((most | guards) - values) & guards
                over = ones ^ (over - (over >> low))
                most = (values & over) | (most & ~over)
                rank = self.rank(values, decider)
                if rank > chosen_rank or (rank == chosen_rank and self.unfavoured(values) > self.unfavoured(chosen)):
                    chosen, chosen_rank = values, rank
            result = (fewest & packing.fewest[decider]) | (most & packing.most[decider]) | (chosen & packing.chosen)
        memo = self.memo
        memo[key] = result if shift is None else result - self.packing.shift(shift)
        if self.progress is not None and not len(memo) % PROGRESS_EVERY:
            self.progress(len(memo))
        return result

    def after(self, step: Step, decider: int) -> Packed:
        """The values of a move: the child's, plus what the move earned the decider, plus the
        tails of the players who dropped out with it."""
        child = step.child
        values = 0 if child[0] == -1 else self.value(child, *self.phase.keys.key(child, step.ships, step.roomy))
        values += step.vp * self.packing.reward[decider]
        for p, tail_key in step.drops:
            tail = self._tails.get(tail_key)
            values += self._tail(p, tail_key) if tail is None else tail
        return values

    def rank(self, values: Packed, decider: int) -> int:
        """How the expected play orders a move of `decider` with these values, the higher the
        better: their VP, their barrels kept, then the asker's VP and barrels kept, the fewer the
        better; as one integer, each a value's bits."""
        low = self.packing.low
        vp_at, kept_at = self._rank_at[decider]
        asker_vp, asker_kept = self._asker_at
        return (values >> vp_at & low) << 3 * WIDTH | (values >> kept_at & low) << 2 * WIDTH | (low - (values >> asker_vp & low)) << WIDTH | (low - (values >> asker_kept & low))

    def unfavoured(self, values: Packed) -> int:
        """The last tie-break between moves that `rank` cannot tell apart: the fewer VP (then
        barrels kept) for the players in seat order, the better (the more it is). Like `rank`,
        it reads values only, never the order of the moves, so a state's values do not depend on
        how its kinds are numbered (see `keys`). The expected VP and barrels kept, in seat order,
        as one integer (the first the highest): the fewer, the lower it is."""
        return -(values >> self.packing.expected_at & self.packing.expected_mask)

    def prefers(self, values: Packed, rank: int, than: Packed, than_rank: int) -> bool:
        """Does the expected play take a move with `values` (ranked `rank`) over one with `than`
        (`rank`, then `unfavoured`; on a full tie, the one met first)?"""
        return rank > than_rank or (rank == than_rank and self.unfavoured(values) > self.unfavoured(than))

    def choose(self, state: State) -> tuple[list[Step], list[Values], int]:
        """The decider's moves at `state`, the values of each (unpacked), and the index of the
        expected one (the first of those the expected play cannot tell apart, in the engine's order)."""
        decider = state[0]
        assert isinstance(decider, int) and decider >= 0
        steps = self.phase.steps(state)
        values = [self.after(step, decider) for step in steps]
        ranks = [self.rank(v, decider) for v in values]
        chosen = 0
        for i in range(1, len(values)):
            if self.prefers(values[i], ranks[i], values[chosen], ranks[chosen]):
                chosen = i
        return steps, [self.packing.unpack(v) for v in values], chosen

    def root_values(self) -> Values:
        """The values of the whole phase, from the position: the root's, plus the VP the phase
        gave at its start (union halls) and the tails of the players out from the start."""
        values = self.value(self.phase.root, self.phase.root_key, self.phase.root_shift)
        for p in range(self.n):
            values += self.phase.start_vp[p] * self.packing.reward[p]  # all but the barrels kept
        for p, key in self.phase.root_drops:
            values += self._tail(p, key)
        return self.packing.unpack(values)

    def _tail(self, p: int, key: TailKey) -> Packed:
        """A tail's worst, best and expected VP, barrels kept and guaranteed VP (`tails`), packed
        for its player `p`, remembered."""
        tail = self.phase.tail(key)
        n, packing = self.n, self.packing
        parts = (tail.worst, tail.best, tail.expected.vp, tail.expected.kept, tail.guaranteed)
        hit = self._tails[key] = sum(value * packing.bit(block * n + p) for block, value in enumerate(parts))
        return hit


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
