"""`referee validate --cluster`: the same output, order and exit code as `--jobs 1`, with the
files checked by the workers of a Dask cluster (a LocalCluster runs in the test)."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ONE_AT_A_TIME, linked_logs

pytestmark = ONE_AT_A_TIME  # Dask clusters started and their workers killed: never two at once

BROKEN = (FIXTURES / "game-3p.yaml").read_text().replace("result: {Ines: 44", "result: {Ines: 45")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("archive")
    games = sorted(FIXTURES.glob("game-*.yaml"))
    for i in range(24):
        shutil.copy(games[i % len(games)], folder / f"night-{i:02d}.yaml")
    (folder / "night-07.yaml").write_text(BROKEN)  # a wrong result: exit 1
    (folder / "night-19.yaml").write_text("ruleset: base\nplayers: [Anna\n")  # unreadable: exit 2
    shutil.copy(FIXTURES / "sheets" / "sheet-3p.yaml", folder / "sheet.yaml")  # not a log: skipped
    return folder


def test_a_local_cluster_gives_exactly_what_one_process_gives(archive: Path):
    alone = run("validate", "--format", "json", str(archive))
    spread = run("validate", "--format", "json", "--cluster", "local:2", str(archive))
    assert alone.returncode == spread.returncode == 2
    assert spread.stdout == alone.stdout
    assert len(spread.stdout.splitlines()) == 24
    assert "skipped 1 score sheet" in spread.stderr


def test_a_running_scheduler_is_used_by_its_address(archive: Path):
    from dask.distributed import LocalCluster

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a busy dashboard port: no dashboard is used
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster:
        spread = run("validate", "--cluster", cluster.scheduler_address, str(archive))
    alone = run("validate", str(archive))
    assert spread.returncode == alone.returncode == 2
    assert spread.stdout == alone.stdout


@pytest.mark.parametrize(
    ("cluster", "says"),
    [
        ("nowhere", "--cluster takes a scheduler's address (tcp://HOST:PORT) or local:N, not 'nowhere'"),
        ("local:0", "--cluster local:N takes 1 to 256 workers, not 0"),
    ],
)
def test_a_cluster_that_cannot_be_used_is_a_usage_error(cluster: str, says: str):
    out = run("validate", "--cluster", cluster, str(FIXTURES / "game-2p.yaml"))
    assert out.returncode == 2 and f"error[usage.cluster]: {says}" in out.stdout


def test_cluster_and_jobs_are_not_given_together():
    out = run("validate", "--cluster", "local:2", "--jobs", "2", str(FIXTURES / "game-2p.yaml"))
    assert out.returncode == 2 and "--cluster and --jobs are two ways to spread the work: give one" in out.stdout


def workers_of(pid: int) -> list[int]:
    """The worker processes a run's Dask cluster started (spawned by any of its threads)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                for child in (task / "children").read_text().split():
                    if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                        found.append(int(child))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes from /proc")
def test_dask_says_nothing_on_stderr_when_its_workers_are_killed_unless_verbose(tmp_path: Path):
    # Issue 29: Dask's warnings and errors (a worker restarted, a nanny that failed to start one,
    # with tracebacks) reached stderr. Each file still gets its verdict.
    linked_logs(tmp_path, FIXTURES / "game-3p.yaml", 600)
    parent = subprocess.Popen([sys.executable, "-m", "referee", "validate", "--cluster", "local:2", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # The first kill once the first verdicts are written, when the cluster has started: a worker
    # killed while it starts (the processes are there long before, on a loaded machine) is a
    # cluster that could not start, "Nanny failed to start", exit 2 and no verdicts, which is not
    # this test's case.
    assert parent.stdout is not None
    first = os.read(parent.stdout.fileno(), 65536) if select.select([parent.stdout], [], [], 120)[0] else b""
    killed: list[int] = []
    for turn in range(3):  # each time the nannies start new workers, which are killed in turn
        if turn:
            time.sleep(1.5)
        for worker in workers_of(parent.pid):
            os.kill(worker, signal.SIGKILL)
            killed.append(worker)
    out, err = parent.communicate(timeout=300)
    out = first + out
    assert killed and err == b""
    assert parent.returncode in (0, 2)  # each file valid, or (tried on workers that died) said so
    lines = out.decode().splitlines()
    assert len(lines) == 600
    assert all(line.endswith(("valid, complete game (173 moves); winner: Ines with 44 VP; scores: Ines 44, Tobias 41, Marek 40", ")")) for line in lines)


def test_verbose_lets_dask_speak():
    out = run("validate", "--verbose", "--cluster", "local:1", str(FIXTURES / "game-2p.yaml"), str(FIXTURES / "game-3p.yaml"))
    assert out.returncode == 0
    assert "distributed.scheduler - INFO" in out.stderr


class _NoWorkers:
    """A client of a cluster whose workers are all gone, and whose tasks never finish."""

    def nthreads(self) -> dict[str, int]:
        return {}


class _NeverReady:
    def has_ready(self) -> bool:
        return False


def test_a_cluster_left_without_workers_is_given_up_on(monkeypatch: pytest.MonkeyPatch):
    # Its workers all killed and its nannies unable to start new ones, a local cluster was
    # waited for, for ever.
    from referee.jobs import cluster

    monkeypatch.setattr(cluster, "NO_WORKERS", 0.2)
    monkeypatch.setattr(cluster, "LOOK", 0.05)
    started = time.monotonic()
    assert cluster._next_done(_NoWorkers(), _NeverReady()) is None
    assert time.monotonic() - started < 5


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes from /proc")
def test_ctrl_c_ends_a_cluster_run_quietly_with_exit_130(tmp_path: Path):
    # The terminal's SIGINT reaches every process of the run: each Dask worker printed its
    # KeyboardInterrupt traceback.
    linked_logs(tmp_path, FIXTURES / "game-3p.yaml", 2000)
    # Ctrl-C reaches a run started at a terminal, whose SIGINT is at its default; a run started in
    # the background of a script (as a CI may start the tests) inherits SIGINT ignored, and rightly
    # goes on: the command is started as at a terminal
    at_a_terminal = "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); runpy.run_module('referee', run_name='__main__', alter_sys=True)"
    parent = subprocess.Popen(
        [sys.executable, "-c", at_a_terminal, "validate", "--cluster", "local:2", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while not (len(workers_of(parent.pid)) == 2 and "pipe_write" in Path(f"/proc/{parent.pid}/wchan").read_text()) and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = workers_of(parent.pid)
    assert len(workers) == 2
    time.sleep(0.5)  # the workers idle, behind a slow reader
    os.killpg(parent.pid, signal.SIGINT)
    _, err = parent.communicate(timeout=120)
    assert parent.returncode == 130
    assert err == b""
