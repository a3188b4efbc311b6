"""Validating many logs: files and directories, in order, optionally in several processes.

Each file is read, checked and rendered in one go (in a worker process with `--jobs`), so the
parent only prints; output keeps the order the files were given. Anything unexpected while
checking one file becomes a diagnostic for that file, never a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from referee.diagnostics import READ_ERROR, Diagnostic, Location
from referee.source import Unreadable, read_document, read_stream

STDIN_NAME = "<stdin>"


SKIPPED = -1  # the "exit code" of a file that is not a game log, left out of a search for logs


class Found(str):
    """A path found while searching a folder for game logs (or given with --only-logs): a
    score sheet, a shipping position or another YAML file there is skipped, not reported as a
    broken log."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Input:
    """One input document: its bytes (None when it could not be read), its name, its folder,
    and whether it was found in a search for logs (`Found`)."""

    data: bytes | None
    name: str
    base: Path | None
    error: Diagnostic | None = None
    found: bool = False


def expand(paths: list[str]) -> list[str | Input]:
    """Files to read, directories expanded to the YAML files in them (sorted; `.yaml` and `.yml`
    in any case). Nothing is skipped in silence: a `*.yaml` that is not a readable file (a
    dangling link, a FIFO) is listed, for its reading to say what it is, and a folder that
    cannot be listed (permission, a loop of links) is reported as an unreadable input."""
    out: list[str | Input] = []
    for p in paths:
        if p != "-" and _is_dir(p):
            out.extend(_walk(p))
        else:
            out.append(p)
    return out


def _walk(top: str) -> list[str | Input]:
    """The YAML files under a folder, sorted, then the folders that could not be listed."""
    found: list[str] = []
    problems: list[str | Input] = []

    def unreadable(exc: OSError) -> None:
        where = str(exc.filename or top)
        problems.append(Input(None, where, None, Diagnostic("input.unreadable", f"cannot read the folder: {exc.strerror}", None, READ_ERROR)))

    seen = {os.path.realpath(top)}
    for folder, folders, files in os.walk(top, onerror=unreadable, followlinks=True):
        for name in list(folders):  # linked folders are followed, each real folder once
            real = os.path.realpath(os.path.join(folder, name))
            if real in seen:  # searched already (a loop of links, or a second link): its files are listed once
                folders.remove(name)
            seen.add(real)
        found.extend(Found(os.path.join(folder, f)) for f in files if f.lower().endswith((".yaml", ".yml")))
    if not found and not problems:
        problems.append(Input(None, top, None, Diagnostic("input.no-logs", f"no game logs found in {top} (files ending in .yaml or .yml)", None, READ_ERROR)))
    return [*sorted(found), *problems]


def _is_dir(path: str) -> bool:
    try:
        return Path(path).is_dir()
    except OSError:  # a name too long, a loop of links: read as a file, which says so
        return False


def read_input(path: str) -> Input:
    """Read a file (or standard input for '-'), refusing what cannot be read with a diagnostic."""
    if path == "-":
        if sys.stdin is None:  # started with `<&-`
            return Input(None, STDIN_NAME, Path.cwd(), Diagnostic("input.unreadable", "standard input is closed: nothing to read", Location(STDIN_NAME, 1, 1), READ_ERROR))
        try:
            return Input(read_stream(sys.stdin.buffer.read), STDIN_NAME, Path.cwd())
        except Unreadable as exc:
            return Input(None, STDIN_NAME, Path.cwd(), Diagnostic(exc.rule, f"standard input: {exc.message}", Location(STDIN_NAME, 1, 1), READ_ERROR))
    p = Path(path)
    try:
        return Input(read_document(p), str(path), p.parent, found=isinstance(path, Found))
    except Unreadable as exc:
        return Input(None, path, p.parent, Diagnostic(exc.rule, exc.message, Location(path, 1, 1) if exc.rule == "input.too-large" else None, READ_ERROR))
    except FileNotFoundError:
        return Input(None, path, None, Diagnostic("input.not-found", "no such file", None, READ_ERROR))
    except IsADirectoryError:
        return Input(None, path, None, Diagnostic("input.unreadable", "is a directory", None, READ_ERROR))
    except OSError as exc:
        return Input(None, path, None, Diagnostic("input.unreadable", f"cannot read: {exc.strerror}", None, READ_ERROR))


def internal_error(name: str, exc: BaseException) -> Diagnostic:
    """A diagnostic for a failure of referee itself (reported, never shown as a traceback)."""
    return Diagnostic("internal.error", f"referee failed on this file ({type(exc).__name__}: {exc}); please report it with the file", Location(name, 1, 1), READ_ERROR)


def check(item: Input, ruleset: str | None, provisional: bool, style: str) -> tuple[int, str]:
    """(exit code, rendered output) for one log, in `style` (text, json or github: see
    `referee.render.report.report_in`); (SKIPPED, its kind) for a file found in a search for
    logs that is another document."""
    from referee.check import LogReport, check_log
    from referee.render import report as render

    if item.found and item.data is not None:
        from referee.kinds import LOG, document_kind

        kind = document_kind(item.data)
        if kind != LOG:
            return SKIPPED, kind
    if item.data is None:
        assert item.error is not None
        report = LogReport(item.name, errors=[item.error])
    else:
        try:
            report = check_log(item.data, item.name, ruleset, provisional, item.base)
        except Exception as exc:  # a bug in referee: reported as such, never a traceback
            report = LogReport(item.name, errors=[internal_error(item.name, exc)])
    return report.exit_code, render.report_in(report, style)


def check_all(
    paths: list[str | Input],
    ruleset: str | None,
    provisional: bool,
    style: str,
    jobs: int = 1,
    tick: Callable[[], None] | None = None,
    only_logs: bool = False,
    cluster: str | None = None,
    verbose: bool = False,
) -> Iterator[tuple[int, str]]:
    """Check every log in order; with `jobs` > 1, in that many processes (`referee.workers`);
    with `cluster`, on a Dask cluster (`referee.cluster`, its own logging shown when `verbose`).
    With `only_logs`, every file is treated as found in a search for logs (`Found`)."""
    items = [read_input(p) if p == "-" else Found(p) if only_logs and isinstance(p, str) else p for p in paths]
    if cluster is not None:
        from referee.cluster import check_on_cluster

        yield from check_on_cluster(items, ruleset, provisional, style, cluster, tick, verbose)
        return
    if jobs > 1 and len(items) > 1:
        from referee.workers import check_parallel

        yield from check_parallel(items, ruleset, provisional, style, jobs, tick)
        return
    for x in items:
        yield check(x if isinstance(x, Input) else read_input(x), ruleset, provisional, style)
        if tick:
            tick()
