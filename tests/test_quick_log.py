"""The quick readers of documents (start-up and reading speed, issue 30) read what the full
readers read, or nothing.

A log written as logs are written is read a line at a time straight into what it says, then
resolved into its records (`documents.log.quick_log`); a plainly well-formed score sheet is
read without pydantic's models (`documents.sheet._plainly_valid`). Each gives exactly what the full reader gives: the same
records (every name, move, line and column) and the same numbers. Where a quick reader is not
sure, or the document has a problem, it reads nothing, and the full reader reads the document and
says every problem. Compared over the project's logs and sheets, random legal games, and random
mutations of them (those of test_quick_reader, and values of other types put in).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.diagnostics import InputError
from referee.documents import log
from referee.documents.sheet import _plainly_valid
from referee.documents.sheet_model import ScoreSheetModel
from referee.located.tree import read_yaml
from tests.test_quick_reader import ROOT, mutated, texts

OTHER_VALUES = ["true", "null", "-3", "10001", "3.0", "'5'", "[a, 1]", "{corn: 2}", "{corn: x}", "~", "0x10", "[]", "{}", "1234567890123456789012"]


def read_fully(text: str) -> Any:
    """The full reader's record of a log, or its diagnostics."""
    quick = log.quick_log
    log.quick_log = lambda *args: None  # type: ignore[assignment]
    try:
        return log.read_log(text, "x.yaml")
    except InputError as exc:
        return ("refused", exc.diagnostics)
    finally:
        log.quick_log = quick  # type: ignore[assignment]


def retyped(text: str, rng: random.Random) -> str:
    """The text with the value of one `key: value` line replaced by one of another type."""
    lines = text.split("\n")
    candidates = [number for number, line in enumerate(lines) if ": " in line]
    if candidates:
        number = rng.choice(candidates)
        key, _, _ = lines[number].partition(": ")
        lines[number] = f"{key}: {rng.choice(OTHER_VALUES)}"
    return "\n".join(lines)


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return texts() + [path.read_text(encoding="utf-8") for path in sorted((ROOT / "tests" / "corpus").rglob("*.yaml"))]


def test_the_quick_log_reader_reads_the_logs_as_the_full_reader_does(corpus: list[str]) -> None:
    quick = 0
    for text in corpus:
        record = log.quick_log(text, "x.yaml", None, None)
        if record is not None:
            quick += 1
            assert record == read_fully(text), text[:200]
    assert quick >= 15  # the generated logs, the corpus's, most fixtures


@pytest.mark.parametrize("seed", range(3))
def test_the_quick_log_reader_never_reads_a_log_otherwise(corpus: list[str], seed: int) -> None:
    rng = random.Random(seed)
    logs = [text for text in corpus if log.quick_log(text, "x.yaml", None, None) is not None]  # mutations of logs it reads
    quick = 0
    for _ in range(1500):
        text = rng.choice(logs)
        text = mutated(text, rng) if rng.random() < 0.7 else retyped(text, rng)
        record = log.quick_log(text, "x.yaml", None, None)
        if record is not None:
            quick += 1
            assert record == read_fully(text), text[:300]
    assert quick > 80  # (the mutations the quick reader reads vary with the logs generated: 99 to 130 of 1,500)


def test_a_log_the_quick_reader_refuses_is_read_fully_with_its_messages() -> None:
    text = (ROOT / "fixtures" / "game-3p.yaml").read_text(encoding="utf-8")
    assert log.quick_log(text, "x.yaml", None, None) is not None
    text = text.replace("- Marek: ", "- Mark: ", 1)
    assert log.quick_log(text, "x.yaml", None, None) is None
    with pytest.raises(InputError) as refused:
        log.read_log(text, "x.yaml")
    assert "'Mark' is not a player in this game (did you mean 'Marek'?)" in refused.value.diagnostics[0].message


def numbers(sheet: Any) -> dict[str, tuple[Any, ...]]:
    return {name: (p.chips, p.doubloons, p.goods, p.island, p.colonists, p.buildings, p.occupied) for name, p in sheet.players.items()}


def test_a_plainly_well_formed_sheet_is_read_as_the_model_reads_it() -> None:
    sheets = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "fixtures" / "sheets").rglob("*.yaml"))]
    rng = random.Random(1)
    plain = 0
    for number in range(4000):
        text = sheets[number % len(sheets)] if number < len(sheets) else rng.choice(sheets)
        if number >= len(sheets):
            text = mutated(text, rng) if rng.random() < 0.5 else retyped(text, rng)
        try:
            root = read_yaml(text, "x.yaml")
        except InputError:
            continue
        read = _plainly_valid(root)
        if read is not None:
            plain += 1
            assert numbers(read) == numbers(ScoreSheetModel.model_validate(root.plain())), text  # the model accepts it, with the same numbers
    assert plain > 500
