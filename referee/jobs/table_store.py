"""The tables of `referee serve`, kept in SQLite (docs/formats/tables.md): one game followed by
several screens, its log written one decision at a time.

A table holds the log it was made with, the decisions written since (each a row of `steps`: its
kind, the player who decided, what was written) and the changes every screen is told of (a move
or an undo, numbered: what an event stream catches up from). The log as it stands is the first
log with the steps written into it (`with_step`), kept beside them so that nothing is replayed to
read it. Tokens are kept as their SHA-256 only.

Every write is one transaction begun IMMEDIATE (the table's count read inside it: two writers
never lose or double a move, in one process or several), in WAL mode with synchronous writes: a
change committed is on the disk before it is acknowledged, through a killed server or a power
cut. A database that cannot be opened, read or written is a `StoreError` with one sentence.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = 1
TABLES_KEPT = 1000  # tables on one server at most: a finished one is deleted to make room
STEPS_KEPT = 5000  # decisions of one table at most (a 5-player game takes about 1,000)
BUSY_SECONDS = 5.0  # how long a write waits for another process's

_DDL = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,            -- the host's token, hashed
    created REAL NOT NULL,
    updated REAL NOT NULL,
    first TEXT NOT NULL,           -- the log the table was made with (JSON)
    log TEXT NOT NULL,             -- the log as it stands (JSON): `first` with the steps written in
    moves INTEGER NOT NULL,        -- the decisions written since it was made: its version
    changes INTEGER NOT NULL,      -- moves and undos, numbered: the events
    players TEXT NOT NULL,         -- JSON list
    ruleset TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    token TEXT NOT NULL,           -- hashed
    taken REAL NOT NULL,
    PRIMARY KEY (table_id, player)
);
CREATE TABLE IF NOT EXISTS steps (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,       -- 1, 2, ...: the count it made
    kind TEXT NOT NULL,            -- role, move, keep, draw
    player TEXT,
    value TEXT NOT NULL,           -- JSON: the text written (a list of tiles for a draw)
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS changes (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,       -- 1, 2, ...: an event's id
    kind TEXT NOT NULL,            -- move, undo
    moves INTEGER NOT NULL,        -- the table's count after it
    player TEXT,                   -- who decided (a move), or whose decision was taken back (an undo)
    value TEXT,                    -- JSON: what was written or taken back
    by TEXT NOT NULL,              -- who asked: a player's name, or "host"
    at REAL NOT NULL,
    PRIMARY KEY (table_id, number)
);
"""


class StoreError(Exception):
    """The database cannot be used (locked, read-only, full, damaged, not a database): one
    sentence saying so and what to do."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table as it stands."""

    id: str
    log: dict[str, Any]
    moves: int
    changes: int
    players: tuple[str, ...]
    ruleset: str
    created: float
    updated: float
    finished: bool
    seats: tuple[str, ...]  # the players whose seat is held


@dataclass(frozen=True, slots=True)
class Change:
    """One event of a table: a decision written or taken back."""

    number: int
    kind: str
    moves: int
    player: str | None
    value: Any
    by: str
    at: float

    def as_json(self) -> dict[str, Any]:
        return {"change": self.number, "kind": self.kind, "moves": self.moves, "player": self.player, "value": self.value, "by": self.by, "at": self.at}


@dataclass(frozen=True, slots=True)
class Step:
    """A decision to write: its kind (role, move, keep, draw), the player who decides, and the
    text (or, for a draw, the tiles)."""

    kind: str
    player: str | None
    value: Any


class Conflict(Exception):
    """The table's count is not the one a change follows: another change came first."""

    def __init__(self, table: Table) -> None:
        super().__init__(table.moves)
        self.table = table


class Unknown(Exception):
    """No table of that id."""


class SeatHeld(Exception):
    """The seat is held by another token (only the host may give it to a new one)."""


def new_token() -> str:
    """An unguessable id or token: 128 random bits and more (22 URL-safe characters)."""
    return secrets.token_urlsafe(18)


def hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def with_step(log: dict[str, Any], step: Step) -> dict[str, Any]:
    """The log (the JSON form of a game log) with one decision more, written where
    docs/formats/commands.md puts it: a role opens a phase, a move ends the last phase's
    `moves`, a keep goes in its `keep`, a draw is its `reveal`."""
    out = json.loads(json.dumps(log))
    phases = out.setdefault("phases", [])
    if step.kind == "role":
        phases.append({step.value: step.player, "moves": []})
        return out
    last = phases[-1]
    if step.kind == "move":
        last.setdefault("moves", []).append({step.player: step.value})
    elif step.kind == "keep":
        last.setdefault("keep", {})[step.player] = step.value
    else:
        last["reveal"] = step.value
    return out


class TableStore:
    """The tables of one database file, for the threads of one server (each its own connection)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._ready = False

    # --- the database ---------------------------------------------------------------------

    def check(self) -> None:
        """At the server's start: a database that exists is opened, read and written to (then
        rolled back); one that does not is only made sure of its folder (it is made on first use)."""
        if not self.path.exists():
            folder = self.path.parent
            if folder.exists() and not folder.is_dir():
                raise StoreError(f"{folder} is not a folder: the database {self.path.name} cannot be made there")
            return
        with self._failures():
            connection = self._connection()
            row = connection.execute("PRAGMA quick_check").fetchone()
            if row is None or row[0] != "ok":
                raise StoreError(f"the database {self.path} is damaged ({row[0] if row else 'no answer'}): move it aside, and referee makes a new one")
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("ROLLBACK")

    @contextmanager
    def _failures(self) -> Iterator[None]:
        """SQLite's errors as StoreError, in a sentence for the host."""
        try:
            yield
        except StoreError:
            raise
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            if "locked" in text or "busy" in text:
                why = "is locked by another program (another referee serve?)"
            elif "readonly" in text or "read-only" in text:
                why = "is read-only"
            elif "full" in text:
                why = "cannot grow: the disk is full"
            elif "not a database" in text or "malformed" in text or "corrupt" in text:
                why = "is damaged or is not a database: move it aside, and referee makes a new one"
            elif "unable to open" in text:
                why = "cannot be opened or made (its folder is missing or not writable)"
            else:
                why = f"cannot be used ({text})"
            raise StoreError(f"the database {self.path} {why}") from None
        except OSError as exc:
            raise StoreError(f"the database {self.path} cannot be made ({exc.strerror or exc})") from None

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is not None:
            return connection
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
        connection.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        connection.execute("PRAGMA foreign_keys = ON")
        with self._lock:
            if not self._ready:
                mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()
                if mode is None or str(mode[0]).lower() != "wal":
                    raise StoreError(f"the database {self.path} cannot be written ahead (journal mode {mode[0] if mode else '?'}): is its folder read-only?")
                connection.executescript(_DDL)
                connection.execute(f"PRAGMA user_version = {SCHEMA}")
                self._ready = True
            self._connections.append(connection)
        connection.execute("PRAGMA synchronous = FULL")  # a commit is on the disk before it is acknowledged
        self._local.connection = connection
        return connection

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, begun IMMEDIATE (other writers wait), committed or rolled back."""
        with self._failures():
            connection = self._connection()
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()

    # --- reading --------------------------------------------------------------------------

    def table(self, table_id: str) -> Table:
        """The table of that id (Unknown if there is none)."""
        with self._failures():
            return self._table(self._connection(), table_id)

    def _table(self, connection: sqlite3.Connection, table_id: str) -> Table:
        row = connection.execute(
            "SELECT id, log, moves, changes, players, ruleset, created, updated, finished FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        if row is None:
            raise Unknown(table_id)
        seats = tuple(player for (player,) in connection.execute("SELECT player FROM seats WHERE table_id = ? ORDER BY taken", (table_id,)))
        return Table(row[0], json.loads(row[1]), row[2], row[3], tuple(json.loads(row[4])), row[5], row[6], row[7], bool(row[8]), seats)

    def tables(self) -> list[Table]:
        """Every table kept, the last changed first."""
        with self._failures():
            connection = self._connection()
            ids = [table_id for (table_id,) in connection.execute("SELECT id FROM tables ORDER BY updated DESC")]
            return [self._table(connection, table_id) for table_id in ids]

    def changes_after(self, table_id: str, number: int) -> list[Change]:
        """The table's changes after the `number`th, in order (what a screen that reconnects missed)."""
        with self._failures():
            rows = self._connection().execute(
                "SELECT number, kind, moves, player, value, by, at FROM changes WHERE table_id = ? AND number > ? ORDER BY number", (table_id, number)
            ).fetchall()
        return [Change(n, kind, moves, player, json.loads(value) if value is not None else None, by, at) for n, kind, moves, player, value, by, at in rows]

    def last_change(self, table_id: str) -> Change | None:
        with self._failures():
            row = self._connection().execute(
                "SELECT number, kind, moves, player, value, by, at FROM changes WHERE table_id = ? ORDER BY number DESC LIMIT 1", (table_id,)
            ).fetchone()
        if row is None:
            return None
        n, kind, moves, player, value, by, at = row
        return Change(n, kind, moves, player, json.loads(value) if value is not None else None, by, at)

    def is_host(self, table_id: str, token: str) -> bool:
        with self._failures():
            row = self._connection().execute("SELECT host FROM tables WHERE id = ?", (table_id,)).fetchone()
        return row is not None and secrets.compare_digest(row[0], hashed(token))

    def seat_of(self, table_id: str, token: str) -> str | None:
        """The player whose seat the token holds (None: no seat of this table)."""
        with self._failures():
            row = self._connection().execute("SELECT player FROM seats WHERE table_id = ? AND token = ?", (table_id, hashed(token))).fetchone()
        return row[0] if row is not None else None

    # --- writing --------------------------------------------------------------------------

    def create(self, log: dict[str, Any], players: list[str], ruleset: str, finished: bool) -> tuple[str, str]:
        """A new table with its first log: its id and the host's token."""
        table_id, host = new_token(), new_token()
        now = time.time()
        text = json.dumps(log, ensure_ascii=False)
        with self._writing() as connection:
            (kept,) = connection.execute("SELECT count(*) FROM tables").fetchone()
            if kept >= TABLES_KEPT:
                raise StoreError(f"the server keeps {TABLES_KEPT} tables, its most: delete a finished one first")
            connection.execute(
                "INSERT INTO tables (id, host, created, updated, first, log, moves, changes, players, ruleset, finished) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?)",
                (table_id, hashed(host), now, now, text, text, json.dumps(players, ensure_ascii=False), ruleset, int(finished)),
            )
        return table_id, host

    def take_seat(self, table_id: str, player: str, by_host: bool) -> str:
        """The seat of `player` for a new token (a held seat only from the host: the old token
        then stops working). Raises Unknown, KeyError (no such player) or SeatHeld."""
        token = new_token()
        with self._writing() as connection:
            table = self._table(connection, table_id)
            if player not in table.players:
                raise KeyError(player)
            if player in table.seats and not by_host:
                raise SeatHeld(player)
            connection.execute("INSERT OR REPLACE INTO seats (table_id, player, token, taken) VALUES (?, ?, ?, ?)", (table_id, player, hashed(token), time.time()))
        return token

    def write(self, table_id: str, after: int, step: Step, log: dict[str, Any], finished: bool, by: str) -> Table:
        """Write `step` (the log becoming `log`) if the table's count is `after` (else Conflict)."""
        with self._writing() as connection:
            table = self._table(connection, table_id)
            if table.moves != after:
                raise Conflict(table)
            if table.moves >= STEPS_KEPT:
                raise StoreError(f"the table holds {STEPS_KEPT} decisions, more than any game takes")
            number, change = table.moves + 1, table.changes + 1
            value = json.dumps(step.value, ensure_ascii=False)
            now = time.time()
            connection.execute("INSERT INTO steps (table_id, number, kind, player, value) VALUES (?, ?, ?, ?, ?)", (table_id, number, step.kind, step.player, value))
            connection.execute(
                "INSERT INTO changes (table_id, number, kind, moves, player, value, by, at) VALUES (?, ?, 'move', ?, ?, ?, ?, ?)",
                (table_id, change, number, step.player, value, by, now),
            )
            connection.execute(
                "UPDATE tables SET log = ?, moves = ?, changes = ?, updated = ?, finished = ? WHERE id = ?",
                (json.dumps(log, ensure_ascii=False), number, change, now, int(finished), table_id),
            )
            return self._table(connection, table_id)

    def undo(self, table_id: str, after: int, by: str, finished: Callable[[dict[str, Any]], bool]) -> Table:
        """Take back the last decision if the table's count is `after` (else Conflict; with
        none to take back, ValueError). `finished(log)` says whether the log left is a finished game."""
        with self._writing() as connection:
            table = self._table(connection, table_id)
            if table.moves != after:
                raise Conflict(table)
            if table.moves == 0:
                raise ValueError("nothing to take back")
            (first,) = connection.execute("SELECT first FROM tables WHERE id = ?", (table_id,)).fetchone()
            rows = connection.execute("SELECT kind, player, value FROM steps WHERE table_id = ? ORDER BY number", (table_id,)).fetchall()
            log = json.loads(first)
            for kind, player, value in rows[:-1]:
                log = with_step(log, Step(kind, player, json.loads(value)))
            _, taken_player, taken_value = rows[-1]
            number, change = table.moves - 1, table.changes + 1
            now = time.time()
            connection.execute("DELETE FROM steps WHERE table_id = ? AND number = ?", (table_id, table.moves))
            connection.execute(
                "INSERT INTO changes (table_id, number, kind, moves, player, value, by, at) VALUES (?, ?, 'undo', ?, ?, ?, ?, ?)",
                (table_id, change, number, taken_player, taken_value, by, now),
            )
            connection.execute(
                "UPDATE tables SET log = ?, moves = ?, changes = ?, updated = ?, finished = ? WHERE id = ?",
                (json.dumps(log, ensure_ascii=False), number, change, now, int(bool(finished(log))), table_id),
            )
            return self._table(connection, table_id)

    def delete(self, table_id: str) -> None:
        with self._writing() as connection:
            if connection.execute("DELETE FROM tables WHERE id = ?", (table_id,)).rowcount == 0:
                raise Unknown(table_id)
