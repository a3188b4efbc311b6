"""What a game waits for: the engine's one answer to "who decides what now" (`Game.awaiting`).

Each phase answers for itself (`Phase.awaiting`); the game answers the role choice between
phases. The answer is one of four decisions, or the phase's end:

- `RoleAwaited`: the chooser takes a role card (`roles`, each with the doubloons on it when
  the cards of a role differ).
- `MoveAwaited`: a move in the phase under way. `player` is the one whose turn it is;
  `players`, those who may make the next move, in turn order, `player` first (a log may skip to
  a later one: the players between pass). `moves(p)` lists a player's legal moves, `count(p)` counts them
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
from typing import TYPE_CHECKING, ClassVar, cast

from referee.ground.frozen import Frozen, field_setters, frozen, set_field
from referee.moves.clauses import AnyMove, Keep

if TYPE_CHECKING:
    from referee.engine.phases.base import Phase
    from referee.engine.phases.captain import Captain
    from referee.engine.phases.mayor import Mayor


@frozen(slotted=True)
class RoleAwaited(Frozen):
    """The chooser takes a role: `roles` are the cards open, (role, doubloons on the card where
    the free cards of a role carry different sums, else None), in the order of the table."""

    __slots__ = ("player", "roles")  # the fields, in order

    player: int
    roles: tuple[tuple[str, int | None], ...]
    kind: ClassVar[str] = "role"

    def __init__(self, player: int, roles: tuple[tuple[str, int | None], ...]) -> None:
        set_field(self, "player", player)
        set_field(self, "roles", roles)

    @property
    def role_ids(self) -> tuple[str, ...]:
        """The roles open, each once."""
        return tuple(dict.fromkeys(role for role, _ in self.roles))


@frozen(slotted=True)
class MoveAwaited(Frozen):
    """A move of the phase under way: `player` is the one whose turn it is; `players`, read
    when asked, all who may make it, in turn order (a later one's move passes those before them)."""

    __slots__ = ("phase", "player", "listed")  # noqa: RUF023  # the fields, in order

    phase: Phase
    player: int
    listed: tuple[tuple[int, AnyMove], ...] | None  # every move of `players`, where the phase listed them to find `players` (a captain's)
    kind: ClassVar[str] = "move"

    def __init__(self, phase: Phase, player: int, listed: tuple[tuple[int, AnyMove], ...] | None = None) -> None:
        _set_phase(self, phase)
        _set_player(self, player)
        _set_listed(self, listed)

    @property
    def players(self) -> tuple[int, ...]:
        """Every player who may make the move, in turn order, `player` first (read from the
        game when asked: most decisions need only `player`)."""
        if self.listed is not None:
            return tuple(dict.fromkeys(p for p, _ in self.listed))
        return self.phase.reachable_players()

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


# the answer made at every decision: its fields set by their slots' setters
_set_phase, _set_player, _set_listed = field_setters(MoveAwaited)


class ArrangementAwaited(MoveAwaited):
    """A mayor's arrangement: `colonists` to place, of which the mayor may decline `declinable`
    (the privilege's; 0 for everyone else), both read when asked."""

    __slots__ = ()

    @property
    def colonists(self) -> int:
        """The colonists `player` places."""
        return self.phase.board(self.player).colonists()

    @property
    def declinable(self) -> int:
        """How many of them `player` may decline (the mayor's privilege)."""
        return cast("Mayor", self.phase).declinable(self.player)


@frozen(slotted=True)
class KeepAwaited(Frozen):
    """What stays on `player`'s board after a captain phase: `keeps()`, every storage the rules
    accept (each distinct result once, the most barrels first, down to `none`)."""

    __slots__ = ("phase", "player")  # the fields, in order

    phase: Captain
    player: int
    kind: ClassVar[str] = "keep"

    def __init__(self, phase: Captain, player: int) -> None:
        set_field(self, "phase", phase)
        set_field(self, "player", player)

    def keeps(self) -> list[Keep]:
        """Every storage the rules accept from `player`, the most barrels first."""
        return self.phase.all_keeps(self.player)


@frozen(slotted=True)
class DrawAwaited(Frozen):
    """The table draws a settler phase's new face-up row of `tiles` tiles (its chooser writes it)."""

    __slots__ = ("phase", "player", "tiles")  # the fields, in order

    phase: Phase
    player: int
    tiles: int
    kind: ClassVar[str] = "draw"

    def __init__(self, phase: Phase, player: int, tiles: int) -> None:
        set_field(self, "phase", phase)
        set_field(self, "player", player)
        set_field(self, "tiles", tiles)


@frozen(slotted=True)
class PhaseOver(Frozen):
    """Nobody has a decision left in the phase under way: `Game.finish_phase` ends it."""

    __slots__ = ("phase",)  # the field

    phase: Phase
    kind: ClassVar[str] = "end"

    def __init__(self, phase: Phase) -> None:
        set_field(self, "phase", phase)


Awaiting = RoleAwaited | MoveAwaited | KeepAwaited | DrawAwaited | PhaseOver
