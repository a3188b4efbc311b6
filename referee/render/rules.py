"""`referee rules`: a ruleset's numbers and buildings as readable tables (or JSON)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from referee.diagnostics import InputError
from referee.ground.wording import a, count, json_text, listing, printable
from referee.render.tables import table
from referee.rulesets.compiled import plain
from referee.rulesets.rules import BUILDING, Rules, UnknownName

if TYPE_CHECKING:
    from referee.rulesets.model import Building  # compiled: plain objects with the model's fields


def power(b: Building, rules: Rules) -> str:
    """A building's power in a few words, from its effect id and parameters."""
    t = rules.terms
    if b.produces is not None:
        return f"produces {rules.name(b.produces)} (up to {b.circles})"
    e = b.effect
    if e is None:
        return "no power" if b.circles == 0 else "-"
    params = {k: v for k, v in vars(e).items() if k != "id"}
    if e.id == "trade.bonus":
        return f"+{count(params['doubloons'], t.doubloon)} per sale"
    if e.id == "store.kinds":
        return f"keeps every {t.barrel[0]} of {count(params['kinds'], ('kind', 'kinds'))} after the captain phase"
    if e.id == "store.barrels":
        return f"keeps {params['barrels']} more {t.barrel[0] if params['barrels'] == 1 else t.barrel[1]} after the captain phase"
    text = {
        "trade.any-kind": "may sell a kind already in the " + t.trading_house,
        "settle.extra-tile": f"may also take the top face-down {t.plantation[0]}",
        "settle.quarry": f"may take a quarry instead of {a(t.plantation[0])}",
        "settle.colonist": f"+1 {t.colonist[0]} on the tile taken",
        "craft.kinds-bonus": t.doubloon[1] + " for kinds produced: {doubloons}",
        "build.colonist": f"+1 {t.colonist[0]} on the building built",
        "ship.load-vp": f"+{{vp}} {t.vp[0]} per load",
        "ship.private-ship": f"once per captain phase: every {t.barrel[0]} of one kind on a {t.private_ship}",
        "bonus.buildings": "end: {weights}",
        "bonus.island": f"end: by filled {t.island} spaces {{vp}}",
        "bonus.colonists": f"end: +1 {t.vp[0]} per {{per}} {t.colonist[1]}",
        "bonus.chips": f"end: +1 {t.vp[0]} per {{per}} {t.vp[0]} earned",
        "bonus.sets": f"end: sets of {{set_size}} identical {t.island} tiles, {{vp}}",
        "craft.extra-barrel": f"+1 {t.barrel[0]} of {{goods}} made in its large production building",
        "craft.most-kind": f"{t.doubloon[1]}: most {t.barrel[1]} of one kind produced, minus 1",
        "settle.forest": f"{t.plantation[1]} may be placed as forests; {{forests_per_doubloon}} forests: -1 {t.doubloon[0]} on any building",
        "build.black-market": f"pays with a {t.colonist[0]}, a {t.barrel[0]}, a {t.vp_chip[0]} when spending all the money",
        "build.vp": f"{t.vp[0]} when building, by column: {{vp}}",
        "move.guest": f"its {t.colonist[1]} may move to empty circles outside the {rules.name('mayor')} phase",
        "trade.own-post": f"may sell any kind to its own post instead of the {t.trading_house}",
        "ship.small-wharf": f"once per captain phase: any {t.barrel[1]} shipped, 1 {t.vp[0]} per {{barrels_per_vp}}",
        "ship.load-doubloons": f"+{{per_load}} {t.doubloon[0]} per load; +{{captain}} as the captain",
        "ship.pairs-vp": f"+{{vp_per_pair}} {t.vp[0]} per pair of {t.barrel[1]} before the first load",
        "privilege.double": f"every {t.privilege} counts twice"
        + (f" (with {' or '.join(str(n) for n in params['once_per_round'])} players: only the first of each round)" if params.get("once_per_round") else ""),
    }.get(e.id)
    if text is None:
        return e.id + (" " + json.dumps(params) if params else "")
    try:
        return text.format(**{k: _show(v, rules) for k, v in params.items()})
    except (KeyError, IndexError):
        return e.id


def privilege(role: str, amount: int, rules: Rules) -> str:
    """What the chooser of `role` gets over the others, in words (the role ids are the model's
    closed list; each phase reads its privilege the same way)."""
    t = rules.terms
    if amount == 0:
        return "none"
    return {
        "settler": f"may take {a(rules.name(rules.quarry.id))} instead of {a(t.plantation[0])}",
        "mayor": f"+{count(amount, t.colonist)} from the supply",
        "builder": f"pays {count(amount, t.doubloon)} less",
        "craftsman": f"+{count(amount, t.barrel)} of a kind produced",
        "trader": f"+{count(amount, t.doubloon)} for the sale",
        "captain": f"+{count(amount, t.vp)} with the first load",
        "prospector": f"+{count(amount, t.doubloon)}",
    }.get(role, str(amount))


def _show(value: Any, rules: Rules) -> str:
    """A parameter for people: ids as names, tables as 'k: v' lists."""
    if isinstance(value, dict):
        return ", ".join(f"{_show(k, rules)}: {v}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " and ".join(_show(v, rules) for v in value)
    if isinstance(value, str):
        return rules.name(value)
    return str(value)


def _base_name(thing: Any) -> str:
    """The base game's name of a renamed item (its id, in words), or ''."""
    base = thing.id.replace("-", " ")
    return "" if base.lower() == thing.name.lower() else base


def rules_text(rules: Rules, building: str | None = None, players: int | None = None) -> str:
    """The ruleset as plain-text tables; with `players`, the numbers of a game of that many
    (KeyError for a count the ruleset has none for)."""
    m = rules.model
    refused = rules.not_for(players) if players is not None else None
    if refused is not None:
        raise KeyError(refused)
    if building is not None:
        return _building_text(rules, building, players)
    renamed = any(_base_name(x) for x in (*m.buildings, *m.goods, *m.roles))
    extends = ", ".join(m.extends) if isinstance(m.extends, tuple) else m.extends
    lines = [f"{m.title} [{m.id}]" + (f", extends {extends}" if extends else "")]
    if m.source:
        lines.append(f"source: {m.source}")
    counts = sorted(m.player_counts) if players is None else [players]
    pcs = [m.player_counts[n] for n in counts]
    t = m.terms
    lines += ["", "Setup by number of players" if players is None else f"Setup for {players} players"]
    rows = [["players", *[str(n) for n in counts]]]
    rows.append([f"starting {t.doubloon[1]}", *[str(p.doubloons) for p in pcs]])
    rows.append([t.vp_chip[1], *[str(p.vp_chips) for p in pcs]])
    rows.append([f"{t.colonist[1]} in the supply", *[str(p.colonists) for p in pcs]])
    rows.append([f"{t.colonist[1]} on the {t.colonist_ship}", *[str(p.ship_colonists) for p in pcs]])
    rows.append(["cargo ships", *[" ".join(str(s) for s in p.cargo_ships) for p in pcs]])
    rows.append([f"face-up {t.plantation[1]}", *[str(p.face_up) for p in pcs]])
    rows.append(["roles per player and round", *[str(p.roles_per_player) for p in pcs]])
    rows.append(["roles", *[str(sum(p.roles.values())) for p in pcs]])
    rows.append([f"starting {t.plantation[1]}", *[", ".join(rules.name(k) for k in p.starting_plantations) for p in pcs]])
    lines += table(rows, set(range(1, len(counts) + 1)))
    lines += ["", "Goods"]
    rows = [["good", "price", t.barrel[1], t.plantation[1]] + (["base name"] if renamed else [])]
    for g in m.goods:
        rows.append([g.name, str(g.price), str(g.barrels), str(g.plantations)] + ([_base_name(g)] if renamed else []))
    rows.append([m.quarry.name, "", "", _by_players(rules, players, lambda n: rules.players(n).quarries or m.quarry.count)] + ([_base_name(m.quarry)] if renamed else []))
    lines += table(rows, {1, 2, 3})
    lines += ["", "Roles"]
    rows = [["role", t.privilege] + (["base name"] if renamed else [])]
    for r in m.roles:
        rows.append([r.name, privilege(r.id, r.privilege, rules)] + ([_base_name(r)] if renamed else []))
    lines += table(rows)
    lines += ["", "Buildings"]
    rows = [["building", "cost", "VP", "col", "circles", "size", "copies", "kind", "power"] + (["base name"] if renamed else [])]
    for b in m.buildings:
        rows.append(
            [b.name, str(b.cost), str(b.vp), str(b.column), str(b.circles), str(b.size), _by_players(rules, players, partial(rules.copies, b)), b.kind, power(b, rules)]
            + ([_base_name(b)] if renamed else [])
        )
    lines += table(rows, {1, 2, 3, 4, 5, 6})
    lines += [
        "",
        f"{t.island}: {m.island_spaces} spaces; {t.city}: {m.city_spaces} spaces; {t.trading_house}: {count(m.trading_house_spaces, t.barrel)}; "
        f"{count(m.windrose_barrels, t.barrel)} kept without a warehouse; {count(m.barrel_vp, t.vp)} a {t.barrel[0]} shipped; {count(m.role_money, t.doubloon)} on each unchosen role",
        end_text(rules),
    ]
    return "\n".join(printable(line) for line in lines)


def end_text(rules: Rules) -> str:
    """When the game ends, in words: the triggers and the timing."""
    m, t = rules.model, rules.terms
    triggers = [
        words
        for words, on in (
            (f"the {t.colonist_ship} cannot be refilled", m.end.colonists_short),
            (f"a player's {t.city} {'are' if t.city.endswith('s') else 'is'} filled", m.end.city_full),
            (f"the {t.vp_chip[1]} run out", m.end.vp_chips_out),
        )
        if on
    ]
    if m.end.timing == "round":
        return f"game end: at the end of the round in which {listing(triggers, 'or')}"
    return (
        f"game end: at the end of the phase in which {listing(triggers, 'or')}; when the {t.vp_chip[1]} run out "
        f"outside a {rules.name('captain')} phase, at the end of the next {rules.name('captain')} phase"
    )


def _by_players(rules: Rules, players: int | None, number: Callable[[int], int]) -> str:
    """A number for `players`, or the usual one with the player counts that differ: '2 (2p: 1)'."""
    if players is not None:
        return str(number(players))
    counts = sorted(rules.model.player_counts)
    usual = max(counts, key=lambda n: ([number(k) for k in counts].count(number(n)), n))
    others = [f"{n}p: {number(n)}" for n in counts if number(n) != number(usual)]
    return str(number(usual)) + (f" ({', '.join(others)})" if others else "")


def _find_building(rules: Rules, name: str) -> Building:
    try:
        return rules.building[rules.lookup(name, (BUILDING,))[1]]
    except UnknownName as exc:
        raise KeyError(str(exc) + _other_edition(rules, name)) from None


def _other_edition(rules: Rules, name: str) -> str:
    """A hint for a building's name from another bundled edition: '; Fire Station is the 1897
    name of the Guild Hall' (only read when a name is unknown)."""
    from referee.rulesets.load import bundled_rulesets, load_ruleset

    for other in bundled_rulesets():
        try:
            ident = load_ruleset(other).lookup(name, (BUILDING,))[1]
        except (UnknownName, InputError):
            continue
        if ident in rules.building:
            return f"; {load_ruleset(other).name(ident)} is the {other} name of the {rules.name(ident)}"
    return ""


def _building_text(rules: Rules, name: str, players: int | None = None) -> str:
    b = _find_building(rules, name)
    lines = [b.name + (f" (base name: {_base_name(b)})" if _base_name(b) else "")]
    for label, value in (
        ("cost", b.cost),
        ("VP", b.vp),
        ("quarry column", b.column),
        ("circles", b.circles),
        ("spaces taken", f"{b.size} in the {rules.terms.city}"),
        ("copies", _by_players(rules, players, partial(rules.copies, b))),
        ("kind", b.kind),
        ("power", power(b, rules)),
        ("effect id", b.effect.id if b.effect else "-"),
        ("also accepted as", ", ".join(b.aliases) or "-"),
    ):
        lines.append(f"  {label:<16} {value}")
    return "\n".join(printable(line) for line in lines)


def rules_json(rules: Rules, building: str | None = None) -> str:
    """The ruleset (or one building) as JSON."""
    if building is not None:
        return json_text(plain(_find_building(rules, building)))
    return json_text(plain(rules.model))
