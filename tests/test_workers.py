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

from referee.jobs import verdict, workers
from referee.jobs.batch import check_all
from referee.jobs.verdict import Options, Verdict
from referee.render.report import report_json
from tests.conftest import FIXTURES, ONE_AT_A_TIME, linked_logs

pytestmark = ONE_AT_A_TIME  # worker processes started, killed and waited for: never two runs at once

GAMES = sorted(str(p) for p in FIXTURES.glob("game-*.yaml"))
CHECK = verdict.verdict_of_path
JSON = Options(None, False, report_json)  # the verdicts of `referee validate --format json`


def dying(path: str, options: Options) -> Verdict:
    """A worker's check that dies on the file named poison.yaml (as the out-of-memory killer
    would end it), and checks every other file as usual."""
    if path.endswith("poison.yaml"):
        os.kill(os.getpid(), signal.SIGKILL)
    return CHECK(path, options)


def test_results_come_in_input_order_as_with_one_process():
    items: list = [*GAMES, str(FIXTURES / "no-such.yaml"), *GAMES]
    assert list(check_all(items, JSON, jobs=2)) == list(check_all(items, JSON, jobs=1))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers inherit the test's stand-in")
def test_a_worker_that_dies_costs_only_the_file_it_was_checking(monkeypatch, tmp_path):
    poison = tmp_path / "poison.yaml"
    shutil.copy(GAMES[0], poison)
    monkeypatch.setattr(verdict, "verdict_of_path", dying)  # in a batch of files
    monkeypatch.setattr(workers, "verdict_of_path", dying)  # and alone
    items: list = [*GAMES, str(poison), *GAMES]
    results = list(check_all(items, JSON, jobs=2))
    assert len(results) == len(items)
    files = [json.loads(result.output)["file"] for result in results]  # type: ignore[arg-type]
    assert files == items  # every file reported, in order
    dead = json.loads(results[len(GAMES)].output)  # type: ignore[arg-type]
    assert results[len(GAMES)].exit_code == 2 and dead["errors"][0]["rule"] == "internal.worker-died"
    assert all(result.exit_code == 0 for i, result in enumerate(results) if i != len(GAMES))


def test_sigterm_stops_the_workers_with_the_parent(tmp_path):
    linked_logs(tmp_path, GAMES[-1], 3000)  # enough work that the run is still going when the signal comes, even on a fast machine
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


def workers_of(pid: int) -> list[int]:
    """The child processes of `pid`, started by any of its threads (read from /proc)."""
    found: list[int] = []
    with contextlib.suppress(OSError):  # the process has ended
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found.extend(int(child) for child in (task / "children").read_text().split())
    return found


def waiting_to_write(pid: int) -> bool:
    """Is the process blocked writing to a pipe (its reader not reading)?"""
    with contextlib.suppress(OSError):
        return "pipe_write" in Path(f"/proc/{pid}/wchan").read_text()
    return False


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2,000 valid logs: their text output (220 KB) is more than a pipe holds."""
    folder = tmp_path_factory.mktemp("archive")
    linked_logs(folder, FIXTURES / "game-3p.yaml", 2000)
    return folder


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes from /proc")
def test_a_worker_killed_while_the_parent_writes_to_a_slow_pipe_costs_no_verdict(archive: Path):
    # Issue 29: the parent blocked on a full pipe, a worker killed meanwhile, and the next
    # submit raised BrokenProcessPool outside the handling of a broken pool: exit 1, a traceback,
    # 1,448 of 2,000 files without a verdict.
    parent = subprocess.Popen([sys.executable, "-m", "referee", "validate", str(archive), "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not (waiting_to_write(parent.pid) and len(workers_of(parent.pid)) == 2) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert waiting_to_write(parent.pid), "the parent never waited on the pipe"
    time.sleep(0.5)  # the workers finish what they were sent, and wait
    os.kill(workers_of(parent.pid)[0], signal.SIGKILL)
    time.sleep(0.5)  # the pool sees its worker gone
    out, err = parent.communicate(timeout=300)
    assert parent.returncode == 0, err
    lines = out.decode().splitlines()
    assert len(lines) == 2000
    assert all(line == f"{archive}/g{i:04d}.yaml: valid, complete game (173 moves); winner: Ines with 44 VP; scores: Ines 44, Tobias 41, Marek 40" for i, line in enumerate(lines))
    assert err == b""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes from /proc")
def test_ctrl_c_ends_the_run_quietly_with_exit_130(archive: Path):
    # A terminal sends Ctrl-C's SIGINT to every process of the run: each idle worker printed its
    # KeyboardInterrupt traceback.
    parent = subprocess.Popen(
        [sys.executable, "-m", "referee", "validate", str(archive), "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while not (waiting_to_write(parent.pid) and len(workers_of(parent.pid)) == 2) and time.monotonic() < deadline:
        time.sleep(0.1)
    children = workers_of(parent.pid)
    assert len(children) == 2, "no workers started"
    time.sleep(0.5)  # the workers idle, waiting for work (as behind a slow terminal)
    os.killpg(parent.pid, signal.SIGINT)  # as the terminal does: the parent and its workers
    out, err = parent.communicate(timeout=60)
    assert parent.returncode == 130
    assert err == b""
    assert all(line.endswith(b"valid, complete game (173 moves); winner: Ines with 44 VP; scores: Ines 44, Tobias 41, Marek 40") for line in out.splitlines())
    deadline = time.monotonic() + 15
    while any(Path(f"/proc/{child}").exists() and "Z" not in Path(f"/proc/{child}/stat").read_text().split()[2] for child in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(Path(f"/proc/{child}").exists() and "Z" not in Path(f"/proc/{child}/stat").read_text().split()[2] for child in children)


def test_a_run_without_a_dead_worker_says_nothing_on_stderr(archive: Path):
    # A pool let go without waiting for its threads printed "Exception ignored in: <module
    # 'threading'> ... OSError: [Errno 9] Bad file descriptor" at exit, now and then.
    out = subprocess.run([sys.executable, "-m", "referee", "validate", "--format", "json", *sorted(str(p) for p in archive.iterdir())[:300], "--jobs", "2"], capture_output=True, timeout=120)
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 300
    assert out.stderr == b""


@pytest.mark.parametrize("parent_alive", [True, False])
def test_a_worker_whose_parent_ended_while_it_started_ends_too(parent_alive):
    # The kernel's parent-death signal is asked for as a worker starts: a parent already gone by
    # then (a SIGTERM in that window) would leave the worker waiting on its queue for ever.
    # Here a process runs the worker's start with its true parent's id, or with another one.
    code = (
        "import os, sys; from referee.jobs.workers import _die_with_parent; "
        f"_die_with_parent(os.getppid() {'+ 0' if parent_alive else '+ 1'}); print('started')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    if parent_alive:
        assert (done.returncode, done.stdout.strip()) == (0, "started")
    else:
        assert (done.returncode, done.stdout) == (128 + signal.SIGTERM, "")
