"""Mistakes players make writing a log, a score sheet or a shipping position by hand, each
explained in the document's own terms at the line of the mistake, with the form expected.

Each file of fixtures/broken says on its second line what the referee must answer
(`# expect: LINE:COLUMN: error[RULE]: SENTENCE`); the file name says which document it is.
"""

from __future__ import annotations

import pytest

from referee.check import check_log
from referee.diagnostics import InputError
from referee.records.position import read_position
from referee.render.report import diagnostic_line
from referee.sheet import score_sheet
from tests.conftest import FIXTURES

MISTAKES = sorted((FIXTURES / "broken").glob("*.yaml"))


def answer(path) -> list[str]:
    """The diagnostics of the file, as `LINE:COLUMN: error[RULE]: SENTENCE` lines."""
    data = path.read_bytes()
    kind = path.name.split("-")[0]
    if kind == "log":
        report = check_log(data, path.name)
        errors, code = report.errors, report.exit_code
    elif kind == "sheet":
        report = score_sheet(data, path.name)
        errors, code = report.errors, report.exit_code
    else:
        assert kind == "position", path.name
        with pytest.raises(InputError) as raised:
            read_position(data, path.name)
        errors, code = raised.value.diagnostics, 2
    assert code == 2  # a mistake of writing is a reading error, never a broken rule
    return [diagnostic_line(d, path.name).removeprefix(f"{path.name}:").strip() for d in errors]


def test_there_are_mistakes_of_every_kind():
    assert {p.name.split("-")[0] for p in MISTAKES} == {"log", "sheet", "position"}
    assert len(MISTAKES) >= 12


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.stem)
def test_a_mistake_is_explained_at_its_line(path):
    expected = path.read_text().splitlines()[1].removeprefix("# expect:").strip()
    assert answer(path) == [expected]
