"""`referee serve`: the score sheet, the shipping calculator and the log check as one page in the
browser, and the JSON API behind it, served from this machine.

- `GET /` the page (referee/commands/web/index.html: everything it needs is served from here, offline);
  `GET /api/rulesets` and `GET /api/rules/NAME` the bundled rulesets' data, for the page's lists.
- `POST /api/validate`, `/api/score-sheet`, `/api/ship`, `/api/next`, `/api/review` take a game
  log, a score sheet, a shipping position, a game log, a game log (YAML or JSON, as the documents
  of the command line) and answer with the JSON of `referee validate`, `referee score --sheet`,
  `referee ship --format json`, `referee next --format json` (`/api/next?limit=N`: as `--limit
  N`) and `referee review --format json`. A document
  that is read and checked is answered 200 (its verdict inside); one that cannot be read, 400
  with the same diagnostics as the command line.
- Bad input never breaks the server: bodies over 2 MiB are refused (413); a calculator request
  that runs past its time limit is stopped and answered 503 while the others are served; no
  request reads or writes a file of the machine (a document naming a ruleset by path is refused
  with 400: the server knows only the bundled rulesets).

A JSON endpoint is one entry in `POSTS`: its path and a job `(data: bytes) -> (HTTPStatus, dict)`
run in a thread of the server (`Post(job)`), or in a process of its own, stopped at the time
limit (`Post(job, calculation=True)`, for the shipping calculator's searches).

The HTTP server is uvicorn (its h11 connection, an asyncio protocol: a waiting client costs a
socket, not a thread), with what uvicorn lacks against slow and idle clients added by
`_Connection`: a request must be read whole within `READ_SECONDS` of the connection (or of the
previous answer), and at the bound on connections (below the limit of open files) the one
that has waited longest for its request is closed to let the new one in. Chosen by measurement
against issue 29's reproducers (the server under `ulimit -n 1024`; a client behind 1,100 idle
connections; behind 600 clients sending a byte a second; 400 clients that leave early; odd
Content-Lengths; 50 clients for 4 s):

| server | a new client behind 1,100 idle | server CPU in 3 s meanwhile | behind 600 trickling | lines on stderr (tracebacks) | 5,001-digit length |
| --- | --- | --- | --- | --- | --- |
| http.server (before) | no answer in 15 s | 3.0 s (spins) | answered | 17,040 (802) | 500 |
| waitress 3.0.2 (connection_limit 500, channel_timeout 10 s) | no answer in 15 s | 0.01 s | no answer in 15 s | 2,323 (0) | connection closed |
| uvicorn 0.54 alone (limit_concurrency 500) | no answer in 15 s | 1.6 s (EMFILE, reported) | 503 | 1,260,181 (210,029) | 400 |
| uvicorn 0.54 with `_Connection` | answered in 0.01 s | 0.01 s | answered in 0.02 s | 0 (0) | 400 |

(All four answered 50 clients for 4 s without a failure, 10,700 to 19,300 requests; every odd
Content-Length gets 400, 411 or 413 here, where waitress and uvicorn alone answer a missing one
as an empty body and two equal ones as one.)

Waitress stops accepting at its connection limit and times clients out only when silent: new
clients queue behind the idle ones, and a byte a second keeps a slot forever; fixing that means
changing its dispatcher. uvicorn's connection is a small class to extend, and an asyncio
server's waiting clients are cheap. Starlette is not needed: the routes are a table here.

Nothing here is imported by the other commands (uvicorn is imported only by this module).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import multiprocessing
import re
import resource
import signal
import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from referee.commands.tables import SEATS_MAX, TableRefused, Tables, read_body, store_failure
from referee.diagnostics import READ_ERROR, Diagnostic, InputError
from referee.ground.wording import json_text
from referee.jobs.table_store import Change, StoreError
from referee.located.tree import MAX_BYTES

SHIP_SECONDS = 20.0  # a calculator request's time limit
READ_SECONDS = 20.0  # a request (headers and body) read whole within this, or the connection is closed: a slow client cannot hold a connection
KEEP_ALIVE_SECONDS = 5.0  # an idle connection between two requests is closed after this
HEADER_BYTES = 16 * 1024  # the request line and headers: a browser sends under 2 KiB
CONNECTIONS = 512  # at most this many connections at once (fewer under a low limit of open files)
FILES_KEPT = 128  # open files kept free of connections: the listening socket, the calculations' pipes, the page
BACKLOG = 128  # connections waiting to be accepted; asyncio also accepts up to this many at once, before any is counted
JOB_THREADS = 4  # the in-process jobs (a log checked, a sheet scored) run in these threads, never in the event loop
CALCULATIONS = max(2, multiprocessing.cpu_count())  # calculations at once; the others wait their turn (within SHIP_SECONDS)
PAGE = "web/index.html"

Job = Callable[[bytes], tuple[HTTPStatus, dict[str, Any]]]


@dataclass(frozen=True)
class Post:
    """A JSON endpoint: `job` takes the request's body and gives the status and the JSON answer.
    A `calculation` runs in a process of its own, stopped at the server's time limit (503).
    `options`: the query parameters it takes (`?limit=200`), given to `job` as keyword strings;
    any other is refused (400), never ignored."""

    job: Job
    calculation: bool = False
    options: tuple[str, ...] = ()

    def with_query(self, query: str) -> Job:
        """`job` with the request's query parameters; Refused (400) for one it does not take."""
        from urllib.parse import parse_qsl

        given = parse_qsl(query, keep_blank_values=True)
        unknown = sorted({name for name, _ in given if name not in self.options} | {name for name, _ in given if [n for n, _ in given].count(name) > 1})
        if unknown:
            takes = f"it takes {', '.join(self.options)}" if self.options else "it takes none"
            raise _refusal(HTTPStatus.BAD_REQUEST, "input.query", f"the query parameter {unknown[0]!r} is not taken here (or is given twice); {takes}")
        return partial(self.job, **dict(given)) if given else self.job


class Refused(Exception):
    """A request answered with an error status and a JSON body (the same shape as the answers)."""

    def __init__(self, status: HTTPStatus, body: dict[str, Any]) -> None:
        super().__init__(body)
        self.status = status
        self.body = body


# --- the jobs ---


def _errors(diagnostics: list[Diagnostic], file: str = "document") -> dict[str, Any]:
    from referee.render.report import diagnostic_json

    return {"file": file, "valid": False, "errors": [diagnostic_json(d, file) for d in diagnostics]}


def _refusal(status: HTTPStatus, rule: str, message: str) -> Refused:
    return Refused(status, _errors([Diagnostic(rule, message, None, READ_ERROR)]))


def _bundled_ruleset_only(data: bytes) -> None:
    """Refuse (400) a document that names a ruleset by path: the server reads no file."""
    from referee.located.tree import read_yaml
    from referee.rulesets.load import bundled_rulesets, names_a_file

    try:
        root = read_yaml(data, "document")
    except InputError:
        return  # unreadable: the job says why, as the command line would
    if not isinstance(root.value, dict) or "ruleset" not in root.value:
        return
    node = root.value["ruleset"]
    name = node.text() if isinstance(node.value, (str, int)) else ""
    if names_a_file(name):  # a path (an unknown name is the reader's to explain)
        message = f"the server knows only the bundled rulesets ({', '.join(bundled_rulesets())}), not '{name}'"
        raise Refused(HTTPStatus.BAD_REQUEST, _errors([Diagnostic("ruleset.not-bundled", message, node.location, READ_ERROR)]))


def _status(exit_code: int) -> HTTPStatus:
    """What the command line's exit code is over HTTP: a document that could not be read is a
    bad request; one read and checked, broken rule or not, is answered."""
    return HTTPStatus.BAD_REQUEST if exit_code == READ_ERROR else HTTPStatus.OK


def _validate(data: bytes) -> tuple[HTTPStatus, dict[str, Any]]:
    from referee.jobs.check import check_log
    from referee.render.report import report_object

    report = check_log(data, "document", None, True, None)
    return _status(report.exit_code), report_object(report)


def _score_sheet(data: bytes) -> tuple[HTTPStatus, dict[str, Any]]:
    from referee.jobs.check import score_sheet
    from referee.render.report import report_object

    report = score_sheet(data, "document")
    return _status(report.exit_code), report_object(report)


def _ship(data: bytes) -> tuple[HTTPStatus, dict[str, Any]]:
    from referee.commands.ship import ship_object
    from referee.documents.inputs import Input

    answer, code = ship_object(Input(data, "document", None))
    return _status(code), answer


def _next(data: bytes, limit: str | None = None, guests: str | None = None) -> tuple[HTTPStatus, dict[str, Any]]:
    """`referee next` of a log; `?guests=quarry,harbor`: the decider's guest-house colonists go
    there first, and the moves listed are those open after them (docs/next.md)."""
    from referee.jobs.decisions import next_decision
    from referee.render.decision import next_object

    if limit is not None and not (limit.isascii() and limit.isdigit() and 0 < int(limit) <= 1_000_000):
        raise _refusal(HTTPStatus.BAD_REQUEST, "input.query", f"limit is the number of moves to list, a whole number from 1 to 1,000,000, not {limit[:20]!r}")
    places = [place.strip() for place in guests.split(",")] if guests is not None else None
    if places is not None and (len(guests or "") > 400 or not all(places)):
        raise _refusal(HTTPStatus.BAD_REQUEST, "input.query", "guests is the places a guest goes to, as the log writes them, separated by commas: guests=quarry,harbor")
    run = next_decision(data, "document", limit=int(limit) if limit is not None else None, guests=places)
    return _status(run.exit_code), next_object(run)


def _review(data: bytes) -> tuple[HTTPStatus, dict[str, Any]]:
    """`referee review` of a log: its captain phases against the shipping calculator (docs/review.md)."""
    from referee.jobs.review import review_log
    from referee.render.review import review_object

    review = review_log(data, "document")
    return _status(review.exit_code), review_object(review)


POSTS: dict[str, Post] = {
    "/api/validate": Post(_validate),
    "/api/score-sheet": Post(_score_sheet),
    "/api/ship": Post(_ship, calculation=True),
    "/api/next": Post(_next, options=("limit", "guests")),  # a replay or two: in the server's threads
    "/api/review": Post(_review, calculation=True),  # a search per captain phase: stopped at the time limit
}


def _rules(name: str) -> dict[str, Any]:
    """A bundled ruleset's data for the page: its words, names of goods, roles (by id: the
    phase each opens), buildings (with
    their cost, column, VP, circles, and whether they act in a captain phase), player counts,
    and the selection of violet buildings (Expansion I)."""
    from referee.engine.phases.captain import SHIPPING_POWERS, STORAGE_POWERS
    from referee.rulesets.compiled import plain
    from referee.rulesets.load import bundled_rulesets, load_ruleset

    if name not in bundled_rulesets():
        raise Refused(HTTPStatus.NOT_FOUND, {"error": f"no bundled ruleset '{name}' ({', '.join(bundled_rulesets())})"})
    rules = load_ruleset(name)
    model = rules.model
    # the powers that act in a captain phase, what the page offers buildings for: loading,
    # storage, and a doubled privilege (the captain's VP)
    captain = {*SHIPPING_POWERS, *STORAGE_POWERS, "privilege.double"}
    return {
        "id": model.id,
        "title": model.title,
        "terms": plain(model.terms),
        "players": sorted(model.player_counts),
        "ships": {str(n): list(pc.cargo_ships) for n, pc in model.player_counts.items()},
        "goods": [{"id": g.id, "name": g.name} for g in model.goods],
        "roles": [{"id": r.id, "name": r.name} for r in model.roles],  # a role's id names its phase (a decision's `phase` is its name)
        "quarry": model.quarry.name,
        "buildings": [
            {
                "id": b.id,
                "name": b.name,
                "large": b.size == 2,
                "violet": b.kind.endswith("violet"),
                "cost": b.cost,
                "column": b.column,
                "vp": b.vp,
                "circles": b.circles,
                "captain": b.effect is not None and b.effect.id in captain,
                "guest": b.effect is not None and b.effect.id == "move.guest",  # its colonists move before a move (a decision's `guests`)
            }
            for b in model.buildings
        ],
        "forests": bool(rules.with_effect("settle.forest")),
        "selection": _selection(rules),
    }


def _selection(rules: Any) -> dict[str, Any] | None:
    """How the violet buildings of a game are chosen before it (Expansion I), for the page's
    setup: each cost's spaces and the buildings of that cost, and the groups of which a game
    holds one at most; None where a ruleset has no selection."""
    selection = rules.model.selection
    if selection is None:
        return None
    violet = [b for b in rules.buildings if b.kind.endswith("violet")]
    return {
        "slots": [{"cost": slot.cost, "spaces": slot.spaces, "buildings": [b.name for b in violet if b.cost == slot.cost]} for slot in selection.slots],
        "exclusive": [[rules.name(ident) for ident in group] for group in selection.exclusive],
    }


def _get(path: str) -> tuple[HTTPStatus, bytes, str]:
    """The page or a ruleset's data: (status, payload, content type)."""
    if path in ("/", "/index.html"):
        return HTTPStatus.OK, resources.files("referee.commands").joinpath(PAGE).read_bytes(), "text/html; charset=utf-8"
    if path == "/api/rulesets":
        from referee.rulesets.load import bundled_rulesets

        return HTTPStatus.OK, _json({"rulesets": bundled_rulesets()}), "application/json"
    if path.startswith("/api/rules/"):
        return HTTPStatus.OK, _json(_rules(path.removeprefix("/api/rules/"))), "application/json"
    raise Refused(HTTPStatus.NOT_FOUND, {"error": f"no page at {path}"})


def _json(body: dict[str, Any]) -> bytes:
    return json_text(body).encode()


# --- the calculations' processes ---


def _start_processes() -> Any:
    """The context of the calculations' processes: forked from a server process started with a
    fresh interpreter (forkserver), which has imported the calculator but runs no thread. A fork
    of the threaded server itself could copy a lock held by another thread (an import lock: the
    child waits forever, and the contract's 0.3 s example is answered 503 after 20 s)."""
    context = multiprocessing.get_context("forkserver")
    # referee.commands.cli too: each process imports the main script again (multiprocessing's rule), and
    # the `referee` console script imports referee.commands.cli (20 ms a calculation, not 65)
    context.set_forkserver_preload(["referee.commands.server", "referee.commands.ship", "referee.jobs.shipping", "referee.commands.cli"])
    from multiprocessing import forkserver

    # started now, before the first request (its imports are not a request's time), and deaf
    # to Ctrl-C, as its processes are (the server stops them): interrupted in its imports, it
    # would print a traceback and fail the calculations waiting for it
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        forkserver.ensure_running()
    finally:
        if main:
            signal.signal(signal.SIGINT, before)
    return context


def _in_a_process(context: Any, job: Job, data: bytes, seconds: float, abandoned: threading.Event) -> tuple[HTTPStatus, dict[str, Any]]:
    """`job(data)` in a process of its own, stopped after `seconds` (503) or when the client has
    left or the server stops (`abandoned`): a long calculation holds one process, never the
    server; a process ends with its request, so nothing it remembered stays."""
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_run_and_send, args=(job, data, send), daemon=True)
    try:
        process.start()  # (multiprocessing starts its forkserver again if it has died)
    except (OSError, EOFError) as exc:  # no process to be had (out of processes or memory): answered, the server goes on
        receive.close()
        send.close()
        raise _refusal(HTTPStatus.SERVICE_UNAVAILABLE, "server.failed", f"no process could be started for the calculation ({type(exc).__name__}: {exc})") from None
    send.close()
    try:
        deadline = time.monotonic() + seconds
        while not receive.poll(max(0.0, min(0.25, deadline - time.monotonic()))):  # a quarter of a second at a time, to see a client leave
            if time.monotonic() >= deadline or abandoned.is_set():
                process.terminate()
                process.join(5)
                if process.is_alive():
                    process.kill()
                if abandoned.is_set():
                    raise _refusal(HTTPStatus.SERVICE_UNAVAILABLE, "server.stopped", "the server was stopped before the calculation ended")
                message = f"the calculation took longer than the server's limit of {seconds:g} s and was stopped; `referee ship` on the command line has no limit"
                raise _refusal(HTTPStatus.SERVICE_UNAVAILABLE, "server.time-limit", message)
        try:
            status, body = receive.recv()
        except EOFError:  # the process died (out of memory): answered, the server goes on
            raise _refusal(HTTPStatus.SERVICE_UNAVAILABLE, "server.failed", "the calculation's process ended without an answer") from None
        return HTTPStatus(status), body
    finally:
        receive.close()
        process.join(1)


def _run_and_send(job: Job, data: bytes, send: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server's terminal reaches this process too: the server stops it, without a traceback
    try:
        status, body = job(data)
    except Exception as exc:  # reported to the parent, which answers it
        status, body = HTTPStatus.INTERNAL_SERVER_ERROR, _errors([Diagnostic("internal.error", f"referee failed ({type(exc).__name__}: {exc})", None, READ_ERROR)])
    send.send((int(status), body))
    send.close()


# --- the application (ASGI) ---

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class _Api:
    """The page and the API as an ASGI application: routes, bodies within their bounds, jobs in
    threads or processes; every answer JSON (but the page's)."""

    def __init__(self, ship_seconds: float, tables: Tables) -> None:
        self.ship_seconds = ship_seconds
        self.tables = tables
        self.listeners: dict[str, set[asyncio.Queue[Change]]] = {}  # each table's event streams (in the event loop)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.ended: asyncio.Event | None = None  # set when the server stops: the event streams end
        self._address = "127.0.0.1"
        self.threads = ThreadPoolExecutor(JOB_THREADS, thread_name_prefix="referee-job")
        self.waiting = ThreadPoolExecutor(CALCULATIONS, thread_name_prefix="referee-calculation")  # each waits on one process
        self.processes = _start_processes()
        self.free: asyncio.Semaphore | None = None  # made in the server's event loop
        self.running: set[threading.Event] = set()  # each running calculation's stop
        self.stopping = False  # the server stops: no calculation is started

    def stop(self) -> None:
        """Stop the calculations still running: the server stops (their clients get 503 at once,
        not after the calculation, nor a dropped connection when the server stops waiting)."""
        self.stopping = True
        for stop in list(self.running):
            stop.set()
        if self.ended is not None:
            self.ended.set()

    def close(self) -> None:
        self.stop()
        self.threads.shutdown(wait=False, cancel_futures=True)
        self.waiting.shutdown(wait=False, cancel_futures=True)
        self.tables.close()

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        path = scope["raw_path"].decode("latin-1")  # as sent, %-escapes kept: a ruleset name is never decoded into a path
        method = scope["method"]
        whole = True  # the request's body was read (or it has none): the connection can serve another
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
            self.ended = asyncio.Event()
            self.tables.on_change = self._changed
        try:
            if path == "/api/tables" or path.startswith("/api/tables/"):
                whole = method not in ("POST", "DELETE")
                table_answer = await self._table_request(scope, receive, send, method, path)
                if table_answer is None:
                    return  # an event stream, answered as it went; or the client left
                status, payload, kind = table_answer
                whole = True  # (a body is read first, whatever the answer)
            elif method == "GET":
                status, payload, kind = await asyncio.get_running_loop().run_in_executor(self.threads, _get, path)
            elif method == "POST":
                whole = False
                post = POSTS.get(path)
                if post is None:
                    raise Refused(HTTPStatus.NOT_FOUND, {"error": f"no API at {path}: POST to {', '.join(POSTS)}"})
                data = await _body(scope, receive)
                if data is None:
                    return  # the client left: nobody to answer
                whole = True
                answer = await self._run(post, data, receive, scope.get("query_string", b"").decode("latin-1"))
                if answer is None:
                    return
                status, payload, kind = answer[0], _json(answer[1]), "application/json"
            else:
                raise Refused(HTTPStatus.NOT_IMPLEMENTED, {"error": f"{method} is not served here: GET the page or POST to {', '.join(POSTS)}"})
        except Refused as refused:
            status, payload, kind = refused.status, _json(refused.body), "application/json"
        except asyncio.CancelledError:  # uvicorn stops waiting for a request at its shutdown: answered, not reported as a failure
            status, payload, kind = HTTPStatus.SERVICE_UNAVAILABLE, _json(_errors([Diagnostic("server.stopped", "the server was stopped before the answer was ready", None, READ_ERROR)])), "application/json"
        except Exception as exc:  # a bug in referee (a page missing from the install): answered, never a dropped connection
            status, kind = HTTPStatus.INTERNAL_SERVER_ERROR, "application/json"
            if method == "POST":
                payload = _json(_errors([Diagnostic("internal.error", f"referee failed on this document ({type(exc).__name__}: {exc})", None, READ_ERROR)]))
            else:
                payload = _json({"error": f"referee failed ({type(exc).__name__}: {exc})"})
        headers = [(b"content-type", kind.encode()), (b"content-length", str(len(payload)).encode()), (b"cache-control", b"no-store")]
        if not whole:
            headers.append((b"connection", b"close"))  # the body is not read: the connection cannot be reused
        await send({"type": "http.response.start", "status": int(status), "headers": headers})
        await send({"type": "http.response.body", "body": payload})

    async def _run(self, post: Post, data: bytes, receive: Receive, query: str = "") -> tuple[HTTPStatus, dict[str, Any]] | None:
        """The job's answer; None when the client left before it (a calculation is then stopped)."""
        loop = asyncio.get_running_loop()
        job = post.with_query(query)
        await loop.run_in_executor(self.threads, _bundled_ruleset_only, data)
        if not post.calculation:
            return await loop.run_in_executor(self.threads, job, data)
        if self.free is None:
            self.free = asyncio.Semaphore(CALCULATIONS)
        try:
            await asyncio.wait_for(self.free.acquire(), self.ship_seconds)
        except TimeoutError:
            message = f"the server's {CALCULATIONS} calculations were busy for longer than its limit of {self.ship_seconds:g} s; try again, or `referee ship` on the command line"
            raise _refusal(HTTPStatus.SERVICE_UNAVAILABLE, "server.time-limit", message) from None
        abandoned = threading.Event()
        self.running.add(abandoned)
        if self.stopping:  # (after the add: a stop from now on sees this calculation)
            abandoned.set()
        try:
            calculation = loop.run_in_executor(self.waiting, _in_a_process, self.processes, job, data, self.ship_seconds, abandoned)
            leaving = asyncio.ensure_future(_left(receive))
            await asyncio.wait((calculation, leaving), return_when=asyncio.FIRST_COMPLETED)
            if not calculation.done():
                abandoned.set()
                await asyncio.wait((calculation,))
                calculation.exception()  # the answer nobody waits for (stopped: a Refused), retrieved so it is not reported
                return None
            leaving.cancel()
            return calculation.result()
        finally:
            self.running.discard(abandoned)
            self.free.release()


    # --- tables (referee/commands/tables.py) ---

    async def _table_request(self, scope: dict[str, Any], receive: Receive, send: Send, method: str, path: str) -> tuple[HTTPStatus, bytes, str] | None:
        """A request of docs/formats/tables.md: (status, payload, content type), or None for an
        event stream (answered here, as it goes) or a client that left."""
        parts = path.removeprefix("/api/tables").strip("/").split("/") if path != "/api/tables" else []
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        token = _bearer(scope)
        tables = self.tables
        run = self._in_a_thread
        try:
            data = b""
            if method == "POST" or (method == "DELETE" and _has_length(scope)):  # read first: the connection then serves another request
                read = await _body(scope, receive)
                if read is None:
                    return None
                data = read
            if not all(_TABLE_PART.fullmatch(part) for part in parts) or len(parts) > 2:
                raise TableRefused(HTTPStatus.NOT_FOUND, "table.path", f"no API at {path}")
            table_id = parts[0] if parts else None
            action = parts[1] if len(parts) > 1 else None
            if method in ("POST", "DELETE"):
                body = read_body(data)
                if table_id is None and method == "POST":
                    status, answer = await run(tables.create, body, partial(_join_link, scope, self.address))
                elif method == "DELETE" and table_id is not None and action is None:
                    status, answer = await run(tables.delete, table_id, token)
                elif method == "POST" and action in ("seats", "moves", "undo") and table_id is not None:
                    status, answer = await run({"seats": tables.seat, "moves": tables.move, "undo": tables.undo}[action], table_id, body, token)
                else:
                    raise TableRefused(HTTPStatus.NOT_FOUND, "table.path", f"no {method} at {path}")
                return status, _json(answer), "application/json"
            if method != "GET":
                raise TableRefused(HTTPStatus.METHOD_NOT_ALLOWED, "table.method", f"{method} is not served at {path}")
            if table_id is None:
                if not _from_this_machine(scope):
                    raise TableRefused(HTTPStatus.FORBIDDEN, "table.list", "the tables kept here are listed on the server's own machine only (a table's link is what joins it)")
                status, answer = await run(tables.listing)
            elif action is None:
                return HTTPStatus.OK, await run(tables.get_json, table_id), "application/json"
            elif action == "log":
                text = await run(tables.log_text, table_id)
                return HTTPStatus.OK, text.encode(), "application/yaml; charset=utf-8"
            elif action == "export":
                status, answer = await run(tables.export, table_id, query.get("format", ""))
            elif action == "qr.svg":
                svg = await run(_qr_svg, _join_link(scope, self.address, table_id), tables, table_id)
                return HTTPStatus.OK, svg, "image/svg+xml"
            elif action == "events":
                await self._events(table_id, scope, receive, send)
                return None
            else:
                raise TableRefused(HTTPStatus.NOT_FOUND, "table.path", f"no API at {path}")
            return status, _json(answer), "application/json"
        except TableRefused as refused:
            return refused.status, _json(refused.body), "application/json"
        except Refused as refused:  # a body over its bound, a missing length
            return refused.status, _json(refused.body), "application/json"

    async def _in_a_thread(self, job: Callable[..., Any], *args: Any) -> Any:
        """A table job in the server's threads (it meets the database); a database that fails is
        the request's 503 (`table.database`)."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self.threads, job, *args)
        except StoreError as exc:
            raise store_failure(exc) from None

    @property
    def address(self) -> str:
        """host:port as the server was bound (a join link's host where the request names none)."""
        return self._address

    def _changed(self, table_id: str, change: Change) -> None:
        """A change committed (in a job's thread): told to the table's event streams."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._publish, table_id, change)

    def _publish(self, table_id: str, change: Change) -> None:
        for queue in self.listeners.get(table_id, ()):
            queue.put_nowait(change)

    async def _events(self, table_id: str, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        """Server-Sent Events: `event: move` with the change, each time the table's log changes;
        from `Last-Event-ID: N`, every change after the Nth first. A comment every
        EVENTS_PING_SECONDS keeps the connection and shows a client that left."""
        await self._in_a_thread(self.tables.get, table_id)  # 404 for an unknown table
        streams = self.listeners.setdefault(table_id, set())
        if len(streams) >= SEATS_MAX:
            raise TableRefused(HTTPStatus.SERVICE_UNAVAILABLE, "table.screens", f"the table has {SEATS_MAX} screens following it, its most")
        queue: asyncio.Queue[Change] = asyncio.Queue()
        streams.add(queue)
        try:
            headers = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no")]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": b"retry: 1000\n\n", "more_body": True})
            sent = _last_event_id(scope)
            if sent is not None:
                try:
                    missed = await self._in_a_thread(self.tables.store.changes_after, table_id, sent)
                except TableRefused:  # the database failed after the stream began: it ends, and the client reconnects
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    return
                for change in missed:
                    await send({"type": "http.response.body", "body": _event(change), "more_body": True})
                    sent = change.number
            leaving = asyncio.ensure_future(_left(receive))
            ended = asyncio.ensure_future(self.ended.wait()) if self.ended is not None else asyncio.ensure_future(asyncio.sleep(1e9))
            try:
                while True:
                    getting = asyncio.ensure_future(queue.get())
                    done, _ = await asyncio.wait((getting, leaving, ended), timeout=EVENTS_PING_SECONDS, return_when=asyncio.FIRST_COMPLETED)
                    if getting not in done:
                        getting.cancel()
                    if leaving in done or ended in done:
                        break
                    if getting in done:
                        change = getting.result()
                        if sent is None or change.number > sent:
                            await send({"type": "http.response.body", "body": _event(change), "more_body": True})
                            sent = change.number
                    else:
                        await send({"type": "http.response.body", "body": b": ping\n\n", "more_body": True})
            finally:
                leaving.cancel()
                ended.cancel()
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the client went while an event was written
        finally:
            streams.discard(queue)
            if not streams:
                self.listeners.pop(table_id, None)


EVENTS_PING_SECONDS = 15.0
_TABLE_PART = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def _event(change: Change) -> bytes:
    return f"id: {change.number}\nevent: move\ndata: {json_text(change.as_json())}\n\n".encode()


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    values = [value for key, value in scope["headers"] if key == name]
    return values[0].decode("latin-1") if values else None


def _bearer(scope: dict[str, Any]) -> str | None:
    given = _header(scope, b"authorization")
    if given is None or not given.lower().startswith("bearer "):
        return None
    return given[7:].strip() or None


def _has_length(scope: dict[str, Any]) -> bool:
    return _header(scope, b"content-length") is not None


def _last_event_id(scope: dict[str, Any]) -> int | None:
    given = _header(scope, b"last-event-id")
    return int(given) if given is not None and given.isascii() and given.isdigit() and len(given) < 12 else None


def _from_this_machine(scope: dict[str, Any]) -> bool:
    client = scope.get("client")
    if not client:
        return False
    try:
        return ipaddress.ip_address(client[0]).is_loopback
    except ValueError:
        return False


def _join_link(scope: dict[str, Any], address: str, table_id: str) -> str:
    """The link a phone opens to join a table: this page, as the request reached it."""
    host = _header(scope, b"host") or address
    if not re.fullmatch(r"[A-Za-z0-9.:\[\]-]{1,255}", host):
        host = address
    return f"http://{host}/#table={table_id}"


def _qr_svg(link: str, tables: Tables, table_id: str) -> bytes:
    """The join link as a QR code (segno, as SVG), for an existing table."""
    import io

    import segno

    tables.get(table_id)  # 404 for an unknown table
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=6, border=2, title="Join this table")
    return out.getvalue()


async def _body(scope: dict[str, Any], receive: Receive) -> bytes | None:
    """The request's body within MAX_BYTES, by its one Content-Length; None if the client left."""
    lengths = [value for name, value in scope["headers"] if name == b"content-length"]
    if not lengths:
        raise _refusal(HTTPStatus.LENGTH_REQUIRED, "input.length", "send the document with its Content-Length")
    if len(lengths) > 1:
        raise _refusal(HTTPStatus.BAD_REQUEST, "input.length", f"the request has {len(lengths)} Content-Length headers; send one")
    if any(name == b"transfer-encoding" for name, _ in scope["headers"]):  # its chunks would decide the body's end, not the Content-Length
        raise _refusal(HTTPStatus.BAD_REQUEST, "input.length", "send the document with its Content-Length only, not also a Transfer-Encoding")
    length = lengths[0].decode("latin-1")
    if not (length.isascii() and length.isdigit()) or len(length) > 18:  # h11 has checked it is ASCII digits; the length of them is ours to bound
        shown = length if len(length) <= 20 else length[:20] + "..."
        raise _refusal(HTTPStatus.BAD_REQUEST, "input.length", f"the Content-Length '{shown}' is not a number of bytes")
    size = int(length)
    if size > MAX_BYTES:
        raise _refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "input.too-large", f"the document is {size:,} bytes; the limit is {MAX_BYTES:,} bytes (2 MiB)")
    parts: list[bytes] = []
    received = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        parts.append(message.get("body", b""))
        received += len(parts[-1])
        if received > size:  # h11 ends the body at its Content-Length: never here, but the bound is this function's
            raise _refusal(HTTPStatus.BAD_REQUEST, "input.length", f"the body is longer than its Content-Length of {size:,} bytes")
        if not message.get("more_body", False):
            return b"".join(parts)


async def _left(receive: Receive) -> None:
    """Returns when the client has gone (uvicorn's receive waits for it once the body is read)."""
    while (await receive())["type"] != "http.disconnect":
        pass


# --- the connection ---


_CONTENT_LENGTH = re.compile(rb"^content-length[ \t]*:", re.IGNORECASE | re.MULTILINE)


class _Connection(H11Protocol):
    """uvicorn's HTTP/1.1 connection with the bounds it lacks: a request read whole within
    READ_SECONDS (uvicorn times out only idle connections between requests: a client sending a
    byte a second would hold its connection forever), and at most `bound` connections, the one
    that has waited longest for its request closed to let a new one in (idle clients never
    starve new ones, and the server never runs out of open files, where asyncio's accept would
    report every attempt). A request that is not well-formed HTTP gets a JSON 400."""

    bound = CONNECTIONS
    read_seconds = READ_SECONDS
    waiting_since: float | None = None  # when the connection began waiting for its request; None while it is answered
    clock: asyncio.TimerHandle | None = None
    head: bytes | None = None  # the request's headers as received so far, until their end is seen

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._wait()
        if len(self.connections) > self.bound:  # (closed connections stay in the set for a turn of the loop: counted again below)
            open_ = [c for c in self.connections if isinstance(c, _Connection) and not c.transport.is_closing()]
            if len(open_) <= self.bound:
                return
            waiting = [c for c in open_ if c is not self and c.waiting_since is not None]
            if waiting:
                oldest = min(waiting, key=lambda c: c.waiting_since or 0.0)
                oldest._stop_clock()
                oldest.waiting_since = None
                oldest.transport.close()
            else:  # every connection is being answered: this one is refused at once
                self._refuse(HTTPStatus.SERVICE_UNAVAILABLE, "server.busy", f"the server is answering {self.bound} connections; try again in a moment")

    def data_received(self, data: bytes) -> None:
        if self.head is not None:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end >= 0 or len(self.head) > HEADER_BYTES:
                lengths = len(_CONTENT_LENGTH.findall(self.head, 0, end if end >= 0 else len(self.head)))
                self.head = None
                if end < 0 or end > HEADER_BYTES:  # (h11 bounds only headers still incomplete, not ones that came in one piece)
                    self._refuse(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "input.request", f"the request's line and headers are over {HEADER_BYTES // 1024} KiB")
                    return
                if lengths > 1:  # h11 keeps one of equal Content-Lengths; two are refused, as two different ones are
                    self._refuse(HTTPStatus.BAD_REQUEST, "input.length", f"the request has {lengths} Content-Length headers; send one")
                    return
        try:
            super().data_received(data)
        except Exception:  # h11 raises a few malformed requests as other errors than its own: answered, not reported
            self.send_400_response("")
            return
        if self.waiting_since is not None and not self._reading():
            self._stop_clock()
            self.waiting_since = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self._reading():
            self._wait()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_clock()
        self.waiting_since = None
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request h11 cannot read (a bad Content-Length, headers over
        HEADER_BYTES, a broken request line), as JSON with a rule."""
        self._refuse(HTTPStatus.BAD_REQUEST, "input.request", "the request is not well-formed HTTP/1.1 (its request line, a header or its Content-Length)")

    def _reading(self) -> bool:
        """The connection waits for a request, or for the rest of one."""
        return self.cycle is None or self.cycle.response_complete or self.cycle.more_body

    def _wait(self) -> None:
        self._stop_clock()
        self.waiting_since = self.loop.time()
        self.head = b""
        self.clock = self.loop.call_later(self.read_seconds, self._too_slow)

    def _stop_clock(self) -> None:
        if self.clock is not None:
            self.clock.cancel()
            self.clock = None

    def _too_slow(self) -> None:
        self.clock = None
        if self.transport.is_closing() or not self._reading():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the application reading the body is told the client left
        if self.cycle is None or not self.cycle.response_started:
            self._refuse(HTTPStatus.REQUEST_TIMEOUT, "input.timeout", f"the request was not sent whole within {self.read_seconds:g} s")
        else:
            self.transport.close()

    def _refuse(self, status: HTTPStatus, rule: str, message: str) -> None:
        """Answer `status` with a JSON diagnostic and close, whatever state h11 is in."""
        payload = _json(_errors([Diagnostic(rule, message, None, READ_ERROR)]))
        head = f"HTTP/1.1 {status.value} {status.phrase}\r\ncontent-type: application/json\r\ncontent-length: {len(payload)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n"
        if self.cycle is not None:
            self.cycle.disconnected = True  # nothing more is written on this connection
        self.transport.write(head.encode() + payload)
        self.transport.close()


# --- the server ---


def _connection_bound() -> int:
    """CONNECTIONS, or fewer when the limit of open files would be reached before: half of
    what is left of it, as sockets accepted in a burst, or closed to make room, still hold their
    file for a turn of the event loop (out of files, asyncio's accept reports each attempt, a
    thousand lines a second, in Python 3.11)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return CONNECTIONS
    return max(8, min(CONNECTIONS, (soft - FILES_KEPT) // 2))


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port): an address, or a name resolved to its first address."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = min(found, key=lambda info: info[0] != socket.AF_INET)  # IPv4 first, as http.server bound: `localhost` is 127.0.0.1
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart finds its port free at once
        listener.bind(address)
        listener.listen(BACKLOG)
    except OSError:
        listener.close()
        raise
    listener.setblocking(False)
    return listener


_REPORTED: dict[str, float] = {}  # each report's last time on the terminal


def _quiet(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's reports (a socket error it cannot recover from) as one line, no
    traceback, the same one at most once a minute."""
    exception = context.get("exception")
    line = f"referee serve: {context.get('message', 'error')}{f' ({exception})' if exception else ''}"
    if loop.time() - _REPORTED.get(line, -60.0) >= 60.0:
        _REPORTED[line] = loop.time()
        print(line, file=sys.stderr, flush=True)


class _Uvicorn(uvicorn.Server):
    """uvicorn's server, which stops the calculations when it begins to stop."""

    def __init__(self, config: uvicorn.Config, api: _Api) -> None:
        super().__init__(config)
        self.api = api

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.api.stop()
        await super().shutdown(sockets)


class Server:
    """A server bound to its address, not yet serving: `serve_forever()` serves (in any thread),
    `shutdown()` stops it from another, `server_close()` frees the address."""

    def __init__(self, host: str, port: int, ship_seconds: float = SHIP_SECONDS, read_seconds: float = READ_SECONDS, database: Path | None = None) -> None:
        tables = Tables(database if database is not None else default_database())
        tables.check()  # a database that cannot be used: StoreError, one line at the start
        self.socket = _bind(host, port)
        self.server_address: tuple[str, int] = self.socket.getsockname()[:2]
        self.api = _Api(ship_seconds, tables)
        self.api._address = f"{host if ':' not in host else f'[{host}]'}:{self.server_address[1]}"
        connection = type("Connection", (_Connection,), {"bound": _connection_bound(), "read_seconds": read_seconds})
        self.config = uvicorn.Config(
            self.api,
            http=connection,
            ws="none",
            lifespan="off",
            interface="asgi3",
            log_config=None,
            log_level="error",  # uvicorn's start-up lines and its warning for every bad request stay off the terminal
            access_log=False,  # the terminal shows the address, not every request
            proxy_headers=False,
            server_header=False,
            timeout_keep_alive=int(KEEP_ALIVE_SECONDS),
            timeout_graceful_shutdown=2,  # Ctrl-C waits no longer for a running calculation
            h11_max_incomplete_event_size=HEADER_BYTES,
            backlog=BACKLOG,
        )
        self.uvicorn = _Uvicorn(self.config, self.api)
        reports = logging.getLogger("uvicorn")
        if not any(isinstance(handler, _OneLine) for handler in reports.handlers):
            reports.addHandler(_OneLine())
            reports.propagate = False  # not to the root logger, whose last resort prints tracebacks
        self.stopped = threading.Event()

    def serve_forever(self) -> None:
        """Serve until `shutdown()` or Ctrl-C (KeyboardInterrupt, after the connections close)."""
        self.stopped.clear()
        try:
            asyncio.run(self._serve())
        finally:
            self.stopped.set()

    async def _serve(self) -> None:
        asyncio.get_running_loop().set_exception_handler(_quiet)
        await self.uvicorn.serve(sockets=[self.socket])

    def shutdown(self) -> None:
        self.uvicorn.should_exit = True
        self.stopped.wait(10)

    def server_close(self) -> None:
        self.socket.close()
        self.api.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.server_close()


def make_server(host: str, port: int, ship_seconds: float = SHIP_SECONDS, read_seconds: float = READ_SECONDS, database: Path | None = None) -> Server:
    """A server bound to (host, port) (port 0: any free one), not yet serving; its tables kept
    in `database` (None: `default_database()`, made on first use)."""
    return Server(host, port, ship_seconds, read_seconds, database)


def default_database() -> Path:
    """Where the tables are kept unless `--database` says: the user's data folder."""
    import platformdirs

    return platformdirs.user_data_path("referee", appauthor=False) / "tables.sqlite3"


def serve(host: str, port: int, open_browser: bool, database: Path | None = None) -> None:
    """Serve until interrupted (Ctrl-C)."""
    server = make_server(host, port, database=database)
    address = f"http://{host if ':' not in host else f'[{host}]'}:{server.server_address[1]}/"
    print(f"referee serves the score sheet, the shipping calculator and the log check at {address} (Ctrl-C stops it)", flush=True)
    if open_browser:
        import webbrowser

        threading.Timer(0.3, webbrowser.open, args=(address,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


class _OneLine(logging.Handler):
    """uvicorn's errors on the terminal, each as one line (its tracebacks left out)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"referee serve: {record.getMessage().strip()}", file=sys.stderr, flush=True)

