"""Final scores: the large buildings' bonuses with the rulebook's own examples and their edges,
ties, and the written `result` checked against the computed totals."""

from __future__ import annotations

import pytest

from referee.engine.state import Board
from referee.jobs.check import check_log
from referee.jobs.scoring import score, winners
from referee.rulesets.load import load_ruleset
from tests.conftest import FIXTURES, line_of

BASE = load_ruleset("base")


def board(name="Anna", **kw) -> Board:
    b = Board(name=name, doubloons=kw.pop("doubloons", 0))
    for key, value in kw.items():
        setattr(b, key, value)
    return b


def bonus(b: Board, building: str) -> int:
    (s,) = score([b], BASE)
    return s.bonus_by_building.get(BASE.name(building), 0)


def test_guild_hall_rulebook_example_6():
    # small and large sugar mill, small indigo plant, coffee roaster: 1 + 2 + 1 + 2
    b = board(buildings={"guild-hall": 1, "small-sugar-mill": 0, "sugar-mill": 0, "small-indigo-plant": 1, "coffee-roaster": 0})
    assert bonus(b, "guild-hall") == 6


@pytest.mark.parametrize(("filled", "vp"), [(0, 4), (9, 4), (10, 5), (11, 6), (12, 7)])
def test_residence_by_filled_island_spaces(filled, vp):
    b = board(buildings={"residence": 1}, island={"corn": max(0, filled - 2), "quarry": min(filled, 2)})
    assert bonus(b, "residence") == vp


@pytest.mark.parametrize(("colonists", "vp"), [(20, 6), (2, 0), (3, 1), (5, 1), (6, 2)])
def test_fortress_one_per_three_colonists_san_juan_included(colonists, vp):
    b = board(buildings={"fortress": 1}, san_juan=colonists - 1)
    assert bonus(b, "fortress") == vp


@pytest.mark.parametrize(("chips", "vp"), [(23, 5), (3, 0), (4, 1), (28, 7)])
def test_customs_house_one_per_four_vp_earned(chips, vp):
    assert bonus(board(buildings={"customs-house": 1}, vp=chips), "customs-house") == vp


def test_customs_house_counts_vp_earned_after_the_chips_ran_out():
    # the 4-player fixture ends with the last VP chip; VP counted on paper still count
    report = check_log((FIXTURES / "game-4p.yaml").read_bytes(), "game-4p.yaml")
    total_chips = sum(s.chips for s in report.scores)
    assert total_chips > 100  # more VP than the 100 chips of a 4-player game
    dev = next(s for s in report.scores if s.player == "Dev")
    assert dev.bonus_by_building["Customs House"] == dev.chips // 4


def test_city_hall_rulebook_example_7():
    # hacienda, harbor, office, construction hut, large warehouse, residence and itself
    b = board(buildings={"city-hall": 1, "hacienda": 0, "harbor": 0, "office": 0, "construction-hut": 0, "large-warehouse": 0, "residence": 0, "indigo-plant": 0})
    assert bonus(b, "city-hall") == 7


def test_unoccupied_large_building_scores_printed_vp_and_no_bonus():
    (s,) = score([board(buildings={"fortress": 0}, san_juan=30, vp=10)], BASE)
    assert (s.buildings, s.bonus, s.total) == (4, 0, 14)


def test_tie_on_vp_is_decided_by_doubloons_plus_barrels():
    a = board("Anna", vp=20, doubloons=3, goods={"corn": 1})
    b = board("Ben", vp=20, doubloons=5)
    scores = score([a, b], BASE)
    assert [s.rank for s in scores] == [2, 1] and winners(scores) == ["Ben"]


def test_still_tied_is_a_shared_win():
    a = board("Anna", vp=20, doubloons=3, goods={"corn": 2})
    b = board("Ben", vp=20, doubloons=5)
    c = board("Cleo", vp=12, doubloons=9)
    scores = score([a, b, c], BASE)
    assert [s.rank for s in scores] == [1, 1, 3] and winners(scores) == ["Anna", "Ben"]


def test_written_result_is_checked_at_the_claimed_score():
    text = (FIXTURES / "game-3p.yaml").read_text()
    good = check_log(text, "game.yaml")
    assert good.errors == [] and good.complete
    right = {s.player: s.total for s in good.scores}
    wrong = text.replace(f"Ines: {right['Ines']}", f"Ines: {right['Ines'] + 1}")
    report = check_log(wrong, "game.yaml")
    assert [(d.rule, d.location.line) for d in report.errors] == [("result.mismatch", line_of(wrong, "result:"))]
    assert report.exit_code == 1
    message = report.errors[0].message
    assert f"Ines scores {right['Ines']}" in message and "shipping" in message and "buildings" in message


def test_result_of_a_game_in_progress_is_not_checked():
    report = check_log((FIXTURES / "formats-log.yaml").read_bytes(), "formats-log.yaml")
    assert report.errors == [] and not report.complete
