"""Prospector: the chooser takes doubloons; nobody else acts."""

from __future__ import annotations

from collections.abc import Iterator

from referee.diagnostics import RuleViolation
from referee.engine.phases.base import PASS, Phase
from referee.moves.clauses import AnyMove, Pass


class Prospector(Phase):
    """Only the privilege: doubloons from the bank."""

    role = "prospector"

    def start(self) -> None:
        self.board(self.chooser).doubloons += self.privilege()

    def play(self, p: int, move: AnyMove) -> None:
        self.check_play(p, move)

    def check_play(self, p: int, move: AnyMove) -> None:
        if not isinstance(move, Pass):
            raise RuleViolation("prospector.no-moves", f"nobody acts in {self.title}; only 'pass' may be written")

    def candidates(self, p: int) -> Iterator[AnyMove]:
        yield Pass()

    def moves_for(self, p: int) -> Iterator[AnyMove]:
        """A pass: the one move `check_play` accepts, from anyone."""
        yield PASS

    def waiting(self) -> str:
        return f"{self.title} is done"
