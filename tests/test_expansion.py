"""Expansion I ("The New Buildings"): the building selection before the game, and the powers of
the new violet buildings, except the captain-phase ones (Small Wharf, Lighthouse, Union Hall).

Rules: the Expansion rules (selection), Rio Grande's "All buildings in detail", and docs/rule-decisions.md
(black-market payments go back to the supply; the cloister counts plantations, quarries and
forests; the library's craftsman may take the same kind twice); docs/formats/game-log.md, "Expansion I
clauses".

Most logs here use the test ruleset tests/rulesets/rich.yaml: Expansion I with 60 doubloons each
and 9 colonists on the colonist ship (three players), so that a short log reaches any building.
With it every mayor phase hands 3 colonists from the ship to each player, and the mayor's
privilege one more. The real expansion-1 ruleset is used where the starting money matters (the
black market may only be used when it spends all the player's money). Two more test rulesets
extend rich.yaml: expansion-1-rich-4p.yaml (the same for four players, for the prospector) and
expansion-1-rich-one-chip.yaml (a single VP chip, so that a short log reaches the end).

Every log starts with Anna and Ben on indigo, Cleo on corn, and the face-up row indigo, sugar,
corn, coffee.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from functools import cache

import pytest

from referee.engine.game import Game
from referee.engine.state import Board
from referee.jobs.scoring import score
from referee.rulesets.load import load_ruleset
from tests.conftest import FIXTURES, ROOT, assert_error, assert_valid, board, check, game_log, last_line_of, line_of, replayed

RULESETS = ROOT / "tests" / "rulesets"
RICH = str(RULESETS / "rich.yaml")
RICH_4P = str(RULESETS / "expansion-1-rich-4p.yaml")
ONE_CHIP = str(RULESETS / "expansion-1-rich-one-chip.yaml")

# The 17 violet types of most logs here: every new building, and three base large buildings.
# By cost: 1 aqueduct; 2 forest house, black market; 3 storehouse; 4 guest house; 5 trading post,
# church; 6 small wharf; 7 lighthouse; 8 specialty factory, library; 9 union hall; 10 cloister,
# statue, city hall, guild hall, residence.
SELECTION = (
    "aqueduct", "forest house", "black market", "storehouse", "guest house", "trading post", "church", "small wharf",
    "lighthouse", "specialty factory", "library", "union hall", "cloister", "statue", "city hall", "guild hall", "residence",
)  # fmt: skip


def swap(*pairs: tuple[str, str]) -> tuple[str, ...]:
    """SELECTION with some buildings replaced (old, new)."""
    out = list(SELECTION)
    for old, new in pairs:
        out[out.index(old)] = new
    return tuple(out)


def log(*phases: str, ruleset: str = RICH, buildings: tuple[str, ...] | None = SELECTION, **kwargs: object) -> str:
    """A game log with a building selection (None: no `setup.buildings` key); `phases` are
    pieces of the phase list, each written at any indentation."""
    extra = "" if buildings is None else f"  buildings: [{', '.join(buildings)}]\n"
    body = "\n".join(textwrap.dedent(p).strip("\n") for p in phases)
    return game_log(body, ruleset=ruleset, extra=extra, **kwargs)  # type: ignore[arg-type]


def ident(name: str) -> str:
    return name.replace(" ", "-")


# --- The selection before the game (the Expansion rules, setup) ---------------------------------------------------------------

FIRST_BUILD = """
# round 1: governor Anna
- builder: Anna
  moves:
    - Anna: aqueduct for 0
"""


def test_a_valid_selection_puts_exactly_the_chosen_violet_buildings_in_the_game():
    text = log(FIRST_BUILD)
    assert_valid(check(text))
    game = replayed(text)
    violet = {b.id for b in game.rules.buildings if b.kind.endswith("violet")}
    assert violet & game.in_game == {ident(n) for n in SELECTION}
    assert game.buildings_left["aqueduct"] == 1  # two copies of a small building, one built
    assert game.buildings_left["storehouse"] == 2 and game.buildings_left["cloister"] == 1
    assert game.buildings_left["small-market"] == 0 and game.buildings_left["hacienda"] == 0  # not chosen
    assert game.buildings_left["indigo-plant"] == 3  # production buildings are always in the game


def test_the_base_buildings_alone_are_a_valid_selection():
    base = (
        "small market", "hacienda", "construction hut", "small warehouse", "hospice", "office", "large market",
        "large warehouse", "factory", "university", "harbor", "wharf", "guild hall", "residence", "fortress",
        "customs house", "city hall",
    )  # fmt: skip
    text = log("- builder: Anna\n  moves:\n    - Anna: hacienda for 1\n", buildings=base)
    assert_valid(check(text))


@pytest.mark.parametrize(
    "buildings, says, at",
    [
        (swap(("aqueduct", "small indigo plant")), "the Small Indigo Plant is a production building", ("small indigo plant", 1)),
        (swap(("black market", "forest house")), "the Forest House is chosen twice", ("forest house", 2)),
        # three at cost 2 (and none at cost 3): the third is the one with no space
        (swap(("storehouse", "construction hut")), "the board has 2 spaces for violet buildings costing 2; 3 chosen", ("construction hut", 1)),
        # one at cost 8: no building is wrong, the list is short
        (tuple(n for n in SELECTION if n != "library"), "the board has 2 spaces for violet buildings costing 8; 1 chosen", None),
        (swap(("black market", "hacienda")), "Hacienda and Forest House may not be in the same game", ("hacienda", 1)),
    ],
    ids=["production-building", "twice", "too-many-for-a-cost", "too-few-for-a-cost", "hacienda-with-forest-house"],
)
def test_a_broken_selection_is_refused_at_the_building_that_breaks_it(buildings, says, at):
    text = log(FIRST_BUILD, buildings=buildings)
    report = check(text)
    assert_error(report, "setup.buildings", line_of(text, "buildings:"))
    assert says in report.errors[0].message
    line = text.splitlines()[line_of(text, "buildings:") - 1]
    column = line.index("[") + 1  # the list as a whole
    if at is not None:  # the n-th time the name is written
        name, nth = at
        column = 0
        for _ in range(nth):
            column = line.index(name, column) + 1
    assert report.errors[0].location.column == column


def test_a_building_not_chosen_cannot_be_built():
    text = log("- builder: Anna\n  moves:\n    - Anna: small market\n")  # the aqueduct took the cost-1 space
    report = check(text)
    assert_error(report, "builder.not-in-game", line_of(text, "- Anna: small market"))
    assert "not chosen before the game" in report.errors[0].message


def test_setup_buildings_is_required_with_expansion_1():
    text = log(FIRST_BUILD, ruleset="expansion-1", buildings=None)
    report = check(text)
    assert_error(report, "log.schema", line_of(text, "plantations:"))  # the setup mapping
    assert "setup.buildings is required with the expansion-1 ruleset" in report.errors[0].message


def test_setup_buildings_is_refused_with_the_base_game():
    text = log("- builder: Anna\n  moves:\n    - Anna: small market for 0\n", ruleset="base", buildings=("small market",))
    report = check(text)
    assert_error(report, "log.schema", line_of(text, "buildings:"))
    assert "base uses them all" in report.errors[0].message


# --- Aqueduct: an extra barrel for indigo made in the Indigo Plant, sugar in the Sugar Mill ----


def aqueduct_log(plant: str, arrangement: str, craftsman: str = "") -> str:
    return log(f"""
        # round 1: governor Anna
        - builder: Anna
          moves:
            - Anna: {plant}
        - mayor: Ben
          moves:
            - Anna: {arrangement}
        - trader: Cleo
        # round 2: governor Ben
        - builder: Ben
          moves:
            - Anna: aqueduct
        - mayor: Cleo                   # every circle of Anna's filled
        - craftsman: Anna
        {craftsman}
        """)


def test_aqueduct_adds_a_barrel_to_indigo_made_in_the_indigo_plant():
    text = aqueduct_log("indigo plant", "indigo, indigo plant 2")
    assert_valid(check(text))
    # 1 indigo produced, 1 from the aqueduct, 1 the craftsman's extra
    assert board(replayed(text), "Anna").goods == {"indigo": 3}


def test_aqueduct_does_nothing_for_a_small_indigo_plant():
    text = aqueduct_log("small indigo plant", "indigo, small indigo plant, san juan 1")
    assert_valid(check(text))
    assert board(replayed(text), "Anna").goods == {"indigo": 2}  # produced and the extra, no aqueduct barrel


def test_aqueduct_barrel_is_never_written_as_a_second_extra():
    text = aqueduct_log("indigo plant", "indigo, indigo plant 2", "  moves:\n            - Anna: extra indigo, indigo")
    report = check(text)
    assert_error(report, "craftsman.extra-count", line_of(text, "- Anna: extra indigo, indigo"))


# --- Forest House: plantations face down as forests; 2 forests -1 doubloon, no column limit ---

FORESTS = """
# round 1: governor Anna
- builder: Anna
  moves:
    - Anna: forest house
- mayor: Ben                    # Anna: indigo and forest house, 1 in San Juan
- settler: Cleo
  moves:
    - Cleo: coffee
    - Anna: sugar, forest
    - Ben: corn
  reveal: [tobacco, sugar, corn, indigo]
# round 2: governor Ben
"""


def test_forest_house_turns_plantations_into_forests_and_two_forests_take_one_doubloon_off():
    text = log(
        FORESTS,
        """
        - settler: Ben
          moves:
            - Ben: tobacco
            - Cleo: corn
            - Anna: sugar, forest
          reveal: [coffee, tobacco, indigo, corn]
        - builder: Cleo
          moves:
            - Anna: guest house for 3   # cost 4, 2 forests -1
        """,
    )
    assert_valid(check(text))
    anna = board(replayed(text), "Anna")
    assert anna.island == {"indigo": 1, "forest": 2}
    assert anna.circles(replayed(text).rules) == 1 + 1 + 2  # forests have no circle


def test_forest_discount_is_not_limited_by_the_column():
    # Anna has an occupied quarry and 2 forests; the storehouse (cost 3) is in column 1: the
    # quarry takes 1 off (its column limit), the forests 1 more: 1. Capped by the column it would be 2.
    text = log("""
        # round 1: governor Anna
        - settler: Anna
          moves:
            - Anna: quarry
            - Ben: corn
            - Cleo: sugar
          reveal: [tobacco, sugar, corn, indigo]
        - builder: Ben
          moves:
            - Anna: forest house
        - mayor: Cleo                   # Anna: indigo, quarry, forest house
        # round 2: governor Ben
        - settler: Ben
          moves:
            - Ben: tobacco
            - Cleo: corn
            - Anna: sugar, forest
          reveal: [coffee, sugar, indigo, tobacco]
        - craftsman: Cleo
        - trader: Anna
        # round 3: governor Cleo
        - settler: Cleo
          moves:
            - Cleo: coffee
            - Anna: sugar, forest
            - Ben: indigo
          reveal: [corn, corn, indigo, tobacco]
        - trader: Anna
        - builder: Ben
          moves:
            - Anna: storehouse for 1
        """)
    assert_valid(check(text))


def test_one_forest_is_no_discount():
    text = log(FORESTS + "- builder: Ben\n  moves:\n    - Anna: guest house for 3\n")
    report = check(text)
    assert_error(report, "builder.price", line_of(text, "- Anna: guest house for 3"))
    assert "costs Anna 4" in report.errors[0].message


def test_forests_need_an_occupied_forest_house():
    text = log("""
        # round 1: governor Anna
        - builder: Anna
          moves:
            - Anna: forest house        # not yet occupied
        - settler: Ben
          moves:
            - Ben: corn
            - Cleo: coffee
            - Anna: sugar, forest
          reveal: [tobacco, sugar, corn, indigo]
        """)
    report = check(text)
    assert_error(report, "settler.forest", line_of(text, "- Anna: sugar, forest"))
    assert "Anna has no occupied building that turns plantations into forests" in report.errors[0].message


def test_no_colonist_goes_on_a_forest():
    text = log(FORESTS, "- mayor: Ben\n  moves:\n    - Anna: indigo, forest, forest house\n")
    report = check(text)
    assert_error(report, "mayor.arrangement", line_of(text, "- Anna: indigo, forest, forest house"))


# Anna's forest house is occupied (round 1's mayor phase), and she chooses the settler in round 2
# with the move `{move}`.
ANNA_SETTLES_WITH_A_FOREST_HOUSE = """
    # round 1: governor Anna
    - builder: Anna
      moves:
        - Anna: forest house
    - mayor: Ben
    - craftsman: Cleo
    # round 2: governor Ben
    - craftsman: Ben
    - trader: Cleo
    - settler: Anna
      moves:
        - Anna: {move}
"""


def test_the_settler_cannot_turn_a_quarry_into_a_forest():
    text = log(ANNA_SETTLES_WITH_A_FOREST_HOUSE.format(move="quarry, forest"))
    report = check(text)
    assert_error(report, "settler.forest", line_of(text, "- Anna: quarry, forest"))


def test_a_forest_needs_a_tile_taken_from_the_row():
    # "forest" alone reads well (a clause of the settler's move): it breaks the forest house's
    # rule, an error of the rules (exit 1) at its line. Passing: "sugar, forest" above.
    text = log(ANNA_SETTLES_WITH_A_FOREST_HOUSE.format(move="forest"))
    report = check(text)
    assert_error(report, "settler.forest", last_line_of(text, "- Anna: forest"))
    assert report.exit_code == 1
    assert "a forest is a face-up plantation placed face down; Anna took no tile" in report.errors[0].message

# --- Black Market: up to 1 colonist, 1 barrel, 1 VP chip as doubloons, spending all money ---
# The real expansion-1 ruleset: 2 doubloons each.

BLACK_MARKET = """
# round 1: governor Anna
- builder: Anna
  moves:
    - Anna: black market for 1    # Anna keeps 1 doubloon
- mayor: Ben
  moves:
    - Anna: black market          # her one colonist; her indigo stays empty
- craftsman: Cleo                 # Cleo: 1 corn and the extra
# round 2: governor Ben
- trader: Ben
  doubloons: 1
- captain: Cleo
  doubloons: 1
  moves:
    - Cleo: 2 corn on 4
- mayor: Anna                     # Anna: her privilege and 2 from the ship: black market, indigo, San Juan 1
# round 3: governor Cleo
- builder: Cleo
  doubloons: 1
  moves:
"""


def black_market(*moves: str) -> str:
    return log(BLACK_MARKET + "".join(f"    - {m}\n" for m in moves), ruleset="expansion-1")


@pytest.mark.parametrize("payment", ["pay colonist indigo", "pay colonist san juan"])
def test_black_market_pays_part_of_the_price_with_a_colonist_when_it_spends_all_the_money(payment):
    before = replayed(black_market()).colonist_supply
    text = black_market(f"Anna: forest house for 1, {payment}")  # cost 2: 1 doubloon (all Anna has) and a colonist
    assert_valid(check(text))
    game = replayed(text)
    anna = board(game, "Anna")
    assert anna.doubloons == 0 and "forest-house" in anna.buildings
    assert anna.colonists() == 2
    assert game.colonist_supply == before + 1  # the colonist goes back to the supply (docs/rule-decisions.md)


def test_black_market_does_nothing_for_a_player_without_one():
    text = black_market("Ben: forest house, pay colonist indigo")
    report = check(text)
    assert_error(report, "builder.black-market", line_of(text, "- Ben: forest house, pay colonist indigo"))
    assert "Ben has no occupied Black Market" in report.errors[0].message


@pytest.mark.parametrize(
    "move, says",
    [
        ("Anna: aqueduct, pay colonist indigo", "only be used when it spends all the money"),  # 1 doubloon left over
        ("Anna: forest house, pay colonist black market", "the Black Market's own colonist cannot pay for a building"),
        ("Anna: storehouse, pay colonist indigo, pay corn", "Anna has no corn to pay with"),
        ("Anna: forest house, pay vp", "Anna has no VP chip to pay with"),
    ],
    ids=["money-left", "its-own-colonist", "no-barrel", "no-vp-chip"],
)
def test_black_market_misuse_is_refused(move, says):
    text = black_market(move)
    report = check(text)
    assert_error(report, "builder.black-market", line_of(text, f"- {move}"))
    assert says in report.errors[0].message


@pytest.mark.parametrize(
    ("move", "paid"),
    [
        ("Anna: storehouse, pay colonist indigo, pay corn, pay corn", "Anna pays 2 barrels"),
        ("Anna: forest house, pay colonist indigo, pay colonist san juan", "Anna pays 2 colonists"),
        ("Anna: storehouse, pay vp, pay colonist indigo, pay vp", "Anna pays 2 VP chips"),
    ],
    ids=["two-barrels", "two-colonists", "two-vp-chips"],
)
def test_two_payments_of_a_kind_are_a_broken_rule_at_the_move_not_an_unreadable_move(move, paid):
    """Issue 28, ruling 1: the move reads (it is written as the table writes payments); the
    black market takes one colonist, one barrel and one VP chip at most: exit 1 at the move."""
    text = black_market(move)
    report = check(text)
    assert_error(report, "builder.black-market", line_of(text, f"- {move}"))
    assert report.exit_code == 1
    message = report.errors[0].message
    assert "the Black Market takes at most one colonist, one barrel and one VP chip as payment" in message and paid in message


def test_two_payments_of_a_kind_read_back_as_written():
    from referee.moves.clauses import parse_move

    rules = load_ruleset("expansion-1")
    move = parse_move("builder", "storehouse, pay corn, pay sugar", rules)
    assert move.pay_good == "corn" and move.payments_again == (("good", "sugar"),)  # type: ignore[union-attr]
    assert move.text(rules) == "storehouse, pay corn, pay sugar"
    assert parse_move("builder", move.text(rules), rules) == move


def test_black_market_is_no_use_to_a_player_with_money_left():
    # rich players: Anna would keep 55 of her 59 doubloons
    text = log("""
        # round 1: governor Anna
        - builder: Anna
          moves:
            - Anna: black market
        - mayor: Ben
        - craftsman: Cleo
        # round 2: governor Ben
        - builder: Ben
          moves:
            - Anna: guest house, pay colonist indigo
        """)
    report = check(text)
    assert_error(report, "builder.black-market", line_of(text, "- Anna: guest house, pay colonist indigo"))
    assert "Anna has 59 doubloons and would pay 3" in report.errors[0].message


# --- Guest House: its colonists move once, outside the mayor phase, and work at once -------------

GUESTS = """
# round 1: governor Anna
- settler: Anna
  moves:
    - Anna: quarry
    - Ben: corn
    - Cleo: sugar
  reveal: [tobacco, sugar, corn, indigo]
- builder: Ben
  moves:
    - Anna: guest house
- mayor: Cleo
  moves:
    - Anna: indigo, guest house 2   # 3 colonists; the quarry is empty
# round 2: governor Ben
"""


def test_a_guest_moves_onto_an_empty_quarry_and_works_it_at_once():
    text = log(GUESTS + "- builder: Ben\n  moves:\n    - Anna: guest quarry, storehouse for 2\n")  # cost 3, quarry -1
    assert_valid(check(text))
    anna = board(replayed(text), "Anna")
    assert anna.buildings == {"guest-house": 1, "storehouse": 0}
    assert anna.manned == {"indigo": 1, "quarry": 1}


def test_without_a_guest_moved_the_quarry_stays_empty():
    text = log(GUESTS + "- builder: Ben\n  moves:\n    - Anna: storehouse for 2\n")
    report = check(text)
    assert_error(report, "builder.price", line_of(text, "- Anna: storehouse for 2"))
    assert "costs Anna 3" in report.errors[0].message


def test_guests_do_not_move_in_the_mayor_phase():
    text = log(GUESTS + "- mayor: Ben\n  moves:\n    - Anna: guest quarry\n")
    assert_error(check(text), "guest.mayor-phase", line_of(text, "- Anna: guest quarry"))


@pytest.mark.parametrize(
    "move, rule",
    [
        ("Anna: guest indigo, storehouse", "guest.place"),  # her indigo is occupied
        ("Anna: guest sugar, storehouse", "guest.place"),  # she has no sugar plantation
        ("Anna: guest guest house, storehouse", "guest.place"),  # not onto the guest house itself
        ("Ben: guest corn", "guest.empty"),  # Ben has no guest house
    ],
    ids=["occupied", "not-owned", "guest-house-itself", "no-guest-house"],
)
def test_guest_misuse_is_refused(move, rule):
    text = log(GUESTS + f"- builder: Ben\n  moves:\n    - {move}\n")
    assert_error(check(text), rule, line_of(text, f"- {move}"))


def test_a_guest_clause_in_a_game_without_a_guest_house_says_so():
    text = game_log("- settler: Anna\n  moves:\n    - Anna: guest indigo, indigo\n")
    report = check(text)
    assert_error(report, "guest.empty", line_of(text, "- Anna: guest indigo, indigo"))
    assert report.errors[0].message.startswith("Puerto Rico (2002) has no building whose colonists move as guests: write the move without 'guest'")


def test_a_guest_house_holds_two_guests_only():
    # Anna takes a sugar plantation (unoccupied) in round 2: quarry, sugar and a third guest for corn
    text = log(
        GUESTS + "- settler: Ben\n  moves:\n    - Ben: tobacco\n    - Cleo: corn\n    - Anna: sugar\n"
        "  reveal: [coffee, tobacco, indigo, corn]\n"
        "- builder: Cleo\n  moves:\n    - Anna: guest quarry, guest sugar, guest corn\n"
    )
    assert_error(check(text), "guest.empty", line_of(text, "- Anna: guest quarry, guest sugar, guest corn"))


# --- Storehouse: 3 barrels of any kinds besides the windrose's one; `keep` with counts -------
# The expansion-1 fixture game (real ruleset), cut after the loads of round 13's captain phase:
# Mateo holds 3 corn and 3 indigo that no ship can take, and an occupied storehouse; Greta holds
# 3 indigo and 2 sugar and has no storehouse.

FIXTURE = FIXTURES / "expansion-1" / "game-3p.yaml"
LOADED = "      - Greta: 4 indigo on 4\n"


def storehouse(keep: dict[str, str] | None, then: str = "") -> str:
    text = FIXTURE.read_text()
    head = text[: text.index(LOADED) + len(LOADED)]
    if keep is not None:
        head += "    keep:\n" + "".join(f"      {p}: {k}\n" for p, k in keep.items())
    return head + then


@pytest.mark.parametrize(
    "keep, kept", [("corn 2, indigo 2", {"corn": 2, "indigo": 2}), ("indigo all, corn", {"indigo": 3, "corn": 1}), ("corn 3", {"corn": 3})]
)
def test_storehouse_keeps_three_barrels_more_with_counts(keep, kept):
    text = storehouse({"Greta": "indigo", "Mateo": keep})
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Mateo").goods == kept
    assert board(game, "Greta").goods == {"indigo": 1}


def test_storehouse_keeps_no_more_than_four_barrels_in_all():
    text = storehouse({"Greta": "indigo", "Mateo": "corn 3, indigo 2"})
    report = check(text)
    assert_error(report, "captain.keep", line_of(text, "Mateo: corn 3, indigo 2"))
    assert report.errors[0].message == "Mateo can keep 4 barrels, not corn 3, indigo 2"


def test_without_a_storehouse_only_the_windrose_barrel_stays():
    text = storehouse({"Greta": "indigo 2", "Mateo": "corn 2, indigo 2"})
    report = check(text)
    assert_error(report, "captain.keep", line_of(text, "Greta: indigo 2"))
    assert report.errors[0].message == "Greta can keep 1 barrel, not indigo 2"


def test_a_storehouse_owner_still_chooses_what_to_keep():
    text = storehouse({"Greta": "indigo"}, "  # round 14: governor Mateo\n  - mayor: Mateo\n")
    report = check(text)
    assert_error(report, "captain.keep-missing", last_line_of(text, "- mayor: Mateo"))
    assert "Mateo (3 indigo, 3 corn)" in report.errors[0].message


def test_a_storehouse_does_not_excuse_from_loading():
    text = storehouse(None).replace("      - Mateo: 1 corn                # the 6-ship is full\n", "")
    report = check(text)
    assert_error(report, "turn.not-your-turn", line_of(text, "- Greta: 4 indigo on 4"))
    assert "Mateo must load" in report.errors[0].message


# --- Trading Post: one barrel to the owner's own post; the privilege counts, markets do not ----
# The cost-1 space holds the small market here (Cleo builds one).

TRADING_POST = """
# round 1: governor Anna
- builder: Anna
  moves:
    - Anna: small indigo plant
    - Ben: small indigo plant
    - Cleo: small market
- mayor: Ben
- craftsman: Cleo                     # Anna 1 indigo, Ben 1 indigo, Cleo 1 corn and the extra
# round 2: governor Ben
- builder: Ben
  moves:
    - Ben: trading post
    - Cleo: trading post
- mayor: Cleo
- craftsman: Anna                     # Anna 1 indigo and the extra, Ben 1 indigo, Cleo 1 corn
# round 3: governor Cleo
- trader: Cleo
  moves:
"""


def trading_post(*moves: str) -> str:
    return log(TRADING_POST + "".join(f"    - {m}\n" for m in moves), buildings=swap(("aqueduct", "small market")))


def test_trading_post_takes_any_kind_with_the_trader_privilege_and_without_markets():
    text = trading_post(
        "Cleo: trading post corn for 1",  # price 0, trader +1; her small market adds nothing here
        "Anna: indigo for 1",
        "Ben: trading post indigo for 1",  # indigo is already in the trading house
    )
    assert_valid(check(text))
    game = replayed(text)
    assert game.trading_house == ["indigo"]
    # Anna: small indigo plant 0 (builder), sale 1; Ben: small indigo plant 1, trading post 4 (builder),
    # sale 1; Cleo: small market 1, trading post 5, the trader card's 2 doubloons, sale 1
    assert [b.doubloons for b in game.boards] == [60 + 1, 60 - 1 - 4 + 1, 60 - 1 - 5 + 2 + 1]
    assert game.goods_supply["corn"] == 10 - 3 + 1  # the barrel goes back to the supply


@pytest.mark.parametrize(
    "moves, rule, bad",
    [
        (("Cleo: trading post corn for 2",), "trader.income", "- Cleo: trading post corn for 2"),  # no small market bonus
        (("Cleo: pass", "Anna: trading post indigo"), "trader.trading-post", "- Anna: trading post indigo"),  # Anna has none
        (("Ben: trading post indigo", "Ben: indigo"), "turn.not-your-turn", "- Ben: indigo"),  # still one sale a phase
    ],
    ids=["market-bonus", "no-trading-post", "second-sale"],
)
def test_trading_post_misuse_is_refused(moves, rule, bad):
    text = trading_post(*moves)
    assert_error(check(text), rule, line_of(text, bad))


def test_an_unoccupied_trading_post_buys_nothing():
    text = log(
        TRADING_POST.split("- mayor: Cleo")[0] + "- trader: Cleo\n  moves:\n    - Ben: trading post indigo\n",
        buildings=swap(("aqueduct", "small market")),
    )
    report = check(text)
    assert_error(report, "trader.trading-post", line_of(text, "- Ben: trading post indigo"))
    assert "Ben has no occupied Trading Post" in report.errors[0].message


# --- Church: +1 VP for a column-2 or -3 building, +2 for column 4, when its owner builds ---------

CHURCH = """
# round 1: governor Anna
- builder: Anna
  moves:
    - Anna: church
- mayor: Ben
- craftsman: Cleo
# round 2: governor Ben
- builder: Ben
  moves:
"""


@pytest.mark.parametrize(
    "building, vp",
    [("aqueduct", 0), ("small indigo plant", 0), ("guest house", 1), ("tobacco storage", 1), ("library", 1), ("cloister", 2), ("statue", 2)],
)
def test_church_gives_vp_by_the_column_of_the_building(building, vp):
    text = log(CHURCH + f"    - Ben: city hall\n    - Anna: {building}\n")
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Anna").vp == vp
    assert board(game, "Ben").vp == 0  # Ben has no church
    assert game.vp_chips == 75 - vp


def test_an_unoccupied_church_gives_nothing():
    text = log(CHURCH.replace("- mayor: Ben", "- trader: Ben") + "    - Anna: cloister\n")
    assert_valid(check(text))
    assert board(replayed(text), "Anna").vp == 0


def test_church_vp_can_take_the_last_chip_and_end_the_game():
    # One VP chip (test ruleset): the church's VP in round 2's builder phase takes it; the game
    # ends at the end of round 2 (docs/rule-decisions.md: a VP trigger in any phase ends the game at the end of the round).
    text = log(
        CHURCH,
        """
            - Anna: guest house               # column 2: 1 VP, the last chip
        - mayor: Cleo
        - trader: Anna
        # round 3: governor Cleo
        - settler: Cleo
        """,
        ruleset=ONE_CHIP,
    )
    report = check(text)
    assert_error(report, "game.over", line_of(text, "- settler: Cleo"))
    assert "the VP chips ran out" in report.errors[0].message
    complete = check(text.split("  # round 3")[0])
    assert complete.errors == [] and complete.complete


# --- Specialty Factory: doubloons, one less than the most barrels of one kind (corn excepted) -----

SPECIALTY = """
# round 1: governor Anna
- settler: Anna
  moves:
    - Anna: indigo
    - Ben: sugar
    - Cleo: corn
  reveal: [tobacco, sugar, corn, indigo]
- builder: Ben
  moves:
    - Cleo: specialty factory
    - Anna: indigo plant
- mayor: Cleo
  moves:
    - Anna: indigo 2, indigo plant      # 3 colonists
# round 2: governor Ben
- builder: Ben
  moves:
    - Anna: specialty factory
- mayor: Cleo                           # every circle filled: Anna produces 2 indigo
- craftsman: Anna
  doubloons: 1
"""


def test_specialty_factory_pays_one_less_than_the_most_barrels_of_a_kind():
    text = log(SPECIALTY)
    assert_valid(check(text))
    anna = board(replayed(text), "Anna")
    assert anna.goods == {"indigo": 3}  # 2 produced and the extra
    assert anna.doubloons == 60 - 3 - 8 + 1 + 1  # the card's doubloon, and 2 indigo produced -> 1


def test_specialty_factory_does_not_count_corn():
    game = replayed(log(SPECIALTY))
    cleo = board(game, "Cleo")
    assert cleo.goods == {"corn": 2} and cleo.manned["corn"] == 2 and cleo.buildings["specialty-factory"] == 1
    assert cleo.doubloons == 60 - 8  # 2 corn: nothing


def test_specialty_factory_gives_no_barrel():
    text = log(SPECIALTY + "  moves:\n    - Cleo: extra corn\n")
    assert_error(check(text), "craftsman.not-craftsman", line_of(text, "- Cleo: extra corn"))


# --- Library: every privilege of its owner doubled -------------------------------------------------

LIBRARY = """
# round 1: governor Anna
- settler: Anna
  moves:
    - Anna: corn
    - Ben: sugar
    - Cleo: indigo
  reveal: [tobacco, sugar, corn, indigo]
- builder: Ben
  moves:
    - Anna: library
- mayor: Cleo                           # Anna: indigo, corn, library
# round 2: governor Ben
"""


def library(phases: str) -> str:
    return log(LIBRARY, phases)


def test_library_settler_takes_a_second_plantation_after_everyone_else():
    text = library("""
        - trader: Ben
        - captain: Cleo
        - settler: Anna
          moves:
            - Anna: tobacco
            - Ben: sugar
            - Cleo: corn
            - Anna: indigo
          reveal: [coffee, sugar, corn, indigo]
        """)
    assert_valid(check(text))
    assert board(replayed(text), "Anna").island == {"indigo": 2, "corn": 1, "tobacco": 1}


def test_library_second_pick_comes_after_everyone_else():
    text = library("""
        - trader: Ben
        - captain: Cleo
        - settler: Anna
          moves:
            - Anna: tobacco
            - Anna: indigo
            - Ben: sugar
          reveal: [coffee, sugar, corn, indigo]
        """)
    assert_error(check(text), "turn.not-your-turn", line_of(text, "- Ben: sugar", nth=2))


def test_library_second_pick_is_a_face_up_plantation_not_a_quarry():
    text = library("""
        - trader: Ben
        - captain: Cleo
        - settler: Anna
          moves:
            - Anna: quarry
            - Ben: sugar
            - Cleo: corn
            - Anna: quarry
          reveal: [coffee, sugar, corn, indigo]
        """)
    report = check(text)
    assert [d.location.line if d.location else None for d in report.errors] == [line_of(text, "- Anna: quarry", nth=2)]


def test_library_doubles_only_its_owners_own_privilege():
    text = library("""
        - settler: Ben
          moves:
            - Ben: tobacco
            - Cleo: sugar
            - Anna: corn
            - Anna: indigo
        """)
    assert_error(check(text), "turn.not-your-turn", line_of(text, "- Anna: indigo"))


def test_library_mayor_takes_two_colonists_from_the_supply():
    text = library("- trader: Ben\n- captain: Cleo\n- mayor: Anna\n")
    assert_valid(check(text))
    before = replayed(library("- trader: Ben\n- captain: Cleo\n"))
    game = replayed(text)
    assert board(game, "Anna").colonists() == 3 + 2 + 3  # privilege 2, and 3 from the ship
    assert board(game, "Ben").colonists() == 3 + 3
    refill = 9
    assert game.colonist_supply == before.colonist_supply - 2 - refill


@pytest.mark.parametrize("price, ok", [(8, True), (9, False)])
def test_library_builder_pays_two_less(price, ok):
    text = library(f"- trader: Ben\n- captain: Cleo\n- builder: Anna\n  moves:\n    - Anna: cloister for {price}\n    - Ben: statue for 10\n")
    if ok:
        assert_valid(check(text))
    else:
        report = check(text)
        assert_error(report, "builder.price", line_of(text, "- Anna: cloister for 9"))
        assert "builder -2" in report.errors[0].message


def test_an_unoccupied_library_doubles_nothing():
    text = log("""
        # round 1: governor Anna
        - builder: Anna
          moves:
            - Anna: library
        - trader: Ben
        - captain: Cleo
        # round 2: governor Ben
        - trader: Ben
        - captain: Cleo
        - builder: Anna
          moves:
            - Anna: cloister for 8
        """)
    report = check(text)
    assert_error(report, "builder.price", line_of(text, "- Anna: cloister for 8"))
    assert "costs Anna 9" in report.errors[0].message


@pytest.mark.parametrize("extra, corn", [("extra corn, corn", 3), ("extra corn", 2), ("extra none", 1)])
def test_library_craftsman_takes_two_extra_barrels(extra, corn):
    text = library(f"- trader: Ben\n- captain: Cleo\n- craftsman: Anna\n  moves:\n    - Anna: {extra}\n")
    assert_valid(check(text))
    assert board(replayed(text), "Anna").goods == {"corn": corn}


def test_library_craftsman_takes_no_third_extra_barrel():
    text = library("- trader: Ben\n- captain: Cleo\n- craftsman: Anna\n  moves:\n    - Anna: extra corn, corn, corn\n")
    assert_error(check(text), "craftsman.extra-count", line_of(text, "- Anna: extra corn, corn, corn"))


def test_library_craftsman_extras_may_be_omitted_when_one_kind_was_produced():
    text = library("- trader: Ben\n- captain: Cleo\n- craftsman: Anna\n# round 3: governor Cleo\n- builder: Cleo\n")
    assert_valid(check(text))
    assert board(replayed(text), "Anna").goods == {"corn": 3}


@pytest.mark.parametrize("income, ok", [(2, True), (1, False)])
def test_library_trader_gets_two_more(income, ok):
    text = library(f"- craftsman: Ben\n- builder: Cleo\n- trader: Anna\n  moves:\n    - Anna: corn for {income}\n")
    if ok:
        assert_valid(check(text))
        assert board(replayed(text), "Anna").doubloons == 60 - 8 + 1 + 2  # the card's doubloon, the sale
    else:
        assert_error(check(text), "trader.income", line_of(text, "- Anna: corn for 1"))


def test_library_captain_gets_two_more_vp():
    text = library("""
        - craftsman: Ben                # Anna and Cleo: 1 corn each
        - builder: Cleo
        - captain: Anna
          moves:
            - Anna: 1 corn on 4         # 1 VP and 2 for the privilege
            - Cleo: 1 corn
        """)
    assert_valid(check(text))
    game = replayed(text)
    assert [b.vp for b in game.boards] == [3, 0, 1]


def test_library_prospector_takes_two_doubloons():
    text = log(
        """
        # round 1: governor Anna
        - builder: Anna
          moves:
            - Anna: library
        - mayor: Ben                    # 12 colonists on the ship: 3 each, and Ben's privilege
        - trader: Cleo
        - prospector: Dan
        # round 2: governor Ben
        - trader: Ben
        - builder: Cleo
        - mayor: Dan
        - prospector: Anna
          doubloons: 0
        """,
        ruleset=RICH_4P,
        players=("Anna", "Ben", "Cleo", "Dan"),
        plantations=("indigo", "sugar", "corn", "coffee", "tobacco"),
    )
    assert_valid(check(text))
    game = replayed(text)
    assert board(game, "Anna").doubloons == 60 - 7 + 2
    assert board(game, "Dan").doubloons == 60 + 1  # no library: 1


# --- Cloister (docs/rule-decisions.md): sets of 3 identical island tiles, quarries and forests included: 1/3/6/10 --------

EXP = load_ruleset("expansion-1")


def one_board(island: dict[str, int], buildings: dict[str, int]):  # type: ignore[no-untyped-def]
    (s,) = score([Board(name="Anna", doubloons=0, island=island, buildings=buildings)], EXP)
    return s


@pytest.mark.parametrize(
    "island, bonus",
    [
        ({"corn": 2, "indigo": 2, "quarry": 2}, 0),
        ({"indigo": 3}, 1),
        ({"indigo": 3, "corn": 3}, 3),
        ({"indigo": 3, "corn": 3, "quarry": 3}, 6),
        ({"indigo": 3, "quarry": 3, "forest": 3, "sugar": 3}, 10),
        ({"forest": 3, "coffee": 2}, 1),
        ({"corn": 6}, 3),  # each tile in one set only: 6 corn are 2 sets
        ({"corn": 5, "sugar": 2}, 1),
        ({"corn": 12}, 10),
    ],
)
def test_cloister_counts_sets_of_three_identical_tiles(island, bonus):
    s = one_board(island, {"cloister": 1})
    assert s.buildings == 4
    assert s.bonus_by_building == {"Cloister": bonus}


def test_an_unoccupied_cloister_gives_no_bonus():
    s = one_board({"indigo": 3, "corn": 3}, {"cloister": 0})
    assert (s.buildings, s.bonus_by_building, s.total) == (4, {}, 4)


# One VP chip (test ruleset): Ben's load takes it in round 2's captain phase, and the game ends
# with round 2. Anna's occupied cloister: 3 indigo tiles, one set, 1 VP.
CLOISTER_GAME = """
# round 1: governor Anna
- settler: Anna
  moves:
    - Anna: indigo
    - Ben: corn
    - Cleo: sugar
  reveal: [indigo, tobacco, corn, coffee]
- builder: Ben
  moves:
    - Anna: cloister
- mayor: Cleo                           # Anna: indigo 2, cloister
# round 2: governor Ben
- settler: Ben
  moves:
    - Ben: corn
    - Cleo: coffee
    - Anna: indigo                      # her third indigo tile
  reveal: [sugar, tobacco, corn, indigo]
- craftsman: Cleo                       # Cleo 1 corn and the extra, Ben 1 corn
- captain: Anna
  moves:
    - Ben: 1 corn on 4                  # the last chip
    - Cleo: 2 corn
"""


@pytest.mark.parametrize("anna, ok", [(5, True), (7, False)])
def test_cloister_scores_in_a_finished_game(anna, ok):
    text = log(CLOISTER_GAME, ruleset=ONE_CHIP) + f"result: {{Anna: {anna}, Ben: 1, Cleo: 2}}\n"
    report = check(text)
    if ok:
        assert_valid(report)
        assert report.complete
        by = {s.player: (s.total, s.buildings, s.bonus_by_building) for s in report.scores or []}
        assert by["Anna"] == (5, 4, {"Cloister": 1})
    else:  # the table counted 2 sets (3 VP) for the cloister
        assert_error(report, "result.mismatch", line_of(text, "result:"))


# --- Statue: 8 VP, no circle -------------------------------------------------------------------


def test_statue_scores_8_without_a_colonist():
    s = one_board({"indigo": 1}, {"statue": 0})
    assert (s.buildings, s.bonus_by_building, s.total) == (8, {}, 8)


def test_statue_has_no_circle_and_needs_none():
    text = log("- builder: Anna\n  moves:\n    - Anna: statue for 9\n- mayor: Ben\n")
    report = check(text, provisional=True)
    assert_valid(report)
    game = replayed(text)
    anna = board(game, "Anna")
    assert anna.buildings == {"statue": 0} and anna.san_juan == 2  # indigo occupied, the rest waits
    assert game.colonist_ship == 9  # the refill minimum: the statue has no empty circle
    by = {s.player: (s.total, s.buildings, s.bonus_by_building) for s in report.scores or []}
    assert by["Anna"] == (8, 8, {})


def test_no_colonist_goes_on_the_statue():
    text = log("- builder: Anna\n  moves:\n    - Anna: statue\n- mayor: Ben\n  moves:\n    - Anna: indigo, statue, san juan 1\n")
    report = check(text)
    assert_error(report, "mayor.arrangement", line_of(text, "- Anna: indigo, statue, san juan 1"))
    assert "the Statue has 0 circles" in report.errors[0].message


def test_the_university_puts_no_colonist_on_the_statue():
    text = log(
        "- builder: Anna\n  moves:\n    - Anna: university\n- mayor: Ben\n- craftsman: Cleo\n- builder: Ben\n  moves:\n    - Anna: statue, university\n",
        buildings=swap(("library", "university")),
    )
    assert_error(check(text), "builder.university", line_of(text, "- Anna: statue, university"))


# --- City Hall and Guild Hall with the new buildings (all 14 are violet, none is production) --------


def test_city_hall_counts_the_new_violet_buildings():
    s = one_board(
        {"indigo": 1},
        {"city-hall": 1, "statue": 0, "aqueduct": 0, "storehouse": 0, "library": 0, "guest-house": 0, "small-indigo-plant": 0, "indigo-plant": 0},
    )
    assert s.bonus_by_building == {"City Hall": 6}  # city hall, statue, aqueduct, storehouse, library, guest house


def test_guild_hall_ignores_the_new_buildings():
    s = one_board(
        {"indigo": 1},
        {"guild-hall": 1, "aqueduct": 0, "specialty-factory": 0, "forest-house": 0, "cloister": 0, "small-indigo-plant": 0, "indigo-plant": 0},
    )
    assert s.bonus_by_building == {"Guild Hall": 1 + 2}  # small indigo plant 1, indigo plant 2; the four new buildings 0


def test_a_full_trading_house_leaves_the_trading_post_among_the_legal_moves():
    """Validation accepts a sale to one's own trading post once the house is full: the legal
    moves (random play, the 'legal here' of diagnostics) list it too (issue 18.2)."""
    from referee.engine import legal
    from referee.moves.clauses import Sell

    game = replayed(log(TRADING_POST.split("# round 3")[0], buildings=swap(("aqueduct", "small market"))))
    anna, ben, cleo = 0, 1, 2
    game.choose_role(cleo, "trader")
    game.trading_house = ["indigo", "sugar", "tobacco"]  # from earlier rounds
    game.play(cleo, Sell(good="corn"))  # the fourth barrel: the house is full
    assert game.trading_house == ["indigo", "sugar", "tobacco", "corn"]
    # the turns go on, a pass still theirs to write: Anna, who has no trading post, may only pass; Ben has one, and indigo
    assert legal.to_move(game) == [anna, ben] and [m.text(game.rules) for m in legal.legal_moves(game, anna)] == ["pass"]
    texts = [m.text(game.rules) for m in legal.legal_moves(game, ben)]
    assert "trading post indigo for 1" in texts and not any(text.startswith("indigo") for text in texts)  # with its income, as every sale is listed
    before = game.boards[ben].goods["indigo"]
    game.play(ben, next(m for m in legal.legal_moves(game, ben) if m.text(game.rules) == "trading post indigo for 1"))
    assert game.boards[ben].goods["indigo"] == before - 1  # one barrel sold to his own post


def test_a_guest_moves_on_its_own_in_a_captain_phase():
    """Issue 18.1: a guest may move at any time outside the mayor phase, also in a captain phase,
    where moves are loads only: written where it happens, it is a move of its own."""
    text = log(GUESTS + "- captain: Ben\n  moves:\n    - Anna: guest quarry\n")
    assert_valid(check(text))
    assert board(replayed(text), "Anna").manned == {"indigo": 1, "quarry": 1}


def test_a_guest_move_in_a_captain_phase_still_follows_the_guest_rules():
    text = log(GUESTS + "- captain: Ben\n  moves:\n    - Anna: guest sugar\n")  # she has no sugar plantation
    assert_error(check(text), "guest.place", line_of(text, "- Anna: guest sugar"))
    text = log(GUESTS + "- captain: Ben\n  moves:\n    - Anna: pass\n")  # a pass is still no captain's move
    assert_error(check(text), "captain.no-pass", line_of(text, "- Anna: pass"))


@pytest.mark.parametrize("seed", range(12))
def test_every_move_the_engine_accepts_is_among_the_legal_moves(monkeypatch, seed):
    """Issue 18.2's property, over random expansion-1 games with every building: at each step of
    a settler, craftsman or trader phase, any player's move that the engine accepts (a pass
    aside) is listed by the legal moves, and that player among those to move."""
    from referee.engine import legal
    from referee.engine.game import Game
    from referee.jobs.play import play

    real = Game.play_unchecked  # how random play plays the moves the engine lists
    checking = [False]
    checked = [0]

    def play_checked(self: Game, p: int, move):  # type: ignore[no-untyped-def]
        phase = self.phase
        if not checking[0] and phase is not None and phase.role in ("settler", "craftsman", "trader"):
            checking[0] = True
            try:
                movers = legal.to_move(self)
                for q in range(self.n):
                    listed = legal.legal_moves(self, q) if q in movers else []
                    for candidate in phase.candidates(q):
                        if candidate.kind != "pass" and legal.accepts(self, q, candidate):  # a pass is implied by any later move
                            checked[0] += 1
                            assert q in movers and candidate in listed, (phase.role, q, candidate)
            finally:
                checking[0] = False
        return real(self, p, move)

    monkeypatch.setattr(Game, "play_unchecked", play_checked)
    play(load_ruleset("expansion-1"), 3, seed)
    assert checked[0] > 50



def _captain_candidates(game, q: int):  # type: ignore[no-untyped-def]
    """Every load a player might write, whatever the rules say: each good held, each count up to
    what they hold, each ship; the wharf with each good; the small wharf with each mix; and
    `pass`, a turn let go (an independent source, not the engine's list)."""
    from itertools import product

    from referee.moves.clauses import Load, Pass, SmallWharfLoad, WharfLoad

    yield Pass()
    held = {good: n for good, n in game.boards[q].goods.items() if n > 0}
    for good, n in held.items():
        for count in range(1, n + 1):
            for ship in game.ships:
                yield Load(good=good, count=count, ship=ship.size)
        yield WharfLoad(good=good)
    kinds = sorted(held)
    for counts in product(*(range(held[k] + 1) for k in kinds)):
        if any(counts):
            yield SmallWharfLoad(goods=tuple((k, c) for k, c in zip(kinds, counts, strict=True) if c))


def _in_order(move):  # type: ignore[no-untyped-def]
    """A small wharf's shipment with its kinds sorted: one move, whatever order its barrels are
    written in (the engine lists each once, in the order the board holds them)."""
    from referee.moves.clauses import SmallWharfLoad

    return SmallWharfLoad(goods=tuple(sorted(move.goods))) if isinstance(move, SmallWharfLoad) else move


# The last test reads what every game's comparisons met (`compared_loads`, cached): one worker
# running the group in its order (pytest-xdist's loadgroup) spares it the games; in any other
# worker, or alone, it plays again those it lacks.
IN_ORDER = pytest.mark.xdist_group("expansion-loads")
LOAD_GAMES = [(name, seed) for name in ("expansion-1", "base") for seed in range(6)] + [("base", 9), ("base", 11)]  # 9, 11: wharfs


@cache
def compared_loads(ruleset: str, seed: int) -> Counter[str]:
    """A random game of `ruleset` (3 to 5 players, by `seed`) in which, at every step of every
    captain phase, every load anyone might write (an independent, exhaustive list, each tried in
    the engine) that the engine accepts is among the legal moves of that step: the kinds of load
    compared (a failed comparison raises, and is not cached)."""
    from referee.engine import legal
    from referee.engine.phases.captain import Captain
    from referee.jobs.play import play

    real = Game.play_unchecked  # how random play plays the moves the engine lists
    checking = [False]
    checked: Counter[str] = Counter()

    def play_checked(self: Game, p: int, move, guests=()):  # type: ignore[no-untyped-def]
        phase = self.phase
        if not checking[0] and isinstance(phase, Captain):
            checking[0] = True
            try:
                for q in range(self.n):
                    listed = {_in_order(move) for move in legal.legal_moves(self, q)}
                    for candidate in _captain_candidates(self, q):
                        if legal.accepts(self, q, candidate):
                            checked[candidate.kind] += 1
                            assert _in_order(candidate) in listed, (q, candidate)
            finally:
                checking[0] = False
        return real(self, p, move)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Game, "play_unchecked", play_checked)
        play(load_ruleset(ruleset), 3 + seed % 3, seed)
    return checked


@IN_ORDER
@pytest.mark.parametrize(("ruleset", "seed"), LOAD_GAMES)
def test_every_load_the_engine_accepts_is_among_the_legal_moves(ruleset, seed):
    """Issue 18.2's property in the captain phase: every load anyone may make is among the legal
    moves of that step (`compared_loads`). (In the other phases the legal moves are the
    candidates the engine accepts, and the property above holds for them.)"""
    checked = compared_loads(ruleset, seed)
    assert checked["load"] > 15, checked  # (a game's loads number 19 to 60)


@IN_ORDER
def test_the_load_property_saw_every_kind_of_load():
    """Over the games above (`compared_loads`: any this process has not played are played here):
    they used wharfs and small wharfs too, and turns that could be let go, so that each kind of
    load, and `pass`, was compared with the legal moves."""
    seen = sum((compared_loads(ruleset, seed) for ruleset, seed in LOAD_GAMES), Counter())
    assert seen["load"] and seen["wharf"] and seen["small-wharf"] and seen["pass"], seen


# --- Library in the two-player game (docs/rule-decisions.md): once per round -------------


def library_game(players: int) -> tuple[Game, int]:
    """A game of `players` in which the first player's occupied library is their only building."""
    rules = load_ruleset("expansion-1")
    game = Game(rules, ["Anna", "Ben", "Cleo"][:players], ["indigo", "sugar", "corn", "coffee"][: players + 1], [ident(b) for b in SELECTION])
    game.boards[0].buildings["library"] = 1
    return game, rules.players(players).doubloons


def test_in_a_two_player_game_the_library_doubles_the_first_privilege_of_each_round_only():
    from referee.moves.clauses import Pass

    game, start = library_game(2)
    game.choose_role(0, "prospector")  # Anna's first role of the round: 2 doubloons, not 1
    assert game.boards[0].doubloons == start + 2
    game.finish_phase()
    game.choose_role(1, "settler")
    game.play(1, Pass())
    game.play(0, Pass())
    game.finish_phase(reveal=["tobacco", "indigo", "sugar"])
    game.choose_role(0, "mayor")  # her second role of the round: the privilege once, not twice
    assert game.phase is not None and not game.phase.doubled
    assert game.boards[0].san_juan == 1 + 1  # the privilege colonist, and one from the ship


def test_with_three_players_the_library_doubles_every_privilege():
    game, _ = library_game(3)
    game.choose_role(0, "mayor")  # 2 privilege colonists, and one of the 3 on the ship
    assert game.boards[0].san_juan == 2 + 1
    assert game.privilege_doubled(0) and game.privilege_doubled(0)  # no limit with 3 players


def test_with_a_library_the_mayor_may_decline_one_or_both_privilege_colonists():
    """docs/formats/game-log.md, version 3: two fewer with a library, or one of two. Anna has the
    library's colonist, the privilege's two and one from the ship: 4 for 2 circles (her indigo
    plantation and the library); 3 or 2 say that she declined one or both."""
    from referee.diagnostics import RuleViolation
    from referee.engine import legal
    from referee.moves.clauses import parse_move

    game, _ = library_game(3)
    supply = game.colonist_supply
    game.choose_role(0, "mayor")
    rules = game.rules
    assert [m.text(rules) for m in legal.legal_moves(game, 0)] == ["indigo, library, san juan 2", "indigo, library, san juan 1", "indigo, library"]
    assert legal.count_moves(game, 0) == 3
    with pytest.raises(RuleViolation) as refused:  # three fewer: more than the privilege gave
        game.play(0, parse_move("mayor", "library", rules))
    assert refused.value.rule == "mayor.colonist-count"
    assert refused.value.message == "Anna has 4 colonists; the arrangement accounts for 1 (1 placed, 0 in San Juan), not 4 (or 3 or 2, one or both of the privilege's colonists declined)"
    game.play(0, parse_move("mayor", "indigo, library", rules))
    assert game.boards[0].colonists() == 2
    assert game.colonist_supply == supply  # both declined: back in the supply
