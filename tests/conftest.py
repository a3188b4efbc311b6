"""Shared helpers: build small game logs in YAML and check them as `referee validate` does."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest

from referee.jobs.check import LogReport, check_log

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "corpus"
FIXTURES = ROOT / "fixtures"


def game_log(
    phases: str,
    players: tuple[str, ...] = ("Anna", "Ben", "Cleo"),
    plantations: tuple[str, ...] = ("indigo", "sugar", "corn", "coffee"),
    ruleset: str = "base",
    extra: str = "",
) -> str:
    """A game log with the given phases (YAML list items, written at any indentation)."""
    head = f"ruleset: {ruleset}\nplayers: [{', '.join(players)}]\nsetup:\n  plantations: [{', '.join(plantations)}]\n"
    body = textwrap.indent(textwrap.dedent(phases).strip("\n"), "  ")
    return head + extra + "phases:\n" + body + "\n"


def check(text: str, **kwargs: object) -> LogReport:
    """Check a log text as `referee validate` does (file name `game.yaml`)."""
    return check_log(text, "game.yaml", **kwargs)  # type: ignore[arg-type]


def line_of(text: str, marker: str, nth: int = 1) -> int:
    """The 1-based line of the `nth` line containing `marker`."""
    seen = 0
    for i, line in enumerate(text.splitlines(), start=1):
        if marker in line:
            seen += 1
            if seen == nth:
                return i
    raise AssertionError(f"{marker!r} not found")


def assert_error(report: LogReport, rule: str, line: int) -> None:
    """The report has exactly one error, with this rule id, at this line."""
    assert [(d.rule, d.location.line if d.location else None) for d in report.errors] == [(rule, line)], report.errors


def assert_valid(report: LogReport) -> None:
    assert report.errors == [], report.errors


def linked_logs(folder: Path, source: Path, count: int) -> None:
    """`count` game logs in `folder` (g0000.yaml ...): a copy of `source` and hard links to it, a
    batch for the workers' tests that costs no disk."""
    import shutil

    first = folder / "g0000.yaml"
    shutil.copy(source, first)
    for i in range(1, count):
        os.link(first, folder / f"g{i:04d}.yaml")


@pytest.fixture
def corpus_dir() -> Path:
    return CORPUS


# --- running in parallel (pytest-xdist: addopts in pyproject.toml) ---------------------------

# The tests that start, kill and time processes of their own (Dask clusters, --jobs workers, the
# served server and its time limits) go to one worker, one after another: two at once on a
# loaded machine of two cores starved a Dask nanny ("Nanny failed to start").
ONE_AT_A_TIME = pytest.mark.xdist_group("one-at-a-time")

# The files whose tests take longest, the longest first: a worker that takes one of them late
# would finish alone, minutes after the other (the two builds' answers compared, two minutes or
# three; the browser tests, one group, about three; the wheel's build with mypyc, one or two;
# some shipping searches most of one).
LONGEST_FIRST = (
    "test_shipping_build.py",
    "test_page_play.py",
    "test_page.py",
    "test_packaging.py",
    "test_shipping_reductions.py",
    "test_next.py",
    "test_api.py",
    "test_code_quality.py",
    "test_shipping.py",
    "test_effect_ids.py",
    "test_cluster.py",
    "test_workers.py",
    "test_server_network.py",
    "test_terminal.py",
)


@pytest.fixture(autouse=True)
def groups_hold(request: pytest.FixtureRequest) -> None:
    """A grouped test fails when its group was lost: pytest-xdist's loadgroup marks a grouped
    test by a suffix of its node id (`@group`), which pytest 9.2 no longer reads (pytest-xdist
    issue 1386), so the groups would be spread over the workers in silence (two Dask clusters at
    once, a chromium for each worker). pyproject.toml keeps pytest below 9.2; a run that gets
    there anyway says why."""
    config, test = request.config, request.node
    if hasattr(config, "workerinput") and config.getvalue("loadgroup") and test.get_closest_marker("xdist_group") is not None and "@" not in test.nodeid:
        pytest.fail(
            f"pytest-xdist's --dist loadgroup has no effect with pytest {pytest.__version__} (pytest-xdist issue 1386): "
            "this test's group was spread over the workers. Install the pytest that pyproject.toml asks for, or run with -n 0.",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def address() -> Iterator[str]:
    """The address of `referee serve`'s page, on the browser tests' server (tests/browser.py)."""
    from tests.browser import served

    with served() as page:
        yield page


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """The browser tests' headless chromium (tests/browser.py)."""
    from tests.browser import headless

    with headless() as chromium:
        yield chromium


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files' tests first (in LONGEST_FIRST's order), then the others as collected."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


# --- helpers for the rule tests (tests/test_rules_*.py) ------------------------------------


def corpus_prefix(name: str, phases: int) -> str:
    """Corpus game `name` (e.g. 'game-4p-2') cut before its phase number `phases` (0-based):
    the header and the first `phases` phase entries, ready for `extend`."""
    lines = (CORPUS / f"{name}.yaml").read_text().splitlines(keepends=True)
    seen = 0
    for i, line in enumerate(lines):
        if line.startswith("  - "):
            if seen == phases:
                return "".join(lines[:i])
            seen += 1
    if seen == phases:
        return "".join(lines)
    raise AssertionError(f"{name} has only {seen} phases")


def extend(prefix: str, phases: str) -> str:
    """`prefix` (a log ending in its phase list) followed by more phases (YAML list items)."""
    body = textwrap.indent(textwrap.dedent(phases).strip("\n"), "  ")
    return prefix + body + "\n"


def replayed(text: str):  # type: ignore[no-untyped-def]
    """The game after replaying a log (to inspect boards, ships, supplies); the log must be valid so far."""
    from referee.documents.log import read_log
    from referee.jobs.replays import replay

    run = replay(read_log(text, "game.yaml"))
    assert run.error is None, run.error
    return run.game


def board(game, name: str):  # type: ignore[no-untyped-def]
    """A player's board by name."""
    return next(b for b in game.boards if b.name == name)


def last_line_of(text: str, marker: str) -> int:
    """The 1-based line of the last line containing `marker` (for phases appended to a corpus game)."""
    lines = [i for i, line in enumerate(text.splitlines(), start=1) if marker in line]
    if not lines:
        raise AssertionError(f"{marker!r} not found")
    return lines[-1]


# Two rounds after which Anna and Ben hold 1 indigo each, Cleo 2 corn and an occupied small
# market; Anna, last to choose in round 2, takes the role of the phase under test.
TWO_ROUNDS = """\
# round 1: governor Anna
- mayor: Anna
- builder: Ben
  moves:
    - Ben: small indigo plant for 0
    - Cleo: small market for 1
    - Anna: small indigo plant for 1
- trader: Cleo
# round 2: governor Ben
- mayor: Ben
- craftsman: Cleo
"""


def after_two_rounds(role: str, *moves: str, more: str = "") -> str:
    """A log of TWO_ROUNDS, then Anna's `role` phase with these moves, then `more` phases."""
    return game_log(TWO_ROUNDS + f"- {role}: Anna\n  moves:\n" + "".join(f"    - {m}\n" for m in moves) + more)


# A short log whose last move breaks a rule: Ben, not the settler and without a construction
# hut, takes a quarry (settler.quarry, line 8, column 9).
QUARRY_LOG = """ruleset: base
players: [Anna, Ben, Cleo]
setup: {plantations: [indigo, sugar, corn, coffee]}
phases:
  - settler: Anna
    moves:
      - Anna: quarry
      - Ben: quarry
"""


class ServerProcess:
    """`referee serve` in a process of its own, on one port and one database: SIGKILLed and
    started again as a host's machine might be (the tables' tests and the page's)."""

    def __init__(self, database: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.database = database
        self.process: subprocess.Popen[bytes] | None = None
        self.address = f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee", "serve", "--port", str(self.port), "--database", str(self.database)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.address + "api/rulesets", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("referee serve did not start in 30 s")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)



def api_call(server: tuple[str, int], method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """A request to a served API (a JSON body, a bearer token): its status and its answer (JSON, else text)."""
    connection = HTTPConnection(*server, timeout=30)
    headers = {"content-type": "application/json"} if body is not None else {}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    kind = response.getheader("content-type") or ""
    return response.status, json.loads(raw) if kind.startswith("application/json") else raw.decode()
