"""The compiled build's memo (`memo`): an open-addressing table of 64-bit words.

Each entry is ten words in one growing buffer, the key's five then the values' five, in the
order they were stored; a second buffer, of a power of two slots, holds each slot's entry plus
one (0: an empty slot), probed from the key's hash onwards, one slot at a time, and at most half
full. No Python object a state: a look-up reads two buffers, and freeing the table frees two
buffers. Imported only where the search is compiled (`values.new_memo`): run as plain Python, its
loops would be slower than a dictionary.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from referee.jobs.shipping.memo import Blocks, Key, Memo

STRIDE: Final = 10  # the words of an entry: the key's five, the values' five
FIRST_SLOTS: Final = 1 << 12
LOW31: Final = (1 << 31) - 1
MIXER: Final = 0x5BD1E995  # (under 2 ** 31: a product with 31 bits never leaves 62)


def slot_of(w0: i64, w1: i64, w2: i64, w3: i64, w4: i64, mask: i64) -> i64:
    """The first slot to probe for a key (its words each under 2 ** 62, `Keys.native`), by
    31-bit halves mixed in, so that no product overflows."""
    h: i64 = 0x2545F491
    h = ((h ^ (w0 & LOW31)) * MIXER) & LOW31
    h = ((h ^ (w0 >> 31)) * MIXER) & LOW31
    h = ((h ^ (w1 & LOW31)) * MIXER) & LOW31
    h = ((h ^ (w1 >> 31)) * MIXER) & LOW31
    h = ((h ^ (w2 & LOW31)) * MIXER) & LOW31
    h = ((h ^ (w2 >> 31)) * MIXER) & LOW31
    h = ((h ^ (w3 & LOW31)) * MIXER) & LOW31
    h = ((h ^ (w3 >> 31)) * MIXER) & LOW31
    h = ((h ^ (w4 & LOW31)) * MIXER) & LOW31
    h = ((h ^ (w4 >> 31)) * MIXER) & LOW31
    return (h ^ (h >> 15)) & mask


class NativeMemo(Memo):
    """The memo as two buffers of 64-bit words (see the module)."""

    def __init__(self) -> None:
        self.entries: vec[i64] = vec[i64]()
        self.slots: vec[i64] = vec[i64]([0] * FIRST_SLOTS)
        self.mask: i64 = FIRST_SLOTS - 1
        self.count: i64 = 0

    def find(self, key: Key) -> int:
        """The entry of `key`, or -1 if it has none."""
        w0: i64 = key[0]
        w1: i64 = key[1]
        w2: i64 = key[2]
        w3: i64 = key[3]
        w4: i64 = key[4]
        slots, entries, mask = self.slots, self.entries, self.mask
        slot = slot_of(w0, w1, w2, w3, w4, mask)
        while True:
            entry = slots[slot] - 1
            if entry < 0:
                return -1
            at = entry * STRIDE
            if entries[at] == w0 and entries[at + 1] == w1 and entries[at + 2] == w2 and entries[at + 3] == w3 and entries[at + 4] == w4:
                return entry
            slot = (slot + 1) & mask

    def values(self, entry: int) -> Blocks:
        """The values stored at `entry`."""
        entries = self.entries
        at: i64 = entry * STRIDE + 5
        return entries[at], entries[at + 1], entries[at + 2], entries[at + 3], entries[at + 4]

    def put(self, key: Key, values: Blocks) -> None:
        """Store `values` under `key` (which has none: `find`), growing the slots past half full."""
        entries = self.entries
        entries = append(entries, key[0])
        entries = append(entries, key[1])
        entries = append(entries, key[2])
        entries = append(entries, key[3])
        entries = append(entries, key[4])
        entries = append(entries, values[0])
        entries = append(entries, values[1])
        entries = append(entries, values[2])
        entries = append(entries, values[3])
        entries = append(entries, values[4])
        self.entries = entries
        self.count += 1
        if self.count * 2 > self.mask + 1:
            self._grow()
        else:
            self._place(self.count - 1)

    def size(self) -> int:
        """How many keys are stored."""
        return self.count

    def _place(self, entry: i64) -> None:
        """Put `entry` (stored already) in the first empty slot from its key's."""
        entries, slots, mask = self.entries, self.slots, self.mask
        at = entry * STRIDE
        slot = slot_of(entries[at], entries[at + 1], entries[at + 2], entries[at + 3], entries[at + 4], mask)
        while slots[slot]:
            slot = (slot + 1) & mask
        slots[slot] = entry + 1

    def _grow(self) -> None:
        """Twice the slots, every entry placed again."""
        size = (self.mask + 1) * 2
        self.slots = vec[i64]([0] * size)
        self.mask = size - 1
        entry: i64 = 0
        while entry < self.count:
            self._place(entry)
            entry += 1
