"""What a game waits for: the engine's one answer to "who decides what now" (`Game.awaiting`).

Each phase answers for itself (`Phase.awaiting`); the game answers the role choice between
phases. The answer is one of four decisions, or the phase's end:

- `RoleAwaited`: the chooser takes a role card (`roles`, each with the doubloons on it when
  the cards of a role differ).
- `MoveAwaited`: a move in the phase under way. `players` are those who may make the next move,
  in turn order (a log may skip to a later one: the players between pass); `player`, the first,
  is the one whose turn it is. `moves(p)` lists a player's legal moves, `count(p)` counts them
  (a mayor's arrangements may number a hundred thousand: counted, not listed).
  `ArrangementAwaited` is a mayor's arrangement: also the colonists to place and how many the
  mayor may decline.
- `KeepAwaited`: once nobody can load in a captain phase, a player holding barrels chooses what
  stays on their board (`keeps`: every storage the rules accept, the most barrels first).
- `DrawAwaited`: what only the table knows: a settler phase's new face-up row of `tiles` tiles.
- `PhaseOver`: nobody has a decision left in the phase: `Game.finish_phase` ends it (its closing
  duties are forced, or written).

An answer is about the game as it stands: its lists are read from the game when asked, so ask
again after a change. `Game.awaiting` is None once the game is over.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from referee.moves.clauses import AnyMove, Keep

if TYPE_CHECKING:
    from referee.engine.phases.base import Phase
    from referee.engine.phases.captain import Captain


@dataclass(frozen=True, slots=True)
class RoleAwaited:
    """The chooser takes a role: `roles` are the cards open, (role, doubloons on the card where
    the free cards of a role carry different sums, else None), in the order of the table."""

    player: int
    roles: tuple[tuple[str, int | None], ...]
    kind: ClassVar[str] = "role"

    @property
    def role_ids(self) -> tuple[str, ...]:
        """The roles open, each once."""
        return tuple(dict.fromkeys(role for role, _ in self.roles))


@dataclass(frozen=True, slots=True)
class MoveAwaited:
    """A move of the phase under way: `players` may make it, in turn order (the first, `player`,
    is the one whose turn it is; a later one's move passes those before them)."""

    phase: Phase
    players: tuple[int, ...]
    listed: tuple[tuple[int, AnyMove], ...] | None = None  # every move of `players`, where the phase listed them to find `players` (a captain's)
    kind: ClassVar[str] = "move"

    @property
    def player(self) -> int:
        """The player whose turn it is."""
        return self.players[0]

    def moves(self, p: int | None = None) -> Iterator[AnyMove]:
        """The legal moves of `p` (by default `player`), one by one, in log notation order."""
        player = self.player if p is None else p
        if self.listed is not None:
            return (move for q, move in self.listed if q == player)
        return self.phase.moves_for(player)

    def count(self, p: int | None = None) -> int:
        """How many legal moves `p` (by default `player`) has, counted without keeping them."""
        return self.phase.count_moves(self.player if p is None else p)

    def every_move(self) -> Iterator[tuple[int, AnyMove]]:
        """Every legal move of every player in `players`, (player, move), in turn order."""
        if self.listed is not None:
            return iter(self.listed)
        return ((p, move) for p in self.players for move in self.phase.moves_for(p))


@dataclass(frozen=True, slots=True)
class ArrangementAwaited(MoveAwaited):
    """A mayor's arrangement: `colonists` to place, of which the mayor may decline `declinable`
    (the privilege's; 0 for everyone else)."""

    colonists: int = 0
    declinable: int = 0


@dataclass(frozen=True, slots=True)
class KeepAwaited:
    """What stays on `player`'s board after a captain phase: `keeps()`, every storage the rules
    accept (each distinct result once, the most barrels first, down to `none`)."""

    phase: Captain
    player: int
    kind: ClassVar[str] = "keep"

    def keeps(self) -> list[Keep]:
        """Every storage the rules accept from `player`, the most barrels first."""
        return self.phase.all_keeps(self.player)


@dataclass(frozen=True, slots=True)
class DrawAwaited:
    """The table draws a settler phase's new face-up row of `tiles` tiles (its chooser writes it)."""

    phase: Phase
    player: int
    tiles: int
    kind: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class PhaseOver:
    """Nobody has a decision left in the phase under way: `Game.finish_phase` ends it."""

    phase: Phase
    kind: ClassVar[str] = "end"


Awaiting = RoleAwaited | MoveAwaited | KeepAwaited | DrawAwaited | PhaseOver
