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

Values = tuple[int, ...]
BLOCKS = 5  # a state's values: worst, best, expected VP, expected barrels kept, guaranteed VP; `players` long each
PROGRESS_EVERY = 1024  # states valued between two calls of a search's `progress`


class Valuation:
    """The values of every state reached from the root, for one player asking."""

    def __init__(self, phase: CaptainPhase, asker: int, progress: Callable[[int], None] | None = None) -> None:
        """Value the phase from its root (`progress`: called with the states valued so far,
        every `PROGRESS_EVERY` of them)."""
        self.phase = phase
        self.asker = asker
        self.progress = progress
        self.n = phase.n
        # by the state's key (packed: `keys`), less its shift; the only table that grows with the
        # search (a second one by state, to skip reading keys again, took twice its memory for no time gained)
        self.memo: dict[Key, Values] = {}
        self._terminal: Values = (0,) * (BLOCKS * self.n)
        self._tails: dict[TailKey, tuple[int, int, int, int, int]] = {}  # each tail's worst, best, expected VP, barrels kept and guaranteed VP
        with quiet_search():
            self.value(phase.root, phase.root_key, phase.root_shift)

    @property
    def states(self) -> int:
        """How many states were valued."""
        return len(self.memo)

    def value(self, state: State, key: Key, shift: Shift | None) -> Values:
        """The values of `state`, whose memo key and shift are `key` and `shift` (see the module)."""
        if state[0] == -1:
            return self._terminal
        hit = self.memo.get(key)
        if hit is not None:
            return hit if shift is None else self._shifted(hit, shift, 1)
        decider: int = state[0]  # type: ignore[assignment]
        steps = self.phase.steps(state)
        first = self.after(steps[0], decider)  # a decider must load: there is a move
        if len(steps) == 1:  # one move (common): its values are the state's, block for block
            result = first
        else:
            n = self.n
            at = 4 * n  # where the guaranteed VP start
            worst, best, guaranteed = list(first[:n]), list(first[n : 2 * n]), list(first[at:])
            own = guaranteed[decider]  # the decider's guaranteed VP: the most over their moves (the others': the fewest)
            chosen, chosen_rank = first, self.rank(first, decider)
            for step in steps[1:]:
                values = self.after(step, decider)
                for p in range(n):  # a plain loop: zip and map over the moves took twice as long for a few moves
                    if values[p] < worst[p]:
                        worst[p] = values[p]
                    if values[n + p] > best[p]:
                        best[p] = values[n + p]
                    if values[at + p] < guaranteed[p]:
                        guaranteed[p] = values[at + p]
                if values[at + decider] > own:
                    own = values[at + decider]
                rank = self.rank(values, decider)
                if self.prefers(values, rank, chosen, chosen_rank):
                    chosen, chosen_rank = values, rank
            guaranteed[decider] = own
            result = (*worst, *best, *chosen[2 * n : at], *guaranteed)
        memo = self.memo
        memo[key] = result if shift is None else self._shifted(result, shift, -1)
        if self.progress is not None and not len(memo) % PROGRESS_EVERY:
            self.progress(len(memo))
        return result

    def _shifted(self, values: Values, shift: Shift, sign: int) -> Values:
        """`values` with each player's worst, best, expected and guaranteed VP moved by `sign`
        times `shift` (VP certain to come, which a state's key leaves out: see `keys`)."""
        n = self.n
        out = list(values)
        for p, vp in enumerate(shift):
            if vp:
                out[p] += sign * vp
                out[n + p] += sign * vp
                out[2 * n + p] += sign * vp
                out[4 * n + p] += sign * vp
        return tuple(out)

    def after(self, step: Step, decider: int) -> Values:
        """The values of a move: the child's, plus what the move earned the decider, plus the
        tails of the players who dropped out with it."""
        n = self.n
        child = step.child
        values = list(self._terminal if child[0] == -1 else self.value(child, *self.phase.keys.key(child, step.ships, step.roomy)))
        vp = step.vp
        values[decider] += vp
        values[n + decider] += vp
        values[2 * n + decider] += vp
        values[4 * n + decider] += vp
        for p, tail_key in step.drops:
            self._add_tail(values, p, tail_key)
        return tuple(values)

    def rank(self, values: Values, decider: int) -> tuple[int, int, int, int]:
        """How the expected play orders a move of `decider` with these values: their VP, their
        barrels kept, then the asker's VP and barrels kept, the fewer the better."""
        n, asker = self.n, self.asker
        return (values[2 * n + decider], values[3 * n + decider], -values[2 * n + asker], -values[3 * n + asker])

    def choose(self, state: State) -> tuple[list[Step], list[Values], int]:
        """The decider's moves at `state`, the values of each, and the index of the expected one
        (the first of those the expected play cannot tell apart, in the engine's order)."""
        decider = state[0]
        assert isinstance(decider, int) and decider >= 0
        steps = self.phase.steps(state)
        values = [self.after(step, decider) for step in steps]
        ranks = [self.rank(v, decider) for v in values]
        chosen = 0
        for i in range(1, len(values)):
            if self.prefers(values[i], ranks[i], values[chosen], ranks[chosen]):
                chosen = i
        return steps, values, chosen

    def prefers(self, values: Values, rank: tuple[int, int, int, int], than: Values, than_rank: tuple[int, int, int, int]) -> bool:
        """Does the expected play take a move with `values` (ranked `rank`) over one with `than`
        (`rank`, then `unfavoured`; on a full tie, the one met first)?"""
        return rank > than_rank or (rank == than_rank and self.unfavoured(values) > self.unfavoured(than))

    def unfavoured(self, values: Values) -> tuple[int, ...]:
        """The last tie-break between moves that `rank` cannot tell apart: the fewer VP (then
        barrels kept) for the players in seat order, the better. Like `rank`, it reads values
        only, never the order of the moves, so a state's values do not depend on how its kinds
        are numbered (see `keys`)."""
        n = self.n
        return tuple(-x for x in values[2 * n : 4 * n])  # expected VP and barrels kept, not the guaranteed VP

    def root_values(self) -> Values:
        """The values of the whole phase, from the position: the root's, plus the VP the phase
        gave at its start (union halls) and the tails of the players out from the start."""
        n = self.n
        values = list(self.value(self.phase.root, self.phase.root_key, self.phase.root_shift))
        for p in range(n):
            for block in (0, 1, 2, 4):  # all but the barrels kept
                values[block * n + p] += self.phase.start_vp[p]
        for p, key in self.phase.root_drops:
            self._add_tail(values, p, key)
        return tuple(values)

    def _add_tail(self, values: list[int], p: int, key: TailKey) -> None:
        """`values` with player `p`'s tail from `key` added: its worst, best, expected VP, barrels
        kept and guaranteed VP."""
        n = self.n
        tail = self._tails.get(key) or self._tail(key)
        values[p] += tail[0]
        values[n + p] += tail[1]
        values[2 * n + p] += tail[2]
        values[3 * n + p] += tail[3]
        values[4 * n + p] += tail[4]

    def _tail(self, key: TailKey) -> tuple[int, int, int, int, int]:
        """A tail's worst, best and expected VP, barrels kept and guaranteed VP (`tails`), remembered."""
        tail = self.phase.tail(key)
        hit = self._tails[key] = (tail.worst, tail.best, tail.expected.vp, tail.expected.kept, tail.guaranteed)
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
