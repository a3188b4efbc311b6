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
from itertools import product

from referee.engine.captain_rules import best_keeps, keep_fits
from referee.engine.game import Game
from referee.engine.phases.base import TurnPhase
from referee.engine.phases.captain import storage, written_keep
from referee.engine.phases.mayor import Mayor
from referee.moves.clauses import AnyMove, Keep, Pass


def roles(game: Game) -> list[tuple[str, int | None]]:
    """The role choices open to the chooser: (role, doubloons on the card when it matters)."""
    out: list[tuple[str, int | None]] = []
    for role, cards in game.open_cards().items():
        if len(cards) == 1:
            out.append((role, None))
            continue
        free = sorted({card.doubloons for card in cards})
        out.extend((role, d if len(free) > 1 else None) for d in free)
    return out


def to_move(game: Game) -> list[int]:
    """Players who may make the next move of the current phase (the log may skip to them)."""
    return game.phase.to_move() if game.phase is not None else []


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


def all_keeps(game: Game, p: int) -> list[Keep]:
    """Every storage the engine accepts from `p` at the end of a captain phase, each distinct
    result once: the most barrels first, down to `none` (keeping fewer than the rules allow is
    legal). Written as the storage is used: the kinds kept whole in warehouses `corn all` (the
    largest first), the rest as single barrels (`sugar`, `coffee 2` with a storehouse)."""
    board = game.boards[p]
    kinds, barrels = storage(board, game.rules)
    held = sorted((good, n) for good, n in board.goods.items() if n > 0)
    found: dict[tuple[tuple[str, int], ...], Keep] = {}
    for counts in product(*(range(n, -1, -1) for _, n in held)):
        kept = {good: n for (good, _), n in zip(held, counts, strict=True) if n}
        if not keep_fits(kept, kinds, barrels):
            continue
        whole = sorted((good for good in kept if kept[good] == board.goods[good]), key=lambda good: -kept[good])[:kinds]
        items = tuple((good, None if good in whole else n) for good, n in sorted(kept.items()))
        if not keep_fits({good: n for good, n in kept.items() if good not in whole}, 0, barrels):
            items = tuple((good, n) for good, n in sorted(kept.items()))  # stored otherwise (a smaller kind whole): counts say it
        found[tuple(sorted(kept.items()))] = Keep(items=items)
    return sorted(found.values(), key=lambda keep: -sum(board.goods[good] if n is None else n for good, n in keep.items))


def keeps(game: Game, p: int) -> list[Keep]:
    """The storage choices of `p` at the end of a captain phase that keep the most barrels."""
    board = game.boards[p]
    kinds, barrels = storage(board, game.rules)
    out = []
    for kept in best_keeps(board.goods, kinds, barrels):
        out.append(written_keep(board.goods, kept))
    return out
