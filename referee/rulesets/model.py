"""The ruleset as pydantic models: every number of the game, checked for consistency.

A ruleset file is read (with `extends` resolved) into :class:`Ruleset`. The engine never sees
YAML: it works on :class:`referee.rulesets.rules.Rules`, an index built over this model.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from referee.ground.wording import normalize

PHASES = ("settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector")
BuildingKind = Literal["small-production", "large-production", "small-violet", "large-violet"]


class Model(BaseModel):
    """Base of every ruleset model: immutable, unknown keys refused."""

    # defer_build: the validators are built on first use, so that a ruleset read from the
    # cache (see load.py) costs no schema building at start-up.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Named(Model):
    """Something a log names: an id (the base game's name as a slug), a display name, aliases."""

    id: str = Field(description="Stable identifier: the base game's name, lower case, words joined by '-'.")
    name: str = Field(description="The name this ruleset uses in messages and tables.")
    aliases: tuple[str, ...] = Field(default=(), description="Other names accepted in logs.")


# --- building effects: one model per effect id; numbers are parameters ---------------------


class TradeBonus(Model):
    """Extra doubloons when the owner sells to the trading house (markets)."""

    id: Literal["trade.bonus"]
    doubloons: int = Field(ge=0, description="Extra doubloons per sale.")


class TradeAnyKind(Model):
    """The owner may sell a kind already in the trading house (office)."""

    id: Literal["trade.any-kind"]


class SettleExtraTile(Model):
    """Before the normal pick, the owner may take the top face-down plantation (hacienda)."""

    id: Literal["settle.extra-tile"]


class SettleQuarry(Model):
    """The owner may take a quarry instead of a face-up plantation (construction hut)."""

    id: Literal["settle.quarry"]


class SettleColonist(Model):
    """A colonist from the supply (else the ship) onto the tile the owner takes (hospice)."""

    id: Literal["settle.colonist"]


class StoreKinds(Model):
    """After the captain phase the owner keeps every barrel of this many kinds (warehouses)."""

    id: Literal["store.kinds"]
    kinds: int = Field(ge=1, description="Kinds of goods kept whole.")


class StoreBarrels(Model):
    """After the captain phase the owner keeps this many more barrels of any kinds (storehouse)."""

    id: Literal["store.barrels"]
    barrels: int = Field(ge=1, description="Extra barrels kept.")


class CraftKindsBonus(Model):
    """Doubloons for the number of kinds produced in a craftsman phase (factory)."""

    id: Literal["craft.kinds-bonus"]
    doubloons: dict[int, int] = Field(description="Kinds produced -> doubloons (missing: 0).")


class BuildColonist(Model):
    """A colonist from the supply (else the ship) onto the building just built (university)."""

    id: Literal["build.colonist"]


class ShipLoadVp(Model):
    """Extra VP each time the owner loads in the captain phase (harbor)."""

    id: Literal["ship.load-vp"]
    vp: int = Field(ge=1, description="Extra VP per load.")


class ShipPrivateShip(Model):
    """Once per captain phase, load every barrel of one kind on a private ship (wharf)."""

    id: Literal["ship.private-ship"]
    capacity: int = Field(ge=1, description="Barrels the private ship takes.")


class BonusBuildings(Model):
    """End bonus: VP per building of the given kinds in the owner's city (guild hall, city hall)."""

    id: Literal["bonus.buildings"]
    weights: dict[BuildingKind, int] = Field(description="Building kind -> VP per building.")


class BonusIsland(Model):
    """End bonus by filled island spaces (residence)."""

    id: Literal["bonus.island"]
    vp: dict[int, int] = Field(description="At least this many filled spaces -> VP.")


class BonusColonists(Model):
    """End bonus: 1 VP per `per` colonists on the owner's board (fortress)."""

    id: Literal["bonus.colonists"]
    per: int = Field(ge=1)


class BonusChips(Model):
    """End bonus: 1 VP per `per` VP earned during the game (customs house)."""

    id: Literal["bonus.chips"]
    per: int = Field(ge=1)


# --- Expansion I (uncertain rulings are parameters: docs/rule-decisions.md) ------------------


class CraftExtraBarrel(Model):
    """+1 barrel of a kind produced in an occupied large production building of it (aqueduct)."""

    id: Literal["craft.extra-barrel"]
    goods: tuple[str, ...] = Field(description="Kinds it works for.")
    building_kind: BuildingKind = Field(default="large-production", description="The production buildings that trigger it.")


class CraftMostKind(Model):
    """Doubloons: the most barrels of one kind produced, minus one (specialty factory)."""

    id: Literal["craft.most-kind"]
    exclude: tuple[str, ...] = Field(default=(), description="Kinds not counted (corn).")


class SettleForest(Model):
    """A plantation taken may be placed face down as a forest; forests lower building costs (forest house)."""

    id: Literal["settle.forest"]
    forests_per_doubloon: int = Field(ge=1, description="Forests per doubloon off any building (no column limit).")


class BuildBlackMarket(Model):
    """Part of a price paid with a colonist, a barrel and a VP chip, when it spends all the money (black market)."""

    id: Literal["build.black-market"]
    colonist: int = Field(ge=0, description="Colonists that may pay a doubloon each.")
    good: int = Field(ge=0, description="Barrels that may pay a doubloon each.")
    vp: int = Field(ge=0, description="VP chips that may pay a doubloon each.")
    spent_to: Literal["supply", "removed"] = Field(default="supply", description="Where the colonist and the VP chip go (uncertain ruling).")


class BuildVp(Model):
    """VP when the owner builds, by the new building's quarry column (church)."""

    id: Literal["build.vp"]
    vp: dict[int, int] = Field(description="Quarry column -> VP.")


class MoveGuest(Model):
    """Colonists on it may move to empty circles outside the mayor phase (guest house)."""

    id: Literal["move.guest"]


class TradeOwnPost(Model):
    """Sell one barrel of any kind to the owner's own post instead of the trading house (trading post)."""

    id: Literal["trade.own-post"]
    markets: bool = Field(default=False, description="Do market bonuses apply to such a sale?")


class ShipSmallWharf(Model):
    """Once per captain phase, any barrels to the supply: 1 VP per so many (small wharf)."""

    id: Literal["ship.small-wharf"]
    barrels_per_vp: int = Field(ge=1)
    counts_as_load: bool = Field(default=True, description="Harbor, lighthouse and the captain's privilege count it as a load (uncertain ruling).")


class ShipLoadDoubloons(Model):
    """Doubloons for each load; the captain who owns it gets some anyway (lighthouse)."""

    id: Literal["ship.load-doubloons"]
    per_load: int = Field(ge=0)
    captain: int = Field(ge=0, description="Doubloons when the owner is the captain, loading or not.")


class ShipPairsVp(Model):
    """VP per pair of barrels of one kind, before the owner's first load (union hall)."""

    id: Literal["ship.pairs-vp"]
    vp_per_pair: int = Field(ge=1)


class PrivilegeDouble(Model):
    """Every role privilege of the owner counts twice (library)."""

    id: Literal["privilege.double"]
    once_per_round: list[int] = Field(
        default_factory=list, description="Player counts in which it doubles only the owner's first privilege of each round (the 2-player game)."
    )


class BonusSets(Model):
    """End bonus for sets of identical island tiles (cloister)."""

    id: Literal["bonus.sets"]
    set_size: int = Field(ge=1)
    vp: dict[int, int] = Field(description="Sets -> VP (more sets than listed: the highest).")
    tiles: tuple[Literal["plantations", "quarries", "forests"], ...] = Field(description="Which island tiles count (uncertain ruling).")


Effect = Annotated[
    TradeBonus
    | TradeAnyKind
    | SettleExtraTile
    | SettleQuarry
    | SettleColonist
    | StoreKinds
    | StoreBarrels
    | CraftKindsBonus
    | BuildColonist
    | ShipLoadVp
    | ShipPrivateShip
    | BonusBuildings
    | BonusIsland
    | BonusColonists
    | BonusChips
    | CraftExtraBarrel
    | CraftMostKind
    | SettleForest
    | BuildBlackMarket
    | BuildVp
    | MoveGuest
    | TradeOwnPost
    | ShipSmallWharf
    | ShipLoadDoubloons
    | ShipPairsVp
    | PrivilegeDouble
    | BonusSets,
    Field(discriminator="id"),
]


# --- the parts of a ruleset --------------------------------------------------------------


class Good(Named):
    """A kind of goods, and the plantation tiles that grow it."""

    price: int = Field(ge=0, description="Trading-house price in doubloons.")
    barrels: int = Field(ge=0, description="Barrels of this kind in the supply.")
    plantations: int = Field(ge=0, description="Plantation tiles of this kind in the game.")
    building_needed: bool = Field(default=True, description="False: the plantation alone produces (corn).")


class Quarry(Named):
    """Quarry tiles: taken by the settler's privilege, counted for building discounts."""

    count: int = Field(ge=0, description="Quarry tiles in the game.")


class Role(Named):
    """A role card. Its id names the phase it starts."""

    id: Literal["settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector"]
    privilege: int = Field(ge=0, description="The chooser's extra amount (colonists, doubloons, barrels, VP).")


class Building(Named):
    """A building type: its numbers, and its power by effect id."""

    cost: int = Field(ge=0)
    vp: int = Field(ge=0, description="Printed VP, scored occupied or not.")
    column: int = Field(ge=1, le=4, description="Quarry column: the most occupied quarries that lower its cost.")
    circles: int = Field(ge=0, description="Colonist circles.")
    size: int = Field(default=1, ge=1, le=2, description="City spaces taken.")
    copies: int = Field(ge=1, description="Copies in a game.")
    kind: BuildingKind
    produces: str | None = Field(default=None, description="Production buildings: the good processed.")
    effect: Effect | None = Field(default=None, description="Violet buildings: the special power.")

    @model_validator(mode="after")
    def _kind_matches(self) -> Building:
        production = self.kind.endswith("production")
        if production and self.produces is None:
            raise ValueError(f"{self.id}: a production building needs `produces`")
        if not production and self.produces is not None:
            raise ValueError(f"{self.id}: only production buildings produce goods")
        if (self.kind == "large-violet") != (self.size == 2):
            raise ValueError(f"{self.id}: large buildings take 2 city spaces, others 1")
        return self


class PlayerCount(Model):
    """Setup and supplies for one number of players."""

    doubloons: int = Field(ge=0, description="Starting doubloons of each player.")
    vp_chips: int = Field(ge=0, description="VP in chips.")
    colonists: int = Field(ge=0, description="Colonists in the supply at the start.")
    ship_colonists: int = Field(ge=0, description="Colonists on the colonist ship at the start; the refill minimum.")
    cargo_ships: tuple[int, ...] = Field(min_length=1, description="Cargo ship sizes.")
    roles: dict[str, int] = Field(description="Role id -> cards in play.")
    face_up: int = Field(ge=1, description="Face-up plantations drawn after each settler phase.")
    starting_plantations: tuple[str, ...] = Field(description="Starting plantation of each seat, governor first.")
    roles_per_player: int = Field(default=1, ge=1, description="Roles each player chooses per round (2 players: 3).")
    quarries: int | None = Field(default=None, ge=0, description="Quarry tiles in play, when fewer than all (2 players: 5).")
    plantations_removed: int = Field(default=0, ge=0, description="Plantation tiles of each kind left in the box (2 players: 3).")
    barrels_removed: int = Field(default=0, ge=0, description="Barrels of each kind left in the box (2 players: 2).")
    copies: dict[BuildingKind, int] | None = Field(default=None, description="Copies of each building by kind, when not the full set (2 players).")


class SelectionSlot(Model):
    """Spaces on the board for violet buildings of one cost."""

    cost: int = Field(ge=0)
    spaces: int = Field(ge=1)


class Selection(Model):
    """Choosing the violet buildings before the game (Expansion I)."""

    slots: tuple[SelectionSlot, ...] = Field(description="Spaces per cost; every space is filled.")
    exclusive: tuple[tuple[str, ...], ...] = Field(default=(), description="Buildings that may not be in the same game.")
    source: str = ""


class EndRules(Model):
    """When the game ends."""

    timing: Literal["round", "phase"] = Field(description="The game ends at the end of the round, or the phase, of a trigger.")
    colonists_short: bool = True
    city_full: bool = True
    vp_chips_out: bool = True
    partial_refill: bool = Field(default=True, description="A short supply still puts what is left on the ship.")


class Terms(Model):
    """Words used in messages; a renamed edition overrides them."""

    colonist: tuple[str, str]
    doubloon: tuple[str, str]
    vp: tuple[str, str]
    barrel: tuple[str, str]
    plantation: tuple[str, str]
    vp_chip: tuple[str, str]
    role_card: str
    stacks: str
    colonist_ship: str
    cargo_ship: str
    trading_house: str
    san_juan: str
    island: str
    city: str
    governor: str
    privilege: str
    windrose: str
    private_ship: str


class Ruleset(Model):
    """A complete ruleset, after `extends` has been resolved."""

    id: str
    version: int = 1
    title: str
    source: str = ""
    extends: str | tuple[str, ...] | None = Field(default=None, description="The ruleset(s) this one changes.")
    terms: Terms
    island_spaces: int = Field(ge=1)
    city_spaces: int = Field(ge=1)
    trading_house_spaces: int = Field(ge=1)
    windrose_barrels: int = Field(ge=0)
    barrel_vp: int = Field(default=1, ge=0, description="VP for each barrel shipped, on a cargo ship or a wharf.")
    goods: tuple[Good, ...]
    quarry: Quarry
    forest: Named = Field(description="The forest: a plantation placed face down (a forest house's power); it has no colonist circle.")
    roles: tuple[Role, ...]
    role_money: int = Field(ge=0)
    player_counts: dict[int, PlayerCount]
    buildings: tuple[Building, ...]
    end: EndRules
    tie: Literal["shared"] = "shared"
    selection: Selection | None = Field(default=None, description="Violet buildings chosen before the game (`setup.buildings`).")

    @field_validator("player_counts")
    @classmethod
    def _player_numbers(cls, value: dict[int, PlayerCount]) -> dict[int, PlayerCount]:
        for n, pc in value.items():
            if not 2 <= n <= 5:
                raise ValueError(f"player count {n}: the game is for 2 to 5 players")
            if len(pc.starting_plantations) != n:
                raise ValueError(f"player count {n}: {len(pc.starting_plantations)} starting plantations, need {n}")
        return value

    @model_validator(mode="after")
    def _cross_checks(self) -> Ruleset:
        goods = {g.id for g in self.goods}
        roles = {r.id for r in self.roles}
        seen: dict[str, str] = {}
        for thing in (*self.goods, self.quarry, *self.roles, *self.buildings):
            for label in (thing.name, *thing.aliases):
                key = normalize(label)
                if key in seen and seen[key] != thing.id:
                    raise ValueError(f"name {label!r} is used by both {seen[key]} and {thing.id}")
                seen[key] = thing.id
        ids = [b.id for b in self.buildings]
        if len(ids) != len(set(ids)):
            raise ValueError("building ids must be unique")
        for b in self.buildings:
            if b.produces is not None and b.produces not in goods:
                raise ValueError(f"{b.id}: produces unknown good {b.produces!r}")
            for good in getattr(b.effect, "goods", ()) + getattr(b.effect, "exclude", ()):
                if good not in goods:
                    raise ValueError(f"{b.id}: its effect names unknown good {good!r}")
        if self.selection is not None:
            costs = {slot.cost for slot in self.selection.slots}
            for b in self.buildings:
                if b.kind.endswith("violet") and b.cost not in costs:
                    raise ValueError(f"{b.id}: no selection slot costs {b.cost}")
            for group in self.selection.exclusive:
                for ident in group:
                    if ident not in ids:
                        raise ValueError(f"selection.exclusive: unknown building {ident!r}")
        for n, pc in self.player_counts.items():
            for role, copies in pc.roles.items():
                if role not in roles:
                    raise ValueError(f"player count {n}: unknown role {role!r}")
                if copies < 1:
                    raise ValueError(f"player count {n}: role {role} needs at least one card")
            for kind in pc.starting_plantations:
                if kind not in goods:
                    raise ValueError(f"player count {n}: unknown starting plantation {kind!r}")
            tiles = {g.id: g.plantations for g in self.goods}
            for kind in pc.starting_plantations:
                tiles[kind] -= 1
                if tiles[kind] < 0:
                    raise ValueError(f"player count {n}: more starting {kind} plantations than tiles")
            if sum(pc.roles.values()) < n * pc.roles_per_player:
                raise ValueError(f"player count {n}: fewer role cards than players")
        return self
