"""Builder phase: one building per player, priced with quarries and the builder's privilege."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from referee.diagnostics import RuleViolation
from referee.engine.phases.base import PASS, TurnPhase, wrong_move
from referee.engine.state import CITY
from referee.ground.wording import count, plural
from referee.moves.clauses import SAN_JUAN, AnyMove, Build, Pass

if TYPE_CHECKING:
    from referee.rulesets.model import BuildBlackMarket, Building  # compiled: plain objects with the model's fields


class Builder(TurnPhase):
    """Each player may build one building they can afford and place."""

    role = "builder"

    def price(self, p: int, building: Building) -> int:
        """What `building` costs player `p`: quarries (up to its column), the builder's
        privilege, forests (forest house); never below 0."""
        return self._priced(building, *self._discounts(p))

    def _discounts(self, p: int) -> tuple[int, int]:
        """`p`'s discounts on any building: occupied quarries (each building takes up to its
        column of them), and the doubloons off every price (privilege, forests)."""
        rules = self.rules
        off = self._forest_discount(p) if "settle.forest" in rules.power_pairs else 0  # no forest house in the ruleset: no forest discount
        if p == self.chooser:
            off += self.privilege()
        return self.game.boards[p].manned.get(rules.quarry.id, 0), off

    @staticmethod
    def _priced(building: Building, quarries: int, off: int) -> int:
        """The price of `building` with `_discounts`' quarries and doubloons off."""
        return max(0, building.cost - min(quarries, building.column) - off)

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
        for colonist in [None, *self._colonist_places(p)]:
            for good in [None, *(k for k, n in b.goods.items() if n > 0)]:
                for vp in (False, True) if b.vp > 0 else (False,):
                    if (colonist is not None) + (good is not None) + vp == needed:
                        yield Build(building=building.id, price=b.doubloons, university=university, pay_colonist=colonist, pay_good=good, pay_vp=vp)

    def _colonist_places(self, p: int) -> list[str]:
        """Where `p` has a colonist: San Juan, then occupied tiles, then occupied buildings."""
        b = self.board(p)
        places = [SAN_JUAN] if b.san_juan else []
        return places + [t for t, n in b.manned.items() if n > 0] + [x for x, n in b.buildings.items() if n > 0]

    def turn_moves(self, p: int) -> Iterator[AnyMove]:
        """Pass; then, in the order of `candidates`, each build `check` accepts, from the same
        predicates: a building `p` may build (`buildable`), priced once per player
        (`_discounts`), paid in doubloons (`affordable`) or, where a black market allows,
        partly in kind (`_market_builds`); with the university's colonist where one can come."""
        game, rules = self.game, self.rules
        b = game.boards[p]
        yield PASS
        universities = (False, True) if b.has(rules, "build.colonist") else (False,)
        markets = b.powers(rules, "build.black-market")
        free = self.city_room(p)
        quarries, off = self._discounts(p)
        in_game, left, built = game.in_game, game.buildings_left, b.buildings
        for building in rules.buildings:  # every building of the ruleset for every player at every turn: the predicates written out
            ident = building.id
            if ident not in in_game or ident in built or left.get(ident, 0) <= 0 or free < building.size:  # `buildable`
                continue
            price = building.cost - (quarries if quarries < building.column else building.column) - off  # `_priced`
            if price < 0:
                price = 0
            for with_colonist in universities:
                if b.doubloons >= price:  # `affordable`
                    if not with_colonist or (self.university_colonist(p, building, None) and self.colonist_to_come(p, None)):
                        yield build_move(ident, price, with_colonist)
                elif markets:  # payments in kind only where the money is short (`market_price`: all of it is spent)
                    yield from self._market_builds(p, building, price, markets[0], with_colonist)

    def _market_builds(self, p: int, building: Building, price: int, market: BuildBlackMarket, university: bool) -> Iterator[Build]:
        """The builds of `_black_market_payments` that `check` accepts: each payment one the
        market takes (`market_takes`) and the player has (`may_pay`), as many as leave the
        price equal to the player's money (`market_price`)."""
        b = self.board(p)
        colonists = [None, *(place for place in self._colonist_places(p) if self.may_pay_colonist(p, place))] if self.market_takes(market, "colonist") else [None]
        goods = [None, *(good for good in b.goods if self.may_pay_good(p, good))] if self.market_takes(market, "good") else [None]
        chips = (False, True) if self.market_takes(market, "vp") and self.may_pay_vp(p) else (False,)
        for colonist in colonists:
            for good in goods:
                for vp in chips:
                    payments = (colonist is not None) + (good is not None) + vp
                    if payments and self.market_price(p, price, payments) and (not university or (self.university_colonist(p, building, colonist) and self.colonist_to_come(p, colonist))):
                        yield build_move(building.id, b.doubloons, university, colonist, good, vp)

    # --- the rules of a build, asked by `check` and by `turn_moves` ---------------------------

    def in_game(self, building: Building) -> bool:
        """Is `building` in this game (chosen before it, where the ruleset has a selection)?"""
        return building.id in self.game.in_game

    def built(self, p: int, building: Building) -> bool:
        """Has `p` built `building` already (a player builds each at most once)?"""
        return building.id in self.board(p).buildings

    def left(self, building: Building) -> bool:
        """Is a `building` left to build?"""
        return self.game.buildings_left.get(building.id, 0) > 0

    def city_room(self, p: int) -> int:
        """Free city spaces on `p`'s board."""
        return self.rules.model.city_spaces - self.board(p).city_used(self.rules)

    def buildable(self, p: int, building: Building, free: int) -> bool:
        """May `p`, with `free` city spaces (`city_room`), build `building` at some price?"""
        return self.in_game(building) and not self.built(p, building) and self.left(building) and free >= building.size

    def affordable(self, p: int, price: int) -> bool:
        """Has `p` the doubloons to pay `price`?"""
        return self.board(p).doubloons >= price

    def university_occupied(self, p: int, paid_from: str | None) -> bool:
        """Has `p` an occupied university once a colonist is paid from `paid_from` (a colonist paid
        to the black market from the university leaves it unoccupied)?"""
        buildings = self.board(p).buildings
        return any(buildings.get(x.id, 0) - (paid_from == x.id) > 0 for x in self.rules.with_effect("build.colonist"))

    def university_colonist(self, p: int, building: Building, paid_from: str | None) -> bool:
        """Can a university's colonist come with `building`: a university occupied
        (`university_occupied`) and a circle on the building?"""
        return self.university_occupied(p, paid_from) and building.circles > 0

    def colonist_to_come(self, p: int, paid_from: str | None) -> bool:
        """Is a colonist left for the university to bring: in the supply or on the ship
        (`Game.colonist_left`), or the one `p` pays to the black market from `paid_from`, where
        it goes to the supply first?"""
        if self.game.colonist_left():
            return True
        markets = self.board(p).powers(self.rules, "build.black-market") if paid_from is not None else []
        return bool(markets) and markets[0].spent_to == "supply"

    @staticmethod
    def market_takes(market: BuildBlackMarket, kind: str) -> bool:
        """Does the black market (its power's parameters) take a payment of `kind` ('colonist', 'good', 'vp')?"""
        return bool({"colonist": market.colonist, "good": market.good, "vp": market.vp}[kind])

    def market_price(self, p: int, price: int, payments: int) -> bool:
        """Do `payments` in kind leave `price` equal to all of `p`'s money, as the black market requires?"""
        return price - payments == self.board(p).doubloons

    def may_pay_colonist(self, p: int, place: str) -> bool:
        """Has `p` a colonist on `place` they may pay with (the black market's own may not)?"""
        return self.has_colonist(p, place) and not self.market_own(p, place)

    def has_colonist(self, p: int, place: str) -> bool:
        """Is a colonist of `p`'s on `place` (San Juan, a tile, a building)?"""
        rules, b = self.rules, self.board(p)
        if place == SAN_JUAN:
            return b.san_juan > 0
        if place in rules.building:
            return b.buildings.get(place, 0) > 0
        return b.manned.get(place, 0) > 0

    def market_own(self, p: int, place: str) -> bool:
        """Is `place` `p`'s occupied black market, whose colonist is what lets them pay in kind?"""
        rules, b = self.rules, self.board(p)
        return place in rules.building and rules.building[place].effect is b.powers(rules, "build.black-market")[0] and b.buildings.get(place, 0) > 0

    def may_pay_good(self, p: int, good: str) -> bool:
        """Has `p` a barrel of `good` to pay with?"""
        return self.board(p).goods.get(good, 0) > 0

    def may_pay_vp(self, p: int) -> bool:
        """Has `p` a VP chip to pay with?"""
        return self.board(p).vp > 0

    def check(self, p: int, move: AnyMove) -> None:
        if not isinstance(move, Build):
            raise wrong_move(self, move)
        game, rules = self.game, self.rules
        b = game.boards[p]
        building = rules.building[move.building]
        ident, name = building.id, building.name
        payments = move.payments
        # the predicates of `buildable`, written out (the replay asks them at every build)
        if ident not in game.in_game:  # `in_game`
            raise RuleViolation("builder.not-in-game", f"the {name} is not in this game: it was not chosen before the game")
        if ident in b.buildings:  # `built`
            raise RuleViolation("builder.duplicate", f"{self.who(p)} already has a {name}: a player builds each building at most once")
        if game.buildings_left.get(ident, 0) <= 0:  # `left`
            raise RuleViolation("builder.none-left", f"no {name} is left to build (the game has {rules.copies(building, game.n)})")
        free = rules.model.city_spaces - b.city_used(rules)  # `city_room`
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
        if b.doubloons < price:  # `affordable`, written out
            raise RuleViolation(
                "builder.cannot-afford",
                f"{self.who(p)} has {b.doubloons} {rules.terms.doubloon[1]}; the {name} costs them {price}{self._how(p, building, move)}",
            )
        if payments:
            self._check_payments(p, move)
        if move.university:
            if not self.university_occupied(p, move.pay_colonist):
                names = rules.power_names("build.colonist")
                raise RuleViolation("builder.university", f"{self.who(p)} has no occupied {names}: no {rules.terms.colonist[0]} comes with the building")
            if not self.university_colonist(p, building, move.pay_colonist):  # occupied: the circle is what is missing
                raise RuleViolation("builder.university", f"the {name} has no circle for a {rules.terms.colonist[0]}")
            if not self.colonist_to_come(p, move.pay_colonist):
                raise game.no_colonist("builder.no-colonist", "build.colonist", f"the {name} is built")

    def _how(self, p: int, building: Building, move: Build) -> str:
        """' (cost 5, 1 quarry -1)' after a price: how it was reached; nothing when the price is
        the building's cost and nothing was paid in kind ('costs them 6 (cost 6)' says it twice)."""
        how = self.price_text(p, building)
        if move.payments:
            how = f"{how}, {move.payments} paid in kind"
        return "" if how == f"cost {building.cost}" else f" ({how})"

    def apply(self, p: int, move: AnyMove) -> None:
        assert isinstance(move, Build)
        game, rules = self.game, self.rules
        b = game.boards[p]
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
        if "build.vp" in rules.power_pairs:  # a building that rewards building (`after_build`) is in the ruleset
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
        for what, kind, used in ((t.colonist[0], "colonist", move.pay_colonist is not None), (t.barrel[0], "good", move.pay_good is not None), (t.vp_chip[0], "vp", move.pay_vp)):
            if used and not self.market_takes(market, kind):
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
        if not self.market_price(p, price, move.payments):
            raise RuleViolation(
                "builder.black-market",
                f"the {names} may only be used when it spends all the money: {self.who(p)} has {count(b.doubloons, rules.terms.doubloon)} "
                f"and would pay {rest}{self._how(p, building, move)}",
            )
        return rest

    def _check_payments(self, p: int, move: Build) -> None:
        """Has `p` the colonist, the barrel and the VP chip they pay in kind?"""
        rules = self.rules
        place = move.pay_colonist
        if place is not None:
            if self.market_own(p, place):
                names = rules.power_names("build.black-market")
                raise RuleViolation(
                    "builder.black-market",
                    f"the {names}'s own {rules.terms.colonist[0]} cannot pay for a building: it is the one that lets {self.who(p)} pay in kind; "
                    f"a {rules.terms.colonist[0]} from {rules.terms.san_juan}, a plantation, a quarry or another building can",
                )
            if not self.has_colonist(p, place):
                raise RuleViolation("builder.black-market", f"{self.who(p)} has no {rules.terms.colonist[0]} to pay with on {rules.terms.san_juan if place == SAN_JUAN else 'the ' + self.name_of(place)}")
        if move.pay_good is not None and not self.may_pay_good(p, move.pay_good):
            raise RuleViolation("builder.black-market", f"{self.who(p)} has no {self.name_of(move.pay_good)} to pay with")
        if move.pay_vp and not self.may_pay_vp(p):
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


@lru_cache(maxsize=8192)
def build_move(building: str, price: int, university: bool, pay_colonist: str | None = None, pay_good: str | None = None, pay_vp: bool = False) -> Build:
    """A listed build (moves are immutable: one object for each, however often listed, which
    listing many times a game makes worth it: building one costs more than finding it)."""
    return Build(building=building, price=price, university=university, pay_colonist=pay_colonist, pay_good=pay_good, pay_vp=pay_vp)
