"""What `referee` spares at start-up (issue 30) changes nothing that a user sees: the help of
the group, written without rich's markdown (`cli._help_without_markdown`), is the one written with
it, at every width and in colour; a command run with only itself built (`cli._only_the_command_asked`)
says what it says with every command built, its help and its usage errors included."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SPARED = "import runpy; runpy.run_module('referee', run_name='__main__')"  # as `python -m referee`
WHOLE = "import rich.markdown, runpy; runpy.run_module('referee', run_name='__main__')"  # rich's markdown already there: nothing spared
ALL_COMMANDS = (
    "import runpy, sys; import referee.commands.cli as cli; cli._only_the_command_asked = lambda: None; "
    "runpy.run_module('referee', run_name='__main__')"
)


def output(code: str, *args: str, columns: int = 80, colour: bool = False) -> str:
    environment = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "NO_COLOR", "COLUMNS")}
    environment["COLUMNS"] = str(columns)
    if colour:
        environment["FORCE_COLOR"] = "1"
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=environment, timeout=60)
    return f"{done.returncode}\n{done.stdout}\n{done.stderr}"


@pytest.mark.parametrize(("columns", "colour"), [(50, False), (80, False), (132, True)])
@pytest.mark.parametrize("args", [("--help",), ()])
def test_the_help_of_the_group_is_the_same_without_markdown(columns: int, colour: bool, args: tuple[str, ...]) -> None:
    spared = output(SPARED, *args, columns=columns, colour=colour)
    assert "validate" in spared and "Commands" in spared
    assert spared == output(WHOLE, *args, columns=columns, colour=colour)


def test_the_group_help_spares_markdown() -> None:
    code = "import runpy, sys\ntry:\n    runpy.run_module('referee', run_name='__main__')\nexcept SystemExit:\n    pass\nprint(sorted(name for name in sys.modules if name.startswith(('markdown_it', 'pygments', 'rich.markdown'))), file=sys.stderr)"
    assert output(code, "--help").rstrip().endswith("[]")


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "--help"),
        ("validate", "--bogus"),
        ("score", "--sheet"),
        ("ship", "--help"),
        ("next",),
        ("schema", "log"),
        ("validat", "x.yaml"),
        ("play", "--players", "9"),
    ],
)
def test_a_command_built_alone_says_the_same(args: tuple[str, ...]) -> None:
    assert output(SPARED, *args) == output(ALL_COMMANDS, *args)
