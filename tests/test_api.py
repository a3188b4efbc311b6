"""The public Python API: the README's examples run, every public name resolves, the names
never turn into modules, and a user's script type-checks under mypy --strict."""

from __future__ import annotations

import doctest
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import referee
from tests.conftest import QUARRY_LOG, ROOT


def _readme_section(title: str) -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def test_the_readme_python_api_examples_run(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(ROOT)  # the examples read the bundled fixtures, from the project's folder
    section = _readme_section("Python API")
    examples = doctest.DocTestParser().get_doctest(section, {}, "README.md: Python API", "README.md", 0)
    assert len(examples.examples) >= 15
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(examples)
    assert runner.failures == 0, "an example of the README's Python API section gave another result (see the output above)"


def test_every_public_name_resolves():
    for name in referee.__all__:
        assert getattr(referee, name) is not None, name
    assert set(referee.__all__) == {"__version__", *referee._table()}


def test_a_public_function_stays_a_function_after_its_modules_are_imported():
    import referee.jobs.check
    import referee.jobs.replays  # the imports set package attributes: none may hide a public name

    record = referee.read_log((ROOT / "fixtures" / "game-2p.yaml").read_bytes(), "game-2p.yaml")
    assert referee.replay(record).complete
    assert referee.replay(record).complete  # once was always fine; twice broke before
    assert callable(referee.check_log) and callable(referee.ship)


def test_an_unknown_name_says_so():
    with pytest.raises(AttributeError, match="no attribute 'validate'"):
        referee.validate  # noqa: B018


USER_SCRIPT = '''
from pathlib import Path

import referee


def totals(path: Path) -> dict[str, int]:
    report: referee.LogReport = referee.check_log(path.read_bytes(), path.name)
    return {score.player: score.total for score in report.scores or []}


def first_error(text: str) -> str | None:
    run: referee.Replay = referee.replay(referee.read_log(text, "log.yaml"))
    return None if run.error is None else f"{run.error.rule}: {run.error.message}"


def moves_now(game: referee.Game, player: int) -> list[str]:
    return [move.text(game.rules) for move in referee.legal_moves(game, player)]


def shipping(path: Path) -> list[int]:
    answer: referee.Answer = referee.ship(referee.read_position(path.read_bytes(), path.name))
    return [vp.best for vp in answer.vp]


def winners_of(boards: list[referee.Board], rules: referee.Rules) -> list[str]:
    return referee.winners(referee.score(boards, rules))
'''


def test_a_user_script_passes_mypy_strict(tmp_path: Path):
    script = tmp_path / "user_script.py"
    script.write_text(textwrap.dedent(USER_SCRIPT))
    wrong = tmp_path / "wrong_script.py"  # the check can fail: a wrong type is found through the API
    wrong.write_text("import referee\n\ntotal: str = referee.check_log(b'', 'x.yaml').exit_code\n")
    # one run for both scripts (each run reads referee and its dependencies anew, a quarter of a
    # minute): mypy reports each file's errors under its name
    command = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", "--no-error-summary", str(script), str(wrong)]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    errors = out.stdout.splitlines()
    assert out.returncode == 1 and len(errors) == 1, out.stdout + out.stderr  # none in the user's script
    assert errors[0].startswith(f"{wrong}:3: error: Incompatible types in assignment"), out.stdout + out.stderr


def test_replay_steps_walks_a_log_one_step_at_a_time():
    record = referee.read_log((ROOT / "fixtures" / "game-2p.yaml").read_bytes(), "game-2p.yaml")
    steps = list(referee.replay_steps(record))
    kinds = [step.kind for step in steps]
    assert kinds.count("role") == kinds.count("end") == len(record.phases)
    assert kinds.count("move") == sum(len(phase.moves) for phase in record.phases)
    assert steps[-1].game.over and referee.replay(record).moves == len(steps) - kinds.count("end")
    broken = referee.read_log(QUARRY_LOG, "club.yaml")
    with pytest.raises(referee.RuleViolation) as refused:
        list(referee.replay_steps(broken))
    assert refused.value.rule == "settler.quarry"
