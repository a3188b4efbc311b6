"""The calculator's compact words: a state, a player's barrels, a move, as small integers.

A state is one flat list of integers (quick to copy; never changed once made: the search reads
it only, and the outcome list keys its tables by its tuple):
`(decider, captain_loaded, wharf_used, small_wharf_used, active, ships, columns...)`: the decider
(-1: the phase is over), whether the captain has loaded (their privilege comes with their first
load), bit masks of the players who used their wharf or small wharf and of those still in the
state; the cargo ships packed in one integer (each ship's barrels, and its kind index plus one
above them: 0 for an empty ship); and for each kind, by index, a *column*: every player's
barrels of it packed in one integer, the first player in the highest bits (zeros for a player
who dropped out). The widths are the phase's (`CaptainPhase`: `width`, `ship_bits`).

Packed so, a move changes two or three integers of a state; a kind's barrels over all players
are one multiplication away, who holds a kind one mask; and a state's memo key (`keys`) sorts
a kind's column as one number.
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

__all__ = ["COLUMNS", "HEAD", "LOAD", "SHIPS", "SMALL_WHARF", "VALUE_BITS", "WHARF", "Goods", "Move", "State", "T", "i64", "replaced"]

T = TypeVar("T")
# The constants are Final: compiled, they are read as C values, not looked up by name at each move.
LOAD: Final = captain_rules.LOAD
WHARF: Final = captain_rules.WHARF
SMALL_WHARF: Final = captain_rules.SMALL_WHARF
State = list[int]  # see the module: one flat list
HEAD: Final = 5  # decider, captain loaded, wharf used, small wharf used, active
SHIPS: Final = 5  # the cargo ships, packed
COLUMNS: Final = 6  # where the kinds' columns start
VALUE_BITS: Final = 10  # bits of one player's value in a block of values (`values`), the first player highest: a shift (`keys`) is packed so too


def replaced(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """`values` with item `i` replaced (concatenation: faster than unpacking, in the search's loop)."""
    return values[:i] + (value,) + values[i + 1 :]  # noqa: RUF005
