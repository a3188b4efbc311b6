"""Trader phase: one barrel each to the trading house, distinct kinds unless an office."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from referee.diagnostics import RuleViolation
from referee.engine.phases.base import PASS, TurnPhase, wrong_move
from referee.ground.wording import count, listing
from referee.moves.clauses import AnyMove, Keep, Pass, Sell

if TYPE_CHECKING:
    from referee.rulesets.model import TradeBonus


class Trader(TurnPhase):
    """Each player may sell one barrel while the trading house has room."""

    role = "trader"
    closes = True  # a full trading house

    def spaces(self) -> int:
        return self.rules.model.trading_house_spaces

    def closed(self) -> bool:
        return len(self.game.trading_house) >= self.rules.model.trading_house_spaces  # `spaces`: asked at every move

    def closed_reason(self) -> str:
        return f"the {self.rules.terms.trading_house} is full ({count(self.spaces(), self.rules.terms.barrel)}): nobody else sells in {self.title}"

    def open_when_closed(self, p: int, move: AnyMove) -> bool:
        return isinstance(move, Sell) and move.own_post

    def moves_when_closed(self, p: int) -> bool:
        b = self.board(p)
        return b.barrels() > 0 and b.has(self.rules, "trade.own-post")

    def income(self, p: int, good: str, markets: bool = True) -> tuple[int, str]:
        """What selling `good` brings player `p`: price, privilege, market bonuses."""
        rules, b = self.rules, self.board(p)
        parts = [f"price {rules.good[good].price}"]
        if p == self.chooser:
            parts.append(f"{self.name_of('trader')} +{self.privilege()}")
        for market in b.active(rules, "trade.bonus") if markets else ():
            parts.append(f"{market.name} +{cast('TradeBonus', market.effect).doubloons}")
        return self._earned(p, good, markets), ", ".join(parts)

    def _earned(self, p: int, good: str, markets: bool) -> int:
        """The doubloons of `income`, without its words (a sale needs only the number)."""
        total = self.rules.good[good].price
        if p == self.chooser:
            total += self.privilege()
        if markets:
            for bonus in self.board(p).powers(self.rules, "trade.bonus"):
                total += bonus.doubloons
        return total

    def sellable(self, p: int) -> list[str]:
        """Kinds player `p` may sell now."""
        if self.closed():
            return []
        b = self.board(p)
        return [k for k, n in b.goods.items() if n > 0 and self.kind_open(p, k)]

    def kind_open(self, p: int, good: str) -> bool:
        """May `p` sell `good` to the trading house: a kind it does not hold yet, or any kind
        with an occupied office?"""
        return good not in self.game.trading_house or self.board(p).has(self.rules, "trade.any-kind")

    def holds(self, p: int, good: str) -> bool:
        """Has `p` a barrel of `good` to sell?"""
        return self.board(p).goods.get(good, 0) > 0

    def candidates(self, p: int) -> Iterator[AnyMove]:
        """Pass; a sale of each kind held (and to the player's own trading post, if occupied)."""
        yield Pass()
        posts = self.board(p).powers(self.rules, "trade.own-post")
        for good, n in self.board(p).goods.items():
            if n > 0:
                yield Sell(good=good, income=self._earned(p, good, True))  # the income written, as a build's price
                if posts:
                    yield Sell(good=good, income=self._earned(p, good, posts[0].markets), own_post=True)

    def turn_moves(self, p: int) -> Iterator[AnyMove]:
        """Pass; then, in the order of `candidates`, each sale `check` accepts: a barrel held
        (`holds`) of a kind the house takes (`kind_open`), or to the player's own post."""
        yield PASS
        posts = self.board(p).powers(self.rules, "trade.own-post")
        for good in self.board(p).goods:
            if self.holds(p, good):
                if self.kind_open(p, good):
                    yield sell_move(good, False, self._earned(p, good, True))
                if posts:
                    yield sell_move(good, True, self._earned(p, good, posts[0].markets))

    def check(self, p: int, move: AnyMove) -> None:
        if not isinstance(move, Sell):
            raise wrong_move(self, move)
        rules = self.rules
        good = move.good
        if move.own_post:
            self._check_own_post(p, move)
            return
        if not self.holds(p, good):
            options = self.sellable(p)
            raise RuleViolation(
                "trader.no-barrel",
                f"{self.who(p)} has no {self.name_of(good)} to sell; they may sell {listing([self.name_of(k) for k in options], 'or') if options else 'nothing'}",
            )
        if not self.kind_open(p, good):
            options = self.sellable(p)
            offices = rules.power_names("trade.any-kind")
            raise RuleViolation(
                "trader.same-kind",
                f"the {rules.terms.trading_house} already holds {self.name_of(good)} and {self.who(p)} has no occupied {offices}; "
                f"they may sell {listing([self.name_of(k) for k in options], 'or') if options else 'nothing'}",
            )
        if move.income is not None:
            income, how = self.income(p, good)
            if move.income != income:
                raise RuleViolation("trader.income", f"{self.who(p)} receives {income} for {self.name_of(good)} ({how}), not {move.income}")

    def _check_own_post(self, p: int, move: Sell) -> None:
        """A sale to the player's own trading post: any kind, even with the house full."""
        rules, b = self.rules, self.board(p)
        posts = b.powers(rules, "trade.own-post")
        names = rules.power_names("trade.own-post")
        if not posts:
            raise RuleViolation("trader.trading-post", f"{self.who(p)} has no occupied {names}")
        if not self.holds(p, move.good):
            raise RuleViolation("trader.no-barrel", f"{self.who(p)} has no {self.name_of(move.good)} to sell")
        if move.income is not None:
            income, how = self.income(p, move.good, markets=posts[0].markets)
            if move.income != income:
                raise RuleViolation("trader.income", f"{self.who(p)} receives {income} for {self.name_of(move.good)} at the {names} ({how}), not {move.income}")

    def apply(self, p: int, move: AnyMove) -> None:
        """The sale: to the trading house, or to the player's own trading post, where the
        barrel returns to the supply and markets count only if the ruleset says so."""
        assert isinstance(move, Sell)
        game, b = self.game, self.board(p)
        if move.own_post:
            income = self._earned(p, move.good, b.powers(self.rules, "trade.own-post")[0].markets)
            game.goods_supply[move.good] += 1
        else:
            income = self._earned(p, move.good, True)
            game.trading_house.append(move.good)
        b.goods[move.good] -= 1
        b.doubloons += income

    def end(self, reveal: list[str] | None, keep: dict[int, Keep] | None) -> None:
        game = self.game
        if len(game.trading_house) >= self.spaces():  # emptied only when full
            for good in game.trading_house:
                game.goods_supply[good] += 1
            game.trading_house = []

    def waiting(self) -> str:
        if self.pos < len(self.order) and not self.closed():
            p = self.order[self.pos]
            options = self.sellable(p)
            return f"{self.title}: {self.who(p)} may sell {listing([self.name_of(k) for k in options], 'or') if options else 'nothing'}"
        return f"{self.title}: every turn has been taken"


@lru_cache(maxsize=256)
def sell_move(good: str, own_post: bool, income: int) -> Sell:
    """A listed sale, with its income written (moves are immutable: one object for each, however
    often listed)."""
    return Sell(good=good, income=income, own_post=own_post)
