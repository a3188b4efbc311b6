"""The violet buildings chosen before a game (Expansion I): which choices the board allows.

One rule, read by the engine for a log's `setup.buildings` (every space filled) and by the
score sheet (the buildings the players own must fit one selection: at most the spaces of each
cost, and never two buildings that exclude each other).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.ground.wording import listing
from referee.rulesets.rules import Rules


@dataclass(frozen=True, slots=True)
class SelectionProblem:
    """What breaks a selection: the index (in the list given) of the building that breaks it,
    or None when no one building does (a space left empty), and a sentence."""

    item: int | None
    message: str


def selection_problems(rules: Rules, chosen: Sequence[str], complete: bool) -> list[SelectionProblem]:
    """The problems of the violet buildings `chosen` (ids), in the order a reader meets them.

    `complete`: the list is the whole selection (a log's setup), so every space must be filled
    and only violet buildings, each once, may be named; otherwise (a score sheet) the list is
    what the players own, which must fit within one selection."""
    selection = rules.model.selection
    assert selection is not None
    problems: list[SelectionProblem] = []
    seen: dict[str, int] = {}
    by_cost: dict[int, list[int]] = {}
    for i, ident in enumerate(chosen):
        building = rules.building[ident]
        if not building.kind.endswith("violet"):
            if complete:
                problems.append(SelectionProblem(i, f"the {building.name} is a production building: production buildings are always in the game, only violet ones are chosen"))
            continue
        if ident in seen:
            if complete:
                problems.append(SelectionProblem(i, f"the {building.name} is chosen twice"))
            continue
        seen[ident] = i
        by_cost.setdefault(building.cost, []).append(i)
    for slot in sorted(selection.slots, key=lambda s: s.cost):
        got = by_cost.get(slot.cost, [])
        if len(got) > slot.spaces or (complete and len(got) < slot.spaces):
            names = [rules.name(chosen[i]) for i in got]
            spaces = f"{slot.spaces} space{'s' if slot.spaces != 1 else ''} for violet buildings costing {slot.cost}"
            if complete:
                candidates = [b.name for b in rules.buildings if b.kind.endswith("violet") and b.cost == slot.cost]
                message = f"the board has {spaces}; {len(got)} chosen ({listing(names, 'and')}); choose {slot.spaces} of {listing(candidates, 'and')}"
            else:
                message = f"a game has {spaces}, but the players have {len(got)} different ones: {listing(names, 'and')}"
            problems.append(SelectionProblem(got[slot.spaces] if len(got) > slot.spaces else None, message))
    for group in selection.exclusive:
        both = [ident for ident in group if ident in seen]
        if len(both) > 1:
            problems.append(SelectionProblem(max(seen[ident] for ident in both), f"{listing([rules.name(ident) for ident in both], 'and')} may not be in the same game"))
    return problems
