"""Checking many logs on a Dask cluster (`referee validate --cluster ADDRESS`), for archives
larger than one machine.

The parent sends batches of paths, never file contents: the workers read the files, so every
worker must see the same paths (a shared folder). A bounded window of batches is in flight, and
results are written in input order: the output and the exit code are those of `--jobs 1`.

`ADDRESS` is a running scheduler's (`tcp://HOST:PORT`, from `dask scheduler`) or `local:N`, a
cluster of N worker processes started on this machine for the run. Dask is an optional extra
(`pip install 'referee[dask]'`), imported only here.
"""

from __future__ import annotations

import contextlib
import logging
import re
import signal
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from referee.documents.inputs import Input
from referee.jobs.verdict import Options, Verdict, unchecked, verdicts_of_paths
from referee.jobs.workers import InOrder

_LOCAL = re.compile(r"local:(\d{1,3})")
BATCH = 32  # paths a task: a cluster's scheduling costs more a task than a local pool's


class ClusterError(Exception):
    """The cluster cannot be used (no Dask, a bad address, no scheduler there): said to the user."""


# The loggers of Dask and of what it runs on: their notices, warnings and errors (a worker
# restarted, a nanny that failed to start one, with tracebacks) are not the run's output, which
# says for each file what became of it. `--verbose` lets them through.
_LOGGERS = ("distributed", "dask", "tornado", "asyncio")
QUIET = logging.CRITICAL + 1  # above every level Dask logs at


def check_on_cluster(
    items: list[str | Input],
    options: Options,
    address: str,
    tick: Callable[[], None] | None,
    verbose: bool = False,
) -> Iterator[Verdict]:
    """The verdict of each item, in order, checked on the cluster at `address`;
    Dask's own logging (and its warnings) on stderr only when `verbose`."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'referee[dask]'") from None
    local = _LOCAL.fullmatch(address)
    level = logging.INFO if verbose else QUIET
    with contextlib.ExitStack() as stack:
        for name in _LOGGERS:
            logging.getLogger(name).setLevel(level)
        if not verbose:  # a busy dashboard port, a deprecation: no concern of a run without a dashboard
            stack.enter_context(warnings.catch_warnings())
            warnings.simplefilter("ignore")
        if local is not None:
            workers = int(local.group(1))
            if not 1 <= workers <= 256:
                raise ClusterError(f"--cluster local:N takes 1 to 256 workers, not {workers}")
            try:  # silence_logs: the level of the workers' and nannies' loggers
                cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=level))
            except Exception as exc:  # a worker that cannot start (killed, out of memory): said, not a traceback
                raise ClusterError(f"the local cluster could not start ({type(exc).__name__}: {exc})") from None
            client = stack.enter_context(Client(cluster))
            _ignore_interrupts(client)
        elif "://" in address:
            try:
                client = stack.enter_context(Client(address, timeout=10))
            except OSError as exc:
                raise ClusterError(f"no Dask scheduler answers at {address} ({exc})") from None
        else:
            raise ClusterError(f"--cluster takes a scheduler's address (tcp://HOST:PORT) or local:N, not '{address}'")
        yield from _run(client, as_completed, items, options, tick)


def _ignore_interrupts(client: Any) -> None:
    """Make the workers of a cluster started for the run ignore Ctrl-C: the terminal sends it to
    every process of the run, and each worker printed its KeyboardInterrupt traceback; the
    parent stops them. A plugin, so that a worker its nanny starts again ignores it too (a
    cluster of someone else's, at a scheduler's address, is left alone)."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class IgnoreInterrupts(WorkerPlugin):
        name = "referee-ignore-interrupts"

        def setup(self, worker: Any) -> None:
            with contextlib.suppress(ValueError):  # not the worker's main thread: nothing to do
                signal.signal(signal.SIGINT, signal.SIG_IGN)

    client.register_plugin(IgnoreInterrupts())


def _run(client: Any, as_completed: Any, items: list[str | Input], options: Options, tick: Callable[[], None] | None) -> Iterator[Verdict]:
    run = InOrder(items, options, tick)
    todo = run.batches(BATCH)
    flying: dict[Any, tuple[int, ...]] = {}
    pending = as_completed()

    def submit() -> None:
        batch = todo.popleft()
        future = client.submit(verdicts_of_paths, [items[i] for i in batch], options, pure=False)
        flying[future] = batch
        pending.add(future)

    window = 4 * max(1, len(client.scheduler_info().get("workers", {})))  # batches in flight
    while todo and len(flying) < window:
        submit()
    yield from run.ready()
    while flying:
        future = _next_done(client, pending)
        if future is None:  # no worker left to check them: the files in flight and those not sent yet are said so
            for i in sorted([i for batch in flying.values() for i in batch] + [i for batch in todo for i in batch]):
                run.results[i] = unchecked(str(items[i]), f"the cluster had no worker for {NO_WORKERS:.0f} s; the file was not checked", options)
            flying.clear()
            todo.clear()
            yield from run.ready()
            return
        batch = flying.pop(future)
        try:
            run.results.update(zip(batch, future.result(), strict=True))
        except Exception as exc:  # a worker lost, killed, or a failure of the cluster: reported for these files
            for i in batch:
                run.results[i] = unchecked(str(items[i]), f"the cluster could not check this file ({type(exc).__name__}: {exc})", options)
        if todo:
            submit()
        yield from run.ready()


NO_WORKERS = 60.0  # seconds a cluster may have no worker (restarting them, or gone for good) before the run gives up on it
POLL = 0.01  # seconds between looks at the finished tasks
LOOK = 2.0  # seconds between looks at the cluster's workers


def _next_done(client: Any, pending: Any) -> Any:
    """The next task finished, or None when the cluster has had no worker for `NO_WORKERS`
    seconds: a local cluster whose workers were all killed, and whose nannies could not start
    new ones, would otherwise be waited for, for ever."""
    looked = time.monotonic()
    idle_since: float | None = None
    while not pending.has_ready():
        time.sleep(POLL)
        now = time.monotonic()
        if now - looked < LOOK:
            continue
        looked = now
        try:
            workers = len(client.nthreads())
        except Exception:  # the scheduler itself cannot be asked: no workers to be had
            workers = 0
        if workers:
            idle_since = None
        elif idle_since is None:
            idle_since = now
        elif now - idle_since >= NO_WORKERS:
            return None
    return next(pending)
