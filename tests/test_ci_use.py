"""referee in the tools a club's CI already reads: GitHub annotations, SARIF for code scanning,
JSON with file and severity, folders searched for game logs only, and the pre-commit hook."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

from referee.diagnostics import Diagnostic, Location
from referee.render.report import github_annotation
from tests.conftest import FIXTURES, QUARRY_LOG, ROOT

BROKEN = QUARRY_LOG
SARIF_SCHEMA = json.loads((ROOT / "tests" / "sarif-2.1.0.schema.json").read_text())


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    (tmp_path / "good.yaml").write_text((FIXTURES / "game-2p.yaml").read_text())
    (tmp_path / "broken.yaml").write_text(BROKEN)
    return tmp_path


# --- GitHub workflow annotations ---


def test_github_format_writes_one_annotation_a_diagnostic_and_nothing_for_a_valid_log(logs: Path):
    out = run("validate", "--format", "github", "good.yaml", "broken.yaml", cwd=logs)
    assert out.returncode == 1
    assert out.stdout.splitlines() == [
        "::error file=broken.yaml,line=8,col=9,title=settler.quarry::only the settler (Anna) or the owner of an occupied Construction Hut may take a quarry; "
        "Ben may take a face-up plantation: indigo, sugar, corn and coffee (legal here for Ben: 'pass', 'indigo', 'sugar', 'corn' or 'coffee')"
    ]
    score = run("score", "--format", "github", "broken.yaml", cwd=logs)
    assert score.returncode == 1 and score.stdout.startswith("::error file=broken.yaml,line=8,col=9,title=settler.quarry::")


def test_github_annotations_escape_what_the_runner_reads_as_syntax():
    d = Diagnostic("log.move", "100% sure:\nno", Location("club, night: 1.yaml", 3, 4))
    assert github_annotation(d, "x") == "::error file=club%2C night%3A 1.yaml,line=3,col=4,title=log.move::100%25 sure:%0Ano"


# --- SARIF ---


def test_sarif_output_is_valid_sarif_with_a_rule_and_a_located_result_per_diagnostic(logs: Path):
    out = run("validate", "--format", "sarif", "good.yaml", "broken.yaml", "missing.yaml", cwd=logs)
    assert out.returncode == 2
    log = json.loads(out.stdout)
    jsonschema.validate(log, SARIF_SCHEMA)
    run_ = log["runs"][0]
    assert run_["tool"]["driver"]["name"] == "referee"
    assert [rule["id"] for rule in run_["tool"]["driver"]["rules"]] == ["settler.quarry", "input.not-found"]
    first, second = run_["results"]
    assert first["ruleId"] == "settler.quarry" and first["level"] == "error"
    assert first["locations"][0]["physicalLocation"] == {"artifactLocation": {"uri": "broken.yaml"}, "region": {"startLine": 8, "startColumn": 9}}
    assert second["locations"][0]["physicalLocation"] == {"artifactLocation": {"uri": "missing.yaml"}}  # no line to point at
    assert "Construction Hut" in first["message"]["text"]


def test_the_sarif_schema_check_can_fail(logs: Path):
    log = json.loads(run("validate", "--format", "sarif", "broken.yaml", cwd=logs).stdout)
    log["runs"][0]["results"][0]["level"] = "fatal"  # not a SARIF level
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, SARIF_SCHEMA)
    del log["runs"][0]["results"][0]["level"]
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, SARIF_SCHEMA)


def test_a_valid_archive_gives_an_empty_sarif_run(logs: Path):
    out = run("validate", "--format", "sarif", "good.yaml", cwd=logs)
    assert out.returncode == 0
    log = json.loads(out.stdout)
    jsonschema.validate(log, SARIF_SCHEMA)
    assert log["runs"][0]["results"] == []


def test_json_errors_name_their_file_and_severity(logs: Path):
    out = run("validate", "--format", "json", "broken.yaml", cwd=logs)
    error = json.loads(out.stdout)["errors"][0]
    assert (error["file"], error["severity"], error["line"], error["rule"]) == ("broken.yaml", "error", 8, "settler.quarry")


# --- folders are searched for game logs ---


def test_a_folder_is_searched_for_logs_and_the_other_documents_are_named_once(tmp_path: Path):
    shutil.copytree(FIXTURES / "sheets", tmp_path / "sheets")
    shutil.copytree(FIXTURES / "positions", tmp_path / "positions")
    (tmp_path / "game.yaml").write_text((FIXTURES / "game-2p.yaml").read_text())
    (tmp_path / "notes.yaml").write_text("title: club night\n")
    out = run("validate", str(tmp_path))
    assert out.returncode == 0, out.stdout
    assert out.stdout.splitlines() == [f"{tmp_path / 'game.yaml'}: valid, complete game (168 moves); winner: Omar with 63 VP; scores: Omar 63, Lena 50"]
    sheets = len(list((tmp_path / "sheets").rglob("*.yaml")))
    positions = len(list((tmp_path / "positions").rglob("*.yaml")))
    assert out.stderr.strip() == (
        f"skipped 1 other YAML file, {sheets} score sheets (read by `referee score --sheet FILE`) and {positions} shipping positions "
        "(read by `referee ship FILE`): not game logs"
    )


def test_a_folder_without_a_game_log_is_an_error(tmp_path: Path):
    shutil.copytree(FIXTURES / "sheets", tmp_path / "sheets")
    out = run("validate", str(tmp_path / "sheets"))
    assert out.returncode == 2
    assert out.stdout.strip() == f"{tmp_path / 'sheets'}: error[input.no-logs]: no game logs found in {tmp_path / 'sheets'}, only other documents"


def test_a_file_named_on_the_command_line_is_checked_as_a_log_unless_only_logs(tmp_path: Path):
    sheet = str(FIXTURES / "sheets" / "sheet-3p.yaml")
    assert "error[log.is-a-sheet]" in run("validate", sheet).stdout
    out = run("validate", "--only-logs", sheet, str(FIXTURES / "game-2p.yaml"))
    assert out.returncode == 0 and "skipped 1 score sheet" in out.stderr and "game-2p.yaml: valid" in out.stdout


# --- the pre-commit hook ---


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, timeout=120)


def test_the_pre_commit_hook_refuses_a_commit_with_a_broken_log(tmp_path: Path):
    """The hook of .pre-commit-hooks.yaml run by pre-commit itself in a club's repository. Its
    definition is taken as written, except `language`: `system` uses the referee installed here
    (as `python` would, after installing it from the index), so the test needs no network."""
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
    (hook,) = [h for h in hooks if h["id"] == "referee-validate"]
    assert hook["language"] == "python"
    local = {**hook, "language": "system", "entry": hook["entry"].replace("referee", f"{sys.executable} -m referee", 1)}
    repo = tmp_path / "club"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "club@example.org")
    _git(repo, "config", "user.name", "Club")
    (repo / ".pre-commit-config.yaml").write_text(json.dumps({"repos": [{"repo": "local", "hooks": [local]}]}))
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    install = subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=repo, capture_output=True, text=True, env=env, timeout=120)
    assert install.returncode == 0, install.stdout + install.stderr
    (repo / "night-1.yaml").write_text((FIXTURES / "game-2p.yaml").read_text())
    shutil.copy(FIXTURES / "sheets" / "sheet-3p.yaml", repo / "sheet.yaml")  # not a log: skipped
    _git(repo, "add", ".")
    good = subprocess.run(["git", "commit", "-qm", "night 1"], cwd=repo, capture_output=True, text=True, env=env, timeout=300)
    assert good.returncode == 0, good.stdout + good.stderr
    (repo / "night-2.yaml").write_text(BROKEN)
    _git(repo, "add", "night-2.yaml")
    bad = subprocess.run(["git", "commit", "-qm", "night 2"], cwd=repo, capture_output=True, text=True, env=env, timeout=300)
    assert bad.returncode != 0
    assert "night-2.yaml:8:9: error[settler.quarry]" in bad.stdout + bad.stderr
    assert _git(repo, "log", "--format=%s").stdout.split() == ["night", "1"]  # the second commit was refused


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ((FIXTURES / "game-2p.yaml").read_text(), "game log"),
        ((FIXTURES / "sheets" / "sheet-3p.yaml").read_text(), "score sheet"),
        ((FIXTURES / "positions" / "formats-example.yaml").read_text(), "shipping position"),
        ((ROOT / "rulesets" / "1897.yaml").read_text(), "ruleset"),
        ("# yaml-language-server: $schema=../schemas/score-sheet.schema.json\nplayers: broken\n", "score sheet"),  # the modeline decides
        ('{"ruleset": "base", "ships": {"4": "empty"}}', "shipping position"),  # JSON
        ('{"repos": []}', "other YAML file"),
        ("ruleset: base\nplayers: [Anna\n", "game log"),  # a log cut short: checking it says what is wrong
        ("title: club night\n", "other YAML file"),
        (": : :", "game log"),
    ],
    ids=["log", "sheet", "position", "ruleset", "modeline", "json", "json-other", "broken-log", "other", "garbage"],
)
def test_a_document_is_told_by_its_schema_line_else_its_keys(text: str, kind: str):
    from referee.documents.kind import document_kind

    assert document_kind(text.encode()) == kind
