"""Replay speed and start-up time (issue 2's targets).

Prints: moves replayed per second, engine only (logs read once, replayed many times) and end to
end (YAML reading included); and the wall time of `referee validate` on one fixture beside that
of `python -c "import typer, pydantic, ruamel.yaml"`, measured in the same run.
Targets: >= 50,000 moves/s engine-only; validate-one-file within 1.5x the bare imports.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.documents.log import read_log  # noqa: E402
from referee.jobs.check import check_log  # noqa: E402
from referee.jobs.replays import replay  # noqa: E402


def games() -> list[Path]:
    found = sorted((ROOT / "fixtures").glob("game-*.yaml")) + sorted((ROOT / "tests" / "corpus").glob("game-*.yaml"))
    return [p for p in found if p.is_file()]


def engine_only(paths: list[Path], seconds: float = 2.0) -> tuple[float, int]:
    records = [read_log(p.read_bytes(), p.name) for p in paths]
    moves_per_pass = sum(r.moves for r in records)
    passes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for r in records:
            result = replay(r)
            assert result.error is None, result.error
        passes += 1
    elapsed = time.perf_counter() - start
    return passes * moves_per_pass / elapsed, moves_per_pass


def end_to_end(paths: list[Path], seconds: float = 2.0) -> float:
    data = [(p.read_bytes(), p.name) for p in paths]
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for blob, name in data:
            report = check_log(blob, name)
            assert report.valid, report.errors
            moves += report.moves
    return moves / (time.perf_counter() - start)


def wall(cmd: list[str], runs: int = 25) -> tuple[float, float]:
    """(fastest, median) wall time of a command, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    paths = games()
    rate, per_pass = engine_only(paths)
    print(f"games: {len(paths)} logs, {per_pass} moves (role choices included)")
    print(f"engine only:  {rate:,.0f} moves/s   (target >= 50,000)")
    print(f"end to end:   {end_to_end(paths):,.0f} moves/s   (YAML reading, names, replay, scoring)")
    one = str(paths[0])
    # An installed package has its bytecode compiled (pip does it); an editable checkout under
    # PYTHONDONTWRITEBYTECODE would recompile referee on every run, so compile it first.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "referee")], check=True)
    subprocess.run([sys.executable, "-m", "referee", "validate", one], capture_output=True, check=False)  # warm the ruleset cache
    bare = wall([sys.executable, "-c", "import typer, pydantic, ruamel.yaml"])
    validate = wall([sys.executable, "-m", "referee", "validate", one])
    helps = wall([sys.executable, "-m", "referee", "--help"])
    print(f"bare imports (typer, pydantic, ruamel.yaml): fastest {bare[0] * 1000:.0f} ms, median {bare[1] * 1000:.0f} ms (25 runs)")
    print(
        f"referee validate {Path(one).name}: fastest {validate[0] * 1000:.0f} ms, median {validate[1] * 1000:.0f} ms "
        f"= {validate[0] / bare[0]:.2f}x (fastest) / {validate[1] / bare[1]:.2f}x (median) the bare imports (target <= 1.5x)"
    )
    print(f"referee --help: fastest {helps[0] * 1000:.0f} ms, median {helps[1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
