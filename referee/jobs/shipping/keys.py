"""Which states of the search share their values: the valuation's memo key of a state, and the
VP (`Shift`) by which the state's values exceed those stored under the key.

The states under one key differ only in ways the rules make irrelevant, or relevant only as VP
certain to come to one player. Either way the phase from each of them is the same game: the same
players decide, between moves that earn the same VP, but for the shift, which every end of that
player's carries alike; so not only each player's fewest, most and expected VP are the same less
the shift, but also what they are guaranteed (a max-min over that game) and every comparison of
the expected play (barrels kept included: no reduction below changes what storage keeps).

- a kind's name never matters, only which ship carries it and who holds how many;
- a dead kind's barrels (a kind no cargo ship will take again) matter to their owner only as a
  number: a wharf takes them all, a small wharf any of them, storage counts them, whatever the
  kind;
- (`Reductions.roomy`) the barrels on a roomy ship (one with room for every barrel the players
  hold of its kind) matter to nobody: every load of its kind goes whole on it, and so it stays;
- (`Reductions.tokens`) a player with no small wharf left to use, and no wharf either or one that
  takes all they hold of any kind, ships every barrel they hold of a roomy kind, whatever anyone
  does: they must load while they can, the kind stays roomy, and their wharf would ship it for
  the same VP as a load. Those barrels matter to the others only as the turns their loads take
  (one a kind), and to their owner as VP certain to come (the same in every line of play, so no
  comparison of the expected play changes): the key counts the kinds, the shift holds the VP;
- (`Reductions.storage`) a player with no wharf and no small wharf left to use keeps their dead
  barrels to the end, where only storage reads them; with no warehouse, storage keeps a number
  of single barrels, whichever: once the dead barrels are as many, the player keeps that number
  in every end, and which dead barrels they hold matters to nobody.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from referee.jobs.shipping.compact import (
    ACTIVE,
    CAPTAIN_LOADED,
    DECIDER,
    ROW_0,
    ROW_1,
    ROW_2,
    ROW_3,
    ROW_4,
    SMALL_WHARF_USED,
    VALUE_BITS,
    WHARF_USED,
    State,
    i64,
)
from referee.jobs.shipping.compiled import REASON
from referee.jobs.shipping.memo import DictTable, IntTable, Key

if TYPE_CHECKING:
    from referee.jobs.shipping.phase import CaptainPhase, Room

NATIVE_BITS: Final = 62  # the bits of a key's word that the compiled build's memo holds (`memo_native`)
NETWORK: Final = 5  # live kinds sorted by a network of compare-and-swaps (`Keys.key`; more: by a list's sort)
ABSENT: Final = (1 << NATIVE_BITS) - 1  # above every column of a native key (and a native integer, compiled): a network's missing kinds, sorted last
NO_COLUMNS: Final[list[int]] = []  # (never changed: the list of sorted columns where a network sorts them)
Shift = int  # VP by player that a state's values have beyond those stored under its key, packed as a block of values (`VALUE_BITS` a player, the first highest; 0: none)


class Keys:
    """The memo keys of one phase's states."""

    def __init__(self, phase: CaptainPhase) -> None:
        self.shippers = phase.shippers  # (not the phase: no cycle for Python's collector to find)
        self.n, self.kinds_n = phase.n, len(phase.kinds)
        self.at, self.width, self.low, self.ship_bits = phase.at, phase.width, phase.low, phase.ship_bits
        # `low` and `width` again as native integers, for the columns read at every move (`low` and `width`
        # stay Python's, for the dead barrels' packings, which may pass 64 bits)
        self.low_bits: i64 = phase.low  # a player's barrels of a kind: the bits of their field
        self.kind_width: i64 = phase.width
        self.top: i64 = phase.width * (self.kinds_n - 1)  # where the first kind lies in a row (kind k: `width * k` below)
        self.place_bits: i64 = (phase.ships + 1).bit_length()  # a kind's ship plus two, in a Room's `places`
        self.place_mask: i64 = (1 << self.place_bits) - 1
        # where each player's barrels lie in a column, as native integers (a seat the phase has not: 0, its row being 0)
        at = [*phase.at, 0, 0, 0, 0, 0]
        self.at0: i64 = at[0]
        self.at1: i64 = at[1]
        self.at2: i64 = at[2]
        self.at3: i64 = at[3]
        self.at4: i64 = at[4]
        self.line = phase.width * phase.n  # bits of a column
        self.token_bits = self.kinds_n.bit_length()
        self._fields = phase.fields  # by the bit mask of some players: every bit of their barrels in a column
        self._token_parts: list[tuple[int, int]] = []  # each `_token_part` met
        self._token_numbers = new_table()  # its number there, by the barrels
        self.roomy, self.tokens, self.storage = phase.reductions.roomy, phase.reductions.tokens, phase.reductions.storage
        powers = phase.shippers
        # bit masks of the owners: of a small wharf, of a wharf, of a wharf too small for all they hold of a kind
        self.small_wharfs = sum(1 << p for p, power in enumerate(powers) if power.small_wharf is not None)
        self.wharfs = sum(1 << p for p, power in enumerate(powers) if power.wharf is not None)
        self.short_wharfs = sum(1 << p for p, power in enumerate(powers) if power.wharf is not None and power.wharf < max(phase.start_goods[p], default=0))
        # by the dead kinds' columns packed (`_dead`): the number `_freeze` gives them, above the players it may mark;
        # and that of `_full`, by the same columns with the players marked below them (native words where those fit)
        narrow = self.kinds_n * self.line + 1 + self.n <= NATIVE_BITS
        self._frozen = new_table() if narrow else DictTable()
        self._full_frozen = new_table() if narrow else DictTable()
        # storage: the players with no warehouse (bit mask), and the single barrels each keeps
        self.bare = sum(1 << p for p, power in enumerate(powers) if power.store_kinds == 0)
        self.single = tuple(power.store_barrels for power in powers)
        self._numbers: dict[int, int] = {0: 0}  # `_number`: the dead kinds' barrels as `_freeze` and `_full` pack them, numbered
        # the key's words (`key`): the live kinds' columns with their ships, `column_bits` each,
        # `per_word` of them in the first word, as many in the second, the rest in the third; the
        # head, the ships' barrels, the tokens and the live kinds' count in the fourth
        self.column_bits = self.line + (phase.ships + 1).bit_length()
        self.per_word = max(1, NATIVE_BITS // self.column_bits)
        self.head_bits = self.n.bit_length() + 1 + 3 * self.n
        self.aboard_bits = phase.ship_bits * phase.ships
        self.tokens_bits = self.n * self.token_bits
        self.count_bits = self.kinds_n.bit_length()
        fixed = self.head_bits + self.aboard_bits + self.tokens_bits + self.count_bits
        # each word under 2 ** 62 (`NATIVE_BITS`): the compiled build's memo holds the keys as 64-bit words
        self.native = self.column_bits * max(self.per_word, self.kinds_n - 2 * self.per_word) <= NATIVE_BITS and fixed <= NATIVE_BITS
        # the live kinds' columns sorted by a network (`NETWORK`), compiled; by a list's sort, plain (the interpreter's quickest)
        self.network = self.native and REASON is None

    def key(self, state: State, room: Room, dead: int = -1) -> tuple[Key, Shift]:
        """The key of `state` (what its cargo ships take, with its roomy kinds: `room`) and its
        shift (0: nothing); `dead`, where known (not -1), the number of its dead barrels (the
        valuation knows it after a load that left them as they were).

        Five integers (`memo`), made by the steps below in turn:
        1. `_tokens` (`Reductions.tokens`): the roomy barrels certain to be loaded, as tokens
           in the key and VP in the shift, and the bits of the columns they stand for;
        2. `_dead` (`Reductions.storage` within): each player's barrels of the dead kinds,
           sorted, numbered: the fifth integer;
        3. `_live`: each live kind as its column (every player's barrels of it, less the
           tokens' bits) with its ship above it (plus two: 0 if roomy, 1 if on none), sorted,
           packed in the first three (`placed`);
        4. `_head`: the state's head, the barrels on each ship (each plus one; 0: roomy; a full
           ship's kind is dead), the tokens and how many kinds are live: the fourth."""
        tokens: int = 0
        shift: int = 0
        cleared: i64 = 0  # the bits of a column that tokens stand for
        if room.roomy and self.tokens:
            tokens, shift, cleared = self._tokens(state, room)  # (a call's tuple: unpacked natively, compiled; a conditional's would not be)
        frozen: int = dead
        if dead < 0:
            frozen = self._dead(state, room.ships.dead) if room.ships.dead else 0
        first, second, third, count = self._live(state, room, tokens, cleared)
        return (first, second, third, self._head(state, room, tokens, count), frozen), shift

    def _live(self, state: State, room: Room, tokens: int, cleared: i64) -> tuple[int, int, int, i64]:
        """The live kinds' columns (see `key`), sorted and packed in three words (`placed`),
        and how many there are. Five live kinds at most (every standard ruleset), compiled:
        five native integers sorted by compare-and-swaps, no list made; else (the plain build)
        a list's sort, the interpreter's quickest."""
        network = len(room.ships.live) <= NETWORK and self.network
        roomy: i64 = room.roomy
        line: i64 = self.line
        places: i64 = room.places
        place_bits, place_mask = self.place_bits, self.place_mask
        count: i64 = 0
        c0: i64 = ABSENT
        c1: i64 = ABSENT
        c2: i64 = ABSENT
        c3: i64 = ABSENT
        c4: i64 = ABSENT
        flat = NO_COLUMNS if network else []
        r0, r1, r2, r3, r4 = state[ROW_0], state[ROW_1], state[ROW_2], state[ROW_3], state[ROW_4]
        a0, a1, a2, a3, a4 = self.at0, self.at1, self.at2, self.at3, self.at4
        low, width, top = self.low_bits, self.kind_width, self.top
        for kind in room.ships.live:
            at: i64 = top - width * kind  # where the kind lies in a row: the first highest, each next `width` below
            # (`column`'s, written out: a call for each kind costs the plain build more than the rest of the loop)
            column = (r0 >> at & low) << a0 | (r1 >> at & low) << a1 | (r2 >> at & low) << a2 | (r3 >> at & low) << a3 | (r4 >> at & low) << a4
            if tokens and roomy >> kind & 1:
                column &= ~cleared
            column |= (places >> place_bits * kind & place_mask) << line
            if not network:
                flat.append(column)
            elif count == 0:
                c0 = column
            elif count == 1:
                c1 = column
            elif count == 2:
                c2 = column
            elif count == 3:
                c3 = column
            else:
                c4 = column
            count += 1
        if not network:
            flat.sort()
            first, second, third = placed(flat, self.column_bits, self.per_word)
            return first, second, third, count
        # a sorting network of nine comparators (Knuth, TAOCP 5.3.4): every order of five comes out ascending
        c0, c1 = _ordered(c0, c1)
        c3, c4 = _ordered(c3, c4)
        c2, c4 = _ordered(c2, c4)
        c2, c3 = _ordered(c2, c3)
        c1, c4 = _ordered(c1, c4)
        c0, c3 = _ordered(c0, c3)
        c0, c2 = _ordered(c0, c2)
        c1, c3 = _ordered(c1, c3)
        c1, c2 = _ordered(c1, c2)
        if not self.native:  # (a network's words always fit, unless a test packs them wider)
            first, second, third = placed([c0, c1, c2, c3, c4][:count], self.column_bits, self.per_word)
            return first, second, third, count
        native_first, native_second, native_third = _placed(c0, c1, c2, c3, c4, count, self.column_bits, self.per_word)
        return native_first, native_second, native_third, count

    def _head(self, state: State, room: Room, tokens: int, count: i64) -> int:
        """The key's fourth word (see `key`): the state's head (the decider, whether the captain
        has loaded, the wharfs and small wharfs used, the active players), the barrels on each
        ship, the tokens, and the live kinds' count last (so that no two keys' columns are
        confused). Python's integers: the word passes 64 bits where the keys are not native."""
        n = self.n
        head = ((((int(state[DECIDER]) + 1) << 1 | int(state[CAPTAIN_LOADED])) << n | int(state[WHARF_USED])) << n | int(state[SMALL_WHARF_USED])) << n | int(state[ACTIVE])
        return ((head << self.aboard_bits | int(room.aboard)) << self.tokens_bits | tokens) << self.count_bits | int(count)

    def _tokens(self, state: State, room: Room) -> tuple[int, int, i64]:
        """The tokens of `state`'s roomy kinds on a ship (`Reductions.tokens`, see the module),
        their shift, and the bits of a column that the tokens stand for (of the players whose
        barrels there are tokens)."""
        tokens = shift = 0
        free: i64 = state[ACTIVE] & ~(self.short_wharfs & ~state[WHARF_USED] | self.small_wharfs & ~state[SMALL_WHARF_USED])
        if not free:
            return 0, 0, 0
        cleared: i64 = self._fields[free]
        for k in room.tokens:
            part = self.column(state, k) & cleared
            if part:
                number = self._token_numbers.find(part)
                if number < 0:
                    number = len(self._token_parts)
                    self._token_parts.append(self._token_part(part))
                    self._token_numbers.put(part, number)
                hit = self._token_parts[number]
                tokens += hit[0]
                shift += hit[1]
        return tokens, shift, cleared

    def _dead(self, state: State, dead: tuple[int, ...]) -> int:
        """The number of the barrels of the `dead` kinds in `state`, each player's sorted (or
        what storage makes of them: `_freeze`, `_full`)."""
        held = self.columns(state, dead)
        found = self._frozen.find(held)
        if found < 0:
            packed, markable = self._freeze(held)
            found = self._number(packed) << self.n | markable
            self._frozen.put(held, found)
        frozen, markable = found >> self.n, found & (1 << self.n) - 1
        if self.storage and markable:
            full = state[ACTIVE] & self.bare & ~(self.wharfs & ~state[WHARF_USED] | self.small_wharfs & ~state[SMALL_WHARF_USED]) & markable
            if full:
                return self._full(held, full)
        return frozen

    def column(self, state: State, k: i64) -> int:
        """Every player's barrels of kind `k` in `state`, packed as a column: `width` bits a
        player, the first player highest (a kind's name never matters: the key sorts them). (A
        Python integer: compiled, made natively and given back as one at no cost, so that the
        dead kinds' columns packed together are Python's integers.)"""
        at, low = self.top - self.kind_width * k, self.low_bits
        return (state[ROW_0] >> at & low) << self.at0 | (state[ROW_1] >> at & low) << self.at1 | (state[ROW_2] >> at & low) << self.at2 | (state[ROW_3] >> at & low) << self.at3 | (state[ROW_4] >> at & low) << self.at4

    def columns(self, state: State, kinds: tuple[int, ...]) -> int:
        """The columns of `kinds` in `state` in one integer (Python's: several may pass 64 bits):
        one alone as itself (the common case of the dead kinds, late in a phase), more packed
        above a leading 1 (`_columns`: so above any column alone); no tuple to make and hash."""
        if len(kinds) == 1:
            return self.column(state, kinds[0])
        r0, r1, r2, r3, r4 = state[ROW_0], state[ROW_1], state[ROW_2], state[ROW_3], state[ROW_4]
        a0, a1, a2, a3, a4 = self.at0, self.at1, self.at2, self.at3, self.at4
        low, width, top, line = self.low_bits, self.kind_width, self.top, self.line
        out = 1
        for k in kinds:
            at: i64 = top - width * k
            # (`column`'s, written out: a call for each kind costs the plain build more than the rest of the loop)
            out = out << line | int((r0 >> at & low) << a0 | (r1 >> at & low) << a1 | (r2 >> at & low) << a2 | (r3 >> at & low) << a3 | (r4 >> at & low) << a4)
        return out

    def _freeze(self, held: int) -> tuple[int, int]:
        """The dead kinds' columns `held` (packed: `key`) as the key reads them: each
        player's barrels of them, sorted, packed (the first player highest); and which players
        hold at least as many as storage keeps in single barrels (bit mask: see `_full`)."""
        columns = self._columns(held)
        field = len(columns) * self.width + 1
        frozen = markable = 0
        for p in range(self.n):
            frozen = frozen << field | self._sorted(columns, p)
            if sum(column >> self.at[p] & self.low for column in columns) >= self.single[p]:
                markable |= 1 << p
        return frozen, markable

    def _full(self, held: int, players: int) -> int:
        """The dead kinds' columns `held` as `_freeze` packs them, the barrels of the `players`
        (bit mask: their dead barrels stay theirs to the end, only single barrels are stored
        for them, and they hold at least as many as storage keeps) marked as storage sees them:
        a number no barrels make."""
        code = held << self.n | players
        hit = self._full_frozen.find(code)
        if hit < 0:
            columns = self._columns(held)
            field = len(columns) * self.width + 1
            marked = 0
            for p in range(self.n):
                marked = marked << field | (1 << field - 1 if players >> p & 1 else self._sorted(columns, p))
            hit = self._number(marked)
            self._full_frozen.put(code, hit)
        return hit

    def _number(self, frozen: int) -> int:
        """The number of the dead kinds' barrels `frozen` as `_freeze` or `_full` packs them (0:
        none): a small integer in the key, however many players and kinds (so it fits a word)."""
        number = self._numbers.get(frozen)
        if number is None:
            number = self._numbers[frozen] = len(self._numbers)
        return number

    def _columns(self, held: int) -> list[int]:
        """The dead kinds' columns packed in `held` (`key`), as a list (in any order: what is
        read of them is each player's barrels, sorted)."""
        if not held >> self.line:
            return [held]
        columns, field = [], (1 << self.line) - 1
        while held > 1:
            columns.append(held & field)
            held >>= self.line
        return columns

    def _sorted(self, columns: list[int], p: int) -> int:
        """Player `p`'s barrels in `columns`, sorted, packed (`width` bits each)."""
        return sum(barrels << self.width * i for i, barrels in enumerate(sorted([column >> self.at[p] & self.low for column in columns])))

    def _token_part(self, part: int) -> tuple[int, int]:
        """The tokens of one roomy kind's barrels `part` (a column holding only the barrels of
        players who will ship them all, see the module): one for each player holding some,
        packed (`token_bits` a player), and the VP those barrels will bring them (less their
        load's own), packed as a shift."""
        tokens = gained = 0
        for p in range(self.n):
            barrels = part >> self.at[p] & self.low
            tokens = tokens << self.token_bits | (1 if barrels else 0)
            gained = gained << VALUE_BITS | (self.shippers[p].barrels_vp(barrels) if barrels else 0)
        return tokens, gained


def new_table() -> IntTable:
    """A table of integers by integers under 2 ** 62 (`memo.IntTable`): native words
    (`memo_native`) where the search is compiled and `librt` is there, else a dictionary."""
    if REASON is None:
        try:
            from referee.jobs.shipping.memo_native import NativeTable
        except ImportError:  # pragma: no cover (a compiled build without librt installed)
            return DictTable()
        return NativeTable()
    return DictTable()


def _ordered(low: i64, high: i64) -> tuple[i64, i64]:
    """The two, the lower first: a comparator of a sorting network."""
    return (high, low) if low > high else (low, high)


def placed(columns: list[int], bits: int, per_word: int) -> tuple[int, int, int]:
    """Sorted columns packed in a key's three words (`Keys.key`): `per_word` in the first, as
    many in the second, all the rest in the third, `bits` a column, the first lowest."""
    first = second = third = 0
    for i, column in enumerate(columns):
        if i < per_word:
            first |= column << bits * i
        elif i < 2 * per_word:
            second |= column << bits * (i - per_word)
        else:
            third |= column << bits * (i - 2 * per_word)
    return first, second, third


def _placed(c0: i64, c1: i64, c2: i64, c3: i64, c4: i64, count: i64, bits: i64, per_word: i64) -> tuple[i64, i64, i64]:
    """`placed` of the first `count` of five sorted columns, where every word is known to fit
    in 64 bits (`Keys.native`): the same placement in native integers, compiled, no check of
    size at each operation (tests/test_shipping_memo.py holds the two equal)."""
    first: i64 = 0
    second: i64 = 0
    third: i64 = 0
    for i in range(count):
        column = c0 if i == 0 else c1 if i == 1 else c2 if i == 2 else c3 if i == 3 else c4
        if i < per_word:
            first |= column << bits * i
        elif i < 2 * per_word:
            second |= column << bits * (i - per_word)
        else:
            third |= column << bits * (i - 2 * per_word)
    return first, second, third
