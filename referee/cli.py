"""The `referee` command line: arguments in, one API call, output out (formats.md section 4).

Kept thin and quick to start: the engine and the rulesets are imported only by the commands
that need them, so `referee --help` loads neither.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    name="referee",
    help="Rules referee and score tool for the board game Puerto Rico: validate game logs, score games and score sheets, calculate captain phases.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Format(str, Enum):
    """Output format."""

    text = "text"
    json = "json"


FormatOption = Annotated[Format, typer.Option("--format", "-f", help="Output: text for people, json (one object per file per line) for programs.")]
RulesetOption = Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset to use instead of the file's own: base, expansion-1, 1897, or a path.")]

STDIN_NAME = "<stdin>"


def _inputs(paths: list[str]) -> list[str]:
    """Files to read, directories expanded to the YAML files in them (sorted)."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if p != "-" and path.is_dir():
            found = sorted(str(f) for f in path.rglob("*") if f.suffix in (".yaml", ".yml") and f.is_file())
            out.extend(found)
        else:
            out.append(p)
    return out


def _read(path: str) -> tuple[bytes | None, str, Path | None, str | None]:
    """(data, display name, directory for relative paths, error message)."""
    if path == "-":
        return sys.stdin.buffer.read(), STDIN_NAME, Path.cwd(), None
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > 2 * 1024 * 1024:
            return None, path, p.parent, f"the file is {size:,} bytes; the limit is 2,097,152 bytes (2 MiB)"
        return p.read_bytes(), path, p.parent, None
    except FileNotFoundError:
        return None, path, None, "no such file"
    except IsADirectoryError:
        return None, path, None, "is a directory"
    except OSError as exc:
        return None, path, None, f"cannot read: {exc.strerror}"


def _check(path: str, ruleset: str | None, provisional: bool):  # type: ignore[no-untyped-def]
    from referee.diagnostics import Location
    from referee.report import check_log, unreadable

    data, name, base, error = _read(path)
    if data is None:
        if error and "limit" in error:
            return unreadable(name, error, "input.too-large", Location(name, 1, 1))
        return unreadable(name, error or "cannot read", "input.not-found" if error == "no such file" else "input.unreadable")
    return check_log(data, name, ruleset, provisional, base)


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(help="Game logs (YAML); directories are searched for *.yaml; '-' reads standard input.", show_default=False)],
    ruleset: RulesetOption = None,
    format: FormatOption = Format.text,
    provisional: Annotated[bool, typer.Option("--provisional", help="Include (provisional) scores for games in progress.")] = False,
) -> None:
    """Replay each game log against the rules; report the first illegal move of each.

    Exit code 0: all valid (a game in progress is valid so far); 1: a rule was broken;
    2: a file could not be read.
    """
    from referee import render

    worst = 0
    for path in _inputs(files):
        report = _check(path, ruleset, provisional)
        worst = max(worst, report.exit_code)
        if format is Format.json:
            print(render.report_json(report))
        else:
            print(render.report_text(report))
    raise typer.Exit(worst)


@app.command()
def score(
    file: Annotated[str, typer.Argument(help="A game log, or with --sheet a score sheet; '-' reads standard input.", show_default=False)],
    sheet: Annotated[bool, typer.Option("--sheet", help="FILE is an end-of-game score sheet, not a game log.")] = False,
    ruleset: RulesetOption = None,
    format: FormatOption = Format.text,
    provisional: Annotated[bool, typer.Option("--provisional", help="Accepted for symmetry: a game in progress is always scored provisionally here.")] = True,
) -> None:
    """Final scores of a game (provisional for a game in progress), with every part shown:
    shipping VP, building VP, each large building's bonus, tie-break, rank and winner."""
    from referee import render

    if sheet:
        from referee.sheet import score_sheet

        data, name, base, error = _read(file)
        report = score_sheet(data, name, ruleset, base, error)
    else:
        report = _check(file, ruleset, True)
    if format is Format.json:
        print(render.report_json(report))
    elif report.errors or report.scores is None:
        print(render.report_text(report))
    elif sys.stdout.isatty():
        from rich.console import Console

        Console().print(render.scores_rich(report))
    else:
        print(render.scores_text(report))
    raise typer.Exit(report.exit_code)


class SchemaKind(str, Enum):
    """A document kind with a JSON Schema."""

    game_log = "game-log"
    score_sheet = "score-sheet"
    shipping_position = "shipping-position"
    ruleset = "ruleset"


@app.command()
def schema(kind: Annotated[SchemaKind, typer.Argument(help="Which document's schema.", show_default=False)]) -> None:
    """Print the JSON Schema of a game log, score sheet, shipping position or ruleset."""
    import json

    from referee.schemas import schema_for

    print(json.dumps(schema_for(kind.value), indent=2, ensure_ascii=False))


@app.command()
def rules(
    ruleset: Annotated[str, typer.Argument(help="A bundled ruleset (base, expansion-1, 1897, ...) or a path.")] = "base",
    building: Annotated[str | None, typer.Option("--building", "-b", help="Show one building in detail.")] = None,
    format: FormatOption = Format.text,
) -> None:
    """The ruleset's buildings and numbers as readable tables."""
    from referee.diagnostics import InputError
    from referee.render import diagnostic_line
    from referee.rules_view import rules_json, rules_text
    from referee.rulesets.load import load_ruleset

    try:
        loaded = load_ruleset(ruleset, Path.cwd())
    except InputError as exc:
        for d in exc.diagnostics:
            print(diagnostic_line(d, ruleset))
        raise typer.Exit(2) from None
    try:
        if format is Format.json:
            print(rules_json(loaded, building))
        else:
            print(rules_text(loaded, building))
    except KeyError as exc:
        print(f"{ruleset}: error[rules.unknown-building]: {exc.args[0]}")
        raise typer.Exit(2) from None


def main() -> None:
    """Entry point of the `referee` console script."""
    app()
