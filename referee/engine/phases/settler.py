"""Settler phase: plantations and quarries onto the islands; the face-up row refilled."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, NoReturn

from referee.diagnostics import Missing, RuleViolation
from referee.engine.awaiting import Awaiting, DrawAwaited, PhaseOver
from referee.engine.phases.base import PASS, TurnPhase, wrong_move
from referee.engine.state import tally
from referee.ground.wording import a, listing
from referee.moves.clauses import AnyMove, Keep, Pass, Settle

if TYPE_CHECKING:
    from referee.engine.game import Game


class Settler(TurnPhase):
    """Each player may take a face-up plantation (the settler or a construction hut: a quarry)."""

    role = "settler"

    def __init__(self, game: Game, chooser: int) -> None:
        super().__init__(game, chooser)
        if self.doubled:  # a library doubles the settler's privilege: a second pick after everyone else's
            self.order = (*self.order, chooser)

    def row(self) -> str:
        """The face-up plantations, for messages."""
        return listing([self.name_of(t) for t in self.game.face_up], "and") if self.game.face_up else "none left"

    def free_spaces(self, p: int) -> int:
        return self.rules.model.island_spaces - self.board(p).island_filled()

    def candidates(self, p: int) -> Iterator[AnyMove]:
        """Pass; every face-up tile and the quarry, with the hacienda's draw of each kind the
        stacks hold, the hospice's colonist and a forest where the player's buildings allow."""
        game, rules = self.game, self.rules
        yield Pass()
        picks: list[str | None] = [None, *dict.fromkeys(game.face_up), rules.quarry.id]
        draws: list[str | None] = [None]
        if self.draws(p):
            draws += [k for k, n in self.stack().items() if n > 0]
        hospice = [False, True] if self.hospice(p) else [False]
        forest = [False, True] if self.forests(p) else [False]
        for draw, tile, with_colonist, as_forest in product(draws, picks, hospice, forest):
            if tile is None and (with_colonist or as_forest or draw is None):
                continue
            yield Settle(extra_tile=draw, tile=tile, hospice=with_colonist, forest=as_forest)

    def turn_moves(self, p: int) -> Iterator[AnyMove]:
        """Pass; then, in the order of `candidates`, each settle `check` accepts, from the same
        predicates: room on the island, the quarry's and the draw's conditions, a clause only
        with a building that gives it (the forest never with a quarry)."""
        rules = self.rules
        quarry = rules.quarry.id
        yield PASS
        picks = [tile for tile in dict.fromkeys(self.game.face_up) if self.face_up(tile)]
        if self.quarry_open(p):
            picks.append(quarry)
        hospice = (False, True) if self.hospice(p) and self.game.colonist_left() else (False,)
        forests = self.forests(p)
        draws: list[str | None] = [None]
        if self.draws(p):
            draws += [kind for kind, n in self.stack().items() if n > 0 and self.may_draw(p, kind)]
        for draw in draws:
            if draw is not None:
                yield settle_move(draw, None, False, False)
            if not self.has_room(p, 1 if draw is None else 2):
                continue
            for tile in picks:
                for with_colonist in hospice:
                    yield settle_move(draw, tile, with_colonist, False)
                    if forests and tile != quarry:
                        yield settle_move(draw, tile, with_colonist, True)

    # --- the rules of a settle, asked by `check` and by `turn_moves` --------------------------

    def has_room(self, p: int, tiles: int) -> bool:
        """Has `p`'s island room for `tiles` more tiles?"""
        return self.free_spaces(p) >= tiles

    def second_pick(self) -> bool:
        """Is this the settler's second pick (a doubled privilege), which is a face-up plantation?"""
        return self.pos >= self.game.n

    def may_take_quarry(self, p: int) -> bool:
        """Is `p` the settler, or the owner of an occupied construction hut?"""
        return p == self.chooser or self.board(p).has(self.rules, "settle.quarry")

    def quarry_open(self, p: int) -> bool:
        """May `p` take a quarry now: not the second pick, allowed to, and one left?"""
        return not self.second_pick() and self.may_take_quarry(p) and self.game.quarries > 0

    def face_up(self, tile: str) -> bool:
        """Is a `tile` plantation in the face-up row?"""
        return tile in self.game.face_up

    def forests(self, p: int) -> bool:
        """May `p` place a tile as a forest (an occupied forest house)?"""
        return self.board(p).has(self.rules, "settle.forest")

    def hospice(self, p: int) -> bool:
        """Does a colonist come with `p`'s tile if they ask (an occupied hospice)?"""
        return self.board(p).has(self.rules, "settle.colonist")

    def draws(self, p: int) -> bool:
        """May `p` draw a face-down tile (an occupied hacienda)?"""
        return self.board(p).has(self.rules, "settle.extra-tile")

    def stack(self) -> Counter[str]:
        """The face-down tiles a draw comes from: the stacks, or the discards once they are empty
        (reshuffled)."""
        game = self.game
        return game.deck if sum(game.deck.values()) else game.discards

    def may_draw(self, p: int, kind: str) -> bool:
        """May `p`, who has a hacienda, draw a face-down `kind`: a plantation, room for it, one left?"""
        return kind != self.rules.quarry.id and self.has_room(p, 1) and self.stack()[kind] > 0

    def check(self, p: int, move: AnyMove) -> None:
        if not isinstance(move, Settle):
            raise wrong_move(self, move)
        rules = self.rules
        tile, quarry = move.tile, rules.quarry.id
        if tile is None and (move.hospice or move.forest):
            self._clause_without_tile(p, move)
        tiles = 1
        if move.extra_tile is not None:
            self._check_draw(p, move.extra_tile)
            tiles = 2
        if tile is None:
            return
        if rules.model.island_spaces - sum(self.game.boards[p].island.values()) < tiles:  # `has_room`, written out
            raise RuleViolation("settler.island-full", f"{self.who(p)}'s {rules.terms.island} is full ({rules.model.island_spaces} spaces): no tile can be placed")
        if tile == quarry:
            if self.second_pick():
                raise RuleViolation(
                    "settler.second-pick",
                    f"the {self.name_of(self.role)}'s second pick (a doubled {rules.terms.privilege}) is a face-up {rules.terms.plantation[0]}: {self.row()}",
                )
            if not self.may_take_quarry(p):
                huts = rules.power_names("settle.quarry")
                raise RuleViolation(
                    "settler.quarry",
                    f"only the {self.name_of(self.role)} ({self.who(self.chooser)}) or the owner of an occupied {huts} may take a "
                    f"{self.name_of(tile)}; {self.who(p)} may take a face-up {rules.terms.plantation[0]}: {self.row()}",
                )
            if self.game.quarries <= 0:
                raise RuleViolation("settler.no-quarry", f"no {self.name_of(tile)} is left; {self.who(p)} may take a face-up {rules.terms.plantation[0]}: {self.row()}")
        elif tile not in self.game.face_up:  # `face_up`, written out
            raise RuleViolation("settler.not-face-up", f"no {self.name_of(tile)} {rules.terms.plantation[0]} is face up; the face-up {rules.terms.plantation[1]} are: {self.row()}")
        if move.forest:
            self.forest_check(p)
            if tile == quarry:
                raise RuleViolation("settler.forest", f"a {self.name_of(tile)} cannot be placed as a forest; only {rules.terms.plantation[1]} can")
        if move.hospice and not self.hospice(p):
            names = rules.power_names("settle.colonist")
            raise RuleViolation("settler.hospice", f"{self.who(p)} has no occupied {names}: no extra {rules.terms.colonist[0]} comes with the tile")
        if move.hospice and not self.game.colonist_left():
            raise self.game.no_colonist("settler.no-colonist", "settle.colonist", f"the {self.name_of(tile)} is taken")

    def apply(self, p: int, move: AnyMove) -> None:
        assert isinstance(move, Settle)
        game, rules, b = self.game, self.rules, self.board(p)
        if move.extra_tile is not None:
            if sum(game.deck.values()) == 0:
                game.deck, game.discards = game.discards, game.deck  # the discards are reshuffled into a new stack
            game.deck[move.extra_tile] -= 1
            b.island[move.extra_tile] = b.island.get(move.extra_tile, 0) + 1
        tile = move.tile
        if tile is None:
            return
        if tile == rules.quarry.id:
            game.quarries -= 1
        else:
            game.face_up.remove(tile)
        placed = rules.forest_id if move.forest else tile
        b.island[placed] = b.island.get(placed, 0) + 1
        if move.hospice and game.take_colonist():
            if move.forest:
                b.san_juan += 1  # a forest has no circle: the colonist waits in San Juan
            else:
                b.manned[placed] = b.manned.get(placed, 0) + 1

    def forest_check(self, p: int) -> None:
        """Forests need an occupied forest house (expansion); refused in rulesets without one."""
        rules = self.rules
        if not self.forests(p):
            raise RuleViolation("settler.forest", f"{self.who(p)} has no occupied building that turns {rules.terms.plantation[1]} into forests")

    def _clause_without_tile(self, p: int, move: Settle) -> NoReturn:
        """A hospice colonist or a forest with no tile taken from the row (the hacienda's
        face-down tile is not one: its clauses are the picked tile's)."""
        rules = self.rules
        took = f"took only the {rules.power_names('settle.extra-tile')}'s face-down {rules.terms.plantation[0]}" if move.extra_tile is not None else "took no tile"
        if move.hospice:
            names = rules.power_names("settle.colonist")
            raise RuleViolation(
                "settler.hospice",
                f"the {names}'s {rules.terms.colonist[0]} comes with a face-up {rules.terms.plantation[0]} or {a(self.name_of(rules.quarry.id))} taken; {self.who(p)} {took}",
            )
        raise RuleViolation("settler.forest", f"a forest is a face-up {rules.terms.plantation[0]} placed face down; {self.who(p)} {took}")

    def _check_draw(self, p: int, kind: str) -> None:
        """May `p` draw a face-down `kind` with a hacienda (`draws`, `may_draw`)? (Applied in `apply`.)"""
        rules = self.rules
        if kind == rules.quarry.id:
            names = rules.power_names("settle.extra-tile")
            raise RuleViolation("settler.hacienda", f"the {names} draws a face-down {rules.terms.plantation[0]}, never {a(self.name_of(kind))}")
        if not self.draws(p):
            names = rules.power_names("settle.extra-tile")
            raise RuleViolation("settler.hacienda", f"{self.who(p)} has no occupied {names}: no face-down {rules.terms.plantation[0]} may be drawn")
        if not self.has_room(p, 1):
            raise RuleViolation("settler.island-full", f"{self.who(p)}'s {rules.terms.island} is full: no face-down {rules.terms.plantation[0]} can be placed")
        stack = self.stack()
        if not self.may_draw(p, kind):  # the one condition left: none of the kind in the stack
            held = ", ".join(f"{c} {self.name_of(k)}" for k, c in stack.items() if c > 0) or "nothing"
            raise RuleViolation("settler.draw", f"no {self.name_of(kind)} {rules.terms.plantation[0]} is left face down (the {rules.terms.stacks} hold{'s' if rules.terms.stacks == 'bag' else ''} {held})")

    def awaiting(self, reveal: list[str] | None, keep: Mapping[int, Keep] | None) -> Awaiting:
        """The turns, then the new face-up row, drawn by the table (none to draw when the stacks
        and discards are empty or the game ends with this phase); once it is written, the end."""
        if reveal is not None:
            return PhaseOver(self)
        awaited = super().awaiting(reveal, keep)
        if not isinstance(awaited, PhaseOver):
            return awaited
        tiles = self.tiles_to_reveal()
        return DrawAwaited(self, self.chooser, tiles) if tiles else awaited

    def tiles_to_reveal(self) -> int:
        """How many tiles the new face-up row at the end of the phase holds (0: none is drawn,
        the stacks and discards being empty or the game ending with this phase)."""
        game = self.game
        available = sum(game.deck.values()) + sum(game.discards.values()) + len(game.face_up)  # the row's leftovers are discarded first
        if available == 0 or game.ends_with_this_phase():
            return 0
        return min(game.setup.face_up, available)

    def end(self, reveal: list[str] | None, keep: dict[int, Keep] | None) -> None:
        game = self.game
        discards = tally(game.discards)  # a copy
        for tile in game.face_up:  # the row's leftovers are discarded
            discards[tile] = discards.get(tile, 0) + 1  # not `+= 1`: Counter's `__missing__` is a call
        if reveal is None:
            tiles = self.tiles_to_reveal()
            if tiles == 0:
                game.discards, game.face_up = discards, []
                return
            raise Missing(
                "settler.reveal-missing",
                f"{self.title} needs a 'reveal' key: the new face-up row of {tiles} {self.rules.terms.plantation[1]}",
                at_phase=True,
            )
        game.reveal(reveal, discards=discards)

    def waiting(self) -> str:
        if self.pos < len(self.order):
            return f"{self.title}: {self.who(self.order[self.pos])} may take {a(self.rules.terms.plantation[0])} ({self.row()})"
        return f"{self.title}: the new face-up row ('reveal') is awaited"


@lru_cache(maxsize=4096)
def settle_move(extra_tile: str | None, tile: str | None, hospice: bool, forest: bool) -> Settle:
    """A listed settle (moves are immutable: one object for each, however often listed, which
    listing many times a game makes worth it: building one costs more than finding it)."""
    return Settle(extra_tile=extra_tile, tile=tile, hospice=hospice, forest=forest)
