"""Checking a game log end to end: read, replay, score, compare with the written result; and
scoring a score sheet.

`check_log` is what `referee validate` and `referee score` run for each file (`score_sheet` for
`referee score --sheet`); each returns a `LogReport` value that `referee.render.report` turns into text or JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from referee.diagnostics import READ_ERROR, RULE_ERROR, Diagnostic, InputError, in_order
from referee.documents.log import GameRecord, read_log
from referee.jobs.replays import Replay, Watch, replay
from referee.jobs.scoring import Score, score
from referee.rulesets.rules import Rules


@dataclass(slots=True)
class LogReport:
    """The outcome of checking one game log."""

    file: str
    errors: list[Diagnostic] = field(default_factory=list)
    complete: bool = False
    waiting: str | None = None  # for a game in progress: whose decision it is
    scores: list[Score] | None = None
    rules: Rules | None = None
    moves: int | None = None  # role choices and moves replayed (a log that was read; None for a score sheet)
    end: str | None = None  # why the game ended

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def exit_code(self) -> int:
        return max((d.exit_code for d in self.errors), default=0)


def check_log(data: bytes | str, file: str, ruleset: str | None = None, provisional: bool = False, base_dir: Path | None = None) -> LogReport:
    """Read and replay one log; score it when complete (or `provisional`); check its `result`."""
    report = LogReport(file)
    try:
        record = read_log(data, file, ruleset, base_dir)
    except InputError as exc:
        report.errors = in_order(exc.diagnostics)
        return report
    return check_record(record, file, provisional)[0]


def check_record(record: GameRecord, file: str, provisional: bool = False, watch: Watch | None = None) -> tuple[LogReport, Replay]:
    """Replay a log that was read; score it when complete (or `provisional`); check its
    `result`. The replay is returned beside the report for the jobs that look further, and
    `watch` is shown it as it goes."""
    report = LogReport(file, rules=record.rules)
    run = replay(record, watch)
    report.moves = run.moves
    report.complete = run.complete
    report.waiting = run.waiting
    if run.error is not None:
        report.errors = [run.error]
    if run.game is not None and run.error is None and (run.complete or provisional):
        report.scores = score(run.game.boards, record.rules)
    if run.game is not None and run.complete:
        report.end = run.game.end_text()
        if report.scores is not None:
            report.errors += check_result(record, run, report.scores)
    return report, run


def check_result(record: GameRecord, run: Replay, scores: list[Score]) -> list[Diagnostic]:
    """The log's written `result` against the computed totals (checked once the game is complete)."""
    if record.result is None:
        return []
    out = []
    for p, (claimed, location) in sorted(record.result.items(), key=lambda kv: kv[1][1].line):
        s = scores[p]
        if claimed != s.total:
            bonus = "".join(f" + {v} {name}" for name, v in s.bonus_by_building.items())
            out.append(
                Diagnostic(
                    "result.mismatch",
                    f"{s.player} scores {s.total} ({s.chips} shipping + {s.buildings} buildings{bonus}), not {claimed}",
                    location,
                    RULE_ERROR,
                )
            )
    return out


def score_sheet(data: bytes | str | None, file: str, ruleset: str | None = None, base_dir: Path | None = None, read_error: str | None = None) -> LogReport:
    """Check and score a score sheet: a report like a complete game's."""
    report = LogReport(file)
    if data is None:
        report.errors = [Diagnostic("input.not-found" if read_error == "no such file" else "input.unreadable", read_error or "cannot read", None, READ_ERROR)]
        return report
    from referee.documents.sheet import read_sheet  # only for a sheet

    try:
        rules, boards = read_sheet(data, file, ruleset, base_dir)
    except InputError as exc:
        report.errors = exc.diagnostics
        return report
    report.rules = rules
    report.complete = True
    report.scores = score(boards, rules)
    return report
