"""Mayor phase: colonists from the ship, one at a time from the mayor; free rearrangement.

The mayor's privilege is optional (the rules say "may"): the colonist (two with a library) is
taken from the supply at the start, as the log leaves it out when it is taken; an arrangement
of the mayor holding one colonist fewer (two fewer, or one, with a library) says that it was
declined, and the colonist goes back to the supply (docs/formats/game-log.md, version 3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from random import Random
from typing import TYPE_CHECKING

from referee.diagnostics import Missing, RuleViolation
from referee.engine.awaiting import ArrangementAwaited
from referee.engine.phases.base import TurnPhase, wrong_move
from referee.engine.state import COLONISTS
from referee.ground.wording import count
from referee.moves.clauses import AnyMove, Arrange, Keep
from referee.rulesets.rules import Rules

if TYPE_CHECKING:
    from referee.engine.state import Board


class Mayor(TurnPhase):
    """Colonists are handed out, then each player's whole arrangement is given (or forced)."""

    role = "mayor"
    forced = True  # a player left out is arranged for, and may be refused that
    answer = ArrangementAwaited
    privilege_colonists = 0  # the colonists the mayor took as the privilege (set by `start`)

    def start(self) -> None:
        game = self.game
        boards, order = game.boards, self.order
        privilege = min(self.privilege(), game.colonist_supply)
        game.colonist_supply -= privilege  # the privilege comes from the supply, never the ship
        boards[self.chooser].san_juan += privilege
        self.privilege_colonists = privilege  # what the mayor's arrangement may still decline
        ship, n = game.colonist_ship, game.n
        each, more = divmod(ship, n)
        for i in range(min(ship, n)):  # one at a time, clockwise from the mayor: the first `ship % n` players get one more
            boards[order[i]].san_juan += each + (i < more)
        game.colonist_ship = 0

    def declinable(self, p: int) -> int:
        """How many of `p`'s colonists their arrangement may leave out: the privilege's
        colonists for the mayor (declined), none for anyone else."""
        return self.privilege_colonists if p == self.chooser else 0

    def _counts(self, p: int) -> range:
        """The numbers of colonists an arrangement of `p` may hold: all of theirs first, then
        one fewer for each privilege colonist the mayor may decline."""
        total = self.board(p).colonists()
        return range(total, total - self.declinable(p) - 1, -1)

    def candidates(self, p: int) -> Iterator[AnyMove]:
        """Every arrangement `p` may give (all circles filled when possible), the privilege
        taken, then declined: all legal, each once (they hold different numbers of colonists)."""
        rules, b = self.rules, self.board(p)
        for colonists in self._counts(p):
            yield from arrangements(rules, b, colonists)

    def turn_moves(self, p: int) -> Iterator[AnyMove]:
        return self.candidates(p)  # generated legal: every arrangement, no superset

    def count_moves(self, p: int) -> int:
        """How many arrangements `p` may give now, counted without listing them."""
        if not self.reachable(p):
            return 0
        rules, b = self.rules, self.board(p)
        return sum(count_arrangements(rules, b, colonists) for colonists in self._counts(p))

    def check(self, p: int, move: AnyMove) -> None:
        if not isinstance(move, Arrange):
            raise wrong_move(self, move)
        rules, b = self.rules, self.game.boards[p]
        col = rules.terms.colonist
        island, forest = b.island, rules.forest_id
        placed = 0  # `move.placed`, added up on the way
        for tile, n in move.tiles.items():
            if tile == forest:  # `rules.has_circle(tile)`, written out
                raise RuleViolation("mayor.arrangement", f"a forest has no circle: no {col[0]} can be placed on it")
            owned = island.get(tile, 0)
            if n > owned:
                raise RuleViolation("mayor.arrangement", f"{self.who(p)} has {owned} {self.name_of(tile)} {'tile' if owned == 1 else 'tiles'}, so {n} cannot be occupied")
            placed += n
        buildings, circles_of = b.buildings, rules.circles
        for building, n in move.buildings.items():
            if building not in buildings:
                raise RuleViolation("mayor.arrangement", f"{self.who(p)} has no {self.name_of(building)}")
            circles = circles_of[building]
            if n > circles:
                raise RuleViolation("mayor.arrangement", f"the {self.name_of(building)} has {count(circles, ('circle', 'circles'))}, so it cannot take {n} {col[1]}")
            placed += n
        total = sum(b.manned.values()) + sum(buildings.values()) + b.san_juan  # `b.colonists()`
        written = placed + move.san_juan
        declinable = self.privilege_colonists if p == self.chooser else 0  # `declinable`
        if not total - declinable <= written <= total:
            declining = ""
            if declinable:  # the mayor may also have written the arrangement of a privilege declined
                privilege = rules.terms.privilege
                fewer = " or ".join(str(total - d) for d in range(1, declinable + 1))
                which = f"the {privilege}'s {col[0]}" if declinable == 1 else f"one or both of the {privilege}'s {col[1]}"
                declining = f", not {total} (or {fewer}, {which} declined)"
            raise RuleViolation(
                "mayor.colonist-count",
                f"{self.who(p)} has {count(total, col)}; the arrangement accounts for {written} "
                f"({placed} placed, {move.san_juan} in {rules.terms.san_juan}){declining}",
            )
        if move.san_juan > 0:  # colonists left in San Juan: only when every circle is filled
            circles = b.circles(rules)
            if placed < circles:
                raise RuleViolation(
                    "mayor.empty-circle",
                    f"{self.who(p)} leaves {count(move.san_juan, col)} in {rules.terms.san_juan} while "
                    f"{count(circles - placed, ('circle is', 'circles are'))} empty: every circle that can be filled must be filled",
                )

    def apply(self, p: int, move: AnyMove) -> None:
        assert isinstance(move, Arrange)
        b = self.game.boards[p]
        if p == self.chooser and self.privilege_colonists:  # the privilege's colonists declined (checked: the mayor's only; anyone else's arrangement holds all theirs)
            self.game.colonist_supply += b.colonists() - move.placed - move.san_juan
        b.manned = dict(move.tiles)
        b.buildings = dict.fromkeys(b.buildings, 0) | move.buildings  # every building kept, in its order; those not written empty
        b.san_juan = move.san_juan

    def skip(self, p: int) -> None:
        b = self.game.boards[p]
        total = b.colonists()
        circles = b.circles(self.rules)
        if total >= circles:  # left out: every circle is filled (a mayor's privilege taken), the rest wait in San Juan
            forest, circles_of = self.rules.forest_id, self.rules.circles
            b.manned = {t: n for t, n in b.island.items() if t != forest}
            b.buildings = {k: circles_of[k] for k in b.buildings}
            b.san_juan = total - circles

    def may_pass(self, p: int) -> bool:
        """A player left out is arranged for only when every circle can be filled: a mayor so
        left out took the privilege, though declining it was open to them (docs/formats/game-log.md: an
        arrangement left out means it was taken)."""
        b = self.game.boards[p]
        total = b.colonists()
        return total == 0 or total >= b.circles(self.rules)

    def refused_pass(self, p: int) -> RuleViolation:
        b = self.board(p)
        total = b.colonists()
        circles = b.circles(self.rules)
        return Missing(
            "mayor.arrangement-missing",
            f"{self.who(p)} must give their arrangement: {count(total, self.rules.terms.colonist)} "
            f"for {count(circles, ('circle', 'circles'))}, so not every circle can be filled",
        )

    def end(self, reveal: list[str] | None, keep: dict[int, Keep] | None) -> None:
        game, rules = self.game, self.rules
        circles_of = rules.circles
        empty = 0  # empty circles on buildings (`Board.empty_building_circles`), added up over the boards
        for b in game.boards:
            buildings = b.buildings
            empty += sum(map(circles_of.__getitem__, buildings)) - sum(buildings.values())
        required = max(empty, game.setup.ship_colonists)
        if game.colonist_supply >= required:
            game.colonist_supply -= required
            game.colonist_ship = required
            return
        if rules.model.end.colonists_short:
            game.trigger(COLONISTS)
        if rules.model.end.partial_refill:
            game.colonist_ship = game.colonist_supply
            game.colonist_supply = 0

    def still_deciding(self) -> str | None:
        return None  # a mayor's arrangement left out is forced, or missing: never a pass that changes nothing

    def waiting(self) -> str:
        if self.pos < len(self.order):
            p = self.order[self.pos]
            return f"{self.title}: {self.who(p)} arranges {count(self.board(p).colonists(), self.rules.terms.colonist)}"
        return f"{self.title}: every arrangement has been given"


def _slots(rules: Rules, board: Board) -> list[tuple[str, bool, int]]:
    """(place, is a building, circles) for every place a colonist can go on a board."""
    out = [(t, False, n) for t, n in board.island.items() if rules.has_circle(t) and n > 0]
    out += [(b, True, rules.building[b].circles) for b in board.buildings if rules.building[b].circles > 0]
    return out


def arrangements(rules: Rules, board: Board, colonists: int | None = None) -> Iterator[Arrange]:
    """Every arrangement of a board's colonists (or of `colonists` of them: the mayor's, a
    privilege declined) with every circle filled that can be."""
    total = board.colonists() if colonists is None else colonists
    slots = _slots(rules, board)
    placed = min(total, sum(c for _, _, c in slots))
    for counts in _spread(placed, [c for _, _, c in slots]):
        tiles = {t: c for (t, is_building, _), c in zip(slots, counts, strict=True) if not is_building and c}
        buildings = {t: c for (t, is_building, _), c in zip(slots, counts, strict=True) if is_building and c}
        yield Arrange(tiles=tiles, buildings=buildings, san_juan=total - placed)


def count_arrangements(rules: Rules, board: Board, colonists: int | None = None) -> int:
    """How many arrangements `arrangements` would give, without listing them."""
    caps = [c for _, _, c in _slots(rules, board)]
    placed = min(board.colonists() if colonists is None else colonists, sum(caps))
    ways = [1] + [0] * placed
    for cap in caps:
        after = [0] * (placed + 1)
        for used, w in enumerate(ways):
            if w:
                for c in range(min(cap, placed - used) + 1):
                    after[used + c] += w
        ways = after
    return ways[placed]


DECLINING = 0.25  # how often random play's mayor declines the privilege, when there is one to decline


def random_arrangement(rules: Rules, board: Board, rng: Random, declinable: int = 0) -> Arrange | None:
    """A random arrangement (random play), or None to leave the player out: when the rules
    leave no choice, the privilege taken. `declinable`: the privilege's colonists the board
    holds (the mayor's), declined now and then."""
    declined = rng.randint(1, declinable) if declinable and rng.random() < DECLINING else 0
    total = board.colonists() - declined
    slots = _slots(rules, board)
    circles = sum(c for _, _, c in slots)
    if total >= circles or total == 0:
        if not declined:
            return None
        return next(arrangements(rules, board, total))  # no choice left but the decline: written
    seats = [i for i, (_, _, c) in enumerate(slots) for _ in range(c)]
    counts = Counter(rng.sample(seats, total))
    tiles = {slots[i][0]: c for i, c in counts.items() if not slots[i][1]}
    buildings = {slots[i][0]: c for i, c in counts.items() if slots[i][1]}
    return Arrange(tiles=tiles, buildings=buildings, san_juan=0)


def _spread(total: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to put `total` colonists on places with capacities `caps`, the first places fullest first."""
    if not caps:
        if total == 0:
            yield ()
        return
    rest = sum(caps[1:])
    for c in range(min(caps[0], total), max(0, total - rest) - 1, -1):
        for tail in _spread(total - c, caps[1:]):
            yield (c, *tail)
