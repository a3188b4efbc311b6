"""The shipping position (docs/formats/shipping-position.md): its schema model, and reading it, checked.

A position is one captain phase about to be played: the cargo ships and what they carry, the VP
chips left, and each player's barrels and occupied buildings, clockwise from the captain. The
reader checks it against the ruleset (known names, the cargo ships of that player count, no full
ship, one kind on one ship, barrels within the supply, buildings owned once) and reports every
problem as a positioned diagnostic (exit 2); `referee.jobs.shipping` then plays the phase out.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, Location, Problems, in_order
from referee.documents.names_list import names_in
from referee.ground.frozen import Frozen, frozen, set_field
from referee.ground.wording import normalize
from referee.located.tree import YNode, read_yaml
from referee.rulesets.load import ruleset_of, supply_ruleset
from referee.rulesets.rules import BUILDING, GOOD, Rules, UnknownName

_CONTENTS = re.compile(r"^\s*(?P<good>.*?\S)\s+(?P<count>[0-9]{1,9})\s*$")  # ASCII digits, and few: `int()` of thousands fails
MAX_BARRELS = 999  # the schema's bound on a player's barrels of a kind (position_model.py)
TOP_KEYS = {"ruleset", "ships", "vp_left", "players"}
PLAYER_KEYS = {"name", "goods", "buildings"}


# The records are frozen dataclasses with `Frozen`'s methods (referee.ground.frozen): written once,
# not compiled by `dataclass` at every start of `referee ship`.


@frozen()
class ShipRecord(Frozen):
    """One cargo ship of the position: size, kind on it (None: empty), barrels on it."""

    size: int
    good: str | None
    count: int

    def __init__(self, size: int, good: str | None, count: int) -> None:
        set_field(self, "size", size)
        set_field(self, "good", good)
        set_field(self, "count", count)


@frozen()
class PlayerRecord(Frozen):
    """One player of the position: barrels by kind (ruleset order), occupied buildings (ids)."""

    name: str
    goods: dict[str, int]
    buildings: tuple[str, ...]
    location: Location

    def __init__(self, name: str, goods: dict[str, int], buildings: tuple[str, ...], location: Location) -> None:
        set_field(self, "name", name)
        set_field(self, "goods", goods)
        set_field(self, "buildings", buildings)
        set_field(self, "location", location)


@frozen()
class Position(Frozen):
    """A shipping position, read and checked: the calculator's input."""

    file: str
    rules: Rules
    ships: tuple[ShipRecord, ...]
    players: tuple[PlayerRecord, ...]
    vp_left: int | None
    players_location: Location

    def __init__(
        self, file: str, rules: Rules, ships: tuple[ShipRecord, ...], players: tuple[PlayerRecord, ...], vp_left: int | None, players_location: Location
    ) -> None:
        set_field(self, "file", file)
        set_field(self, "rules", rules)
        set_field(self, "ships", ships)
        set_field(self, "players", players)
        set_field(self, "vp_left", vp_left)
        set_field(self, "players_location", players_location)

    def find_player(self, text: str) -> int | None:
        """The index of a player named `text` (exactly, else ignoring case and spacing)."""
        for i, p in enumerate(self.players):
            if p.name == text:
                return i
        hits = [i for i, p in enumerate(self.players) if normalize(p.name) == normalize(text)]
        return hits[0] if len(hits) == 1 else None


def read_position(data: bytes | str, file: str, ruleset: str | None = None, base_dir: Path | None = None) -> Position:
    """Read and check a shipping position; InputError (exit 2) with every problem, each positioned."""
    root = read_yaml(data, file)
    if not root.is_map:
        raise InputError([Diagnostic("position.not-a-mapping", "a shipping position is a mapping with ruleset, ships and players", root.location, READ_ERROR)])
    supply_ruleset(root, ruleset)
    model: Any = _plainly_valid(root)
    if model is None:  # the model speaks for every problem of shape
        from referee.documents.kind import POSITION, refuse_wrong_command
        from referee.documents.position_model import PositionModel
        from referee.located.model_check import validate

        refuse_wrong_command(root, data, POSITION, file, "position")  # a log or a sheet: the command that reads it, not every key a position lacks

        model = validate(PositionModel, root.plain(), root, "position.schema", "a shipping position")
    rules = ruleset_of(root, ruleset, base_dir)
    return _check(root, model, rules, file)


class _Player:
    __slots__ = ("buildings", "goods", "name")

    def __init__(self, name: str, goods: dict[str, int], buildings: list[str]) -> None:
        self.name, self.goods, self.buildings = name, goods, buildings


class _Plain:
    """A position of the right shape, read without the schema model (the fields `_check` reads)."""

    __slots__ = ("players", "ruleset", "ships", "vp_left")

    def __init__(self, ruleset: str | int, ships: dict[str, str | None], vp_left: int | None, players: list[_Player]) -> None:
        self.ruleset, self.ships, self.vp_left, self.players = ruleset, ships, vp_left, players


def _plainly_valid(root: YNode) -> _Plain | None:
    """A quick, stricter-than-the-model look at a position's shape (keys, types); None for
    anything unusual, which `PositionModel` then explains."""
    doc = root.value
    if not isinstance(doc, dict) or not {"ruleset", "ships", "players"} <= doc.keys() <= TOP_KEYS:
        return None
    ruleset, ships, players = doc["ruleset"].value, doc["ships"].value, doc["players"].value
    if isinstance(ruleset, bool) or not isinstance(ruleset, (str, int)) or not isinstance(ships, dict) or not isinstance(players, list) or not players:
        return None
    if not all(node.value is None or isinstance(node.value, str) for node in ships.values()):
        return None
    vp_left = doc["vp_left"].value if "vp_left" in doc else None
    if vp_left is not None and (type(vp_left) is not int or vp_left < 0):
        return None
    plain: list[_Player] = []
    for node in players:
        fields: Any = node.value
        if not isinstance(fields, dict) or not {"name"} <= fields.keys() <= PLAYER_KEYS:
            return None
        name, goods, buildings = fields["name"].value, fields.get("goods"), fields.get("buildings")
        if not isinstance(name, str) or not name.strip():
            return None
        counts: dict[str, int] = {}
        if goods is not None:
            if not isinstance(goods.value, dict) or not all(type(v.value) is int and 0 <= v.value <= MAX_BARRELS for v in goods.value.values()):
                return None
            counts = {k: v.value for k, v in goods.value.items()}
        names: list[str] = []
        if buildings is not None:
            if not isinstance(buildings.value, list) or not all(isinstance(b.value, str) for b in buildings.value):
                return None
            names = [b.value for b in buildings.value]
        plain.append(_Player(name, counts, names))
    return _Plain(ruleset, {k: v.value for k, v in ships.items()}, vp_left, plain)


def _size(text: str) -> bool:
    """Is `text` a ship's size: a few ASCII digits?"""
    text = text.strip()
    return text.isascii() and text.isdigit() and len(text) <= 9


def _sizes(sizes: list[int] | tuple[int, ...]) -> str:
    items = [str(s) for s in sizes]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _check(root: YNode, model: Any, rules: Rules, file: str) -> Position:
    errors = Problems()  # (a position's are few: every one said)
    doc = root.value
    ship_word = rules.terms.cargo_ship
    players_node: YNode = doc["players"]
    n = len(model.players)

    # players: their number and names
    setup = rules.model.player_counts.get(n)
    refused = rules.not_for(n, span=True)
    if refused is not None:
        errors.add("position.players", refused, players_node.location)
    seen_names: dict[str, str] = {}
    for i, player in enumerate(model.players):
        pnode = players_node.value[i]
        where = pnode.value["name"].location if pnode.is_map and "name" in pnode.value else pnode.location
        key = normalize(player.name)
        if key in seen_names:
            first = seen_names[key]
            same = "is listed twice" if first == player.name else f"and '{first}' are the same name (case and spacing aside)"
            errors.add("position.duplicate-player", f"player '{player.name}' {same}: names must be unique in a position", where)
        else:
            seen_names[key] = player.name

    # ships: exactly the cargo ships of this player count, none full, one kind on one ship
    ships_node: YNode = doc["ships"]
    ships: list[ShipRecord] = []
    carrying: dict[str, int] = {}
    sizes_seen: set[int] = set()
    for key_text, node in ships_node.value.items():
        key_at = ships_node.key_location(key_text)
        if not _size(key_text):
            errors.add("position.ships", f"a cargo {ship_word} is written by its size, a number (e.g. `4: empty`), not '{key_text}'", key_at)
            continue
        size = int(key_text)
        if size in sizes_seen:
            errors.add("position.ships", f"the {size}-{ship_word} is written twice", key_at)
            continue
        sizes_seen.add(size)
        if setup is not None and size not in setup.cargo_ships:
            errors.add(
                "position.ships",
                f"there is no {size}-{ship_word} with {n} players: the cargo {ship_word}s take {_sizes(setup.cargo_ships)} barrels",
                key_at,
            )
            continue
        text = "empty" if node.value is None else node.text()
        if normalize(text) == "empty":
            ships.append(ShipRecord(size, None, 0))
            continue
        m = _CONTENTS.match(text)
        if m is None:
            errors.add(
                "position.ship-contents",
                f"the {size}-{ship_word}: write `empty` or `<good> <count>` (e.g. `corn 2`), not '{text}'",
                node.location,
            )
            continue
        try:
            good = rules.lookup(m["good"], (GOOD,))[1]
        except UnknownName as exc:
            errors.add("position.unknown-name", f"the {size}-{ship_word}: {exc}", node.location)
            continue
        count = int(m["count"])
        if count == 0:
            ships.append(ShipRecord(size, None, 0))
            continue
        if count > size:
            errors.add("position.ship-contents", f"the {size}-{ship_word} holds at most {size} barrels, not {count}", node.location)
            continue
        if count == size:
            errors.add(
                "position.full-ship",
                f"the {size}-{ship_word} is full ({count} {rules.name(good)}): a full cargo {ship_word} cannot be in a position, "
                f"it was emptied at the end of the last captain phase (write `{size}: empty`)",
                node.location,
            )
            continue
        if good in carrying:
            errors.add(
                "position.kind-on-two-ships",
                f"{rules.name(good)} is already on the {carrying[good]}-{ship_word}: one kind cannot be on two cargo {ship_word}s",
                node.location,
            )
            continue
        carrying[good] = size
        ships.append(ShipRecord(size, good, count))
    if setup is not None:
        written = {int(k) for k in ships_node.value if _size(k)}
        missing = [s for s in setup.cargo_ships if s not in written]
        if missing:
            which = " and ".join(f"the {s}-{ship_word}" for s in missing)
            errors.add(
                "position.ships",
                f"{which} {'is' if len(missing) == 1 else 'are'} missing: with {n} players the cargo {ship_word}s take {_sizes(setup.cargo_ships)} barrels "
                f"(write `{missing[0]}: empty` for an empty one)",
                ships_node.location,
            )
        order = {s: i for i, s in enumerate(setup.cargo_ships)}
        ships.sort(key=lambda s: order.get(s.size, len(order)))

    # barrels within the supply: ships first, then the players in order
    removed = setup.barrels_removed if setup is not None else 0
    held: dict[str, int] = {g: 0 for g in rules.goods}
    parts: dict[str, list[str]] = {g: [] for g in rules.goods}
    for ship in ships:
        if ship.good is not None:
            held[ship.good] += ship.count
            parts[ship.good].append(f"{ship.count} on the {ship.size}-{ship_word}")
    reported: set[str] = set()

    # players: goods and buildings
    owners: dict[str, list[str]] = {}
    records: list[PlayerRecord] = []
    for i, player in enumerate(model.players):
        pnode = players_node.value[i]
        fields = pnode.value if pnode.is_map else {}
        goods: dict[str, int] = {}
        gnode = fields.get("goods")
        for text, count in player.goods.items():
            where = gnode.key_location(text) if gnode is not None else pnode.location
            try:
                good = rules.lookup(text, (GOOD,))[1]
            except UnknownName as exc:
                errors.add("position.unknown-name", f"{player.name}: {exc}", where)
                continue
            if good in goods:
                errors.add("position.duplicate-good", f"{player.name}: {rules.name(good)} is written twice", where)
                continue
            goods[good] = count
            if count:
                held[good] += count
                parts[good].append(f"{player.name} {count}")
            supply = rules.good[good].barrels - removed
            if held[good] > supply and good not in reported:
                reported.add(good)
                errors.add(
                    "position.barrels",
                    f"{held[good]} {rules.name(good)} in this position ({', '.join(parts[good])}); the game has {supply} barrels of {rules.name(good)}",
                    where,
                )
        buildings: list[str] = []
        bnode = fields.get("buildings")
        for ident, why, where in names_in(rules, player.buildings, bnode, pnode.location, (BUILDING,)):
            if ident is None:
                errors.add("position.unknown-name", f"{player.name}: {why}", where)
                continue
            if ident in buildings:
                errors.add("position.duplicate-building", f"{player.name} has the {rules.name(ident)} twice: each building at most once per player", where)
                continue
            if rules.building[ident].circles == 0:
                errors.add("position.occupied-no-circle", f"{player.name}: the {rules.name(ident)} has no circle, so it is never occupied", where)
                continue
            buildings.append(ident)
            owners.setdefault(ident, []).append(player.name)
        ordered = {g: goods[g] for g in rules.goods if goods.get(g, 0) > 0}
        records.append(PlayerRecord(player.name, ordered, tuple(buildings), pnode.location))
    for ident, names in owners.items():
        copies = rules.copies(rules.building[ident], n)
        if len(names) > copies:
            errors.add(
                "position.copies",
                f"{len(names)} players have the {rules.name(ident)} ({', '.join(names)}); the game has {copies}",
                players_node.location,
            )

    # VP chips
    if model.vp_left is not None and setup is not None and model.vp_left > setup.vp_chips:
        errors.add("position.vp-left", f"vp_left: the game has {setup.vp_chips} VP in chips with {n} players, not {model.vp_left}", doc["vp_left"].location)

    if errors.items:
        raise InputError(in_order(errors.items))
    return Position(
        file=file,
        rules=rules,
        ships=tuple(ships),
        players=tuple(records),
        vp_left=model.vp_left,
        players_location=root.key_location("players"),
    )
