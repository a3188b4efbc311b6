"""Replaying a game log through the engine, stopping at the first illegal move.

Each diagnostic points at the move (or phase, or `keep` entry) that broke a rule. A decision
the log leaves out where the rules give a choice is an error at the first line of the phase
that follows; when the log stops there instead, the game is in progress, and `waiting` says
whose decision it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.diagnostics import Diagnostic, Missing, RuleViolation
from referee.engine.game import Game
from referee.engine.text import listing
from referee.records.log import GameRecord, PhaseRecord


@dataclass(slots=True)
class Replay:
    """What replaying a log gave: the final state, the first error, whether the game is over."""

    record: GameRecord
    game: Game | None
    error: Diagnostic | None
    complete: bool
    waiting: str | None
    moves: int  # moves and role choices applied


def replay(record: GameRecord) -> Replay:
    """Play every phase of `record`; stop at the first rule broken."""
    try:
        game = Game(record.rules, record.players, record.plantations, record.buildings)
    except RuleViolation as exc:
        where = record.buildings_location if exc.rule == "setup.buildings" and record.buildings_location else record.setup_location
        return Replay(record, None, exc.diagnostic(where), False, None, 0)
    applied = 0
    pending: Missing | None = None
    pending_phase: PhaseRecord | None = None
    for entry in record.phases:
        if pending is not None:
            where = pending_phase.location if pending.at_phase and pending_phase else entry.location
            return Replay(record, game, pending.diagnostic(where), False, None, applied)
        try:
            game.choose_role(entry.chooser, entry.role, entry.doubloons)
        except RuleViolation as exc:
            where = entry.doubloons_location if exc.rule == "role.doubloons" and entry.doubloons_location else entry.location
            return Replay(record, game, exc.diagnostic(where), False, None, applied)
        applied += 1
        for move in entry.moves:
            try:
                game.play(move.player, move.move, move.guests)
            except RuleViolation as exc:
                return Replay(record, game, exc.diagnostic(move.location), False, None, applied)
            applied += 1
        try:
            game.finish_phase(reveal=entry.reveal, keep=entry.keep)
        except Missing as exc:
            pending, pending_phase = exc, entry
        except RuleViolation as exc:
            where = entry.location
            player = getattr(exc, "player", None)
            if player is not None and player in entry.keep_locations:
                where = entry.keep_locations[player]
            elif exc.rule == "settler.reveal" and entry.reveal_location is not None:
                where = entry.reveal_location
            return Replay(record, game, exc.diagnostic(where), False, None, applied)
    if pending is not None:
        return Replay(record, game, None, False, pending.message, applied)
    if game.over:
        return Replay(record, game, None, True, None, applied)
    return Replay(record, game, None, False, next_decision(game), applied)


def next_decision(game: Game) -> str:
    """Whose turn it is and what they may do, for a game in progress."""
    if game.phase is not None:
        return game.phase.waiting()
    roles = listing([game.nm(r) for r in game.available_roles()], "or")
    return f"round {game.round}, {game.rules.terms.governor} {game.who(game.governor)}: {game.who(game.chooser)} chooses a role ({roles})"
