"""The compiled build's memo (`memo`): an open-addressing table of 64-bit words.

Each entry is nine words, the key's five then the values' four, in the order they were stored,
in chunks of 2 ** 13 entries, each reserved whole when the last is full (one growing buffer was
copied each time it grew: more time, and at that moment memory for both). A buffer of a power
of two slots holds in each slot the key's hash (31 bits) above its entry plus one (0: an empty
slot), probed from the hash onwards, one slot at a time, and at most half full. An entry is
read only where a slot's hash is the key's: a look-up that misses (every new state) reads the
slots alone, and one that finds reads one entry, the table being far larger than the
processor's caches. No Python object a state: freeing the table frees its buffers. Imported
only where the search is compiled (`values.new_memo`): run as plain Python, its loops would be
slower than a dictionary.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from referee.jobs.shipping.memo import Blocks, IntTable, Key, Memo

STRIDE: Final = 9  # the words of an entry: the key's five, the values' four
FIRST_SLOTS: Final = 1 << 12
CHUNK_BITS: Final = 13  # entries are kept in chunks of 2 ** 13 (590 kB), each reserved whole: a full buffer is never copied
CHUNK_ENTRIES: Final = 1 << CHUNK_BITS
CHUNK_WORDS: Final = CHUNK_ENTRIES * STRIDE
LOW31: Final = (1 << 31) - 1
ENTRY_BITS: Final = 32  # a slot's bits for its entry plus one, below the hash
LOW32: Final = (1 << ENTRY_BITS) - 1
MIXER: Final = 0x5BD1E995  # (under 2 ** 31: a product with 31 bits never leaves 62)


def hash_of(w0: i64, w1: i64, w2: i64, w3: i64, w4: i64) -> i64:
    """A key's hash, 31 bits (its words each under 2 ** 62, `Keys.native`), by 31-bit halves
    mixed in, so that no product overflows."""
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
    return h ^ (h >> 15)


class NativeMemo(Memo):
    """The memo as buffers of 64-bit words: the entries in chunks, the slots in one (see the module)."""

    def __init__(self) -> None:
        self.chunks: list[vec[i64]] = []  # the full chunks of entries
        self.entries: vec[i64] = vec[i64](capacity=CHUNK_WORDS)  # the chunk being filled
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
        slots, mask = self.slots, self.mask
        hashed = hash_of(w0, w1, w2, w3, w4)
        slot = hashed & mask
        while True:
            word = slots[slot]
            if not word:
                return -1
            if word >> ENTRY_BITS == hashed:
                entry = (word & LOW32) - 1
                entries = self._chunk(entry)
                at = (entry & (CHUNK_ENTRIES - 1)) * STRIDE
                if entries[at] == w0 and entries[at + 1] == w1 and entries[at + 2] == w2 and entries[at + 3] == w3 and entries[at + 4] == w4:
                    return entry
            slot = (slot + 1) & mask

    def values(self, entry: int) -> Blocks:
        """The values stored at `entry`."""
        entries = self._chunk(entry)
        at: i64 = (entry & (CHUNK_ENTRIES - 1)) * STRIDE + 5
        return entries[at], entries[at + 1], entries[at + 2], entries[at + 3]

    def put(self, key: Key, values: Blocks) -> None:
        """Store `values` under `key` (which has none: `find`), growing the slots past half full."""
        entries = self.entries
        if len(entries) == CHUNK_WORDS:
            self.chunks.append(entries)
            entries = vec[i64](capacity=CHUNK_WORDS)
        entries = append(entries, key[0])
        entries = append(entries, key[1])
        entries = append(entries, key[2])
        entries = append(entries, key[3])
        entries = append(entries, key[4])
        entries = append(entries, values[0])
        entries = append(entries, values[1])
        entries = append(entries, values[2])
        entries = append(entries, values[3])
        self.entries = entries
        self.count += 1
        self._place(hash_of(key[0], key[1], key[2], key[3], key[4]) << ENTRY_BITS | self.count)
        if self.count * 2 > self.mask + 1:
            self._grow()

    def _chunk(self, entry: i64) -> vec[i64]:
        """The chunk that holds `entry` (the last, the one being filled, or a full one)."""
        chunk = entry >> CHUNK_BITS
        return self.entries if chunk == len(self.chunks) else self.chunks[chunk]

    def size(self) -> int:
        """How many keys are stored."""
        return self.count

    def _place(self, word: i64) -> None:
        """Put a slot's `word` (a key's hash above its entry plus one) in the first empty slot
        from the hash's."""
        slots, mask = self.slots, self.mask
        slot = (word >> ENTRY_BITS) & mask
        while slots[slot]:
            slot = (slot + 1) & mask
        slots[slot] = word

    def _grow(self) -> None:
        """Twice the slots, every entry placed again (by the hash its slot holds: no entry read)."""
        old = self.slots
        size = (self.mask + 1) * 2
        self.slots = vec[i64]([0] * size)
        self.mask = size - 1
        for word in old:
            if word:
                self._place(word)


TABLE_SLOTS: Final = 1 << 4  # a small table's first slots (there is one for each Room, and each Cargo)


def mixed(key: i64) -> i64:
    """One word's hash, 31 bits (the word under 2 ** 62), by 31-bit halves mixed in."""
    h: i64 = 0x2545F491
    h = ((h ^ (key & LOW31)) * MIXER) & LOW31
    h = ((h ^ (key >> 31)) * MIXER) & LOW31
    return h ^ (h >> 15)


class NativeTable(IntTable):
    """`IntTable` as one buffer of 64-bit words: each slot a key plus one (0: empty) and its
    value, open addressing, at most half full."""

    def __init__(self) -> None:
        self.slots: vec[i64] = vec[i64]([0] * (2 * TABLE_SLOTS))
        self.mask: i64 = TABLE_SLOTS - 1
        self.count: i64 = 0

    def find(self, key: int) -> int:
        """The value under `key`, or -1 if it has none."""
        word: i64 = key
        mark = word + 1
        slots, mask = self.slots, self.mask
        slot = mixed(word) & mask
        while True:
            held = slots[2 * slot]
            if held == mark:
                return slots[2 * slot + 1]
            if not held:
                return -1
            slot = (slot + 1) & mask

    def put(self, key: int, value: int) -> None:
        """Store `value` under `key` (which has none: `find`), growing the slots past half full."""
        self._place(key, value)
        self.count += 1
        if self.count * 2 > self.mask + 1:
            old = self.slots
            size = (self.mask + 1) * 2
            self.slots = vec[i64]([0] * (2 * size))
            self.mask = size - 1
            for i in range(0, len(old), 2):
                if old[i]:
                    self._place(old[i] - 1, old[i + 1])

    def _place(self, key: i64, value: i64) -> None:
        slots, mask = self.slots, self.mask
        slot = mixed(key) & mask
        while slots[2 * slot]:
            slot = (slot + 1) & mask
        slots[2 * slot] = key + 1
        slots[2 * slot + 1] = value
