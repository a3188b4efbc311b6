"""The engine checks before it changes (issue 13): a refused move, or a phase end refused,
leaves the game exactly as it was; `Game.accepts` and the legal moves agree with `play`.

Over random games of every bundled ruleset, at every move, many moves are tried: every
candidate of every player, and random moves of every kind (other phases' moves, unknown
ships, wrong counts and prices, black-market payments, guest-house moves, arrangements).
Each is tried on a copy of the game; a refused one must leave the copy equal to the game.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from itertools import islice
from typing import Any

import pytest

from referee.diagnostics import RuleViolation
from referee.documents.log import read_log
from referee.engine.game import Game
from referee.jobs.play import play, to_log
from referee.jobs.replays import replay_steps
from referee.moves.clauses import SAN_JUAN, AnyMove, Arrange, Build, Extra, Keep, Load, Pass, Sell, Settle, SmallWharfLoad, WharfLoad


def state(value: Any) -> Any:
    """A comparable picture of the game (or a part of it): every field, the phase's too."""
    if isinstance(value, Game):
        return {key: state(item) for key, item in vars(value).items() if key not in ("rules", "setup")}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, *(state(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, (dict, Counter)):
        return {key: state(item) for key, item in value.items() if not (isinstance(value, Counter) and item == 0)}
    if isinstance(value, (list, tuple)):
        return [state(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if hasattr(value, "__dict__") and hasattr(value, "role"):  # a phase
        return {key: state(item) for key, item in vars(value).items() if key not in ("game", "rules")}
    return value


def random_moves(game: Game, rng: random.Random, count: int) -> list[tuple[int, AnyMove, tuple[str, ...]]]:
    """Moves of every kind, most of them refused: (player, move, guest places)."""
    rules = game.rules
    goods = list(rules.goods)
    tiles = [*goods, rules.quarry.id, rules.forest_id]
    buildings = [b.id for b in rules.buildings]
    places = [*tiles, *buildings, SAN_JUAN]
    sizes = [ship.size for ship in game.ships] + [1, 9]

    def maybe(values: list[Any]) -> Any:
        return rng.choice([None, *values])

    makers = [
        lambda: Pass(),
        lambda: Settle(extra_tile=maybe(tiles), tile=maybe(tiles), hospice=rng.random() < 0.3, forest=rng.random() < 0.3),
        lambda: Build(
            building=rng.choice(buildings), price=maybe(list(range(12))), university=rng.random() < 0.3,
            pay_colonist=maybe(places) if rng.random() < 0.3 else None, pay_good=maybe(goods) if rng.random() < 0.3 else None, pay_vp=rng.random() < 0.2,
        ),
        lambda: Sell(good=rng.choice(goods), income=maybe(list(range(8))), own_post=rng.random() < 0.3),
        lambda: Load(good=rng.choice(goods), count=maybe(list(range(1, 8))), ship=maybe(sizes)),
        lambda: WharfLoad(good=rng.choice(goods)),
        lambda: SmallWharfLoad(goods=tuple((good, rng.randint(1, 3)) for good in rng.sample(goods, rng.randint(1, 2)))),
        lambda: Extra(goods=tuple(rng.choice(goods) for _ in range(rng.randint(0, 3)))),
        lambda: Arrange(
            tiles={tile: rng.randint(0, 3) for tile in rng.sample(tiles, 2)},
            buildings={building: rng.randint(0, 3) for building in rng.sample(buildings, 2)},
            san_juan=rng.randint(0, 4),
        ),
    ]
    out: list[tuple[int, AnyMove, tuple[str, ...]]] = []
    phase = game.phase
    assert phase is not None
    listed = [(p, move, ()) for p in range(game.n) for move in islice(phase.candidates(p), 100)]  # what the phases list, for anyone
    out += rng.sample(listed, min(len(listed), count))
    for _ in range(count):
        guests = tuple(rng.sample(places, rng.randint(1, 2))) if rng.random() < 0.1 else ()
        out.append((rng.randrange(game.n), rng.choice(makers)(), guests))
    return out


def games() -> list[tuple[str, int]]:
    return [(ruleset, seed) for ruleset in ("base", "expansion-1", "1897", "1897-expansion-1") for seed in range(3)]


@pytest.mark.parametrize(("ruleset", "seed"), games())
def test_a_refused_move_leaves_the_game_as_it_was(ruleset: str, seed: int) -> None:
    from referee.rulesets.load import load_ruleset

    record = read_log(to_log(play(load_ruleset(ruleset), 2 + seed % 4, seed), ruleset).encode(), f"{ruleset}-{seed}.yaml")
    rng = random.Random(seed)
    refused = accepted = 0
    for index, step in enumerate(replay_steps(record)):
        if step.kind != "move" or index % 3:
            continue
        game = step.game
        before = state(game)
        listing = step.phase.role != "mayor"  # arrangements can be thousands: asked one by one (`accepts`)
        legal = {p: game.legal_moves(p) if listing else [] for p in range(game.n)}
        for p, move, guests in random_moves(game, rng, 8):
            trial = game.clone()
            try:
                trial.play(p, move, guests)
            except RuleViolation:
                refused += 1
                assert state(trial) == before, (step.phase.role, p, move, guests)
                assert guests or not game.accepts(p, move), (p, move)
                assert move not in legal[p] or guests, (p, move)
                continue
            accepted += 1
            if not guests:
                assert game.accepts(p, move), (p, move)
                passing = isinstance(move, Pass) and step.phase.role != "captain"  # a captain's pass is a move of its own, listed; elsewhere it is implied
                assert passing or move in legal[p] or not listing or not _is_canonical(move), (p, move)
        assert state(game) == before  # listing moves and asking changes nothing
    assert refused > 100 and accepted > 20


def _is_canonical(move: AnyMove) -> bool:
    """Moves the legal lists write in full (a load with its count and ship; a build or sale
    without the optional price and income): others are accepted but listed in another form
    (an arrangement is listed only with the circles filled in order)."""
    if isinstance(move, Load):
        return move.count is not None and move.ship is not None
    if isinstance(move, Build):
        return move.price is None
    if isinstance(move, Sell):
        return move.income is None
    if isinstance(move, Settle):  # nothing taken: a pass, written so
        return move.tile is not None or move.extra_tile is not None
    return not isinstance(move, Arrange)


def before_the_end(step: Any) -> Game | None:
    """A copy of the game just before its phase ends: after the phase's last move (or its role
    choice, when the phase has no move); None at other steps."""
    entry = step.phase
    if step.kind == "move" and step.move is entry.moves[-1]:
        game = step.game.clone()
        game.play(step.move.player, step.move.move, step.move.guests)
        return game
    if step.kind == "role" and not entry.moves:
        game = step.game.clone()
        game.choose_role(entry.chooser, entry.role, entry.doubloons)
        return game
    return None


@pytest.mark.parametrize(("ruleset", "seed"), games()[::2])
def test_a_refused_phase_end_leaves_the_game_as_it_was(ruleset: str, seed: int) -> None:
    """A phase ended with a wrong or missing reveal, a wrong keep or none where one is needed,
    or with decisions left: refused, nothing changed."""
    from referee.rulesets.load import load_ruleset

    record = read_log(to_log(play(load_ruleset(ruleset), 2 + seed % 4, seed), ruleset).encode(), f"{ruleset}-{seed}.yaml")
    rng = random.Random(seed)
    refused = 0
    for step in replay_steps(record):
        game = before_the_end(step)
        if game is None:
            continue
        before = state(game)
        goods = list(game.rules.goods)
        reveals = [None, [], rng.choices(goods, k=game.setup.face_up), rng.choices(goods, k=game.setup.face_up + 1)]
        keeps = [None, {p: Keep(items=((rng.choice(goods), rng.randint(1, 4)),)) for p in range(game.n)}]
        for reveal in reveals:
            for keep in keeps:
                trial = game.clone()
                try:
                    trial.finish_phase(reveal=reveal, keep=keep)
                except RuleViolation:
                    refused += 1
                    assert state(trial) == before, (step.phase.role, reveal, keep)
    assert refused > 20


@pytest.mark.parametrize(
    ("guests", "move", "rule"),
    [
        (("start",), Build(building="coffee-roaster"), "builder.cannot-afford"),  # the guest moves, the build is refused
        (("start", "harbor"), Pass(), "guest.place"),  # the first guest moves, the second cannot
        (("start",), Build(building="small-market", price=3), "builder.price"),
    ],
)
def test_a_refused_move_with_guests_leaves_the_game_as_it_was(guests: tuple[str, ...], move: AnyMove, rule: str) -> None:
    """Guest-house moves change what a move may do, so they are made on a copy: when the
    move after them (or a later guest) is refused, the guests have not moved either."""
    from referee.rulesets.load import load_ruleset

    game = Game(load_ruleset("expansion-1"), ["Anna", "Ben", "Cleo"], None)
    anna = game.boards[0]
    anna.buildings["guest-house"] = 2
    start = next(iter(anna.island))
    game.choose_role(0, "builder")
    before = state(game)
    with pytest.raises(RuleViolation) as refused:
        game.play(0, move, tuple(start if place == "start" else place for place in guests))
    assert refused.value.rule == rule
    assert state(game) == before and game.boards[0] is anna  # the same objects, as they were
    game.play(0, Build(building="small-market"), (start,))  # accepted: the guest moved and the market is built
    assert anna.manned[start] == 1 and anna.buildings["guest-house"] == 1 and "small-market" in anna.buildings


def test_a_phase_whose_passes_ask_or_change_something_says_so() -> None:
    """A phase of turns whose pass may be refused, or changes the board of the player left out
    (the mayor's forced arrangement), is `forced`: in the others a pass, written or left out,
    is neither checked nor made, so they must keep the pass of every phase (always allowed,
    changing nothing)."""
    from referee.engine.phases import PHASES, TurnPhase

    turns = [phase for phase in PHASES.values() if issubclass(phase, TurnPhase)]
    assert len(turns) >= 4
    for phase in turns:
        own = [name for name in ("may_pass", "check_pass", "refused_pass", "skip") if getattr(phase, name) is not getattr(TurnPhase, name)]
        assert phase.forced == bool(own), (phase.__name__, own)
