"""One file's verdict: a game log read, checked and written out, as `referee validate` gives it.

`Options` says how (the ruleset, provisional scores, and the writer of a report, which the
command layer chooses: this layer renders nothing itself); `verdict` checks one input, in this
process or in a worker's. Anything unexpected while checking a file becomes a diagnostic for that
file (`referee.diagnostics.internal_error`), never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.diagnostics import READ_ERROR, Diagnostic, Location, internal_error
from referee.documents.inputs import Input, read_input
from referee.jobs.check import LogReport, check_log

Output = str | dict[str, Any]  # a report as the command writes it: text, or an object for a document of many (SARIF)


@dataclass(frozen=True, slots=True)
class Options:
    """How each log is checked and written: `ruleset` (None: the one each log names),
    `provisional` (scores of a game in progress too), and `render`, the report's writer (a
    module-level function, or a `functools.partial` of one, so that worker processes and a
    cluster's workers can be sent it)."""

    ruleset: str | None
    provisional: bool
    render: Callable[[LogReport], Output]


@dataclass(frozen=True, slots=True)
class Verdict:
    """A file's verdict: the exit code of its check and its report as written; or, for a file
    found in a search for logs that is another document (a score sheet, a position ...),
    `skipped`: what it is, and no report."""

    exit_code: int
    output: Output
    skipped: str | None = None


def verdict(item: Input, options: Options) -> Verdict:
    """Check one input and write its report with `options.render`; a file found in a search for
    logs that is another document is skipped (see `Verdict`)."""
    if item.found and item.data is not None:
        from referee.documents.kind import LOG, document_kind

        kind = document_kind(item.data)
        if kind != LOG:
            return Verdict(0, "", skipped=kind)
    if item.data is None:
        assert item.error is not None
        report = LogReport(item.name, errors=[item.error])
    else:
        try:
            report = check_log(item.data, item.name, options.ruleset, options.provisional, item.base)
        except Exception as exc:  # a bug in referee: reported as such, never a traceback
            report = LogReport(item.name, errors=[internal_error(item.name, exc)])
    return Verdict(report.exit_code, options.render(report))


def verdict_of_path(path: str, options: Options) -> Verdict:
    """Read a file and check it (what a worker process or a cluster's worker runs)."""
    return verdict(read_input(path), options)


def verdicts_of_paths(paths: list[str], options: Options) -> list[Verdict]:
    """Several files, read and checked one after another (a worker's task)."""
    return [verdict_of_path(path, options) for path in paths]


def unchecked(path: str, message: str, options: Options) -> Verdict:
    """The verdict of a file that no worker could check (`internal.worker-died`, saying why)."""
    return verdict(Input(None, path, None, Diagnostic("internal.worker-died", message, Location(path, 1, 1), READ_ERROR)), options)
