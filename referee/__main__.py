"""`python -m referee`: the same as the `referee` command."""

from referee.commands.cli import main

main()
