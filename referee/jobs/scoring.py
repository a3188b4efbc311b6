"""Final scores: VP earned during play, printed building VP, large buildings' bonuses, ranks.

One implementation for logs (the replayed boards) and score sheets (boards built from the
sheet). Bonus numbers are ruleset data; each bonus's logic is code named by its effect id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.engine.state import Board
from referee.rulesets.rules import Rules

if TYPE_CHECKING:
    from referee.rulesets.model import Building  # compiled: plain objects with the model's fields


@dataclass(slots=True)
class Score:
    """One player's score and its parts."""

    player: str
    chips: int  # VP earned during the game (chips and any counted on paper)
    buildings: int  # printed VP of every building, occupied or not
    bonus_by_building: dict[str, int] = field(default_factory=dict)
    doubloons: int = 0
    goods: int = 0
    rank: int = 0

    @property
    def bonus(self) -> int:
        return sum(self.bonus_by_building.values())

    @property
    def total(self) -> int:
        return self.chips + self.buildings + self.bonus

    @property
    def tiebreak(self) -> int:
        """Doubloons plus barrels: decides a tie on VP."""
        return self.doubloons + self.goods


def _bonus_buildings(effect, board: Board, rules: Rules) -> int:  # type: ignore[no-untyped-def]
    return sum(effect.weights.get(rules.building[b].kind, 0) for b in board.buildings)


def _bonus_island(effect, board: Board, rules: Rules) -> int:  # type: ignore[no-untyped-def]
    filled = board.island_filled()
    return max((vp for at_least, vp in effect.vp.items() if filled >= at_least), default=0)


def _bonus_colonists(effect, board: Board, rules: Rules) -> int:  # type: ignore[no-untyped-def]
    return board.colonists() // effect.per


def _bonus_chips(effect, board: Board, rules: Rules) -> int:  # type: ignore[no-untyped-def]
    return board.vp // effect.per


def _bonus_sets(effect, board: Board, rules: Rules) -> int:  # type: ignore[no-untyped-def]
    counts = []
    for tile, n in board.island.items():
        kind = "forests" if tile == rules.forest_id else "quarries" if tile == rules.quarry.id else "plantations" if tile in rules.good else None
        if kind in effect.tiles:
            counts.append(n)
    sets = sum(n // effect.set_size for n in counts)
    return max((vp for at_least, vp in effect.vp.items() if sets >= at_least), default=0)


BONUSES: dict[str, Callable[..., int]] = {
    "bonus.sets": _bonus_sets,
    "bonus.buildings": _bonus_buildings,
    "bonus.island": _bonus_island,
    "bonus.colonists": _bonus_colonists,
    "bonus.chips": _bonus_chips,
}


def bonus(building: Building, board: Board, rules: Rules) -> int | None:
    """The end bonus of `building` on `board` (None: the building has no end bonus)."""
    if building.effect is None or building.effect.id not in BONUSES:
        return None
    return BONUSES[building.effect.id](building.effect, board, rules)


def score(boards: list[Board], rules: Rules) -> list[Score]:
    """Every player's score, ranked (equal VP and tie-break share a rank)."""
    scores = []
    for board in boards:
        s = Score(
            player=board.name,
            chips=board.vp,
            buildings=sum(rules.building[b].vp for b in board.buildings),
            doubloons=board.doubloons,
            goods=board.barrels(),
        )
        for ident, colonists in board.buildings.items():
            building = rules.building[ident]
            if colonists > 0 or building.circles == 0:
                value = bonus(building, board, rules)
                if value is not None:
                    s.bonus_by_building[building.name] = value
        scores.append(s)
    for s in scores:
        s.rank = 1 + sum(1 for o in scores if (o.total, o.tiebreak) > (s.total, s.tiebreak))
    return scores


def winners(scores: list[Score]) -> list[str]:
    """The players ranked first (more than one: a shared win)."""
    return [s.player for s in scores if s.rank == 1]
