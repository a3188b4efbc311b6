"""Mayor phase: colonists from the ship, one at a time from the mayor; free rearrangement."""

from __future__ import annotations

from referee.diagnostics import Missing, RuleViolation
from referee.engine.phases.base import TurnPhase, wrong_move
from referee.engine.state import COLONISTS
from referee.moves import AnyMove, Arrange, Keep
from referee.text import count


class Mayor(TurnPhase):
    """Colonists are handed out, then each player's whole arrangement is given (or forced)."""

    role = "mayor"

    def start(self) -> None:
        g = self.g
        board = self.board(self.chooser)
        privilege = min(self.privilege(), g.colonist_supply)
        g.colonist_supply -= privilege  # the privilege comes from the supply, never the ship
        board.san_juan += privilege
        for i in range(g.colonist_ship):  # one at a time, clockwise from the mayor
            self.board(self.order[i % g.n]).san_juan += 1
        g.colonist_ship = 0

    def act(self, p: int, move: AnyMove) -> None:
        if not isinstance(move, Arrange):
            raise wrong_move(self, move)
        rules, b = self.rules, self.board(p)
        col = rules.terms.colonist
        for tile, n in move.tiles.items():
            owned = b.island.get(tile, 0)
            if tile == "forest":
                raise RuleViolation("mayor.arrangement", f"a forest has no circle: no {col[0]} can be placed on it")
            if n > owned:
                raise RuleViolation("mayor.arrangement", f"{self.who(p)} has {owned} {self.nm(tile)} {'tile' if owned == 1 else 'tiles'}, so {n} cannot be occupied")
        for building, n in move.buildings.items():
            if building not in b.buildings:
                raise RuleViolation("mayor.arrangement", f"{self.who(p)} has no {self.nm(building)}")
            circles = rules.building[building].circles
            if n > circles:
                raise RuleViolation("mayor.arrangement", f"the {self.nm(building)} has {count(circles, ('circle', 'circles'))}, so it cannot take {n} {col[1]}")
        total = b.colonists()
        written = move.placed + move.san_juan
        if written != total:
            raise RuleViolation(
                "mayor.colonist-count",
                f"{self.who(p)} has {count(total, col)}; the arrangement accounts for {written} "
                f"({move.placed} placed, {move.san_juan} in {rules.terms.san_juan})",
            )
        circles = b.circles(rules)
        if move.san_juan > 0 and move.placed < circles:
            raise RuleViolation(
                "mayor.empty-circle",
                f"{self.who(p)} leaves {count(move.san_juan, col)} in {rules.terms.san_juan} while "
                f"{count(circles - move.placed, ('circle is', 'circles are'))} empty: every circle that can be filled must be filled",
            )
        b.manned = dict(move.tiles)
        b.buildings = {k: move.buildings.get(k, 0) for k in b.buildings}
        b.san_juan = move.san_juan

    def skip(self, p: int) -> None:
        b = self.board(p)
        total = b.colonists()
        circles = b.circles(self.rules)
        if total >= circles:  # no choice: every circle is filled, the rest wait in San Juan
            b.manned = {t: n for t, n in b.island.items() if t != "forest"}
            b.buildings = {k: self.rules.building[k].circles for k in b.buildings}
            b.san_juan = total - circles
            return
        if total == 0:  # nothing to arrange
            return
        raise Missing(
            "mayor.arrangement-missing",
            f"{self.who(p)} must give their arrangement: {count(total, self.rules.terms.colonist)} "
            f"for {count(circles, ('circle', 'circles'))}, so not every circle can be filled",
        )

    def end(self, reveal: list[str] | None, keep: dict[int, Keep] | None) -> None:
        g, rules = self.g, self.rules
        empty = sum(b.empty_building_circles(rules) for b in g.boards)
        required = max(empty, g.setup.ship_colonists)
        if g.colonist_supply >= required:
            g.colonist_supply -= required
            g.colonist_ship = required
            return
        if rules.model.end.colonists_short:
            g.trigger(COLONISTS)
        if rules.model.end.partial_refill:
            g.colonist_ship = g.colonist_supply
            g.colonist_supply = 0

    def waiting(self) -> str:
        if self.pos < len(self.order):
            p = self.order[self.pos]
            return f"{self.title}: {self.who(p)} arranges {count(self.board(p).colonists(), self.rules.terms.colonist)}"
        return f"{self.title}: every arrangement has been given"
