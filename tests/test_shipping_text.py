"""`referee ship`'s text for the table shows the doubloons a lighthouse pays wherever its JSON
has them (issue 26): a column in the players' table and each outcome of `--all`; a phase
without a lighthouse shows none."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from referee.commands.cli import app
from tests.conftest import FIXTURES

LIGHTHOUSE = (FIXTURES / "positions" / "expansion-powers.yaml").read_text()  # Ben's lighthouse pays a doubloon


def run(*args: str, stdin: str | None = None) -> str:
    result = CliRunner().invoke(app, ["ship", *args], input=stdin)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_players_table_has_the_doubloons_the_json_has():
    text = run("-", stdin=LIGHTHOUSE)
    data = json.loads(run("-", "--format", "json", stdin=LIGHTHOUSE))
    assert "doubloons (expected)" in text.splitlines()[3]
    for name, player in data["expected"]["players"].items():
        row = next(line for line in text.splitlines() if line.startswith(name + " "))
        assert f"+{player['doubloons']}" in row.split()


def test_each_outcome_says_the_doubloons_paid():
    text = run("-", "--all", stdin=LIGHTHOUSE)
    outcomes = [line for line in text.splitlines() if line.startswith("  ") and ". Anna" in line]
    assert outcomes and all("Ben 1 VP (+1 doubloon" in line for line in outcomes)


def test_a_phase_without_a_lighthouse_shows_no_doubloons():
    text = run(str(FIXTURES / "positions" / "formats-example.yaml"))
    assert "doubloon" not in text
