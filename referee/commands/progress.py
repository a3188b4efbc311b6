"""What a long run shows on a terminal while it works, on stderr, gone before the answer is
written: a bar while many logs are checked, a status line while a long shipping search runs.
rich is imported only when one is shown."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

SEARCH_QUIET = 0.5  # seconds of a shipping search before its status line shows on a terminal


@contextmanager
def checking(total: int, show: bool) -> Iterator[Callable[[], None] | None]:
    """A rich progress bar on stderr while checking many files on a terminal; nothing otherwise."""
    if not show:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("checking", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=Console(stderr=True, soft_wrap=True), transient=True) as bar:
        task = bar.add_task("logs", total=total)
        yield lambda: bar.advance(task)


@contextmanager
def searching(show: bool) -> Iterator[Callable[[int], None] | None]:
    """A status line on stderr while a long shipping search runs on a terminal (from
    `SEARCH_QUIET` seconds on: a quick answer shows none), gone before the answer is written."""
    if not show:
        yield None
        return
    started = time.monotonic()
    shown: list[Any] = []  # the rich Progress and its task, once the search has taken long enough

    def progress(states: int) -> None:
        if not shown:
            if time.monotonic() - started < SEARCH_QUIET:
                return
            from rich.console import Console
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            bar = Progress(
                SpinnerColumn(),
                TextColumn("searching the captain phase: {task.completed:,} positions valued"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            shown.extend([bar, bar.add_task("search", total=None, completed=states)])
            bar.start()
        shown[0].update(shown[1], completed=states)

    try:
        yield progress
    finally:
        if shown:
            shown[0].stop()
