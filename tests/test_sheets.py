"""Score sheets (docs/formats/score-sheet.md): the valid sheets in fixtures/sheets score to totals
computed by hand; each sheet in fixtures/sheets/broken breaks one check and is refused (exit 2)
with that check's rule id, at the line of the offending entry.

Bonus rules: the 2002 rulebook, "Large Buildings" (guild hall +1 per small and
+2 per large production building; residence 4 up to 9 filled spaces, 5/6/7 for 10/11/12; fortress
+1 per 3 colonists; customs house +1 per 4 shipping VP; city hall +1 per violet building, itself
included). Tie-break: doubloons + barrels (the 2002 rulebook, "How do you win?").
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from referee.jobs.check import score_sheet
from referee.jobs.scoring import Score
from tests.conftest import FIXTURES

SHEETS = FIXTURES / "sheets"
BROKEN = SHEETS / "broken"

# Every expected number below was computed by hand from the sheet, not taken from the referee.
EXPECTED: dict[str, dict[str, dict[str, object]]] = {
    "formats-example.yaml": {
        # docs/formats/score-sheet.md: buildings 1+2+3+4+4 = 14; guild hall: small indigo plant 1 + indigo plant 2 = 3;
        # the residence is not occupied
        "Anna": {"total": 40, "chips": 23, "buildings": 14, "bonus_by_building": {"Guild Hall": 3}, "rank": 2},
        # buildings 4+3 = 7; fortress 15 // 3 = 5
        "Ben": {"total": 42, "chips": 30, "buildings": 7, "bonus_by_building": {"Fortress": 5}, "rank": 1},
    },
    "sheet-3p.yaml": {
        # buildings 1+2+1+2+3+1+3+4 = 17; guild hall: small indigo 1 + indigo plant 2 + small sugar 1 + sugar mill 2 = 6
        "Anna": {"total": 54, "chips": 31, "buildings": 17, "bonus_by_building": {"Guild Hall": 6}, "rank": 1},
        # buildings 1+1+3+3+3+3+4+4 = 22; fortress 21 // 3 = 7; residence: 9 spaces -> 4
        "Ben": {"total": 45, "chips": 12, "buildings": 22, "bonus_by_building": {"Fortress": 7, "Residence": 4}, "rank": 2},
        # buildings 1+2+2+2+3+3+4 = 17; the customs house is not occupied: no bonus
        "Cleo": {"total": 37, "chips": 20, "buildings": 17, "bonus_by_building": {}, "rank": 3},
    },
    "sheet-4p.yaml": {
        # buildings 1+2+1+2+3+2+4+4 = 19; customs house 34 // 4 = 8; residence: 4+3+3+1 = 11 spaces -> 6
        "Dana": {"total": 67, "chips": 34, "buildings": 19, "bonus_by_building": {"Customs House": 8, "Residence": 6}, "rank": 1},
        # buildings 1+1+1+3+3+3+3+4 = 19; city hall: small market, construction hut, hacienda, factory, university, city hall = 6
        # 40 VP like Fritz, tie-break 4 + 0 = 4 < 8: fourth
        "Emil": {"total": 40, "chips": 15, "buildings": 19, "bonus_by_building": {"City Hall": 6}, "rank": 4},
        # buildings 1+1+2+2+2+3+4 = 15; guild hall: small indigo 1 + tobacco storage 2 = 3; tie-break 7 + 1 = 8: third
        "Fritz": {"total": 40, "chips": 22, "buildings": 15, "bonus_by_building": {"Guild Hall": 3}, "rank": 3},
        # buildings 1+2+3+1+3+3+4 = 17; the fortress is not occupied: no bonus
        "Gesa": {"total": 43, "chips": 26, "buildings": 17, "bonus_by_building": {}, "rank": 2},
    },
    "sheet-5p.yaml": {
        # buildings 1+2+2+1+3+3+4+4 = 20; guild hall 1+2+2+1+2+2 = 10; residence: 12 spaces -> 7
        # 67 VP like Jonas, tie-break 2 + 0 = 2 < 3: second
        "Hana": {"total": 67, "chips": 30, "buildings": 20, "bonus_by_building": {"Guild Hall": 10, "Residence": 7}, "rank": 2},
        # buildings 1+1+2+3+3+4+4 = 18; fortress 18 // 3 = 6; city hall: 7 violet buildings (itself included)
        "Ilja": {"total": 49, "chips": 18, "buildings": 18, "bonus_by_building": {"Fortress": 6, "City Hall": 7}, "rank": 3},
        # buildings 1+2+3+3+1+2+4 = 16; customs house 41 // 4 = 10; tie-break 0 + 3 = 3: first
        "Jonas": {"total": 67, "chips": 41, "buildings": 16, "bonus_by_building": {"Customs House": 10}, "rank": 1},
        # buildings 1+2+1+2+2+3+3 = 14
        "Kira": {"total": 38, "chips": 24, "buildings": 14, "bonus_by_building": {}, "rank": 4},
        # buildings 1+3+1+1+2+2+2 = 12
        "Lars": {"total": 32, "chips": 20, "buildings": 12, "bonus_by_building": {}, "rank": 5},
    },
}

# (file, rule id, line of the offending YAML node)
BROKEN_CASES = [
    ("unknown-building.yaml", "sheet.unknown-name", 5),  # 'harbour' in Anna's building list
    ("duplicate-building.yaml", "sheet.duplicate-building", 15),  # Ben's second small market
    ("city-full.yaml", "sheet.city-full", 13),  # Cleo's buildings: 9 + 2 x 2 = 13 spaces
    ("copies.yaml", "sheet.copies", 7),  # two guild halls: reported at the second one
    ("island-over-12.yaml", "sheet.island", 10),  # Ben's island: 13
    ("occupied-not-built.yaml", "sheet.occupied-not-built", 12),  # Anna's occupied list names a fortress she lacks
    ("colonists-too-few.yaml", "sheet.colonists", 12),  # Cleo: 2 occupied buildings, 1 colonist
    ("unknown-key.yaml", "sheet.schema", 8),  # Ben's 'money'
    ("wrong-type.yaml", "sheet.schema", 8),  # Cleo's chips: text
    ("unknown-ruleset.yaml", "ruleset.unknown", 3),  # ruleset: basic
    ("negative-forest.yaml", "sheet.island", 10),  # Ben's forest: -7
    ("cloister-without-kinds.yaml", "sheet.missing", 10),  # Cleo's cloister, island: 12
    ("six-large-buildings.yaml", "sheet.selection", 7),  # an Expansion I game has 5 large buildings: at the sixth, Cleo's fortress
    ("hacienda-and-forest-house.yaml", "sheet.selection", 7),  # never in one game: at the later one, Cleo's hacienda
]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=60)


def _parts(score: Score) -> dict[str, object]:
    return {
        "total": score.total,
        "chips": score.chips,
        "buildings": score.buildings,
        "bonus_by_building": dict(score.bonus_by_building),
        "rank": score.rank,
    }


def test_every_sheet_fixture_is_listed():
    assert sorted(p.name for p in SHEETS.glob("*.yaml")) == sorted(EXPECTED)
    assert sorted(p.name for p in BROKEN.glob("*.yaml")) == sorted(name for name, _, _ in BROKEN_CASES)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sheet_scores_as_computed_by_hand(name):
    path = SHEETS / name
    report = score_sheet(path.read_bytes(), path.name, None, path.parent)
    assert report.errors == []
    assert report.complete
    got = {s.player: _parts(s) for s in report.scores or []}
    assert got == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sheet_scores_through_the_cli_json(name):
    out = cli("score", "--sheet", str(SHEETS / name), "--format", "json")
    assert out.returncode == 0, out.stdout + out.stderr
    doc = json.loads(out.stdout.splitlines()[0])
    assert doc["valid"] is True and doc["errors"] == []
    got = {s["player"]: {k: s[k] for k in ("total", "chips", "buildings", "bonus_by_building", "rank")} for s in doc["scores"]}
    assert got == EXPECTED[name]
    for s in doc["scores"]:
        assert s["bonus"] == sum(s["bonus_by_building"].values())
        assert s["total"] == s["chips"] + s["buildings"] + s["bonus"]


def test_sheet_tie_is_broken_by_doubloons_and_barrels():
    out = cli("score", "--sheet", str(SHEETS / "sheet-5p.yaml"), "--format", "json")
    doc = json.loads(out.stdout.splitlines()[0])
    by = {s["player"]: s for s in doc["scores"]}
    assert by["Jonas"]["total"] == by["Hana"]["total"] == 67
    assert (by["Jonas"]["doubloons"] + by["Jonas"]["goods"], by["Hana"]["doubloons"] + by["Hana"]["goods"]) == (3, 2)
    assert [s["player"] for s in doc["scores"] if s["rank"] == 1] == ["Jonas"]


@pytest.mark.parametrize(("name", "rule", "line"), BROKEN_CASES, ids=[c[0] for c in BROKEN_CASES])
def test_broken_sheet_is_refused_with_its_rule_and_line(name, rule, line):
    out = cli("score", "--sheet", str(BROKEN / name), "--format", "json")
    assert out.returncode == 2, out.stdout + out.stderr
    doc = json.loads(out.stdout.splitlines()[0])
    assert doc["valid"] is False and doc["scores"] is None
    assert [(e["rule"], e["line"]) for e in doc["errors"]] == [(rule, line)], doc["errors"]


@pytest.mark.parametrize(("name", "rule", "line"), BROKEN_CASES, ids=[c[0] for c in BROKEN_CASES])
def test_broken_sheet_through_the_api(name, rule, line):
    path = BROKEN / name
    report = score_sheet(path.read_bytes(), path.name, None, path.parent)
    assert report.exit_code == 2
    assert report.scores is None
    assert [(d.rule, d.location.line if d.location else None) for d in report.errors] == [(rule, line)]


@pytest.mark.parametrize("path", sorted(SHEETS.rglob("*.yaml")), ids=lambda p: p.name)
def test_sheet_fixtures_name_their_schema(path):
    depth = len(path.relative_to(SHEETS).parts)  # sheets/x.yaml: 1, sheets/broken/x.yaml: 2
    first = path.read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=" + "../" * (depth + 1) + "schemas/score-sheet.schema.json"


def test_a_cloister_with_the_island_by_kind_scores_its_sets():
    """The same cloister sheet with the island written by kind: 3 corn, 3 sugar, 3 coffee, 2
    quarries, 1 forest: three sets of 3 (docs/rule-decisions.md: plantations, quarries and forests
    count), scored from the ruleset's table."""
    text = (BROKEN / "cloister-without-kinds.yaml").read_text().replace("island: 12", "island: {corn: 3, sugar: 3, coffee: 3, quarry: 2, forest: 1}")
    report = score_sheet(text.encode(), "cloister.yaml", None, BROKEN)
    assert report.errors == []
    cleo = next(s for s in report.scores if s.player == "Cleo")
    assert cleo.bonus_by_building == {"Cloister": 6}  # 3 sets: 6 VP (1 set 1, 2 sets 3, 3 sets 6, 4 sets 10)


def test_five_large_buildings_fit_an_expansion_game():
    text = (BROKEN / "six-large-buildings.yaml").read_text().replace("statue, fortress", "statue")
    report = score_sheet(text, "five.yaml")
    assert report.errors == [] and report.scores is not None


def test_every_problem_of_a_sheet_is_reported_at_once():
    """A field of the wrong shape (a negative number) no longer hides the sheet's other
    problems: each is reported at its own line."""
    text = """\
ruleset: expansion-1
players:
  Anna:
    chips: -3
    doubloons: 2
    island: 14
    buildings: [guild hall, residence, fortress, customs house, city hall, cloister]
    occupied: [guild hall]
  Ben: {chips: 12, buildings: [small market, wharf], occupied: [wharf]}
"""
    report = score_sheet(text, "night.yaml")
    assert report.exit_code == 2
    assert [(d.rule, d.location.line, d.location.column) for d in report.errors] == [
        ("sheet.schema", 4, 12),  # chips: -3
        ("sheet.island", 6, 13),  # 14 island spaces
        ("sheet.selection", 7, 76),  # six large buildings (2 + 5 x 2 = 12 city spaces: full, not over): at the sixth
    ]


def test_one_occupied_building_is_written_in_the_singular():
    text = "ruleset: base\nplayers:\n  Anna: {chips: 3, colonists: 0, buildings: [guild hall], occupied: [guild hall]}\n  Ben: {chips: 2}\n  Cleo: {chips: 1}\n"
    report = score_sheet(text, "night.yaml")
    assert [d.message for d in report.errors] == ["Anna has 1 occupied building but 0 colonists"]


def test_a_sheet_given_as_a_log_points_to_score_sheet():
    out = cli("score", str(SHEETS / "sheet-3p.yaml"))
    assert out.returncode == 2
    assert out.stdout.splitlines() == [
        f"{SHEETS / 'sheet-3p.yaml'}:5:1: error[log.is-a-sheet]: this is a score sheet (players by name, each with chips ...), "
        "not a game log: score it with `referee score --sheet`"
    ]


def test_forests_are_refused_in_a_game_without_a_forest_house():
    text = "ruleset: base\nplayers:\n  Anna: {chips: 20, island: {corn: 2, forest: 3}}\n  Ben: {chips: 18}\n  Cleo: {chips: 3}\n"
    report = score_sheet(text, "night.yaml")
    assert [(d.rule, d.location.line) for d in report.errors] == [("sheet.island", 3)]
    assert "forests are tiles of a game with a building that turns plantations into forests; the base ruleset has none" in report.errors[0].message
    expansion = score_sheet(text.replace("ruleset: base", "ruleset: expansion-1"), "night.yaml")
    assert expansion.errors == []  # Expansion I has the forest house
