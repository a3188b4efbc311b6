"""Fuzzing the readers (logs, sheets, shipping positions) and the command line (bounded, in CI):
whatever the bytes, referee answers with exit 0, 1 or 2 and positioned diagnostics, never a
traceback.

For a longer run (nightly): `REFEREE_FUZZ_SCALE=50 python -m pytest tests/test_fuzz.py` runs
fifty times as many examples of each. Inputs that once broke something are kept in tests/fuzz/
and replayed here for ever.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.commands.cli import app
from referee.jobs.check import check_log, score_sheet
from tests.conftest import FIXTURES, ROOT

SEEDS = [p.read_bytes() for p in sorted(FIXTURES.glob("*.yaml"))] + [(FIXTURES / "game-3p.yaml").read_bytes()[:3000]]
CORPUS = sorted((ROOT / "tests" / "fuzz").glob("*"))
SCALE = int(os.environ.get("REFEREE_FUZZ_SCALE", "1"))  # more examples for a nightly run
FUZZ = settings(max_examples=150 * SCALE, deadline=None, derandomize=SCALE == 1, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# the positions whose searches take seconds or minutes (heavy-5p, seconds, minutes) are for the benchmarks and the server's time limit: mutated, each example would cost as much
POSITIONS = [p.read_bytes() for p in sorted((FIXTURES / "positions").glob("*.yaml")) if p.name not in ("heavy-5p.yaml", "minutes.yaml", "seconds.yaml")]


def assert_well_behaved(data: bytes) -> None:
    report = check_log(data, "fuzz.yaml")
    assert report.exit_code in (0, 1, 2)
    lines = data.count(b"\n") + 2
    for d in report.errors:
        assert d.rule and d.message
        if d.location is not None:
            assert 1 <= d.location.line <= lines and d.location.column >= 1
    json.dumps([d.message for d in report.errors])


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes] = SEEDS) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "replace", "dup-line", "cut"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif op == "insert":
            data[at:at] = draw(st.sampled_from([b":", b"- ", b"{", b"]", b"\n", b"  ", b"\t", b"&a ", b"*a", b"!!str ", b"\xff", b"\x00", b"9" * 30, b"'", b'"', b"#"]))
        elif op == "replace":
            data[at : at + 1] = draw(st.binary(min_size=1, max_size=3))
        elif op == "dup-line":
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            data = bytearray(b"\n".join(lines))
        else:
            del data[at:]
    return bytes(data)


@FUZZ
@given(mutated())
def test_mutated_logs_never_crash(data):
    assert_well_behaved(data)


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes_never_crash(data):
    assert_well_behaved(data)


@FUZZ
@given(st.text(max_size=300))
def test_random_text_never_crashes(text):
    assert_well_behaved(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=60 * SCALE, deadline=None, derandomize=SCALE == 1)
@given(mutated(POSITIONS))
def test_mutated_shipping_positions_never_crash(data):
    """Through the whole command: read, answer, render (a position is small: every answer comes
    at once)."""
    from referee.commands.ship import ShipRequest, ship_report
    from referee.documents.inputs import Input

    for as_json in (False, True):
        output, code = ship_report(Input(data, "fuzz.yaml", None), ShipRequest(as_json=as_json))
        text = "".join(output)
        assert code in (0, 2) and text.endswith("\n")
        if as_json:
            json.loads(text)


@settings(max_examples=60 * SCALE, deadline=None, derandomize=SCALE == 1)
@given(st.binary(max_size=300) | st.sampled_from(SEEDS))
def test_random_sheets_never_crash(data):
    report = score_sheet(data, "fuzz.yaml", None, None)
    assert report.exit_code in (0, 2)


ARGS = st.lists(
    st.sampled_from(["validate", "score", "rules", "schema", "--format", "json", "text", "--sheet", "-r", "base", "1897", "x.yaml", "-", "--building", "harbor", "--provisional", "ship", "--for", "Anna", "--help"])
    | st.text(max_size=8),
    max_size=5,
)


@settings(max_examples=80 * SCALE, deadline=None, derandomize=SCALE == 1)
@given(ARGS)
def test_random_command_lines_never_crash(args):
    result = CliRunner().invoke(app, args, input="")
    assert result.exit_code in (0, 1, 2), (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_fuzz_corpus_inputs_stay_fixed(path):
    assert_well_behaved(path.read_bytes())
