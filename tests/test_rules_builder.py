"""Builder phase: the builder's privilege, occupied quarries capped by the building's column, one
building per player and phase, no duplicates, the copies left, 12 city spaces (large buildings take
2), the university's colonist and the written price.

Rules: the 2002 rulebook, "The Builder", "Quarry", "University", "Things to know about Buildings";
docs/formats/game-log.md (builder move, `for N` checked).
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


def builder(*moves: str) -> str:
    """Round 1, Anna's builder phase (everyone has 2 doubloons)."""
    return game_log("- builder: Anna\n  moves:\n" + "".join(f"    - {m}\n" for m in moves))


# --- price and privilege -----------------------------------------------------------------------------


def test_the_builder_pays_one_less_and_the_others_full_price():
    text = builder("Anna: small market for 0", "Ben: small market for 1", "Cleo: small indigo plant for 1")
    assert_valid(check(text))
    game = replayed(text)
    assert [b.doubloons for b in game.boards] == [2, 1, 1]
    assert board(game, "Anna").buildings == {"small-market": 0}  # built, not occupied


def test_a_price_written_without_the_privilege_discount_is_refused_for_the_builder():
    text = builder("Anna: hacienda for 2")
    report = check(text)
    assert_error(report, "builder.price", line_of(text, "- Anna: hacienda for 2"))
    assert "costs Anna 1" in report.errors[0].message


def test_only_the_builder_gets_the_discount():
    text = builder("Anna: pass", "Ben: hacienda for 1")
    report = check(text)
    assert_error(report, "builder.price", line_of(text, "- Ben: hacienda for 1"))
    assert "costs Ben 2" in report.errors[0].message


def test_a_builder_who_does_not_build_gets_nothing_for_the_privilege():
    text = builder("Anna: pass")
    assert_valid(check(text))
    assert board(replayed(text), "Anna").doubloons == 2


def test_a_player_cannot_build_what_they_cannot_pay():
    ok = builder("Anna: small warehouse for 2")  # 3 - 1 for the builder
    assert_valid(check(ok))
    text = builder("Anna: pass", "Ben: small warehouse")  # 3 for Ben, who has 2
    report = check(text)
    assert_error(report, "builder.cannot-afford", line_of(text, "- Ben: small warehouse"))
    assert "3" in report.errors[0].message


# --- one building each, no duplicates, copies ------------------------------------------------------------


def test_each_player_builds_at_most_one_building_per_phase():
    text = builder("Anna: small market for 0", "Anna: small indigo plant")
    assert_error(check(text), "turn.not-your-turn", line_of(text, "- Anna: small indigo plant"))


def test_a_player_never_builds_a_second_copy_of_a_building():
    text = game_log(
        "- builder: Anna\n  moves:\n    - Anna: small indigo plant for 0\n"
        "- trader: Ben\n- captain: Cleo\n"
        "# round 2: governor Ben\n"
        "- builder: Ben\n  moves:\n    - Ben: pass\n    - Cleo: pass\n    - Anna: small indigo plant\n"
    )
    report = check(text)
    assert_error(report, "builder.duplicate", line_of(text, "- Anna: small indigo plant", nth=2))


def test_no_more_copies_than_the_game_has():
    text = builder("Anna: small market for 0", "Ben: small market for 1", "Cleo: small market")
    report = check(text)
    assert_error(report, "builder.none-left", line_of(text, "- Cleo: small market"))
    assert "2" in report.errors[0].message


def test_the_discount_never_makes_a_price_negative():
    # Anna takes a quarry as settler and mans it; in round 2 she is the builder: a small market
    # (cost 1) minus 1 quarry minus 1 privilege costs 0, not -1.
    text = game_log(
        "- settler: Anna\n  moves:\n    - Anna: quarry\n  reveal: [corn, sugar, tobacco, indigo]\n"
        "- mayor: Ben\n  moves:\n    - Anna: quarry\n"
        "- trader: Cleo\n"
        "# round 2: governor Ben\n"
        "- trader: Ben\n- captain: Cleo\n"
        "- builder: Anna\n  moves:\n    - Anna: small market for 0\n"
    )
    assert_valid(check(text))
    assert board(replayed(text), "Anna").doubloons == 2 + 1  # the builder card carried 1 doubloon


# --- quarries capped by the column (round 29 of a four-player game) -------------------------------------
# Priya has 5 occupied quarries, an occupied university and 3 doubloons; Dita (governor) 4 doubloons,
# Elif 5 doubloons and 1 occupied quarry, 11 of her 12 city spaces built.

LATE = corpus_prefix("game-4p-2", 112)


def late_builder(*moves: str) -> str:
    return extend(LATE, "- builder: Dita\n  moves:\n" + "".join(f"    - {m}\n" for m in moves))


def test_quarries_count_at_most_the_buildings_column():
    # Large market: cost 5, column 2 -> 3 with 5 quarries; indigo plant: cost 3, column 2 -> 1.
    text = late_builder("Dita: pass", "Elif: pass", "Nils: pass", "Priya: large market for 3")
    assert_valid(check(text))
    assert board(replayed(text), "Priya").doubloons == 0
    text = late_builder("Dita: pass", "Elif: pass", "Nils: pass", "Priya: indigo plant for 1")
    assert_valid(check(text))


def test_a_price_using_more_quarries_than_the_column_allows_is_refused():
    text = late_builder("Dita: pass", "Elif: pass", "Nils: pass", "Priya: large market for 0")
    report = check(text)
    assert_error(report, "builder.price", last_line_of(text, "- Priya: large market for 0"))
    assert "costs Priya 3" in report.errors[0].message


def test_column_three_and_four_caps_shown_by_what_priya_cannot_afford():
    text = late_builder("Dita: pass", "Elif: pass", "Nils: pass", "Priya: harbor")
    report = check(text)
    assert_error(report, "builder.cannot-afford", last_line_of(text, "- Priya: harbor"))
    assert "costs them 5" in report.errors[0].message  # 8 - 3 quarries
    text = late_builder("Dita: pass", "Elif: pass", "Nils: pass", "Priya: city hall")
    report = check(text)
    assert "costs them 6" in report.errors[0].message  # 10 - 4 quarries


def test_one_occupied_quarry_and_the_builders_privilege_add_up():
    text = late_builder("Dita: office for 4", "Elif: hospice for 3")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Dita").doubloons == 0 and board(game, "Elif").doubloons == 2


# --- the city: 12 spaces, large buildings take 2 --------------------------------------------------------


def test_a_large_building_needs_two_free_city_spaces():
    assert board(replayed(LATE), "Elif").city_used(replayed(LATE).rules) == 11
    text = late_builder("Dita: pass", "Elif: city hall")
    report = check(text)
    assert_error(report, "builder.city-full", last_line_of(text, "- Elif: city hall"))
    assert "1 free" in report.errors[0].message


def test_a_small_building_fills_the_last_city_space():
    text = late_builder("Dita: pass", "Elif: hospice for 3")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Elif").city_used(game.rules) == 12


# Round 28: Elif has 10 city spaces built and 11 doubloons; Nils is the builder.
TEN_SPACES = corpus_prefix("game-4p-2", 111)


def test_a_large_building_fits_in_the_last_two_spaces():
    text = extend(TEN_SPACES, "- builder: Nils\n  moves:\n    - Nils: pass\n    - Dita: pass\n    - Elif: city hall for 9\n")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Elif").city_used(game.rules) == 12 and "city-hall" in board(game, "Elif").buildings


# --- university ----------------------------------------------------------------------------------------


def test_university_puts_one_colonist_on_the_new_building_even_with_three_circles():
    before = replayed(LATE)
    text = late_builder("Dita: pass", "Elif: pass", "Nils: pass", "Priya: indigo plant for 1, university")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Priya").buildings["indigo-plant"] == 1
    assert game.colonist_supply == before.colonist_supply - 1


def test_without_an_occupied_university_no_colonist_comes_with_the_building():
    text = late_builder("Dita: office for 4, university")
    assert_error(check(text), "builder.university", last_line_of(text, "- Dita: office for 4, university"))


def test_without_the_university_clause_the_new_building_stays_empty():
    text = late_builder("Dita: pass", "Elif: pass", "Nils: pass", "Priya: indigo plant for 1")
    assert_valid(check(text))
    assert board(replayed(text), "Priya").buildings["indigo-plant"] == 0


# --- how a price is said (issue 28) ----------------------------------------------------------


def test_a_price_with_discounts_says_how_it_was_reached_counting_in_the_rulesets_plural():
    text = late_builder("Dita: pass", "Elif: pass", "Nils: pass", "Priya: large market for 0")
    message = check(text).errors[0].message
    assert "costs Priya 3 (cost 5, 2 quarries -2), not 0" in message
    assert "quarrys" not in message


def test_a_price_that_is_the_cost_is_said_once():
    message = check(builder("Anna: pass", "Ben: hacienda for 1")).errors[0].message
    assert message.startswith("the Hacienda costs Ben 2, not 1")
    assert "(cost 2)" not in message
    message = check(builder("Anna: pass", "Ben: large market")).errors[0].message
    assert message.startswith("Ben has 2 doubloons; the Large Market costs them 5 (legal here")
    assert "(cost 5)" not in message
    # the builder's own price is reached by the privilege: said
    assert "(cost 2, builder -1)" in check(builder("Anna: hacienda for 2")).errors[0].message


def test_a_university_clause_with_no_colonist_left_is_refused():
    """Supply and ship empty: the university brings nobody (docs/rule-decisions.md); the same
    build without the clause is accepted, and so is the clause while a colonist is left
    (`test_university_puts_one_colonist_on_the_new_building_even_with_three_circles`)."""
    from referee.jobs.check import check_log
    from tests.conftest import FIXTURES

    cases = FIXTURES / "next-cases"
    played = (cases / "C1-university-no-colonist-played.yaml").read_text()
    report = check_log(played, "c1.yaml", base_dir=cases)
    assert_error(report, "builder.no-colonist", last_line_of(played, "- Ana: harbor for 8, university"))
    assert "the University's colonist cannot come: the Harbor is built without one" in report.errors[0].message
    assert_valid(check_log(played.replace("- Ana: harbor for 8, university", "- Ana: harbor for 8"), "c1.yaml", base_dir=cases))
