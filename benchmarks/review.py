"""The review's speed (issue 42: a whole 5-player game reviewed in under 3 s with the compiled
build, 10 s with the plain one).

Reviews every corpus and fixture game, and random games of each ruleset at 5 players (a small
wharf's searches are the long ones), in process: reading, the replay that checks, one search per
captain phase, the JSON. Prints each game's time (the median of `--repeat` runs), its captain
phases and decisions, and the slowest. The build is the installed one; `REFEREE_PURE_PYTHON=1`
runs the plain build where the compiled one is installed (docs/shipping.md):

    python benchmarks/review.py
    REFEREE_PURE_PYTHON=1 python benchmarks/review.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.ground.wording import json_text  # noqa: E402
from referee.jobs.play import play, to_log  # noqa: E402
from referee.jobs.review import review_log  # noqa: E402
from referee.jobs.shipping import build  # noqa: E402
from referee.render.review import review_object  # noqa: E402
from referee.rulesets.load import load_ruleset  # noqa: E402


def games(random_seeds: int) -> list[tuple[str, str]]:
    """(name, log text) of every corpus and fixture game, then random 5-player games."""
    paths = sorted((ROOT / "tests" / "corpus").glob("game-*.yaml")) + sorted((ROOT / "fixtures").rglob("game-*.yaml"))
    out = [(path.relative_to(ROOT).as_posix(), path.read_text()) for path in paths]
    for ruleset in ("base", "expansion-1", "1897-expansion-1"):
        for seed in range(1, random_seeds + 1):
            out.append((f"random {ruleset} 5p seed {seed}", to_log(play(load_ruleset(ruleset), 5, seed), ruleset)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each game (the median is shown)")
    parser.add_argument("--random", type=int, default=3, help="random 5-player games of each ruleset")
    args = parser.parse_args()
    print(f"build: {build()}")
    rows = []
    for name, text in games(args.random):
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            review = review_log(text, name)
            json_text(review_object(review))
            times.append(time.perf_counter() - start)
        decisions = sum(len(phase.decisions) for phase in review.phases)
        rows.append((statistics.median(times), name, len(review.players), len(review.phases), decisions))
        print(f"{statistics.median(times) * 1000:9.1f} ms  {name}: {len(review.players)} players, {len(review.phases)} captain phases, {decisions} decisions", flush=True)
    five = [row for row in rows if row[2] == 5]
    print(f"median {statistics.median(row[0] for row in rows) * 1000:.1f} ms over {len(rows)} games; slowest {max(rows)[0] * 1000:.1f} ms ({max(rows)[1]})")
    if five:
        print(f"5 players: median {statistics.median(row[0] for row in five) * 1000:.1f} ms, slowest {max(five)[0] * 1000:.1f} ms ({max(five)[1]})")


if __name__ == "__main__":
    main()
