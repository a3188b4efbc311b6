"""`POST /api/next` through a real HTTP client: the same object as `referee next --format json`,
`?limit=N` as `--limit N`, bad logs and bad queries answered as the other endpoints answer them;
and `/api/rules` with what the page's table companion needs (columns, VP, the selection)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.client import HTTPConnection

import pytest

from referee.commands.server import make_server
from tests.conftest import FIXTURES, QUARRY_LOG


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    httpd = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[0], httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def post(server: tuple[str, int], path: str, body: bytes) -> tuple[int, dict]:
    connection = HTTPConnection(*server, timeout=60)
    connection.request("POST" if body is not None else "GET", path, body=body)
    response = connection.getresponse()
    payload = json.loads(response.read())
    connection.close()
    return response.status, payload


def cli(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "referee", "next", "--format", "json", *args], capture_output=True, text=True)
    return json.loads(done.stdout)


def test_next_answers_the_object_of_the_command_line(server):
    for fixture in ("next-builder.yaml", "formats-log.yaml", "game-3p.yaml"):
        status, body = post(server, "/api/next", (FIXTURES / fixture).read_bytes())
        expected = cli(str(FIXTURES / fixture))
        assert status == 200
        assert {**body, "file": None} == {**expected, "file": None}
    status, body = post(server, "/api/next", (FIXTURES / "next-builder.yaml").read_bytes())
    assert body["decision"] == {"player": "Cleo", "phase": "builder", "kind": "move", "moves": ["pass", "small market for 1"]}


def test_a_move_appended_to_the_log_sent_back_as_json_is_answered(server):
    status, body = post(server, "/api/next", (FIXTURES / "next-builder.yaml").read_bytes())
    log = body["log"]
    log["phases"][-1]["moves"].append({"Cleo": body["decision"]["moves"][1]})
    status, after = post(server, "/api/next", json.dumps(log).encode())
    assert status == 200 and after["valid"] and after["decision"]["player"] == "Anna"
    assert next(p["buildings"] for p in after["state"]["players"] if p["name"] == "Cleo")[-1]["building"] == "Small Market"


def test_a_limit_cuts_the_list_and_counts_it(server):
    status, body = post(server, "/api/next?limit=1", (FIXTURES / "next-builder.yaml").read_bytes())
    assert status == 200 and body["decision"]["moves"] == ["pass"] and body["decision"]["truncated"] is True and body["decision"]["count"] == 2


@pytest.mark.parametrize("query", ["limit=0", "limit=x", "limit=", "limit=1&limit=2", "depth=3"])
def test_a_bad_query_is_a_bad_request_never_ignored(server, query):
    status, body = post(server, f"/api/next?{query}", (FIXTURES / "next-builder.yaml").read_bytes())
    assert status == 400 and body["errors"][0]["rule"] == "input.query"


def test_a_query_on_an_endpoint_that_takes_none_is_refused(server):
    status, body = post(server, "/api/validate?limit=3", (FIXTURES / "game-3p.yaml").read_bytes())
    assert status == 400 and "takes none" in body["errors"][0]["message"]


def test_a_broken_log_is_answered_with_its_rule_and_an_unreadable_one_with_400(server):
    status, body = post(server, "/api/next", QUARRY_LOG.encode())
    assert status == 200 and body["valid"] is False and body["decision"] is None and body["errors"][0]["rule"] == "settler.quarry"
    status, body = post(server, "/api/next", b"ruleset: base\nplayers: [Anna]\n")
    assert status == 400 and body["valid"] is False and body["decision"] is None


def test_the_rules_give_columns_prices_and_the_selection(server):
    status, base = post(server, "/api/rules/base", None)  # type: ignore[arg-type]
    harbor = next(b for b in base["buildings"] if b["name"] == "Harbor")
    assert status == 200 and (harbor["cost"], harbor["column"], harbor["vp"]) == (8, 3, 3) and base["selection"] is None
    status, expansion = post(server, "/api/rules/expansion-1", None)  # type: ignore[arg-type]
    selection = expansion["selection"]
    assert [slot["spaces"] for slot in selection["slots"]] and all(slot["buildings"] for slot in selection["slots"])
    assert selection["exclusive"] and all(len(group) >= 2 for group in selection["exclusive"])


def test_review_answers_the_object_of_the_command_line_and_400_for_a_log_it_cannot_read(server):
    status, body = post(server, "/api/review", (FIXTURES / "game-4p.yaml").read_bytes())
    done = subprocess.run([sys.executable, "-m", "referee", "review", "--format", "json", "-"], input=(FIXTURES / "game-4p.yaml").read_text(), capture_output=True, text=True)
    expected = json.loads(done.stdout)
    assert status == 200 and body["players"]["Dev"]["lost"] == 1
    assert {**body, "file": "-"} == {**expected, "file": "-"}
    status, body = post(server, "/api/review", b"ruleset: base\nplayers: [Ana]\n")
    assert status == 400 and body["valid"] is False and body["errors"]
