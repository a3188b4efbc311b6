"""Random play and replay speed of the engine, this tree against an older checkout (issues 13, 30).

    python benchmarks/play.py                                # this tree only
    git worktree add /tmp/engine-before COMMIT
    python benchmarks/play.py --before /tmp/engine-before    # both, in one process

Random play (`referee play`'s engine: the legal moves listed at every decision, one drawn) is
timed in games per second for each number of players (2 to 5), over fixed seeds of each
bundled ruleset; replay in moves per second over the logs those games write (read once,
replayed many times). With `--before`, the older package is copied under another name
(`referee_before`, its imports renamed) so that both engines run in this one process, their
repetitions interleaved (in turn first and second): on a noisy machine both see the same load.
CPU time of the process is measured; medians are printed. A checkout from before the
restructure of issue 27 (`referee/play.py`, `referee/records/`) is measured as well as one after.

The peers (not in this repository). Issue 30 measured two open Puerto Rico engines side by side
with this one, each driven through its own list of legal actions (random play, CPU time and
valgrind instruction counts, runs alternated): this engine played 2.5 to 3.9 times the games a
second of the dae-hany engine (2 to 5 players), and only 1.44 times somnambWl's at 2 and 4
players, half of its time listing legal moves (each candidate built, then checked by raising and
catching a rule error). Targets: at 4 players at least 2 times somnambWl's games a second, that
is 2 / 1.44 = 1.39 times the engine of issue 30's measurement (commit 7b8c32f, before the phases
generated their legal moves); replay no slower. (Issue 13's target, 3 times the engine that
tried every candidate on a copy of the game, commit 9a778a4, was met before.)
"""

from __future__ import annotations

import argparse
import importlib
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ("base", "expansion-1", "1897", "1897-expansion-1")
PLAYERS = (2, 3, 4, 5)
SEEDS = range(4)


def renamed_copy(tree: Path, name: str, into: Path) -> None:
    """`tree`'s package copied to `into/name`, every import of `referee` renamed, its data linked."""
    target = into / name
    shutil.copytree(tree / "referee", target, ignore=shutil.ignore_patterns("__pycache__"))
    pattern = re.compile(r"\b(from|import) referee\b|\"referee\.")
    for path in target.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(pattern.sub(lambda m: m.group(0).replace("referee", name), text), encoding="utf-8")
    (target / "_data").mkdir(exist_ok=True)
    for data in ("rulesets", "schemas"):
        (target / "_data" / data).symlink_to(tree / data)


def _module(package: str, *names: str) -> Any:
    """The first of `names` (a module path under `package`) that the package has: the layout
    after the restructure of issue 27, then the one before it."""
    for name in names:
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError:
            continue
    raise ModuleNotFoundError(f"{package}: none of {', '.join(names)}")


class Engine:
    """One package's random play and replay, ready to be timed."""

    def __init__(self, package: str) -> None:
        play = _module(package, "jobs.play", "play")
        load = _module(package, "rulesets.load")
        read_log = _module(package, "documents.log", "records.log").read_log
        self.replay: Callable[[Any], Any] = _module(package, "jobs.replays", "replays").replay
        self.play = play.play
        self.rules = {name: load.load_ruleset(name) for name in RULESETS}
        self.records = [read_log(play.to_log(self.play(self.rules[name], n, seed), name).encode(), f"{name}-{n}-{seed}.yaml") for name in RULESETS for n in PLAYERS for seed in SEEDS[:2]]
        self.moves = sum(record.moves for record in self.records)

    def games_per_second(self, players: int) -> float:
        """Games of `players` a second, over the seeds of every ruleset."""
        start = time.process_time()
        for ruleset in RULESETS:
            for seed in SEEDS:
                self.play(self.rules[ruleset], players, seed)
        return len(RULESETS) * len(SEEDS) / (time.process_time() - start)

    def moves_per_second(self) -> float:
        start = time.process_time()
        for record in self.records:
            assert self.replay(record).error is None
        return self.moves / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="a checkout of another commit, measured in the same process")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved repetitions (medians printed)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    engines = {"this tree": Engine("referee")}
    if args.before:
        holder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
        renamed_copy(args.before.resolve(), "referee_before", holder)
        sys.path.insert(0, str(holder))
        engines["before"] = Engine("referee_before")
    figures: dict[str, dict[str, list[float]]] = {name: {} for name in engines}
    for round_number in range(args.rounds):
        order = list(engines.items())
        if round_number % 2:  # the engine measured second pays for the first's garbage: alternate
            order.reverse()
        for name, engine in order:
            for players in PLAYERS:
                figures[name].setdefault(f"play, {players} players games/s", []).append(engine.games_per_second(players))
            figures[name].setdefault("replay moves/s", []).append(engine.moves_per_second())
    print(f"{'median of ' + str(args.rounds) + ' rounds':<30}" + "".join(f"{name:>12}" for name in engines) + ("       ratio" if args.before else ""))
    for key in figures["this tree"]:
        medians = [statistics.median(figures[name][key]) for name in engines]
        ratio = f"{medians[0] / medians[1]:>11.2f}x" if args.before else ""
        print(f"{key:<30}" + "".join(f"{value:>12,.1f}" for value in medians) + ratio)
    print(f"(play: {len(RULESETS) * len(SEEDS)} games a round for each number of players, every ruleset; replay: {engines['this tree'].moves:,} moves in {len(engines['this tree'].records)} logs a round)")


if __name__ == "__main__":
    main()
