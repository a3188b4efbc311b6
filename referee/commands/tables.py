"""The tables of `referee serve` (docs/formats/tables.md): the requests of section 5, each a
method answering (HTTPStatus, JSON), run in the server's threads; the store is
`referee.jobs.table_store`, the referee `referee next`.

A move is checked as `/api/next` and `/api/validate` check a log: the decision the table waits
for says who may write it (a seat's token: that player only; the host's: anyone) and where it
goes; the log with the move written in is replayed, and refused with its diagnostics (400) if
it breaks a rule, else written in one transaction that also checks the count it follows (409
with the table as it stands when another change came first). Every change is handed to
`on_change` (the event streams), after it is committed.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any

from referee.ground.wording import json_text, printable
from referee.jobs.scoring import Score
from referee.jobs.table_store import Change, Conflict, SeatHeld, Step, StoreError, Table, TableStore, Unknown, with_step

Answer = tuple[HTTPStatus, dict[str, Any]]
NEXT_KEPT = 64  # tables whose next decision is kept in memory, the last only (answered to every screen after a change)
MOVES_LISTED = 2000  # a decision's moves listed, as the page asks (a late mayor's arrangements may number a hundred thousand: 22 MB)
SEATS_MAX = 16  # event streams of one table at once: five phones, a table screen, a few reloads


class TableRefused(Exception):
    """A table request answered with an error status and `{"errors": [{"rule", "message"}]}`."""

    def __init__(self, status: HTTPStatus, rule: str, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {"errors": [{"rule": rule, "message": printable(message)}], **(extra or {})}


def _next_of(log: dict[str, Any]) -> dict[str, Any]:
    """The object of `/api/next` for a log (as JSON text, which is YAML)."""
    from referee.jobs.decisions import next_decision
    from referee.render.decision import next_object

    return next_object(next_decision(json.dumps(log, ensure_ascii=False), "table", limit=MOVES_LISTED))


def _broken(answer: dict[str, Any]) -> TableRefused:
    """400 for a log that breaks a rule, with the referee's diagnostics as `/api/validate` gives them."""
    first = answer["errors"][0]
    return TableRefused(HTTPStatus.BAD_REQUEST, first["rule"], first["message"], {"file": "table", "valid": False, "errors": answer["errors"]})


def _finished(answer: dict[str, Any]) -> bool:
    return bool(answer.get("complete")) and answer.get("decision") is None


class Tables:
    """The tables of one database (made on first use), for one server."""

    def __init__(self, path: Path) -> None:
        self.store = TableStore(path)
        self.on_change: Callable[[str, Change], None] = lambda table_id, change: None
        self._next: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()  # by table: its changes' count, its next decision
        self._texts: OrderedDict[str, tuple[int, bytes]] = OrderedDict()  # by table: its changes' count, `get`'s JSON
        self._lock = threading.Lock()

    def check(self) -> None:
        """At the start: StoreError for a database that cannot be used."""
        self.store.check()

    def close(self) -> None:
        self.store.close()

    # --- reading --------------------------------------------------------------------------

    def _table(self, table_id: str) -> Table:
        try:
            return self.store.table(table_id)
        except Unknown:
            raise TableRefused(HTTPStatus.NOT_FOUND, "table.unknown", "no table of that id on this server (a mistyped link, or a deleted table)") from None

    def next_of(self, table: Table) -> dict[str, Any]:
        """The next decision of the table as it stands, kept for the screens that ask after a change."""
        with self._lock:
            hit = self._next.get(table.id)
            if hit is not None and hit[0] == table.changes:
                self._next.move_to_end(table.id)
                return hit[1]
        answer = _next_of(table.log)
        self._kept(table, answer)
        return answer

    def _kept(self, table: Table, answer: dict[str, Any]) -> None:
        with self._lock:
            hit = self._next.get(table.id)
            if hit is None or hit[0] <= table.changes:
                self._next[table.id] = (table.changes, answer)
                self._next.move_to_end(table.id)
            while len(self._next) > NEXT_KEPT:
                self._next.popitem(last=False)

    def describe(self, table: Table, answer: dict[str, Any] | None = None) -> dict[str, Any]:
        """A table as `GET /api/tables/ID` answers it."""
        _, now = self._standing(table, answer if answer is not None else self.next_of(table))
        return {
            "table": table.id,
            "seats": list(table.seats),
            "players": list(table.players),
            "ruleset": table.ruleset,
            "state": "finished" if table.finished else "in progress",
            "created": _when(table.created),
            "updated": _when(table.updated),
            **now,
        }

    def get(self, table_id: str) -> Answer:
        table = self._table(table_id)
        return HTTPStatus.OK, self.describe(table)

    def get_json(self, table_id: str) -> bytes:
        """`get`'s answer as JSON text, made once per change of the table: every screen asks for
        it after each move (five screens, a late game's answer some 100 KB)."""
        table = self._table(table_id)
        with self._lock:
            hit = self._texts.get(table.id)
            if hit is not None and hit[0] == table.changes:
                self._texts.move_to_end(table.id)
                return hit[1]
        text = json_text(self.describe(table)).encode()
        with self._lock:
            self._texts[table.id] = (table.changes, text)
            self._texts.move_to_end(table.id)
            while len(self._texts) > NEXT_KEPT:
                self._texts.popitem(last=False)
        return text

    def listing(self) -> Answer:
        """Every table kept, the last changed first: its players, state and dates."""
        rows = [
            {
                "table": t.id,
                "players": list(t.players),
                "ruleset": t.ruleset,
                "moves": t.moves,
                "state": "finished" if t.finished else "in progress",
                "created": _when(t.created),
                "updated": _when(t.updated),
            }
            for t in self.store.tables()
        ]
        return HTTPStatus.OK, {"tables": rows}

    def log_text(self, table_id: str) -> str:
        """The table's log as canonical YAML."""
        answer = self.next_of(self._table(table_id))
        return str(answer.get("canonical") or "")

    # --- writing --------------------------------------------------------------------------

    def create(self, body: dict[str, Any], join: Callable[[str], str]) -> Answer:
        """A new table from `{"log": LOG}` (refused 400, as `/api/validate`, if it cannot be read
        or breaks a rule); `join(id)` is the link a phone opens to join it."""
        _only(body, ("log",), "a new table")
        log = body.get("log")
        if not isinstance(log, dict):
            raise TableRefused(HTTPStatus.BAD_REQUEST, "table.log", 'a table is made from {"log": LOG}, a game log as JSON (ruleset, players, setup, phases)')
        answer = _next_of(log)
        if not answer["valid"]:
            raise _broken(answer)
        kept = answer["log"]  # in the referee's words: what steps are written into
        table_id, host = self.store.create(kept, list(kept["players"]), str(kept["ruleset"]), _finished(answer))
        return HTTPStatus.CREATED, {"table": table_id, "host": host, "moves": 0, "join": join(table_id)}

    def seat(self, table_id: str, body: dict[str, Any], token: str | None) -> Answer:
        """A seat: `{"player": NAME}`; a held one only for the host (the old token stops working)."""
        _only(body, ("player",), "a seat")
        player = body.get("player")
        table = self._table(table_id)
        if not isinstance(player, str) or player not in table.players:
            raise TableRefused(HTTPStatus.BAD_REQUEST, "table.player", f"a seat is one of the players: {', '.join(table.players)}")
        by_host = token is not None and self.store.is_host(table_id, token)
        try:
            seat = self.store.take_seat(table_id, player, by_host)
        except SeatHeld:
            raise TableRefused(
                HTTPStatus.CONFLICT, "table.seat-held", f"{player}'s seat is held by another phone; the host's screen can give it to this one"
            ) from None
        return HTTPStatus.CREATED, {"player": player, "token": seat}

    def _who(self, table_id: str, token: str | None) -> tuple[bool, str | None]:
        """(is the host, the seat's player) of a token; 403 for none, or one of no seat here."""
        if token is None:
            raise TableRefused(HTTPStatus.FORBIDDEN, "table.token", "send the seat's or the host's token (Authorization: Bearer TOKEN)")
        if self.store.is_host(table_id, token):
            return True, None
        player = self.store.seat_of(table_id, token)
        if player is None:
            raise TableRefused(
                HTTPStatus.FORBIDDEN, "table.token", "this token holds no seat at this table (the seat was given to another phone, or the token is wrong)"
            )
        return False, player

    def move(self, table_id: str, body: dict[str, Any], token: str | None) -> Answer:
        """`{"after": N, "move": TEXT}` or `{"after": N, "draw": [TILE...]}` by a seat or the host."""
        table = self._table(table_id)
        host, seat = self._who(table_id, token)
        _only(body, ("after", "move", "draw"), "a move")
        after = _after(body)
        answer = self.next_of(table)
        if after != table.moves:
            raise self._moved(table, after, answer)
        decision = answer.get("decision")
        if decision is None:
            why = "the game is over" if answer.get("valid") else "the log breaks a rule: undo first"
            raise TableRefused(HTTPStatus.BAD_REQUEST, "table.no-decision", f"nothing is awaited: {why}")
        player = decision.get("player")
        if not host and seat != player:
            raise TableRefused(
                HTTPStatus.FORBIDDEN, "table.not-your-decision", f"it is {player}'s decision, not {seat}'s: {seat}'s phone enters {seat}'s decisions only"
            )
        kind = decision["kind"]
        if kind == "draw":
            tiles = body.get("draw")
            if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles) or "move" in body:
                raise TableRefused(
                    HTTPStatus.BAD_REQUEST,
                    "table.draw",
                    f'the table waits for the new face-up row: send {{"after": {after}, "draw": [TILE, ...]}} with {decision["draw"]["tiles"]} tiles',
                )
            value: Any = tiles
        else:
            text = body.get("move")
            if not isinstance(text, str) or not text.strip() or "draw" in body:
                raise TableRefused(
                    HTTPStatus.BAD_REQUEST,
                    "table.move",
                    f'send {{"after": {after}, "move": TEXT}}: {player}\'s {kind} ({", ".join((decision.get("moves") or [])[:5])}, ...)',
                )
            value = text.strip()
        step = Step(kind, player, value)
        log = with_step(table.log, step)
        new = _next_of(log)
        if not new["valid"]:
            raise _broken(new)
        try:
            written = self.store.write(table_id, after, step, new["log"], _finished(new), "host" if host else str(seat))
        except Conflict as conflict:
            raise self._moved(conflict.table, after) from None
        return HTTPStatus.OK, self._told(written, new)

    def undo(self, table_id: str, body: dict[str, Any], token: str | None) -> Answer:
        """`{"after": N}` with the host's token: the last decision taken back."""
        self._table(table_id)
        host, seat = self._who(table_id, token)
        if not host:
            raise TableRefused(HTTPStatus.FORBIDDEN, "table.host-only", f"only the table's host takes a move back ({seat}'s phone asks the host)")
        _only(body, ("after",), "an undo")
        after = _after(body)
        answers: list[dict[str, Any]] = []

        def finished(log: dict[str, Any]) -> bool:  # the log as it is after the undo, replayed once
            answers.append(_next_of(log))
            return _finished(answers[-1])

        try:
            written = self.store.undo(table_id, after, "host", finished)
        except Conflict as conflict:
            raise self._moved(conflict.table, after) from None
        except ValueError:
            raise TableRefused(HTTPStatus.BAD_REQUEST, "table.nothing-to-undo", "no decision has been written at this table since it was made") from None
        return HTTPStatus.OK, self._told(written, answers[-1])

    def delete(self, table_id: str, token: str | None) -> Answer:
        self._table(table_id)
        host, _ = self._who(table_id, token)
        if not host:
            raise TableRefused(HTTPStatus.FORBIDDEN, "table.host-only", "only the table's host deletes it")
        self.store.delete(table_id)
        return HTTPStatus.OK, {"table": table_id, "deleted": True}

    def export(self, table_id: str, kind: str) -> Answer:
        """The finished game as a play for BG Stats or BoardGameGeek (409 while in progress)."""
        from referee.render.export import FORMATS

        if kind not in FORMATS:
            raise TableRefused(HTTPStatus.BAD_REQUEST, "input.query", f"format is one of {', '.join(FORMATS)}, not {kind[:20]!r}")
        table = self._table(table_id)
        answer = self.next_of(table)
        if not _finished(answer):
            raise TableRefused(HTTPStatus.CONFLICT, "table.in-progress", "the game is still being played: its play is exported once it is over")
        return HTTPStatus.OK, export_answer(kind, table.log, _scores_of(answer), datetime.fromtimestamp(table.created, UTC).date().isoformat())

    def _standing(self, table: Table, answer: dict[str, Any]) -> tuple[Change | None, dict[str, Any]]:
        """The table's last change, and the table as it now stands as a change answers it (its
        count, its change, the next decision): all a screen needs to draw it."""
        change = self.store.last_change(table.id)
        return change, {"moves": table.moves, "changes": table.changes, "last": change.as_json() if change is not None else None, "next": answer}

    def _told(self, table: Table, answer: dict[str, Any]) -> dict[str, Any]:
        """A change written: its next decision kept for the screens that ask, the change handed to
        the event streams, and answered as the table now stands."""
        self._kept(table, answer)
        change, now = self._standing(table, answer)
        if change is not None:
            self.on_change(table.id, change)
        return now

    def _moved(self, table: Table, after: int, answer: dict[str, Any] | None = None) -> TableRefused:
        """409: another change came first; the table as it now stands."""
        _, now = self._standing(table, answer if answer is not None else self.next_of(table))
        return TableRefused(HTTPStatus.CONFLICT, "table.moved", f"the table is at move {table.moves}, not {after}: another change came first", now)


def export_answer(kind: str, log: dict[str, Any], scores: list[Score], default_date: str) -> dict[str, Any]:
    """A finished log's play in `kind`, from its JSON form (its players and `meta`) and its
    scores: the date and place from its `meta`, where written."""
    from referee.render.export import play_export

    meta = log.get("meta") if isinstance(log.get("meta"), dict) else {}
    assert isinstance(meta, dict)
    date = str(meta.get("date") or default_date)[:10]
    place = meta.get("place")
    return play_export(kind, scores, list(log["players"]), date, str(place) if place else None)


def _scores_of(answer: dict[str, Any]) -> list[Score]:
    """The scores of a table's kept answer (its JSON, as `referee score` gives them), as values again."""
    return [Score(s["player"], s["chips"], s["buildings"], dict(s["bonus_by_building"]), s["doubloons"], s["goods"], s["rank"]) for s in answer["scores"]]


def _when(stamp: float) -> str:
    return datetime.fromtimestamp(stamp, UTC).isoformat(timespec="seconds")


def _after(body: dict[str, Any]) -> int:
    after = body.get("after")
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise TableRefused(HTTPStatus.BAD_REQUEST, "table.after", '"after" is the number of moves the change follows: the table\'s "moves"')
    return after


def _only(body: dict[str, Any], keys: tuple[str, ...], what: str) -> None:
    unknown = sorted(set(body) - set(keys))
    if unknown:
        raise TableRefused(HTTPStatus.BAD_REQUEST, "table.key", f"{what} takes {', '.join(repr(k) for k in keys)}, not {unknown[0]!r}")


def store_failure(exc: StoreError) -> TableRefused:
    """A database that cannot be used, for a request: 503 with its sentence."""
    return TableRefused(HTTPStatus.SERVICE_UNAVAILABLE, "table.database", str(exc))


def read_body(data: bytes) -> dict[str, Any]:
    """A table request's JSON body (an object; `{}` when empty)."""
    if not data.strip():
        return {}
    try:
        body = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise TableRefused(HTTPStatus.BAD_REQUEST, "input.json", f"the body is not JSON ({exc})") from None
    if not isinstance(body, dict):
        raise TableRefused(HTTPStatus.BAD_REQUEST, "input.json", "the body is a JSON object")
    return body
