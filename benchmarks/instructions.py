"""Instructions a log for `check_log`, counted by valgrind: a figure the machine's load and speed
do not move (wall-clock times on the shared development machine vary by two between sessions).

Counts the CPU instructions of checking the first N generated logs (those of `benchmarks/batch.py`)
twice, less those of reading them in and one warm-up pass (rulesets loaded, move texts
remembered), for this checkout and for each `--tree DIR` (another checkout, e.g. a `git worktree`
of an older commit), and prints each with its ratio to the first tree given. Needs valgrind
(`apt-get install valgrind`).

    python benchmarks/instructions.py --tree /tmp/before          # this checkout against /tmp/before
    python benchmarks/instructions.py --logs 300 --tree A --tree B

With `--shipping`: the instructions of the shipping calculator's answer (`referee.ship`, the
search and all) on the slowest positions of `benchmarks/shipping.py`'s realistic set (#33 and
#90 of its 200) and on its worst case, each less those of reading the position in, for each
tree (a tree's own build: compiled where it was, else plain; `REFEREE_PURE_PYTHON=1` for the
plain one). The machine's speed varies by a third over a day and more; these figures do not.

    python benchmarks/instructions.py --shipping --tree /tmp/before
    python benchmarks/instructions.py --shipping --positions 33,90,12
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PASSES = 2


def driver(tree: str, directory: str, logs: int, passes: int) -> None:
    """Run inside valgrind: check the first `logs` logs of `directory` once (warm-up), then
    `passes` more times."""
    sys.path.insert(0, tree)
    try:
        from referee.jobs.check import check_log
    except ImportError:  # an older checkout: check_log lived in referee.check (7b8c32f, issue 30), before in referee.report
        try:
            from referee.check import check_log  # type: ignore[no-redef]
        except ImportError:
            from referee.report import check_log  # type: ignore[no-redef]
    import referee

    assert referee.__file__ is not None and referee.__file__.startswith(tree), referee.__file__
    paths = sorted(glob.glob(str(Path(directory) / "*.yaml")))[:logs]
    documents = [(Path(path).read_bytes(), path) for path in paths]
    codes = {check_log(data, name).exit_code for data, name in documents}
    if codes != {0}:
        raise SystemExit(f"{tree}: not every generated log is valid (exit codes {sorted(codes)})")
    for _ in range(passes):
        for data, name in documents:
            check_log(data, name)


def shipping_driver(tree: str, search: bool, paths: list[str]) -> None:
    """Run inside valgrind: read each shipping position of `paths` and, if `search`, answer it."""
    sys.path.insert(0, tree)
    from referee.documents.position import read_position
    from referee.jobs import shipping

    assert shipping.__file__ is not None and shipping.__file__.startswith(tree), shipping.__file__
    for path in paths:
        position = read_position(Path(path).read_text(), path)
        if search:
            shipping.ship(position)


def shipping_positions(indices: list[int], folder: Path) -> list[tuple[str, Path]]:
    """The realistic positions of `benchmarks/shipping.py` at `indices`, and its worst case,
    each written to a file in `folder` (made here: every tree reads the very same positions)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from shipping import WORST, realistic_positions

    sys.path.pop(0)
    texts = realistic_positions(max(indices) + 1)
    named = [(f"#{i}", texts[i]) for i in indices] + [("worst case", WORST)]
    out = []
    for name, text in named:
        path = folder / f"{name.replace('#', 'realistic-').replace(' ', '-')}.yaml"
        path.write_text(text)
        out.append((name, path))
    return out


def counted(arguments: list[str]) -> int:
    """Instructions counted by valgrind for this script run with `arguments`."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", sys.executable, __file__, *arguments]
    environment = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(command, capture_output=True, text=True, env=environment, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no instruction count:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def build_of(tree: Path) -> str:
    """Which build of the search a tree runs (`referee.jobs.shipping.build()`)."""
    script = f"import sys; sys.path.insert(0, {str(tree)!r}); from referee.jobs import shipping; print(shipping.build())"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.strip()


def count_shipping(trees: list[Path], indices: list[int]) -> None:
    """Count and print the instructions of each position's answer, tree by tree."""
    with tempfile.TemporaryDirectory() as folder:
        positions = shipping_positions(indices, Path(folder))
        first: list[int] = []
        for number, tree in enumerate(trees):
            # the tree's modules compiled to bytecode first: else the modules the answer imports would be parsed in the count
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "referee")], check=True)
            # and the positions read once, uncounted: a tree's first use of a ruleset writes its cache
            subprocess.run([sys.executable, __file__, "--shipping-driver", str(tree), "0", *(str(path) for _, path in positions)], check=True)
            # each answer less the same process that only reads the position: start-up and reading left out
            figures = [counted(["--shipping-driver", str(tree), "1", str(path)]) - counted(["--shipping-driver", str(tree), "0", str(path)]) for _, path in positions]
            if number == 0:
                first = figures
            parts = ", ".join(
                f"{name} {figure / 1e6:,.0f} M" + (f" ({figure / first[i]:.3f}x)" if number else "") for i, ((name, _), figure) in enumerate(zip(positions, figures, strict=True))
            )
            print(f"{tree} ({build_of(tree)}): referee.ship, instructions: {parts}", flush=True)


def log_directory() -> Path:
    """The generated logs of `benchmarks/batch.py` (generated by it when missing)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from batch import log_directory as batch_logs

    sys.path.pop(0)
    return batch_logs()


def instructions(tree: Path, directory: Path, logs: int, passes: int) -> int:
    """Instructions counted by valgrind for the driver with `passes` passes."""
    return counted(["--driver", str(tree), str(directory), str(logs), str(passes)])


def main() -> None:
    """Count and print the instructions a log of each checkout."""
    if len(sys.argv) == 6 and sys.argv[1] == "--driver":
        driver(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        return
    if len(sys.argv) >= 4 and sys.argv[1] == "--shipping-driver":
        shipping_driver(sys.argv[2], sys.argv[3] == "1", sys.argv[4:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", default=[], metavar="DIR", help="another checkout to count (first: the one the ratios are to)")
    parser.add_argument("--logs", type=int, default=100, metavar="N", help="generated logs to check (default 100)")
    parser.add_argument("--shipping", action="store_true", help="count the shipping calculator's answers instead (see above)")
    parser.add_argument("--positions", default="33,90", metavar="I,J", help="with --shipping: the realistic positions to count, by index (default 33,90)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed: apt-get install valgrind")
    if args.shipping:
        try:
            indices = [int(part) for part in args.positions.split(",")]
        except ValueError:
            raise SystemExit(f"--positions takes indices separated by commas, not {args.positions!r}") from None
        if not indices or min(indices) < 0:
            raise SystemExit("--positions takes indices from 0")
        count_shipping([tree.resolve() for tree in [*args.tree, ROOT]], indices)
        return
    directory = log_directory()
    if not any(directory.glob("*.yaml")):
        raise SystemExit(f"no generated logs in {directory}: run `python benchmarks/batch.py --reading` once first (or set REFEREE_BENCH_DIR)")
    figures = []
    for tree in [*args.tree, ROOT]:
        counted = [instructions(tree.resolve(), directory, args.logs, passes) for passes in (PASSES, 0)]
        per_log = (counted[0] - counted[1]) / PASSES / args.logs
        figures.append(per_log)
        ratio = f" ({per_log / figures[0]:.2f}x {args.tree[0]})" if args.tree and len(figures) > 1 else ""
        print(f"{tree}: check_log {per_log / 1e6:.2f} M instructions a log over {args.logs} logs{ratio}", flush=True)


if __name__ == "__main__":
    main()
