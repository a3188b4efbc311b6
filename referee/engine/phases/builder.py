"""Builder phase: one building per player, priced with quarries and the builder's privilege."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from referee.diagnostics import RuleViolation
from referee.engine.phases.base import TurnPhase, wrong_move
from referee.engine.state import CITY
from referee.moves.clauses import SAN_JUAN, AnyMove, Build, Pass
from referee.wording import count, plural

if TYPE_CHECKING:
    from referee.rulesets.model import Building  # compiled: plain objects with the model's fields


class Builder(TurnPhase):
    """Each player may build one building they can afford and place."""

    role = "builder"

    def price(self, p: int, building: Building) -> int:
        """What `building` costs player `p`: quarries (up to its column), the builder's
        privilege, forests (forest house); never below 0."""
        rules, b = self.rules, self.board(p)
        discount = min(b.manned.get(rules.quarry.id, 0), building.column)
        if p == self.chooser:
            discount += self.privilege()
        return max(0, building.cost - discount - self._forest_discount(p))

    def price_text(self, p: int, building: Building) -> str:
        """How `price` was reached, for messages: 'cost 5, 1 quarry -1, builder -1'."""
        rules, b = self.rules, self.board(p)
        parts = [f"cost {building.cost}"]
        quarries = min(b.manned.get(rules.quarry.id, 0), building.column)
        if quarries:
            quarry = self.name_of(rules.quarry.id)
            parts.append(f"{quarries} {quarry if quarries == 1 else plural(quarry)} -{quarries}")
        if p == self.chooser:
            parts.append(f"{self.name_of('builder')} -{self.privilege()}")
        off = self._forest_discount(p)
        if off:
            forests = self.board(p).island.get(rules.forest_id, 0)
            forest = self.name_of(rules.forest_id)
            parts.append(f"{forests} {forest if forests == 1 else plural(forest)} -{off}")
        return ", ".join(parts)

    def _forest_discount(self, p: int) -> int:
        """Doubloons off from forests (forest house), with no column limit."""
        houses = self.board(p).powers(self.rules, "settle.forest")
        return self.board(p).island.get(self.rules.forest_id, 0) // houses[0].forests_per_doubloon if houses else 0

    def candidates(self, p: int) -> Iterator[AnyMove]:
        """Pass; every building left that `p` has not built, with its price written (`harbor for
        5`), a university's colonist and black-market payments where the player's buildings
        allow (only the payments that would spend all their money: the price is all of it)."""
        game, rules, b = self.game, self.rules, self.board(p)
        yield Pass()
        university = [False, True] if b.has(rules, "build.colonist") else [False]
        black = b.has(rules, "build.black-market")
        free = rules.model.city_spaces - b.city_used(rules)
        for building in rules.buildings:
            if building.id in b.buildings or game.buildings_left.get(building.id, 0) <= 0 or building.size > free:
                continue
            price = self.price(p, building)
            for with_colonist in university:
                if price <= b.doubloons:
                    yield Build(building=building.id, price=price, university=with_colonist)  # the price written, as players (and other engines) write it
                if black:
                    yield from self._black_market_payments(p, building, with_colonist)

    def _black_market_payments(self, p: int, building: Building, university: bool) -> Iterator[Build]:
        """Builds paid partly in kind: exactly as many payments as leave the price equal to the
        player's money (the black market's condition), one of each kind at most."""
        b = self.board(p)
        needed = self.price(p, building) - b.doubloons
        if needed < 1:
            return
        places = [SAN_JUAN] if b.san_juan else []
        places += [t for t, n in b.manned.items() if n > 0] + [x for x, n in b.buildings.items() if n > 0]
        goods = [k for k, n in b.goods.items() if n > 0]
        for colonist in [None, *places]:
            for good in [None, *goods]:
                for vp in (False, True) if b.vp > 0 else (False,):
                    if (colonist is not None) + (good is not None) + vp == needed:
                        yield Build(building=building.id, price=b.doubloons, university=university, pay_colonist=colonist, pay_good=good, pay_vp=vp)

    def check(self, p: int, move: AnyMove) -> None:
        if not isinstance(move, Build):
            raise wrong_move(self, move)
        game, rules, b = self.game, self.rules, self.board(p)
        building = rules.building[move.building]
        name = building.name
        payments = move.payments
        if move.building not in game.in_game:
            raise RuleViolation("builder.not-in-game", f"the {name} is not in this game: it was not chosen before the game")
        if move.building in b.buildings:
            raise RuleViolation("builder.duplicate", f"{self.who(p)} already has a {name}: a player builds each building at most once")
        if game.buildings_left.get(move.building, 0) <= 0:
            raise RuleViolation("builder.none-left", f"no {name} is left to build (the game has {rules.copies(building, game.n)})")
        free = rules.model.city_spaces - b.city_used(rules)
        if free < building.size:
            raise RuleViolation(
                "builder.city-full",
                f"{self.who(p)} has {free} free {rules.terms.city} space{'' if free == 1 else 's'}; the {name} needs {building.size}",
            )
        price = self.price(p, building)
        if payments:
            price = self._check_black_market(p, move, price, building)
        if move.price is not None and move.price != price:
            raise RuleViolation("builder.price", f"the {name} costs {self.who(p)} {price}{self._how(p, building, move)}, not {move.price}")
        if b.doubloons < price:
            raise RuleViolation(
                "builder.cannot-afford",
                f"{self.who(p)} has {b.doubloons} {rules.terms.doubloon[1]}; the {name} costs them {price}{self._how(p, building, move)}",
            )
        if payments:
            self._check_payments(p, move)
        if move.university:
            universities = rules.with_effect("build.colonist")
            # a colonist paid to the black market from the university leaves it unoccupied
            if not any(b.buildings.get(x.id, 0) - (move.pay_colonist == x.id) > 0 for x in universities):
                names = rules.power_names("build.colonist")
                raise RuleViolation("builder.university", f"{self.who(p)} has no occupied {names}: no {rules.terms.colonist[0]} comes with the building")
            if building.circles == 0:
                raise RuleViolation("builder.university", f"the {name} has no circle for a {rules.terms.colonist[0]}")

    def _how(self, p: int, building: Building, move: Build) -> str:
        """' (cost 5, 1 quarry -1)' after a price: how it was reached; nothing when the price is
        the building's cost and nothing was paid in kind ('costs them 6 (cost 6)' says it twice)."""
        how = self.price_text(p, building)
        if move.payments:
            how = f"{how}, {move.payments} paid in kind"
        return "" if how == f"cost {building.cost}" else f" ({how})"

    def apply(self, p: int, move: AnyMove) -> None:
        assert isinstance(move, Build)
        game, rules, b = self.game, self.rules, self.board(p)
        building = rules.building[move.building]
        payments = move.payments
        price = self.price(p, building) - payments
        if payments:
            self._pay_black_market(p, move)
        b.doubloons -= price
        game.buildings_left[move.building] -= 1
        b.buildings[move.building] = 0
        if move.university and game.take_colonist():
            b.buildings[move.building] = 1
        self.after_build(p, building)
        if rules.model.end.city_full and b.city_used(rules) >= rules.model.city_spaces:
            game.trigger(CITY)

    def _check_black_market(self, p: int, move: Build, price: int, building: Building) -> int:
        """The doubloons still to pay after black-market payments, which are only allowed
        when they make the player spend all their money (docs/rule-decisions.md)."""
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
        if move.payments_again:  # one colonist, one barrel, one VP chip at most (docs/rule-decisions.md)
            words = {"colonist": t.colonist, "good": t.barrel, "vp": t.vp_chip}
            kind = move.payments_again[0][0]
            paid = 1 + sum(1 for other, _ in move.payments_again if other == kind)
            raise RuleViolation(
                "builder.black-market",
                f"the {names} takes at most one {t.colonist[0]}, one {t.barrel[0]} and one {t.vp_chip[0]} as payment; {self.who(p)} pays {count(paid, words[kind])}",
            )
        rest = price - move.payments
        if rest < 0:
            raise RuleViolation("builder.black-market", f"the building costs {self.who(p)} only {price}; {move.payments} payments are too many")
        if rest != b.doubloons:
            raise RuleViolation(
                "builder.black-market",
                f"the {names} may only be used when it spends all the money: {self.who(p)} has {count(b.doubloons, rules.terms.doubloon)} "
                f"and would pay {rest}{self._how(p, building, move)}",
            )
        return rest

    def _check_payments(self, p: int, move: Build) -> None:
        """Has `p` the colonist, the barrel and the VP chip they pay in kind?"""
        rules, b = self.rules, self.board(p)
        market = b.powers(rules, "build.black-market")[0]
        place = move.pay_colonist
        if place is not None:
            if place == SAN_JUAN:
                ok = b.san_juan > 0
            elif place in rules.building:
                if rules.building[place].effect is market and b.buildings.get(place, 0) > 0:
                    names = rules.power_names("build.black-market")
                    raise RuleViolation(
                        "builder.black-market",
                        f"the {names}'s own {rules.terms.colonist[0]} cannot pay for a building: it is the one that lets {self.who(p)} pay in kind; "
                        f"a {rules.terms.colonist[0]} from {rules.terms.san_juan}, a plantation, a quarry or another building can",
                    )
                ok = b.buildings.get(place, 0) > 0
            else:
                ok = b.manned.get(place, 0) > 0
            if not ok:
                raise RuleViolation("builder.black-market", f"{self.who(p)} has no {rules.terms.colonist[0]} to pay with on {rules.terms.san_juan if place == SAN_JUAN else 'the ' + self.name_of(place)}")
        if move.pay_good is not None and b.goods.get(move.pay_good, 0) <= 0:
            raise RuleViolation("builder.black-market", f"{self.who(p)} has no {self.name_of(move.pay_good)} to pay with")
        if move.pay_vp and b.vp <= 0:
            raise RuleViolation("builder.black-market", f"{self.who(p)} has no {rules.terms.vp_chip[0]} to pay with")

    def _pay_black_market(self, p: int, move: Build) -> None:
        """Take the colonist, the barrel and the VP chip paid in kind (checked)."""
        game, rules, b = self.game, self.rules, self.board(p)
        market = b.powers(rules, "build.black-market")[0]
        place = move.pay_colonist
        if place is not None:
            if place == SAN_JUAN:
                b.san_juan -= 1
            elif place in rules.building:
                b.buildings[place] -= 1
            else:
                b.manned[place] -= 1
            if market.spent_to == "supply":
                game.colonist_supply += 1
        if move.pay_good is not None:
            b.goods[move.pay_good] -= 1
            game.goods_supply[move.pay_good] += 1
        if move.pay_vp:
            b.vp -= 1
            if market.spent_to == "supply":  # back to the chips, unless it was counted on paper
                game.vp_chips = max(0, game.setup.vp_chips - sum(x.vp for x in game.boards))

    def after_build(self, p: int, building: Building) -> None:
        """Powers that reward building: VP by the building's column (church)."""
        for church in self.board(p).powers(self.rules, "build.vp"):
            self.game.give_vp(p, church.vp.get(building.column, 0))

    def waiting(self) -> str:
        if self.pos < len(self.order):
            p = self.order[self.pos]
            return f"{self.title}: {self.who(p)} may build ({count(self.board(p).doubloons, self.rules.terms.doubloon)})"
        return f"{self.title}: every turn has been taken"
