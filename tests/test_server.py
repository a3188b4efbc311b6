"""`referee serve`'s JSON API through a real HTTP client, against a server started in the test:
the three jobs answer as the command line does, bad input never breaks the server, a long
calculation is stopped with 503 while others are served, and no request reads a file."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPConnection
from pathlib import Path

import pytest

from referee.commands.server import make_server
from tests.conftest import FIXTURES, ONE_AT_A_TIME, QUARRY_LOG

pytestmark = ONE_AT_A_TIME  # calculations stopped at a time limit of 2 s, and a port taken

BROKEN = QUARRY_LOG
WORST = (FIXTURES / "positions" / "minutes.yaml").read_text()  # minutes in any build: stopped at the limit


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    httpd = make_server("127.0.0.1", 0, ship_seconds=2.0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[0], httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def request(server: tuple[str, int], method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    connection = HTTPConnection(*server, timeout=60)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    kind = response.getheader("Content-Type", "")
    return response.status, json.loads(payload) if kind.startswith("application/json") else {"html": payload.decode()}


def cli_json(*args: str) -> dict:
    return json.loads(subprocess.run([sys.executable, "-m", "referee", *args, "--format", "json"], capture_output=True, text=True).stdout)


def test_the_page_is_served(server):
    status, body = request(server, "GET", "/")
    assert status == 200 and "<html" in body["html"].lower()


def test_validate_answers_as_the_command_line(server):
    status, body = request(server, "POST", "/api/validate", (FIXTURES / "game-3p.yaml").read_bytes())
    assert status == 200
    assert body["valid"] and body["complete"] and [(s["player"], s["total"]) for s in body["scores"]] == [("Ines", 44), ("Marek", 40), ("Tobias", 41)]
    status, body = request(server, "POST", "/api/validate", BROKEN.encode())
    assert status == 200 and body["valid"] is False  # read and checked: the verdict is inside
    assert [(e["rule"], e["line"]) for e in body["errors"]] == [("settler.quarry", 8)]


def test_a_game_in_progress_says_whose_turn_and_scores_provisionally(server):
    status, body = request(server, "POST", "/api/validate", (FIXTURES / "formats-log.yaml").read_bytes())
    assert status == 200 and body["complete"] is False
    assert "Ben chooses a role" in body["waiting"] and body["provisional"] is True and len(body["scores"]) == 3


def test_score_sheet_answers_as_the_command_line(server):
    path = FIXTURES / "sheets" / "sheet-3p.yaml"
    status, body = request(server, "POST", "/api/score-sheet", path.read_bytes())
    assert status == 200
    expected = cli_json("score", "--sheet", str(path))
    assert body["scores"] == expected["scores"]
    assert [(s["player"], s["total"]) for s in body["scores"]] == [("Anna", 54), ("Ben", 45), ("Cleo", 37)]


def test_a_score_sheet_sent_as_json_is_read(server):
    sheet = {"ruleset": "base", "players": {"Anna": {"chips": 20, "buildings": ["harbor"]}, "Ben": {"chips": 18}, "Cleo": {"chips": 3}}}
    status, body = request(server, "POST", "/api/score-sheet", json.dumps(sheet).encode(), {"Content-Type": "application/json"})
    assert status == 200 and [(s["player"], s["total"]) for s in body["scores"]] == [("Anna", 23), ("Ben", 18), ("Cleo", 3)]


def test_ship_answers_as_the_command_line(server):
    path = FIXTURES / "positions" / "formats-example.yaml"
    status, body = request(server, "POST", "/api/ship", path.read_bytes())
    assert status == 200
    expected = cli_json("ship", str(path))
    assert {k: v for k, v in body.items() if k != "file"} == {k: v for k, v in expected.items() if k != "file"}
    assert [(name, p["vp"]["guaranteed"], p["vp"]["expected"], p["vp"]["best"]) for name, p in body["players"].items()] == [("Anna", 9, 9, 10), ("Ben", 4, 4, 4), ("Cleo", 0, 1, 1)]


def test_a_document_that_cannot_be_read_gets_the_command_lines_diagnostics_with_400(server):
    status, body = request(server, "POST", "/api/validate", b"ruleset: base\nplayers: Anna, Ben, Cleo\n")
    assert status == 400
    assert any(e["message"].startswith("players is a list, in seating order") and e["line"] == 2 for e in body["errors"])
    status, body = request(server, "POST", "/api/ship", b"ruleset: base\nships: [4, 5]\n")
    assert status == 400 and body["errors"]


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/api/validate", b"ruleset: ../../etc/passwd\nplayers: [A, B, C]\n", 400),
        ("/api/score-sheet", b"ruleset: /etc/passwd\nplayers: {A: {chips: 1}}\n", 400),
        ("/api/ship", b'{"ruleset": "rules/mine.yaml", "ships": {}, "players": []}', 400),
        ("/api/validate", b"{not json at all", 400),
        ("/api/validate", b"\x00\x01binary", 400),
        ("/api/validate", b"ruleset: basic\n", 400),
        ("/api/nothing", b"x", 404),
    ],
    ids=["path-up", "absolute-path", "relative-path", "bad-json", "binary", "unknown-ruleset", "unknown-api"],
)
def test_hostile_requests_get_4xx_and_the_server_stays_up(server, path, body, status):
    got, answer = request(server, "POST", path, body)
    assert got == status, answer
    if path != "/api/nothing" and "ruleset:" in body.decode(errors="replace") and b"basic" not in body:
        assert answer["errors"][0]["rule"] == "ruleset.not-bundled"
    assert request(server, "GET", "/api/rulesets")[0] == 200  # still serving


def test_a_body_over_2_mib_is_refused_with_413(server):
    connection = HTTPConnection(*server, timeout=30)
    connection.putrequest("POST", "/api/validate")
    connection.putheader("Content-Length", str(3 * 1024 * 1024))
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413 and json.loads(response.read())["errors"][0]["rule"] == "input.too-large"
    connection.close()
    assert request(server, "GET", "/api/rulesets")[0] == 200


def test_a_long_calculation_is_stopped_with_503_while_others_are_served(server):
    with ThreadPoolExecutor(2) as pool:
        slow = pool.submit(request, server, "POST", "/api/ship", WORST.encode())
        time.sleep(0.2)
        start = time.perf_counter()
        quick = request(server, "POST", "/api/validate", (FIXTURES / "game-2p.yaml").read_bytes())
        assert quick[0] == 200 and time.perf_counter() - start < 2.0  # served while the calculation runs
        status, body = slow.result()
    assert status == 503 and body["errors"][0]["rule"] == "server.time-limit"


def test_the_rulesets_lists_come_from_the_bundled_rulesets(server):
    assert request(server, "GET", "/api/rulesets")[1]["rulesets"] == ["1897", "1897-expansion-1", "base", "expansion-1"]
    status, rules = request(server, "GET", "/api/rules/1897")
    assert status == 200 and "Fire Station" in [b["name"] for b in rules["buildings"]] and rules["ships"]["3"] == [4, 5, 6]
    assert request(server, "GET", "/api/rules/..%2F..%2Fetc")[0] == 404


def test_the_page_gets_the_rulesets_words_circles_and_captain_buildings(server):
    """The page keeps no copy of ruleset data: 1897's words, the statue's missing circle and the
    buildings the shipping calculator offers all come from the rulesets."""
    _, old = request(server, "GET", "/api/rules/1897-expansion-1")
    assert old["terms"]["barrel"] == ["crate", "crates"] and old["terms"]["island"] == "countryside"
    assert [b["circles"] for b in old["buildings"] if b["id"] == "statue"] == [0]
    _, base = request(server, "GET", "/api/rules/base")
    assert base["terms"]["barrel"] == ["barrel", "barrels"]
    assert [b["id"] for b in base["buildings"] if b["captain"]] == ["small-warehouse", "large-warehouse", "harbor", "wharf"]
    assert {b["id"] for b in old["buildings"] if b["captain"]} == {"small-warehouse", "large-warehouse", "harbor", "wharf", "storehouse", "small-wharf", "lighthouse", "library", "union-hall"}


def test_200_mixed_requests_from_20_clients_are_all_answered_correctly(server):
    log = (FIXTURES / "game-2p.yaml").read_bytes()
    sheet = (FIXTURES / "sheets" / "sheet-3p.yaml").read_bytes()
    position = (FIXTURES / "positions" / "formats-example.yaml").read_bytes()
    jobs = [("/api/validate", log), ("/api/score-sheet", sheet), ("/api/ship", position), ("/api/validate", BROKEN.encode())] * 50

    def one(job: tuple[str, bytes]) -> tuple[str, int, object]:
        path, body = job
        status, answer = request(server, "POST", path, body)
        if path == "/api/ship":
            return path, status, [p["vp"]["best"] for p in answer["players"].values()]
        return path, status, [(e["rule"]) for e in answer["errors"]] or [s["total"] for s in answer["scores"]]

    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(one, jobs))
    assert len(answers) == 200
    expected = {
        "/api/validate": {(200, (50, 63)), (200, ("settler.quarry",))},  # Lena 50, Omar 63, in seating order
        "/api/score-sheet": {(200, (54, 45, 37))},
        "/api/ship": {(200, (10, 4, 1))},
    }
    for path, status, result in answers:
        assert (status, tuple(result)) in expected[path], (path, status, result)


def test_serve_refuses_an_address_in_use():
    with make_server("127.0.0.1", 0) as taken:
        port = taken.server_address[1]
        out = subprocess.run([sys.executable, "-m", "referee", "serve", "--port", str(port)], capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and "error[serve.address]" in out.stdout


def test_serve_is_not_imported_by_the_other_commands():
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "referee", "validate", str(FIXTURES / "game-2p.yaml")], capture_output=True, text=True)
    assert "referee.commands.server" not in out.stderr and "http.server" not in out.stderr


def test_the_page_is_a_file_of_the_package():
    assert (Path(__file__).parent.parent / "referee" / "commands" / "web" / "index.html").exists()
