"""ruff and mypy are part of the test run (they are dev dependencies, installed by CI)."""

from __future__ import annotations

import shutil
import subprocess
import sys

from tests.conftest import ROOT


def test_ruff_is_clean():
    ruff = shutil.which("ruff")
    assert ruff, "ruff is a dev dependency: pip install -e '.[dev]'"
    out = subprocess.run([ruff, "check", "referee", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_is_clean():
    out = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
