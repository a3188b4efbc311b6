"""Benchmark of the shipping calculator (`referee ship`), as a player and a club would run it.

Prints, each as the whole `referee ship` process (start-up, reading, search, output):

1. the worst case: five players with two barrels of every kind (as far as the supply goes), two
   wharfs, two harbors, a small and a large warehouse, empty ships: the summary (states valued,
   seconds: first run, fastest and median, and the median CPU seconds; peak memory), target under
   1 s and 1 GB (issue 26);
2. `--all` on the worst case: the outcomes, the seconds to the first outcome written and to the
   last, CPU seconds, peak memory; targets under 60 s and 1 GB, the first outcome within 2 s;
3. the start-up of a small position (the example of docs/formats/shipping-position.md): the import of the calculator and
   the reading of a well-formed position, without pydantic's model machinery;
4. realistic positions: 200 random positions of 3 to 5 players, 1 to 5 kinds of 1 to 3 barrels
   each, wharfs, harbors, warehouses, partly loaded ships, base and expansion-1 (fixed seed): the
   median, 90th percentile and slowest summary, and how many take over 1 s (each stopped at
   `--cap` seconds); with `--slowest N`, the N slowest of them, each with its states;
5. captain phases of games: the position at every captain role choice of the corpus games
   (`tests/corpus`) and of `--games` random-play games of each ruleset (base, expansion-1; 3 to 5
   players): the search in this process (median, 99th percentile, slowest), and every phase whose
   search takes over 0.5 s again as a whole `referee ship` process: how many take over 1 s.

    python benchmarks/shipping.py              # everything (a few minutes)
    python benchmarks/shipping.py --skip-all   # without the --all run (over a minute)
    python benchmarks/shipping.py --repeat 5 --realistic 50
    python benchmarks/shipping.py --skip-all --slowest 10   # which realistic positions to profile
    python benchmarks/shipping.py --only-games --games 150  # the captain phases of 312 games
    python benchmarks/shipping.py --skip-all --seed 7 --realistic 600 --games 0   # another sample: its tail

It says first which build of the search runs (`referee.jobs.shipping.build()`): the compiled one where
the package was built with a C compiler; `REFEREE_PURE_PYTHON=1` runs the plain one, and
`python TREE/benchmarks/shipping.py` another checkout (before and after a change, in one sitting):
the script measures the tree it is in, in this process and in every `referee ship` it runs
(each run from that tree, whose package Python then imports first), whatever the directory.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.documents.log_records import GameRecord

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this tree's package, in this process too
WORST = (ROOT / "fixtures" / "positions" / "heavy-5p.yaml").read_text()
KINDS = ("corn", "indigo", "sugar", "tobacco", "coffee")
SIZES = {3: [4, 5, 6], 4: [5, 6, 7], 5: [6, 7, 8]}


def referee(*args: str) -> tuple[float, float | None, int, bytes, float]:
    """Run `referee` as a player would: (seconds, seconds to the first outcome written or None,
    peak memory in MB, output, CPU seconds: the figure to compare on a shared, noisy machine)."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "referee", *args], stdout=subprocess.PIPE, cwd=ROOT)  # from the tree: its package, not the installed one
    assert process.stdout is not None
    first, chunks = None, []
    while block := os.read(process.stdout.fileno(), 1 << 20):
        chunks.append(block)
        if first is None and b'"players"' in block:
            first = time.perf_counter() - start
    _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return time.perf_counter() - start, first, usage.ru_maxrss // 1024, b"".join(chunks), usage.ru_utime + usage.ru_stime


def realistic(rng: random.Random) -> str:
    """A random position in the range a game produces (some may exceed the supply: skipped)."""
    players = rng.choice([3, 4, 5])
    ruleset = rng.choice(["base", "expansion-1"])
    on_ships: set[str] = set()
    ships = []
    for size in SIZES[players]:
        if rng.random() < 0.3:
            kind = rng.choice([k for k in KINDS if k not in on_ships])
            on_ships.add(kind)
            ships.append(f"{size}: {kind} {rng.randint(1, size - 1)}")
        else:
            ships.append(f"{size}: empty")
    owned = ["wharf", "harbor", "small warehouse", "large warehouse"]
    if ruleset != "base":
        owned += ["small wharf", "lighthouse", "storehouse", "union hall"]
    lines = [f"ruleset: {ruleset}", "ships: {" + ", ".join(ships) + "}", "players:"]
    for name in ("Anna", "Ben", "Cleo", "Dora", "Emil")[:players]:
        goods = ", ".join(f"{k}: {rng.randint(1, 3)}" for k in rng.sample(KINDS, rng.randint(1, 5)))
        buildings = [b for b in owned if rng.random() < 0.25]
        lines.append(f"  - {{name: {name}, goods: {{{goods}}}, buildings: [{', '.join(buildings)}]}}")
    return "\n".join(lines) + "\n"


def realistic_positions(count: int, seed: int = 2026) -> list[str]:
    from referee.diagnostics import InputError
    from referee.documents.position import read_position

    rng, out = random.Random(seed), list[str]()
    while len(out) < count:
        text = realistic(rng)
        try:
            read_position(text, "r.yaml")
        except InputError:
            continue
        out.append(text)
    return out


def game_positions(games: int) -> list[tuple[str, str]]:
    """(game, position) at every captain role choice of the corpus games and of `games`
    random-play games of each ruleset: the position as the table sees it, the captain first."""
    from referee.documents.log import read_log
    from referee.jobs.play import play, to_log
    from referee.rulesets.load import load_ruleset

    records: list[tuple[str, GameRecord]] = []
    for path in sorted((ROOT / "tests" / "corpus").glob("*.yaml")):
        records.append((path.name, read_log(path.read_text(), path.name)))
    for ruleset in ("base", "expansion-1"):
        rules = load_ruleset(ruleset)
        for seed in range(games):
            name = f"{ruleset} random-play game {seed}"
            records.append((name, read_log(to_log(play(rules, 3 + seed % 3, seed), ruleset), name)))
    return [(name, text) for name, record in records for text in captain_positions(record)]


def captain_positions(record: GameRecord) -> list[str]:
    """The shipping position at each captain role choice of a game log."""
    from referee.documents.write_position import captain_position
    from referee.jobs.replays import replay_steps

    return [captain_position(step.game, step.phase.chooser) for step in replay_steps(record) if step.kind == "role" and step.phase.role == "captain"]


def time_games(games: int, tmp: Path) -> None:
    """Print the figures of the captain phases of games (see the module)."""
    from referee.documents.position import read_position
    from referee.jobs.shipping import ship

    phases = game_positions(games)
    timed = []
    for name, text in phases:
        position = read_position(text, "game.yaml")
        start = time.perf_counter()
        ship(position)
        timed.append((time.perf_counter() - start, name, text))
    timed.sort(key=lambda t: t[0])
    seconds = [t[0] for t in timed]
    # a whole process adds its start-up (about 0.3 s): every phase that might then pass 1 s is run as one
    whole = [(referee("ship", str(_written(tmp / "game.yaml", text)), "--format", "json")[0], name, text) for search, name, text in timed if search > 0.5]
    over = [t for t in whole if t[0] > 1]
    print(
        f"captain phases of games: {len(timed):,} ({games} random-play games of each ruleset and the corpus); search in process: median {statistics.median(seconds) * 1000:.1f} ms, "
        f"99th percentile {seconds[int(len(seconds) * 0.99)] * 1000:.0f} ms, slowest {seconds[-1]:.2f} s; whole process over 1 s: {len(over)} "
        f"({sum('small wharf' in t[2].lower() for t in over)} of them with a small wharf owner)"
    )
    for seconds_whole, name, _ in sorted(whole, reverse=True)[:5]:
        print(f"  {name}: {seconds_whole:.2f} s as a whole process")


def _written(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of the worst-case summary (the first, fastest and median are shown)")
    parser.add_argument("--realistic", type=int, default=200, help="realistic positions to time")
    parser.add_argument("--seed", type=int, default=2026, help="the seed of the realistic positions (2026: the set the figures of docs/shipping.md quote)")
    parser.add_argument("--cap", type=float, default=20.0, help="seconds after which a realistic position is stopped (and counted as over)")
    parser.add_argument("--skip-all", action="store_true", help="leave out the --all run of the worst case")
    parser.add_argument(
        "--slowest", type=int, default=0, metavar="N", help="also list the N slowest realistic positions (their index in the list, seconds, states)"
    )
    parser.add_argument("--games", type=int, default=50, help="random-play games of each ruleset whose captain phases are timed")
    parser.add_argument("--only-games", action="store_true", help="time the captain phases of games only")
    args = parser.parse_args()
    if args.only_games:
        with tempfile.TemporaryDirectory() as tmp:
            time_games(args.games, Path(tmp))
        return
    with tempfile.TemporaryDirectory() as tmp:
        worst = Path(tmp) / "worst.yaml"
        worst.write_text(WORST)
        from referee.documents.position import read_position
        from referee.jobs import shipping
        from referee.jobs.shipping import ship

        build = shipping.build() if hasattr(shipping, "build") else "plain (before the compiled build)"
        print(f"the shipping search's build: {build}; {referee('--version')[3].decode().strip()} from {Path(shipping.__file__).parent.parent.parent}")
        states = ship(read_position(WORST, "worst.yaml")).states
        runs = [referee("ship", str(worst), "--format", "json") for _ in range(max(1, args.repeat))]
        times = sorted(r[0] for r in runs)
        print(
            f"worst case, summary: {states:,} states; first run {runs[0][0]:.2f} s, fastest {times[0]:.2f} s, median {statistics.median(times):.2f} s "
            f"(CPU: median {statistics.median(r[4] for r in runs):.2f} s); peak memory {max(r[2] for r in runs)} MB (targets: 1 s, 1 GB)"
        )
        if not args.skip_all:
            seconds, first, memory, output, cpu = referee("ship", str(worst), "--format", "json", "--all")
            outcomes = output.count(b'"ships"') - 1  # each outcome has one, and so has the expected play
            print(
                f"worst case, --all: {outcomes:,} outcomes; first written after {first:.2f} s, all after {seconds:.1f} s (CPU {cpu:.1f} s); peak memory {memory} MB "
                f"(targets: 2 s, 60 s, 1 GB)"
            )
        example = ROOT / "fixtures" / "positions" / "formats-example.yaml"
        small = sorted(referee("ship", str(example))[0] for _ in range(5))
        bare = sorted(_bare_imports() for _ in range(5))
        print(
            f"small position, whole process: median {statistics.median(small):.3f} s (bare imports of typer, pydantic, ruamel.yaml: {statistics.median(bare):.3f} s)"
        )
        time_realistic(realistic_positions(args.realistic, args.seed), args.cap, args.slowest, Path(tmp))
        time_games(args.games, Path(tmp))
    print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB)")


def time_realistic(texts: list[str], cap: float, slowest_n: int, tmp: Path) -> None:
    """Time `referee ship` as a whole process on each realistic position (stopped at `cap`
    seconds), and list the `slowest_n` slowest."""
    from referee.documents.position import read_position
    from referee.jobs.shipping import ship

    if not texts:
        print("realistic positions: none (--realistic 0)")
        return
    seconds_each, cpu_each = [], []
    for i, text in enumerate(texts):
        path = tmp / f"r{i:03d}.yaml"
        path.write_text(text)
        start = time.perf_counter()
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            subprocess.run([sys.executable, "-m", "referee", "ship", str(path), "--format", "json"], capture_output=True, timeout=cap, check=True, cwd=ROOT)
            seconds_each.append(time.perf_counter() - start)
        except subprocess.TimeoutExpired:
            seconds_each.append(float("inf"))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the child waited for (stopped at the cap: up to then): its CPU counted
        cpu_each.append(after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime)
    ordered = sorted(seconds_each)
    over = [i for i, s in enumerate(seconds_each) if s > 1]
    small_wharf = sum("small wharf" in texts[i] for i in over)
    slowest = "over the cap" if ordered[-1] == float("inf") else f"{ordered[-1]:.2f} s"
    print(
        f"realistic positions: {len(texts)}; median {statistics.median(ordered):.2f} s, 90th percentile {ordered[int(len(ordered) * 0.9)]:.2f} s, "
        f"slowest {slowest}; over 1 s: {len(over)} ({small_wharf} of them with a small wharf owner)"
    )
    cpu_ordered = sorted(cpu_each)
    print(
        f"  the same in CPU seconds: median {statistics.median(cpu_ordered):.2f} s, 90th percentile {cpu_ordered[int(len(cpu_ordered) * 0.9)]:.2f} s, "
        f"slowest {cpu_ordered[-1]:.2f} s{' (stopped at the cap)' if ordered[-1] == float('inf') else ''}; over 1 s: {sum(c > 1 for c in cpu_each)}"
    )
    for i in sorted(range(len(texts)), key=lambda i: -seconds_each[i])[:slowest_n]:
        owners = "small wharf" if "small wharf" in texts[i] else "no small wharf"
        if seconds_each[i] == float("inf"):  # (its states not counted: that search would run on, uncapped)
            print(f"  #{i}: stopped at the cap of {cap:g} s, {texts[i].count('name:')} players, {owners}")
            continue
        states = ship(read_position(texts[i], "r.yaml")).states
        print(f"  #{i}: {seconds_each[i]:.2f} s (CPU {cpu_each[i]:.2f} s), {states:,} states, {texts[i].count('name:')} players, {owners}")


def _bare_imports() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import typer, pydantic, ruamel.yaml"], check=True)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
