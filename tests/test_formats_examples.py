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

from referee.jobs.check import check_log, score_sheet
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


ANSWER = FIXTURES / "positions" / "formats-example.answer.json"


def shipping_answer() -> dict:  # type: ignore[type-arg]
    """The JSON answer of section 3 (from formats.md, or its copy in fixtures/)."""
    if FORMATS.exists():
        return json.loads(re.findall(r"```json\n(.*?)```", FORMATS.read_text(encoding="utf-8"), re.S)[0])
    return json.loads(ANSWER.read_text(encoding="utf-8"))


def test_the_shipping_answer_copy_is_the_example():
    if not FORMATS.exists():
        pytest.skip("formats.md is not beside the project")
    assert json.loads(ANSWER.read_text(encoding="utf-8")) == shipping_answer()


def test_shipping_example_gives_exactly_the_answer_shown(tmp_path):
    """Section 3: guaranteed, expected and best VP of each player, the expected play (its moves
    as written there), the captain's choices, and `best` with --for (as the text says). The one
    key referee adds (formats.md allows new fields), `"expected_play": true`, is on the choice
    the expected play takes and on no other."""
    path = tmp_path / "position.yaml"
    path.write_text(examples()[2])
    out = subprocess.run([sys.executable, "-m", "referee", "ship", str(path), "--format", "json"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    result = json.loads(out.stdout)
    shown = shipping_answer()
    assert result["file"] == str(path)
    marked = [choice.pop("expected_play") for choice in result["choices"]["moves"] if "expected_play" in choice]
    assert marked == [True] and result["expected"]["moves"][0] == "Anna: " + result["choices"]["moves"][0]["move"]
    assert {**result, "file": shown["file"]} == shown
    assert list(result) == list(shown)
    assert [list(player["vp"]) for player in result["players"].values()] == [["guaranteed", "expected", "best"]] * 3  # in the order shown
    assert [list(choice) for choice in result["choices"]["moves"]] == [["move", "guaranteed", "expected", "best"]] * 3
    out = subprocess.run([sys.executable, "-m", "referee", "ship", str(path), "--format", "json", "--for", "Anna"], capture_output=True, text=True)
    asked = json.loads(out.stdout)
    assert asked["best"] == {"player": "Anna", "move": "2 coffee on 4", "vp": 9}
    assert asked["for"]["player"] == "Anna" and "tie-breaking" in asked["for"]["note"]
    out = subprocess.run([sys.executable, "-m", "referee", "ship", str(path), "--format", "json", "--all"], capture_output=True, text=True)
    assert len(json.loads(out.stdout)["outcomes"]) == 5  # "The phase has 5 distinct outcomes"


NEXT_EXAMPLE = {
    "file": "game.yaml",
    "valid": True,
    "complete": False,
    "errors": [],
    "scores": None,
    "decision": {"player": "Ben", "phase": "builder", "kind": "move", "moves": ["pass", "small market for 1", "small indigo plant for 1", "hacienda for 2"]},
}


def test_the_next_decision_has_the_shape_of_the_example():
    """formats.md section 4's `referee next` example (its moves are an example): the same keys
    at the top and in `decision`, and each move in the form shown (a building with its price)."""
    if FORMATS.exists():
        shown = re.search(r"The next decision.*?```json\n(.*?)```", FORMATS.read_text(encoding="utf-8"), re.S)
        assert shown is not None
        assert json.loads(shown.group(1)) == NEXT_EXAMPLE
    done = subprocess.run([sys.executable, "-m", "referee", "next", "--format", "json", str(FIXTURES / "next-builder.yaml")], capture_output=True, text=True)
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and set(NEXT_EXAMPLE) <= set(answer)
    assert {key: answer[key] for key in ("valid", "complete", "errors", "scores")} == {key: NEXT_EXAMPLE[key] for key in ("valid", "complete", "errors", "scores")}
    assert set(answer["decision"]) == set(NEXT_EXAMPLE["decision"])
    assert answer["decision"] == {"player": "Cleo", "phase": "builder", "kind": "move", "moves": ["pass", "small market for 1"]}
