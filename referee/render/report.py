"""Turning results into text (for people) and JSON (a stable contract, docs/formats/commands.md).

The one place where diagnostics, scores and reports become output. rich is used for tables
only when writing to a terminal; piped output is plain text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.diagnostics import Diagnostic
from referee.ground.wording import count, json_text, printable, rich_text
from referee.jobs.scoring import Score, winners
from referee.render.tables import table

if TYPE_CHECKING:  # the checking pipeline (replay, engine) is not needed to render a diagnostic
    from referee.jobs.check import LogReport


def diagnostic_line(d: Diagnostic, file: str) -> str:
    """`file:line:col: error[rule]: message`, as compilers and linters print."""
    where = str(d.location) if d.location is not None else file
    return printable(f"{where}: error[{d.rule}]: {d.message}")


def diagnostic_json(d: Diagnostic, file: str | None = None) -> dict[str, Any]:
    """A diagnostic as JSON (docs/formats/commands.md), with its file and severity added."""
    out: dict[str, Any] = {
        "line": d.location.line if d.location else None,
        "column": d.location.column if d.location else None,
        "rule": d.rule,
        "message": d.message,
        "severity": "error",
    }
    if file is not None or d.location is not None:
        out["file"] = d.location.file if d.location is not None else file
    return out


def report_in(r: LogReport, style: str) -> str:
    """One log's report in an output style: `text` (diagnostics, or the verdict and scores),
    `json` (one JSON line) or `github` (workflow annotations, one a diagnostic; nothing for a
    valid log)."""
    if style == "json":
        return report_json(r)
    if style == "github":
        return "\n".join(github_annotation(d, r.file) for d in r.errors)
    return report_text(r)


def github_annotation(d: Diagnostic, file: str) -> str:
    """`::error file=F,line=L,col=C,title=RULE::MESSAGE`, as GitHub Actions reads it from a
    step's output (its own escapes: `%`, line ends, and in properties `:` and `,`)."""
    where = d.location
    fields = [f"file={_github_property(where.file if where else file)}"]
    if where is not None:
        fields += [f"line={where.line}", f"col={where.column}"]
    fields.append(f"title={_github_property(d.rule)}")
    return f"::error {','.join(fields)}::{_github_data(d.message)}"


def _github_data(text: str) -> str:
    """A message for a workflow command: GitHub's own escapes (`%`, line ends), then the other
    control characters, separators and direction overrides escaped as everywhere (`printable`:
    the runner's log is read on a terminal too)."""
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def score_json(s: Score) -> dict[str, Any]:
    return {
        "player": s.player,
        "total": s.total,
        "chips": s.chips,
        "buildings": s.buildings,
        "bonus": s.bonus,
        "bonus_by_building": dict(s.bonus_by_building),
        "doubloons": s.doubloons,
        "goods": s.goods,
        "tiebreak": s.tiebreak,
        "rank": s.rank,
        "winner": s.rank == 1,
    }


def report_json(r: LogReport) -> str:
    """One JSON line for one log."""
    return json_text(report_object(r))


def report_object(r: LogReport) -> dict[str, Any]:
    """One log's report as the JSON object of docs/formats/commands.md."""
    obj: dict[str, Any] = {
        "file": r.file,
        "valid": r.valid,
        "complete": r.complete,
        "errors": [diagnostic_json(d, r.file) for d in r.errors],
        "scores": [score_json(s) for s in r.scores] if r.scores is not None else None,
    }
    if r.rules is not None:
        obj["ruleset"] = r.rules.id
    if r.moves is not None:
        obj["moves"] = r.moves
    if r.waiting is not None:
        obj["waiting"] = r.waiting
    if r.end is not None:
        obj["end"] = r.end  # why and when a complete game ended ("round 14, because ...")
    if r.scores is not None:
        obj["provisional"] = not r.complete
    return obj


def report_text(r: LogReport) -> str:
    """The validation verdict for one log: its diagnostics, or what state the game is in; and
    the scores wherever the JSON has them (a game whose written result is wrong still has its
    scores as replayed)."""
    if r.errors:
        lines = [diagnostic_line(d, r.file) for d in r.errors]
        if r.scores:
            lines.append(printable(f"{r.file}: scores as replayed: {totals_text(r.scores)}"))
        return "\n".join(lines)
    moves = count(r.moves or 0, ("move", "moves"))
    if r.complete:
        if r.scores:
            return printable(f"{r.file}: valid, complete game ({moves}); {winner_text(r.scores)}; scores: {totals_text(r.scores)}")
        return printable(f"{r.file}: valid, complete game ({moves})")
    scores = f"; provisional scores: {totals_text(r.scores)}" if r.scores else ""
    return printable(f"{r.file}: valid so far, game in progress ({moves}); next: {r.waiting}{scores}")


def totals_text(scores: list[Score]) -> str:
    """'Ines 44, Tobias 41, Marek 40': each player's total, by rank."""
    return ", ".join(f"{s.player} {s.total}" for s in sorted(scores, key=lambda s: s.rank))


def winner_text(scores: list[Score] | None) -> str:
    if not scores:
        return ""
    top = winners(scores)
    best = next(s for s in scores if s.rank == 1)
    if len(top) == 1:
        return f"winner: {top[0]} with {best.total} VP"
    return f"shared win: {', '.join(top)} with {best.total} VP"


def _bonus_text(s: Score) -> str:
    return ", ".join(f"{name} {v}" for name, v in s.bonus_by_building.items()) or "-"


COLUMNS = ("player", "shipping", "buildings", "bonus", "total", "tie-break", "rank")


def _title(r: LogReport) -> str:
    return f"{r.file}: {'final scores' if r.complete else 'provisional scores (game in progress)'}"


def _score_rows(scores: list[Score]) -> list[tuple[str, ...]]:
    """A row of the score table for each player, by rank."""
    return [
        (s.player, str(s.chips), str(s.buildings), _bonus_text(s), str(s.total), f"{s.tiebreak} ({s.doubloons}+{s.goods})", str(s.rank))
        for s in sorted(scores, key=lambda s: s.rank)
    ]


def scores_text(r: LogReport) -> str:
    """A plain-text score table with its parts."""
    assert r.scores is not None
    head = _title(r)
    if r.rules is not None:
        head += f" [{r.rules.id}]"
    lines = [head, *table([COLUMNS, *_score_rows(r.scores)], right=(1, 2, 4, 5, 6))]
    lines.append(winner_text(r.scores) + ("" if r.complete else " (provisional)"))
    if r.end and r.complete:
        lines.append(f"the game ended after {r.end}")
    return "\n".join(printable(line) for line in lines)


def scores_rich(r: LogReport) -> Any:
    """The score table as a rich renderable (used on a terminal)."""
    from rich.table import Table

    assert r.scores is not None
    # Names and file names as Text, never markup: a player named `[/x]` made rich fail, and
    # `[link=...]` or an escape sequence in a name reached the terminal as a hyperlink or a colour.
    table = Table(title=rich_text(_title(r)), caption=rich_text(winner_text(r.scores)))
    for col in COLUMNS:
        table.add_column(col, justify="left" if col in ("player", "bonus") else "right")
    for row in _score_rows(r.scores):
        table.add_row(*(rich_text(cell) for cell in row), style="bold green" if row[-1] == "1" else None)
    return table
