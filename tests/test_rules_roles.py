"""Role choice: clockwise from the governor, one role per player and per round, the roles in play,
doubloons on unchosen roles (and the `doubloons:` key), the governor passing left, the prospector.

Rules: the 2002 rulebook, "Gameplay", "The Role Cards", "The Prospectors", "A new round";
docs/formats/game-log.md (phase key `doubloons`).
"""

from __future__ import annotations

from tests.conftest import assert_error, assert_valid, board, check, game_log, line_of, replayed

FOUR = ("Anna", "Ben", "Cleo", "Dan")
FOUR_ROW = ("indigo", "sugar", "corn", "coffee", "tobacco")
FIVE = ("Anna", "Ben", "Cleo", "Dan", "Eve")
FIVE_ROW = ("indigo", "sugar", "corn", "coffee", "tobacco", "sugar")

# Three rounds in which nobody can do anything: no goods, no colonists placed, no money to spend.
ROUND_1 = """
# round 1: governor Anna
- trader: Anna
- builder: Ben
- captain: Cleo
"""
ROUND_2 = """
# round 2: governor Ben
- trader: Ben
- builder: Cleo
- captain: Anna
"""
ROUND_3 = """
# round 3: governor Cleo
- trader: Cleo
- builder: Anna
- captain: Ben
"""


# --- order of choice ---------------------------------------------------------------------------


def test_roles_are_chosen_clockwise_from_the_governor():
    report = check(game_log(ROUND_1))
    assert_valid(report)
    assert report.complete is False
    assert report.waiting is not None and "Ben chooses a role" in report.waiting


def test_a_player_choosing_before_their_turn_is_refused():
    text = game_log(
        """
        - trader: Anna
        - builder: Cleo
        """
    )
    report = check(text)
    assert_error(report, "role.not-your-turn", line_of(text, "- builder: Cleo"))
    assert "Ben's turn" in report.errors[0].message


def test_a_player_cannot_choose_a_second_role_in_the_same_round():
    text = game_log(
        """
        - trader: Anna
        - builder: Anna
        """
    )
    assert_error(check(text), "role.not-your-turn", line_of(text, "- builder: Anna"))


def test_a_role_already_taken_this_round_is_refused_and_the_free_roles_are_named():
    text = game_log(
        """
        - trader: Anna
        - trader: Ben
        """
    )
    report = check(text)
    assert_error(report, "role.taken", line_of(text, "- trader: Ben"))
    message = report.errors[0].message
    assert "Anna" in message
    for free in ("settler", "mayor", "builder", "craftsman", "captain"):
        assert free in message
    assert "trader or" not in message and ", trader" not in message


def test_a_role_taken_last_round_may_be_taken_again():
    text = game_log(ROUND_1 + "- trader: Ben\n")
    assert_valid(check(text))


# --- roles in play -------------------------------------------------------------------------------


def test_there_is_no_prospector_with_three_players():
    text = game_log("- prospector: Anna\n")
    report = check(text)
    assert_error(report, "role.not-in-play", line_of(text, "- prospector: Anna"))
    assert "settler" in report.errors[0].message


def test_the_prospector_gives_its_chooser_one_doubloon_with_four_players():
    text = game_log("- prospector: Anna\n", players=FOUR, plantations=FOUR_ROW)
    assert_valid(check(text))
    game = replayed(text)
    assert [b.doubloons for b in game.boards] == [4, 3, 3, 3]


def test_nobody_acts_in_a_prospector_phase():
    ok = game_log("- prospector: Anna\n  moves:\n    - Ben: pass\n", players=FOUR, plantations=FOUR_ROW)
    assert_valid(check(ok))
    bad = game_log("- prospector: Anna\n  moves:\n    - Ben: corn\n", players=FOUR, plantations=FOUR_ROW)
    assert_error(check(bad), "log.move", line_of(bad, "- Ben: corn"))


def test_an_unchosen_prospector_gains_a_doubloon_like_any_role():
    text = game_log(
        "- trader: Anna\n- builder: Ben\n- captain: Cleo\n- craftsman: Dan\n# round 2: governor Ben\n- prospector: Ben\n  doubloons: 1\n",
        players=FOUR,
        plantations=FOUR_ROW,
    )
    assert_valid(check(text))
    assert board(replayed(text), "Ben").doubloons == 3 + 1 + 1  # the card's doubloon and the privilege


def test_four_players_cannot_take_the_prospector_twice_in_a_round():
    text = game_log("- prospector: Anna\n- prospector: Ben\n", players=FOUR, plantations=FOUR_ROW)
    assert_error(check(text), "role.taken", line_of(text, "- prospector: Ben"))


# --- doubloons on the role cards --------------------------------------------------------------------

THREE_ROUNDS_OF_MONEY = (
    ROUND_1
    + """
# round 2: governor Ben (settler, mayor, craftsman carry 1 doubloon each)
- mayor: Ben
  doubloons: 1
- craftsman: Cleo
  doubloons: 1
- trader: Anna
  doubloons: 0
# round 3: governor Cleo (settler carries 2 now; builder and captain 1)
- settler: Cleo
  doubloons: 2
  reveal: [tobacco, tobacco, tobacco, tobacco]
"""
)


def test_each_unchosen_role_gains_a_doubloon_per_round_and_its_chooser_takes_them():
    text = game_log(THREE_ROUNDS_OF_MONEY)
    assert_valid(check(text))
    game = replayed(text)
    # start 2 each; Ben +1 (mayor), Cleo +1 (craftsman) +2 (settler), Anna +0 (trader)
    assert [b.doubloons for b in game.boards] == [2, 3, 5]
    on_cards = {c.role: c.doubloons for c in game.role_cards}
    assert on_cards["settler"] == 0  # taken: its doubloons went to Cleo
    assert on_cards["builder"] == 1 and on_cards["captain"] == 1


def test_the_role_doubloons_are_taken_even_when_the_key_is_left_out():
    text = game_log(THREE_ROUNDS_OF_MONEY.replace("  doubloons: 2\n", ""))
    assert_valid(check(text))
    assert board(replayed(text), "Cleo").doubloons == 5


def test_a_wrong_doubloons_key_is_refused_at_that_key():
    text = game_log(THREE_ROUNDS_OF_MONEY.replace("doubloons: 2", "doubloons: 1"))
    report = check(text)
    line = line_of(text, "- settler: Cleo") + 1
    assert "doubloons: 1" in text.splitlines()[line - 1]
    assert_error(report, "role.doubloons", line)
    assert "2" in report.errors[0].message


def test_a_role_chosen_last_round_carries_no_doubloon():
    text = game_log(ROUND_1 + "- trader: Ben\n  doubloons: 1\n")
    assert_error(check(text), "role.doubloons", line_of(text, "doubloons: 1"))


FIVE_ROUND_1 = """
# round 1: governor Anna; one prospector taken, the other left (1 doubloon next round)
- prospector: Anna
- trader: Ben
- builder: Cleo
- captain: Dan
- craftsman: Eve
# round 2: governor Ben
"""


def test_with_two_prospectors_the_doubloons_key_says_which_card_was_taken():
    text = game_log(
        FIVE_ROUND_1 + "- prospector: Ben\n  doubloons: 0\n- prospector: Cleo\n  doubloons: 1\n",
        players=FIVE,
        plantations=FIVE_ROW,
    )
    assert_valid(check(text))
    game = replayed(text)
    # start 4 each; Anna +1; Ben +1 (empty card); Cleo +1 +1 (the card left in round 1)
    assert [b.doubloons for b in game.boards] == [5, 5, 6, 4, 4]


def test_with_two_prospectors_and_no_key_the_card_with_more_doubloons_is_taken():
    text = game_log(FIVE_ROUND_1 + "- prospector: Ben\n", players=FIVE, plantations=FIVE_ROW)
    assert_valid(check(text))
    assert board(replayed(text), "Ben").doubloons == 6


def test_with_two_prospectors_a_key_matching_neither_card_is_refused():
    text = game_log(FIVE_ROUND_1 + "- prospector: Ben\n  doubloons: 2\n", players=FIVE, plantations=FIVE_ROW)
    report = check(text)
    assert_error(report, "role.doubloons", line_of(text, "doubloons: 2"))
    assert "0 or 1" in report.errors[0].message or "1 or 0" in report.errors[0].message


def test_five_players_may_take_both_prospectors_but_not_a_third():
    text = game_log(
        FIVE_ROUND_1 + "- prospector: Ben\n- prospector: Cleo\n- prospector: Dan\n",
        players=FIVE,
        plantations=FIVE_ROW,
    )
    assert_error(check(text), "role.taken", line_of(text, "- prospector: Dan"))


# --- the governor ------------------------------------------------------------------------------------


def test_the_governor_passes_left_each_round_and_returns_after_three_rounds():
    text = game_log(ROUND_1 + ROUND_2 + ROUND_3 + "# round 4: governor Anna again\n- trader: Anna\n")
    report = check(text)
    assert_valid(report)
    assert report.waiting is not None and "governor Anna" in report.waiting and "Ben chooses" in report.waiting


def test_the_old_governor_cannot_open_the_next_round():
    text = game_log(ROUND_1 + "- trader: Anna\n")
    report = check(text)
    assert_error(report, "role.not-your-turn", line_of(text, "- trader: Anna", nth=2))
    assert "Ben's turn" in report.errors[0].message and "governor Ben" in report.errors[0].message


def test_in_round_two_the_old_governor_chooses_last():
    text = game_log(ROUND_1 + "- trader: Ben\n- builder: Anna\n")
    report = check(text)
    assert_error(report, "role.not-your-turn", line_of(text, "- builder: Anna"))
    assert "Cleo's turn" in report.errors[0].message
