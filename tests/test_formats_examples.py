"""Every example of the contract (docs/formats/, version 4) is accepted as written and gives what
its page says: the game log, the score sheet, the shipping position and its JSON answer, the
JSON of `referee validate` and of `referee next`, and the form of a diagnostic.

Each code block of the contract's pages is run by a test here (the first test holds the list, so
a block added to a page without a test fails); tests/test_docs.py also reads the pages' YAML
documents and tables of moves as it reads the players' guides. The fixtures that copy the
examples (fixtures/formats-log.yaml, fixtures/sheets/formats-example.yaml,
fixtures/positions/formats-example.yaml and its answer) are held to them too.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from referee.jobs.check import check_log, score_sheet
from tests.conftest import FIXTURES, ROOT
from tests.test_docs import Block, blocks

CONTRACT = ROOT / "docs" / "formats"


def page_blocks(page: str) -> list[Block]:
    """The code blocks of one page of the contract, in the order written."""
    return blocks(f"formats/{page}", (CONTRACT / page).read_text(encoding="utf-8"))


def example(page: str, lang: str, nth: int = 0) -> str:
    """The text of the `nth` block of language `lang` on a page of the contract."""
    return [b.text for b in page_blocks(page) if b.lang == lang][nth]


def referee(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_every_code_block_of_the_contract_is_run_here():
    found = {path.name: [b.lang for b in page_blocks(path.name)] for path in sorted(CONTRACT.glob("*.md"))}
    assert found == {
        "README.md": [],
        "commands.md": ["json", "json"],  # validate's object, referee next's object
        "game-log.md": ["yaml"],
        "score-sheet.md": ["yaml"],
        "shipping-position.md": ["yaml", "json"],  # the position, and its answer
        "tables.md": ["json", "json"],  # the exports of fixtures/game-3p.yaml
    }


def test_the_exports_of_the_tables_page_are_what_referee_export_writes():
    blocks = [b.text for b in page_blocks("tables.md") if b.lang == "json"]
    for kind, text in zip(("bgg", "bgstats"), blocks, strict=True):
        done = referee("export", "--format", kind, str(FIXTURES / "game-3p.yaml"))
        assert done.returncode == 0 and json.loads(done.stdout) == json.loads(text), kind


def _body(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_the_copies_in_fixtures_are_the_examples():
    """The fixtures the README, the guides and other tests use are the contract's examples (their
    comments aside: a fixture's `$schema` line points from its own folder)."""
    copies = {
        FIXTURES / "formats-log.yaml": example("game-log.md", "yaml"),
        FIXTURES / "sheets" / "formats-example.yaml": example("score-sheet.md", "yaml"),
        FIXTURES / "positions" / "formats-example.yaml": example("shipping-position.md", "yaml"),
    }
    for path, text in copies.items():
        assert _body(path.read_text(encoding="utf-8")) == _body(text), path
    answer = FIXTURES / "positions" / "formats-example.answer.json"
    assert json.loads(answer.read_text(encoding="utf-8")) == json.loads(example("shipping-position.md", "json"))


def test_game_log_example_is_valid_and_in_progress():
    report = check_log(example("game-log.md", "yaml"), "formats-log.yaml", base_dir=FIXTURES)
    assert report.errors == [] and not report.complete
    assert report.waiting and "Ben chooses a role" in report.waiting


def test_the_game_log_example_with_a_wrong_move_is_refused():
    """The example is replayed, not only read: with Ben taking a quarry instead of the coffee (a
    quarry is the settler's privilege, and Ben has no construction hut) it breaks a rule."""
    text = example("game-log.md", "yaml").replace("- Ben: coffee", "- Ben: quarry")
    report = check_log(text, "formats-log.yaml", base_dir=FIXTURES)
    assert [error.rule for error in report.errors] == ["settler.quarry"]


def test_score_sheet_example_scores():
    report = score_sheet(example("score-sheet.md", "yaml").encode(), "formats-sheet.yaml", None, None)
    assert report.errors == []
    by = {s.player: s for s in report.scores or []}
    assert (by["Anna"].total, by["Ben"].total) == (40, 42)


def test_shipping_example_gives_exactly_the_answer_shown(tmp_path):
    """The position's answer: guaranteed, expected and best VP of each player, the expected play
    (its moves as written there), the captain's choices, and `best` with --for (as the page
    says). The one key referee adds (the contract allows new fields), `"expected_play": true`, is
    on the choice the expected play takes and on no other."""
    path = tmp_path / "position.yaml"
    path.write_text(example("shipping-position.md", "yaml"))
    out = referee("ship", str(path), "--format", "json", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    result = json.loads(out.stdout)
    shown = json.loads(example("shipping-position.md", "json"))
    assert result["file"] == str(path)
    marked = [choice.pop("expected_play") for choice in result["choices"]["moves"] if "expected_play" in choice]
    assert marked == [True] and result["expected"]["moves"][0] == "Anna: " + result["choices"]["moves"][0]["move"]
    assert {**result, "file": shown["file"]} == shown
    assert list(result) == list(shown)
    assert [list(player["vp"]) for player in result["players"].values()] == [["guaranteed", "expected", "best"]] * 3  # in the order shown
    assert [list(choice) for choice in result["choices"]["moves"]] == [["move", "guaranteed", "expected", "best"]] * 3
    page = " ".join((CONTRACT / "shipping-position.md").read_text(encoding="utf-8").split())
    best = re.search(r"here `(\{.*?\})`", page)
    assert best is not None
    asked = json.loads(referee("ship", str(path), "--format", "json", "--for", "Anna").stdout)
    assert asked["best"] == json.loads(best.group(1)) == {"player": "Anna", "move": "2 coffee on 4", "vp": 9}
    assert asked["for"]["player"] == "Anna" and "tie-breaking" in asked["for"]["note"]
    every = json.loads(referee("ship", str(path), "--format", "json", "--all").stdout)
    assert "There are 5 distinct outcomes" in page and len(every["outcomes"]) == 5
    assert all(set(outcome) == {"players", "ships"} for outcome in every["outcomes"])
    assert all(set(player) >= {"vp", "shipped", "kept", "lost"} for outcome in every["outcomes"] for player in outcome["players"].values())
    cut = json.loads(referee("ship", str(path), "--format", "json", "--all", "--limit", "2").stdout)
    assert len(cut["outcomes"]) == 2 and cut["truncated"] is True


BROKEN = """\
ruleset: base
players: [Anna, Ben, Cleo]
setup:
  plantations: [indigo, sugar, corn, coffee]
phases:
  - builder: Anna
    moves:
      - Anna: small market
  - builder: Ben
"""


def test_the_validate_json_has_the_keys_of_the_example(tmp_path):
    """commands.md's object of `referee validate --format json` (its message is elided there): a
    log that breaks a rule gets those keys, its error those keys, on one line; the scores of a
    complete game have the keys the page lists."""
    shown = json.loads(example("commands.md", "json", 0))
    (tmp_path / "game.yaml").write_text(BROKEN)
    done = referee("validate", "--format", "json", "game.yaml", cwd=tmp_path)
    assert done.returncode == 1 and len(done.stdout.splitlines()) == 1  # JSON Lines: one object, one line
    answer = json.loads(done.stdout)
    assert set(shown) <= set(answer) and set(shown["errors"][0]) <= set(answer["errors"][0])
    assert {key: answer[key] for key in ("file", "valid", "complete", "scores")} == {key: shown[key] for key in ("file", "valid", "complete", "scores")}
    page = (CONTRACT / "commands.md").read_text(encoding="utf-8")
    listed = re.search(r"`\{(\"player\".*?)\}`", page)
    assert listed is not None
    keys = re.findall(r"\"(\w+)\"", listed.group(1))
    complete = json.loads(referee("validate", "--format", "json", str(FIXTURES / "game-3p.yaml")).stdout)
    assert keys and all(set(keys) <= set(score) for score in complete["scores"])


def test_the_diagnostic_of_the_example_has_the_form_the_referee_writes(tmp_path):
    """`FILE:LINE:COLUMN: error[RULE]: MESSAGE`, with a rule id that the engine raises."""
    form = re.compile(r"(?P<file>[^:\s]+):(?P<line>\d+):(?P<column>\d+): error\[(?P<rule>[\w.-]+)\]: (?P<message>\S.*)")
    page = (CONTRACT / "commands.md").read_text(encoding="utf-8")
    shown = re.search(r"^`(game\.yaml:\d+:\d+: error\[.*)`$", page, re.M)
    assert shown is not None
    parts = form.fullmatch(shown.group(1))
    assert parts is not None and parts["rule"] == "captain.largest-ship"
    assert any(f'"{parts["rule"]}"' in path.read_text(encoding="utf-8") for path in (ROOT / "referee").rglob("*.py"))
    (tmp_path / "game.yaml").write_text(BROKEN)
    done = referee("validate", "game.yaml", cwd=tmp_path)
    written = form.fullmatch(done.stdout.strip())
    assert done.returncode == 1 and written is not None and (written["file"], written["line"], written["rule"]) == ("game.yaml", "9", "role.taken")


def test_the_next_decision_has_the_shape_of_the_example():
    """commands.md's `referee next` example (its moves are an example): the same keys at the top
    and in `decision`, and each move in the form shown (a building with its price)."""
    shown = json.loads(example("commands.md", "json", 1))
    done = referee("next", "--format", "json", str(FIXTURES / "next-builder.yaml"))
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and set(shown) <= set(answer)
    assert {key: answer[key] for key in ("valid", "complete", "errors", "scores")} == {key: shown[key] for key in ("valid", "complete", "errors", "scores")}
    assert set(answer["decision"]) == set(shown["decision"])
    assert shown["decision"]["kind"] == answer["decision"]["kind"] == "move" and shown["decision"]["moves"][:2] == ["pass", "small market for 1"]
    assert answer["decision"] == {"player": "Cleo", "phase": "builder", "kind": "move", "moves": ["pass", "small market for 1"]}
