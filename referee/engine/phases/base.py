"""What every phase shares: the chooser, turn order clockwise from the chooser."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from referee.diagnostics import RuleViolation
from referee.moves import AnyMove, Keep, Pass

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.engine.state import Board


class Phase:
    """A role's phase: started by the chooser, then played move by move, then finished."""

    role = ""

    def __init__(self, game: Game, chooser: int) -> None:
        self.g = game
        self.rules = game.rules
        self.chooser = chooser
        self.doubled = game.privilege_doubled(chooser)  # the chooser's privilege counts twice (a library)
        self.order = [(chooser + i) % game.n for i in range(game.n)]

    def clone(self, game: Game) -> Phase:
        """A copy of this phase bound to `game` (a clone of its game)."""
        phase = copy.copy(self)
        phase.g = game
        phase.copy_state()
        return phase

    def copy_state(self) -> None:
        """Replace mutable phase state by copies (phases with sets or dicts override this)."""

    def privilege(self) -> int:
        """The chooser's privilege in this phase, doubled by a library (`doubled`)."""
        return self.rules.role[self.role].privilege * (2 if self.doubled else 1)

    def board(self, p: int) -> Board:
        return self.g.boards[p]

    def who(self, p: int) -> str:
        return self.g.who(p)

    def nm(self, ident: str) -> str:
        return self.g.nm(ident)

    @property
    def title(self) -> str:
        """'the builder phase' in this ruleset's words."""
        return f"the {self.nm(self.role)} phase"

    def start(self) -> None:
        """The chooser's privilege and anything that happens before the first move."""

    def buildings_changed(self, p: int) -> None:
        """Player `p`'s occupied buildings changed during the phase (a guest moved)."""

    def lone_guests_allowed(self) -> bool:
        """Is a guest move alone a move of its own here, outside the turn order? (Elsewhere it
        is the player's turn, with nothing else done.)"""
        return False

    def play(self, p: int, move: AnyMove) -> None:
        """One move from the log."""
        raise NotImplementedError

    def finish(self, reveal: list[str] | None = None, keep: dict[int, Keep] | None = None) -> None:
        """Remaining turns and the phase's closing duties; `Missing` if the log must say more."""

    def waiting(self) -> str:
        """Whose decision the game waits for, in a sentence."""
        return f"{self.title} is under way"


class TurnPhase(Phase):
    """One turn each, clockwise from the chooser; a player left out of `moves` passes."""

    def __init__(self, game: Game, chooser: int) -> None:
        super().__init__(game, chooser)
        self.pos = 0  # index in `order` of the player whose turn it is
        self.order = self.order + self.extra_turns()
        self.passed_by: dict[int, int] = {}  # a player left out, passed by the later player's move (replaced, never changed: clones share it)

    def extra_turns(self) -> list[int]:
        """Turns after everyone's (a library's second settler pick)."""
        return []

    def play(self, p: int, move: AnyMove) -> None:
        idx = next((i for i in range(self.pos, len(self.order)) if self.order[i] == p), -1)
        if idx < 0 or (self.closed() and not isinstance(move, Pass) and not self.open_when_closed(p, move)):
            raise self._late(p)
        while self.pos < idx:
            self.skip(self.order[self.pos])
            self.passed_by = {**self.passed_by, self.order[self.pos]: p}
            self.pos += 1
        if isinstance(move, Pass):
            self.skip(p)
        else:
            self.act(p, move)
        self.pos += 1

    def pass_until(self, index: int) -> None:
        """The players before `order[index]` pass (as when they are left out of the moves);
        RuleViolation if one of them may not."""
        while self.pos < index:
            self.skip(self.order[self.pos])
            self.pos += 1

    def _late(self, p: int) -> RuleViolation:
        order = ", ".join(self.who(q) for q in self.order)
        if self.closed():
            return RuleViolation("turn.not-your-turn", f"{self.who(p)} cannot move: {self.closed_reason()}")
        by = self.passed_by.get(p)
        if by is not None:  # written after a later player: the order of the lines, not the rules, is wrong
            message = (
                f"{self.who(p)}'s move is written after {self.who(by)}'s, but {self.who(p)}'s turn comes first (in {self.title} each player moves once, "
                f"clockwise from {self.who(self.chooser)}: {order}); a player left out of the moves passes, so {self.who(by)}'s move passed "
                f"{self.who(p)}: write {self.who(p)}'s move before {self.who(by)}'s"
            )
            return RuleViolation("turn.not-your-turn", message, explained=True)
        return RuleViolation("turn.not-your-turn", self._late_sentence(p))

    def _late_sentence(self, p: int) -> str:
        order = ", ".join(self.who(q) for q in self.order)
        if self.pos >= len(self.order):
            return f"{self.who(p)} has had their turn: in {self.title} each player moves once, clockwise from {self.who(self.chooser)} ({order}), and every turn has been taken"
        return (
            f"{self.who(p)} has had their turn: in {self.title} each player moves once, clockwise from "
            f"{self.who(self.chooser)} ({order}); next is {self.who(self.order[self.pos])}"
        )

    def closed(self) -> bool:
        """True when nobody may move any more (a full trading house)."""
        return False

    def open_when_closed(self, p: int, move: AnyMove) -> bool:
        """A move still allowed once the phase is closed (a sale to one's own trading post)."""
        return False

    def moves_when_closed(self, p: int) -> bool:
        """May player `p` still make such a move (`open_when_closed`) now that the phase is closed?"""
        return False

    def closed_reason(self) -> str:
        return f"{self.title} is over"

    def skip(self, p: int) -> None:
        """Player `p` passes (left out of `moves`, or `pass`)."""

    def act(self, p: int, move: AnyMove) -> None:
        raise NotImplementedError

    def finish(self, reveal: list[str] | None = None, keep: dict[int, Keep] | None = None) -> None:
        while self.pos < len(self.order):
            if not self.closed():
                self.skip(self.order[self.pos])
            self.pos += 1
        self.pos = len(self.order)
        self.end(reveal=reveal, keep=keep)

    def end(self, reveal: list[str] | None, keep: dict[int, Keep] | None) -> None:
        """The chooser's closing duty."""

    def waiting(self) -> str:
        if self.pos < len(self.order):
            return f"{self.title}: {self.who(self.order[self.pos])}'s turn"
        return f"{self.title}: every turn has been taken"


def wrong_move(phase: Phase, move: AnyMove) -> RuleViolation:
    """A move of another phase's kind (the parser prevents it; kept as a clear message)."""
    return RuleViolation("move.wrong-phase", f"'{move.text(phase.rules)}' is not a move of {phase.title}")
