"""The standard streams of a `referee` run, guarded (docs/formats/commands.md, exit codes): a
closed standard input reads as an unreadable input (exit 2); a closed or failing standard output
ends the run at once (exit 2, one line on stderr), or quietly with the work's exit code when its
reader stopped reading (`| head -1`); a standard error that cannot be written makes the exit
code 2 at the end. Never a traceback, never exit 1 for a valid log."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn


class WorkDone:
    """The exit code of the work done so far: what a broken pipe ends the process with."""

    code = 0


def work_done(code: int) -> None:
    """Record the exit code of a piece of work done: the run's is the worst so far."""
    WorkDone.code = max(WorkDone.code, code)


class Output:
    """Standard output that ends the process cleanly when it cannot be written: a reader that
    stopped reading (`| head -1`) ends it quietly with the exit code of the work done so far; a
    write error (a full disk) with one line on stderr and exit code 2. Never a traceback."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        try:
            return int(self._inner.write(text))
        except OSError as exc:
            self._failed(exc)

    def flush(self) -> None:
        try:
            self._inner.flush()
        except OSError as exc:
            self._failed(exc)

    def _failed(self, exc: OSError) -> NoReturn:
        with contextlib.suppress(OSError, ValueError):  # later flushes (at exit) go nowhere
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._inner.fileno())
        if isinstance(exc, BrokenPipeError):
            raise SystemExit(WorkDone.code)
        sys.stderr.write(f"referee: cannot write the output: {exc.strerror or exc}\n")
        raise SystemExit(2)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class Errors:
    """Standard error that never ends the run with a traceback: a line that cannot be written
    (stderr closed, or full: /dev/full) is lost and remembered, and the run ends with exit code
    2 (the user was not told everything), whatever the logs were."""

    failed = False

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        try:
            if self._inner is None:
                raise OSError("standard error is closed")
            return int(self._inner.write(text))
        except (OSError, ValueError):
            self._lost()
            return len(text)

    def flush(self) -> None:
        try:
            if self._inner is not None:
                self._inner.flush()
        except (OSError, ValueError):
            self._lost()

    def isatty(self) -> bool:
        return self._inner is not None and bool(self._inner.isatty())

    def _lost(self) -> None:
        Errors.failed = True
        with contextlib.suppress(OSError, ValueError, AttributeError):  # the flush at exit goes nowhere, and says nothing
            os.dup2(os.open(os.devnull, os.O_WRONLY), self._inner.fileno())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def hold(fd: int, flags: int) -> None:
    """Put /dev/null at a closed standard stream's number: a file opened later would take the
    number (and a worker's prints would land in it)."""
    with contextlib.suppress(OSError):
        os.fstat(fd)
        return
    with contextlib.suppress(OSError):
        opened = os.open(os.devnull, flags)
        if opened != fd:
            os.dup2(opened, fd)
            os.close(opened)


def guard() -> None:
    """Wrap the standard streams (see the module) before any work: a character no encoding of a
    stream has is written as an escape, a closed stream's number is held by /dev/null, stderr
    and stdout are `Errors` and `Output`; a closed stdout ends the run here (exit 2)."""
    for stream in (sys.stdout, sys.stderr):  # a character no encoding of the stream has: an escape, not a traceback
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    for fd, stream, flags in ((0, sys.stdin, os.O_RDONLY), (2, sys.stderr, os.O_WRONLY)):
        if stream is None:
            hold(fd, flags)
    sys.stderr = Errors(sys.stderr)
    if sys.stdout is None:  # started with `>&-`: no output can be written
        sys.stderr.write("referee: cannot write the output: standard output is closed\n")
        raise SystemExit(2)
    sys.stdout = Output(sys.stdout)


def run(work: Callable[[], None]) -> None:
    """`work()` with the streams flushed after it, and exit code 2 where standard error lost a
    line (the user was not told everything) and the work ended as a success or with broken rules."""
    try:
        try:
            work()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
    except SystemExit as exc:
        if Errors.failed and (exc.code is None or exc.code in (0, 1)):
            raise SystemExit(2) from None
        raise
    if Errors.failed:
        raise SystemExit(2)
