"""The shipping search's two builds (referee/jobs/shipping/compiled.py, hatch_build.py): which one runs,
and that both give the same answers, byte for byte.

`REFEREE_EXPECT_BUILD` (CI sets it: `compiled` for the whole suite, `plain` for the shipping
tests run again with `REFEREE_PURE_PYTHON=1`) makes the build that must be running an assertion:
a compiler that silently failed in CI fails the test instead of leaving a plain build unnoticed.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import referee.jobs.shipping
from referee.jobs.shipping import build, compiled
from tests.conftest import FIXTURES, ROOT

# `referee ship --format json` (with `--all --limit 20` where asked) of each position given on
# stdin (a JSON list of [text, all]), one JSON text a line: the output of the build the
# environment chooses
ANSWERS = """
import json, sys
from referee.commands.ship import ShipRequest, ship_report
from referee.documents.inputs import Input
from referee.jobs.shipping import build
print(build())
for text, every in json.loads(sys.stdin.read()):
    pieces, code = ship_report(Input(text.encode(), "position.yaml", None), ShipRequest(as_json=True, every=every, limit=20 if every else None))
    print(json.dumps([code, "".join(pieces)]))
"""


def test_the_build_running_is_said_and_is_the_one_imported(capsys: pytest.CaptureFixture[str]) -> None:
    running = build()
    with capsys.disabled():
        print(f"\nshipping search: {running} build ({compiled.REASON or 'mypyc'})")
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in compiled.SEARCH:
        module = importlib.import_module(f"referee.jobs.shipping.{name}")  # (memo_native: imported by a compiled search only)
        origin = module.__spec__.origin if module.__spec__ is not None else None
        assert origin is not None
        assert origin.endswith(suffixes) == (running == "compiled"), f"{name} is imported from {origin}, the {running} build"
    assert running == ("plain" if compiled.REASON is not None else "compiled")
    if os.environ.get(compiled.PLAIN_SWITCH, "") not in ("", "0"):
        assert running == "plain"
    expected = os.environ.get("REFEREE_EXPECT_BUILD")
    if expected:
        assert running == expected, f"the {expected} build was expected: {compiled.REASON}"
    assert referee.jobs.shipping.build is build


def test_a_source_changed_since_compiled_runs_plain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in compiled.SEARCH:
        (tmp_path / f"{name}.py").write_text(f"# {name}\n")
    monkeypatch.setattr(compiled, "HERE", tmp_path)
    monkeypatch.delenv(compiled.PLAIN_SWITCH, raising=False)
    assert "not compiled" in str(compiled.plain_reason())
    for name in compiled.SEARCH:
        (tmp_path / f"{name}{suffix}").write_bytes(b"")
    assert "build.json" in str(compiled.plain_reason())
    digests = {f"{name}.py": hashlib.blake2b((tmp_path / f"{name}.py").read_bytes(), digest_size=32).hexdigest() for name in compiled.SEARCH}
    (tmp_path / compiled.STAMP).write_text(json.dumps({"compiler": "mypyc", "sources": digests}))
    assert compiled.plain_reason() is None
    (tmp_path / "values.py").write_text("# values, edited\n")
    assert "values.py changed since it was compiled" in str(compiled.plain_reason())
    (tmp_path / "values.py").write_text("# values\n")
    assert compiled.plain_reason() is None
    monkeypatch.setenv(compiled.PLAIN_SWITCH, "1")
    assert compiled.plain_reason() == f"{compiled.PLAIN_SWITCH}=1"


def _answers(texts: list[tuple[str, bool]], plain: bool) -> tuple[str, list[str]]:
    environment = {key: value for key, value in os.environ.items() if key != compiled.PLAIN_SWITCH}
    if plain:
        environment[compiled.PLAIN_SWITCH] = "1"
    out = subprocess.run([sys.executable, "-c", ANSWERS], input=json.dumps(texts), capture_output=True, text=True, cwd=ROOT, env=environment, check=True)
    running, *lines = out.stdout.splitlines()
    return running, lines


@pytest.mark.slow  # the plain build answers some sixty positions: three minutes
def test_both_builds_give_byte_identical_json() -> None:
    if build() != "compiled":
        if os.environ.get("REFEREE_EXPECT_BUILD") == "compiled":
            pytest.fail(f"the compiled build was expected: {compiled.REASON}")
        pytest.skip(f"one build only: {compiled.REASON}")
    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks.shipping import realistic_positions
    finally:
        sys.path.remove(str(ROOT))
    # the benchmark's first realistic positions but its slowest (seconds each, plain), and the
    # fixtures, its worst case among them; each also with its first outcomes (`--all`), but
    # the worst case (half a minute to its first 20)
    slow = {7, 12}
    texts = [text for i, text in enumerate(realistic_positions(30)) if i not in slow]
    texts += [path.read_text() for path in sorted((FIXTURES / "positions").glob("*.yaml"))]
    worst = (FIXTURES / "positions" / "heavy-5p.yaml").read_text()
    asked = [(text, False) for text in texts] + [(text, True) for text in texts if text != worst]
    with ThreadPoolExecutor(2) as pool:  # the two builds' processes side by side: the suite's longest test, halved
        compiled_run, plain_run = pool.submit(_answers, asked, False), pool.submit(_answers, asked, True)
        (compiled_build, compiled_answers), (plain_build, plain_answers) = compiled_run.result(), plain_run.result()
    assert (compiled_build, plain_build) == ("compiled", "plain")
    assert len(compiled_answers) == len(asked) > 50
    for (text, every), one, other in zip(asked, compiled_answers, plain_answers, strict=True):
        assert one == other, f"the builds differ ({'--all' if every else 'summary'}):\n{text}"


def test_the_modules_compiled_are_those_the_build_checks() -> None:
    """hatch_build.py compiles the search's modules; compiled.py checks that those are the
    modules compiled from the sources beside them: one list, held equal here."""
    import hatch_build

    assert hatch_build.SEARCH == compiled.SEARCH
    assert all((compiled.HERE / f"{name}.py").exists() for name in compiled.SEARCH)
