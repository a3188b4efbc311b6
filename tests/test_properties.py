"""Property tests over random legal games of every ruleset and player count (hypothesis).

- each generated game validates, is complete, and scores;
- after every move the totals are conserved (colonists, barrels, VP chips, tiles);
- a move replaced by one that is not legal there gives exactly one diagnostic, at its line;
- re-reading the canonical text of a log gives the same game (round trip);
- in mayor phases the legal moves are every arrangement the engine accepts (privileges declined too).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product
from math import prod

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.documents.log import GameRecord, read_log
from referee.documents.write import canonical_log
from referee.engine import legal
from referee.engine.game import Game
from referee.jobs.check import check_log
from referee.jobs.play import play, to_log
from referee.jobs.replays import replay, replay_steps
from referee.moves.clauses import Arrange, Build, Load, Pass, Sell, Settle
from referee.rulesets.load import load_ruleset

RULESETS = ("base", "expansion-1", "1897")
COUNTS = (2, 3, 4, 5)
SETTINGS = settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def generated(ruleset: str, n: int, seed: int) -> str:
    return to_log(play(load_ruleset(ruleset), n, seed), ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", COUNTS)
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_generated_game_validates_complete_and_scores(ruleset, n, seed):
    report = check_log(generated(ruleset, n, seed), "gen.yaml")
    assert report.errors == []
    assert report.complete
    assert report.scores is not None and len(report.scores) == n
    assert min(s.rank for s in report.scores) == 1


def test_same_seed_same_game():
    assert generated("base", 4, 7) == generated("base", 4, 7)
    assert generated("base", 4, 7) != generated("base", 4, 8)


def _totals(game: Game) -> dict[str, object]:
    rules, setup = game.rules, game.setup
    colonists = game.colonist_supply + game.colonist_ship + sum(b.colonists() for b in game.boards)
    barrels = Counter(game.goods_supply)
    for b in game.boards:
        barrels.update({k: v for k, v in b.goods.items() if v})
    for s in game.ships:
        if s.good:
            barrels[s.good] += s.count
    barrels.update(game.trading_house)
    tiles = Counter(game.deck) + Counter(game.discards) + Counter(game.face_up)
    quarries = game.quarries
    forests = 0
    for b in game.boards:
        for t, k in b.island.items():
            if t == rules.quarry.id:
                quarries += k
            elif t == "forest":
                forests += k
            else:
                tiles[t] += k
    vp = sum(b.vp for b in game.boards)
    return {
        "colonists": colonists,
        "barrels": {k: v for k, v in barrels.items() if v},
        "plantations": sum(tiles.values()) + forests,
        "quarries": quarries,
        "vp_chips": game.vp_chips == max(0, setup.vp_chips - vp),
    }


def _expected_totals(game: Game) -> dict[str, object]:
    rules, setup = game.rules, game.setup
    return {
        "colonists": setup.colonists + setup.ship_colonists,
        "barrels": {g.id: g.barrels - setup.barrels_removed for g in rules.model.goods},
        "plantations": sum(g.plantations - setup.plantations_removed for g in rules.model.goods),
        "quarries": rules.quarry.count if setup.quarries is None else setup.quarries,
        "vp_chips": True,
    }


def _steps(record: GameRecord):
    """Replay a record move by move, yielding the game before each move (and after each phase)."""
    for step in replay_steps(record):
        if step.kind != "role":
            yield step.game, step.phase, step.move


@pytest.mark.parametrize("ruleset", ["base", "expansion-1"])
@pytest.mark.parametrize("n", COUNTS)
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_totals_are_conserved_after_every_move(ruleset, n, seed):
    record = read_log(generated(ruleset, n, seed), "gen.yaml")
    expected = None
    for game, _, _ in _steps(record):
        expected = expected or _expected_totals(game)
        assert _totals(game) == expected


def _illegal_alternatives(game: Game, p: int, rng: random.Random) -> list:
    """Moves of the current phase's kind that the engine refuses for `p` now."""
    rules, phase = game.rules, game.phase
    role = phase.role if phase else ""
    pool: list = []
    if role == "settler":
        pool = [Settle(tile=g) for g in rules.goods] + [Settle(tile=rules.quarry.id, hospice=True)]
    elif role == "builder":
        pool = [Build(building=b.id) for b in rules.buildings] + [Build(building=b.id, price=0) for b in rules.buildings]
    elif role == "trader":
        pool = [Sell(good=g) for g in rules.goods] + [Sell(good=g, income=9) for g in rules.goods]
    elif role == "captain":
        pool = [Load(good=g, ship=s.size) for g in rules.goods for s in game.ships] + [Pass()]
    rng.shuffle(pool)
    return [m for m in pool if not legal.accepts(game, p, m)][:2]


@pytest.mark.parametrize("ruleset", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_an_illegal_move_gives_one_diagnostic_at_its_line(ruleset, seed):
    rng = random.Random(seed)
    text = generated(ruleset, 3 + seed % 3, seed)
    record = read_log(text, "gen.yaml")
    lines = text.splitlines()
    tried = 0
    for game, _entry, move in _steps(record):
        if move is None or rng.random() > 0.08:
            continue
        for alternative in _illegal_alternatives(game, move.player, rng):
            line = move.location.line
            mutated = list(lines)
            head = lines[line - 1].split(":", 1)[0]
            mutated[line - 1] = f"{head}: {alternative.text(record.rules)}"
            report = check_log("\n".join(mutated) + "\n", "gen.yaml")
            assert [d.location.line for d in report.errors] == [line], (lines[line - 1], mutated[line - 1], report.errors)
            assert report.exit_code == 1
            tried += 1
    assert tried > 0


@pytest.mark.parametrize("ruleset", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_canonical_text_round_trip(ruleset, seed):
    text = generated(ruleset, 2 + seed % 4, seed)
    first = read_log(text, "gen.yaml")
    again = canonical_log(read_log(canonical_log(first), "c.yaml"))
    assert again == canonical_log(first)
    a, b = replay(first), replay(read_log(again, "c.yaml"))
    assert a.complete and b.complete
    assert [(x.vp, x.doubloons, x.goods, x.buildings, x.island) for x in a.game.boards] == [
        (x.vp, x.doubloons, x.goods, x.buildings, x.island) for x in b.game.boards
    ]


def _every_arrangement(game: Game, p: int, limit: int) -> list[Arrange] | None:
    """Every arrangement `p` could write, whatever the rules say (an independent source, not the
    engine's list): each number of colonists up to theirs, on each place up to its tiles or
    circles, the rest in San Juan; None when there would be more than `limit`."""
    rules, board = game.rules, game.boards[p]
    places = [(t, False, n) for t, n in board.island.items() if rules.has_circle(t)]
    places += [(b, True, rules.building[b].circles) for b in board.buildings if rules.building[b].circles]
    total = board.colonists()
    size = (total + 1) * prod(c + 1 for _, _, c in places)
    if size > limit:
        return None
    out = []
    for counts in product(*(range(c + 1) for _, _, c in places)):
        placed = sum(counts)
        for san_juan in range(total - placed + 1):
            tiles = {t: c for (t, is_building, _), c in zip(places, counts, strict=True) if c and not is_building}
            buildings = {t: c for (t, is_building, _), c in zip(places, counts, strict=True) if c and is_building}
            out.append(Arrange(tiles=tiles, buildings=buildings, san_juan=san_juan))
    return out


@pytest.mark.parametrize("ruleset", ["base", "expansion-1"])
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_the_mayor_phase_lists_every_arrangement_the_engine_accepts(ruleset, seed):
    """In mayor phases, the declined privileges included: every arrangement anyone could write
    (`_every_arrangement`) is accepted exactly when the legal moves list it, the list holds each
    once, and `count_moves` counts it."""
    record = read_log(generated(ruleset, 2 + seed % 4, seed), "gen.yaml")
    compared = declined = 0
    for step in replay_steps(record):
        if step.kind != "move" or step.phase.role != "mayor":
            continue
        game = step.game
        for p in range(game.n):
            candidates = _every_arrangement(game, p, 3000)
            if candidates is None:
                continue
            listed = legal.legal_moves(game, p)
            assert len(listed) == len(set(map(repr, listed))) == legal.count_moves(game, p)
            accepted = [m for m in candidates if legal.accepts(game, p, m)]
            assert sorted(map(repr, accepted)) == sorted(map(repr, listed)), (p, step.move)
            compared += 1
            declined += sum(1 for m in accepted if m.placed + m.san_juan < game.boards[p].colonists())
    assert compared > 0 and declined > 0
