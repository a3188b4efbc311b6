"""The committed JSON Schemas are the ones the models generate; fixtures name their schema."""

from __future__ import annotations

import json

import pytest

from referee.commands.schema import KINDS, schema_for
from tests.conftest import FIXTURES, ROOT

SCHEMAS = ROOT / "schemas"


@pytest.mark.parametrize("kind", KINDS)
def test_committed_schema_is_up_to_date(kind):
    committed = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
    assert committed == schema_for(kind), f"schemas/{kind}.schema.json is stale: run `python -m referee.commands.schema`"


def _kind(path):
    parts = path.relative_to(FIXTURES).parts
    if parts[0] == "sheets":
        return "score-sheet"
    if parts[0] == "positions":
        return "shipping-position"
    if parts[0] == "rulesets" or "\nextends: " in path.read_text(encoding="utf-8"):  # (a ruleset beside the logs that use it)
        return "ruleset"
    return "game-log"


FIXTURE_FILES = sorted(p for p in FIXTURES.rglob("*.yaml") if "broken" not in p.parts)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[str(p.relative_to(FIXTURES)) for p in FIXTURE_FILES])
def test_fixture_first_line_is_the_schema_modeline(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    schema = SCHEMAS / f"{_kind(path)}.schema.json"
    rel = "/".join([".."] * (len(path.relative_to(ROOT).parts) - 1)) + f"/schemas/{schema.name}"
    assert first == f"# yaml-language-server: $schema={rel}"


def test_every_game_log_schema_property_has_a_description():
    schema = schema_for("game-log")

    def walk(node, where):
        if isinstance(node, dict):
            for name, prop in node.get("properties", {}).items():
                assert "description" in prop or "$ref" in prop, f"{where}.{name} has no description"
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for item in node:
                walk(item, where)

    walk(schema, "game-log")


def test_the_quick_shape_check_knows_the_models_top_level_keys():
    from referee.documents.log_model import GameLogModel
    from referee.documents.log_outline import TOP_KEYS

    assert set(GameLogModel.model_fields) == set(TOP_KEYS)


def test_a_logs_keys_are_the_models_the_outlines_and_the_written_logs_alike():
    """A key of the log is named in the model (the schema), the outline (both readers' keys)
    and the written log both readers make (`log_written`): each list holds the same keys."""
    from referee.documents.log_model import PhaseModel, SetupModel
    from referee.documents.log_outline import PHASE_KEYS, SETUP_KEYS, TOP_KEYS
    from referee.documents.log_written import WrittenLog, WrittenPhase, WrittenSetup

    assert set(PhaseModel.model_fields) == set(PHASE_KEYS)
    assert set(SetupModel.model_fields) == set(SETUP_KEYS)
    written = {cls: set(cls.__slots__) for cls in (WrittenLog, WrittenPhase, WrittenSetup)}
    assert set(TOP_KEYS) - {"meta", "ruleset"} <= written[WrittenLog]  # (meta is read by no job; the ruleset is loaded before)
    assert set(PHASE_KEYS) <= written[WrittenPhase]
    assert set(SETUP_KEYS) <= written[WrittenSetup]


def test_the_quick_sheet_check_knows_the_models_fields_and_bounds():
    """A plainly well-formed sheet is read without the model (referee.documents.sheet): its
    fields and its largest count are the model's."""
    import annotated_types

    from referee.documents.sheet import FIELDS, LIMIT
    from referee.documents.sheet_model import SheetPlayer

    assert set(SheetPlayer.model_fields) == FIELDS
    bounds = {name: [m.le for m in field.metadata if isinstance(m, annotated_types.Le)] for name, field in SheetPlayer.model_fields.items()}
    assert {name: le for name, le in bounds.items() if le} == {name: [LIMIT] for name in ("chips", "doubloons", "goods", "colonists")}


def test_every_move_of_the_fixture_games_is_valid_for_pydantic():
    import dataclasses

    from pydantic import ValidationError

    from referee.documents.log import read_log
    from referee.moves.clauses import Load, move_adapter

    adapter = move_adapter()
    seen = set()
    for path in sorted(FIXTURES.rglob("game-*.yaml")):
        record = read_log(path.read_bytes(), path.name, base_dir=path.parent)
        for phase in record.phases:
            for m in phase.moves:
                assert adapter.validate_python(dataclasses.asdict(m.move)) == m.move
                seen.add(m.move.kind)
    assert {"settle", "arrange", "build", "sell", "load", "wharf", "extra"} <= seen
    with pytest.raises(ValidationError, match="bogus"):
        adapter.validate_python({"kind": "load", "good": "corn", "bogus": 1})
    with pytest.raises(ValidationError):
        adapter.validate_python({"kind": "load", "good": "corn", "count": "many"})
    assert adapter.validate_python({"kind": "load", "good": "corn", "count": 2}) == Load(good="corn", count=2)


@pytest.mark.parametrize("kind", KINDS)
def test_the_schema_command_prints_the_committed_schema_which_is_the_models(kind):
    from typer.testing import CliRunner

    from referee.commands.cli import app

    text = CliRunner().invoke(app, ["schema", kind]).output
    assert json.loads(text) == schema_for(kind) and text == json.dumps(schema_for(kind), indent=2, ensure_ascii=False) + "\n"
    line = CliRunner().invoke(app, ["schema", kind, "--format", "json"]).output
    assert line.count("\n") == 1 and json.loads(line) == schema_for(kind)
