"""What makes `referee` quick to start (tests/test_start_up.py): a command's help without the
modules it would not use, and only the command asked for built."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer


def help_without_markdown() -> None:
    """Start-up of a help (`referee --help`, `referee validate --help`): typer's help module
    imports rich's Markdown (markdown-it) and Traceback (pygments), most of the cost of the help,
    and uses neither here: the help is written in rich's markup (`rich_markup_mode`, `cli._markup`;
    tests/test_start_up.py compares it with the docstrings read as markdown) and tracebacks are
    turned off (`pretty_exceptions_enable`). So the help module is imported with stand-ins for
    those two modules, taken out again at once: anything that imports them later gets rich's own."""
    import types

    stand_ins = {"rich.markdown": "Markdown", "rich.traceback": "Traceback"}
    if any(name in sys.modules for name in stand_ins):  # already imported (as a test does): nothing to spare
        return
    for name, kind in stand_ins.items():
        module = types.ModuleType(name, "a stand-in while typer's help module is imported (referee.commands.start_up)")
        setattr(module, kind, type(kind, (), {}))
        sys.modules[name] = module
    try:
        import typer.rich_utils  # noqa: F401
    finally:
        for name in stand_ins:
            del sys.modules[name]


def only_the_command_asked(app: typer.Typer) -> None:
    """Start-up: typer builds every command's options from its signature (annotations evaluated,
    a parameter made for each option) before it runs one. When the first argument names a
    command, only that command is built: what it runs, and its help, are the same."""
    from typer.main import get_command_name

    asked = sys.argv[1] if len(sys.argv) > 1 else "--help"  # no arguments: the help
    if asked == "--help" or "--help" in sys.argv[2:]:  # the group's help, or a command's
        help_without_markdown()
    if asked.startswith("-") or any(name.endswith("_COMPLETE") for name in os.environ):  # the group's options and help, shell completion: every command
        return
    chosen = [command for command in app.registered_commands if command.callback is not None and (command.name or get_command_name(command.callback.__name__)) == asked]
    if chosen:
        app.registered_commands = chosen
