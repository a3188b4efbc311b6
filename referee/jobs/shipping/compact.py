"""The calculator's compact words: a state, a player's barrels, a move, as small integers.

A state is a tuple of eleven native integers (compiled: a structure passed by value, no Python
object made for a move; never changed once made), its slots read by name (`state[DECIDER]`, below):
`(decider, captain_loaded, wharf_used, small_wharf_used, active, ships, row_0, ..., row_4)`: the
decider (-1: the phase is over), whether the captain has loaded (their privilege comes with
their first load), bit masks of the players who used their wharf or small wharf and of those
still in the state; the cargo ships packed in one integer (each ship's barrels, and its kind
index plus one above them: 0 for an empty ship); and for each player, by seat, a *row*: their
barrels of every kind packed in one integer, the first kind highest (0 for a player who dropped
out, or a seat the phase does not have: five players at most, the rulesets' bound). The widths
are the phase's (`CaptainPhase`: `width`, `ship_bits`), and each packing fits in a native integer
(`ROW_BITS`, `PACKED_BITS`: the phase checks it when it is set up).

Packed so, a move changes two or three integers of a state; the players' barrels of every kind
together are one sum of rows (no field overflows: `width` holds all the barrels of a kind), who
holds a kind one mask a row; and a player's row is also the key of the tables of their moves.
"""

from __future__ import annotations

from typing import Final, TypeVar

from referee.engine import captain_rules
from referee.engine.captain_rules import Goods, Move

try:
    # compiled, a native 64-bit integer where a value is known to fit (mypyc reads the annotations): no
    # check of size at each operation, no object; plain Python, an int (mypy_extensions comes with librt)
    from mypy_extensions import i64
except ImportError:  # pragma: no cover (a plain install)
    i64 = int  # type: ignore[misc]

__all__ = ["ACTIVE", "CAPTAIN_LOADED", "DECIDER", "LOAD", "MOST_PLAYERS", "PACKED_BITS", "ROWS", "ROW_0", "ROW_1", "ROW_2", "ROW_3", "ROW_4", "ROW_BITS", "SHIPS", "SMALL_WHARF", "SMALL_WHARF_USED", "VALUE_BITS", "WHARF", "WHARF_USED", "Goods", "Move", "State", "T", "i64", "replaced", "row", "with_row"]

T = TypeVar("T")
# The constants are Final: compiled, they are read as C values, not looked up by name at each move.
LOAD: Final = captain_rules.LOAD
WHARF: Final = captain_rules.WHARF
SMALL_WHARF: Final = captain_rules.SMALL_WHARF
State = tuple[i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64]  # see the module
# a state's slots, by name (compiled, `state[SHIPS]` is read at a constant offset, as `state[SHIPS]` would be)
DECIDER: Final = 0  # the player to decide (-1: the phase is over)
CAPTAIN_LOADED: Final = 1  # 1 once the captain has loaded (their privilege comes with their first load)
WHARF_USED: Final = 2  # bit mask of the players who used their wharf
SMALL_WHARF_USED: Final = 3  # bit mask of the players who used their small wharf
ACTIVE: Final = 4  # bit mask of the players still in the state (the others dropped out, with their tails)
SHIPS: Final = 5  # the cargo ships, packed
ROWS: Final = 6  # where the players' rows start: each player's barrels, by seat
ROW_0: Final = 6
ROW_1: Final = 7
ROW_2: Final = 8
ROW_3: Final = 9
ROW_4: Final = 10
MOST_PLAYERS: Final = 5  # the rows of a state (the rulesets' most players)
PACKED_BITS: Final = 62  # the bits the packed ships, or a kind's column with its ship (`keys`), may take
ROW_BITS: Final = 56  # the bits a row may take: with the player's seat and three flags (six bits), it is a table's key (`phase`)
VALUE_BITS: Final = 10  # bits of one player's value in a block of values (`values`), the first player highest: a shift (`keys`) is packed so too


def row(state: State, p: i64) -> i64:
    """Player `p`'s row: their barrels of every kind, packed. (A chain of tests, not an index:
    compiled, a state is a structure whose items are read by constant offsets.)"""
    if p == 0:
        return state[ROW_0]
    if p == 1:
        return state[ROW_1]
    if p == 2:
        return state[ROW_2]
    if p == 3:
        return state[ROW_3]
    return state[ROW_4]


def with_row(state: State, p: i64, value: i64) -> State:
    """`state` with player `p`'s row `value`."""
    return (
        state[DECIDER],
        state[CAPTAIN_LOADED],
        state[WHARF_USED],
        state[SMALL_WHARF_USED],
        state[ACTIVE],
        state[SHIPS],
        value if p == 0 else state[ROW_0],
        value if p == 1 else state[ROW_1],
        value if p == 2 else state[ROW_2],
        value if p == 3 else state[ROW_3],
        value if p == 4 else state[ROW_4],
    )


def replaced(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """`values` with item `i` replaced (concatenation: faster than unpacking, in the search's loop)."""
    return values[:i] + (value,) + values[i + 1 :]  # noqa: RUF005
