"""`Rules`: the engine's view of a ruleset, indexed for fast lookups and name matching."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from referee.ground.wording import did_you_mean, listing, normalize

# Name categories a log can use.
GOOD, QUARRY, BUILDING, ROLE = "good", "quarry", "building", "role"


class UnknownName(ValueError):
    """A name that the ruleset does not know; the message lists the closest known names."""


if TYPE_CHECKING:  # a compiled ruleset's parts are plain objects with the models' fields, typed as the models
    from referee.rulesets.effects import EffectId
    from referee.rulesets.model import Building, Effect, Good, PlayerCount, Role, Ruleset


class Rules:
    """A validated ruleset with lookups: by id, by effect id, and by any accepted name.

    `model` is the compiled ruleset (plain objects with the fields of `referee.rulesets.model`).
    """

    def __init__(self, model: Ruleset) -> None:
        self.model = model
        self.memo: dict[tuple[str, str], Any] = {}  # move texts read in this ruleset (`referee.moves.clauses.read_written`)
        self.id = model.id
        self.terms = model.terms
        self.goods: tuple[str, ...] = tuple(g.id for g in model.goods)
        self.good: dict[str, Good] = {g.id: g for g in model.goods}
        self.buildings: tuple[Building, ...] = model.buildings
        self.building: dict[str, Building] = {b.id: b for b in model.buildings}
        self.role: dict[str, Role] = {r.id: r for r in model.roles}
        self.quarry = model.quarry
        self.forest_id: str = model.forest.id
        self.producers: dict[str, tuple[str, ...]] = {g: tuple(b.id for b in model.buildings if b.produces == g) for g in self.goods}
        self.effects: dict[str, tuple[Building, ...]] = {}
        for b in model.buildings:
            if b.effect is not None:
                self.effects[b.effect.id] = (*self.effects.get(b.effect.id, ()), b)
        # (building id, power) by effect id: what `Board.powers` reads, many times a move
        self.power_pairs: dict[str, tuple[tuple[str, Effect], ...]] = {effect: tuple((b.id, b.effect) for b in found if b.effect is not None) for effect, found in self.effects.items()}
        self.circles: dict[str, int] = {b.id: b.circles for b in model.buildings}  # colonist circles by building id
        self.size: dict[str, int] = {b.id: b.size for b in model.buildings}  # city spaces by building id
        self._with_effects: dict[tuple[str, ...], tuple[tuple[str, Effect], ...]] = {}  # `powers_among`, filled as asked
        self._names: dict[str, dict[str, str]] = {GOOD: {}, QUARRY: {}, BUILDING: {}, ROLE: {}}
        self._display: dict[str, str] = {}
        for category, things in ((GOOD, model.goods), (QUARRY, (model.quarry,)), (BUILDING, model.buildings), (ROLE, model.roles)):
            for thing in things:
                self._display[thing.id] = thing.name
                for label in (thing.name, thing.id, *thing.aliases):
                    self._names[category][normalize(label)] = thing.id
        forest = model.forest
        self._display[forest.id] = forest.name
        self.forest_labels = frozenset(normalize(label) for label in (forest.name, forest.id, *forest.aliases))  # how a log may write it
        # the most words in a name: a clause that starts with a name is tried with that many at most
        self.name_words = max(len(key.split()) for names in self._names.values() for key in names)

    def has_circle(self, tile: str) -> bool:
        """Can a colonist go on this island tile? (Every tile but a forest.)"""
        return tile != self.forest_id

    def players(self, n: int) -> PlayerCount:
        """Setup and supplies for `n` players (KeyError if the ruleset has none)."""
        return self.model.player_counts[n]

    def not_for(self, n: int, span: bool = False) -> str | None:
        """None when the ruleset has a game of `n` players; else the sentence that says it has
        not, its player counts listed ('2, 3, 4, 5') or, with `span`, as a range ('2 to 5')."""
        counts = sorted(self.model.player_counts)
        if n in counts:
            return None
        listed = f"{counts[0]} to {counts[-1]}" if span else ", ".join(str(k) for k in counts)
        return f"the {self.id} ruleset is for {listed} players, not {n}"

    def copies(self, building: Building, players: int) -> int:
        """Copies of `building` in a game of `players` players."""
        pc = self.model.player_counts.get(players)
        if pc is not None and pc.copies is not None and building.kind in pc.copies:
            return min(building.copies, pc.copies[building.kind])
        return building.copies

    def name(self, ident: str) -> str:
        """The display name of a good, building, role or the quarry."""
        return self._display.get(ident, ident)

    def lookup(self, text: str, categories: Iterable[str]) -> tuple[str, str]:
        """(category, id) of a name written in a log; UnknownName with suggestions otherwise."""
        key = normalize(text)
        cats = tuple(categories)
        for category in cats:
            hit = self._names[category].get(key)
            if hit is not None:
                return category, hit
        known: dict[str, str] = {}
        for category in cats:
            for k, ident in self._names[category].items():
                known[k] = self._display[ident]
        raise UnknownName(f"unknown {_what(cats)} '{text}'{did_you_mean(text, known)}")

    def find(self, text: str, categories: Iterable[str]) -> tuple[str, str] | None:
        """Like `lookup`, but None for an unknown name."""
        key = normalize(text)
        for category in categories:
            hit = self._names[category].get(key)
            if hit is not None:
                return category, hit
        return None

    def with_effect(self, effect_id: EffectId) -> tuple[Building, ...]:
        """The buildings whose power is `effect_id`."""
        return self.effects.get(effect_id, ())

    def powers_among(self, effect_ids: tuple[EffectId, ...]) -> tuple[tuple[str, Effect], ...]:
        """(building id, power) of every building whose power is one of `effect_ids`, in the
        ruleset's order (worked out once per ruleset: a phase reads several powers at once)."""
        found = self._with_effects.get(effect_ids)
        if found is None:
            found = tuple((b.id, b.effect) for b in self.buildings if b.effect is not None and b.effect.id in effect_ids)
            self._with_effects[effect_ids] = found
        return found

    def power_names(self, effect_id: EffectId) -> str:
        """The names of the buildings with power `effect_id`, for a sentence: 'Wharf', 'Office or Large Market'."""
        return listing([b.name for b in self.with_effect(effect_id)], "or")


def _what(categories: tuple[str, ...]) -> str:
    words = {GOOD: "good", QUARRY: "quarry", BUILDING: "building", ROLE: "role"}
    return " or ".join(words[c] for c in categories)
