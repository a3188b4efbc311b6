"""What `referee` spares at start-up (issue 30) changes nothing that a user sees: the help of
the group and of each command, written in rich's markup without rich's markdown
(`cli._markup`, `start_up.help_without_markdown`), says what the docstrings read as markdown say, at
every width; a command run with only itself built (`start_up.only_the_command_asked`) says what it
says with every command built, its help and its usage errors included."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

SPARED = "import runpy; runpy.run_module('referee', run_name='__main__')"  # as `python -m referee`
WHOLE = "import rich.markdown, runpy; runpy.run_module('referee', run_name='__main__')"  # rich's markdown already there: nothing spared
MARKDOWN = (  # the help as it was written before: each command's docstring read as markdown by rich
    "import rich.markdown, runpy; import referee.commands.cli as cli; cli.app.rich_markup_mode = 'markdown'; "
    "[setattr(command, 'help', None) for command in cli.app.registered_commands]; runpy.run_module('referee', run_name='__main__')"
)
ALL_COMMANDS = (
    "import runpy, sys; import referee.commands.start_up as start_up; start_up.only_the_command_asked = lambda app: None; "
    "runpy.run_module('referee', run_name='__main__')"
)

ANSI = re.compile("\x1b\\[[0-9;]*m")  # a colour or style


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


@pytest.mark.parametrize("args", [("--help",), ("validate", "--help"), ("ship", "--help"), ("next", "x.yaml", "--help")])
def test_a_help_spares_markdown(args: tuple[str, ...]) -> None:
    code = "import runpy, sys\ntry:\n    runpy.run_module('referee', run_name='__main__')\nexcept SystemExit:\n    pass\nprint(sorted(name for name in sys.modules if name.startswith(('markdown_it', 'pygments', 'rich.markdown'))), file=sys.stderr)"
    said = output(code, *args)
    assert "Usage" in said and said.rstrip().endswith("[]")


COMMANDS = ("validate", "score", "ship", "next", "rules", "schema", "play", "serve")


def test_every_command_is_in_the_help() -> None:
    listed = output(SPARED, "--help", columns=200)
    assert [name for name in COMMANDS if f"│ {name} " in listed] == list(COMMANDS)


def words(help_text: str) -> list[str]:
    return [word for word in (token.strip("│╭╮╰╯─") for token in help_text.split()) if word]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_commands_help_says_what_its_docstring_read_as_markdown_says(command: str) -> None:
    """Its description the same, line for line, at every width and in colour (though options
    named in it are now coloured as in the table); its options' table with the same words in
    the same order, though a '[default: ...]' or '[required]' now follows an option's help on
    its line when it fits there (markdown took the line's whole width)."""
    for columns in (50, 80, 132):
        for colour in (False, True):
            spared, markdown = (ANSI.sub("", output(code, command, "--help", columns=columns, colour=colour)) for code in (SPARED, MARKDOWN))
            assert "Usage" in spared and spared.partition("╭")[0] == markdown.partition("╭")[0]
    spared, markdown = (output(code, command, "--help", columns=1000) for code in (SPARED, MARKDOWN))
    assert "Options" in spared and words(spared) == words(markdown)


def test_code_in_a_docstring_is_shown_as_markdown_shows_code() -> None:
    code = "\x1b[1;2;36;40mreferee validate\x1b[0m"  # bold cyan on black, dimmed as the rest of the paragraph
    assert code in output(SPARED, "next", "--help", colour=True) and code in output(MARKDOWN, "next", "--help", colour=True)
    assert "`" not in output(SPARED, "next", "--help")
