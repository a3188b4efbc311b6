"""Batch validation of 1,000 generated logs with --jobs 1 and --jobs 2 (issue 7's targets).

The logs are random legal games (referee play: base, expansion-1 and 1897, 2 to 5 players),
generated once into a cache directory. Targets: under 30 s with --jobs 2, and a speed-up of
at least 1.7 over --jobs 1.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.play import play, to_log  # noqa: E402
from referee.rulesets.load import load_ruleset  # noqa: E402

COUNT = 1000
RULESETS = ("base", "expansion-1", "1897")


def logs(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    rules = {name: load_ruleset(name) for name in RULESETS}
    paths = []
    for i in range(COUNT):
        path = directory / f"game-{i:04d}.yaml"
        if not path.exists():
            name = RULESETS[i % 3]
            path.write_text(to_log(play(rules[name], 2 + i % 4, i), name), encoding="utf-8")
        paths.append(path)
    return paths


def timed(args: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "referee", "validate", *args], capture_output=True, text=True)
    return time.perf_counter() - start, out.returncode


def main() -> None:
    directory = Path(os.environ.get("REFEREE_BENCH_DIR", Path(tempfile.gettempdir()) / "referee-bench-logs"))
    start = time.perf_counter()
    paths = logs(directory)
    print(f"{len(paths)} logs in {directory} (generated or reused in {time.perf_counter() - start:.1f} s)")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "referee")], check=True)
    one, code1 = timed([str(directory), "--jobs", "1"])
    two, code2 = timed([str(directory), "--jobs", "2"])
    print(f"--jobs 1: {one:.1f} s (exit {code1})")
    print(f"--jobs 2: {two:.1f} s (exit {code2})   target < 30 s")
    print(f"speed-up: {one / two:.2f}   target >= 1.7")


if __name__ == "__main__":
    main()
