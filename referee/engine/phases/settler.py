"""Settler phase: plantations and quarries onto the islands; the face-up row refilled."""

from __future__ import annotations

from typing import NoReturn

from referee.diagnostics import Missing, RuleViolation
from referee.engine.phases.base import TurnPhase, wrong_move
from referee.moves import AnyMove, Keep, Settle
from referee.text import a, listing


class Settler(TurnPhase):
    """Each player may take a face-up plantation (the settler or a construction hut: a quarry)."""

    role = "settler"

    def extra_turns(self) -> list[int]:
        """A library doubles the settler's privilege: a second pick after everyone else's."""
        return [self.chooser] if self.doubled else []

    def row(self) -> str:
        """The face-up plantations, for messages."""
        return listing([self.nm(t) for t in self.g.face_up], "and") if self.g.face_up else "none left"

    def free_spaces(self, p: int) -> int:
        return self.rules.model.island_spaces - self.board(p).island_filled()

    def act(self, p: int, move: AnyMove) -> None:
        if not isinstance(move, Settle):
            raise wrong_move(self, move)
        g, rules, b = self.g, self.rules, self.board(p)
        if move.tile is None and (move.hospice or move.forest):
            self._clause_without_tile(p, move)
        if move.extra_tile is not None:
            self._draw_extra(p, move.extra_tile)
        if move.tile is None:
            return
        tile = move.tile
        if self.free_spaces(p) < 1:
            raise RuleViolation("settler.island-full", f"{self.who(p)}'s {rules.terms.island} is full ({rules.model.island_spaces} spaces): no tile can be placed")
        if tile == rules.quarry.id and self.pos >= self.g.n:
            raise RuleViolation(
                "settler.second-pick",
                f"the {self.nm(self.role)}'s second pick (a doubled {rules.terms.privilege}) is a face-up {rules.terms.plantation[0]}: {self.row()}",
            )
        if tile == rules.quarry.id:
            may = p == self.chooser or b.has(rules, "settle.quarry")
            if not may:
                huts = rules.power_names("settle.quarry")
                raise RuleViolation(
                    "settler.quarry",
                    f"only the {self.nm(self.role)} ({self.who(self.chooser)}) or the owner of an occupied {huts} may take a "
                    f"{self.nm(tile)}; {self.who(p)} may take a face-up {rules.terms.plantation[0]}: {self.row()}",
                )
            if g.quarries <= 0:
                raise RuleViolation("settler.no-quarry", f"no {self.nm(tile)} is left; {self.who(p)} may take a face-up {rules.terms.plantation[0]}: {self.row()}")
            g.quarries -= 1
        else:
            if tile not in g.face_up:
                raise RuleViolation("settler.not-face-up", f"no {self.nm(tile)} {rules.terms.plantation[0]} is face up; the face-up {rules.terms.plantation[1]} are: {self.row()}")
            g.face_up.remove(tile)
        placed = "forest" if move.forest else tile
        if move.forest:
            self.forest_check(p)
            if tile == rules.quarry.id:
                raise RuleViolation("settler.forest", f"a {self.nm(tile)} cannot be placed as a forest; only {rules.terms.plantation[1]} can")
        b.island[placed] = b.island.get(placed, 0) + 1
        if move.hospice:
            if not b.has(rules, "settle.colonist"):
                names = rules.power_names("settle.colonist")
                raise RuleViolation("settler.hospice", f"{self.who(p)} has no occupied {names}: no extra {rules.terms.colonist[0]} comes with the tile")
            if g.take_colonist():
                if move.forest:
                    b.san_juan += 1  # a forest has no circle: the colonist waits in San Juan
                else:
                    b.manned[placed] = b.manned.get(placed, 0) + 1

    def forest_check(self, p: int) -> None:
        """Forests need an occupied forest house (expansion); refused in rulesets without one."""
        rules = self.rules
        if not self.board(p).has(rules, "settle.forest"):
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
                f"the {names}'s {rules.terms.colonist[0]} comes with a face-up {rules.terms.plantation[0]} or {a(self.nm(rules.quarry.id))} taken; {self.who(p)} {took}",
            )
        raise RuleViolation("settler.forest", f"a forest is a face-up {rules.terms.plantation[0]} placed face down; {self.who(p)} {took}")

    def _draw_extra(self, p: int, kind: str) -> None:
        g, rules, b = self.g, self.rules, self.board(p)
        if kind == rules.quarry.id:
            names = rules.power_names("settle.extra-tile")
            raise RuleViolation("settler.hacienda", f"the {names} draws a face-down {rules.terms.plantation[0]}, never {a(self.nm(kind))}")
        if not b.has(rules, "settle.extra-tile"):
            names = rules.power_names("settle.extra-tile")
            raise RuleViolation("settler.hacienda", f"{self.who(p)} has no occupied {names}: no face-down {rules.terms.plantation[0]} may be drawn")
        if self.free_spaces(p) < 1:
            raise RuleViolation("settler.island-full", f"{self.who(p)}'s {rules.terms.island} is full: no face-down {rules.terms.plantation[0]} can be placed")
        if sum(g.deck.values()) == 0:
            g.deck, g.discards = g.discards, g.deck  # the discards are reshuffled into a new stack
        if g.deck[kind] <= 0:
            held = ", ".join(f"{c} {self.nm(k)}" for k, c in g.deck.items() if c > 0) or "nothing"
            raise RuleViolation("settler.draw", f"no {self.nm(kind)} {rules.terms.plantation[0]} is left face down (the {rules.terms.stacks} hold{'s' if rules.terms.stacks == 'bag' else ''} {held})")
        g.deck[kind] -= 1
        b.island[kind] = b.island.get(kind, 0) + 1

    def end(self, reveal: list[str] | None, keep: dict[int, Keep] | None) -> None:
        g = self.g
        for tile in g.face_up:
            g.discards[tile] += 1
        g.face_up = []
        available = sum(g.deck.values()) + sum(g.discards.values())
        if reveal is None:
            if available == 0 or g.ends_with_this_phase():
                return
            raise Missing(
                "settler.reveal-missing",
                f"{self.title} needs a 'reveal' key: the new face-up row of {min(self.g.setup.face_up, available)} {self.rules.terms.plantation[1]}",
                at_phase=True,
            )
        g.reveal(reveal)

    def waiting(self) -> str:
        if self.pos < len(self.order):
            return f"{self.title}: {self.who(self.order[self.pos])} may take {a(self.rules.terms.plantation[0])} ({self.row()})"
        return f"{self.title}: the new face-up row ('reveal') is awaited"
