"""`referee next` and its decision (docs/formats/commands.md): at every prefix of real games, the
step the game really took next is among the decision's moves (or, where a player was left out,
their pass is), offered moves appended give valid logs, and bad logs are answered as `validate`
answers them."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.commands.cli import app
from referee.documents.log import GameRecord, read_log
from referee.documents.write import PhaseText, write_log
from referee.documents.write_board import board_state
from referee.engine.game import Game
from referee.jobs.check import check_log
from referee.jobs.decisions import NextReport, next_decision, open_game
from referee.moves.clauses import AnyMove, Keep, Pass, parse_keep, parse_move, split_guests
from referee.render.decision import decision_json, next_object

from .conftest import CORPUS, FIXTURES, check, game_log

GAMES = sorted([*FIXTURES.glob("game-*.yaml"), *FIXTURES.glob("*/*game*.yaml"), *CORPUS.glob("game-*.yaml")])


@dataclass(frozen=True)
class Step:
    """One step of a logged game: a role chosen, a move, a reveal, a keep entry."""

    kind: str  # role, move, draw, keep
    phase: int  # index of the phase entry
    player: int | None = None
    text: str = ""
    move: AnyMove | None = None
    guests: tuple[str, ...] = ()


def steps(record: GameRecord) -> Iterator[Step]:
    """Every step of `record`, in the order the game took them."""
    rules = record.rules
    for index, entry in enumerate(record.phases):
        yield Step("role", index, entry.chooser, rules.name(entry.role))
        for move in entry.moves:
            yield Step("move", index, move.player, move.move.text(rules), move.move, move.guests)
        if entry.reveal is not None:
            yield Step("draw", index, None, str(len(entry.reveal)))
        for p, keep in (entry.keep or {}).items():
            yield Step("keep", index, p, keep.text(rules), keep)


def prefix_phases(record: GameRecord, upto: list[Step]) -> list[PhaseText]:
    """The phases of `record` holding only the steps `upto` (a prefix of `steps(record)`)."""
    phases: list[PhaseText] = []
    for step in upto:
        if step.kind == "role":
            entry = record.phases[step.phase]
            assert step.player is not None
            phases.append(PhaseText(role=entry.role, chooser=step.player, moves=[], doubloons=entry.doubloons))
        elif step.kind == "move":
            assert step.player is not None and step.move is not None
            phases[-1].moves = [*phases[-1].moves, (step.player, step.move, step.guests)]
        elif step.kind == "draw":
            phases[-1].reveal = record.phases[step.phase].reveal
        else:
            assert step.player is not None and isinstance(step.move, Keep)
            phases[-1].keep = {**phases[-1].keep, step.player: step.move}
    return phases


def prefix_text(record: GameRecord, upto: list[Step], ruleset: str) -> str:
    """The log of `record` holding only the steps `upto`."""
    return write_log(record.rules, ruleset, record.players, record.plantations, prefix_phases(record, upto), record.buildings)


def with_step(record: GameRecord, ruleset: str, decision: dict, move: str) -> str:
    """The log `record` with one of the decision's moves appended where docs/formats/commands.md says: a
    role as a new phase, a move at the end of the phase's moves, a keep in its `keep`."""
    rules = record.rules
    player = record.players.index(decision["player"])
    phases = prefix_phases(record, list(steps(record)))
    if decision["kind"] == "role":
        role = next(r.id for r in rules.model.roles if rules.name(r.id) == move)
        phases.append(PhaseText(role=role, chooser=player, moves=[]))
    elif decision["kind"] == "keep":
        phases[-1].keep = {**phases[-1].keep, player: parse_keep(move, rules)}
    else:
        guests, rest = split_guests(move, rules)  # a guest house's clauses first, then the move (the guests alone: a pass)
        phases[-1].moves = [*phases[-1].moves, (player, parse_move(phases[-1].role, rest, rules) if rest else Pass(), guests)]
    return write_log(rules, ruleset, record.players, record.plantations, phases, record.buildings)


def game_before(record: GameRecord) -> Game:
    return open_game(record)


def equivalent(game: Game, role: str, player: int, real: AnyMove | Keep, listed: list[str], keep: bool) -> bool:
    """Is the real step (a move or keep of `player`) the same as one of the listed texts: the same
    move, or one that leaves the game in the same state (a price written or not, another order)?"""
    rules = game.rules
    parsed = [parse_keep(text, rules) if keep else parse_move(role, text, rules) for text in listed]
    if real in parsed:
        return True
    after = _after(game, player, real, keep)
    return any(_after(game, player, move, keep) == after for move in parsed)


def _after(game: Game, player: int, move: AnyMove | Keep, keep: bool) -> dict:
    trial = game.clone()
    if keep:
        assert isinstance(move, Keep)
        others = {p: k for p, k in _best_keeps(trial).items() if p != player}
        trial.finish_phase(keep={**others, player: move})
    else:
        trial.play(player, move)  # type: ignore[arg-type]
    return board_state(trial)


def _best_keeps(game: Game) -> dict[int, Keep]:
    from referee.engine import legal

    return {p: legal.keeps(game, p)[0] for p in range(game.n)}


def left_out(game: Game, role: str, decider: int | None, decision: dict) -> bool:
    """Is what a log leaves out of the decider's decision among its moves: a move's pass, or the
    keep the rules make (the most barrels, where there is one way only)?"""
    from referee.engine import legal

    if decider is None:
        return False
    if decision["kind"] == "move":
        return equivalent(game, role, decider, Pass(), decision["moves"], False)
    implicit = legal.keeps(game, decider)
    return decision["kind"] == "keep" and len(implicit) == 1 and equivalent(game, role, decider, implicit[0], decision["moves"], True)


def check_prefixes(path: Path, every: int = 1, appended: int = 3) -> int:
    """Walk every prefix of the game at `path`; return how many were checked."""
    text = path.read_text()
    record = read_log(text, path.name, None, path.parent)
    ruleset = record.rules.id
    all_steps = list(steps(record))
    rng = random.Random(path.name)
    checked = 0
    for k in range(0, len(all_steps), every):
        upto = all_steps[:k]
        prefix = prefix_text(record, upto, ruleset)
        run = next_decision(prefix, "prefix.yaml")
        assert run.report.errors == [], (path.name, k, run.report.errors)
        # the game ends in `next` only when nobody has a decision left in its last round: every
        # step the log still writes is offered first (all but a last face-up row nobody takes from)
        if run.report.complete:
            assert all(step.kind == "draw" and step.phase == len(record.phases) - 1 for step in all_steps[k:]), (path.name, k, all_steps[k])
            assert run.decision is None and run.report.scores is not None
            break
        decision = run.decision
        assert decision is not None, (path.name, k, "a game in progress waits for a decision")
        step = all_steps[k]
        d = decision_json(decision)
        where = (path.name, k, step, d["player"], d["kind"], (d["moves"] or [])[:5])
        prefix_record = read_log(prefix, "prefix.yaml")
        game = game_before(prefix_record)
        role = prefix_record.phases[-1].role if prefix_record.phases else ""
        decider = record.players.index(d["player"]) if d["player"] is not None else None
        if step.kind == "role":
            if d["kind"] == "role":
                assert d["player"] == record.players[step.player], where  # type: ignore[index]
                assert step.text in d["moves"], where
            else:  # the phase's last players were left out: the decider's pass (or the keep the rules make)
                assert left_out(game, role, decider, d), where
        elif step.kind == "move" and step.guests:
            pass  # guest house moves are not listed (docs/next.md)
        elif step.kind == "move":
            assert d["kind"] == "move", where
            assert decider is not None
            if decider == step.player:
                assert step.move is not None and equivalent(game, role, decider, step.move, d["moves"], False), where
            else:
                assert equivalent(game, role, decider, Pass(), d["moves"], False), where
        elif step.kind == "draw":
            if d["kind"] == "draw":
                assert d["draw"] == {"key": "reveal", "tiles": int(step.text)}, where
            else:
                assert left_out(game, role, decider, d), where
        else:
            later = [other.player for other in all_steps[k:] if other.kind == "keep" and other.phase == step.phase]
            if d["kind"] == "keep" and decider == step.player:
                assert step.move is not None and equivalent(game, role, decider, step.move, d["moves"], True), where
            elif d["kind"] == "keep" and decider in later:
                pass  # the keep entries are a mapping: the log writes the decider's later (they are asked first from the captain)
            else:  # a wharf owner let their turn go, or an earlier player's keep was left out
                assert left_out(game, role, decider, d), where
        # offered moves appended give valid logs: `referee validate`'s verdict (check_log, without
        # the next decision after it, which is two thirds of next_decision's time)
        offered = d["moves"] or []
        for move in rng.sample(offered, min(appended, len(offered))):
            extended = with_step(prefix_record, ruleset, d, move)
            errors = check_log(extended, "extended.yaml").errors
            assert errors == [], (where, move, errors)
        checked += 1
    final = next_decision(text, path.name)
    assert final.report.errors == []
    recorded = check_log(text, path.name)
    if final.report.complete:
        assert final.decision is None and final.report.scores is not None and recorded.complete
    else:
        assert final.decision is not None
        assert final.complete_if_passes == recorded.complete  # validate's reading, beside next's
    if recorded.complete:  # what the log leaves out, played as `next` offers it, ends the game with the scores it had
        ended, appended = played_out(text)
        assert ended.report.complete and recorded.scores is not None and ended.report.scores is not None
        assert [s.total for s in ended.report.scores] == [s.total for s in recorded.scores], path.name
        assert (appended > 0) == final.complete_if_passes
    return checked


def left_out_move(decision: dict) -> str:
    """What a log that leaves the decider out of their decision means: a pass; for a keep, the
    most barrels (written first); a craftsman's extra, taken; a forced move, made."""
    moves = decision["moves"]
    if "pass" in moves:
        return "pass"
    if decision["kind"] == "keep" or len(moves) == 1:
        return moves[0]
    assert decision["phase"] == "craftsman", decision
    return next(move for move in moves if move != "extra none")


def played_out(text: str) -> tuple[NextReport, int]:
    """The log with every decision `next` still asks of it answered as the log leaves it out
    (`left_out_move`), each appended log valid; the last answer, and how many were appended."""
    appended = 0
    run = next_decision(text, "log.yaml")
    while run.decision is not None:
        assert appended < 50, "the game does not end"
        record = read_log(text, "log.yaml")
        decision = decision_json(run.decision)
        text = with_step(record, record.rules.id, decision, left_out_move(decision))
        run = next_decision(text, "log.yaml")
        assert run.report.errors == [], (decision, run.report.errors)
        appended += 1
    return run, appended


@pytest.mark.parametrize("path", GAMES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_prefix_of_a_real_game_waits_for_the_step_it_took(path: Path) -> None:
    corpus = path.is_relative_to(CORPUS)
    assert check_prefixes(path, every=3 if corpus else 1, appended=1 if corpus else 3) > 10


def test_random_games_of_every_ruleset_and_player_count(tmp_path: Path) -> None:
    from referee.jobs.play import play, to_log
    from referee.rulesets.load import load_ruleset

    for ruleset in ("base", "expansion-1", "1897"):
        rules = load_ruleset(ruleset)
        for players in sorted(rules.model.player_counts):
            log = to_log(play(rules, players, seed=players), ruleset)
            path = tmp_path / f"referee-next-{ruleset}-{players}.yaml"
            path.write_text(log)
            assert check_prefixes(path, every=7, appended=2) > 10


# --- the contract's shapes -------------------------------------------------------------


def test_a_role_choice_lists_the_roles_open() -> None:
    run = next_decision((FIXTURES / "formats-log.yaml").read_bytes(), "formats-log.yaml")
    assert run.decision is not None
    assert decision_json(run.decision) == {
        "player": "Ben",
        "phase": None,
        "kind": "role",
        "moves": ["settler", "mayor", "builder", "craftsman", "trader", "captain"],
    }


def test_a_builder_lists_pass_and_each_building_with_its_price() -> None:
    text = game_log("""
        - builder: Anna
          moves:
            - Anna: small market
    """)
    decision = _decision(text)
    assert decision["player"] == "Ben" and decision["phase"] == "builder" and decision["kind"] == "move"
    assert decision["moves"][0] == "pass"
    assert "small market for 1" in decision["moves"]  # Ben pays the full price of 1, written
    assert "harbor for 8" not in decision["moves"]  # he has 2 doubloons


def test_a_settler_phase_whose_turns_are_over_waits_for_the_new_row() -> None:
    text = game_log("""
        - settler: Anna
          moves:
            - Anna: quarry
            - Ben: coffee
            - Cleo: indigo
    """)
    decision = _decision(text)
    assert decision == {"player": "Anna", "phase": "settler", "kind": "draw", "moves": None, "draw": {"key": "reveal", "tiles": 4}}


def test_a_settler_phase_with_its_row_written_is_over() -> None:
    text = game_log("""
        - settler: Anna
          moves:
            - Anna: quarry
          reveal: [corn, sugar, tobacco, indigo]
    """)
    assert _decision(text)["kind"] == "role"


def test_a_complete_game_waits_for_nothing_and_has_its_scores() -> None:
    ended, _ = played_out((FIXTURES / "game-3p.yaml").read_text())
    obj = next_object(ended)
    assert obj["decision"] is None and obj["complete"] is True and "complete_if_passes" not in obj
    assert [s["total"] for s in sorted(obj["scores"], key=lambda s: s["rank"])] == [44, 41, 40]


NEXT_CASES = FIXTURES / "next-cases"


def test_the_last_phase_of_a_game_whose_end_has_come_is_still_played() -> None:
    """Issue 39, A: the colonists ran out in round 16 and Cleo has just chosen the builder, the
    round's last role: Cleo, Ana and Ben each still build or pass, and Ana's residence wins."""
    path = NEXT_CASES / "A1-last-phase-base.yaml"
    assert check_log(path.read_text(), path.name).complete  # validate: a recorded game, the players left out passed
    obj = _json(["next", "--format", "json", str(path)], 0)
    assert obj["complete"] is False and obj["complete_if_passes"] is True and obj["scores"] is None
    assert obj["decision"]["player"] == "Cleo" and obj["decision"]["phase"] == "builder" and "residence for 8" in obj["decision"]["moves"]
    assert "(or, if the moves left out are passes: the game is over after round 16, because the colonist ship could not be refilled)" in obj["waiting"]
    record = read_log(path.read_text(), path.name)
    after_cleo = with_step(record, "base", obj["decision"], "pass")
    ana = next_object(next_decision(after_cleo, "a1.yaml"))
    assert ana["decision"]["player"] == "Ana" and "residence for 6" in ana["decision"]["moves"] and ana["complete_if_passes"] is True
    after_ana = with_step(read_log(after_cleo, "a1.yaml"), "base", ana["decision"], "residence for 6")
    ben = next_object(next_decision(after_ana, "a1.yaml"))
    assert ben["decision"]["player"] == "Ben" and ben["decision"]["moves"][0] == "pass"
    ended = next_object(next_decision(with_step(read_log(after_ana, "a1.yaml"), "base", ben["decision"], "pass"), "a1.yaml"))
    assert ended["complete"] is True and ended["decision"] is None and "complete_if_passes" not in ended
    assert next(s for s in ended["scores"] if s["rank"] == 1)["player"] == "Ana"
    assert _json(["validate", "--format", "json", str(NEXT_CASES / "A1-last-phase-base-played.yaml")], 0)["scores"][0]["player"] == "Ana"


def test_a_game_ending_in_round_two_is_played_to_the_end_of_its_round() -> None:
    """Issue 39, A2: 5 colonists in the supply; the game ends in round 2, but Ana still builds."""
    result = CliRunner().invoke(app, ["next", str(NEXT_CASES / "A2-last-phase-small.yaml")])
    assert result.exit_code == 0
    assert "valid so far, game in progress (6 moves); next: the builder phase: Ana may build" in result.output
    assert "Ana's move in the builder phase" in result.output and "  harbor for 7\n" in result.output


def test_a_finished_game_says_so(tmp_path: Path) -> None:
    played = NEXT_CASES / "A2-last-phase-small-played.yaml"
    path = tmp_path / "finished.yaml"
    path.write_text(played.read_text() + "      - Ben: pass\n      - Cleo: pass\n")
    (tmp_path / "few-colonists.yaml").write_text((NEXT_CASES / "few-colonists.yaml").read_text())
    result = CliRunner().invoke(app, ["next", str(path)])
    assert result.exit_code == 0 and result.output.strip().endswith("valid, complete game (9 moves); winner: Ana with 3 VP; scores: Ana 3, Cleo 0, Ben 0"), result.output
    early = CliRunner().invoke(app, ["next", str(played)])  # Ben and Cleo have not built yet
    assert "game in progress (7 moves)" in early.output and "Ben's move in the builder phase" in early.output


def test_a_wharf_owner_who_let_their_turn_go_is_not_asked_again() -> None:
    """Issue 39, B: Ana passed with only her wharf to use, and nobody can load a cargo ship: the
    loading is over, the next decision is her keep; her wharf is no longer accepted."""
    path = NEXT_CASES / "B-wharf-pass-reasked.yaml"
    decision = _json(["next", "--format", "json", str(path)], 0)["decision"]
    assert decision == {"player": "Ana", "phase": "captain", "kind": "keep", "moves": ["corn", "none"]}
    for after in ("B-wharf-pass-then-keep.yaml", "B-wharf-pass-then-next-phase.yaml"):
        assert _json(["validate", "--format", "json", str(NEXT_CASES / after)], 0)["valid"] is True
    text = path.read_text().rstrip("\n") + "\n      - Ana: wharf corn\n"
    report = check_log(text, "b.yaml")
    assert [d.rule for d in report.errors] == ["captain.loading-over"] and report.errors[0].location.line == len(text.splitlines())
    assert "Ana let her turn go" not in report.errors[0].message and report.errors[0].message.startswith("Ana let their turn go and nobody has loaded since")


@pytest.mark.parametrize(("case", "clause", "rule"), [("C1-university-no-colonist", "university", "builder.no-colonist"), ("C2-hospice-no-colonist", "hospice", "settler.no-colonist")])
def test_no_clause_for_a_colonist_that_cannot_come(case: str, clause: str, rule: str) -> None:
    """Issue 39, C: supply and ship are empty; "if there are also none there, you go without"."""
    decision = _json(["next", "--format", "json", str(NEXT_CASES / f"{case}.yaml")], 0)["decision"]
    assert decision["moves"] and not any(clause in move for move in decision["moves"])
    played = _json(["validate", "--format", "json", str(NEXT_CASES / f"{case}-played.yaml")], 1)
    assert [e["rule"] for e in played["errors"]] == [rule]
    assert "no colonist is left in the supply or on the colonist ship" in played["errors"][0]["message"]


def test_the_craftsmans_decline_is_listed_once() -> None:
    """Issue 39, E: `pass` and `extra none` are one move; it is listed as the log writes it, and
    leaving the move out takes the extra."""
    path = NEXT_CASES / "E-craftsman-pass.yaml"
    decision = _json(["next", "--format", "json", str(path)], 0)["decision"]
    assert decision["moves"] == ["extra none", "extra corn"]
    record = read_log(path.read_text(), path.name)
    corn = {}
    for move in ("extra none", "pass", "extra corn"):  # `pass` is still accepted, and is the decline
        state = next_object(next_decision(with_step(record, "base", decision, move), "e.yaml"))["state"]
        corn[move] = next(p for p in state["players"] if p["name"] == "Cleo")["goods"].get("corn", 0)
    assert corn == {"extra none": 1, "pass": 1, "extra corn": 2}
    assert next(p for p in next_object(next_decision(path.read_text(), "e.yaml"))["state"]["players"] if p["name"] == "Cleo")["goods"] == {"corn": 1}


def test_a_sale_carries_its_income_and_the_log_accepts_it() -> None:
    text = game_log("""
        - mayor: Anna
        - craftsman: Ben
        - trader: Cleo
    """)
    decision = _decision(text)  # Cleo's corn, occupied in the mayor phase, made one barrel
    assert decision["player"] == "Cleo" and decision["moves"] == ["pass", "corn for 1"]  # price 0, the trader's privilege +1
    record = read_log(text, "game.yaml")
    sold = next_object(next_decision(with_step(record, "base", decision, "corn for 1"), "game.yaml"))
    assert sold["valid"] is True and sold["state"]["players"][2]["doubloons"] == 2 + 1
    wrong = check_log(text + "    moves:\n      - Cleo: corn for 2\n", "game.yaml")
    assert [d.rule for d in wrong.errors] == ["trader.income"] and "Cleo receives 1 for corn (price 0, trader +1), not 2" in wrong.errors[0].message


def test_a_broken_log_is_answered_as_validate_answers_it(tmp_path: Path) -> None:
    text = game_log("""
        - builder: Anna
          moves:
            - Anna: harbor
    """)
    path = tmp_path / "referee-next-broken.yaml"
    path.write_text(text)
    nxt = _json(["next", "--format", "json", str(path)], 1)
    validate = _json(["validate", "--format", "json", str(path)], 1)
    assert nxt["decision"] is None and nxt["errors"] == validate["errors"] and nxt["errors"][0]["rule"] == "builder.cannot-afford"


def test_an_unreadable_log_is_exit_2_with_its_read_errors(tmp_path: Path) -> None:
    path = tmp_path / "referee-next-unreadable.yaml"
    path.write_text("ruleset: base\nplayers: [Anna, Ben, Cleo]\nsetup: {plantations: [indigo]}\nphases:\n  - buildr: Anna\n")
    obj = _json(["next", "--format", "json", str(path)], 2)
    assert obj["valid"] is False and obj["decision"] is None and "did you mean" in obj["errors"][0]["message"]


def test_text_output_says_who_decides_and_lists_the_moves() -> None:
    result = CliRunner().invoke(app, ["next", str(FIXTURES / "formats-log.yaml")])
    assert result.exit_code == 0
    assert "Ben chooses a role (6 legal moves):\n  settler\n" in result.output


def test_the_state_shows_the_boards_and_the_history_the_rounds() -> None:
    run = next_decision((FIXTURES / "formats-log.yaml").read_bytes(), "formats-log.yaml")
    obj = next_object(run)
    state = obj["state"]
    anna = state["players"][0]
    assert anna["name"] == "Anna" and {"tile": "quarry", "tiles": 1, "occupied": 1, "circles": 1} in anna["island"]
    assert state["governor"] == "Ben" and state["round"] == 2
    assert [entry["round"] for entry in obj["history"]] == [0, 1]


def test_the_history_of_a_finished_game_ends_with_its_scores_and_says_why_it_ended() -> None:
    """Each round's row holds every part of the VP (chips, buildings, bonus) were the game to end
    there: the last row is the final score; the object says why and when the game ended."""
    obj = next_object(next_decision((FIXTURES / "game-5p.yaml").read_bytes(), "game-5p.yaml"))
    assert obj["complete"] and obj["decision"] is None
    last = obj["history"][-1]["players"]
    assert {s["player"]: (s["chips"], s["buildings"], s["bonus"], s["total"]) for s in obj["scores"]} == {
        name: (row["vp"], row["buildings"], row["bonus"], row["total"]) for name, row in last.items()
    }
    assert any(row["bonus"] > 0 for row in last.values())  # a large building's bonus counted in the round it ends with
    assert obj["end"] == "round 14, because a player filled their city"
    assert all(row["total"] == row["vp"] + row["buildings"] + row["bonus"] for entry in obj["history"] for row in entry["players"].values())


def _decision(text: str) -> dict:
    run: NextReport = next_decision(text, "game.yaml")
    assert run.report.errors == [], run.report.errors
    assert run.decision is not None
    return decision_json(run.decision)


def _json(args: list[str], code: int) -> dict:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == code, result.output
    return json.loads(result.output)


def test_the_log_comes_back_as_json_that_is_itself_a_log_and_as_canonical_text() -> None:
    path = CORPUS / "game-4p-1.yaml"
    record = read_log(path.read_text(), path.name)
    cut = prefix_text(record, list(steps(record))[:150], "base")
    obj = next_object(next_decision(cut, "cut.yaml"))
    again = next_object(next_decision(json.dumps(obj["log"]), "again.json"))
    assert again["decision"] == obj["decision"] and again["state"] == obj["state"]
    assert obj["canonical"] == cut.replace("phases: []", "phases: []")


def test_a_captain_phase_carries_its_shipping_position_from_its_start() -> None:
    from referee.commands.ship import ship_object
    from referee.documents.inputs import Input

    path = FIXTURES / "game-4p.yaml"
    record = read_log(path.read_text(), path.name)
    all_steps = list(steps(record))
    captain = next(i for i, step in enumerate(all_steps) if step.kind == "role" and step.text == "captain" and all_steps[i + 1].kind == "move")
    inside = next_object(next_decision(prefix_text(record, all_steps[: captain + 2], "base"), "cut.yaml"))
    assert inside["decision"]["phase"] == "captain" and inside["position"] is not None
    chooser = record.players[all_steps[captain].player]  # type: ignore[index]
    assert inside["position"].splitlines()[4].startswith(f"  - {{name: {chooser},")  # the captain first
    answer, code = ship_object(Input(inside["position"].encode(), "position.yaml", None))
    assert code == 0 and answer["players"][chooser]["vp"]["best"] >= 1
    roles = [
        next_object(next_decision(prefix_text(record, all_steps[:i], "base"), "cut.yaml")) for i, step in enumerate(all_steps[:120]) if step.kind == "role"
    ]
    offered = [obj for obj in roles if obj["decision"]["kind"] == "role"]
    assert offered and all((obj["position"] is not None) == ("captain" in obj["decision"]["moves"]) for obj in offered)
    assert any(obj["position"] is None for obj in offered) and any(obj["position"] is not None for obj in offered)


def test_a_limit_lists_the_first_moves_and_counts_them_all() -> None:
    path = CORPUS / "game-4p-2.yaml"
    record = read_log(path.read_text(), path.name)
    cut = prefix_text(record, list(steps(record))[:357], "base")  # a mayor's arrangements: over a hundred thousand
    full = next_decision(cut, "cut.yaml").decision
    short = next_decision(cut, "cut.yaml", limit=50).decision
    assert full is not None and short is not None and full.moves is not None and short.moves is not None
    assert len(full.moves) > 100_000 and decision_json(full).get("truncated") is None
    assert short.moves == full.moves[:50] and decision_json(short)["truncated"] is True and decision_json(short)["count"] == len(full.moves)
    assert short.default in full.moves


def test_a_mayor_with_a_library_may_decline_both_privilege_colonists() -> None:
    import random as chance

    from referee.documents.log_records import PhaseRecord
    from referee.jobs.decisions import decide
    from referee.jobs.play import _selection
    from referee.rulesets.load import load_ruleset

    rules = load_ruleset("expansion-1")
    library = next(b.id for b in rules.buildings if b.effect is not None and b.effect.id == "privilege.double")
    selection = next(chosen for seed in range(200) if library in (chosen := _selection(rules, chance.Random(seed)) or []))
    game = Game(rules, ["Anna", "Ben", "Cleo"], ["corn", "indigo", "sugar", "coffee"], selection)
    anna = game.boards[0]
    anna.buildings = {library: 1, "small-market": 0}
    anna.island = {"indigo": 1, "corn": 2}
    game.choose_role(0, "mayor")
    entry = PhaseRecord("mayor", 0, None, (), None, None, None, {}, None, None)  # type: ignore[arg-type]
    decision = decide(game, entry)
    assert decision is not None and decision.player == "Anna" and decision.declinable == 2
    held = {sum(int(part.rsplit(" ", 1)[1]) if part.rsplit(" ", 1)[-1].isdigit() else 1 for part in move.split(", ")) for move in decision.moves or []}
    assert decision.colonists is not None and {decision.colonists, decision.colonists - 1, decision.colonists - 2} <= held
    assert decision_json(decision)["declinable"] == 2


def test_a_keep_lists_every_storage_the_rules_accept_the_most_first():
    """Keeping fewer barrels than the rules allow is legal (corpus game 3p-2's Lena keeps one of
    two sugars where her warehouse could keep both): whoever holds barrels chooses, from the most
    down to none, and each listed keep appended gives a valid log."""
    path = CORPUS / "game-3p-2.yaml"
    record = read_log(path.read_text(), path.name)
    all_steps = list(steps(record))
    k = next(i for i, step in enumerate(all_steps) if step.kind == "keep")
    cut = prefix_text(record, all_steps[:k], "base")
    decision = next_decision(cut, "cut.yaml").decision
    assert decision is not None and decision.kind == "keep" and decision.moves is not None
    assert decision.moves[-1] == "none" and len(decision.moves) == len(set(decision.moves)) >= 2
    cut_record = read_log(cut, "cut.yaml")
    for move in decision.moves:
        appended = next_decision(with_step(cut_record, "base", decision_json(decision), move), "kept.yaml")
        assert appended.report.errors == [], (move, appended.report.errors)


def test_no_two_offered_moves_give_the_same_state() -> None:
    """Issue 39, 4: one move, one entry. Over random games of every ruleset and player count, at
    every few steps, each move `next` offers leaves the boards in a state no other offered move
    leaves them in (a mayor's arrangements, which may number thousands, up to 300 of them)."""
    from referee.jobs.play import play, to_log
    from referee.rulesets.load import load_ruleset

    compared = 0
    for ruleset in ("base", "expansion-1", "1897"):
        rules = load_ruleset(ruleset)
        for players in sorted(rules.model.player_counts):
            record = read_log(to_log(play(rules, players, seed=100 + players), ruleset), "random.yaml")
            all_steps = list(steps(record))
            for k in range(0, len(all_steps), 5):
                prefix = read_log(prefix_text(record, all_steps[:k], ruleset), "prefix.yaml")
                decision = next_decision(prefix_text(record, all_steps[:k], ruleset), "prefix.yaml", limit=300).decision
                if decision is None or decision.kind not in ("move", "keep") or not decision.moves or len(decision.moves) < 2:
                    continue
                game = game_before(prefix)
                role = prefix.phases[-1].role
                player = record.players.index(decision.player)  # type: ignore[arg-type]
                keep = decision.kind == "keep"
                seen: dict[str, str] = {}
                for text in decision.moves:
                    move = parse_keep(text, rules) if keep else parse_move(role, text, rules)
                    after = json.dumps(_after(game, player, move, keep), sort_keys=True)
                    assert after not in seen, (ruleset, players, k, decision.player, seen.get(after), text)
                    seen[after] = text
                    compared += 1
    assert compared > 2000


def test_a_keep_may_hold_part_of_a_kind_in_a_warehouse() -> None:
    """Reproducer D: Dan holds 4 corn and an occupied small warehouse; keeping fewer is legal
    (docs/rule-decisions.md), written `corn 3`, `corn 2`, and each appended log is valid."""
    path = NEXT_CASES / "D-keep-part-of-a-kind.yaml"
    decision = _json(["next", "--format", "json", str(path)], 0)["decision"]
    assert decision == {"player": "Dan", "phase": "captain", "kind": "keep", "moves": ["corn all", "corn 3", "corn 2", "corn", "none"]}
    record = read_log(path.read_text(), path.name)
    for move in decision["moves"]:
        assert check_log(with_step(record, "base", decision, move), "d.yaml").errors == []


def _before_guest_quarry() -> str:
    """fixtures/expansion-1/game-3p.yaml just before Mateo's `guest quarry, factory for 6`."""
    path = FIXTURES / "expansion-1" / "game-3p.yaml"
    record = read_log(path.read_text(), path.name, None, path.parent)
    every = list(steps(record))
    index = next(i for i, step in enumerate(every) if step.guests == ("quarry",) and step.text == "factory for 6")
    return prefix_text(record, every[:index], record.rules.id)


def test_a_guest_house_decision_says_where_its_colonists_may_go_and_lists_the_moves_after_them() -> None:
    text = _before_guest_quarry()
    plain = _decision(text)
    assert plain["player"] == "Mateo" and plain["guests"] == {"colonists": 1, "places": ["black market", "quarry"]}
    assert not any(m.startswith("factory") for m in plain["moves"])  # 7 doubloons: out of his reach
    run = next_decision(text, "game.yaml", guests=["quarry"])
    after = decision_json(run.decision) if run.decision else {}
    assert after["guests"]["chosen"] == ["quarry"] and "guest quarry, factory for 6" in after["moves"]  # the quarry's doubloon counted
    assert all(move.startswith("guest quarry") for move in after["moves"]) and "guest quarry" in after["moves"]  # the guest alone: a pass
    for move in ("guest quarry, factory for 6", "guest quarry"):
        assert check(with_step(read_log(text, "game.yaml"), "expansion-1", after, move)).errors == []  # every move listed is legal


@pytest.mark.parametrize(
    ("guests", "rule", "words"),
    [(["harbor"], "guest.place", "Mateo has no Harbor"), (["quarry", "quarry"], "guest.count", "has 1 colonist to move, not 2"), (["the moon"], "guest.place", "moon")],
)
def test_a_guest_sent_where_none_may_go_is_refused_with_its_rule(guests: list[str], rule: str, words: str) -> None:
    run = next_decision(_before_guest_quarry(), "game.yaml", guests=guests)
    assert [d.rule for d in run.report.errors] == [rule] and words in run.report.errors[0].message and run.decision is None


def test_a_player_without_guests_is_offered_none() -> None:
    decision = _decision((FIXTURES / "game-4p.yaml").read_text())
    assert "guests" not in decision
