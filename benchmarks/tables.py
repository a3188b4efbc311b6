"""Tables of phones under load (issue 40: a move acknowledged and seen by every screen of a
5-seat table within 100 ms median, 500 ms at worst, with 20 tables of 5 screens playing at once;
the server's memory flat over 10,000 moves).

Starts `referee serve` on a database of its own in a temporary folder, makes `--tables` tables
of 5 players, opens 5 event streams on each (the screens: each asks for the table again after
every event, as the page does), and plays every table at once, a random legal move at a time
from what the table offers (a finished game is followed by a new table). For each move it times
the answer (posted to acknowledged), the moment the last of the table's screens has the table
again (its event, then its GET), and the event stream's own share: from the acknowledgement to
the last screen's event (what a WebSocket could save at most, docs/formats/tables.md); it prints
their median, 90th percentile and slowest, and the server's resident memory (VmRSS) after each
tenth of the moves.

    python benchmarks/tables.py [--tables 20] [--moves 10000] [--think 0.5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.client import HTTPConnection
from pathlib import Path

PLAYERS = ["Ana", "Ben", "Cleo", "Dan", "Eve"]
SCREENS = 5


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def call(port: int, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    connection = HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    return response.status, answer


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Screen(threading.Thread):
    """One phone following a table: the event stream, and the table asked for after each event."""

    def __init__(self, port: int, table: str, seen: dict[int, list[float]], heard: dict[int, list[float]], lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.port, self.table, self.seen, self.heard, self.lock = port, table, seen, heard, lock
        self.ready = threading.Event()
        self.stop = False

    def run(self) -> None:
        connection = HTTPConnection("127.0.0.1", self.port, timeout=600)
        connection.request("GET", f"/api/tables/{self.table}/events")
        response = connection.getresponse()
        self.ready.set()
        data = None
        while not self.stop:
            line = response.fp.readline()
            if not line:
                break
            text = line.decode().rstrip("\n")
            if text.startswith("data: "):
                data = json.loads(text[6:])
            elif text == "" and data is not None:
                with self.lock:
                    self.heard.setdefault(data["moves"], []).append(time.perf_counter())
                call(self.port, "GET", f"/api/tables/{self.table}")  # the page draws the table again
                with self.lock:
                    self.seen.setdefault(data["moves"], []).append(time.perf_counter())
                data = None
        connection.close()


def play_table(port: int, rng: random.Random, results: list[tuple[float, float, float]], budget: list[int], lock: threading.Lock, think: float) -> None:
    """Tables of 5 played one after another until the moves are used up, `think` seconds
    between a table's moves (on average)."""
    while True:
        status, table = call(
            port,
            "POST",
            "/api/tables",
            {"log": {"ruleset": "base", "players": PLAYERS, "setup": {"plantations": ["indigo", "sugar", "corn", "coffee", "tobacco", "corn"]}, "phases": []}},
        )
        assert status == 201, table
        seen: dict[int, list[float]] = {}
        heard: dict[int, list[float]] = {}
        seen_lock = threading.Lock()
        screens = [Screen(port, table["table"], seen, heard, seen_lock) for _ in range(SCREENS)]
        for screen in screens:
            screen.start()
            screen.ready.wait(10)
        time.sleep(0.1)
        answer = call(port, "GET", f"/api/tables/{table['table']}")[1]["next"]
        moves = 0
        while answer["decision"] is not None:
            with lock:
                if budget[0] <= 0:
                    return
                budget[0] -= 1
            decision = answer["decision"]
            if decision["kind"] == "draw":
                left = [tile for tile, n in answer["state"]["plantations_left"].items() for _ in range(n)]
                discards = [tile for tile, n in answer["state"]["plantation_discards"].items() for _ in range(n)] + answer["state"]["face_up"]
                tiles = decision["draw"]["tiles"]
                body: dict = {"after": moves, "draw": rng.sample(left, tiles) if len(left) >= tiles else left + rng.sample(discards, tiles - len(left))}
            else:
                body = {"after": moves, "move": rng.choice(decision["moves"][:100])}
            posted = time.perf_counter()
            status, reply = call(port, "POST", f"/api/tables/{table['table']}/moves", body, table["host"])
            acknowledged = time.perf_counter()
            assert status == 200, reply
            moves, answer = reply["moves"], reply["next"]
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline:
                with seen_lock:
                    if len(seen.get(moves, [])) >= SCREENS:
                        break
                time.sleep(0.001)
            with seen_lock:
                last = max(seen.get(moves, [deadline]))
                event = max(heard.get(moves, [deadline]))
            results.append((acknowledged - posted, last - posted, event - acknowledged))
            if think:
                time.sleep(rng.uniform(0, 2 * think))
        for screen in screens:
            screen.stop = True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=10_000)
    parser.add_argument("--think", type=float, default=0.5, help="seconds between a table's moves, on average (0: none; a table at play takes several)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="referee-tables-bench-")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--port", str(port), "--database", os.path.join(folder, "tables.sqlite3")], stdout=subprocess.DEVNULL
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        results: list[tuple[float, float, float]] = []
        lock = threading.Lock()
        budget = [args.moves]
        memory = [(0, rss_mb(server.pid))]
        players = [
            threading.Thread(target=play_table, args=(port, random.Random(k), results, budget, lock, args.think), daemon=True) for k in range(args.tables)
        ]
        started = time.perf_counter()
        for player in players:
            player.start()
        step = max(1, args.moves // 10)
        while any(player.is_alive() for player in players):
            time.sleep(0.5)
            if len(results) >= memory[-1][0] + step:
                memory.append((len(results), rss_mb(server.pid)))
        memory.append((len(results), rss_mb(server.pid)))
        elapsed = time.perf_counter() - started
        acks = sorted(r[0] * 1000 for r in results)
        seen = sorted(r[1] * 1000 for r in results)
        events = sorted(r[2] * 1000 for r in results)
        print(
            f"{len(results):,} moves on {args.tables} tables of {SCREENS} screens at once, {args.think:g} s between a table's moves on average: {elapsed:.0f} s ({len(results) / elapsed:.0f} moves/s)"
        )
        for name, times in (("acknowledged", acks), ("seen by every screen", seen), ("event, after the ack", events)):
            print(f"  {name:<22} median {statistics.median(times):6.1f} ms   90th {times[int(len(times) * 0.9)]:6.1f} ms   slowest {times[-1]:7.1f} ms")
        print("  server memory (VmRSS): " + ", ".join(f"{n:,}: {mb:.0f} MB" for n, mb in memory))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
