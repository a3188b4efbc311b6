"""Checking many logs in worker processes (`referee validate --jobs N`) that cannot take the run
down with them.

- Workers read their own files: the parent sends paths, never file contents, and keeps only a
  bounded window of files in flight, so memory does not grow with the archive.
- Verdicts come back in input order.
- A worker that dies (killed, out of memory) costs only the file it was checking: the files in
  flight when it died are checked again, each alone in a fresh worker, and the one that kills
  its worker again is reported as `internal.worker-died`. The rest of the run goes on.
- A worker that dies at any moment (also while the parent waits on a slow pipe or terminal)
  breaks only its pool: every submit and every result is read inside the handling of a broken
  pool, the results that came are kept, and a new pool takes the rest.
- Workers die with the parent (Linux: the kernel's parent-death signal), and Ctrl-C, SIGTERM or
  SIGHUP to the parent stops them before it exits (quietly: the workers ignore Ctrl-C).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from types import FrameType
from typing import Any

from referee.diagnostics import internal_error
from referee.documents.inputs import Input
from referee.jobs.verdict import Options, Verdict, unchecked, verdict, verdict_of_path, verdicts_of_paths

CHUNK = 8  # files a task: fewer round trips between the parent and the workers


class InOrder:
    """The results of a run by input index, given back in input order as they come (`ready`).
    The items read already (standard input, a folder that could not be listed) are checked at
    once; the paths go out in batches of their indexes (`batches`). Worker processes and a Dask
    cluster both collect their results here."""

    def __init__(self, items: list[str | Input], options: Options, tick: Callable[[], None] | None) -> None:
        self.items = items
        self.options = options
        self.tick = tick
        self.written = 0
        self.results: dict[int, Verdict] = {i: verdict(item, options) for i, item in enumerate(items) if isinstance(item, Input)}

    def batches(self, size: int) -> deque[tuple[int, ...]]:
        """The indexes of the paths, `size` a batch."""
        paths = [i for i, item in enumerate(self.items) if not isinstance(item, Input)]
        return deque(tuple(paths[at : at + size]) for at in range(0, len(paths), size))

    @property
    def done(self) -> bool:
        return self.written >= len(self.items)

    def ready(self) -> Iterator[Verdict]:
        """The results next in input order that have come."""
        while self.written in self.results:
            yield self.results.pop(self.written)
            self.written += 1
            if self.tick:
                self.tick()


def check_parallel(items: list[str | Input], options: Options, jobs: int, tick: Callable[[], None] | None) -> Iterator[Verdict]:
    """The verdict of each item, in order, checked in `jobs` processes."""
    run = InOrder(items, options, tick)
    todo = run.batches(CHUNK)
    with _stopping_on_signals() as pools:
        while not run.done:
            # One pool until a worker dies (or the work is done); then the files it left
            # without a verdict, each alone in a fresh worker, and a new pool for the rest.
            lost = yield from _in_pool(run, todo, jobs, pools)
            for i in lost:
                run.results[i] = _alone(items[i], options, pools)  # type: ignore[arg-type]
            yield from run.ready()


def _in_pool(run: InOrder, todo: deque[tuple[int, ...]], jobs: int, pools: list[ProcessPoolExecutor]) -> Generator[Verdict, None, list[int]]:
    """Check batches from `todo` in a pool of `jobs` workers, yielding results in order, until
    `todo` is empty or the pool breaks (a worker died: killed, out of memory); then the indexes
    of the files sent that got no verdict. The pool can break at any moment, also while the
    parent writes output (a slow pipe or terminal), so every submit and every result is read
    inside the handling of a broken pool."""
    pool = _pool(jobs)
    pools.append(pool)
    window = 2 * jobs  # tasks in flight
    flying: dict[tuple[int, ...], Future[list[Verdict]]] = {}
    finished = False
    try:
        while todo or flying:
            while todo and len(flying) < window:
                chunk = todo[0]
                try:
                    flying[chunk] = pool.submit(verdicts_of_paths, [run.items[i] for i in chunk], run.options)  # type: ignore[misc]
                except BrokenProcessPool:  # a worker died since the last look: this chunk goes to the next pool
                    return _collect(run, flying)
                todo.popleft()
            wait(flying.values(), return_when=FIRST_COMPLETED)
            if any(future.done() and isinstance(future.exception(), BrokenProcessPool) for future in flying.values()):
                return _collect(run, flying)
            for chunk in [chunk for chunk, future in flying.items() if future.done()]:
                _take(run, chunk, flying.pop(chunk))
            yield from run.ready()
        finished = True
        return []
    finally:
        # A pool that did its work is let go waiting for its idle workers (quick): one left
        # running at exit makes the interpreter print a traceback of its threads' wakeup pipe.
        pool.shutdown(wait=finished, cancel_futures=True)
        pools.remove(pool)


def _collect(run: InOrder, flying: dict[tuple[int, ...], Future[list[Verdict]]]) -> list[int]:
    """After a pool broke: the results that came before it did, and the indexes of the files
    in flight without one (in input order)."""
    lost: list[int] = []
    for chunk, future in flying.items():
        if future.done() and not future.cancelled() and future.exception() is None:
            _take(run, chunk, future)
        else:
            lost.extend(chunk)
    return sorted(lost)


def _take(run: InOrder, chunk: tuple[int, ...], future: Future[list[Verdict]]) -> None:
    """The results of a finished task; a task that failed otherwise than by a dead worker (a
    result that could not be sent back) is a failure of referee, said for each of its files."""
    try:
        run.results.update(zip(chunk, future.result(), strict=True))
    except Exception as exc:
        for i in chunk:
            name = str(run.items[i])
            run.results[i] = verdict(Input(None, name, None, internal_error(name, exc)), run.options)


def _alone(path: str, options: Options, pools: list[ProcessPoolExecutor]) -> Verdict:
    """A file checked alone in a fresh worker (after a worker died with it in flight): its
    verdict, or `internal.worker-died` when it kills this worker too."""
    pool = _pool(1)
    pools.append(pool)
    try:
        return pool.submit(verdict_of_path, path, options).result()
    except BrokenProcessPool:
        return unchecked(path, "the worker process checking this file died (killed, or out of memory); the file was not checked", options)
    except Exception as exc:  # a result that could not come back: a failure of referee
        return verdict(Input(None, path, None, internal_error(path, exc)), options)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        pools.remove(pool)


def _pool(jobs: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=jobs, initializer=_die_with_parent, initargs=(os.getpid(),))


def _die_with_parent(parent: int) -> None:
    """In a worker: ignore Ctrl-C (the terminal sends it to every process of the run: the
    parent stops the workers, which would each print a traceback), and ask the kernel to end
    this process when its parent (`parent`: its process id) ends (Linux). A parent that ended
    before the kernel was asked (a SIGTERM while this worker was starting, seen under load in
    CI) is not told about: the worker, which holds its own end of the queue's pipe, would wait
    on it for ever; it ends now instead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            PR_SET_PDEATHSIG = 1
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:
        os._exit(128 + signal.SIGTERM)


@contextlib.contextmanager
def _stopping_on_signals() -> Iterator[list[ProcessPoolExecutor]]:
    """While workers run: Ctrl-C (SIGINT), SIGTERM or SIGHUP stops them, then ends the parent
    quietly (128 + signal: 130 for Ctrl-C)."""
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
    for sig in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            with contextlib.suppress(ValueError):  # not the main thread: leave the handlers alone
                old[sig] = signal.signal(sig, stop)
    try:
        yield pools
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
