"""Validating many logs: files and directories, in order, optionally in several processes or on a
Dask cluster.

Each file is read, checked and written out in one go (in a worker process with `--jobs`, see
`referee.jobs.verdict`), so the parent only prints; output keeps the order the files were given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from referee.documents.inputs import Found, Input, read_input
from referee.jobs.verdict import Options, Verdict, verdict


def check_all(
    paths: list[str | Input],
    options: Options,
    jobs: int = 1,
    tick: Callable[[], None] | None = None,
    only_logs: bool = False,
    cluster: str | None = None,
    verbose: bool = False,
) -> Iterator[Verdict]:
    """The verdict of every log, in order; with `jobs` > 1, checked in that many processes
    (`referee.jobs.workers`); with `cluster`, on a Dask cluster (`referee.jobs.cluster`, its own
    logging shown when `verbose`). With `only_logs`, every file is treated as found in a search
    for logs (`Found`: another document is skipped). `tick` is called after each verdict."""
    items = [read_input(p) if p == "-" else Found(p) if only_logs and isinstance(p, str) else p for p in paths]
    if cluster is not None:
        from referee.jobs.cluster import check_on_cluster

        yield from check_on_cluster(items, options, cluster, tick, verbose)
        return
    if jobs > 1 and len(items) > 1:
        from referee.jobs.workers import check_parallel

        yield from check_parallel(items, options, jobs, tick)
        return
    for x in items:
        yield verdict(x if isinstance(x, Input) else read_input(x), options)
        if tick:
            tick()
