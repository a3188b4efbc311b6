"""Python's collector of reference cycles, paused for work that makes many containers and no cycles."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collection_paused() -> Iterator[None]:
    """Python's collector of reference cycles paused while a document is read and its tree is
    alive, while a game is played at random, and while the shipping calculator searches: many
    objects, no cycles.

    The collector runs after every 700 new containers. A log's tree is a few thousand, alive until
    the log is read, so a collection during reading walks it and moves it to an older generation,
    whose collections walk every object of the process (rulesets, memos of move texts): a fifth of
    the cost of reading a log in a batch. Such work makes no cycles, so nothing waits for the
    collector: what it made is freed when it is dropped, and the collector runs again after, as
    before. A collector already paused by the caller stays paused."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
