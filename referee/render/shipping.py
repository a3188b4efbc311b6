"""`referee ship` output: a screen for the table, or JSON (docs/formats/shipping-position.md, version 3): the
answer, and one outcome at a time (the command writes the list of `--all` as it is found).

What referee adds to the contract's JSON: `"expected_play": true` on the choice the expected play
takes (a choice's `"expected"` is already its expected VP), and with `--for` a `"for"` object
saying how the asker changes the expected play."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from referee.documents.position import Position, ShipRecord
from referee.ground.wording import count, json_text
from referee.jobs.shipping.outcomes import Outcome, PlayerOutcome
from referee.jobs.shipping.summary import Answer, Choices
from referee.moves.clauses import AnyMove
from referee.render.tables import table
from referee.rulesets.rules import Rules

SHOWN_CHOICES = 8  # the most choices the text shows (a small wharf may offer dozens); the JSON has them all


def for_note(name: str) -> str:
    """What `--for NAME` changes, in words."""
    return (
        f"where a player is indifferent between moves, they are taken to choose the one worst for {name}: "
        "this changes the others' tie-breaking, and so the expected play, not anyone's guaranteed or best VP"
    )

# --- JSON ----------------------------------------------------------------------------------


def answer_json(file: str, answer: Answer, asked: bool = False) -> dict[str, Any]:
    """The answer as the JSON object of docs/formats/shipping-position.md (without `outcomes`; `asked`:
    --for was given, which adds `"for"`)."""
    position = answer.position
    rules = position.rules
    names = [p.name for p in position.players]
    expected = outcome_json(answer.expected, names, rules, answer.doubloons)
    expected["moves"] = [f"{names[m.player]}: {m.move.text(rules)}" for m in answer.moves]
    out = {
        "file": file,
        "forced": answer.forced,
        "players": {name: {"vp": {"guaranteed": r.guaranteed, "expected": r.expected, "best": r.best}} for name, r in zip(names, answer.vp, strict=True)},
        "expected": expected,
        "choices": _choices_json(answer.choices, names, rules),
        "best": _best_json(answer, names, rules),
    }
    if asked:
        out["for"] = {"player": names[answer.asker], "note": for_note(names[answer.asker])}
    return out


def outcome_json(o: Outcome, names: list[str], rules: Rules, doubloons: bool) -> dict[str, Any]:
    """One outcome: each player's VP, barrels shipped, kept and lost (and doubloons gained, when
    a lighthouse is in play), and the cargo ships after unloading."""
    return {"players": {name: _player_json(p, doubloons) for name, p in zip(names, o.players, strict=True)}, "ships": _ships_json(o.ships, rules)}


class OutcomeTexts:
    """The outcomes of a list (`--all`) as JSON text, each as `json_text(outcome_json(...))`
    writes it, but each player's part and the ships written once: a list has many outcomes
    and few distinct parts (the test compares the two texts)."""

    def __init__(self, names: list[str], rules: Rules, doubloons: bool) -> None:
        self.names, self.rules, self.doubloons = names, rules, doubloons
        self._players: list[dict[tuple[object, ...], str]] = [{} for _ in names]
        self._ships: dict[tuple[ShipRecord, ...], str] = {}

    def text(self, o: Outcome) -> str:
        """One outcome, as one line of JSON."""
        parts = []
        for name, p, written in zip(self.names, o.players, self._players, strict=True):
            key = (p.vp, p.doubloons, tuple(p.shipped.items()), tuple(p.kept.items()), tuple(p.lost.items()))
            part = written.get(key)
            if part is None:
                part = written[key] = json_text({name: _player_json(p, self.doubloons)})[1:-1]
            parts.append(part)
        ships = self._ships.get(o.ships)
        if ships is None:
            ships = self._ships[o.ships] = json_text(_ships_json(o.ships, self.rules))
        return '{"players": {' + ", ".join(parts) + '}, "ships": ' + ships + "}"


def _player_json(p: PlayerOutcome, doubloons: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"vp": p.vp, "shipped": p.shipped, "kept": p.kept, "lost": p.lost}
    if doubloons:
        out["doubloons"] = p.doubloons
    return out


def _ships_json(ships: tuple[ShipRecord, ...], rules: Rules) -> dict[str, Any]:
    return {str(s.size): ({"good": rules.name(s.good), "count": s.count} if s.good is not None else None) for s in ships}


def _move_text(move: AnyMove | None, rules: Rules) -> str | None:
    return None if move is None else move.text(rules)


def _choices_json(choices: Choices | None, names: list[str], rules: Rules) -> dict[str, Any] | None:
    if choices is None:
        return None
    moves: list[dict[str, Any]] = [{"move": _move_text(c.move, rules), "guaranteed": c.guaranteed, "expected": c.expected, "best": c.best} for c in choices.moves]
    moves[0]["expected_play"] = True  # the first is the expected play's move (`Choices`)
    return {"player": names[choices.player], "moves": moves}


def _best_json(answer: Answer, names: list[str], rules: Rules) -> dict[str, Any] | None:
    if answer.best is None:
        return None
    return {"player": names[answer.asker], "move": _move_text(answer.best.move, rules), "vp": answer.best.expected}


# --- text ----------------------------------------------------------------------------------


def answer_text(file: str, answer: Answer, asked: bool = False, head: bool = True) -> Iterator[str]:
    """The answer for the table, in lines: each player's guaranteed, expected and best VP, the
    expected play, the choices (`asked`: --for was given; `head`: begin with `heading`)."""
    position = answer.position
    rules = position.rules
    names = [p.name for p in position.players]
    if head:
        yield from heading(file, position)
    yield ""
    if answer.forced:
        yield "forced: whatever anyone does, the phase ends the same way"
    # a lighthouse pays doubloons in the phase: the expected play's, as the JSON gives them
    money = (f"{rules.terms.doubloon[1]} (expected)",) if answer.doubloons else ()
    rows = [("player", "guaranteed", "expected", "best", *money, "lost (expected)")]
    for name, r, p in zip(names, answer.vp, answer.expected.players, strict=True):
        rows.append((name, str(r.guaranteed), str(r.expected), str(r.best), *((f"+{p.doubloons}",) if answer.doubloons else ()), _goods(p.lost)))
    yield from table(rows, right=(1, 2, 3, 4) if answer.doubloons else (1, 2, 3))
    yield ""
    yield "expected play (each player takes the move best for them; see `referee ship --help`):"
    if asked:
        yield f"  (--for {names[answer.asker]}: {for_note(names[answer.asker])})"
    if not answer.moves:
        yield "  nobody loads anything"
    yield from table([(f"{i}.", names[m.player], m.move.text(rules)) for i, m in enumerate(answer.moves, start=1)], right=(0,), indent="  ")
    yield f"  cargo {rules.terms.cargo_ship}s after unloading: {_ships_text(answer.expected.ships, rules)}"
    if position.vp_left is not None and sum(p.vp for p in answer.expected.players) >= position.vp_left:
        yield "  the VP chips run out: the game ends after this round (VP beyond them are counted on paper)"
    if answer.choices is not None:
        yield ""
        yield from _choices_text(answer.choices, names, rules)
    elif asked:
        yield ""
        yield f"{names[answer.asker]} has no choice to make in this phase"
    if answer.best is not None:
        yield f"best for {names[answer.asker]}: {_move_words(answer.best.move, rules)} ({answer.best.expected} VP expected in the phase)"


def heading(file: str, position: Position) -> Iterator[str]:
    """The first lines: the file, the ruleset, the players, the cargo ships."""
    rules = position.rules
    names = [p.name for p in position.players]
    captain = rules.name("captain")
    yield f"{file}: {captain} phase [{rules.id}], {', '.join(names)} ({names[0]} is {captain})"
    chips = f"; VP chips left: {position.vp_left}" if position.vp_left is not None else ""
    yield f"cargo {rules.terms.cargo_ship}s: {_ships_text(position.ships, rules)}{chips}"


def outcome_line(number: int, o: Outcome, names: list[str], rules: Rules, doubloons: bool = False) -> str:
    """One outcome on one line: each player's VP (and the doubloons a lighthouse paid, what they
    keep and lose), the ships after."""
    players = []
    for name, p in zip(names, o.players, strict=True):
        extra = [f"+{count(p.doubloons, rules.terms.doubloon)}"] if doubloons and p.doubloons else []
        extra += [f"kept {_goods(p.kept)}"] if p.kept else []
        extra += [f"lost {_goods(p.lost)}"] if p.lost else []
        players.append(f"{name} {p.vp} VP" + (f" ({'; '.join(extra)})" if extra else ""))
    return f"  {number}. " + ", ".join(players) + f" | {_ships_text(o.ships, rules)}"


def _choices_text(choices: Choices, names: list[str], rules: Rules) -> Iterator[str]:
    yield f"{names[choices.player]}'s choices (VP in the phase; guaranteed: whatever the others do):"
    rows = [("move", "guaranteed", "expected", "best", "")]
    for i, c in enumerate(choices.moves[:SHOWN_CHOICES]):
        rows.append((_move_words(c.move, rules), str(c.guaranteed), str(c.expected), str(c.best), "<- expected play" if i == 0 else ""))
    yield from table(rows, right=(1, 2, 3), indent="  ")
    more = len(choices.moves) - SHOWN_CHOICES
    if more > 0:
        yield f"  ... and {more} more, by expected VP (--format json lists them all)"


def _move_words(move: AnyMove | None, rules: Rules) -> str:
    return move.text(rules) if move is not None else f"no {rules.terms.private_ship}"


def _ships_text(ships: tuple[ShipRecord, ...], rules: Rules) -> str:
    return ", ".join(f"{s.size}: {f'{s.count} {rules.name(s.good)}' if s.good else 'empty'}" for s in ships)


def _goods(goods: dict[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in goods.items()) or "-"
