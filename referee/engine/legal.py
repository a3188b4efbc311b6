"""Legal moves at every decision point, as the engine's phases list them.

Each phase generates its legal moves from the rules that make them legal: the predicates its
check asks (a building's price, room on the island, a kind the trading house takes ...) are
asked once for the moves they allow, and no candidate is built only to be refused: nothing is
raised and caught, and nothing changes. The order is the one of the phase's `candidates` (what
could be written), of which the list is exactly the part `accepts` takes (tests/test_legal_moves.py).
Mayor arrangements (they can be numerous) are counted without listing them where only the
number is wanted. These functions are the engine's answers in the words tools use;
`Game.legal_moves` is the same list.
"""

from __future__ import annotations

from collections.abc import Iterator

from referee.engine.awaiting import MoveAwaited
from referee.engine.captain_rules import best_keeps
from referee.engine.game import Game
from referee.engine.phases.captain import storage, written_keep
from referee.moves.clauses import AnyMove, Keep


def roles(game: Game) -> list[tuple[str, int | None]]:
    """The role choices open to the chooser: (role, doubloons on the card when it matters)."""
    return game.role_choices()


def to_move(game: Game) -> list[int]:
    """Players who may make the next move of the current phase, in turn order (the log may skip
    to a later one): those of `Game.awaiting`'s move; none when no move is awaited."""
    awaited = game.awaiting()
    return list(awaited.players) if isinstance(awaited, MoveAwaited) else []


def legal_moves(game: Game, p: int) -> list[AnyMove]:
    """Every legal move of player `p` now (skipping earlier players as passes), in log notation order."""
    return game.legal_moves(p)


def iter_moves(game: Game, p: int) -> Iterator[AnyMove]:
    """The legal moves of `p` one by one (a mayor's arrangements can be many: take what you need)."""
    return game.phase.moves_for(p) if game.phase is not None else iter(())


def accepts(game: Game, p: int, move: AnyMove) -> bool:
    """Would the engine accept `move` by `p` now? (Nothing is changed.)"""
    return game.accepts(p, move)


def count_moves(game: Game, p: int) -> int:
    """The number of legal moves of `p` now (mayor arrangements counted, not listed)."""
    return game.phase.count_moves(p) if game.phase is not None else 0


def still_deciding(game: Game) -> str | None:
    """In a phase of turns (settler, builder, trader), the decision of the first player still to
    move who has more than a pass open, in a sentence; None when the rest can only pass (the
    phase's answer: `Phase.still_deciding`)."""
    return game.phase.still_deciding() if game.phase is not None else None


def keeps(game: Game, p: int) -> list[Keep]:
    """The storage choices of `p` at the end of a captain phase that keep the most barrels."""
    board = game.boards[p]
    kinds, barrels = storage(board, game.rules)
    return [written_keep(board.goods, kept, kinds, barrels) for kept in best_keeps(board.goods, kinds, barrels)]
