"""Tables of phones through a real HTTP client (docs/formats/tables.md): a table made from a log,
seats held by tokens, moves that follow a count (one of two taps at once kept, the other told
what happened), undo by the host, the event stream and its catch-up, the log and the exports,
and wrong ids and tokens answered in one sentence; a whole game played by five seats."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest

from referee.commands.server import make_server
from referee.jobs.check import check_log
from tests.conftest import FIXTURES, api_call

NEW_LOG = {"ruleset": "base", "players": ["Anna", "Ben", "Cleo"], "setup": {"plantations": ["indigo", "sugar", "corn", "coffee"]}, "phases": []}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    httpd = make_server("127.0.0.1", 0, database=tmp_path_factory.mktemp("tables") / "tables.sqlite3")
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[0], httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


call = api_call


def new_table(server: tuple[str, int], log: dict | None = None) -> dict:
    status, table = call(server, "POST", "/api/tables", {"log": log or NEW_LOG})
    assert status == 201, table
    return table


def seat(server: tuple[str, int], table: dict, player: str) -> str:
    status, answer = call(server, "POST", f"/api/tables/{table['table']}/seats", {"player": player})
    assert status == 201, answer
    return answer["token"]


def test_a_table_is_made_from_a_log_with_an_unguessable_id_and_a_join_link(server):
    table = new_table(server)
    assert len(table["table"]) >= 22 and len(table["host"]) >= 22 and table["moves"] == 0  # 18 random bytes: 144 bits
    assert table["join"].endswith(f"/#table={table['table']}")
    status, got = call(server, "GET", f"/api/tables/{table['table']}")
    assert status == 200 and got["moves"] == 0 and got["seats"] == [] and got["state"] == "in progress"
    assert got["next"]["decision"] == {"player": "Anna", "phase": None, "kind": "role", "moves": ["settler", "mayor", "builder", "craftsman", "trader", "captain"]}
    assert new_table(server)["table"] != table["table"]


def test_a_log_that_breaks_a_rule_makes_no_table(server):
    broken = {**NEW_LOG, "phases": [{"builder": "Anna", "moves": [{"Anna": "harbor"}]}]}
    status, answer = call(server, "POST", "/api/tables", {"log": broken})
    assert status == 400 and answer["errors"][0]["rule"] == "builder.cannot-afford"
    status, answer = call(server, "POST", "/api/tables", {"game": NEW_LOG})
    assert status == 400 and answer["errors"][0]["rule"] == "table.key"


def test_a_seat_is_held_by_its_token_and_given_to_another_phone_by_the_host_only(server):
    table = new_table(server)
    first = seat(server, table, "Anna")
    status, answer = call(server, "POST", f"/api/tables/{table['table']}/seats", {"player": "Anna"})
    assert status == 409 and answer["errors"][0]["rule"] == "table.seat-held"
    status, answer = call(server, "POST", f"/api/tables/{table['table']}/seats", {"player": "Dora"})
    assert status == 400 and "Anna, Ben, Cleo" in answer["errors"][0]["message"]
    status, answer = call(server, "POST", f"/api/tables/{table['table']}/seats", {"player": "Anna"}, table["host"])
    assert status == 201 and answer["token"] != first
    given = answer
    status, answer = call(server, "POST", f"/api/tables/{table['table']}/moves", {"after": 0, "move": "builder"}, first)
    assert status == 403 and answer["errors"][0]["rule"] == "table.token"  # the old token stopped working
    status, answer = call(server, "POST", f"/api/tables/{table['table']}/moves", {"after": 0, "move": "builder"}, given["token"])
    assert status == 200 and answer["moves"] == 1  # the new one works
    assert call(server, "GET", f"/api/tables/{table['table']}")[1]["seats"] == ["Anna"]


def test_a_seat_enters_its_own_decisions_and_the_host_anyones(server):
    table = new_table(server)
    anna, ben = seat(server, table, "Anna"), seat(server, table, "Ben")
    path = f"/api/tables/{table['table']}/moves"
    status, answer = call(server, "POST", path, {"after": 0, "move": "builder"}, ben)
    assert status == 403 and answer["errors"][0]["message"] == "it is Anna's decision, not Ben's: Ben's phone enters Ben's decisions only"
    status, answer = call(server, "POST", path, {"after": 0, "move": "builder"}, anna)
    assert status == 200 and answer["moves"] == 1 and answer["next"]["decision"]["player"] == "Anna"
    status, answer = call(server, "POST", path, {"after": 1, "move": "small market for 0"}, table["host"])  # the host, for Anna (the builder: 1 off)
    assert status == 200 and answer["moves"] == 2 and answer["next"]["decision"]["player"] == "Ben"
    status, answer = call(server, "POST", path, {"after": 2, "move": "harbor"}, ben)
    assert status == 400 and answer["errors"][0]["rule"] == "builder.cannot-afford"  # refused: nothing written
    status, got = call(server, "GET", f"/api/tables/{table['table']}")
    assert got["moves"] == 2 and got["last"]["by"] == "host" and got["last"]["player"] == "Anna" and got["last"]["value"] == "small market for 0"
    status, answer = call(server, "POST", path, {"after": 2, "move": "pass"})
    assert status == 403 and "Authorization: Bearer" in answer["errors"][0]["message"]
    status, answer = call(server, "POST", path, {"after": 2, "move": "pass"}, "not-a-token")
    assert status == 403


def test_two_taps_at_once_one_is_kept_and_the_other_told_what_happened(server):
    table = new_table(server)
    path = f"/api/tables/{table['table']}/moves"
    answers: list[tuple[int, Any]] = []
    start = threading.Barrier(8)

    def tap(role: str) -> None:
        start.wait()
        answers.append(call(server, "POST", path, {"after": 0, "move": role}, table["host"]))

    threads = [threading.Thread(target=tap, args=(role,)) for role in ("settler", "mayor", "builder", "craftsman", "trader", "captain", "builder", "mayor")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    kept = [answer for status, answer in answers if status == 200]
    refused = [answer for status, answer in answers if status == 409]
    assert len(kept) == 1 and len(refused) == 7
    assert all(answer["moves"] == 1 and answer["next"]["log"]["phases"] == kept[0]["next"]["log"]["phases"] for answer in refused)
    _, got = call(server, "GET", f"/api/tables/{table['table']}")
    assert got["moves"] == 1 and len(got["next"]["log"]["phases"]) == 1  # never a lost or a doubled move


def test_undo_is_the_hosts_and_every_screen_is_told(server):
    table = new_table(server)
    anna = seat(server, table, "Anna")
    base = f"/api/tables/{table['table']}"
    assert call(server, "POST", f"{base}/moves", {"after": 0, "move": "builder"}, anna)[0] == 200
    status, answer = call(server, "POST", f"{base}/undo", {"after": 1}, anna)
    assert status == 403 and answer["errors"][0]["rule"] == "table.host-only"
    status, answer = call(server, "POST", f"{base}/undo", {"after": 0}, table["host"])
    assert status == 409 and answer["moves"] == 1
    status, answer = call(server, "POST", f"{base}/undo", {"after": 1}, table["host"])
    assert status == 200 and answer["moves"] == 0 and answer["next"]["decision"]["kind"] == "role"
    status, got = call(server, "GET", base)
    assert got["last"]["kind"] == "undo" and got["last"]["by"] == "host" and got["last"]["value"] == "builder" and got["changes"] == 2
    status, answer = call(server, "POST", f"{base}/undo", {"after": 0}, table["host"])
    assert status == 400 and answer["errors"][0]["rule"] == "table.nothing-to-undo"


def events(server: tuple[str, int], table_id: str, last: int | None, wanted: int, seconds: float = 5.0) -> list[dict]:
    """The first `wanted` events of the table's stream (from `Last-Event-ID: last`)."""
    connection = HTTPConnection(*server, timeout=seconds)
    connection.request("GET", f"/api/tables/{table_id}/events", headers={"Last-Event-ID": str(last)} if last is not None else {})
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("content-type", "").startswith("text/event-stream")
    got: list[dict] = []
    event: dict[str, str] = {}
    while len(got) < wanted:
        line = response.fp.readline().decode().rstrip("\n")
        if line == "":
            if "data" in event:
                got.append({"id": int(event["id"]), "event": event["event"], **json.loads(event["data"])})
            event = {}
        elif not line.startswith(":"):
            key, _, value = line.partition(": ")
            event[key] = value
    connection.close()
    return got


def test_every_screen_sees_a_move_within_half_a_second_and_catches_up_after_a_reconnect(server):
    table = new_table(server)
    base = f"/api/tables/{table['table']}"
    seen: list[tuple[float, list[dict]]] = []
    listeners = [threading.Thread(target=lambda: seen.append((time.monotonic(), events(server, table["table"], None, 1)))) for _ in range(5)]
    for listener in listeners:
        listener.start()
    time.sleep(0.3)  # the streams are open
    posted = time.monotonic()
    assert call(server, "POST", f"{base}/moves", {"after": 0, "move": "builder"}, table["host"])[0] == 200
    for listener in listeners:
        listener.join(5)
    assert len(seen) == 5
    assert all(got == [{"id": 1, "event": "move", "change": 1, "kind": "move", "moves": 1, "player": "Anna", "value": "builder", "by": "host", "at": got[0]["at"]}] for _, got in seen)
    assert max(at for at, _ in seen) - posted < 0.5
    assert call(server, "POST", f"{base}/moves", {"after": 1, "move": "pass"}, table["host"])[0] == 200
    assert call(server, "POST", f"{base}/undo", {"after": 2}, table["host"])[0] == 200
    caught = events(server, table["table"], 1, 2)  # a screen that saw change 1 reconnects
    assert [(e["id"], e["kind"], e["moves"]) for e in caught] == [(2, "move", 2), (3, "undo", 1)]


def test_wrong_ids_paths_and_bodies_are_one_sentence(server):
    for method, path, body in (("GET", "/api/tables/no-such-table", None), ("GET", "/api/tables/no-such-table/events", None), ("POST", "/api/tables/no-such-table/seats", {"player": "Anna"})):
        status, answer = call(server, method, path, body)
        assert status == 404 and answer["errors"][0]["rule"] == "table.unknown", (path, answer)
    table = new_table(server)
    for body, rule in (({"after": "0", "move": "builder"}, "table.after"), ({"after": 0}, "table.move"), ({"after": 0, "move": "builder", "extra": 1}, "table.key")):
        status, answer = call(server, "POST", f"/api/tables/{table['table']}/moves", body, table["host"])
        assert status == 400 and answer["errors"][0]["rule"] == rule, (body, answer)
    connection = HTTPConnection(*server, timeout=10)
    connection.request("POST", f"/api/tables/{table['table']}/moves", body=b"{not json", headers={"authorization": f"Bearer {table['host']}"})
    response = connection.getresponse()
    assert response.status == 400 and json.loads(response.read())["errors"][0]["rule"] == "input.json"
    status, answer = call(server, "GET", "/api/tables/a/b/c")
    assert status == 404


def test_the_log_and_the_exports_of_a_finished_table(server):
    # a base game at its end: the fixture game-3p, its last phase's passes still to come
    from referee.documents.log import read_log
    from referee.documents.write import log_document

    record = read_log((FIXTURES / "game-3p.yaml").read_text(), "game-3p.yaml")
    table = new_table(server, log_document(record))
    base = f"/api/tables/{table['table']}"
    status, answer = call(server, "GET", f"{base}/export?format=bgg")
    assert status == 409 and answer["errors"][0]["rule"] == "table.in-progress"  # the players of the last phase still decide
    moves = 0
    while True:
        decision = call(server, "GET", base)[1]["next"]["decision"]
        if decision is None:
            break
        status, answer = call(server, "POST", f"{base}/moves", {"after": moves, "move": "pass" if "pass" in decision["moves"] else decision["moves"][0]}, table["host"])
        assert status == 200, answer
        moves = answer["moves"]
    assert moves > 0 and answer["next"]["complete"] is True
    status, yaml_text = call(server, "GET", f"{base}/log")
    report = check_log(yaml_text, "table.yaml")
    assert report.complete and {s.player: s.total for s in report.scores or []} == {"Ines": 44, "Tobias": 41, "Marek": 40}
    status, bgg = call(server, "GET", f"{base}/export?format=bgg")
    assert status == 200 and bgg["objectid"] == 3076
    assert [(p["name"], p["startposition"], p["score"], p["win"]) for p in bgg["players"]] == [("Ines", "1", "44", "1"), ("Marek", "2", "40", "0"), ("Tobias", "3", "41", "0")]
    status, stats = call(server, "GET", f"{base}/export?format=bgstats")
    assert stats["games"][0]["bggId"] == 3076 and [s["score"] for s in stats["plays"][0]["playerScores"]] == ["44", "40", "41"]
    assert [s["winner"] for s in stats["plays"][0]["playerScores"]] == [True, False, False]
    status, answer = call(server, "GET", f"{base}/export?format=csv")
    assert status == 400
    status, listing = call(server, "GET", "/api/tables")
    assert any(row["table"] == table["table"] and row["state"] == "finished" and row["players"] == ["Ines", "Marek", "Tobias"] for row in listing["tables"])
    status, answer = call(server, "DELETE", base, None, table["host"])
    assert status == 200 and call(server, "GET", base)[0] == 404


def test_a_whole_five_player_game_played_by_five_seats(server):
    """Each seat's token enters its own player's decisions, chosen at random from the moves the
    table offers (the draws by the host): the log downloaded validates, and scores as the table."""
    players = ["Ana", "Ben", "Cleo", "Dan", "Eve"]
    table = new_table(server, {"ruleset": "base", "players": players, "setup": {"plantations": ["indigo", "sugar", "corn", "coffee", "tobacco", "corn"]}, "phases": []})
    tokens = {name: seat(server, table, name) for name in players}
    base = f"/api/tables/{table['table']}"
    rng = random.Random(5)
    answer = call(server, "GET", base)[1]["next"]
    moves = 0
    while answer["decision"] is not None:
        decision = answer["decision"]
        if decision["kind"] == "draw":
            left = [tile for tile, n in answer["state"]["plantations_left"].items() for _ in range(n)]
            discards = [tile for tile, n in answer["state"]["plantation_discards"].items() for _ in range(n)] + answer["state"]["face_up"]  # the row's leftovers are discarded first
            tiles = decision["draw"]["tiles"]  # the stacks first; when they run out, the rest from the reshuffled discards
            drawn = rng.sample(left, tiles) if len(left) >= tiles else left + rng.sample(discards, tiles - len(left))
            body: dict = {"after": moves, "draw": drawn}
            token = table["host"]
        else:
            options = decision["moves"]
            body = {"after": moves, "move": rng.choice(options[:200])}
            token = tokens[decision["player"]]
        status, reply = call(server, "POST", f"{base}/moves", body, token)
        assert status == 200, (decision, body, reply)
        moves, answer = reply["moves"], reply["next"]
        assert moves < 2000
    status, yaml_text = call(server, "GET", f"{base}/log")
    report = check_log(yaml_text, "five.yaml")
    assert report.complete and [s["total"] for s in answer["scores"]] == [s.total for s in report.scores or []]


def test_a_damaged_or_read_only_database_is_one_clear_line_at_the_start(tmp_path: Path):
    import subprocess
    import sys

    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"this is not a database, only some text" * 100)
    done = subprocess.run([sys.executable, "-m", "referee", "serve", "--port", "0", "--database", str(damaged)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "error[serve.database]" in done.stdout and "is damaged or is not a database" in done.stdout and "Traceback" not in done.stderr
    assert damaged.read_bytes().startswith(b"this is not a database")  # nothing overwritten
