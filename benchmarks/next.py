"""The next decision's speed (issue 25, item 7: `/api/next` for a 200-move log under 50 ms).

Prints, for logs cut at 200 moves (every corpus and fixture game long enough), the median and the
slowest time of answering the JSON of `referee next` in-process (reading, the replay that
checks, the replay to the open phase, the decision, the state, the JSON text), beside the time of
`check_log` alone on the same logs, measured in turns in the same run; then the same answers
over HTTP from a `referee serve` started here (`--http`), and the slowest decision of all
prefixes of one game with and without `--limit 200` (a mayor's arrangements).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.documents.log import read_log  # noqa: E402
from referee.ground.wording import json_text  # noqa: E402
from referee.jobs.check import check_log  # noqa: E402
from referee.jobs.decisions import next_decision  # noqa: E402
from referee.render.decision import next_object  # noqa: E402
from tests.test_next import prefix_text, steps  # noqa: E402

MOVES = 200


def cut_logs() -> list[str]:
    """Every game long enough, cut after its first 200 steps."""
    out = []
    for path in sorted((ROOT / "tests" / "corpus").glob("game-*.yaml")) + sorted((ROOT / "fixtures").glob("game-*.yaml")):
        record = read_log(path.read_text(), path.name)
        taken = list(steps(record))
        if len(taken) > MOVES:
            out.append(prefix_text(record, taken[:MOVES], record.rules.id))
    return out


def answer(text: str, limit: int | None = None) -> str:
    return json_text(next_object(next_decision(text, "game.yaml", limit=limit)))


def timed(function, *args) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def in_process(logs: list[str], rounds: int) -> None:
    nexts: list[float] = []
    checks: list[float] = []
    for _ in range(rounds):
        for text in logs:
            nexts.append(timed(answer, text))
            checks.append(timed(check_log, text, "game.yaml"))
    print(f"{len(logs)} logs cut at {MOVES} steps, {rounds} rounds, in turns:")
    print(f"  referee next's JSON: median {statistics.median(nexts) * 1000:.1f} ms, slowest {max(nexts) * 1000:.1f} ms (target 50 ms)")
    print(f"  check_log alone:     median {statistics.median(checks) * 1000:.1f} ms, slowest {max(checks) * 1000:.1f} ms")


def over_http(logs: list[str], rounds: int) -> None:
    import http.client
    import socket
    import subprocess

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        for _ in range(100):  # the server starts
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        times: list[float] = []
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        start = time.perf_counter()
        connection.request("POST", "/api/next", body=logs[0].encode())
        connection.getresponse().read()
        print(f"  POST /api/next, the server's first (it imports the engine): {(time.perf_counter() - start) * 1000:.0f} ms")
        for _ in range(rounds):
            for text in logs:
                start = time.perf_counter()
                connection.request("POST", "/api/next", body=text.encode(), headers={"Content-Type": "application/yaml"})
                response = connection.getresponse()
                response.read()
                times.append(time.perf_counter() - start)
                assert response.status == 200, response.status
        print(f"  POST /api/next over HTTP (one kept-alive connection): median {statistics.median(times) * 1000:.1f} ms, slowest {max(times) * 1000:.1f} ms")
    finally:
        server.terminate()
        server.wait(10)


def mayor(name: str) -> None:
    path = ROOT / "tests" / "corpus" / f"{name}.yaml"
    record = read_log(path.read_text(), path.name)
    taken = list(steps(record))
    slowest = {None: (0.0, 0), 200: (0.0, 0)}
    for k in range(len(taken)):
        text = prefix_text(record, taken[:k], "base")
        for limit in slowest:
            seconds = timed(answer, text, limit)
            if seconds > slowest[limit][0]:
                slowest[limit] = (seconds, k)
    for limit, (seconds, k) in slowest.items():
        print(
            f"  {name}, the slowest of its {len(taken)} prefixes, {'every move listed' if limit is None else f'--limit {limit}'}: {seconds * 1000:.0f} ms (prefix {k})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--http", action="store_true", help="also time POST /api/next on a server started here")
    arguments = parser.parse_args()
    logs = cut_logs()
    in_process(logs, arguments.rounds)
    if arguments.http:
        over_http(logs, arguments.rounds)
    mayor("game-4p-2")


if __name__ == "__main__":
    main()
