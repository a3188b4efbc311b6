"""Start-up of every command on a small input, against its floor: the bare
`python -c "import typer, pydantic, ruamel.yaml"` (issue 30's target: at most 1.3 times).

Each command is one whole `python -m referee ...` process on the small example of its document
(docs/formats/), its CPU instructions counted by valgrind (a figure that the machine's load does
not move; `--cpu`, or without valgrind: CPU seconds, the median of 20 runs, alternating with the
bare imports). referee's bytecode is compiled first, as an installed package's is, and each
command runs once before it is counted (the rulesets' cache filled).

    python benchmarks/startup.py            # every command, instructions (valgrind)
    python benchmarks/startup.py --cpu      # CPU seconds instead
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.3
FIXTURES = ROOT / "fixtures"
BARE = ["-c", "import typer, pydantic, ruamel.yaml"]
COMMANDS = {
    "validate (a log of 11 moves)": ["validate", str(FIXTURES / "formats-log.yaml")],
    "validate (a whole game, 168 moves)": ["validate", str(FIXTURES / "game-2p.yaml")],
    "score (a whole game)": ["score", str(FIXTURES / "game-2p.yaml")],
    "score --sheet": ["score", "--sheet", str(FIXTURES / "sheets" / "formats-example.yaml")],
    "ship": ["ship", str(FIXTURES / "positions" / "formats-example.yaml")],
    "next": ["next", str(FIXTURES / "formats-log.yaml")],
    "schema game-log": ["schema", "game-log"],
    "rules base": ["rules", "base"],
    "--help": ["--help"],
    **{f"{command} --help": [command, "--help"] for command in ("validate", "score", "ship", "next", "rules", "schema", "play", "serve")},  # each command's own help
}
RUNS = 20


def environment() -> dict[str, str]:
    """The environment of every run: a fixed hash seed (the same objects, the same counts)."""
    return dict(os.environ, PYTHONHASHSEED="0", COLUMNS="80")


def instructions(args: list[str]) -> int:
    """CPU instructions of one run of `python ARGS`, counted by valgrind."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", sys.executable, *args]
    out = subprocess.run(command, capture_output=True, text=True, env=environment(), cwd=ROOT, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no instruction count for {args}:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def cpu_seconds(args: list[str]) -> float:
    """CPU seconds (user and system) of one run of `python ARGS`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *args], capture_output=True, env=environment(), cwd=ROOT, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    """Measure the bare imports and each command; print each against the floor."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", action="store_true", help=f"CPU seconds (median of {RUNS} runs) instead of valgrind's instruction counts")
    args = parser.parse_args()
    counted = not args.cpu and shutil.which("valgrind") is not None
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "referee")], check=True)
    for command in COMMANDS.values():  # the rulesets' cache filled, the bytecode of each path compiled
        subprocess.run([sys.executable, "-m", "referee", *command], capture_output=True, env=environment(), cwd=ROOT, check=False)
    if counted:
        floor = float(instructions(BARE))
        print(f"bare imports (typer, pydantic, ruamel.yaml): {floor / 1e6:,.0f} million instructions (valgrind)")
    else:
        print(f"valgrind {'not used' if args.cpu else 'not found'}: CPU seconds, medians of {RUNS} runs, each command alternating with the bare imports")
    for name, command in COMMANDS.items():
        if counted:
            figure = float(instructions(["-m", "referee", *command]))
            said = f"{figure / 1e6:,.0f} million instructions"
        else:
            bare, times = [], []
            for _ in range(RUNS):
                bare.append(cpu_seconds(BARE))
                times.append(cpu_seconds(["-m", "referee", *command]))
            floor, figure = statistics.median(bare), statistics.median(times)
            said = f"{figure * 1000:.0f} ms CPU (bare imports {floor * 1000:.0f} ms)"
        ratio = figure / floor
        print(f"referee {name}: {said}, {ratio:.2f}x the bare imports   target <= {TARGET}x{'' if ratio <= TARGET else '   (over)'}", flush=True)


if __name__ == "__main__":
    main()
