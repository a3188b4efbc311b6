"""Effect ids: one typed list (referee.rulesets.effects), the same as the ruleset models', every id
read by the engine, every bundled ruleset's powers among them, and a misspelt id a type error."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import typing

import pytest

from referee.rulesets.effects import EFFECT_IDS
from referee.rulesets.load import bundled_rulesets, load_ruleset
from tests.conftest import ROOT


def test_the_effect_ids_are_those_of_the_ruleset_models():
    from referee.rulesets import model

    union = typing.get_args(typing.get_args(model.Effect)[0])  # Annotated[A | B | ..., Field(...)]
    ids = {typing.get_args(kind.model_fields["id"].annotation)[0] for kind in union}
    assert ids == EFFECT_IDS and len(union) == len(EFFECT_IDS)


@pytest.mark.parametrize("name", bundled_rulesets())
def test_every_bundled_ruleset_gives_its_buildings_known_powers(name):
    rules = load_ruleset(name)
    used = {b.effect.id for b in rules.buildings if b.effect is not None}
    assert used and used <= EFFECT_IDS


def _strings_in(folder: str) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "referee" / folder).rglob("*.py"):
        found |= {node.value for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    return found


def test_every_effect_id_is_read_by_the_engine_or_the_scoring():
    read = _strings_in("engine") | _strings_in("jobs") | _strings_in("moves")
    assert sorted(EFFECT_IDS - read) == []  # an id no code reads is a power that does nothing


def test_a_misspelt_effect_id_is_a_type_error(tmp_path):
    source = "from referee.engine.state import Board\nfrom referee.rulesets.load import load_ruleset\n\n\n"
    source += "def wharf(board: Board) -> bool:\n    return board.has(load_ruleset('base'), {!r})\n"
    (tmp_path / "right.py").write_text(source.format("ship.private-ship"))
    (tmp_path / "wrong.py").write_text(source.format("ship.private-shipp"))
    command = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary", "right.py", "wrong.py"]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    errors = result.stdout.splitlines()
    assert len(errors) == 1 and errors[0].startswith("wrong.py:6: error:") and "ship.private-shipp" in errors[0], result.stdout + result.stderr


def test_a_misspelt_effect_id_compared_with_a_power_is_an_error_of_the_projects_own_mypy(tmp_path):
    """`power.id == "..."` (the captain phase reads its powers so): the project's mypy settings
    (strict_equality, pyproject.toml) refuse an id no power has."""
    source = "from referee.rulesets.model import Effect\n\n\ndef wharf(power: Effect) -> bool:\n    return power.id == {!r}\n"
    (tmp_path / "right.py").write_text(source.format("ship.private-ship"))
    (tmp_path / "wrong.py").write_text(source.format("ship.private-shipp"))
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--follow-imports=silent", "--no-error-summary", "right.py", "wrong.py"]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    errors = result.stdout.splitlines()
    assert len(errors) == 1 and errors[0].startswith("wrong.py:5: error: Non-overlapping equality check"), result.stdout + result.stderr
