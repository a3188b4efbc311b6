"""A bundled ruleset's data as the page reads it (`GET /api/rules/NAME`): its words, goods,
roles, buildings with what the page shows of each, and the selection of violet buildings."""

from __future__ import annotations

from typing import Any

from referee.rulesets.rules import Rules


def ruleset_object(rules: Rules) -> dict[str, Any]:
    """A ruleset's data for the page: its words, names of goods, roles (by id: the phase each
    opens), buildings (with their cost, column, VP, circles, and whether they act in a captain
    phase), player counts, and the selection of violet buildings (Expansion I)."""
    from referee.engine.phases.captain import SHIPPING_POWERS, STORAGE_POWERS
    from referee.rulesets.compiled import plain

    model = rules.model
    # the powers that act in a captain phase, what the page offers buildings for: loading,
    # storage, and a doubled privilege (the captain's VP)
    captain = {*SHIPPING_POWERS, *STORAGE_POWERS, "privilege.double"}
    return {
        "id": model.id,
        "title": model.title,
        "terms": plain(model.terms),
        "players": sorted(model.player_counts),
        "ships": {str(n): list(pc.cargo_ships) for n, pc in model.player_counts.items()},
        "goods": [{"id": g.id, "name": g.name} for g in model.goods],
        "roles": [{"id": r.id, "name": r.name} for r in model.roles],  # a role's id names its phase (a decision's `phase` is its name)
        "quarry": model.quarry.name,
        "buildings": [
            {
                "id": b.id,
                "name": b.name,
                "large": b.size == 2,
                "violet": b.kind.endswith("violet"),
                "cost": b.cost,
                "column": b.column,
                "vp": b.vp,
                "circles": b.circles,
                "captain": b.effect is not None and b.effect.id in captain,
                "guest": b.effect is not None and b.effect.id == "move.guest",  # its colonists move before a move (a decision's `guests`)
            }
            for b in model.buildings
        ],
        "forests": bool(rules.with_effect("settle.forest")),
        "selection": _selection(rules),
    }


def _selection(rules: Rules) -> dict[str, Any] | None:
    """How the violet buildings of a game are chosen before it (Expansion I), for the page's
    setup: each cost's spaces and the buildings of that cost, and the groups of which a game
    holds one at most; None where a ruleset has no selection."""
    selection = rules.model.selection
    if selection is None:
        return None
    violet = [b for b in rules.buildings if b.kind.endswith("violet")]
    return {
        "slots": [{"cost": slot.cost, "spaces": slot.spaces, "buildings": [b.name for b in violet if b.cost == slot.cost]} for slot in selection.slots],
        "exclusive": [[rules.name(ident) for ident in group] for group in selection.exclusive],
    }
