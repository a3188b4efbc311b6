"""The input files of a command: paths, folders searched for game logs, and standard input, each
read into its bytes, or refused with a diagnostic that says why it cannot be read.

Nothing is skipped in silence: a folder that cannot be listed, a dangling link or a FIFO named
`*.yaml` is an input of its own, for its reading to say what it is.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from referee.diagnostics import READ_ERROR, Diagnostic, Location
from referee.located.tree import Unreadable, read_document, read_stream

STDIN_NAME = "<stdin>"


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
