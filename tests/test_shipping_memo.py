"""The valuation's memo (referee/jobs/shipping/memo.py, memo_native.py): a state's key gives back
its values, from the dictionary of the plain build and the native table of the compiled one alike,
and the search answers the same from either, and from keys packed in fewer bits a word."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.diagnostics import InputError
from referee.documents.position import read_position
from referee.jobs.shipping import build
from referee.jobs.shipping.keys import _placed, new_table, placed
from referee.jobs.shipping.memo import DictMemo, DictTable, IntTable, Memo
from referee.jobs.shipping.memo_native import CHUNK_ENTRIES, TABLE_SLOTS, NativeMemo, NativeTable
from referee.jobs.shipping.phase import CaptainPhase
from referee.jobs.shipping.values import Valuation, new_memo
from tests.conftest import FIXTURES, ROOT

WORD = (1 << 62) - 1  # the largest word a native key holds (`keys.NATIVE_BITS`)
MEMOS = [DictMemo, NativeMemo]
CONTESTED = """\
ruleset: expansion-1
ships: {4: empty, 5: corn 1, 6: empty}
players:
  - {name: Anna, goods: {sugar: 3, corn: 2, tobacco: 2}, buildings: [harbor, small wharf]}
  - {name: Ben, goods: {tobacco: 3, corn: 1}, buildings: []}
  - {name: Cleo, goods: {indigo: 1, sugar: 2, corn: 3, coffee: 2}, buildings: [wharf, small warehouse, small wharf]}
"""


@pytest.mark.parametrize("kind", MEMOS)
def test_a_stored_key_gives_back_its_values_and_an_unknown_key_is_not_found(kind: type[Memo]) -> None:
    memo = kind()
    assert memo.find((1, 2, 3, 4, 5)) == -1
    memo.put((1, 2, 3, 4, 5), (10, 20, 30, 40))
    memo.put((0, 0, 0, 0, 0), (0, 0, 0, 0))
    memo.put((WORD, 0, WORD, 0, WORD), (1 << 49, 7, 1 << 49, 3))
    assert memo.values(memo.find((1, 2, 3, 4, 5))) == (10, 20, 30, 40)
    assert memo.values(memo.find((0, 0, 0, 0, 0))) == (0, 0, 0, 0)
    assert memo.values(memo.find((WORD, 0, WORD, 0, WORD))) == (1 << 49, 7, 1 << 49, 3)
    assert memo.find((1, 2, 3, 4, 6)) == -1  # one word apart: another key
    assert memo.find((2, 1, 3, 4, 5)) == -1
    assert memo.size() == 3


@pytest.mark.parametrize("kind", MEMOS)
def test_every_key_of_many_is_found_after_the_table_has_grown(kind: type[Memo]) -> None:
    rng = random.Random(26)
    stored: dict[tuple[int, int, int, int, int], tuple[int, int, int, int]] = {}
    # the native table starts at 4,096 slots: it grows four times, and its entries fill two chunks and start a third
    while len(stored) < 2 * CHUNK_ENTRIES + 4_000:
        # keys alike but for a word or a bit or two, as a search's are
        key = (rng.randrange(64), rng.choice([0, 1, WORD]), rng.randrange(4), rng.randrange(1 << 40), rng.randrange(3))
        stored[key] = tuple(rng.randrange(1 << 50) for _ in range(4))  # type: ignore[assignment]
    memo = kind()
    for key, values in stored.items():
        assert memo.find(key) == -1
        memo.put(key, values)
    assert memo.size() == len(stored)
    for key, values in stored.items():
        assert memo.values(memo.find(key)) == values
    absent = [(64 + i, 0, 0, 0, 0) for i in range(100)] + [(0, 2, 0, 0, 0), (0, 0, 4, 0, 0)]
    assert all(memo.find(key) == -1 for key in absent)


@pytest.mark.parametrize("kind", [DictTable, NativeTable])
def test_a_small_table_gives_back_what_it_holds_after_growing(kind: type[IntTable]) -> None:
    """The search's small tables (a Room's dropping players, a Cargo's loads, the key's parts):
    integers by integers under 2 ** 62, each found again once the table has grown many times over,
    and an unknown key not found."""
    rng = random.Random(62)
    stored: dict[int, int] = {0: 5, WORD: 0, WORD - 1: WORD}  # the smallest and largest keys and values
    while len(stored) < 200 * TABLE_SLOTS:
        stored[rng.choice([rng.randrange(1 << 20), rng.randrange(1 << 62)])] = rng.randrange(1 << 62)
    table = kind()
    for key, value in stored.items():
        assert table.find(key) == -1
        table.put(key, value)
        assert table.find(key) == value
    assert all(table.find(key) == value for key, value in stored.items())
    assert all(table.find(key) == -1 for key in range(1 << 21, (1 << 21) + 1_000) if key not in stored)


def test_the_compiled_build_keeps_the_memo_in_native_words_and_the_plain_one_in_a_dictionary() -> None:
    # the widest position of the standard rulesets: five players, ten barrels of a kind
    phase = CaptainPhase(read_position((FIXTURES / "positions" / "heavy-5p.yaml").read_text(), "heavy-5p.yaml"))
    assert phase.keys.native
    memo = Valuation(CaptainPhase(read_position(CONTESTED, "p.yaml")), 0).memo
    assert type(memo) is (NativeMemo if build() == "compiled" else DictMemo)
    assert type(new_memo(False)) is DictMemo  # keys that do not fit in words
    assert type(new_table()) is (NativeTable if build() == "compiled" else DictTable)


@pytest.mark.parametrize("network", [True, False])
def test_keys_sorted_either_way_and_packed_one_column_a_word_give_the_same_answer(network: bool) -> None:
    """A key's columns are sorted by a network of compare-and-swaps (compiled) or by a list's sort
    (plain); its words hold as many columns as fit, and where fewer fit (a ruleset of more kinds,
    more barrels of a kind) the third word takes all the rest, unbounded, and the dictionary holds
    the keys: the answer is the one of the usual key, states and all."""
    position = read_position(CONTESTED, "p.yaml")
    usual = Valuation(CaptainPhase(position), 0)
    phase = CaptainPhase(position)
    keys = phase.keys
    assert keys.per_word == 5 and keys.native  # usually: every column in the first word
    assert keys.network == (build() == "compiled")
    keys.network = network
    keys.per_word, keys.column_bits, keys.native = 1, 40, False  # one a word, the third word over 64 bits
    phase.root_key, phase.root_shift = keys.key(phase.root, phase.root_room)
    assert phase.root_key[2] >= 1 << 64
    narrow = Valuation(phase, 0)
    assert type(narrow.memo) is DictMemo
    assert narrow.states == usual.states > 1_000
    assert narrow.root_values() == usual.root_values()


def test_a_keys_columns_are_packed_alike_in_native_words_and_in_pythons_integers() -> None:
    """The compiled build packs a network's five columns in native words (`_placed`), every
    other key in Python's integers (`placed`): the words are the same wherever both can."""
    rng = random.Random(41)
    for _ in range(2_000):
        count, bits = rng.randint(0, 5), rng.randint(1, 20)
        per_word = rng.randint(1, 5)
        if bits * max(per_word, count - 2 * per_word) > 62:
            continue
        columns = sorted(rng.randrange(1 << bits) for _ in range(count))
        padded = [*columns, *[0] * (5 - count)]
        assert _placed(*padded, count, bits, per_word) == placed(columns, bits, per_word), (columns, bits, per_word)
    assert placed([1, 2, 3], 4, 1) == (1, 2, 3 << 0)  # one a word
    assert placed([1, 2, 3], 4, 2) == (1 | 2 << 4, 3, 0)


def test_without_librt_the_compiled_search_answers_from_a_dictionary(tmp_path: Path) -> None:
    """The native table is made of mypyc's librt (a compiled wheel requires it): where it cannot
    be imported, the search still answers, the same, its memo a dictionary."""
    (tmp_path / "librt").mkdir()
    (tmp_path / "librt" / "__init__.py").write_text('raise ImportError("no librt here")\n')
    script = (
        "from referee.documents.position import read_position\n"
        "from referee.jobs.shipping import build, ship\n"
        "from referee.jobs.shipping.phase import CaptainPhase\n"
        "from referee.jobs.shipping.values import Valuation\n"
        f"position = read_position(open({str(FIXTURES / 'positions' / 'formats-example.yaml')!r}).read(), 'p.yaml')\n"
        "print(build(), type(Valuation(CaptainPhase(position), 0).memo).__name__, ship(position).vp[0].guaranteed)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == [build(), "DictMemo", "9"]  # Anna is guaranteed 9 (docs/formats/shipping-position.md)


def test_without_mypy_extensions_the_search_answers_the_same(tmp_path: Path) -> None:
    """The search names mypyc's native integers (`i64`) from mypy_extensions, which a compiled
    wheel brings (with librt) and a plain install may not have: without it, `i64` is `int`, and
    the search answers, the same."""
    (tmp_path / "mypy_extensions").mkdir()
    (tmp_path / "mypy_extensions" / "__init__.py").write_text('raise ImportError("no mypy_extensions here")\n')
    script = (
        "from referee.documents.position import read_position\n"
        "from referee.jobs.shipping import build, ship\n"
        f"position = read_position(open({str(FIXTURES / 'positions' / 'formats-example.yaml')!r}).read(), 'p.yaml')\n"
        "answer = ship(position)\n"
        "print(build(), *(r.guaranteed for r in answer.vp), *(r.best for r in answer.vp))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == [build(), "9", "4", "0", "10", "4", "1"]  # docs/formats/shipping-position.md


def test_a_position_too_wide_for_native_integers_is_refused_at_its_players(tmp_path: Path) -> None:
    """A player's barrels of every kind are one native integer of the search (`compact`): a
    ruleset whose supply would pass its bits (none of the standard ones comes near it) is
    refused, said at the players, in both builds alike; one that just fits is answered."""
    ruleset = tmp_path / "vast.yaml"
    ruleset.write_text(
        "id: vast-test\nextends: base\ntitle: vast supply (tests only)\n"
        "goods:\n"
        "  - {id: corn, name: corn, price: 0, barrels: 5000, plantations: 10, building_needed: false}\n"
        "  - {id: indigo, name: indigo, price: 1, barrels: 5000, plantations: 12}\n"
    )
    fits = f"ruleset: {ruleset}\nships: {{4: empty, 5: empty, 6: empty}}\nplayers:\n  - {{name: Anna, goods: {{corn: 999}}}}\n  - {{name: Ben, goods: {{corn: 999}}}}\n  - {{name: Cleo, goods: {{corn: 49}}}}\n"
    assert CaptainPhase(read_position(fits, "fits.yaml")).width == 11  # 2,047 corn: 5 kinds of 11 bits, 55, under 56
    too_wide = fits.replace("corn: 49", "corn: 50")  # 2,048 corn: 12 bits
    with pytest.raises(InputError) as refused:
        CaptainPhase(read_position(too_wide, "wide.yaml"))
    (diagnostic,) = refused.value.diagnostics
    assert diagnostic.rule == "position.too-large"
    assert "5 kinds, up to 2048 barrels of a kind and 3 cargo ships do not fit" in diagnostic.message
    assert diagnostic.location is not None and diagnostic.location.line == 3  # players:
    position = tmp_path / "wide.yaml"
    position.write_text(too_wide)
    out = subprocess.run([sys.executable, "-m", "referee", "ship", str(position), "--format", "json"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 2, out.stderr  # a position that cannot be used, said as every other
    (error,) = json.loads(out.stdout)["errors"]
    assert (error["rule"], error["line"]) == ("position.too-large", 3)
