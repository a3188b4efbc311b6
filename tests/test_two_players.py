"""The official two-player variant (docs/rule-decisions.md).

Round: the governor chooses first, then the two players alternate until each has chosen three of
the seven roles (one prospector); the one role left gets a doubloon; the other player becomes
governor. Setup and supplies: 3 doubloons each, 65 VP chips, 40 colonists plus 2 on the ship,
cargo ships of 4 and 6, 3 face-up plantations, 5 quarries, three plantations and two barrels of
each kind fewer, two copies of each production building and one of each violet building,
starting plantations indigo (governor) and corn. With Expansion I the small violet buildings
are chosen singly and every space is still filled. Every expected number below comes from the
rules, not from the referee.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from referee.diagnostics import InputError
from referee.documents.sheet import read_sheet
from referee.jobs.check import check_log, score_sheet
from referee.jobs.play import play, to_log
from referee.rulesets.load import load_ruleset
from tests.conftest import FIXTURES, assert_error, assert_valid, board, check, game_log, line_of, replayed

TWO = ("Anna", "Ben")
ROW = ("sugar", "corn", "coffee")


def log2(phases: str, plantations: tuple[str, ...] = ROW, **kwargs: str) -> str:
    """A two-player base game log (Anna governor first, then Ben)."""
    return game_log(phases, players=TWO, plantations=plantations, **kwargs)


# A round in which nobody can do anything (no goods, no colonists placed, no money spent):
# six roles, the governor first and then alternating; the mayor is the role left.
ROUND_1 = """
# round 1: governor Anna
- prospector: Anna
- trader: Ben
- builder: Anna
- captain: Ben
- craftsman: Anna
- settler: Ben
  reveal: [indigo, sugar, tobacco]
"""


# --- the round: the governor first, then alternating, three roles each --------------------------


def test_the_governor_chooses_first_then_the_players_alternate():
    picks = ["- prospector: Anna", "- trader: Ben", "- builder: Anna", "- captain: Ben", "- craftsman: Anna"]
    for k in range(len(picks)):
        report = check(log2("\n".join(picks[: k + 1])))
        assert_valid(report)
        nxt = "Ben" if k % 2 == 0 else "Anna"
        assert report.waiting is not None and f"round 1, governor Anna: {nxt} chooses a role" in report.waiting


def test_six_roles_make_a_round_and_the_other_player_becomes_governor():
    report = check(log2(ROUND_1))
    assert_valid(report)
    assert report.complete is False
    # the seventh role is not offered in round 1: a new round begins, with Ben as governor
    assert report.waiting is not None and "round 2, governor Ben: Ben chooses a role" in report.waiting
    game = replayed(log2(ROUND_1))
    assert (game.round, game.governor) == (2, 1)


def test_the_second_player_may_not_choose_first():
    text = log2("- settler: Ben\n")
    report = check(text)
    assert_error(report, "role.not-your-turn", line_of(text, "- settler: Ben"))
    assert "Anna's turn" in report.errors[0].message


def test_a_player_may_not_choose_twice_in_a_row():
    text = log2(
        """
        - prospector: Anna
        - trader: Ben
        - builder: Ben
        """
    )
    report = check(text)
    assert_error(report, "role.not-your-turn", line_of(text, "- builder: Ben"))
    assert "Anna's turn" in report.errors[0].message


def test_a_fourth_role_for_one_player_is_refused():
    # Anna has chosen three roles (prospector, builder, craftsman); the sixth choice is Ben's
    text = log2(
        """
        - prospector: Anna
        - trader: Ben
        - builder: Anna
        - captain: Ben
        - craftsman: Anna
        - mayor: Anna
        """
    )
    report = check(text)
    assert_error(report, "role.not-your-turn", line_of(text, "- mayor: Anna"))
    assert "Ben's turn" in report.errors[0].message


def test_the_old_governor_may_not_open_the_next_round():
    text = log2(ROUND_1 + "- mayor: Anna\n")
    report = check(text)
    assert_error(report, "role.not-your-turn", line_of(text, "- mayor: Anna"))
    assert "Ben's turn" in report.errors[0].message and "governor Ben" in report.errors[0].message


def test_a_role_chosen_twice_in_a_round_is_refused():
    text = log2("- trader: Anna\n- trader: Ben\n")
    assert_error(check(text), "role.taken", line_of(text, "- trader: Ben"))


def test_the_one_role_left_gets_one_doubloon_the_six_chosen_none():
    ok = log2(ROUND_1 + "# round 2: governor Ben\n- mayor: Ben\n  doubloons: 1\n")
    assert_valid(check(ok))
    game = replayed(ok)
    # Anna: 3 + 1 (prospector); Ben: 3 + 1 (the doubloon on the mayor)
    assert [b.doubloons for b in game.boards] == [4, 4]
    chosen = log2(ROUND_1 + "# round 2: governor Ben\n- trader: Ben\n  doubloons: 1\n")
    assert_error(check(chosen), "role.doubloons", line_of(chosen, "doubloons: 1"))


def test_doubloons_gather_on_a_role_left_two_rounds():
    round_2 = textwrap.dedent(
        """
        # round 2: governor Ben
        - prospector: Ben
        - trader: Anna
        - builder: Ben
        - captain: Anna
        - craftsman: Ben
        - settler: Anna
          reveal: [indigo, sugar, tobacco]
        # round 3: governor Anna
        - mayor: Anna
          doubloons: 2
        """
    )
    text = log2(ROUND_1 + round_2)
    assert_valid(check(text))
    assert board(replayed(text), "Anna").doubloons == 3 + 1 + 2


def test_the_prospector_is_in_play_once():
    text = log2("- prospector: Anna\n")
    assert_valid(check(text))
    assert [b.doubloons for b in replayed(text).boards] == [4, 3]
    twice = log2("- prospector: Anna\n- prospector: Ben\n")
    report = check(twice)
    assert_error(report, "role.taken", line_of(twice, "- prospector: Ben"))
    assert "prospector" not in report.errors[0].message.split("may choose")[1]


def test_seven_roles_are_in_play():
    game = replayed(log2("[]"))
    assert sorted(c.role for c in game.role_cards) == sorted(["settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector"])
    report = check(log2("[]"))
    assert report.waiting is not None
    assert "settler, mayor, builder, craftsman, trader, captain or prospector" in report.waiting


# --- setup and supplies ------------------------------------------------------------------------------


def test_setup_numbers_for_two_players():
    game = replayed(log2("[]"))
    assert [b.doubloons for b in game.boards] == [3, 3]
    assert game.vp_chips == 65
    assert (game.colonist_supply, game.colonist_ship) == (40, 2)
    assert sorted(s.size for s in game.ships) == [4, 6]
    assert game.quarries == 5
    # three fewer plantations of each kind, less the two starting tiles and the face-up row
    # (sugar, corn, coffee): corn 10-3-1-1, indigo 12-3-1, sugar 11-3-1, tobacco 9-3, coffee 8-3-1
    assert dict(game.deck) == {"corn": 5, "indigo": 8, "sugar": 7, "tobacco": 6, "coffee": 4}
    # two fewer barrels of each kind: 10, 11, 11, 9, 9 -> 8, 9, 9, 7, 7
    assert game.goods_supply == {"corn": 8, "indigo": 9, "sugar": 9, "tobacco": 7, "coffee": 7}


def test_starting_plantations_indigo_for_the_governor_and_corn():
    game = replayed(log2("[]"))
    assert board(game, "Anna").island == {"indigo": 1}
    assert board(game, "Ben").island == {"corn": 1}


def test_building_copies_two_production_one_violet():
    left = replayed(log2("[]")).buildings_left
    for ident in ("small-indigo-plant", "small-sugar-mill", "indigo-plant", "sugar-mill", "tobacco-storage", "coffee-roaster"):
        assert left[ident] == 2, ident
    for ident in ("small-market", "hacienda", "construction-hut", "small-warehouse", "hospice", "office", "large-market"):
        assert left[ident] == 1, ident
    for ident in ("large-warehouse", "factory", "university", "harbor", "wharf"):
        assert left[ident] == 1, ident
    for ident in ("guild-hall", "residence", "fortress", "customs-house", "city-hall"):
        assert left[ident] == 1, ident


def test_a_setup_row_of_four_plantations_is_refused():
    text = log2("[]", plantations=("sugar", "corn", "coffee", "indigo"))
    report = check(text)
    assert_error(report, "setup.plantations", line_of(text, "plantations:"))
    assert "3 plantations" in report.errors[0].message


def test_both_players_may_build_a_production_building():
    text = log2(
        """
        - builder: Anna
          moves:
            - Anna: small indigo plant for 0
            - Ben: small indigo plant for 1
        """
    )
    assert_valid(check(text))
    game = replayed(text)
    assert game.buildings_left["small-indigo-plant"] == 0
    assert [b.doubloons for b in game.boards] == [3, 2]


SECOND_MARKET = """
- builder: Anna
  moves:
    - Anna: small market for 0
    - Ben: small market for 1
"""


def test_a_second_copy_of_a_violet_building_is_refused():
    text = log2(SECOND_MARKET)
    assert_error(check(text), "builder.none-left", line_of(text, "- Ben: small market"))


def test_the_refusal_says_how_many_copies_a_two_player_game_has():
    report = check(log2(SECOND_MARKET))
    assert "the game has 1" in report.errors[0].message


def test_the_mayor_phase_fills_the_ship_with_at_least_two_colonists():
    text = log2(
        """
        - mayor: Anna
          moves:
            - Anna: indigo, san juan 1
            - Ben: corn
        """
    )
    assert_valid(check(text))
    game = replayed(text)
    # the mayor's extra colonist from the supply, the two on the ship one each; no building: the
    # ship is refilled with the minimum, the number of players
    assert [b.colonists() for b in game.boards] == [2, 1]
    assert (game.colonist_supply, game.colonist_ship) == (40 - 1 - 2, 2)


CAPTAIN = """
- mayor: Anna
  moves:
    - Anna: indigo, san juan 1
    - Ben: corn
- craftsman: Ben
- captain: Anna
  moves:
    - Ben: {load}
"""


def test_a_load_on_a_5_ship_is_refused():
    text = log2(CAPTAIN.format(load="2 corn on 5"))
    report = check(text)
    assert_error(report, "captain.no-such-ship", line_of(text, "- Ben: 2 corn on 5"))
    assert "4, 6" in report.errors[0].message


@pytest.mark.parametrize("size", [4, 6])
def test_a_load_on_the_4_or_the_6_ship_is_accepted(size):
    # Ben's corn (1 produced + 1 craftsman's extra) fits either ship whole
    text = log2(CAPTAIN.format(load=f"2 corn on {size}"))
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Ben").vp == 2
    assert [(s.size, s.good, s.count) for s in sorted(game.ships, key=lambda s: s.size)] == [
        (4, "corn" if size == 4 else None, 2 if size == 4 else 0),
        (6, "corn" if size == 6 else None, 2 if size == 6 else 0),
    ]


def _quarry_rounds(rounds: int) -> str:
    """`rounds` rounds in which the settler (the governor) takes a quarry."""
    out = []
    for i in range(rounds):
        gov, other = TWO[i % 2], TWO[(i + 1) % 2]
        out.append(
            f"""# round {i + 1}: governor {gov}
- settler: {gov}
  moves:
    - {gov}: quarry
  reveal: [indigo, sugar, tobacco]
- prospector: {other}
- trader: {gov}
- builder: {other}
- captain: {gov}
- craftsman: {other}
"""
        )
    return "".join(out)


def test_five_quarries_and_the_sixth_is_refused():
    five = log2(_quarry_rounds(5))
    assert_valid(check(five))
    game = replayed(five)
    assert game.quarries == 0
    assert [b.island.get("quarry", 0) for b in game.boards] == [3, 2]
    six = log2(_quarry_rounds(5) + "# round 6: governor Ben\n- settler: Ben\n  moves:\n    - Ben: quarry\n")
    report = check(six)
    assert_error(report, "settler.no-quarry", line_of(six, "- Ben: quarry", 3))


def test_a_reveal_naming_more_plantations_of_a_kind_than_are_left_is_refused():
    # five coffee plantations in a 2-player game (8 - 3): three in the setup row, two revealed
    rounds = """
    # round 1: governor Anna
    - settler: Anna
      reveal: [coffee, coffee, sugar]
    - prospector: Ben
    - trader: Anna
    - builder: Ben
    - captain: Anna
    - craftsman: Ben
    # round 2: governor Ben
    - settler: Ben
      reveal: [coffee, indigo, sugar]
    """
    text = log2(rounds, plantations=("coffee", "coffee", "coffee"))
    report = check(text)
    assert_error(report, "settler.reveal", line_of(text, "reveal: [coffee, indigo, sugar]"))
    assert "1 coffee" in report.errors[0].message
    ok = log2(rounds.replace("[coffee, indigo, sugar]", "[tobacco, indigo, sugar]"), plantations=("coffee", "coffee", "coffee"))
    assert_valid(check(ok))
    assert replayed(ok).deck["coffee"] == 0


# Seven corn plantations in a 2-player game (10 - 3), all taken and occupied: the eight corn
# barrels (10 - 2) run out in the second craftsman phase.
CORN = """
# round 1: governor Anna
- settler: Anna
  moves:
    - Anna: corn
    - Ben: corn
  reveal: [corn, corn, corn]
- mayor: Ben
  moves:
    - Ben: corn 2
    - Anna: corn
- craftsman: Anna
- trader: Ben
- builder: Anna
- prospector: Ben
# round 2: governor Ben
- settler: Ben
  moves:
    - Ben: corn
    - Anna: corn
  reveal: [sugar, indigo, tobacco]
- mayor: Anna
  moves:
    - Anna: indigo, corn 2
    - Ben: corn 3
- craftsman: Ben
"""


def test_production_stops_at_the_two_player_barrel_supply():
    text = log2(CORN, plantations=("corn", "corn", "corn"))
    assert_valid(check(text))
    game = replayed(text)
    # round 1: Anna 1 + 1 extra, Ben 2 (4 of 8 left); round 2, from the craftsman Ben: Ben 3,
    # Anna only 1 of her 2 (the last barrel), no extra barrel for Ben
    assert board(game, "Ben").goods == {"corn": 5}
    assert board(game, "Anna").goods == {"corn": 3}
    assert game.goods_supply["corn"] == 0


def test_no_extra_barrel_when_the_two_player_supply_is_empty():
    text = log2(CORN + "  moves:\n    - Ben: extra corn\n", plantations=("corn", "corn", "corn"))
    assert_error(check(text), "craftsman.extra-supply", line_of(text, "- Ben: extra corn"))


# --- Expansion I with two players -------------------------------------------------------------------

SELECTION = (
    "aqueduct, hacienda, black market, storehouse, hospice, office, church, small wharf, factory, "
    "harbor, library, wharf, guild hall, residence, fortress, customs house, city hall"
)


def log2x(phases: str, selection: str = SELECTION) -> str:
    return log2(phases, ruleset="expansion-1", extra=f"  buildings: [{selection}]\n")


def test_expansion_small_buildings_are_single_with_two_players():
    game = replayed(log2x("[]"))
    left = game.buildings_left
    for ident in ("aqueduct", "hacienda", "black-market", "storehouse", "hospice", "office", "church", "small-wharf", "factory", "harbor", "library", "wharf"):
        assert left[ident] == 1, ident
    for ident in ("guild-hall", "residence", "fortress", "customs-house", "city-hall"):
        assert left[ident] == 1, ident
    for ident in ("small-market", "forest-house", "construction-hut", "small-warehouse", "guest-house", "trading-post", "cloister", "statue"):
        assert left[ident] == 0, ident
    assert left["small-indigo-plant"] == 2 and left["coffee-roaster"] == 2


def test_expansion_a_second_copy_of_a_small_building_is_refused():
    text = log2x(
        """
        - builder: Anna
          moves:
            - Anna: aqueduct for 0
            - Ben: aqueduct for 1
        """
    )
    assert_error(check(text), "builder.none-left", line_of(text, "- Ben: aqueduct"))


def test_expansion_selection_still_fills_every_space_with_two_players():
    assert_valid(check(log2x("[]")))
    # one cost-2 building short: the board has two spaces for cost 2
    text = log2x("[]", SELECTION.replace("black market, ", ""))
    report = check(text)
    assert_error(report, "setup.buildings", line_of(text, "buildings:"))
    assert "2 spaces" in report.errors[0].message
    # a cost-1 space left empty
    text = log2x("[]", SELECTION.replace("aqueduct, ", ""))
    assert_error(check(text), "setup.buildings", line_of(text, "buildings:"))


# --- score sheet ---------------------------------------------------------------------------------------


def test_the_two_player_score_sheet_of_the_formats_scores():
    path = FIXTURES / "sheets" / "formats-example.yaml"
    report = score_sheet(path.read_bytes(), path.name, None, path.parent)
    assert report.errors == [] and report.complete
    got = {s.player: (s.total, s.chips, s.buildings, dict(s.bonus_by_building), s.rank) for s in report.scores or []}
    assert got == {
        # buildings: small indigo plant 1 + indigo plant 2 + harbor 3 + guild hall 4 + residence 4 = 14;
        # guild hall: small indigo plant 1 + indigo plant 2 = 3; the residence is not occupied
        "Anna": (23 + 14 + 3, 23, 14, {"Guild Hall": 3}, 2),
        # buildings: fortress 4 + coffee roaster 3 = 7; fortress: 15 colonists // 3 = 5
        "Ben": (30 + 7 + 5, 30, 7, {"Fortress": 5}, 1),
    }


def test_a_two_player_sheet_with_two_harbors_is_refused():
    sheet = """ruleset: base
players:
  Anna: {chips: 20, doubloons: 2, goods: 0, island: 9, colonists: 10, buildings: [harbor]}
  Ben: {chips: 18, doubloons: 3, goods: 1, island: 10, colonists: 12, buildings: [harbor, small market]}
"""
    with pytest.raises(InputError) as info:
        read_sheet(sheet, "sheet.yaml")
    errors = info.value.diagnostics
    assert [(d.rule, d.location.line if d.location else None) for d in errors] == [("sheet.copies", 4)]
    assert "the game has 1" in errors[0].message


# --- random games ----------------------------------------------------------------------------------------

SEEDS = range(1, 7)


@pytest.mark.parametrize("ruleset", ["base", "expansion-1", "1897"])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_two_player_games_validate_complete(ruleset, seed):
    played = play(load_ruleset(ruleset), 2, seed)
    text = to_log(played, ruleset)
    report = check_log(text, f"random-{ruleset}-{seed}.yaml")
    assert report.errors == []
    assert report.complete is True
    assert report.scores is not None and len(report.scores) == 2
    # every round: the governor first, then alternating, three roles each (1897 may end mid-round)
    rounds: dict[int, list] = {}
    for entry in played.entries:
        rounds.setdefault(entry.round, []).append(entry)
    last = max(rounds)
    for number, entries in rounds.items():
        governor = (number - 1) % 2
        assert all(e.governor == governor for e in entries)
        assert [e.chooser for e in entries] == [governor, 1 - governor, governor, 1 - governor, governor, 1 - governor][: len(entries)]
        assert len({e.role for e in entries}) == len(entries)
        if number != last or ruleset != "1897":
            assert len(entries) == 6, (number, [e.role for e in entries])
    # one copy of each violet building: never owned by both players
    a, b = played.game.boards
    shared = [x for x in a.buildings if x in b.buildings and not played.rules.building[x].kind.endswith("production")]
    assert shared == []


# --- the hand-played fixture game ------------------------------------------------------------------------

GAME_2P = FIXTURES / "game-2p.yaml"

# player: (total, shipping VP, building VP, bonus by building, doubloons, barrels, rank), computed by
# hand (the arithmetic is in the comments above the log's `result:`)
EXPECTED_2P = {
    # 12 + 26 + guild hall 5 (small indigo plant 1 + coffee roaster 2 + tobacco storage 2) + city hall 7
    "Lena": (50, 12, 26, {"Guild Hall": 5, "City Hall": 7}, 18, 13, 2),
    "Omar": (63, 46, 17, {}, 5, 12, 1),
}


def test_fixture_two_player_game_validates_complete_and_scores_as_computed_by_hand():
    text = GAME_2P.read_text()
    assert text.splitlines()[0] == "# yaml-language-server: $schema=../schemas/game-log.schema.json"
    report = check_log(GAME_2P.read_bytes(), GAME_2P.name)
    assert report.errors == []
    assert report.complete is True
    got = {s.player: (s.total, s.chips, s.buildings, dict(s.bonus_by_building), s.doubloons, s.goods, s.rank) for s in report.scores or []}
    assert got == EXPECTED_2P


def test_fixture_two_player_game_ends_after_round_11_by_city_and_colonists():
    from referee.documents.log import read_log
    from referee.jobs.replays import replay

    run = replay(read_log(GAME_2P.read_text(), GAME_2P.name))
    assert run.error is None and run.complete
    game = run.game
    assert game is not None
    assert game.ended_round == 11
    assert set(game.triggers) == {"city", "colonists"}
    assert game.colonist_supply == 0
    assert game.vp_chips == 65 - 12 - 46
    # eleven rounds of six phases: the governor (Lena in odd rounds) first, then alternating
    choosers = [entry.chooser for entry in run.record.phases]
    lena_governs, omar_governs = [0, 1, 0, 1, 0, 1], [1, 0, 1, 0, 1, 0]
    assert choosers == [*lena_governs, *omar_governs] * 5 + lena_governs


def test_fixture_two_player_game_through_the_cli():
    out = subprocess.run([sys.executable, "-m", "referee", "score", "-f", "json", str(GAME_2P)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    doc = json.loads(out.stdout.splitlines()[0])
    assert doc["valid"] is True and doc["complete"] is True
    assert {s["player"]: s["total"] for s in doc["scores"]} == {"Lena": 50, "Omar": 63}
