"""Writing a game log in canonical form: the ruleset's names, one move per line, `# round` comments.

Reading the text back gives the same game (a round trip the tests check).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.ground.wording import json_text
from referee.moves.clauses import AnyMove, Keep
from referee.rulesets.rules import Rules

if TYPE_CHECKING:
    from referee.documents.log_records import GameRecord

_PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9 ._'-]*$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


def scalar(text: str) -> str:
    """A YAML scalar: plain when safe, else double-quoted."""
    if _PLAIN.match(text) and text.lower() not in _RESERVED and not text.endswith(" ") and ": " not in text:
        return text
    return json_text(text)  # control characters and line separators (U+0085, U+2028: line ends to YAML) escaped


@dataclass
class PhaseText:
    """One phase to write."""

    role: str
    chooser: int
    moves: Sequence[tuple[int, AnyMove, tuple[str, ...]]]
    doubloons: int | None = None
    reveal: list[str] | None = None
    keep: dict[int, Keep] = field(default_factory=dict)
    comment: str | None = None  # written above the phase, e.g. "round 3: governor Ben"


def write_log(
    rules: Rules,
    ruleset: str,
    players: list[str],
    plantations: list[str],
    phases: Sequence[PhaseText],
    buildings: list[str] | None = None,
    header: str | None = None,
    result: dict[int, int] | None = None,
) -> str:
    """The canonical text of a game log."""
    out: list[str] = []
    if header:
        out += [f"# {line}" if line else "#" for line in header.splitlines()]
    out.append(f"ruleset: {scalar(ruleset)}")
    out.append(f"players: [{', '.join(scalar(p) for p in players)}]")
    out.append("setup:")
    out.append(f"  plantations: [{', '.join(rules.name(k).lower() for k in plantations)}]")
    if buildings is not None:
        out.append(f"  buildings: [{', '.join(rules.name(b).lower() for b in buildings)}]")
    out.append("phases:" if phases else "phases: []")
    for ph in phases:
        if ph.comment:
            out.append(f"  # {ph.comment}")
        out.append(f"  - {rules.name(ph.role)}: {scalar(players[ph.chooser])}")
        if ph.doubloons is not None:
            out.append(f"    doubloons: {ph.doubloons}")
        if ph.moves:
            out.append("    moves:")
            for p, move, guests in ph.moves:
                out.append(f"      - {scalar(players[p])}: {scalar(move_text(rules, move, guests))}")
        if ph.reveal is not None:
            out.append(f"    reveal: [{', '.join(rules.name(k).lower() for k in ph.reveal)}]")
        if ph.keep:
            items = ", ".join(f"{scalar(players[p])}: {scalar(k.text(rules))}" for p, k in sorted(ph.keep.items()))
            out.append(f"    keep: {{{items}}}")
    if result:
        out.append("result: {" + ", ".join(f"{scalar(players[p])}: {v}" for p, v in sorted(result.items())) + "}")
    return "\n".join(out) + "\n"


def move_text(rules: Rules, move: AnyMove, guests: tuple[str, ...] = ()) -> str:
    """A move as the log writes it: the guest house's clauses first, then the move (a pass
    after guests is the guests alone)."""
    text = move.text(rules)
    return ", ".join([*(f"guest {place_text(rules, g)}" for g in guests), *([text] if text != "pass" or not guests else [])])


def log_document(record: GameRecord, ruleset: str | None = None) -> dict[str, Any]:
    """A log that was read, as the JSON form of a game log (JSON is YAML: the mapping can be
    sent back as a log): the ruleset's names, each move in canonical notation."""
    rules, players = record.rules, record.players
    setup: dict[str, Any] = {"plantations": [rules.name(k).lower() for k in record.plantations]}
    if record.buildings is not None:
        setup["buildings"] = [rules.name(b).lower() for b in record.buildings]
    phases: list[dict[str, Any]] = []
    for ph in record.phases:
        entry: dict[str, Any] = {rules.name(ph.role): players[ph.chooser]}
        if ph.doubloons is not None:
            entry["doubloons"] = ph.doubloons
        entry["moves"] = [{players[m.player]: move_text(rules, m.move, m.guests)} for m in ph.moves]
        if ph.reveal is not None:
            entry["reveal"] = [rules.name(k).lower() for k in ph.reveal]
        if ph.keep:
            entry["keep"] = {players[p]: k.text(rules) for p, k in sorted(ph.keep.items())}
        phases.append(entry)
    document: dict[str, Any] = {"ruleset": ruleset or rules.id, "players": list(players), "setup": setup, "phases": phases}
    if record.result:
        document["result"] = {players[p]: v for p, (v, _) in sorted(record.result.items())}
    return document


def place_text(rules: Rules, place: str) -> str:
    """A place (a building, a tile kind, San Juan) as a move's clause writes it: `guest harbor`."""
    return rules.terms.san_juan.lower() if place == "san-juan" else rules.name(place).lower()


def canonical_log(record: GameRecord, ruleset: str | None = None) -> str:
    """The canonical text of a log that was read (its moves in the ruleset's names)."""
    phases = [
        PhaseText(
            role=ph.role,
            chooser=ph.chooser,
            moves=[(m.player, m.move, m.guests) for m in ph.moves],
            doubloons=ph.doubloons,
            reveal=ph.reveal,
            keep=dict(ph.keep or {}),
        )
        for ph in record.phases
    ]
    result = {p: v for p, (v, _) in record.result.items()} if record.result else None
    return write_log(record.rules, ruleset or record.rules.id, record.players, record.plantations, phases, record.buildings, result=result)
