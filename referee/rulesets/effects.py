"""The effect ids: the powers a violet building may have, each the id of one piece of the engine's
code (a ruleset gives a building its power by id, with the power's numbers as parameters).

One list, typed: every function that reads a power takes an `EffectId`, so a misspelt id in the
code is a type error, not a power silently switched off; tests/test_rulesets.py checks the list
against the ruleset models (one model per id) and against the engine (each id read somewhere).
"""

from __future__ import annotations

from typing import Literal, get_args

EffectId = Literal[
    "trade.bonus",
    "trade.any-kind",
    "settle.extra-tile",
    "settle.quarry",
    "settle.colonist",
    "store.kinds",
    "store.barrels",
    "craft.kinds-bonus",
    "build.colonist",
    "ship.load-vp",
    "ship.private-ship",
    "bonus.buildings",
    "bonus.island",
    "bonus.colonists",
    "bonus.chips",
    "craft.extra-barrel",
    "craft.most-kind",
    "settle.forest",
    "build.black-market",
    "build.vp",
    "move.guest",
    "trade.own-post",
    "ship.small-wharf",
    "ship.load-doubloons",
    "ship.pairs-vp",
    "privilege.double",
    "bonus.sets",
]

EFFECT_IDS: frozenset[str] = frozenset(get_args(EffectId))
