"""The command line as docs/formats/commands.md specifies it: output, exit codes, JSON lines, stdin."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import CORPUS, FIXTURES, QUARRY_LOG

BAD_MOVE = """ruleset: base
players: [Anna, Ben, Cleo]
setup: {plantations: [indigo, sugar, corn, coffee]}
phases:
  - builder: Anna
    moves:
      - Anna: harbor
"""


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_no_arguments_shows_help():
    out = run()
    assert "validate" in out.stdout + out.stderr


def test_validate_complete_game_exit_0():
    out = run("validate", str(CORPUS / "game-3p-1.yaml"))
    assert out.returncode == 0
    assert "valid, complete game" in out.stdout and "Ximena" in out.stdout


def test_validate_game_in_progress_says_whose_turn():
    out = run("validate", str(FIXTURES / "formats-log.yaml"))
    assert out.returncode == 0
    assert "in progress" in out.stdout and "Ben chooses a role" in out.stdout


def test_illegal_move_exit_1_with_compiler_style_line():
    out = run("validate", "-", stdin=BAD_MOVE)
    assert out.returncode == 1
    assert out.stdout.startswith("<stdin>:7:9: error[builder.cannot-afford]: Anna has 2 doubloons")


def test_read_error_exit_2():
    out = run("validate", "-", stdin="ruleset: base\nplayers: [Anna\n")
    assert out.returncode == 2
    assert "error[yaml.syntax]" in out.stdout


def test_missing_file_exit_2():
    out = run("validate", "no/such/file.yaml")
    assert out.returncode == 2
    assert "no/such/file.yaml: error[input.not-found]: no such file" in out.stdout


def test_several_files_highest_exit_code_and_json_lines_in_order():
    good = str(CORPUS / "game-3p-1.yaml")
    out = run("validate", "--format", "json", good, "-", good, stdin=BAD_MOVE)
    assert out.returncode == 1
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [o["file"] for o in lines] == [good, "<stdin>", good]
    assert [o["valid"] for o in lines] == [True, False, True]
    bad = lines[1]
    assert bad["complete"] is False and bad["scores"] is None
    assert bad["errors"] == [
        {"line": 7, "column": 9, "rule": "builder.cannot-afford", "message": bad["errors"][0]["message"], "severity": "error", "file": "<stdin>"}
    ]
    first = lines[0]
    assert first["complete"] is True
    assert {"player", "total", "chips", "buildings", "bonus", "bonus_by_building", "doubloons", "goods", "rank"} <= set(first["scores"][0])


def test_unreadable_file_in_json_is_invalid_with_read_errors():
    out = run("validate", "-f", "json", "-", stdin="")
    obj = json.loads(out.stdout)
    assert out.returncode == 2
    assert obj["valid"] is False and obj["errors"][0]["rule"] == "input.empty"


def test_score_prints_parts_and_winner():
    out = run("score", str(CORPUS / "game-5p-1.yaml"))
    assert out.returncode == 0
    assert "shipping" in out.stdout and "buildings" in out.stdout and "winner" in out.stdout


def test_score_of_game_in_progress_is_provisional():
    out = run("score", "-f", "json", str(FIXTURES / "formats-log.yaml"))
    obj = json.loads(out.stdout)
    assert out.returncode == 0
    assert obj["complete"] is False and obj["provisional"] is True and len(obj["scores"]) == 3


def test_validate_provisional_flag_adds_scores():
    out = run("validate", "-f", "json", "--provisional", str(FIXTURES / "formats-log.yaml"))
    assert json.loads(out.stdout)["scores"] is not None


def test_ruleset_override_unknown_is_exit_2():
    out = run("validate", "--ruleset", "nope", str(CORPUS / "game-3p-1.yaml"))
    assert out.returncode == 2 and "ruleset.unknown" in out.stdout


def test_rules_table_lists_buildings_and_numbers():
    out = run("rules", "base")
    assert out.returncode == 0
    for word in ("Guild Hall", "Coffee Roaster", "122", "cargo ships"):
        assert word in out.stdout


def test_rules_one_building():
    out = run("rules", "base", "--building", "harbor")
    assert out.returncode == 0 and "Harbor" in out.stdout and "ship.load-vp" in out.stdout
    out = run("rules", "base", "--building", "harbour")
    assert out.returncode == 2 and "did you mean 'Harbor'" in out.stdout


def test_schema_prints_json_schema():
    out = run("schema", "game-log")
    assert out.returncode == 0
    assert json.loads(out.stdout)["title"] == "Puerto Rico game log"


def test_usage_error_is_exit_2():
    assert run("validate", "--format", "xml", "x.yaml").returncode == 2


def test_play_same_seed_same_log_and_it_validates(tmp_path):
    first = run("play", "--players", "4", "--seed", "11")
    second = run("play", "--players", "4", "--seed", "11")
    assert first.returncode == 0 and first.stdout == second.stdout
    path = tmp_path / "g.yaml"
    assert run("play", "-p", "3", "-s", "5", "-r", "expansion-1", "-o", str(path)).returncode == 0
    out = run("validate", str(path))
    assert out.returncode == 0 and "valid, complete game" in out.stdout


def test_play_refuses_a_player_count_the_ruleset_has_not():
    out = run("play", "--players", "6")
    assert out.returncode == 2


def test_batch_over_a_directory_with_jobs_keeps_order_and_summarises(tmp_path):
    for i in range(5):
        assert run("play", "-p", "3", "-s", str(i), "-o", str(tmp_path / f"g{i}.yaml")).returncode == 0
    (tmp_path / "g5.yaml").write_text(BAD_MOVE)
    out = run("validate", str(tmp_path), "--jobs", "2", "--summary", "-f", "json")
    assert out.returncode == 1
    files = [json.loads(line)["file"] for line in out.stdout.splitlines()]
    assert files == [str(tmp_path / f"g{i}.yaml") for i in range(6)]
    assert "checked 6 logs: 5 valid, 1 with errors" in out.stderr


def test_no_progress_bar_or_summary_when_piped():
    out = run("validate", str(CORPUS / "game-3p-1.yaml"), str(CORPUS / "game-3p-2.yaml"))
    assert out.stderr == ""


def test_ruleset_supplied_on_the_command_line_when_the_document_has_none():
    without = BAD_MOVE.replace("ruleset: base\n", "")
    assert run("validate", "-", stdin=without).returncode == 2  # the log must name one ...
    out = run("validate", "--ruleset", "base", "-", stdin=without)  # ... or the command supplies it
    assert out.returncode == 1 and "builder.cannot-afford" in out.stdout
    sheet = "players:\n  Anna: {chips: 3}\n  Ben: {chips: 4}\n  Cleo: {chips: 5}\n"
    assert run("score", "--sheet", "--ruleset", "base", "-", stdin=sheet).returncode == 0
    position = "ships: {4: empty, 5: empty, 6: empty}\nplayers:\n  - {name: Anna, goods: {corn: 1}}\n  - {name: Ben}\n  - {name: Cleo}\n"
    assert run("ship", "--ruleset", "base", "-", stdin=position).returncode == 0


def loaded_modules(*args: str) -> set[str]:
    """The modules a `referee` command has imported when it exits."""
    code = (
        "import sys\nfrom referee.commands.cli import app\n"
        f"try:\n    app({list(args)!r})\nexcept SystemExit:\n    pass\n"
        "print('\\n'.join(sys.modules), file=sys.stderr)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return set(out.stderr.split())


def test_help_does_not_load_the_engine():
    modules = loaded_modules("--help")
    assert "referee.engine.game" not in modules and "referee.rulesets.load" not in modules


def test_validating_a_well_formed_log_needs_no_pydantic_models():
    # start-up time (issue 2): pydantic's model machinery is for input that is not well formed
    good = loaded_modules("validate", str(FIXTURES / "game-3p.yaml"))
    assert "referee.engine.game" in good and "pydantic.main" not in good


def test_a_log_of_the_wrong_shape_is_checked_by_the_model(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: base\nplayers: [Anna, Ben, Cleo]\nsetup: {plantations: [indigo]}\nphases: 3\n")
    assert "pydantic.main" in loaded_modules("validate", str(bad))
    assert run("validate", str(bad)).returncode == 2


def test_a_well_formed_shipping_position_needs_no_pydantic_models(tmp_path):
    # start-up time: as for logs, the schema model is for positions that are not well formed
    good = loaded_modules("ship", str(FIXTURES / "positions" / "formats-example.yaml"))
    assert "referee.jobs.shipping.values" in good and "pydantic.main" not in good
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: base\nships: {4: empty, 5: empty, 6: empty}\nplayers: [{name: Anna, goods: {corn: two}}]\n")
    assert "pydantic.main" in loaded_modules("ship", str(bad))
    assert run("ship", str(bad)).returncode == 2


FORGED = "Ben\nfake.yaml:9:9: error[injected]: hello"


def test_a_player_name_cannot_forge_a_diagnostic_line(tmp_path):
    """A name with a line break (JSON or a quoted YAML string make it easy) is printed escaped:
    every line of text output is one of referee's own."""
    log = (FIXTURES / "game-3p.yaml").read_text()
    players = next(line for line in log.splitlines() if line.startswith("players:"))
    doc = tmp_path / "forged.yaml"
    doc.write_text(log.replace(players, "players: " + json.dumps(["Ines", FORGED, "Tobias"])))
    for command in ("validate", "score"):
        out = run(command, str(doc))
        assert out.returncode == 2, out.stdout + out.stderr  # Marek's moves: not a player (a reading error)
        assert out.stdout.strip() and all(line.startswith(str(doc)) for line in out.stdout.splitlines()), out.stdout
        assert "Ben\\nfake.yaml:9:9: error[injected]: hello" in out.stdout


def test_json_output_carries_no_raw_line_separator(tmp_path):
    position = tmp_path / "p.yaml"
    position.write_text('ruleset: base\nships: {4: empty, 5: empty, 6: empty}\nplayers:\n  - {name: "Anna\\u2028B", goods: {corn: 2}}\n  - {name: Ben}\n  - {name: Cleo}\n')
    for args in (("ship", str(position), "--format", "json"), ("ship", str(position))):
        out = run(*args)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "\u2028" not in out.stdout and "Anna\\u2028B" in out.stdout
    assert json.loads(run("ship", str(position), "--format", "json").stdout)["expected"]["moves"] == ["Anna\u2028B: 2 corn on 4"]


def test_version_is_the_package_version():
    from importlib.metadata import version

    out = run("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"referee {version('referee')}"


def test_shell_completion_is_offered():
    out = run("--show-completion", "bash")
    assert out.returncode == 0 and "REFEREE_COMPLETE=complete_bash" in out.stdout and "complete -o default -F" in out.stdout


# --- scores in text wherever the JSON has them ---


def test_validate_text_shows_the_scores_of_a_complete_game():
    out = run("validate", str(FIXTURES / "game-3p.yaml"))
    assert out.returncode == 0
    assert out.stdout.strip().endswith("winner: Ines with 44 VP; scores: Ines 44, Tobias 41, Marek 40")


def test_validate_provisional_text_shows_the_provisional_scores():
    out = run("validate", "--provisional", str(FIXTURES / "formats-log.yaml"))
    assert out.returncode == 0
    assert "; provisional scores: " in out.stdout
    without = run("validate", str(FIXTURES / "formats-log.yaml"))
    assert "scores" not in without.stdout  # without the flag, a game in progress is not scored


def test_a_wrong_written_result_shows_the_mismatch_then_the_scores_as_replayed(tmp_path):
    log = tmp_path / "club.yaml"
    log.write_text((FIXTURES / "game-3p.yaml").read_text().replace("result: {Ines: 44", "result: {Ines: 45"))
    out = run("score", str(log))
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert "error[result.mismatch]: Ines scores 44 (32 shipping + 12 buildings), not 45" in lines[0]
    assert lines[1] == f"{log}: final scores [base]"
    assert any(line.startswith("Ines") and " 44 " in line for line in lines[2:])
    assert lines[-2] == "winner: Ines with 44 VP"
    out = run("validate", str(log))
    assert out.returncode == 1
    assert out.stdout.splitlines()[1] == f"{log}: scores as replayed: Ines 44, Tobias 41, Marek 40"


# --- paths given as options are the user's: relative to the working directory ---


def _run_in(folder, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=60, cwd=folder)


def test_a_ruleset_option_is_found_from_the_working_directory_not_the_logs_folder(tmp_path):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "game.yaml").write_text((FIXTURES / "game-3p.yaml").read_text())
    (tmp_path / "mine.yaml").write_text("extends: base\n")
    out = _run_in(tmp_path, "validate", "--ruleset", "mine.yaml", "logs/game.yaml")
    assert out.returncode == 0, out.stdout
    assert "valid, complete game" in out.stdout


def test_a_missing_ruleset_option_is_named_as_the_option_not_a_line_of_the_log(tmp_path):
    (tmp_path / "game.yaml").write_text((FIXTURES / "game-3p.yaml").read_text())
    out = _run_in(tmp_path, "validate", "--ruleset", "nothere.yaml", "game.yaml")
    assert out.returncode == 2
    assert out.stdout.startswith("game.yaml: error[ruleset.unknown]: --ruleset: unknown ruleset 'nothere.yaml'")


def test_play_writes_the_ruleset_path_as_the_written_log_can_find_it(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "mine.yaml").write_text("extends: base\n")
    work = tmp_path / "work"
    work.mkdir()
    out = _run_in(work, "play", "--ruleset", "../rules/mine.yaml", "-o", "out/game.yaml", "--seed", "3")
    assert out.returncode == 2 and "output.unwritable" in out.stdout  # no out/ folder: refused, not created
    (work / "out").mkdir()
    out = _run_in(work, "play", "--ruleset", "../rules/mine.yaml", "-o", "out/game.yaml", "--seed", "3")
    assert out.returncode == 0, out.stdout
    assert 'ruleset: "../../rules/mine.yaml"' in (work / "out" / "game.yaml").read_text()
    assert _run_in(tmp_path, "validate", "work/out/game.yaml").returncode == 0  # from anywhere: found next to the log
    bundled = _run_in(work, "play", "--ruleset", "expansion-1", "--seed", "3")
    assert "ruleset: expansion-1" in bundled.stdout


# --- referee rules, for a player to read ---


def test_rules_states_each_roles_privilege_in_words():
    out = run("rules", "base").stdout
    for row in ("settler     may take a quarry instead of a plantation", "mayor       +1 colonist from the supply", "builder     pays 1 doubloon less",
                "craftsman   +1 barrel of a kind produced", "trader      +1 doubloon for the sale", "captain     +1 VP with the first load"):  # fmt: skip
        assert row in out, row


def test_rules_writes_real_plurals():
    out = run("rules", "base").stdout
    assert "(s)" not in out
    assert "+1 doubloon per sale" in out and "+2 doubloons per sale" in out  # small and large market
    assert "keeps every barrel of 1 kind after" in out and "keeps every barrel of 2 kinds after" in out


def test_rules_for_two_players_shows_their_numbers():
    two = run("rules", "base", "--players", "2").stdout
    assert "Setup for 2 players" in two
    assert any(line.split()[:2] == ["quarry", "5"] for line in two.splitlines())
    assert any(line.startswith("Wharf ") and line.split()[6] == "1" for line in two.splitlines())  # one copy of each violet building
    every = run("rules", "base").stdout  # without --players: the usual number, and the counts that differ
    assert any(line.split()[:4] == ["quarry", "8", "(2p:", "5)"] for line in every.splitlines())
    assert "2 (2p: 1)" in every
    out = run("rules", "base", "--players", "7")
    assert out.returncode == 2 and "error[rules.players]: the base ruleset is for 2, 3, 4, 5 players, not 7" in out.stdout


def test_rules_names_a_building_of_another_edition():
    out = run("rules", "base", "--building", "fire station")
    assert out.returncode == 2
    assert "unknown building 'fire station'; Fire Station is the 1897 name of the Guild Hall" in out.stdout
    assert "Guild Hall" in run("rules", "1897", "--building", "fire station").stdout


def test_rules_refuses_two_different_rulesets():
    out = run("rules", "1897", "--ruleset", "base")
    assert out.returncode == 2 and "two rulesets given, 1897 and --ruleset base: give one" in out.stdout
    assert run("rules", "base", "--ruleset", "Base").returncode == 0  # the same one twice is no conflict
    assert "[1897]" in run("rules", "--ruleset", "1897").stdout


def test_json_counts_the_moves_replayed():
    """`moves`: the role choices and moves replayed, as the text says; up to the broken one in a
    broken log (Anna's role and her quarry, not Ben's); no count for a score sheet."""
    out = run("validate", "-f", "json", str(FIXTURES / "game-2p.yaml"))
    assert json.loads(out.stdout)["moves"] == 168
    assert "(168 moves)" in run("validate", str(FIXTURES / "game-2p.yaml")).stdout
    broken = json.loads(run("validate", "-f", "json", "-", stdin=QUARRY_LOG).stdout)
    assert broken["valid"] is False and broken["moves"] == 2
    assert "moves" not in json.loads(run("score", "--sheet", "-f", "json", str(FIXTURES / "sheets" / "sheet-3p.yaml")).stdout)
