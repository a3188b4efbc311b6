"""Names written in a list of a document (a player's buildings, occupied buildings ...),
looked up in the ruleset with the place each was written."""

from __future__ import annotations

from collections.abc import Iterator

from referee.diagnostics import Location
from referee.located.tree import YNode
from referee.rulesets.rules import Rules, UnknownName


def names_in(rules: Rules, texts: list[str], node: YNode | None, fallback: Location, categories: tuple[str, ...]) -> Iterator[tuple[str | None, str, Location]]:
    """Each name written in a list (of buildings, goods ...): (id, '', where), or (None, why, where)
    for a name the ruleset does not know."""
    for i, text in enumerate(texts):
        where = node.value[i].location if node is not None and isinstance(node.value, list) and i < len(node.value) else fallback
        try:
            yield rules.lookup(text, categories)[1], "", where
        except UnknownName as exc:
            yield None, str(exc), where
