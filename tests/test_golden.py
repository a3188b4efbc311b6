"""Golden transcripts (perft-style): for every fixture game, the number of legal moves at each
step of the log. A change in the engine that changes what is legal anywhere shows up as a diff.

Regenerate after an intended change: REFEREE_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import os

import pytest

from referee.documents.log import read_log
from referee.engine import legal
from referee.jobs.replays import replay_steps
from tests.conftest import FIXTURES, ROOT

GOLDEN = ROOT / "tests" / "golden"
GAMES = sorted(
    p
    for p in FIXTURES.rglob("*.yaml")
    if not {"sheets", "positions", "broken", "next-cases"} & set(p.relative_to(FIXTURES).parts)
)


def transcript(path) -> str:
    """`line: who what: N` for every role choice and move of the log."""
    record = read_log(path.read_bytes(), path.name, base_dir=path.parent)
    out = []
    for step in replay_steps(record):
        if step.kind == "role":
            out.append(f"{step.phase.location.line}: {record.players[step.phase.chooser]} chooses a role: {len(legal.roles(step.game))}")
        elif step.move is not None:
            out.append(f"{step.move.location.line}: {record.players[step.move.player]} moves: {legal.count_moves(step.game, step.move.player)}")
    return "\n".join(out) + "\n"


def golden_path(path):
    return GOLDEN / (str(path.relative_to(FIXTURES)).replace("/", "__").removesuffix(".yaml") + ".txt")


@pytest.mark.parametrize("path", GAMES, ids=[str(p.relative_to(FIXTURES)) for p in GAMES])
def test_legal_move_counts_match_the_golden_transcript(path):
    got = transcript(path)
    golden = golden_path(path)
    if os.environ.get("REFEREE_REGEN_GOLDEN"):
        golden.write_text(got)
    assert golden.exists(), f"no golden transcript for {path.name}: run REFEREE_REGEN_GOLDEN=1 pytest {__file__}"
    expected = golden.read_text()
    if got != expected:
        diff = [f"{e}  ->  {g}" for e, g in zip(expected.splitlines(), got.splitlines(), strict=False) if e != g]
        pytest.fail("legal move counts changed:\n" + "\n".join(diff[:20]))


def test_every_golden_transcript_has_its_fixture():
    names = {golden_path(p).name for p in GAMES}
    assert {p.name for p in GOLDEN.glob("*.txt")} <= names


def test_the_golden_counts_are_those_of_a_known_position():
    # round 1 of the 3-player fixture: the governor chooses among the 6 roles of a 3-player game
    first = golden_path(FIXTURES / "game-3p.yaml").read_text().splitlines()[0]
    assert first.endswith("chooses a role: 6")
