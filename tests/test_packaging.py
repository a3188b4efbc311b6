"""A wheel carries the rulesets and schemas, and finds them once installed; where a C compiler
is present it carries the shipping search compiled (hatch_build.py), its sources beside it."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile

import pytest

import hatch_build  # the build hook, at the project's root (on the path, as tests/ is)
from tests.conftest import ROOT


def _wheel(tmp_path, **environment):
    out = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        env={**os.environ, **environment},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = tmp_path.glob("*.whl")
    return wheel, set(zipfile.ZipFile(wheel).namelist()), out.stdout + out.stderr


def _compiled_files():
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return {f"referee/jobs/shipping/{name}{suffix}" for name in (*hatch_build.SEARCH, hatch_build.LIBRARY)} | {"referee/jobs/shipping/build.json"}


@pytest.mark.slow  # a wheel built, with its compiled search: forty seconds
def test_wheel_contains_rulesets_and_schemas_and_the_compiled_search(tmp_path):
    wheel, names, said = _wheel(tmp_path)
    for ruleset in (ROOT / "rulesets").glob("*.yaml"):
        assert f"referee/_data/rulesets/{ruleset.name}" in names
    for schema in (ROOT / "schemas").glob("*.json"):
        assert f"referee/_data/schemas/{schema.name}" in names
    assert "referee/commands/cli.py" in names
    assert {f"referee/jobs/shipping/{name}.py" for name in hatch_build.SEARCH} <= names  # the one source, in both builds
    reason = hatch_build.plain_reason()
    if os.environ.get("REFEREE_EXPECT_BUILD") == "compiled":
        assert reason is None, f"CI expects the compiled build: {reason}"
    if reason is None:
        assert _compiled_files() <= names, said[-2000:]
        assert not wheel.name.endswith("-py3-none-any.whl"), wheel.name  # for this Python and platform
        assert f"Requires-Dist: librt>={hatch_build.librt_version()}" in _metadata(wheel)  # the compiled memo's buffers
    else:
        assert not names & _compiled_files()
        assert wheel.name.endswith("-py3-none-any.whl")
        assert "librt" not in _metadata(wheel)


def _metadata(wheel):
    archive = zipfile.ZipFile(wheel)
    (name,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
    return archive.read(name).decode()


def test_without_a_c_compiler_the_wheel_is_plain_python(tmp_path):
    wheel, names, said = _wheel(tmp_path, CC="/nonexistent/cc")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    assert not names & _compiled_files()
    assert "referee/jobs/shipping/values.py" in names
    assert "librt" not in _metadata(wheel)  # a plain install needs nothing of mypyc's
    assert "the shipping search is not compiled (no C compiler: /nonexistent/cc is not found)" in said


def test_resource_resolver_finds_bundled_rulesets():
    from referee.rulesets.load import bundled_rulesets

    assert "base" in bundled_rulesets()
