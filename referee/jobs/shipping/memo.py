"""The valuation's memo: each state key's values (`values`), the only table that grows with the search.

A key (`keys`) is five integers, a state's values four (`Blocks`). Two stores hold them, the same
answers from either (a key and its values go in and come out unchanged):

- `DictMemo`: a dictionary of the keys, as tuples; the plain build's, and the one for a phase
  whose keys do not fit in 64-bit words (`Keys.native`);
- `NativeMemo` (`memo_native`): the compiled build's, an open-addressing table of 64-bit words,
  no Python object a state: a look-up is a few native operations and at most a cache miss or
  two, where a dictionary of tuples reads the key's objects, and freeing it is freeing its
  buffers (mypyc's `librt.vecs`, imported only where the search is compiled).

`values.new_memo` chooses.
"""

from __future__ import annotations

from referee.jobs.shipping.compact import i64

Key = tuple[int, int, int, int, int]  # see `Keys.key`
# a state's values as the search keeps them (`values`): best, expected VP, barrels kept, guaranteed VP; a block
# each, native integers (five players at most, the rulesets' bound: 50 bits a block)
Blocks = tuple[i64, i64, i64, i64]


class Memo:
    """What the valuation asks of its memo: `find` a key's entry, read its `values`, `put` a new
    one, and the `size`."""

    def find(self, key: Key) -> int:
        """The entry of `key`, or -1 if it has none."""
        raise NotImplementedError

    def values(self, entry: int) -> Blocks:
        """The values stored at `entry` (from `find`)."""
        raise NotImplementedError

    def put(self, key: Key, values: Blocks) -> None:
        """Store `values` under `key`, which has none yet."""
        raise NotImplementedError

    def size(self) -> int:
        """How many keys are stored."""
        raise NotImplementedError


class DictMemo(Memo):
    """The memo as a dictionary of keys (each to its entry's number) and a list of values."""

    def __init__(self) -> None:
        self.entries: dict[Key, int] = {}
        self.stored: list[Blocks] = []

    def find(self, key: Key) -> int:
        """The entry of `key`, or -1 if it has none."""
        return self.entries.get(key, -1)

    def values(self, entry: int) -> Blocks:
        """The values stored at `entry`."""
        return self.stored[entry]

    def put(self, key: Key, values: Blocks) -> None:
        """Store `values` under `key`."""
        self.entries[key] = len(self.stored)
        self.stored.append(values)

    def size(self) -> int:
        """How many keys are stored."""
        return len(self.stored)


class IntTable:
    """A table of integers by integers, both under 2 ** 62 and not negative (the search's small
    tables, read at every move): `find` a key's value (-1: none), `put` one (the key has none)."""

    def find(self, key: int) -> int:
        """The value under `key`, or -1 if it has none."""
        raise NotImplementedError

    def put(self, key: int, value: int) -> None:
        """Store `value` under `key`, which has none yet."""
        raise NotImplementedError


class DictTable(IntTable):
    """The table as a dictionary (the plain build's, and one whose keys may pass 62 bits)."""

    def __init__(self) -> None:
        self.entries: dict[int, int] = {}

    def find(self, key: int) -> int:
        """The value under `key`, or -1 if it has none."""
        return self.entries.get(key, -1)

    def put(self, key: int, value: int) -> None:
        """Store `value` under `key`."""
        self.entries[key] = value
