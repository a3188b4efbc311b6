"""Benchmark of the shipping calculator: a five-player captain phase played out completely.

Five players, each with a barrel of every kind (within the game's supply), two wharfs and a
harbor, all cargo ships empty: every kind can go on every ship, so who loads what, on which
ship, and when the wharfs are used, all change the outcome. Prints the states explored, the
distinct outcomes found and the seconds taken to find every outcome (reading the position
included), then the same for the captain's best move (`--for`).

    python benchmarks/shipping.py             # target: every outcome in under one second
    python benchmarks/shipping.py --repeat 11 # more runs (the fastest and the median are shown)
"""

from __future__ import annotations

import argparse
import statistics
import time

from referee.records.position import read_position
from referee.shipping import Shipping

POSITION = """\
ruleset: base
ships: {6: empty, 7: empty, 8: empty}
players:
  - {name: Anna, goods: {corn: 1, indigo: 1, sugar: 1, tobacco: 1, coffee: 1}, buildings: [harbor]}
  - {name: Ben,  goods: {corn: 1, indigo: 1, sugar: 1, tobacco: 1, coffee: 1}, buildings: [wharf]}
  - {name: Cleo, goods: {corn: 1, indigo: 1, sugar: 1, tobacco: 1, coffee: 1}, buildings: [small warehouse]}
  - {name: Dora, goods: {corn: 1, indigo: 1, sugar: 1, tobacco: 1, coffee: 1}, buildings: [wharf, large warehouse]}
  - {name: Emil, goods: {corn: 1, indigo: 1, sugar: 1, tobacco: 1, coffee: 1}}
"""


def run() -> tuple[int, int, float, str, int, float]:
    """One run: (states, outcomes, seconds; best move, its states, seconds)."""
    start = time.perf_counter()
    position = read_position(POSITION, "benchmark.yaml")
    shipping = Shipping(position)
    outcomes = shipping.play_out()
    found = time.perf_counter()
    states = shipping.states
    best = shipping.best_for(0)
    done = time.perf_counter()
    move = best.move.text(position.rules) if best.move is not None else "nothing"
    return states, len(outcomes), found - start, f"{move} ({best.phase_vp} VP in the phase)", shipping.states, done - found


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs (timings on a shared machine vary: the fastest and the median are shown)")
    args = parser.parse_args()
    runs = [run() for _ in range(max(1, args.repeat))]
    states, outcomes, _, best, best_states, _ = runs[0]
    every = sorted(r[2] for r in runs)
    best_times = sorted(r[5] for r in runs)
    print(f"states explored: {states:,}")
    print(f"outcomes found:  {outcomes:,}")
    print(f"seconds:         first run {runs[0][2]:.3f}, fastest {every[0]:.3f}, median {statistics.median(every):.3f} of {len(runs)} (every outcome; target < 1)")
    print(f"best for Anna:   {best}: {best_states:,} states, fastest {best_times[0]:.3f} s, median {statistics.median(best_times):.3f} s")


if __name__ == "__main__":
    main()
