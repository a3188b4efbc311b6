"""Checking many logs in worker processes (`referee validate --jobs N`) that cannot take the run
down with them.

- Workers read their own files: the parent sends paths, never file contents, and keeps only a
  bounded window of files in flight, so memory does not grow with the archive.
- Results come back in input order.
- A worker that dies (killed, out of memory) costs only the file it was checking: the files in
  flight when it died are checked again, each alone in a fresh worker, and the one that kills
  its worker again is reported as `internal.worker-died`. The rest of the run goes on.
- Workers die with the parent (Linux: the kernel's parent-death signal), and SIGTERM or SIGHUP
  to the parent stops them before it exits.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from types import FrameType
from typing import Any

from referee.batch import Input, check, read_input
from referee.diagnostics import READ_ERROR, Diagnostic, Location

Result = tuple[int, str]


CHUNK = 8  # files a task: fewer round trips between the parent and the workers


class InOrder:
    """The results of a run by input index, given back in input order as they come (`ready`).
    The items read already (standard input, a folder that could not be listed) are checked at
    once; the paths go out in batches of their indexes (`batches`). Worker processes and a Dask
    cluster both collect their results here."""

    def __init__(self, items: list[str | Input], ruleset: str | None, provisional: bool, style: str, tick: Callable[[], None] | None) -> None:
        self.items = items
        self.tick = tick
        self.written = 0
        self.results: dict[int, Result] = {i: check(item, ruleset, provisional, style) for i, item in enumerate(items) if isinstance(item, Input)}

    def batches(self, size: int) -> deque[tuple[int, ...]]:
        """The indexes of the paths, `size` a batch."""
        paths = [i for i, item in enumerate(self.items) if not isinstance(item, Input)]
        return deque(tuple(paths[at : at + size]) for at in range(0, len(paths), size))

    @property
    def done(self) -> bool:
        return self.written >= len(self.items)

    def ready(self) -> Iterator[Result]:
        """The results next in input order that have come."""
        while self.written in self.results:
            yield self.results.pop(self.written)
            self.written += 1
            if self.tick:
                self.tick()


def unchecked(path: str, message: str, ruleset: str | None, provisional: bool, style: str) -> Result:
    """The result of a file that no worker could check (`internal.worker-died`, saying why)."""
    return check(Input(None, path, None, Diagnostic("internal.worker-died", message, Location(path, 1, 1), READ_ERROR)), ruleset, provisional, style)


def check_parallel(items: list[str | Input], ruleset: str | None, provisional: bool, style: str, jobs: int, tick: Callable[[], None] | None) -> Iterator[Result]:
    """(exit code, rendered output) of each item, in order, checked in `jobs` processes."""
    run = InOrder(items, ruleset, provisional, style, tick)
    results = run.results
    todo = run.batches(CHUNK)
    window = 2 * jobs  # tasks in flight

    with _stopping_on_signals() as pools:
        while not run.done:
            pool = _pool(jobs)
            pools.append(pool)
            flying: dict[tuple[int, ...], Future[list[Result]]] = {}
            broken = False
            try:
                while (todo or flying) and not broken:
                    while todo and len(flying) < window:
                        chunk = todo.popleft()
                        flying[chunk] = pool.submit(_check_paths, [items[i] for i in chunk], ruleset, provisional, style)  # type: ignore[misc]
                    wait(flying.values(), return_when=FIRST_COMPLETED)
                    for chunk, future in list(flying.items()):
                        if future.done():
                            try:
                                results.update(zip(chunk, future.result(), strict=True))
                            except BrokenProcessPool:
                                broken = True
                                continue
                            del flying[chunk]
                    yield from run.ready()
            finally:
                pool.shutdown(wait=False, cancel_futures=True)
                pools.remove(pool)
            for i in sorted(i for chunk in flying for i in chunk):  # in flight when a worker died: each alone, in a fresh worker
                results[i] = _alone(items[i], ruleset, provisional, style, pools)  # type: ignore[arg-type]
            yield from run.ready()


def _alone(path: str, ruleset: str | None, provisional: bool, style: str, pools: list[ProcessPoolExecutor]) -> Result:
    pool = _pool(1)
    pools.append(pool)
    try:
        return pool.submit(_check_path, path, ruleset, provisional, style).result()
    except BrokenProcessPool:
        return unchecked(path, "the worker process checking this file died (killed, or out of memory); the file was not checked", ruleset, provisional, style)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        pools.remove(pool)


def _pool(jobs: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=jobs, initializer=_die_with_parent)


def _check_path(path: str, ruleset: str | None, provisional: bool, style: str) -> Result:
    """In a worker: read the file and check it."""
    return check(read_input(path), ruleset, provisional, style)


def _check_paths(paths: list[str], ruleset: str | None, provisional: bool, style: str) -> list[Result]:
    """In a worker: `_check_path` for each of a few files."""
    return [_check_path(path, ruleset, provisional, style) for path in paths]


def _die_with_parent() -> None:
    """In a worker: ask the kernel to end this process when its parent ends (Linux)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            PR_SET_PDEATHSIG = 1
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


@contextlib.contextmanager
def _stopping_on_signals() -> Iterator[list[ProcessPoolExecutor]]:
    """While workers run: SIGTERM or SIGHUP stops them, then ends the parent (128 + signal)."""
    pools: list[ProcessPoolExecutor] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        for pool in list(pools):
            for process in list(getattr(pool, "_processes", {}).values()):  # the executor's own table of its workers
                with contextlib.suppress(OSError):
                    process.terminate()
        # Out at once: unwinding from here could wait forever on a lock the signal interrupted
        # (the executor's, held by `submit`) or on the executor's exit hook joining its threads.
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a write the signal interrupted refuses a flush
                stream.flush()
        os._exit(128 + signum)

    old: dict[int, Any] = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            with contextlib.suppress(ValueError):  # not the main thread: leave the handlers alone
                old[sig] = signal.signal(sig, stop)
    try:
        yield pools
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
