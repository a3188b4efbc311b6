"""Expansion I powers of the captain phase: small wharf, lighthouse, union hall, in logs and in
the shipping calculator. Logs use the rich test ruleset (60 doubloons, 9 colonists on the ship)
so that the buildings are built and manned in round 1."""

from __future__ import annotations

import json
import subprocess
import sys

from referee.documents.position import read_position
from referee.jobs.shipping.phase import CaptainPhase, setup
from referee.moves.clauses import Load
from tests.conftest import assert_error, assert_valid, check, line_of

SELECTION = (
    "[aqueduct, forest house, black market, storehouse, guest house, trading post, church, small wharf, lighthouse, "
    "specialty factory, library, union hall, cloister, statue, guild hall, residence, city hall]"
)
HEAD = f"""ruleset: tests/rulesets/rich.yaml
players: [Anna, Ben, Cleo]
setup:
  plantations: [indigo, sugar, corn, coffee]
  buildings: {SELECTION}
phases:
  # round 1: governor Anna
  - settler: Anna
    moves:
      - Anna: corn
    reveal: [corn, sugar, coffee, tobacco]
  - builder: Ben
    moves:
      - Ben: lighthouse for 6
      - Cleo: union hall for 9
      - Anna: small wharf for 6
  - mayor: Cleo
  # round 2: governor Ben
  - craftsman: Ben
  - builder: Cleo
  - settler: Anna
    reveal: [indigo, indigo, tobacco, coffee]
  # round 3: governor Cleo
  - craftsman: Cleo
"""


def log(captain: str) -> str:
    return HEAD + captain


def state(text: str):
    from referee.documents.log import read_log
    from referee.jobs.replays import replay

    return replay(read_log(text, "game.yaml")).game


def test_union_hall_lighthouse_and_small_wharf_in_one_captain_phase():
    text = log("""  - builder: Anna
  - captain: Ben
    doubloons: 2
    moves:
      - Cleo: 3 corn on 4
      - Anna: small wharf corn 2
""")
    assert_valid(check(text))
    g = state(text)
    before = state(HEAD + "  - builder: Anna\n").boards[1].doubloons
    anna, ben, cleo = g.boards
    assert cleo.vp == 1 + 3  # a pair of corn before her first load, then 3 barrels
    assert anna.vp == 1  # 2 barrels on the small wharf: 1 VP
    assert ben.doubloons == before + 2 + 1  # the card's 2, and the lighthouse's 1 to its owner as the captain
    assert anna.goods.get("corn", 0) == 0 and g.goods_supply["corn"] == 10 - 3  # the wharfed corn is back, 3 on the ship


def test_small_wharf_counts_as_a_load_for_the_captains_privilege():
    text = log("""  - captain: Anna
    moves:
      - Anna: small wharf corn 2
      - Cleo: 3 corn on 4
""")
    assert_valid(check(text))
    assert state(text).boards[0].vp == 1 + 1  # 1 VP for 2 barrels, +1 as the captain's first load


def test_lighthouse_pays_a_doubloon_per_load():
    # Ben owns the lighthouse but neither loads nor is the captain: nothing
    text = log("""  - captain: Anna
    moves:
      - Anna: small wharf corn 1
      - Cleo: 3 corn on 4
      - Anna: 1 corn on 4
""")
    assert_valid(check(text))
    g = state(text)
    assert g.boards[1].doubloons == state(HEAD).boards[1].doubloons  # Ben: no load, not the captain
    assert g.boards[0].vp == 0 + 1 + 1  # 1 barrel on the small wharf: 0 VP, +1 captain; then 1 corn


def test_small_wharf_only_once_a_phase():
    text = log("""  - captain: Anna
    moves:
      - Anna: small wharf corn 1
      - Cleo: 3 corn on 4
      - Anna: small wharf corn 1
""")
    assert_error(check(text), "captain.small-wharf-used", line_of(text, "- Anna: small wharf corn 1", nth=2))


def test_small_wharf_needs_the_barrels():
    text = log("""  - captain: Anna
    moves:
      - Anna: small wharf corn 3
""")
    assert_error(check(text), "captain.no-barrel", line_of(text, "- Anna: small wharf corn 3"))


def test_small_wharf_needs_an_occupied_small_wharf():
    text = log("""  - captain: Anna
    moves:
      - Anna: 2 corn on 4
      - Cleo: small wharf corn 3
""")
    assert_error(check(text), "captain.small-wharf", line_of(text, "- Cleo: small wharf corn 3"))


def test_the_calculator_knows_the_expansion_captain_powers(tmp_path):
    position = tmp_path / "position.yaml"
    position.write_text(
        "ruleset: expansion-1\n"
        "ships: {4: empty, 5: empty, 6: empty}\n"
        "players:\n"
        "  - {name: Anna, goods: {corn: 2}, buildings: [small wharf]}\n"
        "  - {name: Ben, goods: {sugar: 1}, buildings: [lighthouse]}\n"
        "  - {name: Cleo, goods: {corn: 3}, buildings: [union hall]}\n"
    )
    out = subprocess.run([sys.executable, "-m", "referee", "ship", str(position), "-f", "json", "--all"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    outcomes = json.loads(out.stdout)["outcomes"]
    # Anna (the captain) may ship her corn on the small wharf instead of a cargo ship
    assert any(o["players"]["Anna"]["shipped"] == {"corn": 2} and o["players"]["Anna"]["vp"] == 2 and o["ships"]["4"] is None for o in outcomes)
    # Ben's lighthouse pays a doubloon for his load; Cleo's union hall a VP for her pair
    assert all(o["players"]["Ben"]["doubloons"] == 1 for o in outcomes)
    assert all(o["players"]["Cleo"]["vp"] >= 1 for o in outcomes)


def test_the_engine_and_the_calculator_offer_the_same_wharf_and_small_wharf_moves():
    """One set of captain rules (referee.engine.captain_rules): the moves the engine lists for a
    wharf and small wharf owner at their turn are the ones the calculator searches, in order."""
    position = read_position(
        "ruleset: expansion-1\n"
        "ships: {4: empty, 5: empty, 6: empty}\n"
        "players:\n"
        "  - {name: Anna, goods: {corn: 2, sugar: 1}, buildings: [wharf, small wharf]}\n"
        "  - {name: Ben, goods: {sugar: 1}}\n"
        "  - {name: Cleo, goods: {corn: 3}}\n",
        "position.yaml",
    )
    _, captain = setup(position)
    engine = [move.text(position.rules) for p, move in captain.legal_moves() if p == 0 and not isinstance(move, Load)]
    phase = CaptainPhase(position)
    calculator = [phase.move(move).text(position.rules) for move, *_ in phase.private_moves(0, phase.start_goods[0], False, False, False)]
    assert engine == calculator
    # the wharf takes all of one kind; the small wharf any mix of the barrels held, not none
    assert engine == [
        "wharf corn",
        "wharf sugar",
        "small wharf sugar 1",
        "small wharf corn 1",
        "small wharf corn 1, sugar 1",
        "small wharf corn 2",
        "small wharf corn 2, sugar 1",
    ]
