"""The `referee` command line: arguments in, one API call, output out (docs/formats/commands.md).

Kept thin and quick to start: the engine and the rulesets are imported only by the commands
that need them, so `referee --help` loads neither.
"""

from __future__ import annotations

import inspect
import os
import re
import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from referee.commands import start_up, streams
from referee.commands.progress import checking, searching
from referee.commands.streams import work_done
from referee.ground.wording import listing, printable

app = typer.Typer(
    name="referee",
    help="Rules referee and score tool for the board game Puerto Rico: validate game logs, score games and score sheets, calculate captain phases.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion
    pretty_exceptions_enable=False,
    # rich's markup, not its markdown (markdown-it and pygments: a third of the start-up of a command's
    # help); the commands' docstrings are turned into that markup by `_command`
    rich_markup_mode="rich",
)


def _markup(docstring: str) -> str:
    """A command's docstring as its help in rich's markup, read as markdown would read it: the
    lines of a paragraph joined (they reflow to the terminal's width), `code` in markdown's
    style for code, and a word in brackets kept as written (not taken for a style)."""
    paragraphs = [" ".join(line.strip() for line in paragraph.splitlines()) for paragraph in inspect.cleandoc(docstring).split("\n\n")]
    text = re.sub(r"(\\*)(\[[a-z#/@][^[]*?])", lambda found: f"{found[1]}{found[1]}\\{found[2]}", "\n\n".join(paragraphs))  # rich.markup.escape's rule
    return re.sub(r"`([^`]+)`", r"[markdown.code]\1[/]", text)


_Command = TypeVar("_Command", bound=Callable[..., None])


def _command(name: str | None = None) -> Callable[[_Command], _Command]:
    """`app.command`, with the command's help from its docstring in rich's markup (`_markup`)."""

    def register(callback: _Command) -> _Command:
        return app.command(name, help=_markup(callback.__doc__ or ""))(callback)

    return register


class Format(str, Enum):
    """Output format."""

    text = "text"
    json = "json"


class CheckFormat(str, Enum):
    """Output format of the commands that check documents (validate, score)."""

    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


def _version(value: bool) -> None:
    if value:
        from referee.version import __version__

        print(f"referee {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", help="Print referee's version and exit.", callback=_version, is_eager=True)] = False,
) -> None:
    """Rules referee and score tool for the board game Puerto Rico."""


FormatOption = Annotated[Format, typer.Option("--format", "-f", help="Output: text for people, json (one object per file per line) for programs.")]
CheckFormatOption = Annotated[
    CheckFormat,
    typer.Option(
        "--format",
        "-f",
        help="Output: text for people; json (one object per file per line) for programs; github (workflow annotations); sarif (SARIF 2.1.0, for code scanning).",
    ),
]
RulesetOption = Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset to use instead of the file's own: base, expansion-1, 1897, or a path.")]


@_command()
def validate(
    files: Annotated[list[str], typer.Argument(help="Game logs (YAML); directories are searched for *.yaml; '-' reads standard input.", show_default=False)],
    ruleset: RulesetOption = None,
    format: CheckFormatOption = CheckFormat.text,
    provisional: Annotated[bool, typer.Option("--provisional", help="Include (provisional) scores for games in progress.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=64, help="Check the files in this many processes.")] = 1,
    summary: Annotated[
        bool | None, typer.Option("--summary/--no-summary", help="A summary line on stderr (default: with several files, on a terminal).")
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            help="Check on a Dask cluster: a scheduler's address (tcp://HOST:PORT; its workers must see the same paths) or local:N (N worker processes here). Needs referee\\[dask].",
        ),
    ] = None,
    only_logs: Annotated[
        bool,
        typer.Option("--only-logs", help="Skip files that are not game logs (score sheets, positions, other YAML), as in a folder; for pre-commit."),
    ] = False,
    verbose: Annotated[bool, typer.Option("--verbose", help="With --cluster: show Dask's own log messages and warnings on stderr.")] = False,
) -> None:
    """Replay each game log against the rules; report the first illegal move of each.

    Exit code 0: all valid (a game in progress is valid so far); 1: a rule was broken;
    2: a file could not be read.
    """
    from collections import Counter
    from functools import partial

    from referee.documents.inputs import expand
    from referee.jobs.batch import check_all
    from referee.jobs.verdict import Options
    from referee.render.report import report_in, report_object

    if cluster is not None and jobs > 1:
        print(printable(f"{cluster}: error[usage.cluster]: --cluster and --jobs are two ways to spread the work: give one"))
        raise typer.Exit(2)
    paths = expand(files)
    skipped: Counter[str] = Counter()
    # SARIF is written whole, from every report's object; the other formats a report at a time
    options = Options(ruleset, provisional, report_object if format is CheckFormat.sarif else partial(report_in, style=format.value))
    counts = [0, 0, 0]  # exit codes 0, 1, 2
    show_progress = format is CheckFormat.text and len(paths) > 1 and sys.stdout.isatty() and sys.stderr.isatty()
    reports: list[dict[str, object]] = []
    cluster_errors: tuple[type[Exception], ...] = ()  # the cluster's module (and Dask) only when one is asked for
    if cluster is not None:
        from referee.jobs.cluster import ClusterError

        cluster_errors = (ClusterError,)
    try:
        with checking(len(paths), show_progress) as tick:
            for verdict in check_all(paths, options, jobs, tick, only_logs, cluster, verbose):
                if verdict.skipped is not None:
                    skipped[verdict.skipped] += 1
                    continue
                counts[verdict.exit_code] += 1
                work_done(verdict.exit_code)
                if isinstance(verdict.output, dict):  # SARIF
                    reports.append(verdict.output)
                elif verdict.output:  # github: a valid log has no annotation
                    print(verdict.output, flush=show_progress)
    except cluster_errors as exc:
        print(printable(f"{cluster}: error[usage.cluster]: {exc}"))
        raise typer.Exit(2) from None
    if format is CheckFormat.sarif:
        from referee.render.sarif import sarif_document

        print(sarif_document(reports))
    sys.stdout.flush()
    checked = sum(counts)
    if skipped:
        print(printable(f"skipped {_skipped_text(skipped)}: not game logs"), file=sys.stderr)
        if not checked:
            where = ", ".join(files)
            print(printable(f"{where}: error[input.no-logs]: no game logs found in {where}, only other documents"))
            counts[2] += 1
    if summary or (summary is None and len(paths) > 1 and sys.stderr.isatty()):
        bad = counts[1] + counts[2]
        unreadable = f" ({counts[2]} could not be read)" if counts[2] else ""
        print(f"checked {checked} logs: {counts[0]} valid, {bad} with errors{unreadable}", file=sys.stderr)
    worst = 2 if counts[2] else 1 if counts[1] else 0
    raise typer.Exit(worst)


def _skipped_text(skipped: dict[str, int]) -> str:
    """'2 score sheets (read by `referee score --sheet FILE`) and 1 other YAML file'."""
    from referee.documents.kind import READ_BY

    parts = []
    for kind, number in sorted(skipped.items()):
        words = kind if number == 1 else kind.replace("file", "files") if kind.endswith("file") else kind + "s"
        parts.append(f"{number} {words}" + (f" (read by `{READ_BY[kind]}`)" if kind in READ_BY else ""))
    return listing(parts, "and")


@_command()
def score(
    file: Annotated[str, typer.Argument(help="A game log, or with --sheet a score sheet; '-' reads standard input.", show_default=False)],
    sheet: Annotated[bool, typer.Option("--sheet", help="FILE is an end-of-game score sheet, not a game log.")] = False,
    ruleset: RulesetOption = None,
    format: CheckFormatOption = CheckFormat.text,
    provisional: Annotated[bool, typer.Option("--provisional", help="Accepted for symmetry: a game in progress is always scored provisionally here.")] = True,
) -> None:
    """Final scores of a game, every part shown (provisional for a game in progress).

    Shipping VP, building VP, each large building's bonus, tie-break, rank and winner; a score
    sheet (docs/formats/score-sheet.md) is scored the same way.
    """
    from referee.diagnostics import internal_error
    from referee.documents.inputs import read_input
    from referee.jobs.check import LogReport, check_log
    from referee.render import report as render

    item = read_input(file)
    try:
        if item.data is None:
            assert item.error is not None
            report = LogReport(item.name, errors=[item.error])
        elif sheet:
            from referee.jobs.check import score_sheet

            report = score_sheet(item.data, item.name, ruleset, item.base)
        else:
            report = check_log(item.data, item.name, ruleset, True, item.base)
    except Exception as exc:  # a bug in referee: reported, never a traceback
        report = LogReport(item.name, errors=[internal_error(item.name, exc)])
    work_done(report.exit_code)
    if format is CheckFormat.json:
        print(render.report_json(report))
    elif format is CheckFormat.github:
        if report.errors:
            print(render.report_in(report, "github"))
    elif format is CheckFormat.sarif:
        from referee.render.sarif import sarif_document

        print(sarif_document([render.report_object(report)]))
    elif report.scores is None:
        print(render.report_text(report))
    elif report.errors:  # a written result that disagrees: the mismatch, then the scores as replayed
        print("\n".join(render.diagnostic_line(d, report.file) for d in report.errors))
        print(render.scores_text(report))
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
    review = "review"  # the answer of `referee review --format json`


@_command()
def schema(
    kind: Annotated[SchemaKind, typer.Argument(help="Which document's schema.", show_default=False)],
    ruleset: Annotated[
        str | None,
        typer.Option("--ruleset", "-r", help="Checked to exist; the schemas are the same for every ruleset (names are matched when a document is read)."),
    ] = None,
    format: FormatOption = Format.text,
) -> None:
    """Print the JSON Schema of a game log, score sheet, shipping position or ruleset, or of
    `referee review`'s JSON answer.

    The schema is JSON in both formats: text indents it, json prints it on one line."""
    from referee.commands.schema import committed

    if ruleset is not None:
        _ruleset_or_exit(ruleset)
    text = committed(kind.value)  # the committed file, kept equal to the models' schema by a test: no model is built here
    if format is Format.json:
        import json

        text = json.dumps(json.loads(text), ensure_ascii=False)
    print(text.rstrip("\n"))


def _ruleset_or_exit(name: str):  # type: ignore[no-untyped-def]
    """The ruleset, or its diagnostics and exit code 2."""
    from referee.diagnostics import InputError
    from referee.render.report import diagnostic_line
    from referee.rulesets.load import load_ruleset

    try:
        return load_ruleset(name, Path.cwd())
    except InputError as exc:
        for d in exc.diagnostics:
            print(diagnostic_line(d, name))
        raise typer.Exit(2) from None


@_command()
def rules(
    ruleset: Annotated[
        str | None, typer.Argument(help="A bundled ruleset (base, expansion-1, 1897, 1897-expansion-1) or a path.  \\[default: base]", show_default=False)
    ] = None,
    building: Annotated[str | None, typer.Option("--building", "-b", help="Show one building in detail.")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="The numbers of a game of this many players (setup, quarries, copies).")] = None,
    format: FormatOption = Format.text,
    override: Annotated[str | None, typer.Option("--ruleset", "-r", help="The ruleset to show (instead of RULESET).")] = None,
) -> None:
    """The ruleset's buildings and numbers as readable tables."""
    from referee.ground.wording import normalize
    from referee.render.rules import rules_json, rules_text

    if override is not None and ruleset is not None and normalize(override) != normalize(ruleset):
        print(printable(f"{ruleset}: error[usage.ruleset]: two rulesets given, {ruleset} and --ruleset {override}: give one"))
        raise typer.Exit(2)
    ruleset = override or ruleset or "base"
    loaded = _ruleset_or_exit(ruleset)
    refused = loaded.not_for(players) if players is not None else None
    if refused is not None:
        print(printable(f"{ruleset}: error[rules.players]: {refused}"))
        raise typer.Exit(2)
    try:
        if format is Format.json:
            print(rules_json(loaded, building))
        else:
            print(rules_text(loaded, building, players))
    except KeyError as exc:
        print(printable(f"{ruleset}: error[rules.unknown-building]: {exc.args[0]}"))
        raise typer.Exit(2) from None


@_command()
def play(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="Number of players.")] = 3,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Random seed: the same seed gives the same game.")] = 0,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Ruleset: base, expansion-1, 1897, 1897-expansion-1, or a path.")] = "base",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the log to this file instead of standard output.")] = None,
) -> None:
    """Play a complete random legal game and print it as a canonical game log."""
    from referee.jobs.play import play as play_game
    from referee.jobs.play import to_log

    rules = _ruleset_or_exit(ruleset)
    refused = rules.not_for(players)
    if refused is not None:
        print(printable(f"{ruleset}: error[play.players]: {refused}"))
        raise typer.Exit(2)
    text = to_log(play_game(rules, players, seed), _ruleset_as_written(ruleset, output))
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(printable(f"{output}: error[output.unwritable]: cannot write the log: {exc.strerror or exc}"))
        raise typer.Exit(2) from None


def _ruleset_as_written(ruleset: str, output: Path | None) -> str:
    """The `ruleset` key of a written log: a bundled name as given; a path (relative to the
    working directory) made relative to the written file's folder, where a reader looks for it."""
    from referee.rulesets.load import names_a_file

    if not names_a_file(ruleset):
        return ruleset
    base = (output.parent if output is not None else Path()).resolve()
    return Path(os.path.relpath(Path(ruleset).resolve(), base)).as_posix()


@_command()
def serve(
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help="The port to serve on (0: any free one).")] = 8787,
    host: Annotated[str, typer.Option("--host", help="The address to bind: this machine only by default; 0.0.0.0 opens it to the network.")] = "127.0.0.1",
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the browser.")] = False,
    database: Annotated[
        Path | None, typer.Option("--database", help="The SQLite file the tables of phones are kept in (made on first use; default: the user's data folder).", dir_okay=False)
    ] = None,
) -> None:
    """The score sheet, the shipping calculator and the log check as a page in the browser (and their JSON API: POST /api/validate, /api/score-sheet, /api/ship)."""
    refused = _host_refused(host)
    if refused:
        print(printable(f"--host {host!r}: error[usage.host]: {refused}"))
        raise typer.Exit(2)
    from referee.commands.server import serve as run
    from referee.jobs.table_store import StoreError

    try:
        run(host, port, open_browser, database)
    except StoreError as exc:
        print(printable(f"{database or 'tables'}: error[serve.database]: {exc}"))
        raise typer.Exit(2) from None
    except OSError as exc:
        print(printable(f"{host}:{port}: error[serve.address]: cannot serve there: {exc.strerror or exc}"))
        raise typer.Exit(2) from None


def _host_refused(host: str) -> str:
    """Why `--host` cannot be served on ('' if it can be tried): an empty address would listen
    on every interface, and a name that cannot be encoded would end in a traceback."""
    if not host.strip():
        return "give an address or a host name (127.0.0.1: this machine only; 0.0.0.0: the network), not an empty one"
    if host != host.strip() or "\x00" in host:
        return "an address or a host name has no spaces or NUL characters around or in it"
    try:
        host.encode("idna")
    except UnicodeError as exc:
        return f"not an address or a host name that can be encoded ({exc})"
    return ""


def main() -> None:
    """Entry point of the `referee` console script: the standard streams guarded (`streams`:
    never a traceback, never exit 1 for a valid log), only the command asked for built
    (`start_up`), then the command."""
    streams.guard()
    start_up.only_the_command_asked(app)
    streams.run(app)


@_command()
def ship(
    file: Annotated[str, typer.Argument(help="A shipping position (YAML); '-' reads standard input.", show_default=False)],
    for_: Annotated[
        str | None,
        typer.Option(
            "--for",
            help="Show this player's choices and best move; an indifferent player is taken to play against them (this changes the others' tie-breaking).",
        ),
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Also list every distinct outcome of the phase.")] = False,
    limit: Annotated[int | None, typer.Option("--limit", min=0, help="With --all: stop the list after this many outcomes.")] = None,
    ruleset: RulesetOption = None,
    format: FormatOption = Format.text,
) -> None:
    """The shipping calculator: what each player can end a captain phase with.

    For each player, the VP they can be sure of whatever the others do (guaranteed: the phase
    played as a game of that player against all the others together), the most VP over every
    legal play (best), and the VP of the expected play: each player, at each decision, makes the
    move that gives them the most VP in the phase, then the most barrels kept after storage;
    where still indifferent, the move worst for the player asking (--for, else the captain).
    Then the expected play itself, and the choices of the first player to decide (with --for,
    that player's first decision) with the guaranteed, expected and best VP each leaves them,
    the expected play's move marked (the text shows the eight best; --format json all).
    Storage keeps the most barrels the rules allow, the more valuable kinds first.

    Exit code 0: calculated; 2: the position could not be read, or --for names nobody in it.
    """
    from referee.commands.ship import ShipRequest, ship_errors, ship_report
    from referee.diagnostics import internal_error
    from referee.documents.inputs import read_input

    if limit is not None and not every:
        raise typer.BadParameter("--limit goes with --all", param_hint="--limit")
    item = read_input(file)
    try:
        with searching(not every and sys.stderr.isatty()) as progress:
            output, code = ship_report(item, ShipRequest(for_, ruleset, format is Format.json, every, limit, progress))
        work_done(code)
        for piece in output:
            sys.stdout.write(piece)
            if every:  # the outcome list is written as it is found
                sys.stdout.flush()
    except Exception as exc:  # a bug in referee: reported, never a traceback
        print(ship_errors(item.name, [internal_error(item.name, exc)], format is Format.json))
        code = 2
    raise typer.Exit(code)


@_command("next")
def next_(
    file: Annotated[str, typer.Argument(help="A game log, complete or in progress; '-' reads standard input.", show_default=False)],
    ruleset: RulesetOption = None,
    format: FormatOption = Format.text,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit",
            min=1,
            help="List at most this many moves (a mayor's arrangements may number a hundred thousand); the JSON then says truncated and their count.",
        ),
    ] = None,
) -> None:
    """The decision a game in progress waits for, and every legal move.

    Who decides what: a role to choose, a move of the phase under way, a captain phase's
    storage ('keep'), or what only the table knows (a settler phase's new face-up row). Any
    move listed, appended to the log where it says, gives a valid log. JSON adds the boards
    as they stand ("state") and each player's VP and doubloons round by round ("history").

    Exit code 0: the log is valid (complete, or in progress); 1: a rule was broken; 2: the log
    could not be read. A broken or unreadable log is answered as `referee validate` answers it.
    """
    from referee.diagnostics import internal_error
    from referee.documents.inputs import read_input
    from referee.ground.wording import json_text
    from referee.jobs.check import LogReport
    from referee.jobs.decisions import NextReport, next_decision
    from referee.render.decision import next_object, next_text

    item = read_input(file)
    try:
        if item.data is None:
            assert item.error is not None
            run = NextReport(LogReport(item.name, errors=[item.error]))
        else:
            run = next_decision(item.data, item.name, ruleset, item.base, limit)
    except Exception as exc:  # a bug in referee: reported, never a traceback
        run = NextReport(LogReport(item.name, errors=[internal_error(item.name, exc)]))
    work_done(run.exit_code)
    print(json_text(next_object(run)) if format is Format.json else next_text(run))
    raise typer.Exit(run.exit_code)


@_command("review")
def review(
    file: Annotated[str, typer.Argument(help="A game log, complete or in progress; '-' reads standard input.", show_default=False)],
    every: Annotated[bool, typer.Option("--all", help="Every captain phase with its figures, and every decision in it.")] = False,
    ruleset: RulesetOption = None,
    format: FormatOption = Format.text,
) -> None:
    """A game's captain phases against the shipping calculator: what each decision cost.

    For every captain phase of the log: each player's VP from the phase as played, against the
    guaranteed, expected and best VP `referee ship` gives the phase's start; and for every
    load, wharf, pass and keep, the VP in the phase the move made could be expected to give,
    against the best move open then (the others playing the expected play, as `referee ship`
    reads it), and what it lost. The text shows each player's VP lost and the costliest
    decisions, by the log's lines; --all every phase and decision; --format json all of it.

    Exit code 0: the log is valid (complete, or in progress); 1: a rule was broken (the phases
    before it are reviewed); 2: the log could not be read.
    """
    from referee.diagnostics import internal_error
    from referee.documents.inputs import read_input
    from referee.ground.wording import json_text
    from referee.jobs.check import LogReport
    from referee.jobs.review import Review, review_log
    from referee.render.review import review_object, review_text

    item = read_input(file)
    try:
        if item.data is None:
            assert item.error is not None
            run = Review(item.name, LogReport(item.name, errors=[item.error]), (), ())
        else:
            run = review_log(item.data, item.name, ruleset, item.base)
    except Exception as exc:  # a bug in referee: reported, never a traceback
        run = Review(item.name, LogReport(item.name, errors=[internal_error(item.name, exc)]), (), ())
    work_done(run.exit_code)
    print(json_text(review_object(run)) if format is Format.json else review_text(run, every))
    raise typer.Exit(run.exit_code)


class ExportFormat(str, Enum):
    bgstats = "bgstats"
    bgg = "bgg"


@_command("export")
def export(
    file: Annotated[str, typer.Argument(help="A complete game log; '-' reads standard input.", show_default=False)],
    format: Annotated[ExportFormat, typer.Option("--format", "-f", help="bgstats: BG Stats' JSON import format; bgg: BoardGameGeek's fields of a logged play.")],
    ruleset: RulesetOption = None,
) -> None:
    """A finished game as a play for the apps players log plays with, as JSON.

    The players in seat order (the first governor first), their scores and the winner; the date
    and place from the log's `meta` (today where it has no date). Puerto Rico is BoardGameGeek's
    game 3076.

    Exit code 0: written; 1: the log breaks a rule; 2: it could not be read, or the game is not over.
    """
    import datetime

    from referee.commands.tables import export_answer
    from referee.documents.inputs import read_input
    from referee.ground.wording import json_text
    from referee.jobs.check import check_log
    from referee.located.tree import read_yaml
    from referee.render.report import diagnostic_line

    item = read_input(file)
    if item.data is None:
        assert item.error is not None
        print(diagnostic_line(item.error, item.name))
        raise typer.Exit(2)
    report = check_log(item.data, item.name, ruleset, False, item.base)
    if report.errors:
        for diagnostic in report.errors:
            print(diagnostic_line(diagnostic, item.name))
        raise typer.Exit(report.exit_code)
    if not report.complete or report.scores is None:
        print(printable(f"{item.name}: error[export.in-progress]: the game is still being played ({report.waiting}): a play is exported once it is over"))
        raise typer.Exit(2)
    document = read_yaml(item.data, item.name).plain()
    log = {"players": [s.player for s in report.scores], "meta": document.get("meta") if isinstance(document, dict) else None}
    if isinstance(document, dict) and isinstance(document.get("players"), list):
        log["players"] = [str(name) for name in document["players"]]
    print(json_text(export_answer(format.value, log, report.scores, datetime.date.today().isoformat())))
