"""The twelve corpus games (played by an independent engine) validate and score exactly."""

from __future__ import annotations

import json

import pytest

from referee.jobs.check import check_log
from tests.conftest import CORPUS

GAMES = sorted(CORPUS.glob("game-*.yaml"))


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_corpus_game_validates_and_scores_as_its_engine_did(path):
    expected = json.loads((CORPUS / "expected" / f"{path.stem}.json").read_text())
    report = check_log(path.read_bytes(), path.name)
    assert report.errors == []
    assert report.complete is expected["complete"]
    got = [
        {"player": s.player, "total": s.total, "chips": s.chips, "buildings": s.buildings, "bonus": s.bonus, "tiebreak": s.tiebreak}
        for s in report.scores
    ]
    assert got == expected["scores"]


def test_there_are_twelve_corpus_games():
    assert len(GAMES) == 12
