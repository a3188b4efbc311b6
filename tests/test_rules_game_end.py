"""Game end: the colonist ship cannot be refilled, a 12th city space is built, the last VP chip is
taken (later VP still count); the round of the trigger is played out, then nothing more
(`game.over`); the written `result` is checked once the game is complete.

Rules: the 2002 rulebook, "How do you win?", "The Mayor" (things to note); docs/rule-decisions.md;
docs/formats/game-log.md (`result`), docs/formats/commands.md (diagnostics).
"""

from __future__ import annotations

from tests.conftest import (
    CORPUS,
    assert_error,
    assert_valid,
    board,
    check,
    corpus_prefix,
    extend,
    last_line_of,
    replayed,
)

# --- colonists -------------------------------------------------------------------------------------

# Round 22 of a three-player game: the colonist supply is empty, 3 colonists on the ship; Lena
# chooses the last role of the round.
EMPTY_SUPPLY = corpus_prefix("game-3p-2", 65)
ANA_16 = "corn 2, indigo 2, sugar, tobacco, coffee, quarry 2, small indigo plant, office, hacienda, large market, tobacco storage, city hall, small sugar mill"
LAST_MAYOR = extend(EMPTY_SUPPLY, f"- mayor: Lena\n  moves:\n    - Ana: {ANA_16}\n")


def test_a_mayor_phase_that_cannot_refill_the_ship_ends_the_game_with_the_round():
    report = check(LAST_MAYOR)
    assert_valid(report)
    assert report.complete is True
    assert "colonist" in (report.end or "") and "22" in (report.end or "")
    assert report.scores is not None and len(report.scores) == 3


def test_nothing_is_played_after_the_end():
    text = LAST_MAYOR + "  # round 23\n  - settler: Ana\n"
    report = check(text)
    assert_error(report, "game.over", last_line_of(text, "- settler: Ana"))
    assert "colonist" in report.errors[0].message


def test_the_same_phase_earlier_in_the_round_lets_the_round_finish():
    # The same game, round 20 of another: the mayor leaves the supply short (4 of the colonists
    # needed), the builder and captain phases of that round are still played, then the game ends.
    after_mayor = corpus_prefix("game-3p-1", 58)
    game = replayed(after_mayor)
    assert game.colonist_supply == 0 and game.colonist_ship == 4 and not game.over
    report = check(after_mayor)
    assert_valid(report)
    assert report.complete is False
    full = (CORPUS / "game-3p-1.yaml").read_text()
    assert full.count("\n  - ") == after_mayor.count("\n  - ") + 2  # two more phases in round 20
    done = check(full)
    assert_valid(done)
    assert done.complete is True
    over = full + "  - settler: Ximena\n"
    assert_error(check(over), "game.over", last_line_of(over, "- settler: Ximena"))


# --- the city ---------------------------------------------------------------------------------------

# Round 28 of a four-player game: Elif has built 10 of her 12 city spaces; Nils's builder phase is
# the last phase of the round.
TEN_SPACES = corpus_prefix("game-4p-2", 111)
CITY_HALL = extend(TEN_SPACES, "- builder: Nils\n  moves:\n    - Nils: pass\n    - Dita: pass\n    - Elif: city hall for 9\n")


def test_building_on_the_twelfth_city_space_ends_the_game_with_the_round():
    report = check(CITY_HALL)
    assert_valid(report)
    assert report.complete is True and "city" in (report.end or "")


def test_after_a_full_city_the_next_round_is_not_played():
    text = CITY_HALL + "  - captain: Dita\n"
    report = check(text)
    assert_error(report, "game.over", last_line_of(text, "- captain: Dita"))
    assert "city" in report.errors[0].message


def test_without_the_twelfth_space_the_game_goes_on():
    text = extend(TEN_SPACES, "- builder: Nils\n  moves:\n    - Nils: pass\n    - Dita: pass\n    - Elif: factory for 6\n")
    report = check(text)
    assert_valid(report)
    assert report.complete is False


# Round 29: Elif has 11 spaces; the builder phase opens the round and the other three roles follow.
ELEVEN = corpus_prefix("game-4p-2", 112)


def test_the_builder_phase_goes_on_after_the_twelfth_space():
    text = extend(ELEVEN, "- builder: Dita\n  moves:\n    - Elif: hospice for 3\n    - Nils: pass\n    - Priya: large market for 3\n")
    assert_valid(check(text))
    assert "large-market" in board(replayed(text), "Priya").buildings


def test_the_rest_of_the_round_is_played_after_the_city_fills():
    opened = extend(ELEVEN, "- builder: Dita\n  moves:\n    - Elif: hospice for 3\n")
    report = check(opened)
    assert_valid(report)
    assert report.complete is False
    text = opened + "  - prospector: Elif\n  - trader: Nils\n  - craftsman: Priya\n"
    report = check(text)
    assert_valid(report)
    assert report.complete is True


# --- VP chips ---------------------------------------------------------------------------------------

# Round 16 of a five-player game: 4 VP chips are left; Quentin's captain phase opens the round.
FOUR_CHIPS = corpus_prefix("game-5p-1", 75)
CAPTAIN = """\
- captain: Quentin
  moves:
    - Quentin: 2 indigo on 6
    - Yara: 1 indigo on 6
    - Jade: 1 indigo on 6
    - Sofia: 1 sugar on 8
    - Rafael: 2 indigo on 6
    - Quentin: 3 sugar on 8
    - Jade: 1 sugar on 8
    - Quentin: 2 tobacco on 7
  keep: {Yara: corn, Jade: corn, Sofia: indigo, Rafael: "corn, indigo all"}
"""


def test_vp_earned_after_the_last_chip_still_count():
    before = replayed(FOUR_CHIPS)
    assert before.vp_chips == 4
    text = extend(FOUR_CHIPS, CAPTAIN)
    report = check(text)
    assert_valid(report)
    game = replayed(text)
    assert game.vp_chips == 0
    gained = {b.name: b.vp - a.vp for b, a in zip(game.boards, before.boards, strict=True)}
    assert gained == {"Quentin": 2 + 1 + 3 + 2, "Yara": 1, "Jade": 2, "Sofia": 1, "Rafael": 2}
    assert report.complete is False  # the round goes on


def test_the_last_chip_ends_the_game_after_the_round_and_the_paper_vp_are_scored():
    full = (CORPUS / "game-5p-1.yaml").read_text()
    report = check(full)
    assert_valid(report)
    assert report.complete is True and "VP chips" in (report.end or "")
    game = replayed(full)
    assert sum(b.vp for b in game.boards) > 122  # more VP than there were chips
    assert [s.chips for s in report.scores or []] == [b.vp for b in game.boards]
    over = full + "  - settler: Yara\n"
    assert_error(check(over), "game.over", last_line_of(over, "- settler: Yara"))


# --- the written result -----------------------------------------------------------------------------------


def test_the_written_result_is_checked_once_the_game_is_complete():
    report = check(CITY_HALL)
    totals = {s.player: s.total for s in report.scores or []}
    right = CITY_HALL + "result: {" + ", ".join(f"{p}: {t}" for p, t in totals.items()) + "}\n"
    assert_valid(check(right))
    wrong = CITY_HALL + "result: {" + ", ".join(f"{p}: {t + (1 if p == 'Elif' else 0)}" for p, t in totals.items()) + "}\n"
    report = check(wrong)
    assert_error(report, "result.mismatch", last_line_of(wrong, "result:"))
    assert str(totals["Elif"]) in report.errors[0].message
