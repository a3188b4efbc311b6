"""Every example of formats.md is accepted as written (the contract's own words).

The examples are read from ../shared/formats.md when it is beside the project, and from the
copies in fixtures/ (identical but for the schema line) otherwise.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from referee.records.position import read_position
from referee.report import check_log
from referee.sheet import score_sheet
from tests.conftest import FIXTURES, ROOT

FORMATS = ROOT.parent / "shared" / "formats.md"
COPIES = {0: FIXTURES / "formats-log.yaml", 1: FIXTURES / "sheets" / "formats-example.yaml", 2: FIXTURES / "positions" / "formats-example.yaml"}


def examples() -> list[str]:
    if FORMATS.exists():
        return re.findall(r"```yaml\n(.*?)```", FORMATS.read_text(encoding="utf-8"), re.S)
    return [COPIES[i].read_text(encoding="utf-8") for i in sorted(COPIES)]


def _body(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_the_copies_in_fixtures_are_the_examples():
    if not FORMATS.exists():
        pytest.skip("formats.md is not beside the project")
    for i, text in enumerate(examples()):
        assert _body(COPIES[i].read_text(encoding="utf-8")) == _body(text), COPIES[i]


def test_game_log_example_is_valid_and_in_progress():
    report = check_log(examples()[0], "formats-log.yaml", base_dir=FIXTURES)
    assert report.errors == [] and not report.complete
    assert report.waiting and "Ben chooses a role" in report.waiting


def test_score_sheet_example_scores():
    report = score_sheet(examples()[1].encode(), "formats-sheet.yaml", None, None)
    assert report.errors == []
    by = {s.player: s for s in report.scores}
    assert (by["Anna"].total, by["Ben"].total) == (40, 42)


def test_shipping_example_reads_and_gives_the_outcome_shown(tmp_path):
    read_position(examples()[2].encode(), "position.yaml")
    path = tmp_path / "position.yaml"
    path.write_text(examples()[2])
    out = subprocess.run([sys.executable, "-m", "referee", "ship", str(path), "--format", "json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    result = json.loads(out.stdout)
    shown = {
        "players": {
            "Anna": {"vp": 7, "shipped": {"corn": 3, "sugar": 1}, "kept": {"coffee": 2}, "lost": {}},
            "Ben": {"vp": 4, "shipped": {"tobacco": 4}, "kept": {}, "lost": {}},
            "Cleo": {"vp": 0, "shipped": {}, "kept": {"corn": 1}, "lost": {}},
        },
        "ships": {"4": None, "5": None, "6": {"good": "sugar", "count": 4}},
    }
    assert shown in result["outcomes"]
    assert result["file"] == str(path) and result["best"] is None


