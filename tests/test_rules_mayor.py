"""Mayor phase: the privilege colonist from the supply, the ship's colonists one at a time from the
mayor, free rearrangement, circles filled before San Juan, the arrangement written only when not
every circle can be filled, and the ship refilled from empty building circles (at least one per player).

Rules: the 2002 rulebook, "The Mayor"; docs/rule-decisions.md;
docs/formats/game-log.md (mayor move: the whole arrangement; omitted when every circle can be filled).
"""

from __future__ import annotations

from tests.conftest import (
    assert_error,
    assert_valid,
    board,
    check,
    corpus_prefix,
    extend,
    game_log,
    last_line_of,
    line_of,
    replayed,
)

# Round 1. Anna builds an indigo plant (3 circles), Ben and Cleo a small market each. In Ben's
# mayor phase Ben gets the privilege colonist and one from the ship; Cleo and Anna one each.
# Ben's 2 colonists fill both his circles (no arrangement needed); Cleo and Anna have 1 colonist
# for 2 and 4 circles and must say where it goes.


def round_1(cleo: str = "corn", anna: str = "indigo") -> str:
    moves = "".join(f"    - {who}: {what}\n" for who, what in (("Cleo", cleo), ("Anna", anna)) if what is not None)
    return (
        "# round 1: governor Anna\n"
        "- builder: Anna\n"
        "  moves:\n"
        "    - Anna: indigo plant for 2\n"
        "    - Ben: small market for 1\n"
        "    - Cleo: small market for 1\n"
        "- mayor: Ben\n" + ("  moves:\n" + moves if moves else "") + "- trader: Cleo\n"
    )


def test_privilege_comes_from_the_supply_and_the_ship_is_shared_one_by_one():
    text = game_log(round_1())
    assert_valid(check(text))
    game = replayed(text)
    assert [b.colonists() for b in game.boards] == [1, 2, 1]  # Anna, Ben (mayor: 1 + privilege), Cleo
    # supply 55: the privilege (1), then the refill: 3 empty circles on Anna's indigo plant and 1 on
    # Cleo's small market
    assert game.colonist_ship == 4
    assert game.colonist_supply == 55 - 1 - 4


def test_a_filled_board_needs_no_arrangement():
    game = replayed(game_log(round_1()))
    ben = board(game, "Ben")
    assert ben.manned == {"indigo": 1} and ben.buildings == {"small-market": 1} and ben.san_juan == 0


def test_empty_plantation_circles_do_not_count_for_the_refill():
    # Cleo mans her market and leaves her corn plantation empty: 3 empty building circles (Anna's
    # indigo plant), so the ship gets 3, not 4.
    text = game_log(round_1(cleo="small market"))
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Cleo").manned == {} and board(game, "Cleo").buildings == {"small-market": 1}
    assert game.colonist_ship == 3


def test_the_refill_is_at_least_one_colonist_per_player():
    text = game_log(round_1() + "# round 2: governor Ben\n- mayor: Ben\n  moves:\n    - Anna: indigo, indigo plant\n")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Anna").buildings == {"indigo-plant": 1}  # 2 circles of it stay empty
    assert game.colonist_ship == 3  # 2 empty building circles, but never fewer than 3 (players)


ROUND_2 = """
# round 2: governor Ben. 4 colonists on the ship: Ben (mayor) gets 2 and the privilege,
# Cleo 1, Anna 1
- mayor: Ben
  moves:
    - Anna: {anna}
"""


def round_2(anna: str) -> str:
    return game_log(round_1() + ROUND_2.format(anna=anna))


def test_with_more_colonists_than_players_the_mayor_side_gets_the_extra_ones():
    text = round_2("indigo, indigo plant")
    assert_valid(check(text))
    game = replayed(text)
    assert [b.colonists() for b in game.boards] == [2, 5, 2]
    assert board(game, "Ben").san_juan == 3  # his 2 circles are full: the rest waits in San Juan


def test_the_arrangement_must_account_for_every_colonist_the_player_has():
    text = round_2("indigo, indigo plant 2")  # Anna has 2 colonists, not 3
    report = check(text)
    assert_error(report, "mayor.colonist-count", last_line_of(text, "- Anna: indigo, indigo plant 2"))
    assert "2 colonists" in report.errors[0].message


def test_colonists_may_be_moved_freely_during_the_mayor_phase():
    text = round_2("indigo plant 2")  # the colonist on the indigo plantation moves to the building
    assert_valid(check(text))
    anna = board(replayed(text), "Anna")
    assert anna.manned == {} and anna.buildings == {"indigo-plant": 2} and anna.san_juan == 0


def test_colonists_may_not_wait_in_san_juan_while_a_circle_is_empty():
    text = round_2("indigo, san juan 1")
    report = check(text)
    assert_error(report, "mayor.empty-circle", last_line_of(text, "- Anna: indigo, san juan 1"))


def test_san_juan_alone_with_empty_circles_is_refused_too():
    text = game_log(round_1(anna="san juan 1"))
    assert_error(check(text), "mayor.empty-circle", line_of(text, "- Anna: san juan 1"))


def test_a_written_arrangement_is_accepted_when_there_was_no_choice():
    text = game_log(round_1().replace("- mayor: Ben\n  moves:\n", "- mayor: Ben\n  moves:\n    - Ben: indigo, small market\n"))
    assert_valid(check(text))


def test_a_written_arrangement_that_leaves_a_circle_empty_is_refused_even_without_a_choice():
    text = game_log(round_1().replace("- mayor: Ben\n  moves:\n", "- mayor: Ben\n  moves:\n    - Ben: indigo, san juan 1\n"))
    assert_error(check(text), "mayor.empty-circle", line_of(text, "- Ben: indigo, san juan 1"))


def test_a_missing_arrangement_is_reported_at_the_next_phase_when_there_was_a_choice():
    text = game_log(round_1(anna=None))  # type: ignore[arg-type]
    report = check(text)
    assert_error(report, "mayor.arrangement-missing", line_of(text, "- trader: Cleo"))
    assert "Anna" in report.errors[0].message


def test_a_log_stopping_before_a_needed_arrangement_is_in_progress():
    text = game_log(round_1(anna=None).replace("- trader: Cleo\n", ""))  # type: ignore[arg-type]
    report = check(text)
    assert_valid(report)
    assert report.complete is False and "Anna" in (report.waiting or "")


def test_an_arrangement_cannot_use_more_tiles_than_the_player_has():
    text = game_log(round_1(anna="indigo 2"))
    report = check(text)
    assert_error(report, "mayor.arrangement", line_of(text, "- Anna: indigo 2"))


def test_an_arrangement_cannot_use_a_building_the_player_does_not_have():
    text = game_log(round_1(anna="small market"))
    assert_error(check(text), "mayor.arrangement", line_of(text, "- Anna: small market"))


def test_an_arrangement_cannot_put_more_colonists_on_a_building_than_it_has_circles():
    text = round_2("indigo plant 4")
    assert_error(check(text), "mayor.arrangement", last_line_of(text, "- Anna: indigo plant 4"))


def test_moves_follow_clockwise_from_the_mayor():
    # Ben is mayor: Ben, Cleo, Anna. Once Cleo has placed, Ben's turn is over.
    text = game_log(round_1().replace("    - Anna: indigo\n", "    - Anna: indigo\n    - Ben: indigo, small market\n"))
    assert_error(check(text), "turn.not-your-turn", line_of(text, "- Ben: indigo, small market"))


# Round 22 of a three-player game: the colonist supply is empty, 3 colonists are on the ship.
EMPTY_SUPPLY = corpus_prefix("game-3p-2", 65)
ANA_16 = "corn 2, indigo 2, sugar, tobacco, coffee, quarry 2, small indigo plant, office, hacienda, large market, tobacco storage, city hall, small sugar mill"


def test_no_privilege_colonist_when_the_supply_is_empty():
    text = extend(EMPTY_SUPPLY, f"- mayor: Lena\n  moves:\n    - Ana: {ANA_16}\n")
    before = replayed(EMPTY_SUPPLY)
    assert before.colonist_supply == 0 and before.colonist_ship == 3
    assert_valid(check(text))
    game = replayed(text)
    for name in ("Lena", "Zora", "Ana"):  # one each from the ship; the mayor gets no extra one
        assert board(game, name).colonists() == board(before, name).colonists() + 1
    assert game.colonist_ship == 0


LENA = "corn 3, quarry 2, sugar 2, indigo, tobacco, small market, small sugar mill, small indigo plant, office, small warehouse, construction hut, large market, hacienda, university, san juan {}"


def test_without_the_privilege_the_mayor_cannot_claim_an_extra_colonist():
    # Lena had 21 colonists: 22 with the ship's one (18 placed, 4 in San Juan), not 23.
    ok = extend(EMPTY_SUPPLY, f"- mayor: Lena\n  moves:\n    - Lena: {LENA.format(4)}\n    - Ana: {ANA_16}\n")
    assert_valid(check(ok))
    bad = extend(EMPTY_SUPPLY, f"- mayor: Lena\n  moves:\n    - Lena: {LENA.format(5)}\n    - Ana: {ANA_16}\n")
    report = check(bad)
    assert_error(report, "mayor.colonist-count", last_line_of(bad, "san juan 5"))
    assert "22 colonists" in report.errors[0].message


# --- the privilege is optional (docs/formats/game-log.md, version 3) --------------------------------
# In round 1 Ben, the mayor, has 2 colonists (the privilege's and one from the ship) for his indigo
# plantation and small market. An arrangement of one colonist says he declined the privilege: that
# colonist stays in the supply (the 2002 rulebook: the privilege comes from the supply, never the
# ship). Left out, his arrangement fills both circles: the privilege taken.


def round_1_with_ben(ben: str) -> str:
    return game_log(round_1().replace("- mayor: Ben\n  moves:\n", f"- mayor: Ben\n  moves:\n    - Ben: {ben}\n"))


def test_the_mayor_may_decline_the_privilege_and_the_colonist_stays_in_the_supply():
    text = round_1_with_ben("indigo")
    assert_valid(check(text))
    game = replayed(text)
    ben = board(game, "Ben")
    assert ben.colonists() == 1 and ben.manned == {"indigo": 1} and ben.buildings == {"small-market": 0}
    # the refill: Anna's indigo plant (3), Cleo's and Ben's small markets (1 each); the declined
    # colonist was never taken from the supply's 55
    assert game.colonist_ship == 5
    assert game.colonist_supply == 55 - 5


def test_left_out_the_mayor_takes_the_privilege():
    game = replayed(game_log(round_1()))
    assert board(game, "Ben").colonists() == 2
    assert game.colonist_supply == 55 - 1 - 4


def test_a_declined_privilege_still_fills_every_circle_that_can_be_filled():
    text = round_1_with_ben("san juan 1")  # 1 colonist, 2 empty circles
    assert_error(check(text), "mayor.empty-circle", line_of(text, "- Ben: san juan 1"))


def test_only_the_mayor_may_hold_a_colonist_fewer():
    text = game_log(round_1(cleo="san juan 0"))  # Cleo has 1 colonist, from the ship: she has no privilege to decline
    report = check(text)
    assert_error(report, "mayor.colonist-count", line_of(text, "- Cleo: san juan 0"))
    assert report.errors[0].message.startswith("Cleo has 1 colonist; the arrangement accounts for 0")


def ben_in_round_2(ben: str) -> str:
    return game_log(round_1() + ROUND_2.format(anna="indigo, indigo plant").replace("  moves:\n    - Anna:", f"  moves:\n    - Ben: {ben}\n    - Anna:"))


def test_the_mayor_declines_one_colonist_not_two():
    # round 2: Ben (mayor) has 5 colonists, the privilege's among them; 4 is the privilege declined
    declined = ben_in_round_2("indigo, small market, san juan 2")
    assert_valid(check(declined))
    assert board(replayed(declined), "Ben").colonists() == 4
    two_fewer = ben_in_round_2("indigo, small market, san juan 1")
    report = check(two_fewer)
    assert_error(report, "mayor.colonist-count", last_line_of(two_fewer, "- Ben: indigo, small market, san juan 1"))
    assert "Ben has 5 colonists; the arrangement accounts for 3 (2 placed, 1 in San Juan), not 5 (or 4, the privilege's colonist declined)" in report.errors[0].message


def test_without_a_privilege_colonist_there_is_none_to_decline():
    # the supply is empty: Lena received no privilege colonist, so 21 of her 22 is one too few
    text = extend(EMPTY_SUPPLY, f"- mayor: Lena\n  moves:\n    - Lena: {LENA.format(3)}\n    - Ana: {ANA_16}\n")
    report = check(text)
    assert_error(report, "mayor.colonist-count", last_line_of(text, "san juan 3"))
    assert "declining" not in report.errors[0].message


def test_the_legal_moves_list_the_arrangements_of_the_privilege_declined_once_each():
    from referee.documents.log import read_log
    from referee.engine import legal
    from referee.engine.game import Game
    from referee.jobs.replays import replay_steps

    text = round_1_with_ben("indigo")
    step = next(s for s in replay_steps(read_log(text, "game.yaml")) if s.kind == "move" and s.phase.role == "mayor")
    game: Game = step.game
    ben, cleo = 1, 2
    moves = [m.text(game.rules) for m in legal.legal_moves(game, ben)]
    assert moves == ["indigo, small market", "indigo", "small market"]  # taken, then declined
    assert legal.count_moves(game, ben) == 3 == len(set(moves))
    assert all(legal.accepts(game, ben, m) for m in legal.legal_moves(game, ben))
    assert [m.text(game.rules) for m in legal.legal_moves(game, cleo)] == ["corn", "small market"]  # no privilege: no decline
