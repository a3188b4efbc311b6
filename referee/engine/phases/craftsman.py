"""Craftsman phase: production for everyone (shortages served from the craftsman on), the
factory's doubloons, and the craftsman's privilege barrel."""

from __future__ import annotations

from referee.diagnostics import Missing, RuleViolation
from referee.engine.phases.base import Phase, wrong_move
from referee.moves import AnyMove, Extra, Keep, Pass
from referee.rulesets.rules import Rules
from referee.text import count, listing


def capacity(board_buildings: dict[str, int], manned: dict[str, int], rules: Rules, good: str) -> int:
    """Barrels of `good` a board can produce: min(occupied plantations, occupied circles)."""
    plantations = manned.get(good, 0)
    if not plantations or not rules.good[good].building_needed:
        return plantations
    circles = sum(board_buildings.get(b, 0) for b in rules.producers[good])
    return min(plantations, circles)


class Craftsman(Phase):
    """Production is automatic; the only decision is the craftsman's extra barrel."""

    role = "craftsman"

    def start(self) -> None:
        g, rules = self.g, self.rules
        self.produced: dict[int, dict[str, int]] = {}
        for p in self.order:
            b = self.board(p)
            made: dict[str, int] = {}
            for good in rules.goods:
                want = capacity(b.buildings, b.manned, rules, good)
                got = min(want, g.goods_supply[good])
                if got > 0:
                    g.goods_supply[good] -= got
                    b.goods[good] = b.goods.get(good, 0) + got
                    made[good] = got
            self.produced[p] = made
            self.after_production(p, made)
            for factory in b.powers(rules, "craft.kinds-bonus"):
                b.doubloons += factory.doubloons.get(len(made), 0)
        self.extra_done = False

    def copy_state(self) -> None:
        self.produced = {p: dict(m) for p, m in self.produced.items()}

    def after_production(self, p: int, made: dict[str, int]) -> None:
        """Powers that add to production: an extra barrel of a kind made in a large production
        building (aqueduct); doubloons for the most barrels of one kind (specialty factory)."""
        g, rules, b = self.g, self.rules, self.board(p)
        for aqueduct in b.powers(rules, "craft.extra-barrel"):
            for good in aqueduct.goods:
                in_large = any(
                    rules.building[x].produces == good and rules.building[x].kind == aqueduct.building_kind and n > 0 for x, n in b.buildings.items()
                )
                if made.get(good, 0) > 0 and in_large and g.goods_supply[good] > 0:
                    g.goods_supply[good] -= 1
                    b.goods[good] = b.goods.get(good, 0) + 1
                    made[good] += 1
        for factory in b.powers(rules, "craft.most-kind"):
            most = max((n for k, n in made.items() if k not in factory.exclude), default=0)
            b.doubloons += max(0, most - 1)

    def extras_allowed(self) -> int:
        """Privilege barrels the craftsman may take (a library doubles them)."""
        return self.privilege()

    def choices(self) -> list[str]:
        """Kinds the craftsman may take as the extra barrel: produced this phase, still in the supply."""
        return [k for k in self.produced[self.chooser] if self.g.goods_supply[k] > 0]

    def play(self, p: int, move: AnyMove) -> None:
        if isinstance(move, Pass):
            if p == self.chooser:
                self._take(p, Extra(goods=()))
            return
        if not isinstance(move, Extra):
            raise wrong_move(self, move)
        if p != self.chooser:
            raise RuleViolation("craftsman.not-craftsman", f"only the {self.nm(self.role)} ({self.who(self.chooser)}) takes an extra {self.rules.terms.barrel[0]}; {self.who(p)} produces without writing a move")
        self._take(p, move)

    def _take(self, p: int, move: Extra) -> None:
        g = self.g
        if self.extra_done:
            raise RuleViolation("craftsman.extra-twice", f"{self.who(p)} has already taken the craftsman's extra")
        allowed = self.extras_allowed()
        if len(move.goods) > allowed:
            raise RuleViolation("craftsman.extra-count", f"the {self.nm(self.role)} takes at most {count(allowed, self.rules.terms.barrel)} extra, not {len(move.goods)}")
        for good in move.goods:
            if good not in self.produced[p]:
                made = listing([self.nm(k) for k in self.produced[p]], "or")
                raise RuleViolation(
                    "craftsman.extra-kind",
                    f"the extra {self.rules.terms.barrel[0]} must be of a kind {self.who(p)} produced this phase ({made if self.produced[p] else 'none: no extra ' + self.rules.terms.barrel[0]}), not {self.nm(good)}",
                )
            if g.goods_supply[good] <= 0:
                raise RuleViolation("craftsman.extra-supply", f"no {self.nm(good)} is left in the supply; {self.who(p)} may take {listing([self.nm(k) for k in self.choices()], 'or') if self.choices() else 'nothing'}")
            g.goods_supply[good] -= 1
            self.board(p).goods[good] = self.board(p).goods.get(good, 0) + 1
        self.extra_done = True

    def finish(self, reveal: list[str] | None = None, keep: dict[int, Keep] | None = None) -> None:
        if self.extra_done:
            return
        choices = self.choices()
        if len(choices) > 1:
            raise Missing(
                "craftsman.extra-missing",
                f"{self.who(self.chooser)} must choose the {self.nm(self.role)}'s extra {self.rules.terms.barrel[0]}: "
                f"{listing([self.nm(k) for k in choices], 'or')} ('extra <good>' or 'extra none')",
            )
        if choices:  # one kind produced: the extra barrels are of it, as many as the supply has
            kind = choices[0]
            self._take(self.chooser, Extra(goods=(kind,) * min(self.extras_allowed(), self.g.goods_supply[kind])))
        self.extra_done = True

    def waiting(self) -> str:
        if not self.extra_done and self.choices():
            return f"{self.title}: {self.who(self.chooser)} chooses the extra {self.rules.terms.barrel[0]} ({listing([self.nm(k) for k in self.choices()], 'or')})"
        return f"{self.title}: production is done"
