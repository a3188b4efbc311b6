"""The server's JSON endpoints (`referee serve`, docs/formats/commands.md): each `POST` a job
`(data: bytes) -> (HTTPStatus, dict)`, the JSON of the command it stands for; the page and the
bundled rulesets' data for `GET`; and the refusals, in the diagnostics' shape.

A JSON endpoint is one entry in `POSTS`: its path and a job run in a thread of the server
(`Post(job)`), or in a process of its own, stopped at the time limit (`Post(job,
calculation=True)`, for the shipping calculator's searches: `calculations`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from importlib import resources
from typing import Any

from referee.diagnostics import READ_ERROR, Diagnostic, InputError
from referee.ground.wording import json_text

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
            raise refusal(HTTPStatus.BAD_REQUEST, "input.query", f"the query parameter {unknown[0]!r} is not taken here (or is given twice); {takes}")
        return partial(self.job, **dict(given)) if given else self.job


class Refused(Exception):
    """A request answered with an error status and a JSON body (the same shape as the answers)."""

    def __init__(self, status: HTTPStatus, body: dict[str, Any]) -> None:
        super().__init__(body)
        self.status = status
        self.body = body


def error_body(diagnostics: list[Diagnostic], file: str = "document") -> dict[str, Any]:
    """A refusal's JSON: the shape of a document that could not be read (`valid: false`)."""
    from referee.render.report import diagnostic_json

    return {"file": file, "valid": False, "errors": [diagnostic_json(d, file) for d in diagnostics]}


def refusal(status: HTTPStatus, rule: str, message: str) -> Refused:
    """A request refused with `status`, one diagnostic of `rule` saying `message`."""
    return Refused(status, error_body([Diagnostic(rule, message, None, READ_ERROR)]))


def bundled_ruleset_only(data: bytes) -> None:
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
        raise Refused(HTTPStatus.BAD_REQUEST, error_body([Diagnostic("ruleset.not-bundled", message, node.location, READ_ERROR)]))


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
        raise refusal(HTTPStatus.BAD_REQUEST, "input.query", f"limit is the number of moves to list, a whole number from 1 to 1,000,000, not {limit[:20]!r}")
    places = [place.strip() for place in guests.split(",")] if guests is not None else None
    if places is not None and (len(guests or "") > 400 or not all(places)):
        raise refusal(HTTPStatus.BAD_REQUEST, "input.query", "guests is the places a guest goes to, as the log writes them, separated by commas: guests=quarry,harbor")
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
    """A bundled ruleset's data for the page (`render.ruleset_page`); 404 for another name."""
    from referee.render.ruleset_page import ruleset_object
    from referee.rulesets.load import bundled_rulesets, load_ruleset

    if name not in bundled_rulesets():
        raise Refused(HTTPStatus.NOT_FOUND, {"error": f"no bundled ruleset '{name}' ({', '.join(bundled_rulesets())})"})
    return ruleset_object(load_ruleset(name))


def get_page(path: str) -> tuple[HTTPStatus, bytes, str]:
    """The page or a ruleset's data: (status, payload, content type)."""
    if path in ("/", "/index.html"):
        return HTTPStatus.OK, resources.files("referee.commands").joinpath(PAGE).read_bytes(), "text/html; charset=utf-8"
    if path == "/api/rulesets":
        from referee.rulesets.load import bundled_rulesets

        return HTTPStatus.OK, json_bytes({"rulesets": bundled_rulesets()}), "application/json"
    if path.startswith("/api/rules/"):
        return HTTPStatus.OK, json_bytes(_rules(path.removeprefix("/api/rules/"))), "application/json"
    raise Refused(HTTPStatus.NOT_FOUND, {"error": f"no page at {path}"})


def json_bytes(body: dict[str, Any]) -> bytes:
    """An answer's JSON as it is sent (`json_text`: safe for any reader)."""
    return json_text(body).encode()
