"""`referee serve`: the score sheet, the shipping calculator and the log check as one page in the
browser, and the JSON API behind it, served from this machine by the standard library's server.

- `GET /` the page (referee/web/index.html: everything it needs is served from here, offline);
  `GET /api/rulesets` and `GET /api/rules/NAME` the bundled rulesets' data, for the page's lists.
- `POST /api/validate`, `/api/score-sheet`, `/api/ship` take a game log, a score sheet, a
  shipping position (YAML or JSON, as the documents of the command line) and answer with the
  JSON of `referee validate`, `referee score --sheet` and `referee ship --format json`. A document
  that is read and checked is answered 200 (its verdict inside); one that cannot be read, 400
  with the same diagnostics as the command line.
- Bad input never breaks the server: bodies over 2 MiB are refused (413); a calculator request
  that runs past its time limit is stopped and answered 503 while the others are served; no
  request reads or writes a file of the machine (a document naming a ruleset by path is refused
  with 400: the server knows only the bundled rulesets).

Nothing here is imported by the other commands.
"""

from __future__ import annotations

import json
import multiprocessing
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from referee.diagnostics import READ_ERROR, Diagnostic, InputError
from referee.output import json_text
from referee.source import MAX_BYTES

SHIP_SECONDS = 20.0  # a calculator request's time limit
PAGE = "web/index.html"


class Refused(Exception):
    """A request answered with an error status and a JSON body (the same shape as the answers)."""

    def __init__(self, status: HTTPStatus, body: dict[str, Any]) -> None:
        super().__init__(body)
        self.status = status
        self.body = body


def make_server(host: str, port: int, ship_seconds: float = SHIP_SECONDS) -> ThreadingHTTPServer:
    """A server bound to (host, port) (port 0: any free one), not yet serving."""

    class Handler(_Handler):
        limit = ship_seconds

    server = _Server((host, port), Handler)
    server.daemon_threads = True
    return server


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # the standard library's 5 resets the connections of a busy table's clients


class _Handler(BaseHTTPRequestHandler):
    server_version = "referee"
    limit = SHIP_SECONDS

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal that runs `referee serve` shows its address, not every request."""

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        try:
            if path in ("/", "/index.html"):
                page = resources.files("referee").joinpath(PAGE).read_bytes()
                self._send(HTTPStatus.OK, page, "text/html; charset=utf-8")
            elif path == "/api/rulesets":
                from referee.rulesets.load import bundled_rulesets

                self._json(HTTPStatus.OK, {"rulesets": bundled_rulesets()})
            elif path.startswith("/api/rules/"):
                self._json(HTTPStatus.OK, _rules(path.removeprefix("/api/rules/")))
            else:
                raise Refused(HTTPStatus.NOT_FOUND, {"error": f"no page at {path}"})
        except Refused as refused:
            self._json(refused.status, refused.body)
        except Exception as exc:  # a bug in referee (a page missing from the install): answered
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": f"referee failed ({type(exc).__name__}: {exc})"})

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        try:
            job = _JOBS.get(path)
            if job is None:
                raise Refused(HTTPStatus.NOT_FOUND, {"error": f"no API at {path}: POST to {', '.join(_JOBS)}"})
            data = self._body()
            _bundled_ruleset_only(data)
            if path == "/api/ship":
                status, body = _in_a_process(job, data, self.limit)
            else:
                status, body = job(data)
            self._json(status, body)
        except Refused as refused:
            self._json(refused.status, refused.body)
        except Exception as exc:  # a bug in referee: answered, never a dropped connection
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR, _errors([Diagnostic("internal.error", f"referee failed on this document ({type(exc).__name__}: {exc})", None, READ_ERROR)]))

    def _body(self) -> bytes:
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            raise Refused(HTTPStatus.LENGTH_REQUIRED, _errors([Diagnostic("input.length", "send the document with its Content-Length", None, READ_ERROR)]))
        size = int(length)
        if size > MAX_BYTES:
            self.close_connection = True  # the body is not read: the connection cannot be reused
            raise Refused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, _errors([Diagnostic("input.too-large", f"the document is {size:,} bytes; the limit is {MAX_BYTES:,} bytes (2 MiB)", None, READ_ERROR)]))
        return self.rfile.read(size)

    def _json(self, status: HTTPStatus, body: dict[str, Any]) -> None:
        self._send(status, json_text(body).encode(), "application/json")

    def _send(self, status: HTTPStatus, payload: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(payload)


def _errors(diagnostics: list[Diagnostic], file: str = "document") -> dict[str, Any]:
    from referee.render.report import diagnostic_json

    return {"file": file, "valid": False, "errors": [diagnostic_json(d, file) for d in diagnostics]}


def _bundled_ruleset_only(data: bytes) -> None:
    """Refuse (400) a document that names a ruleset by path: the server reads no file."""
    from referee.rulesets.load import bundled_rulesets, names_a_file
    from referee.source import read_yaml

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
    from referee.check import check_log
    from referee.render.report import report_object

    report = check_log(data, "document", None, True, None)
    return _status(report.exit_code), report_object(report)


def _score_sheet(data: bytes) -> tuple[HTTPStatus, dict[str, Any]]:
    from referee.render.report import report_object
    from referee.sheet import score_sheet

    report = score_sheet(data, "document")
    return _status(report.exit_code), report_object(report)


def _ship(data: bytes) -> tuple[HTTPStatus, dict[str, Any]]:
    from referee.ship_command import ship_report

    pieces, code = ship_report(data, "document", None, None, None, None, True)
    return _status(code), json.loads("".join(pieces))


_JOBS = {"/api/validate": _validate, "/api/score-sheet": _score_sheet, "/api/ship": _ship}


def _rules(name: str) -> dict[str, Any]:
    """A bundled ruleset's data for the page: its words, names of goods, roles, buildings (with
    their circles, and whether they act in a captain phase), player counts."""
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
        "quarry": model.quarry.name,
        "buildings": [
            {"id": b.id, "name": b.name, "large": b.size == 2, "violet": b.kind.endswith("violet"), "cost": b.cost, "circles": b.circles, "captain": b.effect is not None and b.effect.id in captain}
            for b in model.buildings
        ],
        "forests": bool(rules.with_effect("settle.forest")),
        "selection": model.selection is not None,
    }


def _in_a_process(job: Any, data: bytes, seconds: float) -> tuple[HTTPStatus, dict[str, Any]]:
    """`job(data)` in a process of its own, stopped after `seconds` (503): a long calculation
    holds one process, never the server."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_run_and_send, args=(job, data, send), daemon=True)
    process.start()
    send.close()
    try:
        if not receive.poll(seconds):
            process.terminate()
            process.join(5)
            message = f"the calculation took longer than the server's limit of {seconds:g} s and was stopped; `referee ship` on the command line has no limit"
            raise Refused(HTTPStatus.SERVICE_UNAVAILABLE, _errors([Diagnostic("server.time-limit", message, None, READ_ERROR)]))
        try:
            status, body = receive.recv()
        except EOFError:  # the process died (out of memory): answered, the server goes on
            raise Refused(HTTPStatus.SERVICE_UNAVAILABLE, _errors([Diagnostic("server.failed", "the calculation's process ended without an answer", None, READ_ERROR)])) from None
        return HTTPStatus(status), body
    finally:
        receive.close()
        process.join(1)


def _run_and_send(job: Any, data: bytes, send: Any) -> None:
    try:
        status, body = job(data)
    except Exception as exc:  # reported to the parent, which answers it
        status, body = HTTPStatus.INTERNAL_SERVER_ERROR, _errors([Diagnostic("internal.error", f"referee failed ({type(exc).__name__}: {exc})", None, READ_ERROR)])
    send.send((int(status), body))
    send.close()


def serve(host: str, port: int, open_browser: bool) -> None:
    """Serve until interrupted (Ctrl-C)."""
    server = make_server(host, port)
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
