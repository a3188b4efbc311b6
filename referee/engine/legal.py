"""Legal moves at every decision point, as the engine's phases list them.

Each phase lists its own candidates (a cheap superset) and accepts the legal ones with the very
checks its `play` makes, changing nothing: no copy of the game per candidate. Mayor
arrangements (they can be numerous) are generated directly, and counted without listing them
where only the number is wanted. These functions are the engine's answers in the words tools
use; `Game.legal_moves` is the same list.
"""

from __future__ import annotations

from collections.abc import Iterator

from referee.engine.game import Game
from referee.engine.phases.base import TurnPhase
from referee.engine.phases.captain import best_keeps, storage
from referee.engine.phases.mayor import Mayor
from referee.moves import AnyMove, Keep, Pass


def roles(game: Game) -> list[tuple[str, int | None]]:
    """The role choices open to the chooser: (role, doubloons on the card when it matters)."""
    out: list[tuple[str, int | None]] = []
    for role in game.available_roles():
        free = sorted({c.doubloons for c in game.role_cards if c.role == role and c.taken_by is None})
        out.extend((role, d if len(free) > 1 else None) for d in free)
    return out


def to_move(game: Game) -> list[int]:
    """Players who may make the next move of the current phase (the log may skip to them)."""
    return game.phase.to_move() if game.phase is not None else []


def moves(game: Game, p: int) -> list[AnyMove]:
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
    if isinstance(game.phase, Mayor):
        return game.phase.count_moves(p)
    return len(game.legal_moves(p))


def still_deciding(game: Game) -> str | None:
    """In a phase of turns (settler, builder, trader), the decision of the first player still to
    move who has more than a pass open, in a sentence; None when the rest can only pass."""
    phase = game.phase
    if not isinstance(phase, TurnPhase) or isinstance(phase, Mayor):  # a mayor's arrangement left out is forced, or missing
        return None
    for index in range(phase.pos, len(phase.order)):
        if any(not isinstance(move, Pass) for move in phase.moves_for(phase.order[index])):
            trial = game.clone()
            assert isinstance(trial.phase, TurnPhase)
            trial.phase.pass_until(index)
            return trial.phase.waiting()
    return None


def keeps(game: Game, p: int) -> list[Keep]:
    """The storage choices of `p` at the end of a captain phase that keep the most barrels."""
    board = game.boards[p]
    kinds, barrels = storage(board, game.rules)
    out = []
    for kept in best_keeps(board.goods, kinds, barrels):
        items = tuple((k, None if n == board.goods.get(k) and n > 1 else n) for k, n in sorted(kept.items()))
        out.append(Keep(items=items))
    return out
