"""A wheel carries the rulesets and schemas, and finds them once installed."""

from __future__ import annotations

import subprocess
import sys
import zipfile

from tests.conftest import ROOT


def test_wheel_contains_rulesets_and_schemas(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for ruleset in (ROOT / "rulesets").glob("*.yaml"):
        assert f"referee/_data/rulesets/{ruleset.name}" in names
    for schema in (ROOT / "schemas").glob("*.json"):
        assert f"referee/_data/schemas/{schema.name}" in names
    assert "referee/cli.py" in names


def test_resource_resolver_finds_bundled_rulesets():
    from referee.rulesets.load import bundled_rulesets

    assert "base" in bundled_rulesets()
