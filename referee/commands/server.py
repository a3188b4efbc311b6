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

The rooms: the endpoints' jobs and the page (`api`, a JSON endpoint one entry in its
`POSTS`), the calculations' processes (`calculations`), what is read of a request (`request`),
the tables of phones (`tables`); here, the application that routes them, and its connections.

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
import logging
import multiprocessing
import re
import resource
import socket
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from referee.commands.api import POSTS, Post, Refused, bundled_ruleset_only, error_body, get_page, json_bytes, refusal
from referee.commands.calculations import in_a_process, start_processes
from referee.commands.request import Receive, Send, bearer, event_bytes, from_this_machine, has_length, join_link, last_event_id, left, read_whole_body
from referee.commands.tables import SEATS_MAX, TableRefused, Tables, read_body, store_failure
from referee.diagnostics import READ_ERROR, Diagnostic
from referee.jobs.table_store import Change, StoreError

SHIP_SECONDS = 20.0  # a calculator request's time limit
READ_SECONDS = 20.0  # a request (headers and body) read whole within this, or the connection is closed: a slow client cannot hold a connection
KEEP_ALIVE_SECONDS = 5.0  # an idle connection between two requests is closed after this
HEADER_BYTES = 16 * 1024  # the request line and headers: a browser sends under 2 KiB
CONNECTIONS = 512  # at most this many connections at once (fewer under a low limit of open files)
FILES_KEPT = 128  # open files kept free of connections: the listening socket, the calculations' pipes, the page
BACKLOG = 128  # connections waiting to be accepted; asyncio also accepts up to this many at once, before any is counted
JOB_THREADS = 4  # the in-process jobs (a log checked, a sheet scored) run in these threads, never in the event loop
CALCULATIONS = max(2, multiprocessing.cpu_count())  # calculations at once; the others wait their turn (within SHIP_SECONDS)



# --- the application (ASGI) ---



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
        self.processes = start_processes()
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
                status, payload, kind = await asyncio.get_running_loop().run_in_executor(self.threads, get_page, path)
            elif method == "POST":
                whole = False
                post = POSTS.get(path)
                if post is None:
                    raise Refused(HTTPStatus.NOT_FOUND, {"error": f"no API at {path}: POST to {', '.join(POSTS)}"})
                data = await read_whole_body(scope, receive)
                if data is None:
                    return  # the client left: nobody to answer
                whole = True
                answer = await self._run(post, data, receive, scope.get("query_string", b"").decode("latin-1"))
                if answer is None:
                    return
                status, payload, kind = answer[0], json_bytes(answer[1]), "application/json"
            else:
                raise Refused(HTTPStatus.NOT_IMPLEMENTED, {"error": f"{method} is not served here: GET the page or POST to {', '.join(POSTS)}"})
        except Refused as refused:
            status, payload, kind = refused.status, json_bytes(refused.body), "application/json"
        except asyncio.CancelledError:  # uvicorn stops waiting for a request at its shutdown: answered, not reported as a failure
            status, payload, kind = HTTPStatus.SERVICE_UNAVAILABLE, json_bytes(error_body([Diagnostic("server.stopped", "the server was stopped before the answer was ready", None, READ_ERROR)])), "application/json"
        except Exception as exc:  # a bug in referee (a page missing from the install): answered, never a dropped connection
            status, kind = HTTPStatus.INTERNAL_SERVER_ERROR, "application/json"
            if method == "POST":
                payload = json_bytes(error_body([Diagnostic("internal.error", f"referee failed on this document ({type(exc).__name__}: {exc})", None, READ_ERROR)]))
            else:
                payload = json_bytes({"error": f"referee failed ({type(exc).__name__}: {exc})"})
        headers = [(b"content-type", kind.encode()), (b"content-length", str(len(payload)).encode()), (b"cache-control", b"no-store")]
        if not whole:
            headers.append((b"connection", b"close"))  # the body is not read: the connection cannot be reused
        await send({"type": "http.response.start", "status": int(status), "headers": headers})
        await send({"type": "http.response.body", "body": payload})

    async def _run(self, post: Post, data: bytes, receive: Receive, query: str = "") -> tuple[HTTPStatus, dict[str, Any]] | None:
        """The job's answer; None when the client left before it (a calculation is then stopped)."""
        loop = asyncio.get_running_loop()
        job = post.with_query(query)
        await loop.run_in_executor(self.threads, bundled_ruleset_only, data)
        if not post.calculation:
            return await loop.run_in_executor(self.threads, job, data)
        if self.free is None:
            self.free = asyncio.Semaphore(CALCULATIONS)
        try:
            await asyncio.wait_for(self.free.acquire(), self.ship_seconds)
        except TimeoutError:
            message = f"the server's {CALCULATIONS} calculations were busy for longer than its limit of {self.ship_seconds:g} s; try again, or `referee ship` on the command line"
            raise refusal(HTTPStatus.SERVICE_UNAVAILABLE, "server.time-limit", message) from None
        abandoned = threading.Event()
        self.running.add(abandoned)
        if self.stopping:  # (after the add: a stop from now on sees this calculation)
            abandoned.set()
        try:
            calculation = loop.run_in_executor(self.waiting, in_a_process, self.processes, job, data, self.ship_seconds, abandoned)
            leaving = asyncio.ensure_future(left(receive))
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
        token = bearer(scope)
        tables = self.tables
        run = self._in_a_thread
        try:
            data = b""
            if method == "POST" or (method == "DELETE" and has_length(scope)):  # read first: the connection then serves another request
                read = await read_whole_body(scope, receive)
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
                    status, answer = await run(tables.create, body, partial(join_link, scope, self.address))
                elif method == "DELETE" and table_id is not None and action is None:
                    status, answer = await run(tables.delete, table_id, token)
                elif method == "POST" and action in ("seats", "moves", "undo") and table_id is not None:
                    status, answer = await run({"seats": tables.seat, "moves": tables.move, "undo": tables.undo}[action], table_id, body, token)
                else:
                    raise TableRefused(HTTPStatus.NOT_FOUND, "table.path", f"no {method} at {path}")
                return status, json_bytes(answer), "application/json"
            if method != "GET":
                raise TableRefused(HTTPStatus.METHOD_NOT_ALLOWED, "table.method", f"{method} is not served at {path}")
            if table_id is None:
                if not from_this_machine(scope):
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
                svg = await run(_qr_svg, join_link(scope, self.address, table_id), tables, table_id)
                return HTTPStatus.OK, svg, "image/svg+xml"
            elif action == "events":
                await self._events(table_id, scope, receive, send)
                return None
            else:
                raise TableRefused(HTTPStatus.NOT_FOUND, "table.path", f"no API at {path}")
            return status, json_bytes(answer), "application/json"
        except TableRefused as refused:
            return refused.status, json_bytes(refused.body), "application/json"
        except Refused as refused:  # a body over its bound, a missing length
            return refused.status, json_bytes(refused.body), "application/json"

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
            sent = last_event_id(scope)
            if sent is not None:
                try:
                    missed = await self._in_a_thread(self.tables.store.changes_after, table_id, sent)
                except TableRefused:  # the database failed after the stream began: it ends, and the client reconnects
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    return
                for change in missed:
                    await send({"type": "http.response.body", "body": event_bytes(change), "more_body": True})
                    sent = change.number
            leaving = asyncio.ensure_future(left(receive))
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
                            await send({"type": "http.response.body", "body": event_bytes(change), "more_body": True})
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


def _qr_svg(link: str, tables: Tables, table_id: str) -> bytes:
    """The join link as a QR code (segno, as SVG), for an existing table."""
    import io

    import segno

    tables.get(table_id)  # 404 for an unknown table
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=6, border=2, title="Join this table")
    return out.getvalue()


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
        payload = json_bytes(error_body([Diagnostic(rule, message, None, READ_ERROR)]))
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

