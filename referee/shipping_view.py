"""`referee ship` output: a short table per outcome for the table, and JSON (formats.md section 3).

`ship_report` is what the command runs: read the position, calculate, and render text or one
line of JSON; it returns the output and the exit code (0, or 2 when the input cannot be used).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.diagnostics import READ_ERROR, Diagnostic, InputError
from referee.names import normalize
from referee.records.moves import AnyMove
from referee.records.position import Position, ShipRecord, read_position
from referee.render import diagnostic_json, diagnostic_line
from referee.shipping import Best, Outcome, PlayerOutcome, ShippingResult, Step, calculate


def ship_report(
    data: bytes | None,
    file: str,
    base_dir: Path | None = None,
    read_error: Diagnostic | None = None,
    for_name: str | None = None,
    ruleset: str | None = None,
    as_json: bool = False,
) -> tuple[str, int]:
    """Read a shipping position, play its captain phase out, render it: (output, exit code)."""
    if data is None:
        error = read_error or Diagnostic("input.unreadable", "cannot read", None, READ_ERROR)
        return ship_errors(file, [error], as_json), READ_ERROR
    try:
        position = read_position(data, file, ruleset, base_dir)
        target = None
        if for_name is not None:
            target = position.find_player(for_name)
            if target is None:
                raise InputError([_unknown_player(position, for_name)])
        result = calculate(position, target)
    except InputError as exc:
        return ship_errors(file, exc.diagnostics, as_json), READ_ERROR
    return (ship_json(file, result) if as_json else ship_text(file, result)), 0


def _unknown_player(position: Position, name: str) -> Diagnostic:
    from referee.names import did_you_mean

    names = [p.name for p in position.players]
    hint = did_you_mean(name, {normalize(n): n for n in names}) or " (players: " + ", ".join(names) + ")"
    return Diagnostic("ship.unknown-player", f"--for: '{name}' is not a player in this position{hint}", position.players_location, READ_ERROR)


def ship_errors(file: str, diagnostics: list[Diagnostic], as_json: bool) -> str:
    """The diagnostics of a position that cannot be used: one per line, or one line of JSON."""
    if as_json:
        obj = {"file": file, "valid": False, "errors": [diagnostic_json(d) for d in diagnostics], "outcomes": None, "best": None}
        return json.dumps(obj, ensure_ascii=False)
    return "\n".join(diagnostic_line(d, file) for d in diagnostics)


# --- JSON ----------------------------------------------------------------------------------


def ship_json(file: str, result: ShippingResult) -> str:
    """One line of JSON: `{"file", "outcomes": [...], "best": null | {...}}` (formats.md section 3)."""
    names = [p.name for p in result.position.players]
    rules = result.position.rules
    lighthouse = any(o_p.doubloons for o in result.outcomes for o_p in o.players)
    outcomes = []
    for o in result.outcomes:
        players = {name: _player_json(p, lighthouse) for name, p in zip(names, o.players, strict=True)}
        ships = {str(s.size): ({"good": rules.name(s.good), "count": s.count} if s.good is not None else None) for s in o.ships}
        outcomes.append({"players": players, "ships": ships})
    best: dict[str, Any] | None = None
    if result.best is not None:
        b = result.best
        best = {"player": names[b.player], "move": b.move.text(rules) if b.move is not None else None, "vp": b.vp}
    return json.dumps({"file": file, "outcomes": outcomes, "best": best}, ensure_ascii=False)


def _player_json(p: PlayerOutcome, doubloons: bool) -> dict[str, Any]:
    """A player's result; `doubloons` (gained from a lighthouse) only when some player gains any."""
    out: dict[str, Any] = {"vp": p.vp, "shipped": p.shipped, "kept": p.kept, "lost": p.lost}
    if doubloons:
        out["doubloons"] = p.doubloons
    return out


# --- text ----------------------------------------------------------------------------------


def ship_text(file: str, result: ShippingResult) -> str:
    """The outcomes as short tables, each after the line of play that leads to it (choices and
    forced steps marked), then the best load with --for."""
    position = result.position
    rules = position.rules
    names = [p.name for p in position.players]
    ship_word = rules.terms.cargo_ship
    head = f"{file}: {rules.name('captain')} phase [{rules.id}], {', '.join(names)} ({names[0]} is {rules.name('captain')})"
    lines = [head, f"{ship_word}s: {_ships(position.ships, rules)}" + (f"; VP chips left: {position.vp_left}" if position.vp_left is not None else "")]
    count = len(result.outcomes)
    details = [result.details(o) for o in result.outcomes]
    if count == 1:
        forced = all(s.forced for s in details[0].line)
        lines.append("one outcome: " + ("nobody has a choice" if forced else "every choice leads to it"))
    else:
        lines.append(f"{count} distinct outcomes, depending on the choices marked below")
    for i, (outcome, detail) in enumerate(zip(result.outcomes, details, strict=True), start=1):
        lines.append("")
        if count > 1:
            lines.append(f"outcome {i} of {count}")
        lines += _line(detail.line, names, position)
        lines += _table(outcome, names, position)
        if position.vp_left is not None:
            if detail.chips_out:
                lines.append("  the VP chips run out: the game ends (VP beyond them are counted on paper)")
            else:
                lines.append(f"  VP chips left: {detail.vp_chips_left}")
    if result.best is not None:
        lines.append("")
        lines += _best(result.best, names, position)
    return "\n".join(lines)


def _ships(ships: tuple[ShipRecord, ...], rules: Any) -> str:
    return ", ".join(f"{s.size} {f'{rules.name(s.good)} {s.count}/{s.size}' if s.good else 'empty'}" for s in ships)


def _move(move: AnyMove | None, who: int, position: Position) -> str:
    if move is not None:
        return move.text(position.rules)
    return f"does not use the {position.rules.terms.private_ship}"


def _line(steps: tuple[Step, ...], names: list[str], position: Position) -> list[str]:
    if not steps:
        return ["  nobody can load anything"]
    rows = []
    for n, s in enumerate(steps, start=1):
        how = "forced" if s.forced else f"choice of {s.options}"
        vp = f"+{s.vp} VP" if s.move is not None else ""
        rows.append((f"{n}.", names[s.player], _move(s.move, s.player, position), vp, how))
    return _columns(rows, right=(3,))


def _goods(goods: dict[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in goods.items()) or "-"


def _table(outcome: Outcome, names: list[str], position: Position) -> list[str]:
    rows = [("player", "VP", "shipped", "kept", "lost")]
    for name, p in zip(names, outcome.players, strict=True):
        rows.append((name, str(p.vp), _goods(p.shipped), _goods(p.kept), _goods(p.lost)))
    out = _columns(rows, right=(1,))
    out.append(f"  {position.rules.terms.cargo_ship}s after unloading: {_ships(outcome.ships, position.rules)}")
    return out


def _columns(rows: Sequence[tuple[str, ...]], right: tuple[int, ...] = ()) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(r)).rstrip() for r in rows]


def _best(best: Best, names: list[str], position: Position) -> list[str]:
    who = names[best.player]
    head = f"best for {who}: " + (f"{best.move.text(position.rules)} (+{best.vp} VP now)" if best.move is not None else "nothing to load in this phase")
    lines = [
        head,
        f"  expected, when every player maximises their own VP, then their kept barrels: {who} {best.phase_vp} VP in the phase, "
        f"{best.kept} barrel{'s' if best.kept != 1 else ''} kept",
        "  expected line:",
    ]
    lines += ["  " + row for row in _line(best.line, names, position)]
    return lines
