"""`Game.awaiting`: the engine's one answer to "who decides what now", each phase answering for
itself; `referee next` and random play take their decisions from it and from nothing else."""

from __future__ import annotations

import pytest

from referee.diagnostics import RuleViolation
from referee.documents.log import read_log
from referee.engine.awaiting import ArrangementAwaited, DrawAwaited, KeepAwaited, MoveAwaited, PhaseOver, RoleAwaited
from referee.engine.game import Game
from referee.jobs.play import play, to_log
from referee.jobs.replays import replay_steps
from referee.moves.clauses import Build, Load, Pass, Sell
from referee.rulesets.load import load_ruleset

from .conftest import FIXTURES


def fresh(players: tuple[str, ...] = ("Anna", "Ben", "Cleo"), ruleset: str = "base") -> Game:
    row = ["indigo", "sugar", "corn", "coffee", "tobacco", "indigo"][: len(players) + 1]
    return Game(load_ruleset(ruleset), list(players), row)


def test_a_new_game_awaits_the_governors_role_choice() -> None:
    awaited = fresh().awaiting()
    assert isinstance(awaited, RoleAwaited) and awaited.kind == "role" and awaited.player == 0
    assert awaited.role_ids == ("settler", "mayor", "builder", "craftsman", "trader", "captain")
    assert all(doubloons is None for _, doubloons in awaited.roles)  # one card each, nothing on them yet


def test_role_cards_carrying_different_doubloons_are_each_a_choice() -> None:
    game = fresh(("Anna", "Ben", "Cleo", "Dara", "Emil"))  # five players: two prospector cards
    cards = [card for card in game.role_cards if card.role == "prospector"]
    assert len(cards) == 2
    cards[0].doubloons = 1  # left over from a round before
    awaited = game.awaiting()
    assert isinstance(awaited, RoleAwaited)
    assert [choice for choice in awaited.roles if choice[0] == "prospector"] == [("prospector", 0), ("prospector", 1)]
    assert [choice for choice in awaited.roles if choice[0] == "builder"] == [("builder", None)]
    for role, doubloons in awaited.roles:
        game.clone().choose_role(awaited.player, role, doubloons)  # each listed choice is accepted


def test_a_builder_phase_awaits_every_player_the_turn_reaches_in_turn_order() -> None:
    game = fresh()
    game.choose_role(0, "builder")
    awaited = game.awaiting()
    assert isinstance(awaited, MoveAwaited) and awaited.kind == "move"
    assert awaited.players == (0, 1, 2) and awaited.player == 0  # a later player's move passes those before
    assert list(awaited.moves()) == game.legal_moves(0) and awaited.count(2) == len(game.legal_moves(2))
    assert [p for p, _ in awaited.every_move()] == sorted(p for p in (0, 1, 2) for _ in game.legal_moves(p))
    game.play(0, Pass())
    assert game.awaiting().players == (1, 2)  # type: ignore[union-attr]


def test_a_refused_move_leaves_the_answer_as_it_was() -> None:
    game = fresh()
    game.choose_role(0, "builder")
    before = game.awaiting()
    assert isinstance(before, MoveAwaited)
    players, moves = before.players, list(before.moves())  # read now: an answer's lists are read when asked
    with pytest.raises(RuleViolation):
        game.play(0, Build(building="residence"))  # 10 doubloons; Anna has 2
    after = game.awaiting()
    assert after == before and isinstance(after, MoveAwaited) and after.players == players and list(after.moves()) == moves


def test_a_mayor_phase_awaits_arrangements_counted_not_listed() -> None:
    game = fresh()
    game.choose_role(0, "mayor")
    awaited = game.awaiting()
    assert isinstance(awaited, ArrangementAwaited) and awaited.kind == "move"
    assert awaited.player == 0 and awaited.colonists == game.boards[0].colonists() and awaited.declinable == 1  # the privilege's colonist
    assert awaited.count() == sum(1 for _ in awaited.moves()) > 0
    assert game.awaiting(None, None) == awaited


def test_a_craftsman_awaits_the_extra_barrel_then_the_phase_ends() -> None:
    game = fresh()
    game.choose_role(0, "craftsman")  # nobody has a plant manned: nothing is produced, no extra to choose
    assert isinstance(game.awaiting(), PhaseOver)
    game = fresh()
    anna = game.boards[0]
    anna.buildings, anna.manned = {"indigo-plant": 1}, {"indigo": 1}
    game.boards[1].manned = {"corn": 1}
    game.choose_role(0, "craftsman")
    awaited = game.awaiting()
    assert isinstance(awaited, MoveAwaited) and awaited.players == (0,)  # the craftsman's decision alone
    assert [move.text(game.rules) for move in awaited.moves()] == ["extra none", "extra indigo"]
    game.play(0, next(move for move in awaited.moves() if move.text(game.rules) == "extra indigo"))
    assert isinstance(game.awaiting(), PhaseOver)


def test_a_settler_phase_awaits_the_new_row_once_every_turn_is_taken() -> None:
    game = fresh()
    game.choose_role(0, "settler")
    for p, tile in ((0, "coffee"), (1, "indigo"), (2, "sugar")):
        assert game.awaiting().player == p  # type: ignore[union-attr]
        game.play(p, next(m for m in game.legal_moves(p) if m.text(game.rules) == tile))
    awaited = game.awaiting()
    assert isinstance(awaited, DrawAwaited) and awaited.player == 0 and awaited.tiles == 4
    assert isinstance(game.awaiting(reveal=["corn", "sugar", "tobacco", "indigo"]), PhaseOver)  # the row written: the phase is over


def test_a_prospector_phase_has_no_decision() -> None:
    game = fresh(("Anna", "Ben", "Cleo", "Dara"))
    game.choose_role(0, "prospector")
    awaited = game.awaiting()
    assert isinstance(awaited, PhaseOver) and awaited.kind == "end"
    game.finish_phase()
    assert isinstance(game.awaiting(), RoleAwaited) and game.awaiting().player == 1  # type: ignore[union-attr]


def test_a_captain_phase_awaits_the_loads_then_each_keep_from_the_captain() -> None:
    text = (FIXTURES / "game-4p.yaml").read_text()
    record = read_log(text, "game-4p.yaml")
    kinds: set[str] = set()
    keeps_awaited = 0
    for step in replay_steps(record):
        phase = step.game.phase
        if step.kind == "move" and phase is not None and phase.role == "captain":
            awaited = step.game.awaiting()
            assert isinstance(awaited, MoveAwaited) and step.move is not None
            assert step.move.player in awaited.players  # the log's move is one the engine awaits
            kinds.add(type(step.move.move).__name__)
        if step.kind == "move" and step.move is step.phase.moves[-1] and step.phase.role == "captain":
            trial = step.game.clone()
            trial.play(step.move.player, step.move.move, step.move.guests)
            awaited = trial.awaiting(keep={})
            holders = [p for p in trial.phase.order if trial.boards[p].barrels()]  # type: ignore[union-attr]
            if isinstance(awaited, KeepAwaited):
                keeps_awaited += 1
                assert awaited.player == holders[0] and awaited.keeps()[-1].text(trial.rules) == "none"
                later = trial.awaiting(keep={holders[0]: awaited.keeps()[0]})
                assert later == (KeepAwaited(awaited.phase, holders[1]) if len(holders) > 1 else PhaseOver(awaited.phase))
    assert "Load" in kinds and keeps_awaited > 0


def test_a_finished_game_awaits_nothing() -> None:
    record = read_log((FIXTURES / "game-3p.yaml").read_text(), "game-3p.yaml")
    last = None
    for step in replay_steps(record):
        last = step.game
    assert last is not None and last.over and last.awaiting() is None


def test_a_full_trading_house_still_awaits_the_players_turns() -> None:
    """Once the trading house is full, the turns go on: a pass is still theirs to write (`next`
    offers it), a sale to one's own trading post too; random play writes those passes."""
    game = fresh()
    game.choose_role(0, "trader")
    game.trading_house = ["indigo", "sugar", "tobacco", "coffee"]
    awaited = game.awaiting()
    assert isinstance(awaited, MoveAwaited) and awaited.players == (0, 1, 2)
    assert all(list(awaited.moves(p)) == [Pass()] for p in awaited.players)
    with pytest.raises(RuleViolation):
        game.play(0, Sell(good="corn"))


@pytest.mark.parametrize("ruleset", ["base", "expansion-1", "1897"])
def test_random_play_makes_only_the_moves_the_engine_awaits(ruleset: str) -> None:
    """Every move of a random game is one of the awaited player's, written in turn order (no
    player left out where the engine awaits them: the log has a line for each decision)."""
    rules = load_ruleset(ruleset)
    for players in (3, 5):
        played = play(rules, players, seed=11)
        record = read_log(to_log(played, ruleset), "random.yaml")
        for step in replay_steps(record):
            if step.kind == "move" and step.move is not None:
                awaited = step.game.awaiting()
                assert isinstance(awaited, MoveAwaited)
                assert step.move.player in awaited.players, (step.move.location, awaited.players)
                if step.phase.role not in ("captain", "mayor"):  # a wharf's turn and the loader's are open together; a forced arrangement is left out
                    assert step.move.player == awaited.player, (step.move.location, awaited.players)
                assert step.game.accepts(step.move.player, step.move.move)
            if step.kind == "role":
                assert step.game.awaiting() == RoleAwaited(step.phase.chooser, tuple(step.game.role_choices()))
        assert played.game.over


def test_random_play_draws_no_row_for_a_settler_phase_that_ends_the_game() -> None:
    """The last face-up row is moot when the game ends with the settler phase: none is drawn
    (the engine awaits no draw there), though the stacks still hold tiles."""
    played = play(load_ruleset("base"), 3, 8)  # a game that ends with a settler phase
    last = played.entries[-1]
    assert last.role == "settler" and played.game.over and last.reveal is None
    assert sum(played.game.deck.values()) > 0


def test_a_captain_load_is_awaited_from_the_first_who_can_load() -> None:
    game = fresh()
    game.boards[1].goods = {"corn": 2}
    game.choose_role(0, "captain")
    awaited = game.awaiting()
    assert isinstance(awaited, MoveAwaited) and awaited.players == (1,)  # Anna holds nothing: Ben loads first
    assert all(isinstance(move, Load) for move in awaited.moves())
    game.play(1, next(awaited.moves()))
    assert isinstance(game.awaiting(), PhaseOver)  # Ben's barrels shipped: nobody holds any, nothing to keep
