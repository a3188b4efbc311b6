"""Craftsman phase: production for everyone (shortages served from the craftsman on), the
factory's doubloons, and the craftsman's privilege barrel."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import product

from referee.diagnostics import Missing, RuleViolation
from referee.engine.awaiting import Awaiting, MoveAwaited, PhaseOver
from referee.engine.phases.base import PASS, Phase, wrong_move
from referee.ground.wording import count, listing
from referee.moves.clauses import AnyMove, Extra, Keep, Pass


class Craftsman(Phase):
    """Production is automatic; the only decision is the craftsman's extra barrel."""

    role = "craftsman"

    def start(self) -> None:
        game, rules = self.game, self.rules
        supply, boards, good_of, producers = game.goods_supply, game.boards, rules.good, rules.producers
        powers = rules.power_pairs
        after = "craft.extra-barrel" in powers or "craft.most-kind" in powers  # `after_production` has something to do
        bonus = "craft.kinds-bonus" in powers
        self.produced: dict[int, dict[str, int]] = {}
        for p in self.order:
            b = boards[p]
            manned, buildings = b.manned, b.buildings
            made: dict[str, int] = {}
            for good in rules.goods:  # barrels made: min(occupied plantations, occupied circles where a building is needed, the supply)
                got = manned.get(good, 0)
                if not got:
                    continue
                if good_of[good].building_needed:
                    circles = 0
                    for building in producers[good]:
                        circles += buildings.get(building, 0)
                    if circles < got:  # not min(): a call
                        got = circles
                left = supply[good]
                if left < got:
                    got = left
                if got > 0:
                    supply[good] -= got
                    b.goods[good] = b.goods.get(good, 0) + got
                    made[good] = got
            self.produced[p] = made
            if after:
                self.after_production(p, made)
            if bonus:
                for factory in b.powers(rules, "craft.kinds-bonus"):
                    b.doubloons += factory.doubloons.get(len(made), 0)
        self.extra_done = False

    def copy_state(self) -> None:
        self.produced = {p: dict(m) for p, m in self.produced.items()}

    def after_production(self, p: int, made: dict[str, int]) -> None:
        """Powers that add to production: an extra barrel of a kind made in a large production
        building (aqueduct); doubloons for the most barrels of one kind (specialty factory)."""
        game, rules, b = self.game, self.rules, self.board(p)
        for aqueduct in b.powers(rules, "craft.extra-barrel"):
            for good in aqueduct.goods:
                in_large = any(
                    rules.building[x].produces == good and rules.building[x].kind == aqueduct.building_kind and n > 0 for x, n in b.buildings.items()
                )
                if made.get(good, 0) > 0 and in_large and game.goods_supply[good] > 0:
                    game.goods_supply[good] -= 1
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
        return [k for k in self.produced[self.chooser] if self.supplied(k, ())]

    # --- the rules of the extra barrels, asked by `_check_take` and by `moves_for` -----------

    def extra_open(self) -> bool:
        """Is the craftsman's extra still to be taken (once a phase)?"""
        return not self.extra_done

    def produced_kind(self, p: int, good: str) -> bool:
        """Did `p` produce `good` this phase (the extra barrel is of such a kind)?"""
        return good in self.produced[p]

    def supplied(self, good: str, before: tuple[str, ...]) -> bool:
        """Is a barrel of `good` left in the supply once the extra barrels `before` it are taken?"""
        return self.game.goods_supply[good] - before.count(good) > 0

    def takes(self, goods: tuple[str, ...]) -> bool:
        """Is each of `goods`, taken in turn, left in the supply (`supplied`)?"""
        return all(self.supplied(good, goods[:i]) for i, good in enumerate(goods))

    def play(self, p: int, move: AnyMove) -> None:
        extra = self.check_play(p, move)
        if extra is not None:
            self._take(p, extra)

    def candidates(self, p: int) -> Iterator[AnyMove]:
        """Pass; for the craftsman, every choice of extra barrels (none, each mix up to the
        privilege, and fewer than allowed). The craftsman's decline is `extra none`, listed once
        (their `pass`, the same move, is accepted when written)."""
        if p != self.chooser:
            yield Pass()
            return
        yield Extra(goods=())
        allowed = self.extras_allowed()
        for combo in product(self.choices(), repeat=allowed):
            if list(combo) == sorted(combo):
                yield Extra(goods=combo)
        if allowed > 1:
            for kind in self.choices():
                yield Extra(goods=(kind,))

    def moves_for(self, p: int) -> Iterator[AnyMove]:
        """In the order of `candidates`, what `check_play` accepts: anyone else's pass; the
        craftsman's `extra none` and each choice of extra barrels while the extra is open
        (`extra_open`), of kinds produced and left in the supply (`choices`, `takes`)."""
        if p != self.chooser:
            yield PASS
            return
        if not self.extra_open():
            return
        yield Extra(goods=())  # the decline, once: not also as `pass` (docs/rule-decisions.md)
        allowed = self.extras_allowed()
        choices = self.choices()
        for combo in product(choices, repeat=allowed):
            if list(combo) == sorted(combo) and self.takes(combo):
                yield Extra(goods=combo)
        if allowed > 1:
            for kind in choices:
                yield Extra(goods=(kind,))

    def awaiting(self, reveal: list[str] | None, keep: Mapping[int, Keep] | None) -> Awaiting:
        """The craftsman's extra barrels while they are open (production is done at the start:
        everyone else's pass is theirs to leave out); then the end."""
        return MoveAwaited(self, self.chooser) if not self.extra_done and self.choices() else PhaseOver(self)

    def check_play(self, p: int, move: AnyMove) -> Extra | None:
        """The extra barrels `move` takes (None: a pass by another player), checked."""
        if isinstance(move, Pass):
            if p != self.chooser:
                return None
            move = Extra(goods=())
        if not isinstance(move, Extra):
            raise wrong_move(self, move)
        if p != self.chooser:
            raise RuleViolation("craftsman.not-craftsman", f"only the {self.name_of(self.role)} ({self.who(self.chooser)}) takes an extra {self.rules.terms.barrel[0]}; {self.who(p)} produces without writing a move")
        self._check_take(p, move)
        return move

    def _check_take(self, p: int, move: Extra) -> None:
        if not self.extra_open():
            raise RuleViolation("craftsman.extra-twice", f"{self.who(p)} has already taken the craftsman's extra")
        allowed = self.extras_allowed()
        if len(move.goods) > allowed:
            raise RuleViolation("craftsman.extra-count", f"the {self.name_of(self.role)} takes at most {count(allowed, self.rules.terms.barrel)} extra, not {len(move.goods)}")
        for i, good in enumerate(move.goods):
            if not self.produced_kind(p, good):
                made = listing([self.name_of(k) for k in self.produced[p]], "or")
                raise RuleViolation(
                    "craftsman.extra-kind",
                    f"the extra {self.rules.terms.barrel[0]} must be of a kind {self.who(p)} produced this phase ({made if self.produced[p] else 'none: no extra ' + self.rules.terms.barrel[0]}), not {self.name_of(good)}",
                )
            before = move.goods[:i]
            if not self.supplied(good, before):
                left = [k for k in self.produced[self.chooser] if self.supplied(k, before)]  # the choices once the barrels before are taken
                raise RuleViolation("craftsman.extra-supply", f"no {self.name_of(good)} is left in the supply; {self.who(p)} may take {listing([self.name_of(k) for k in left], 'or') if left else 'nothing'}")

    def _take(self, p: int, move: Extra) -> None:
        """The extra barrels (checked by `_check_take`)."""
        board = self.board(p)
        for good in move.goods:
            self.game.goods_supply[good] -= 1
            board.goods[good] = board.goods.get(good, 0) + 1
        self.extra_done = True

    def finish(self, reveal: list[str] | None = None, keep: dict[int, Keep] | None = None) -> None:
        if self.extra_done:
            return
        choices = self.choices()
        if len(choices) > 1:
            raise Missing(
                "craftsman.extra-missing",
                f"{self.who(self.chooser)} must choose the {self.name_of(self.role)}'s extra {self.rules.terms.barrel[0]}: "
                f"{listing([self.name_of(k) for k in choices], 'or')} ('extra <good>' or 'extra none')",
            )
        if choices:  # one kind produced: the extra barrels are of it, as many as the supply has
            kind = choices[0]
            extra = Extra(goods=(kind,) * min(self.extras_allowed(), self.game.goods_supply[kind]))
            self._check_take(self.chooser, extra)
            self._take(self.chooser, extra)
        self.extra_done = True

    def waiting(self) -> str:
        if not self.extra_done and self.choices():
            return f"{self.title}: {self.who(self.chooser)} chooses the extra {self.rules.terms.barrel[0]} ({listing([self.name_of(k) for k in self.choices()], 'or')})"
        return f"{self.title}: production is done"
