"""Counts are whole numbers (issue 29, item 5): a boolean, a text or a number with a fraction or
an exponent where a count belongs is a reading error (exit 2) with the rule, the place and a
sentence, in game logs, score sheets and shipping positions. YAML reads `true` as a boolean and
`'31'` as text; read as counts, they gave 1 and 31 chips in silence."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES

GAME = (FIXTURES / "game-3p.yaml").read_text()
SHEET = (FIXTURES / "sheets" / "sheet-3p.yaml").read_text()
POSITION = (FIXTURES / "positions" / "formats-example.yaml").read_text()


def referee(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=60)


def written(tmp_path: Path, text: str, old: str, new: str) -> str:
    """A copy of `text` with one value changed, as a file."""
    assert old in text
    path = tmp_path / "document.yaml"
    path.write_text(text.replace(old, new, 1))
    return str(path)


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("    doubloons: 1\n", "    doubloons: true\n", ":32:16: error[log.schema]: doubloons must be a whole number, not true"),
        ("    doubloons: 1\n", "    doubloons: 1e9\n", ":32:16: error[log.schema]: doubloons must be a whole number, not 1e9"),
        ("    doubloons: 1\n", "    doubloons: '1'\n", ":32:16: error[log.schema]: doubloons must be a whole number, not '1'"),
        ("result: {Ines: 44", "result: {Ines: true", ":320:16: error[log.schema]: result: Ines must be a whole number, not true"),
    ],
    ids=["doubloons-true", "doubloons-1e9", "doubloons-text", "result-true"],
)
def test_a_log_with_a_count_that_is_not_a_whole_number_is_not_read(tmp_path, old, new, said):
    path = written(tmp_path, GAME, old, new)
    for command in (["validate", path], ["score", path]):
        out = referee(*command)
        assert out.returncode == 2, out.stdout
        assert out.stdout.splitlines()[0] == path + said
        assert "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("chips: 31\n", "chips: true\n", ":7:12: error[sheet.schema]: chips must be a whole number, not true"),
        ("chips: 31\n", "chips: '31'\n", ":7:12: error[sheet.schema]: chips must be a whole number, not '31'"),
        ("chips: 31\n", "chips: 31.0\n", ":7:12: error[sheet.schema]: chips must be a whole number, not 31.0"),
        ("doubloons: 3\n", "doubloons: false\n", ":8:16: error[sheet.schema]: doubloons must be a whole number, not false"),
        ("island: 11\n", "island: true\n", ":10:13: error[sheet.schema]: island must be a whole number, not true"),
    ],
    ids=["chips-true", "chips-text", "chips-float", "doubloons-false", "island-true"],
)
def test_a_sheet_with_a_count_that_is_not_a_whole_number_is_not_scored(tmp_path, old, new, said):
    path = written(tmp_path, SHEET, old, new)
    out = referee("score", "--sheet", path)
    assert out.returncode == 2, out.stdout
    assert out.stdout.splitlines() == [path + said]


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("vp_left: 30 ", "vp_left: true ", ":5:10: error[position.schema]: vp_left must be a whole number, not true"),
        ("corn: 3,", "corn: '3',", ":7:32: error[position.schema]: goods: corn must be a whole number, not '3'"),
    ],
    ids=["vp-left-true", "goods-text"],
)
def test_a_position_with_a_count_that_is_not_a_whole_number_is_not_calculated(tmp_path, old, new, said):
    path = written(tmp_path, POSITION, old, new)
    out = referee("ship", path)
    assert out.returncode == 2, out.stdout
    assert out.stdout.splitlines() == [path + said]


def test_an_island_by_kind_with_a_count_that_is_not_a_whole_number_says_only_that(tmp_path):
    path = written(tmp_path, SHEET, "island: 11\n", "island: {corn: true}\n")
    out = referee("score", "--sheet", path)
    assert out.returncode == 2
    assert out.stdout.splitlines() == [path + ":10:20: error[sheet.schema]: island: corn must be a whole number, not true"]
