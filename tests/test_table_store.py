"""The tables' database (referee/jobs/table_store.py): a change acknowledged is kept through a
SIGKILL at any moment, two writers never lose or double one, and a database that cannot be used
is one sentence."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from referee.jobs.table_store import Conflict, Step, StoreError, TableStore
from tests.conftest import ROOT, ServerProcess, api_call

LOG = {"ruleset": "base", "players": ["Anna", "Ben", "Cleo"], "setup": {"plantations": ["indigo", "sugar", "corn", "coffee"]}, "phases": []}

# A writer that acknowledges each change once it is committed, until it is killed.
WRITER = """
import json, sys
from pathlib import Path
from referee.jobs.table_store import Step, TableStore, Unknown
store = TableStore(Path(sys.argv[1]))
table_id = sys.argv[2]
table = store.table(table_id)
print("at", table.moves, flush=True)
moves = table.moves
while True:
    table = store.write(table_id, moves, Step("move", "Anna", f"move {moves + 1}"), {"moves": moves + 1}, False, "Anna")
    moves = table.moves
    print("ack", moves, flush=True)
"""


def _acknowledged(line: str, acknowledged: int) -> int:
    """The count a writer's line acknowledges: a line the kill cut short ("ack" with no number
    or newline) was never delivered, so it acknowledges nothing."""
    words = line.split()
    if line.endswith("\n") and len(words) == 2 and words[0] == "ack" and words[1].isdigit():
        return int(words[1])
    return acknowledged


@pytest.mark.xdist_group("processes")
def test_a_change_acknowledged_is_kept_through_a_hundred_kills(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    store = TableStore(path)
    table_id, _ = store.create(LOG, ["Anna", "Ben", "Cleo"], "base", False)
    store.close()
    rng = random.Random(100)
    acknowledged = 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(100):
        for _start in range(5):  # (a start that meets the killed writer's lock may fail: started again, and said if it never does)
            writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path), table_id], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            assert writer.stdout is not None and writer.stderr is not None
            first = writer.stdout.readline().split()
            if first:
                break
            failure = writer.stderr.read()
            writer.wait()
        assert first, failure
        assert first[0] == "at" and acknowledged <= int(first[1]) <= acknowledged + 1  # kept, and at most the one written but not yet acknowledged
        acknowledged = int(first[1])
        deadline = time.monotonic() + rng.uniform(0.0, 0.05)
        while time.monotonic() < deadline:
            acknowledged = _acknowledged(writer.stdout.readline(), acknowledged)
        writer.send_signal(signal.SIGKILL)
        for line in writer.stdout:  # what it printed before it died
            acknowledged = _acknowledged(line, acknowledged)
        writer.wait()
    table = TableStore(path).table(table_id)
    assert acknowledged <= table.moves <= acknowledged + 1 and acknowledged > 100
    rows = sqlite3.connect(path).execute("SELECT number FROM steps WHERE table_id = ? ORDER BY number", (table_id,)).fetchall()
    assert [n for (n,) in rows] == list(range(1, table.moves + 1))  # none lost, none doubled
    assert table.log == {"moves": table.moves}


def test_two_writers_never_lose_or_double_a_move(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    first, second = TableStore(path), TableStore(path)  # as two servers on one file
    table_id, _ = first.create(LOG, ["Anna", "Ben", "Cleo"], "base", False)
    kept: list[int] = []
    lost: list[int] = []

    def writer(store: TableStore, name: str) -> None:
        for _ in range(60):
            moves = store.table(table_id).moves
            try:
                kept.append(store.write(table_id, moves, Step("move", name, name), {}, False, name).moves)
            except Conflict:
                lost.append(moves)

    threads = [threading.Thread(target=writer, args=(store, name)) for store, name in ((first, "Anna"), (second, "Ben"), (first, "Cleo"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    final = first.table(table_id).moves
    assert sorted(kept) == list(range(1, final + 1)) and len(kept) + len(lost) == 180
    assert [n for (n,) in sqlite3.connect(path).execute("SELECT number FROM steps WHERE table_id = ? ORDER BY number", (table_id,))] == list(range(1, final + 1))


def test_an_undo_takes_back_the_last_step_and_the_log_is_written_again_without_it(tmp_path: Path) -> None:
    store = TableStore(tmp_path / "tables.sqlite3")
    table_id, _ = store.create(LOG, ["Anna", "Ben", "Cleo"], "base", False)
    log = {**LOG, "phases": [{"builder": "Anna", "moves": []}]}
    store.write(table_id, 0, Step("role", "Anna", "builder"), log, False, "Anna")
    store.write(table_id, 1, Step("move", "Anna", "pass"), {**LOG, "phases": [{"builder": "Anna", "moves": [{"Anna": "pass"}]}]}, False, "Anna")
    table = store.undo(table_id, 2, "host", lambda log: False)
    assert table.moves == 1 and table.changes == 3 and table.log == log
    with pytest.raises(Conflict):
        store.undo(table_id, 2, "host", lambda log: False)
    assert [change.kind for change in store.changes_after(table_id, 0)] == ["move", "move", "undo"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to a read-only file")
def test_a_read_only_database_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    TableStore(path).create(LOG, ["Anna"], "base", False)
    path.chmod(0o444)
    with pytest.raises(StoreError, match=r"read-only|cannot be used"):
        TableStore(path).check()


def test_a_damaged_database_is_one_sentence_and_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    with pytest.raises(StoreError, match="damaged or is not a database"):
        TableStore(path).check()
    assert path.read_bytes().startswith(b"SQLite format 3\x00\xff")
    folder_file = tmp_path / "a-file"
    folder_file.write_text("")
    with pytest.raises(StoreError, match="is not a folder"):
        TableStore(folder_file / "tables.sqlite3").check()


@pytest.mark.xdist_group("processes")
def test_a_served_table_survives_the_server_killed_and_started_again(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "tables.sqlite3")
    server.start()
    at = ("127.0.0.1", server.port)
    try:
        status, table = api_call(at, "POST", "/api/tables", {"log": LOG})
        assert status == 201
        moves = 0
        for role in ("builder", "pass", "pass", "pass"):  # Anna chooses the builder; the three pass
            status, answer = api_call(at, "POST", f"/api/tables/{table['table']}/moves", {"after": moves, "move": role}, table["host"])
            assert status == 200, answer
            moves = answer["moves"]
        server.kill()
        server.start()
        status, got = api_call(at, "GET", f"/api/tables/{table['table']}")
        assert status == 200 and got["moves"] == 4 and got["next"]["decision"] == {"player": "Ben", "phase": None, "kind": "role", "moves": ["settler", "mayor", "craftsman", "trader", "captain"]}
        status, answer = api_call(at, "POST", f"/api/tables/{table['table']}/moves", {"after": 4, "move": "mayor"}, table["host"])  # the host's token still works
        assert status == 200 and answer["moves"] == 5
    finally:
        server.stop()
