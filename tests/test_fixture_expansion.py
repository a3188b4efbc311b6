"""The hand-played Expansion I fixture game (fixtures/expansion-1/game-3p.yaml).

It validates as a complete game with the real expansion-1 ruleset, ends by its own trigger (the VP
chips run out in the captain phase of round 15), uses the new buildings (built, occupied, their
powers used), and scores exactly what was computed by hand from the log: the computation is
written as comments above the log's `result:`. The numbers here are those hand computations,
independent of the referee.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

from referee.documents.log import read_log
from referee.engine.state import VP
from referee.jobs.check import check_log
from referee.jobs.replays import replay
from tests.conftest import FIXTURES

PATH = FIXTURES / "expansion-1" / "game-3p.yaml"

# player: (total, VP earned during the game, building VP, bonus by building, doubloons, barrels, rank)
EXPECTED = {
    # VP: 10 barrels shipped + captain's privilege 2+2+2 (library) + church 1+2 = 19
    # buildings: forest house 1, small sugar mill 1, library 3, church 2, guest house 2, cloister 4, storehouse 1 = 14
    # cloister: 6 forests = 2 sets of three -> 3
    "Lucia": (36, 19, 14, {"Cloister": 3}, 0, 1, 2),
    # VP: 20 barrels + captain's privilege 1+1 + church 1 - 1 VP chip paid to the black market = 22
    # buildings: black market 1, small indigo plant 1, storehouse 1, trading post 2, guest house 2, church 2, factory 3 = 12
    "Mateo": (34, 22, 12, {}, 0, 1, 3),
    # VP: 39 barrels + captain's privilege 1+1 = 41
    # buildings: aqueduct 1, small indigo plant 1, indigo plant 2, small sugar mill 1, specialty factory 3, statue 8 = 16
    "Greta": (57, 41, 16, {}, 3, 1, 1),
}

# Each new building the game uses, its owner, and the log text that uses it (one example each).
USES = {
    "forest-house": ("Lucia", "- Lucia: tobacco, forest"),
    "black-market": ("Mateo", "- Mateo: guest house for 1, pay colonist corn, pay corn, pay vp"),
    "church": ("Lucia", "- Lucia: cloister for 5"),
    "guest-house": ("Mateo", "- Mateo: guest quarry, church for 4"),
    "trading-post": ("Mateo", "- Mateo: guest trading post, trading post indigo for 2"),
    "library": ("Lucia", "- Lucia: extra sugar, sugar"),
    "aqueduct": ("Greta", "1 from her aqueduct"),
    "storehouse": ("Mateo", "Mateo: corn 2, indigo 2"),
    "specialty-factory": ("Greta", "her specialty factory pays"),
    "cloister": ("Lucia", "cloister (occupied) +3"),
    "statue": ("Greta", "- Greta: statue for 9"),
}
NOT_BUILT = ("small-wharf", "lighthouse", "union-hall")  # the captain-phase buildings (another change)


def test_fixture_first_line_is_the_schema_modeline():
    assert PATH.read_text().splitlines()[0] == "# yaml-language-server: $schema=../../schemas/game-log.schema.json"


def test_fixture_validates_complete_and_scores_as_computed_by_hand():
    report = check_log(PATH.read_bytes(), PATH.name)
    assert report.errors == []
    assert report.complete is True
    got = {s.player: (s.total, s.chips, s.buildings, dict(s.bonus_by_building), s.doubloons, s.goods, s.rank) for s in report.scores or []}
    assert got == EXPECTED


def test_fixture_result_line_holds_the_hand_totals():
    text = PATH.read_text()
    (line,) = [x for x in text.splitlines() if x.startswith("result:")]
    assert line == "result: {" + ", ".join(f"{p}: {v[0]}" for p, v in EXPECTED.items()) + "}"
    for player, (total, chips, buildings, bonus, *_rest) in EXPECTED.items():
        assert f"total {' + '.join(str(x) for x in (chips, buildings, *bonus.values()))} = {total}" in text, player


def test_fixture_ends_when_the_vp_chips_run_out_in_round_15():
    record = read_log(PATH.read_bytes(), PATH.name)
    assert record.rules.id == "expansion-1"
    run = replay(record)
    assert run.error is None and run.complete
    game = run.game
    assert game.triggers == [VP] and game.ended_round == 15
    assert game.vp_chips == 0
    assert sum(b.vp for b in game.boards) == 19 + 22 + 41  # 7 VP more than the 75 chips: counted on paper


def test_fixture_uses_the_new_buildings():
    text = PATH.read_text()
    record = read_log(PATH.read_bytes(), PATH.name)
    game = replay(record).game
    boards = {b.name: b for b in game.boards}
    for building, (owner, used) in USES.items():
        assert building in boards[owner].buildings, building
        assert used in text, building
    occupied = [b for b, (owner, _) in USES.items() if boards[owner].buildings[b] > 0]
    assert len(occupied) >= 8
    assert all(not any(b in board.buildings for board in game.boards) for b in NOT_BUILT)
    assert boards["Lucia"].island["forest"] == 6
    assert boards["Greta"].buildings["statue"] == 0  # no circle
    assert len(re.findall(r"^  # round \d+: governor \w+$", text, re.M)) == 15


def test_fixture_through_the_cli():
    out = subprocess.run([sys.executable, "-m", "referee", "validate", "-f", "json", str(PATH)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    data = json.loads(out.stdout)
    assert data["valid"] is True and data["complete"] is True
    assert {s["player"]: s["total"] for s in data["scores"]} == {p: v[0] for p, v in EXPECTED.items()}
