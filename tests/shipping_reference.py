"""The plain exhaustive search of a captain phase, for the tests: every line of play through the
engine itself (`Captain.legal_moves`, `Captain.play`), no reduction, each distinct end once.

The calculator's reductions (players dropping out, states keyed by the decider) and its values
are checked against what this finds: every end (`plain_ends`), and each player's guaranteed VP
(`plain_guaranteed`), the phase played as a game of that player against all the others."""

from __future__ import annotations

from referee.documents.position import Position
from referee.engine.captain_rules import preferred_keep
from referee.engine.phases.captain import Captain, storage
from referee.jobs.shipping.phase import setup

# each player's (VP, barrels left by kind, kept by kind, doubloons), and the ships after unloading
End = tuple[tuple[tuple[int, tuple[tuple[str, int], ...], tuple[tuple[str, int], ...], int], ...], tuple[tuple[int, str | None, int], ...]]


def plain_ends(position: Position, before: list[tuple[int, object]] | None = None) -> set[End]:
    """Every distinct end of the phase (after the moves `before`, played first)."""
    _, captain = setup(position)
    for p, move in before or []:
        captain.play(p, move)  # type: ignore[arg-type]
    start = [position.rules.players(len(position.players)).doubloons] * len(position.players)  # before the phase
    memo: dict[object, frozenset[End]] = {}

    def visit() -> frozenset[End]:
        snap = captain.snapshot()
        key = (snap[0], snap[1], snap[2], snap[3], tuple(tuple(sorted(g.items())) for g in snap[4]), snap[5], snap[9], snap[10])
        hit = memo.get(key)
        if hit is not None:
            return hit
        found: set[End] = set()
        if captain.next_loader() is None:
            found.add(_end(captain, start))  # the phase may end: nobody can load on a cargo ship
        for p, move in captain.legal_moves():
            captain.play(p, move)
            found |= visit()
            captain.restore(snap)
        memo[key] = frozenset(found)
        return memo[key]

    return set(visit())


def _end(captain: Captain, start: list[int]) -> End:
    game, rules = captain.game, captain.rules
    players = []
    for p, board in enumerate(game.boards):
        kept = preferred_keep(board.goods, *storage(board, rules), rules)
        held = tuple(sorted((k, n) for k, n in board.goods.items() if n))
        players.append((board.vp, held, tuple(sorted((k, n) for k, n in kept.items() if n)), board.doubloons - start[p]))
    ships = tuple((s.size, None, 0) if s.full else (s.size, s.good, s.count) for s in game.ships)
    return tuple(players), ships


def plain_guaranteed(position: Position, player: int, before: list[tuple[int, object]] | None = None) -> int:
    """The most VP `player` can be sure to end the phase with, whatever the others do (after the
    moves `before`, played first): a max-min over the engine's own tree of play, on its own.

    The engine offers moves to every player whose turn comes no later than the next loader's,
    clockwise from the turn pointer (all of them once nobody can load on a cargo ship, when the
    phase may also end). Read as turns: the first of them makes one of their moves or lets the
    turn pass on to the next, and so on; the next loader must load; when nobody can load and all
    let it pass, the phase ends. Where `player` decides, the most of what the options leave
    them; where anyone else does, the fewest."""
    _, captain = setup(position)
    for p, move in before or []:
        captain.play(p, move)  # type: ignore[arg-type]
    memo: dict[object, int] = {}

    def visit() -> int:
        snap = captain.snapshot()
        key = (snap[0], snap[1], snap[2], snap[3], tuple(tuple(sorted(g.items())) for g in snap[4]), snap[5], snap[9], snap[10])
        hit = memo.get(key)
        if hit is not None:
            return hit
        by_player: dict[int, list[int]] = {}
        for p, move in captain.legal_moves():  # players in turn order from the pointer
            captain.play(p, move)
            by_player.setdefault(p, []).append(visit())
            captain.restore(snap)
        loader = captain.next_loader()
        rest = captain.game.boards[player].vp if loader is None else None  # the phase ends if everyone lets it
        for p in reversed(list(by_player)):
            options = by_player[p] if p == loader else [*by_player[p], *([] if rest is None else [rest])]
            rest = max(options) if p == player else min(options)
        assert rest is not None, "the next loader has a load"
        memo[key] = rest
        return rest

    return visit()
