"""The calculator's compact words: a state, a player's barrels, a move, as small integers.

A state is one flat tuple (quick to hash and to copy):
`(decider, captain_loaded, wharf_used, small_wharf_used, active, kinds..., counts..., goods...)`:
the decider (-1: the phase is over), whether the captain has loaded (their privilege comes with
their first load), bit masks of the players who used their wharf or small wharf and of those
still in the state, the kind index on each cargo ship (-1: empty) and its barrels, and each
player's barrels by kind index, player after player (zeros for a player who dropped out).
"""

from __future__ import annotations

from typing import TypeVar

from referee.engine.captain_rules import LOAD, SMALL_WHARF, WHARF, Goods, Move

__all__ = ["HEAD", "LOAD", "SMALL_WHARF", "WHARF", "Goods", "Move", "State", "T", "replaced"]

T = TypeVar("T")
State = tuple[int, ...]  # see the module: one flat tuple
HEAD = 5  # decider, captain loaded, wharf used, small wharf used, active


def replaced(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    """`values` with item `i` replaced (concatenation: faster than unpacking, in the search's loop)."""
    return values[:i] + (value,) + values[i + 1 :]  # noqa: RUF005
