"""Builder phase: one building per player, priced with quarries and the builder's privilege."""

from __future__ import annotations

from referee.diagnostics import RuleViolation
from referee.engine.phases.base import TurnPhase, wrong_move
from referee.engine.state import CITY
from referee.moves import SAN_JUAN, AnyMove, Build
from referee.rulesets.rules import Building
from referee.text import count


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
            privilege = self.privilege()
            parts.append(f"{self.nm('builder')} -{privilege}")
        discount = quarries + privilege + self.extra_discount(p, building, parts)
        return max(0, building.cost - discount), ", ".join(parts)

    def extra_discount(self, p: int, building: Building, parts: list[str]) -> int:
        """Discounts from building powers: forests (forest house), with no column limit."""
        houses = self.board(p).powers(self.rules, "settle.forest")
        forests = self.board(p).island.get("forest", 0)
        if not houses or not forests:
            return 0
        off = forests // houses[0].forests_per_doubloon
        if off:
            parts.append(f"{forests} forests -{off}")
        return off

    def act(self, p: int, move: AnyMove) -> None:
        if not isinstance(move, Build):
            raise wrong_move(self, move)
        g, rules, b = self.g, self.rules, self.board(p)
        building = rules.building[move.building]
        name = building.name
        if move.building not in g.in_game:
            raise RuleViolation("builder.not-in-game", f"the {name} is not in this game: it was not chosen before the game")
        if move.building in b.buildings:
            raise RuleViolation("builder.duplicate", f"{self.who(p)} already has a {name}: a player builds each building at most once")
        if g.buildings_left.get(move.building, 0) <= 0:
            raise RuleViolation("builder.none-left", f"no {name} is left to build (the game has {rules.copies(building, g.n)})")
        free = rules.model.city_spaces - b.city_used(rules)
        if free < building.size:
            raise RuleViolation(
                "builder.city-full",
                f"{self.who(p)} has {free} free {rules.terms.city} space{'' if free == 1 else 's'}; the {name} needs {building.size}",
            )
        price, how = self.price(p, building)
        if move.payments:
            price, how = self.black_market(p, move, price, how)
        if move.price is not None and move.price != price:
            raise RuleViolation("builder.price", f"the {name} costs {self.who(p)} {price} ({how}), not {move.price}")
        if b.doubloons < price:
            raise RuleViolation(
                "builder.cannot-afford",
                f"{self.who(p)} has {b.doubloons} {rules.terms.doubloon[1]}; the {name} costs them {price} ({how})",
            )
        if move.payments:
            self.pay_black_market(p, move)
        b.doubloons -= price
        g.buildings_left[move.building] -= 1
        b.buildings[move.building] = 0
        if move.university:
            if not b.has(rules, "build.colonist"):
                names = rules.power_names("build.colonist")
                raise RuleViolation("builder.university", f"{self.who(p)} has no occupied {names}: no {rules.terms.colonist[0]} comes with the building")
            if building.circles == 0:
                raise RuleViolation("builder.university", f"the {name} has no circle for a {rules.terms.colonist[0]}")
            if g.take_colonist():
                b.buildings[move.building] = 1
        self.after_build(p, building)
        if rules.model.end.city_full and b.city_used(rules) >= rules.model.city_spaces:
            g.trigger(CITY)

    def black_market(self, p: int, move: Build, price: int, how: str) -> tuple[int, str]:
        """The doubloons still to pay after black-market payments, which are only allowed
        when they make the player spend all their money (rules-data.md B3)."""
        rules, b = self.rules, self.board(p)
        markets = b.powers(rules, "build.black-market")
        names = rules.power_names("build.black-market")
        if not markets:
            raise RuleViolation("builder.black-market", f"{self.who(p)} has no occupied {names}: the price is paid in {rules.terms.doubloon[1]}")
        market = markets[0]
        t = rules.terms
        for what, used, allowed in ((t.colonist[0], move.pay_colonist is not None, market.colonist), (t.barrel[0], move.pay_good is not None, market.good), (t.vp_chip[0], move.pay_vp, market.vp)):
            if used and not allowed:
                raise RuleViolation("builder.black-market", f"the {names} does not take a {what} as payment")
        rest = price - move.payments
        if rest < 0:
            raise RuleViolation("builder.black-market", f"the building costs {self.who(p)} only {price}; {move.payments} payments are too many")
        if rest != b.doubloons:
            raise RuleViolation(
                "builder.black-market",
                f"the {names} may only be used when it spends all the money: {self.who(p)} has {count(b.doubloons, rules.terms.doubloon)} "
                f"and would pay {rest} ({how}, {move.payments} paid in kind)",
            )
        return rest, f"{how}, {move.payments} paid in kind"

    def pay_black_market(self, p: int, move: Build) -> None:
        """Take the colonist, the barrel and the VP chip paid in kind."""
        g, rules, b = self.g, self.rules, self.board(p)
        market = b.powers(rules, "build.black-market")[0]
        place = move.pay_colonist
        if place is not None:
            if place == SAN_JUAN:
                ok = b.san_juan > 0
                if ok:
                    b.san_juan -= 1
            elif place in rules.building:
                if rules.building[place].effect is market and b.buildings.get(place, 0) > 0:
                    names = rules.power_names("build.black-market")
                    raise RuleViolation(
                        "builder.black-market",
                        f"the {names}'s own {rules.terms.colonist[0]} cannot pay for a building: it is the one that lets {self.who(p)} pay in kind; "
                        f"a {rules.terms.colonist[0]} from {rules.terms.san_juan}, a plantation, a quarry or another building can",
                    )
                ok = b.buildings.get(place, 0) > 0
                if ok:
                    b.buildings[place] -= 1
            else:
                ok = b.manned.get(place, 0) > 0
                if ok:
                    b.manned[place] -= 1
            if not ok:
                raise RuleViolation("builder.black-market", f"{self.who(p)} has no {rules.terms.colonist[0]} to pay with on {rules.terms.san_juan if place == SAN_JUAN else 'the ' + self.nm(place)}")
            if market.spent_to == "supply":
                g.colonist_supply += 1
        if move.pay_good is not None:
            if b.goods.get(move.pay_good, 0) <= 0:
                raise RuleViolation("builder.black-market", f"{self.who(p)} has no {self.nm(move.pay_good)} to pay with")
            b.goods[move.pay_good] -= 1
            g.goods_supply[move.pay_good] += 1
        if move.pay_vp:
            if b.vp <= 0:
                raise RuleViolation("builder.black-market", f"{self.who(p)} has no {rules.terms.vp_chip[0]} to pay with")
            b.vp -= 1
            if market.spent_to == "supply":  # back to the chips, unless it was counted on paper
                g.vp_chips = max(0, g.setup.vp_chips - sum(x.vp for x in g.boards))

    def after_build(self, p: int, building: Building) -> None:
        """Powers that reward building: VP by the building's column (church)."""
        for church in self.board(p).powers(self.rules, "build.vp"):
            self.g.give_vp(p, church.vp.get(building.column, 0))

    def waiting(self) -> str:
        if self.pos < len(self.order):
            p = self.order[self.pos]
            return f"{self.title}: {self.who(p)} may build ({self.board(p).doubloons} {self.rules.terms.doubloon[1]})"
        return f"{self.title}: every turn has been taken"
