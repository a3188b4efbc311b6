"""The three hand-played fixture games (fixtures/game-3p.yaml, game-4p.yaml, game-5p.yaml).

Each validates as a complete game, ends by its own trigger (colonists short, a 12th city space,
the VP chips exhausted) and scores exactly what was computed by hand from the final boards (the
computation is written as comments above each log's `result:`). The numbers here are those hand
computations, independent of the referee.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.documents.log import read_log
from referee.engine.state import CITY, COLONISTS, VP
from referee.jobs.check import check_log
from referee.jobs.replays import replay
from tests.conftest import FIXTURES

# player: (total, shipping VP, building VP, bonus by building, doubloons, barrels, rank)
EXPECTED: dict[str, dict[str, tuple[int, int, int, dict[str, int], int, int, int]]] = {
    "game-3p.yaml": {
        "Ines": (44, 32, 12, {}, 4, 10, 1),
        # guild hall: small sugar mill 1 + tobacco storage 2 + coffee roaster 2 = 5
        # city hall: small market, construction hut, university, factory, guild hall, city hall = 6
        "Marek": (40, 6, 23, {"Guild Hall": 5, "City Hall": 6}, 18, 0, 3),
        # residence: 9 filled island spaces -> 4
        "Tobias": (41, 16, 21, {"Residence": 4}, 24, 1, 2),
    },
    "game-4p.yaml": {
        "Alma": (38, 29, 9, {}, 2, 12, 4),
        # guild hall: small sugar mill 1 + coffee roaster 2 + tobacco storage 2 = 5; city hall: 6 violet buildings
        "Bruno": (44, 10, 23, {"Guild Hall": 5, "City Hall": 6}, 14, 3, 3),
        # residence: 9 filled island spaces -> 4
        "Carla": (49, 25, 20, {"Residence": 4}, 21, 8, 2),
        # customs house: 40 shipping VP // 4 = 10
        "Dev": (67, 40, 17, {"Customs House": 10}, 0, 8, 1),
    },
    "game-5p.yaml": {
        "Eva": (42, 29, 13, {}, 2, 1, 4),
        # fortress: 20 colonists // 3 = 6; residence: 10 filled island spaces -> 5
        "Farid": (50, 14, 25, {"Fortress": 6, "Residence": 5}, 8, 1, 2),
        # guild hall: small indigo plant 1 + tobacco storage 2 + coffee roaster 2 = 5 (customs house unoccupied)
        "Greta": (46, 15, 26, {"Guild Hall": 5}, 5, 1, 3),
        "Hugo": (41, 34, 7, {}, 1, 1, 5),
        # city hall: small market, construction hut, university, city hall, office, hospice = 6
        "Ivy": (53, 27, 20, {"City Hall": 6}, 9, 1, 1),
    },
}

# How each game ends, and the round it ends in.
ENDS = {"game-3p.yaml": (COLONISTS, 17), "game-4p.yaml": (VP, 15), "game-5p.yaml": (CITY, 14)}

GAMES = sorted(EXPECTED)
SCHEMA_LINE = "# yaml-language-server: $schema=../schemas/game-log.schema.json"


def _path(name: str) -> Path:
    return FIXTURES / name


@pytest.mark.parametrize("name", GAMES)
def test_fixture_game_validates_complete_and_scores_as_computed_by_hand(name):
    path = _path(name)
    report = check_log(path.read_bytes(), path.name)
    assert report.errors == []
    assert report.complete is True
    got = {s.player: (s.total, s.chips, s.buildings, dict(s.bonus_by_building), s.doubloons, s.goods, s.rank) for s in report.scores or []}
    assert got == EXPECTED[name]


@pytest.mark.parametrize("name", GAMES)
def test_fixture_game_through_the_cli(name):
    out = subprocess.run([sys.executable, "-m", "referee", "validate", "-f", "json", str(_path(name))], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    doc = json.loads(out.stdout.splitlines()[0])
    assert doc["valid"] is True and doc["complete"] is True and doc["errors"] == []
    assert {s["player"]: s["total"] for s in doc["scores"]} == {p: v[0] for p, v in EXPECTED[name].items()}


@pytest.mark.parametrize("name", GAMES)
def test_written_result_is_the_hand_computation(name):
    text = _path(name).read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith("result:"))
    pairs = dict(re.findall(r"(\w+): (\d+)", line))
    assert {p: int(v) for p, v in pairs.items()} == {p: v[0] for p, v in EXPECTED[name].items()}
    for player, (total, chips, buildings, bonus, *_rest) in EXPECTED[name].items():
        assert total == chips + buildings + sum(bonus.values())
        assert f"#   {player}: shipping {chips} VP" in text  # the hand computation above `result:`


def test_the_games_end_by_three_different_triggers():
    seen = []
    for name in GAMES:
        path = _path(name)
        run = replay(read_log(path.read_bytes(), path.name))
        assert run.complete and run.game is not None
        trigger, last_round = ENDS[name]
        assert run.game.triggers == [trigger], (name, run.game.triggers)
        assert run.game.round - 1 == last_round
        assert f"# round {last_round}: governor" in path.read_text()
        assert f"# round {last_round + 1}:" not in path.read_text()
        seen.append(trigger)
    assert sorted(seen) == sorted([COLONISTS, CITY, VP])


@pytest.mark.parametrize("name", GAMES)
def test_every_prefix_is_a_valid_game_in_progress(name):
    """Cut after any phase, the log is a valid game in progress that says whose decision is next."""
    lines = _path(name).read_text().splitlines()
    body = [ln for ln in lines if not ln.startswith("result:")]
    starts = [i for i, ln in enumerate(body) if ln.startswith("  - ")]
    for cut in starts[1:]:
        prefix = "\n".join(body[:cut]) + "\n"
        report = check_log(prefix, name)
        assert report.errors == [], (cut, report.errors)
        assert report.complete is False, cut
        assert report.waiting, cut


@pytest.mark.parametrize("name", GAMES)
def test_fixture_game_reads_like_a_recorded_game(name):
    lines = _path(name).read_text().splitlines()
    assert lines[0] == SCHEMA_LINE
    rounds = [int(m.group(1)) for ln in lines if (m := re.match(r"  # round (\d+): governor \w+$", ln))]
    assert rounds == list(range(1, len(rounds) + 1))
