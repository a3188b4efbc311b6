"""Which states of the search share their values: the valuation's memo key of a state, and the
VP (`Shift`) by which the state's values exceed those stored under the key.

The states under one key differ only in ways the rules make irrelevant, or relevant only as VP
certain to come to one player. Either way the phase from each of them is the same game: the same
players decide, between moves that earn the same VP, but for the shift, which every end of that
player's carries alike; so not only each player's fewest, most and expected VP are the same less
the shift, but also what they are guaranteed (a max-min over that game) and every comparison of
the expected play (barrels kept included: no reduction below changes what storage keeps).

- a kind's name never matters, only which ship carries it and who holds how many;
- a dead kind's barrels (a kind no cargo ship will take again) matter to their owner only as a
  number: a wharf takes them all, a small wharf any of them, storage counts them, whatever the
  kind;
- (`Reductions.roomy`) the barrels on a roomy ship (one with room for every barrel the players
  hold of its kind) matter to nobody: every load of its kind goes whole on it, and so it stays;
- (`Reductions.tokens`) a player with no small wharf left to use, and no wharf either or one that
  takes all they hold of any kind, ships every barrel they hold of a roomy kind, whatever anyone
  does: they must load while they can, the kind stays roomy, and their wharf would ship it for
  the same VP as a load. Those barrels matter to the others only as the turns their loads take
  (one a kind), and to their owner as VP certain to come (the same in every line of play, so no
  comparison of the expected play changes): the key counts the kinds, the shift holds the VP;
- (`Reductions.storage`) a player with no wharf and no small wharf left to use keeps their dead
  barrels to the end, where only storage reads them; with no warehouse, storage keeps a number
  of single barrels, whichever: once the dead barrels are as many, the player keeps that number
  in every end, and which dead barrels they hold matters to nobody.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.jobs.shipping.compact import HEAD, State

if TYPE_CHECKING:
    from referee.jobs.shipping.phase import CaptainPhase, Cargo

Key = bytes | tuple[int, ...]  # the key, one byte a number (see `Keys.key`: a fraction of its tuple's memory), or its numbers where one is over 255
Shift = tuple[int, ...]  # VP by player that a state's values have beyond those stored under its key


class Keys:
    """The memo keys of one phase's states."""

    def __init__(self, phase: CaptainPhase) -> None:
        self.phase = phase
        self.n, self.kinds_n, self.ships, self.at = phase.n, len(phase.kinds), phase.ships, phase.goods_at
        self.roomy, self.tokens, self.storage = phase.reductions.roomy, phase.reductions.tokens, phase.reductions.storage
        powers = phase.shippers
        # bit masks of the owners: of a small wharf, of a wharf, of a wharf too small for all they hold of a kind
        self.small_wharfs = sum(1 << p for p, power in enumerate(powers) if power.small_wharf is not None)
        self.wharfs = sum(1 << p for p, power in enumerate(powers) if power.wharf is not None)
        self.short_wharfs = sum(1 << p for p, power in enumerate(powers) if power.wharf is not None and power.wharf < max(phase.start_goods[p], default=0))
        self._frozen: dict[tuple[tuple[int, ...], ...], tuple[object, ...]] = {}  # by the dead kinds' barrels
        # storage: the players with no warehouse (bit mask), and the single barrels each keeps
        self.bare = sum(1 << p for p, power in enumerate(powers) if power.store_kinds == 0)
        self.single = tuple(power.store_barrels for power in powers)

    def key(self, state: State, ships: Cargo, roomy: int) -> tuple[Key, Shift | None]:
        """The key of `state` (its cargo ships read as `ships`, its roomy kinds `roomy`: their bit
        mask) and its shift (None: nothing).

        The key: the state's head; the barrels on each ship (0: empty; a full ship's kind is
        dead; -1: roomy); each live kind as (its ship, -1 if none, -2 if roomy, and every
        player's barrels of it), sorted; each player's barrels of the dead kinds, sorted (or
        what storage makes of them); and how many roomy kinds each player who ships them all
        holds."""
        kinds_n, at = self.kinds_n, self.at
        columns = [state[at + k :: kinds_n] for k in range(kinds_n)]  # each kind's barrels, by player
        counts, place = state[HEAD + self.ships : at], ships.place
        tokens: tuple[int, ...] = ()
        shift: list[int] | None = None
        if roomy:
            if self.roomy:
                counts, place = ships.marked(roomy)
            if self.tokens:
                free = state[4] & ~(self.short_wharfs & ~state[2] | self.small_wharfs & ~state[3])
                if free:
                    tokens, shift = self._tokens(ships, roomy, free, columns)
        live = ships.live
        kinds = sorted([(place[k], columns[k]) for k in live])
        # one byte a number, each moved to 0 or more (the decider -1 at the end, a roomy ship's
        # barrels -1, a kind's ship -2 or -1): the head, the ships' barrels, how many kinds are
        # live and each of them, then each player's dead barrels (255: as storage sees them),
        # and the tokens if any
        flat = [state[0] + 1, state[1], state[2], state[3], state[4]]
        for aboard in counts:
            flat.append(aboard + 1)
        flat.append(len(live))
        for where, column in kinds:
            flat.append(where + 2)
            flat.extend(column)
        dead = ships.dead
        frozen: tuple[object, ...] = ()
        if dead:
            held = tuple([columns[k] for k in dead])
            hit = self._frozen.get(held)
            if hit is None:  # each player's barrels of the dead kinds, sorted
                hit = self._frozen[held] = tuple(tuple(sorted(mine)) for mine in zip(*held, strict=True))
            frozen = hit
            if self.storage:
                full = state[4] & self.bare & ~(self.wharfs & ~state[2] | self.small_wharfs & ~state[3])
                if full:
                    frozen = self._full(frozen, full)
            for mine in frozen:
                if isinstance(mine, tuple):
                    flat.extend(mine)
                else:
                    flat.append(255)
        if tokens:
            flat.append(1)
            flat.extend(tokens)
        try:
            key: Key = bytes(flat)
        except ValueError:  # a number over 255 (a ruleset whose supply holds that many barrels of a kind): the numbers as they are
            key = tuple(flat)
        return key, None if shift is None else tuple(shift)

    def _full(self, frozen: tuple[object, ...], players: int) -> tuple[object, ...]:
        """`frozen` (each player's dead barrels, sorted), the dead barrels of the `players` (bit
        mask: their dead barrels stay theirs to the end, and only single barrels are stored for
        them) marked as storage sees them when there are at least as many as it keeps: -1."""
        out = list(frozen)
        for p in range(self.n):
            if players >> p & 1:
                held: tuple[int, ...] = out[p]  # type: ignore[assignment]
                if sum(held) >= self.single[p]:
                    out[p] = -1
        return tuple(out)

    def _tokens(self, ships: Cargo, roomy: int, free: int, columns: list[tuple[int, ...]]) -> tuple[tuple[int, ...], list[int] | None]:
        """The `free` players' barrels of roomy kinds (see the module), taken out of `columns`
        (each kind's barrels by player): how many such kinds each holds, and the VP those
        barrels will bring them (the shift)."""
        n, powers = self.n, self.phase.shippers
        tokens = [0] * n
        gained = [0] * n
        for k, _, _ in ships.placed:
            if roomy >> k & 1:
                column = list(columns[k])
                for p in range(n):
                    barrels = column[p]
                    if barrels and free >> p & 1:
                        tokens[p] += 1
                        gained[p] += powers[p].barrels_vp(barrels)  # the VP their load of them brings, less the load's own
                        column[p] = 0
                columns[k] = tuple(column)
        if not any(tokens):
            return (), None
        return tuple(tokens), gained
