"""Builder phase: one building per player, priced with quarries and the builder's privilege."""

from __future__ import annotations

from referee.diagnostics import RuleViolation
from referee.engine.phases.base import TurnPhase, wrong_move
from referee.engine.state import CITY
from referee.engine.text import listing
from referee.records.moves import AnyMove, Build
from referee.rulesets.model import Building


class Builder(TurnPhase):
    """Each player may build one building they can afford and place."""

    role = "builder"

    def price(self, p: int, building: Building) -> tuple[int, str]:
        """What `building` costs player `p`, and how that was reached (for messages)."""
        rules, b = self.rules, self.board(p)
        parts = [f"cost {building.cost}"]
        quarries = min(b.manned.get(rules.quarry.id, 0), building.column)
        if quarries:
            parts.append(f"{quarries} {self.nm(rules.quarry.id)}{'' if quarries == 1 else 's'} -{quarries}")
        privilege = 0
        if p == self.chooser:
            privilege = rules.role["builder"].privilege * (2 if b.has(rules, "privilege.double") else 1)
            parts.append(f"{self.nm('builder')} -{privilege}")
        discount = quarries + privilege + self.extra_discount(p, building, parts)
        return max(0, building.cost - discount), ", ".join(parts)

    def extra_discount(self, p: int, building: Building, parts: list[str]) -> int:
        """Discounts from building powers (forests, in the expansion)."""
        per = [getattr(x.effect, "forests", 0) for x in self.board(p).active(self.rules, "build.forest-discount")]
        if not per or not per[0]:
            return 0
        forests = self.board(p).island.get("forest", 0)
        off = forests // per[0]
        if off:
            parts.append(f"{forests} forests -{off}")
        return off

    def act(self, p: int, move: AnyMove) -> None:
        if not isinstance(move, Build):
            raise wrong_move(self, move)
        g, rules, b = self.g, self.rules, self.board(p)
        building = rules.building[move.building]
        name = building.name
        if move.building in b.buildings:
            raise RuleViolation("builder.duplicate", f"{self.who(p)} already has a {name}: a player builds each building at most once")
        if g.buildings_left.get(move.building, 0) <= 0:
            raise RuleViolation("builder.none-left", f"no {name} is left to build (the game has {building.copies})")
        free = rules.model.city_spaces - b.city_used(rules)
        if free < building.size:
            raise RuleViolation(
                "builder.city-full",
                f"{self.who(p)} has {free} free {rules.terms.city} space{'' if free == 1 else 's'}; the {name} needs {building.size}",
            )
        price, how = self.price(p, building)
        if move.price is not None and move.price != price:
            raise RuleViolation("builder.price", f"the {name} costs {self.who(p)} {price} ({how}), not {move.price}")
        if b.doubloons < price:
            raise RuleViolation(
                "builder.cannot-afford",
                f"{self.who(p)} has {b.doubloons} {rules.terms.doubloon[1]}; the {name} costs them {price} ({how})",
            )
        b.doubloons -= price
        g.buildings_left[move.building] -= 1
        b.buildings[move.building] = 0
        if move.university:
            if not b.has(rules, "build.colonist"):
                names = listing([x.name for x in rules.with_effect("build.colonist")], "or")
                raise RuleViolation("builder.university", f"{self.who(p)} has no occupied {names}: no {rules.terms.colonist[0]} comes with the building")
            if building.circles == 0:
                raise RuleViolation("builder.university", f"the {name} has no circle for a {rules.terms.colonist[0]}")
            if g.take_colonist():
                b.buildings[move.building] = 1
        self.after_build(p, building)
        if rules.model.end.city_full and b.city_used(rules) >= rules.model.city_spaces:
            g.trigger(CITY)

    def after_build(self, p: int, building: Building) -> None:
        """Powers that reward building (the church, in the expansion)."""

    def waiting(self) -> str:
        if self.pos < len(self.order):
            p = self.order[self.pos]
            return f"{self.title}: {self.who(p)} may build ({self.board(p).doubloons} {self.rules.terms.doubloon[1]})"
        return f"{self.title}: every turn has been taken"
