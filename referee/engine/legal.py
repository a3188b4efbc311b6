"""Legal moves at every decision point, found by trying candidates on a copy of the game.

The rules are written once, in the phases' `play`: a candidate move is legal exactly when the
engine accepts it. Candidates are generated per phase (a cheap superset: every face-up tile,
every building, every good held ...); mayor arrangements are generated directly (they can be
numerous) and counted without listing them where only the number is wanted.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from referee.diagnostics import RuleViolation
from referee.engine.game import Game
from referee.engine.phases.base import TurnPhase
from referee.engine.phases.captain import Captain, best_keeps, storage
from referee.engine.phases.craftsman import Craftsman
from referee.engine.phases.mayor import Mayor
from referee.moves import SAN_JUAN, AnyMove, Arrange, Build, Extra, Keep, Pass, Sell, Settle


def roles(game: Game) -> list[tuple[str, int | None]]:
    """The role choices open to the chooser: (role, doubloons on the card when it matters)."""
    out: list[tuple[str, int | None]] = []
    for role in game.available_roles():
        free = sorted({c.doubloons for c in game.role_cards if c.role == role and c.taken_by is None})
        out.extend((role, d if len(free) > 1 else None) for d in free)
    return out


def to_move(game: Game) -> list[int]:
    """Players who may make the next move of the current phase (the log may skip to them)."""
    phase = game.phase
    if phase is None:
        return []
    if isinstance(phase, Captain):
        return sorted({p for p, _ in phase.legal_moves()}, key=lambda p: (p - phase.pointer) % game.n)
    if isinstance(phase, Craftsman):
        return [phase.chooser] if not phase.extra_done and phase.choices() else []
    if isinstance(phase, TurnPhase):
        rest = list(dict.fromkeys(phase.order[phase.pos :]))
        if phase.closed():  # a full trading house: only a sale to one's own trading post is left
            return [p for p in rest if phase.moves_when_closed(p)]
        return rest
    return []


def moves(game: Game, p: int) -> list[AnyMove]:
    """Every legal move of player `p` now (skipping earlier players as passes), in log notation order."""
    return list(iter_moves(game, p))


def iter_moves(game: Game, p: int) -> Iterator[AnyMove]:
    """The legal moves of `p` one by one (a mayor's arrangements can be many: take what you need)."""
    phase = game.phase
    if phase is None:
        return iter(())
    if isinstance(phase, Captain):
        return (m for q, m in phase.legal_moves() if q == p)
    if isinstance(phase, Mayor):
        return arrangements(game, p) if _reachable(game, p) else iter(())
    return (m for m in candidates(game, p) if accepts(game, p, m))


def accepts(game: Game, p: int, move: AnyMove) -> bool:
    """Would the engine accept `move` by `p` now? (Tried on a copy.)"""
    trial = game.clone()
    try:
        trial.play(p, move)
    except RuleViolation:
        return False
    return True


def _reachable(game: Game, p: int) -> bool:
    """Can the turn get to `p` (everyone before passing)? A mayor phase stops at a player with a choice."""
    trial = game.clone()
    phase = trial.phase
    assert isinstance(phase, TurnPhase)
    index = next((i for i in range(phase.pos, len(phase.order)) if phase.order[i] == p), None)
    if index is None:
        return False
    try:
        phase.pass_until(index)
    except RuleViolation:
        return False
    return True


def still_deciding(game: Game) -> str | None:
    """In a phase of turns (settler, builder, trader), the decision of the first player still to
    move who has more than a pass open, in a sentence; None when the rest can only pass."""
    phase = game.phase
    if not isinstance(phase, TurnPhase) or isinstance(phase, Mayor):  # a mayor's arrangement left out is forced, or missing
        return None
    for index in range(phase.pos, len(phase.order)):
        if any(not isinstance(move, Pass) for move in iter_moves(game, phase.order[index])):
            trial = game.clone()
            assert isinstance(trial.phase, TurnPhase)
            trial.phase.pass_until(index)
            return trial.phase.waiting()
    return None


def candidates(game: Game, p: int) -> Iterator[AnyMove]:
    """A superset of the legal moves of `p` in a settler, builder, craftsman, trader or prospector phase."""
    rules, board, phase = game.rules, game.boards[p], game.phase
    role = phase.role if phase is not None else ""
    yield Pass()
    if role == "settler":
        picks: list[str | None] = [None, *dict.fromkeys(game.face_up), rules.quarry.id]
        draws: list[str | None] = [None]
        if board.has(rules, "settle.extra-tile"):
            pool = game.deck if sum(game.deck.values()) else game.discards
            draws += [k for k, n in pool.items() if n > 0]
        hospice = [False, True] if board.has(rules, "settle.colonist") else [False]
        forest = [False, True] if board.has(rules, "settle.forest") else [False]
        for draw, tile, h, f in product(draws, picks, hospice, forest):
            if tile is None and (h or f or draw is None):
                continue
            yield Settle(extra_tile=draw, tile=tile, hospice=h, forest=f)
    elif role == "builder":
        university = [False, True] if board.has(rules, "build.colonist") else [False]
        black = board.has(rules, "build.black-market")
        for b in rules.buildings:
            if b.id in board.buildings or game.buildings_left.get(b.id, 0) <= 0:
                continue
            for u in university:
                yield Build(building=b.id, university=u)
                if black:
                    yield from _black_market(game, p, b.id, u)
    elif role == "craftsman":
        if isinstance(phase, Craftsman) and p == phase.chooser:
            yield Extra(goods=())
            allowed = phase.extras_allowed()
            for combo in product(phase.choices(), repeat=allowed):
                if list(combo) == sorted(combo):
                    yield Extra(goods=combo)
            if allowed > 1:
                for k in phase.choices():
                    yield Extra(goods=(k,))
    elif role == "trader":
        post = board.has(rules, "trade.own-post")
        for good, n in board.goods.items():
            if n > 0:
                yield Sell(good=good)
                if post:
                    yield Sell(good=good, own_post=True)


def _black_market(game: Game, p: int, building: str, university: bool) -> Iterator[Build]:
    board = game.boards[p]
    places = [SAN_JUAN] if board.san_juan else []
    places += [t for t, n in board.manned.items() if n > 0] + [b for b, n in board.buildings.items() if n > 0]
    goods = [k for k, n in board.goods.items() if n > 0]
    for colonist in [None, *places]:
        for good in [None, *goods]:
            for vp in (False, True) if board.vp > 0 else (False,):
                if colonist is None and good is None and not vp:
                    continue
                yield Build(building=building, university=university, pay_colonist=colonist, pay_good=good, pay_vp=vp)


def _slots(game: Game, p: int) -> list[tuple[str, bool, int]]:
    """(place, is a building, circles) for every place a colonist can go on `p`'s board."""
    rules, board = game.rules, game.boards[p]
    out = [(t, False, n) for t, n in board.island.items() if t != "forest" and n > 0]
    out += [(b, True, rules.building[b].circles) for b in board.buildings if rules.building[b].circles > 0]
    return out


def arrangements(game: Game, p: int) -> Iterator[Arrange]:
    """Every arrangement a player may give in a mayor phase (all circles filled when possible)."""
    board = game.boards[p]
    total = board.colonists()
    slots = _slots(game, p)
    room = sum(c for _, _, c in slots)
    placed = min(total, room)
    for counts in _spread(placed, [c for _, _, c in slots]):
        tiles = {t: c for (t, is_b, _), c in zip(slots, counts, strict=True) if not is_b and c}
        buildings = {t: c for (t, is_b, _), c in zip(slots, counts, strict=True) if is_b and c}
        yield Arrange(tiles=tiles, buildings=buildings, san_juan=total - placed)


def count_arrangements(game: Game, p: int) -> int:
    """How many arrangements `arrangements` would give, without listing them."""
    board = game.boards[p]
    slots = _slots(game, p)
    caps = [c for _, _, c in slots]
    placed = min(board.colonists(), sum(caps))
    ways = [1] + [0] * placed
    for cap in caps:
        nxt = [0] * (placed + 1)
        for used, w in enumerate(ways):
            if w:
                for c in range(min(cap, placed - used) + 1):
                    nxt[used + c] += w
        ways = nxt
    return ways[placed]


def _spread(total: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    if not caps:
        if total == 0:
            yield ()
        return
    rest = sum(caps[1:])
    for c in range(min(caps[0], total), max(0, total - rest) - 1, -1):
        for tail in _spread(total - c, caps[1:]):
            yield (c, *tail)


def count_moves(game: Game, p: int) -> int:
    """The number of legal moves of `p` now (mayor arrangements counted, not listed)."""
    if isinstance(game.phase, Mayor):
        return count_arrangements(game, p) if _reachable(game, p) else 0
    return len(moves(game, p))


def keeps(game: Game, p: int) -> list[Keep]:
    """The storage choices of `p` at the end of a captain phase that keep the most barrels."""
    board = game.boards[p]
    kinds, barrels = storage(board, game.rules)
    out = []
    for kept in best_keeps(board.goods, kinds, barrels):
        items = tuple((k, None if n == board.goods.get(k) and n > 1 else n) for k, n in sorted(kept.items()))
        out.append(Keep(items=items))
    return out
