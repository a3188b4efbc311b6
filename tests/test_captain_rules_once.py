"""The captain phase's rules are written once (`referee.engine.captain_rules`): the engine and the
shipping calculator move by them, so at every turn of random captain phases both list the same
moves for the player whose turn it is to load and agree on whose turn it is."""

from __future__ import annotations

import random

import pytest

from referee.documents.log import read_log
from referee.documents.write_position import game_position
from referee.engine import legal
from referee.engine.awaiting import MoveAwaited
from referee.engine.captain_rules import clockwise, turn_after, turns_away
from referee.engine.phases.captain import Captain, written_keep
from referee.jobs.play import play, to_log
from referee.jobs.replays import replay_steps
from referee.jobs.shipping.phase import CaptainPhase, Reductions
from referee.moves.clauses import AnyMove, Pass, SmallWharfLoad
from referee.rulesets.load import load_ruleset

EVERY_PLAYER = Reductions(independent=False)  # every player who can load on a cargo ship stays in the search's states


def written(move: AnyMove, rules: object) -> str:
    """A move's text, a small wharf's barrels in one order (the calculator writes them by kind)."""
    if isinstance(move, SmallWharfLoad):
        return "small wharf " + ", ".join(f"{good} {n}" for good, n in sorted(move.goods) if n)
    return move.text(rules)  # type: ignore[arg-type]


def test_turn_order_is_clockwise_from_the_pointer() -> None:
    assert clockwise(2, 4) == (2, 3, 0, 1)
    assert [turns_away(2, 4, p) for p in range(4)] == [2, 3, 0, 1]
    assert [turn_after(p, 3) for p in range(3)] == [1, 2, 0]


@pytest.mark.parametrize("ruleset", ["base", "expansion-1", "1897-expansion-1"])
def test_the_engine_and_the_calculator_list_the_same_moves_at_every_turn(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    rng = random.Random(7)
    compared = 0
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        record = read_log(to_log(play(rules, players, seed), ruleset), "random.yaml")
        for step in replay_steps(record):
            if step.kind != "role" or step.phase.role != "captain":
                continue
            captain = step.phase.chooser
            n = step.game.n
            phase = CaptainPhase(game_position(step.game, captain, "random.yaml"), EVERY_PLAYER)
            state = phase.root
            game = step.game.clone()
            game.choose_role(captain, "captain", step.phase.doubloons)
            while True:
                awaited = game.awaiting()
                if not isinstance(awaited, MoveAwaited):
                    break
                loader = state[0]  # the calculator's decider: the first from the pointer who can load on a cargo ship
                assert isinstance(loader, int)
                if loader >= 0:
                    seat = (captain + loader) % n
                    assert awaited.players[-1] == seat  # the engine's turn ends at the same loader
                    engine = [written(move, rules) for move in awaited.moves(seat) if not isinstance(move, Pass)]
                    steps = phase.steps(state)
                    calculator = [written(phase.move(s.move), rules) for s in steps]
                    # the same moves, each once (in the order of the kinds: the board's in the engine, the ruleset's in the calculator)
                    assert sorted(engine) == sorted(calculator) and len(calculator) == len(set(calculator))
                    compared += 1
                seat, move = rng.choice(list(awaited.every_move()))
                if not isinstance(move, Pass) and loader >= 0 and seat == (captain + loader) % n:
                    state = next(s.child for s in phase.steps(state) if written(phase.move(s.move), rules) == written(move, rules))
                game.play(seat, move)
    assert compared > 30


def test_a_keep_is_written_as_the_storage_is_used() -> None:
    """One notation for what stays (`written_keep`), which `next`, random play and the review
    all write: a kind a warehouse keeps whole is `all`, the rest by count."""
    assert written_keep({"corn": 3, "sugar": 1}, {"corn": 3, "sugar": 1}, 1, 1).text() == "corn all, sugar"  # a warehouse, the windrose
    assert written_keep({"coffee": 2, "corn": 1}, {"coffee": 2}, 0, 4).text() == "coffee 2"  # a storehouse's barrels, no warehouse
    assert written_keep({"corn": 2, "sugar": 5}, {"corn": 2, "sugar": 3}, 1, 2).text() == "corn 2, sugar 3"  # the warehouse holds part of the sugar: counts say it
    assert written_keep({"corn": 2}, {}, 1, 1).text() == "none"


@pytest.mark.parametrize("ruleset", ["expansion-1", "1897-expansion-1"])
def test_random_play_writes_its_keeps_as_next_offers_them(ruleset: str) -> None:
    """The keeps random play chooses among (the most barrels) are among those `next` offers
    (every keep the rules accept), written alike."""
    rules = load_ruleset(ruleset)
    compared = 0
    for players, seed in ((3, 4), (4, 5), (5, 6)):
        record = read_log(to_log(play(rules, players, seed), ruleset), "random.yaml")
        for step in replay_steps(record):
            if step.kind != "move" or step.phase.role != "captain" or step.move is not step.phase.moves[-1]:
                continue
            game = step.game.clone()
            game.play(step.move.player, step.move.move, step.move.guests)
            assert isinstance(game.phase, Captain)
            for p in game.phase.order:
                if game.boards[p].barrels():
                    offered = [keep.text(rules) for keep in game.phase.all_keeps(p)]
                    assert {keep.text(rules) for keep in legal.keeps(game, p)} <= set(offered)
                    compared += 1
    assert compared > 10
