"""`referee review`: every captain phase of a game against the shipping calculator.

The review's figures are checked against `referee ship` itself (the phase's start, and the
choices of the phase's first decision) and, decision by decision, against the plain exhaustive
search of the engine (`shipping_reference`): the VP each move made leaves its player sure of.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.documents.log import GameRecord, read_log
from referee.documents.position import read_position
from referee.documents.write import PhaseText, write_log
from referee.documents.write_position import captain_position, game_position
from referee.engine.game import Game
from referee.jobs.play import play, to_log
from referee.jobs.replays import replay_steps
from referee.jobs.review import Review, review_log, review_record
from referee.jobs.shipping import ship
from referee.moves.clauses import AnyMove
from referee.render.review import review_object, review_text
from referee.rulesets.load import load_ruleset
from tests.shipping_reference import plain_guaranteed
from tests.test_cli import run

ROOT = Path(__file__).parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = Path(__file__).parent / "corpus"
# random-play games with wharfs, small wharfs, lighthouses, union halls and libraries (test_shipping_games)
RANDOM = (*(("expansion-1", seed) for seed in (1, 2, 4, 6, 15, 45, 58)), ("1897-expansion-1", 4), ("base", 3), ("1897", 5))


def fixture_games() -> list[tuple[str, GameRecord]]:
    """The fixture games that play a captain phase."""
    paths = [*sorted(FIXTURES.glob("game-*.yaml")), *sorted((FIXTURES / "expansion-1").glob("*.yaml")), *sorted((FIXTURES / "1897").glob("*.yaml"))]
    games = [(path.name, read_log(path.read_text(), str(path))) for path in paths]
    return [(name, record) for name, record in games if any(entry.role == "captain" for entry in record.phases)]


def random_games() -> list[tuple[str, GameRecord]]:
    out = []
    for ruleset, seed in RANDOM:
        name = f"{ruleset}-{seed}.yaml"
        out.append((name, read_log(to_log(play(load_ruleset(ruleset), 3 + seed % 3, seed), ruleset), name)))
    return out


def corpus_games() -> list[tuple[str, GameRecord]]:
    return [(path.name, read_log(path.read_text(), path.name)) for path in sorted(CORPUS.glob("*.yaml"))]


def captain_positions(record: GameRecord) -> list[str]:
    """The shipping position at each captain phase's start, as `referee next` writes it there."""
    return [captain_position(step.game, step.phase.chooser) for step in replay_steps(record) if step.kind == "role" and step.phase.role == "captain"]


GAMES = [*fixture_games(), *corpus_games(), *random_games()]


@pytest.mark.parametrize(("name", "record"), GAMES, ids=[name for name, _ in GAMES])
def test_each_phases_figures_are_referee_ships_answer_for_the_position_at_its_start(name: str, record: GameRecord) -> None:
    review = review_record(record, name)
    positions = captain_positions(record)
    assert review.valid and len(review.phases) == len(positions) > 0
    for phase, text in zip(review.phases, positions, strict=True):
        position = read_position(text, name)
        answer = ship(position)
        for p, player in enumerate(position.players):
            figures = phase.players[player.name]
            assert (figures.guaranteed, figures.expected, figures.best) == (answer.vp[p].guaranteed, answer.vp[p].expected, answer.vp[p].best), (
                f"{name}, line {phase.line}"
            )
            assert figures.played <= figures.best, f"{name}, line {phase.line}: {player.name} played over their best"
        # the phase's first decision, where it is the expected play's first: `referee ship`'s choices, each valued so
        first = next((d for d in phase.decisions if d.kind != "keep"), None)
        if (
            first is not None
            and first.kind != "pass"
            and answer.choices is not None
            and answer.choices.at == 0
            and position.players[answer.choices.player].name == first.player
        ):
            values = {choice.move.text(position.rules): choice.expected for choice in answer.choices.moves if choice.move is not None}
            assert values[first.move] == first.expected, f"{name}, line {first.line}"
            assert first.best == answer.choices.moves[0].expected
            assert first.lost == first.best - first.expected


@pytest.mark.parametrize(("name", "record"), [*fixture_games(), *random_games()], ids=[name for name, _ in [*fixture_games(), *random_games()]])
def test_each_decision_leaves_its_player_the_vp_the_engines_exhaustive_search_guarantees(name: str, record: GameRecord) -> None:
    """Decision by decision, the VP the move made leaves its player sure of, whatever the others
    do, is the plain max-min over the engine's own tree after the phase's moves so far: the
    review follows the log through the calculator's states move for move."""
    review = review_record(record, name)
    game = Game(record.rules, record.players, record.plantations, record.buildings)
    phases = iter(review.phases)
    checked = 0
    for entry in record.phases:
        if entry.role == "captain":
            reviewed = next(phases)
            position = game_position(game, entry.chooser, name)
            made = [d for d in reviewed.decisions if d.kind != "keep"]
            n = game.n
            before: list[tuple[int, object]] = []
            assert len(made) == len(entry.moves) or reviewed.note is not None  # a guest moved: the rest is not valued
            for move, decision in zip(entry.moves[: len(made)], made, strict=True):
                assert decision.line == move.line
                before.append(((move.player - entry.chooser) % n, move.move))
                p = (move.player - entry.chooser) % n
                assert decision.guaranteed == plain_guaranteed(position, p, before), f"{name}, line {move.line}: {decision}"
                assert 0 <= decision.lost == decision.best - decision.expected
                assert decision.best_move == decision.move or decision.lost > 0 or decision.kind == "pass"
                checked += 1
        game.choose_role(entry.chooser, entry.role, entry.doubloons)
        for move in entry.moves:
            game.play(move.player, move.move, move.guests)
        game.finish_phase(entry.reveal, entry.keep)
    assert checked > 0


def _replaced(record: GameRecord, index: int, moves: list[tuple[int, AnyMove]]) -> str:
    """The log up to its phase `index`, whose moves are `moves` (seats): the rest left out."""
    phases = [
        PhaseText(e.role, e.chooser, [(m.player, m.move, m.guests) for m in e.moves], e.doubloons, e.reveal, dict(e.keep or {})) for e in record.phases[:index]
    ]
    entry = record.phases[index]
    phases.append(PhaseText(entry.role, entry.chooser, [(p, m, ()) for p, m in moves], entry.doubloons))
    return write_log(record.rules, record.rules.id, record.players, record.plantations, phases, record.buildings)


@pytest.mark.parametrize("name", ["game-4p.yaml", "game-5p.yaml", "game-3p.yaml"])
def test_a_phase_played_by_the_expected_play_loses_nothing_and_scores_the_expected_vp(name: str) -> None:
    record = read_log((FIXTURES / name).read_text(), name)
    positions = iter(captain_positions(record))
    done = 0
    for index, entry in enumerate(record.phases):
        if entry.role != "captain":
            continue
        position = read_position(next(positions), name)
        answer = ship(position)
        moves = [((entry.chooser + played.player) % len(record.players), played.move) for played in answer.moves]
        review = review_log(_replaced(record, index, moves), name)
        assert review.valid, review.report.errors
        phase = review.phases[-1]
        assert [d.lost for d in phase.decisions] == [0] * len(moves)
        assert {p: f.played for p, f in phase.players.items()} == {p.name: answer.vp[i].expected for i, p in enumerate(position.players)}
        done += 1
    assert done >= 3


def test_a_load_worse_than_another_shows_what_it_lost_and_the_better_move() -> None:
    review = review_log((FIXTURES / "game-4p.yaml").read_text(), "game-4p.yaml")
    decision = next(d for phase in review.phases for d in phase.decisions if d.line == 133)
    assert (decision.player, decision.move, decision.expected, decision.best_move, decision.best, decision.lost) == (
        "Dev",
        "3 corn on 5",
        4,
        "1 sugar on 5",
        5,
        1,
    )
    fine = next(d for phase in review.phases for d in phase.decisions if d.line == 134)
    assert (fine.lost, fine.best_move) == (0, fine.move)
    summary = review.summary()
    assert summary["Dev"].lost == 1 and summary["Dev"].worst == decision and summary["Dev"].worst_round == 6
    assert summary["Bruno"].lost == 0 and summary["Bruno"].worst is None


def test_a_keep_of_fewer_barrels_than_the_rules_allow_is_a_barrel_lost() -> None:
    record = read_log((FIXTURES / "game-4p.yaml").read_text(), "game-4p.yaml")
    review = review_record(record, "game-4p.yaml")
    keeps = [d for phase in review.phases for d in phase.decisions if d.kind == "keep"]
    assert keeps and all(d.barrels_lost == 0 and d.kept == d.best_kept for d in keeps)
    # the same log with a keep of nothing where a barrel could stay
    text = (FIXTURES / "game-4p.yaml").read_text().splitlines()
    first = keeps[0]
    line = text[first.line - 1]
    assert first.move.removeprefix("keep ") in line
    text[first.line - 1] = line.replace(first.move.removeprefix("keep "), "none", 1)
    changed = review_log("\n".join(text) + "\n", "game-4p.yaml")
    lost = next(d for phase in changed.phases for d in phase.decisions if d.line == first.line)
    assert (lost.kept, lost.best_kept, lost.barrels_lost, lost.best_move) == (0, first.best_kept, first.best_kept, first.move)
    assert changed.summary()[first.player].barrels_lost == first.best_kept


def test_a_broken_log_is_reviewed_up_to_its_error_and_exits_1() -> None:
    text = (FIXTURES / "game-4p.yaml").read_text().splitlines()
    text[132] = text[132].replace("3 corn on 5", "4 corn on 5")  # Dev holds 3
    review = review_log("\n".join(text) + "\n", "game-4p.yaml")
    assert not review.valid and review.exit_code == 1
    assert review.report.errors[0].location is not None and review.report.errors[0].location.line == 133
    assert [phase.line for phase in review.phases] == [50, 99, 130]
    assert review.phases[-1].decisions == ()  # walked up to the refused move


def test_review_on_the_command_line_text_json_and_exit_codes(tmp_path: Path) -> None:
    done = run("review", str(FIXTURES / "game-4p.yaml"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "9 captain phases reviewed" in lines[1]
    assert any(line.split()[:4] == ["286", "12", "Carla", "3"] for line in lines), done.stdout
    assert len(lines) <= 24  # a screen
    every = run("review", str(FIXTURES / "game-4p.yaml"), "--all")
    assert "round 6, line 130: Dev takes the captain" in every.stdout
    answer = json.loads(run("review", str(FIXTURES / "game-4p.yaml"), "--format", "json").stdout)
    assert answer["valid"] and answer["players"]["Dev"]["lost"] == 1
    phase = next(p for p in answer["phases"] if p["line"] == 130)
    assert phase["players"]["Dev"] == {"played": 4, "guaranteed": 4, "expected": 5, "best": 5, "lost": 1}
    assert phase["decisions"][0] == {
        "line": 133,
        "player": "Dev",
        "kind": "load",
        "move": "3 corn on 5",
        "expected": 4,
        "guaranteed": 4,
        "best_move": "1 sugar on 5",
        "best": 5,
        "lost": 1,
        "choices": 4,
    }
    broken = tmp_path / "broken.yaml"
    broken.write_text("ruleset: base\nplayers: [Ana]\n")
    refused = run("review", str(broken))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr + refused.stdout
    missing = run("review", str(tmp_path / "missing.yaml"))
    assert missing.returncode == 2 and missing.stdout.count("\n") == 1 and "no captain phase" not in missing.stdout  # the diagnostic alone


def test_the_review_object_is_the_documented_shape() -> None:
    review = review_log((FIXTURES / "game-5p.yaml").read_text(), "game-5p.yaml")
    obj = review_object(review)
    assert {"file", "valid", "phases", "players"} <= obj.keys()
    for phase in obj["phases"]:
        assert {"round", "line", "players", "decisions"} <= phase.keys()
        for figures in phase["players"].values():
            assert {"played", "guaranteed", "expected", "best"} <= figures.keys()
        for decision in phase["decisions"]:
            assert {"line", "player", "move", "expected", "best_move", "best", "lost"} <= decision.keys()
    assert all({"lost"} <= player.keys() for player in obj["players"].values())
    assert sum(p["lost"] for p in obj["players"].values()) == sum(d["lost"] for phase in obj["phases"] for d in phase["decisions"])


def test_a_review_says_so_when_a_log_has_no_captain_phase() -> None:
    text = (FIXTURES / "1897" / "expansion-game.yaml").read_text()
    review: Review = review_log(text, "empty.yaml")
    assert review.valid and review.phases == ()
    assert "no captain phase to review" in review_text(review)


def test_a_pass_that_ends_the_loading_for_a_wharf_owner_loses_what_the_wharf_would_ship() -> None:
    """Random games' wharf and small-wharf shipments, each written as `pass` instead (where the
    log stays valid): the best open at that moment is the same; a pass while nobody can load on
    a cargo ship ends the loading for its player (docs/rule-decisions.md) and loses what the
    wharf would ship; one while someone can still load loses nothing (the turn comes back)."""
    forfeited = free = 0
    for players, seed in ((3, 10), (3, 2)):
        text = to_log(play(load_ruleset("expansion-1"), players, seed), "expansion-1")
        review = review_log(text, "game.yaml")
        for decision in (d for phase in review.phases for d in phase.decisions if d.kind in ("wharf", "small wharf")):
            lines = text.splitlines()
            player, _ = lines[decision.line - 1].split(":", 1)
            lines[decision.line - 1] = f"{player}: pass"
            changed = review_log("\n".join(lines) + "\n", "game.yaml")
            passed = next((d for phase in changed.phases for d in phase.decisions if d.line == decision.line), None)
            if not changed.valid or passed is None:
                continue  # a player who must load may not pass, or the game after it went otherwise
            assert (passed.kind, passed.player, passed.best) == ("pass", decision.player, decision.best)
            assert passed.lost == passed.best - passed.expected >= 0
            if passed.lost:
                forfeited += 1
                assert passed.best_move != "pass" and passed.guaranteed == passed.expected  # nothing more comes to them
            else:
                free += 1
    assert forfeited >= 1 and free >= 1


def test_every_review_written_is_of_the_schemas_shape() -> None:
    from referee.render.review_model import ReviewModel

    texts = [(name, (FIXTURES / name).read_text()) for name in ("game-4p.yaml", "game-5p.yaml", "expansion-1/game-3p.yaml")]
    broken = texts[0][1].splitlines()
    broken[132] = broken[132].replace("3 corn on 5", "4 corn on 5")
    texts.append(("broken.yaml", "\n".join(broken) + "\n"))
    for name, text in texts:
        obj = review_object(review_log(text, name))
        ReviewModel.model_validate(obj)  # every key known (extra keys are refused), every value of its type
    with pytest.raises(ValueError):
        ReviewModel.model_validate({**obj, "phase": []})
    done = run("schema", "review")
    assert done.returncode == 0 and json.loads(done.stdout)["title"] == "Puerto Rico game review"


def test_the_position_the_review_takes_is_the_one_referee_next_writes() -> None:
    """`game_position` (the value, no text) is what `read_position` reads from `captain_position`."""
    compared = 0
    for name, record in [*fixture_games(), *random_games()]:
        for step in replay_steps(record):
            if step.kind == "role" and step.phase.role == "captain":
                value = game_position(step.game, step.phase.chooser, name)
                read = read_position(captain_position(step.game, step.phase.chooser), name)
                assert [(s.size, s.good, s.count) for s in value.ships] == [(s.size, s.good, s.count) for s in read.ships]
                assert [(p.name, p.goods, p.buildings) for p in value.players] == [(p.name, p.goods, p.buildings) for p in read.players]
                assert (value.rules.id, value.vp_left) == (read.rules.id, read.vp_left)
                compared += 1
    assert compared > 50
