"""A log may stop anywhere: it is then a game in progress, valid as far as it goes, and the
report says whose decision is awaited.

Rules: docs/formats/game-log.md ("A log may stop anywhere: it is then a game in progress, validated as
far as it goes"), section 4 (exit code 0, "a game in progress is valid so far, and says so").
"""

from __future__ import annotations

import pytest

from tests.conftest import CORPUS, after_two_rounds, assert_error, assert_valid, check, corpus_prefix, game_log, line_of

EMPTY = "ruleset: base\nplayers: [Anna, Ben, Cleo]\nsetup:\n  plantations: [indigo, sugar, corn, coffee]\nphases: []\n"


def test_a_log_without_phases_waits_for_the_governor():
    report = check(EMPTY)
    assert_valid(report)
    assert report.complete is False and report.exit_code == 0
    assert report.waiting == "round 1, governor Anna: Anna chooses a role (settler, mayor, builder, craftsman, trader or captain)"
    assert report.scores is None


def test_between_phases_the_next_chooser_and_the_free_roles_are_named():
    report = check(game_log("- builder: Anna\n  moves:\n    - Anna: small market for 0\n    - Ben: pass\n    - Cleo: pass\n"))
    assert_valid(report)
    assert report.waiting == "round 1, governor Anna: Ben chooses a role (settler, mayor, craftsman, trader or captain)"


def test_a_log_that_stops_inside_a_phase_names_the_next_decision_there():
    # docs/formats/game-log.md: a player who does not act may be left out of `moves`, and a log may stop
    # anywhere: a last phase with players left out is either stopped there or over. Both are said.
    text = game_log("- builder: Anna\n  moves:\n    - Anna: small market for 0\n    - Ben: pass\n")
    report = check(text)
    assert_valid(report)
    assert report.complete is False
    assert report.waiting == (
        "the builder phase: Cleo may build (2 doubloons) (or, if the moves left out are passes: "
        "round 1, governor Anna: Ben chooses a role (settler, mayor, craftsman, trader or captain))"
    )


def test_players_who_cannot_act_are_not_waited_for():
    # A trader phase in round 1: nobody holds a barrel, so nobody can sell and nobody is waited for.
    report = check(game_log("- trader: Anna\n"))
    assert_valid(report)
    assert report.waiting == "round 1, governor Anna: Ben chooses a role (settler, mayor, builder, craftsman or captain)"


def test_a_game_in_progress_still_stops_at_an_illegal_move():
    text = game_log("- builder: Anna\n  moves:\n    - Anna: small market for 1\n")
    report = check(text)
    assert_error(report, "builder.price", line_of(text, "- Anna: small market for 1"))
    assert report.exit_code == 1 and report.waiting is None


def test_a_game_in_progress_is_scored_only_when_asked():
    text = game_log("- builder: Anna\n  moves:\n    - Anna: small market for 0\n")
    assert check(text).scores is None
    scores = check(text, provisional=True).scores
    assert scores is not None and [s.buildings for s in scores] == [1, 0, 0]


def test_a_result_is_not_checked_before_the_game_is_complete():
    text = game_log("- builder: Anna\n") + "result: {Anna: 50, Ben: 40, Cleo: 30}\n"
    report = check(text)
    assert_valid(report)
    assert report.complete is False


def test_a_log_stopping_in_a_captain_phase_names_who_must_load():
    # Round 10 of a three-player game: Priya's captain phase, all ships empty, Priya has 4 indigo.
    text = corpus_prefix("game-3p-3", 28) + "  - captain: Priya\n"
    report = check(text)
    assert_valid(report)
    assert report.complete is False
    assert report.waiting is not None and "Priya can load 4 indigo" in report.waiting


@pytest.mark.parametrize("game,phases", [("game-3p-1", 10), ("game-3p-1", 45), ("game-4p-2", 60), ("game-5p-3", 30), ("game-5p-4", 79)])
def test_a_corpus_game_cut_after_any_phase_is_valid_and_in_progress(game, phases):
    report = check(corpus_prefix(game, phases))
    assert_valid(report)
    assert report.complete is False
    assert report.waiting is not None and "chooses a role" in report.waiting


def test_the_complete_corpus_game_is_not_in_progress():
    report = check((CORPUS / "game-5p-4.yaml").read_text())
    assert_valid(report)
    assert report.complete is True and report.waiting is None


def test_a_move_written_before_an_earlier_players_names_the_order_of_the_lines():
    text = game_log("- settler: Anna\n  moves:\n    - Anna: quarry\n    - Cleo: corn\n    - Ben: coffee\n")
    report = check(text)
    assert_error(report, "turn.not-your-turn", line_of(text, "- Ben: coffee"))
    assert report.errors[0].message == (
        "Ben's move is written after Cleo's, but Ben's turn comes first (in the settler phase each player moves once, clockwise from Anna: "
        "Anna, Ben, Cleo); a player left out of the moves passes, so Cleo's move passed Ben: write Ben's move before Cleo's"
    )
    fixed = game_log("- settler: Anna\n  moves:\n    - Anna: quarry\n    - Ben: coffee\n    - Cleo: corn\n")
    assert_valid(check(fixed))


def test_a_second_move_of_a_player_is_still_named_as_such():
    text = game_log("- settler: Anna\n  moves:\n    - Anna: quarry\n    - Ben: coffee\n    - Ben: corn\n")
    report = check(text)
    assert_error(report, "turn.not-your-turn", line_of(text, "- Ben: corn"))
    assert report.errors[0].message.startswith("Ben has had their turn: in the settler phase each player moves once, clockwise from Anna (Anna, Ben, Cleo); next is Cleo")


def test_an_unknown_key_in_a_phase_is_named_as_such_not_as_a_second_role():
    text = game_log("- settler: Anna\n  note: fast\n- mayor: Ben\n  revael: [corn]\n")
    report = check(text)
    assert [(d.rule, d.message) for d in report.errors] == [
        ("log.phase", "unknown key 'note' in a phase entry (a phase has its role, then moves, reveal, keep or doubloons)"),
        ("log.phase", "unknown key 'revael' in a phase entry (did you mean 'reveal'?)"),
    ]
    two = check(game_log("- settler: Anna\n  mayor: Ben\n"))
    assert two.errors[0].message == "a phase entry takes one role; this one has 2: settler, mayor"


# --- issue 28, rulings 3 to 5: where a log that stops is read as a phase over -----------------------


def test_a_log_ending_with_a_settlers_reveal_has_ended_that_phase():
    # ruling 3: the reveal is drawn at the end of the phase, so Ben and Cleo, left out, passed
    text = game_log("- settler: Anna\n  moves:\n    - Anna: quarry\n  reveal: [corn, sugar, tobacco, indigo]\n")
    report = check(text)
    assert_valid(report)
    assert report.waiting == "round 1, governor Anna: Ben chooses a role (mayor, builder, craftsman, trader or captain)"


def test_a_log_stopping_inside_a_settler_phase_before_its_reveal_waits_for_ben_then_the_reveal():
    report = check(game_log("- settler: Anna\n  moves:\n    - Anna: quarry\n"))
    assert_valid(report)
    assert report.waiting == (
        "the settler phase: Ben may take a plantation (indigo, sugar, corn and coffee); "
        "then the settler phase needs a 'reveal' key: the new face-up row of 4 plantations"
    )


def test_a_log_cut_where_every_player_left_can_only_pass_reads_the_phase_as_over():
    # ruling 4: round 2 of a corpus game, a trader phase in which nobody holds a barrel: once
    # Ximena has passed, Chen and Quentin can only pass, so there is one reading
    report = check(corpus_prefix("game-3p-1", 4) + "  - trader: Ximena\n    moves:\n      - Ximena: pass\n")
    assert_valid(report)
    assert report.waiting == "round 2, governor Quentin: Chen chooses a role (settler, mayor, craftsman or captain)"


def test_a_log_cut_where_a_player_left_could_still_act_gives_both_readings():
    # ruling 4's other side: Anna sold her indigo; Ben can only pass (the trading house holds
    # indigo), Cleo may sell her corn, so the log may stop inside the phase or after it
    report = check(after_two_rounds("trader", "Anna: indigo"))
    assert_valid(report)
    assert report.waiting == (
        "the trader phase: Cleo may sell corn (or, if the moves left out are passes: "
        "round 3, governor Cleo: Cleo chooses a role (settler, mayor, builder, craftsman, trader or captain))"
    )


FIVE_PLAYERS = (CORPUS / "game-5p-1.yaml").read_text()
PASSES_WRITTEN = "      - Rafael: office for 2\n      - Quentin: pass\n      - Yara: pass\n      - Jade: pass\n      - Sofia: pass\n"


def test_a_last_phase_that_leaves_players_out_ends_a_complete_game():
    # ruling 5: the game ends with this builder phase; the four players left out passed
    written, left_out = check(FIVE_PLAYERS), check(FIVE_PLAYERS.replace(PASSES_WRITTEN, "      - Rafael: office for 2\n"))
    assert_valid(left_out)
    assert left_out.complete is True and left_out.waiting is None
    assert left_out.scores is not None and written.scores is not None
    assert [(s.player, s.total) for s in left_out.scores] == [(s.player, s.total) for s in written.scores]


def test_a_last_phase_that_leaves_out_a_decision_the_rules_require_is_not_a_complete_game():
    # ruling 5's other side: Oskar's last load is left out, but he can load, so the captain phase
    # (and the game) cannot have ended: a game in progress, waiting for the load
    text = (CORPUS / "game-5p-4.yaml").read_text().replace("      - Oskar: 1 corn on 7\n    keep: {Oskar: corn, Greta: indigo, Mira: indigo, Priya: indigo}\n", "")
    report = check(text)
    assert_valid(report)
    assert report.complete is False and report.scores is None
    assert report.waiting == "the captain phase cannot end while someone can load on a cargo ship: Oskar can load 1 corn on the 7-ship"
