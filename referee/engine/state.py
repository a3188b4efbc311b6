"""The game state: the players' boards and the shared supplies.

State is owned by one `Game` and changed only through its phases; nothing here reads files or
prints. Plain slotted dataclasses keep replay fast (tens of thousands of moves per second).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, overload

from referee.rulesets.rules import Rules

if TYPE_CHECKING:
    from referee.rulesets.effects import EffectId
    from referee.rulesets.model import (  # compiled: plain objects with the models' fields
        BuildBlackMarket,
        Building,
        BuildVp,
        CraftExtraBarrel,
        CraftKindsBonus,
        CraftMostKind,
        Effect,
        PrivilegeDouble,
        SettleForest,
        ShipPrivateShip,
        TradeBonus,
        TradeOwnPost,
    )

# End conditions (the game ends at the end of the round, or phase, in which one occurs).
COLONISTS, CITY, VP = "colonists", "city", "vp"


def tally(counts: Mapping[str, int]) -> Counter[str]:
    """A Counter of tiles holding `counts`, in their order, as `Counter(counts)` makes it but
    without its check that `counts` is a mapping (by the abstract class: calls of Python, at
    every reveal)."""
    made: Counter[str] = Counter()
    dict.update(made, counts)
    return made


@dataclass(slots=True)
class Board:
    """One player's board: island, city, San Juan, windrose (goods and doubloons), VP."""

    name: str
    doubloons: int
    vp: int = 0  # VP earned during the game: chips, and any counted after the chips ran out
    goods: dict[str, int] = field(default_factory=dict)  # barrels on the windrose
    island: dict[str, int] = field(default_factory=dict)  # tile (good id, quarry, forest) -> tiles
    manned: dict[str, int] = field(default_factory=dict)  # tile -> occupied tiles
    buildings: dict[str, int] = field(default_factory=dict)  # building id -> colonists on it
    san_juan: int = 0

    def colonists(self) -> int:
        """Every colonist on the board, San Juan included."""
        return sum(self.manned.values()) + sum(self.buildings.values()) + self.san_juan

    def barrels(self) -> int:
        """Barrels on the windrose."""
        return sum(self.goods.values())

    def island_filled(self) -> int:
        """Filled island spaces."""
        return sum(self.island.values())

    def occupied(self, building: str) -> bool:
        """A building works only with at least one colonist on it."""
        return self.buildings.get(building, 0) > 0

    def active(self, rules: Rules, effect: EffectId) -> list[Building]:
        """The player's occupied buildings whose power is `effect`."""
        return [b for b in rules.with_effect(effect) if self.buildings.get(b.id, 0) > 0]

    # each power read as its model (the parameters of its effect id), for the type checker
    @overload
    def powers(self, rules: Rules, effect: Literal["build.black-market"]) -> list[BuildBlackMarket]: ...
    @overload
    def powers(self, rules: Rules, effect: Literal["craft.extra-barrel"]) -> list[CraftExtraBarrel]: ...
    @overload
    def powers(self, rules: Rules, effect: Literal["craft.kinds-bonus"]) -> list[CraftKindsBonus]: ...
    @overload
    def powers(self, rules: Rules, effect: Literal["craft.most-kind"]) -> list[CraftMostKind]: ...
    @overload
    def powers(self, rules: Rules, effect: Literal["trade.own-post"]) -> list[TradeOwnPost]: ...
    @overload
    def powers(self, rules: Rules, effect: Literal["build.vp"]) -> list[BuildVp]: ...
    @overload
    def powers(self, rules: Rules, effect: Literal["privilege.double"]) -> list[PrivilegeDouble]: ...
    @overload
    def powers(self, rules: Rules, effect: Literal["settle.forest"]) -> list[SettleForest]: ...
    @overload
    def powers(self, rules: Rules, effect: Literal["ship.private-ship"]) -> list[ShipPrivateShip]: ...
    @overload
    def powers(self, rules: Rules, effect: Literal["trade.bonus"]) -> list[TradeBonus]: ...
    @overload
    def powers(self, rules: Rules, effect: EffectId) -> list[Effect]: ...
    def powers(self, rules: Rules, effect: EffectId) -> list[Any]:
        """The parameters of the player's occupied buildings with power `effect` (one per building)."""
        buildings = self.buildings
        out = []
        for ident, power in rules.power_pairs.get(effect, ()):  # a loop, not a comprehension: asked many times a move, mostly of one building
            if buildings.get(ident, 0) > 0:
                out.append(power)
        return out

    def has(self, rules: Rules, effect: EffectId) -> bool:
        """Does the player have an occupied building with `effect`?"""
        buildings = self.buildings
        # a loop, not any() over a generator (as `powers`)
        for ident, _ in rules.power_pairs.get(effect, ()):  # noqa: SIM110
            if buildings.get(ident, 0) > 0:
                return True
        return False

    def city_used(self, rules: Rules) -> int:
        """City spaces taken (large buildings take 2)."""
        return sum(map(rules.size.__getitem__, self.buildings))

    def circles(self, rules: Rules) -> int:
        """Every colonist circle on the board: one per island tile that can be occupied, plus buildings."""
        island = self.island
        tiles = sum(island.values()) - island.get(rules.forest_id, 0)  # a forest has no circle
        return tiles + sum(map(rules.circles.__getitem__, self.buildings))

    def empty_building_circles(self, rules: Rules) -> int:
        """Empty circles on buildings (they decide the colonist ship's refill)."""
        buildings = self.buildings
        return sum(map(rules.circles.__getitem__, buildings)) - sum(buildings.values())


@dataclass(slots=True)
class RoleCard:
    """A role card on the table: doubloons on it, and who took it this round."""

    role: str
    doubloons: int = 0
    taken_by: int | None = None


@dataclass(slots=True)
class CargoShip:
    """A cargo ship: its size, the kind on it and how many barrels."""

    size: int
    good: str | None = None
    count: int = 0

    @property
    def full(self) -> bool:
        return self.count >= self.size

    @property
    def free(self) -> int:
        return self.size - self.count
