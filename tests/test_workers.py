"""`referee validate --jobs N`: workers that cannot take the run down with them (issue 14.7)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee import workers
from referee.batch import check_all
from tests.conftest import FIXTURES

GAMES = sorted(str(p) for p in FIXTURES.glob("game-*.yaml"))
CHECK = workers._check_path


def dying(path: str, *args: object) -> tuple[int, str]:
    """A worker's check that dies on the file named poison.yaml (as the out-of-memory killer
    would end it), and checks every other file as usual."""
    if path.endswith("poison.yaml"):
        os.kill(os.getpid(), signal.SIGKILL)
    return CHECK(path, *args)  # type: ignore[arg-type]


def test_results_come_in_input_order_as_with_one_process():
    items: list = [*GAMES, str(FIXTURES / "no-such.yaml"), *GAMES]
    assert list(check_all(items, None, False, "json", jobs=2)) == list(check_all(items, None, False, "json", jobs=1))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers inherit the test's stand-in")
def test_a_worker_that_dies_costs_only_the_file_it_was_checking(monkeypatch, tmp_path):
    poison = tmp_path / "poison.yaml"
    shutil.copy(GAMES[0], poison)
    monkeypatch.setattr(workers, "_check_path", dying)
    items: list = [*GAMES, str(poison), *GAMES]
    results = list(check_all(items, None, False, "json", jobs=2))
    assert len(results) == len(items)
    files = [json.loads(text)["file"] for _, text in results]
    assert files == items  # every file reported, in order
    dead = json.loads(results[len(GAMES)][1])
    assert results[len(GAMES)][0] == 2 and dead["errors"][0]["rule"] == "internal.worker-died"
    assert all(code == 0 for i, (code, _) in enumerate(results) if i != len(GAMES))


def test_sigterm_stops_the_workers_with_the_parent(tmp_path):
    first = tmp_path / "g0000.yaml"
    shutil.copy(GAMES[-1], first)
    for i in range(1, 3000):  # enough work that the run is still going when the signal comes, even on a fast machine
        os.link(first, tmp_path / f"g{i:04d}.yaml")
    parent = subprocess.Popen([sys.executable, "-m", "referee", "validate", str(tmp_path), "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    children: list[int] = []
    deadline = time.monotonic() + 30
    while not children and time.monotonic() < deadline:
        time.sleep(0.2)
        path = Path(f"/proc/{parent.pid}/task/{parent.pid}/children")
        children = [int(c) for c in path.read_text().split()] if path.exists() else []
    assert children, "no worker started"
    parent.send_signal(signal.SIGTERM)
    assert parent.wait(timeout=30) == 128 + signal.SIGTERM

    def alive() -> list[int]:
        out = []
        for child in children:
            with contextlib.suppress(OSError):  # gone between the two looks: not alive
                if "Z" not in Path(f"/proc/{child}/stat").read_text().split()[2]:
                    out.append(child)
        return out

    deadline = time.monotonic() + 15  # a loaded machine may take a while to end them
    while alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert alive() == []
    assert b"Traceback" not in parent.stderr.read()  # type: ignore[union-attr]
