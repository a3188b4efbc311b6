"""Replaying a game log through the engine, stopping at the first illegal move.

Each diagnostic points at the move (or phase, or `keep` entry) that broke a rule. A decision
the log leaves out where the rules give a choice is an error at the first line of the phase
that follows; when the log stops there instead, the game is in progress, and `waiting` says
whose decision it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from referee.diagnostics import Diagnostic, Missing, RuleViolation
from referee.documents.log_records import GameRecord, MoveRecord, PhaseRecord
from referee.engine import legal
from referee.engine.game import Game
from referee.ground.wording import listing


@dataclass(slots=True)
class Replay:
    """What replaying a log gave: the final state, the first error, whether the game is over."""

    record: GameRecord
    game: Game | None
    error: Diagnostic | None
    complete: bool
    waiting: str | None
    moves: int  # moves and role choices applied


class Watch:
    """What a replay shows the job that asked for it as it goes (`referee next`: the standings at
    each round's end, the last phase's start, and the game with that phase still open;
    `referee review`: each captain phase's start and moves), so that one replay serves both the
    verdict and the job. Each does nothing here."""

    def started(self, game: Game) -> None:
        """The game is set up: no role chosen yet."""

    def round_ended(self, game: Game, number: int) -> None:
        """Round `number` has just ended (or the game, in 1897, with a phase): not the last phase's."""

    def phase_starting(self, game: Game, entry: PhaseRecord) -> None:
        """A phase is about to be played: its role not yet chosen."""

    def moves_made(self, game: Game, entry: PhaseRecord) -> None:
        """A phase's moves are made, every one legal; it is finished next (which may change `game`)."""


def replay(record: GameRecord, watch: Watch | None = None) -> Replay:
    """Play every phase of `record`; stop at the first rule broken. `watch`: told of the
    rounds and the last phase as the replay reaches them."""
    try:
        game = Game(record.rules, record.players, record.plantations, record.buildings)
    except RuleViolation as exc:
        where = record.setup_location
        if exc.rule == "setup.buildings":  # at the building that breaks the selection, else at the list
            where = record.building_locations[exc.item] if exc.item is not None else record.buildings_location or where
        return Replay(record, None, exc.diagnostic(where), False, None, 0)
    if watch is not None:
        watch.started(game)
    applied = 0
    pending: Missing | None = None
    pending_phase: PhaseRecord | None = None
    during: str | None = None  # a log that stops inside its last phase: the decision there
    last = record.phases[-1] if record.phases else None
    choose_role, play, finish_phase = game.choose_role, game.play, game.finish_phase  # looked up once: called at every line
    for entry in record.phases:
        if pending is not None:
            where = pending_phase.location if pending.at_phase and pending_phase else entry.location
            if pending_phase is not None and not pending.at_phase:
                pending = pending.of_phase_at(pending_phase.location.line)
            return Replay(record, game, pending.diagnostic(where), False, None, applied)
        if watch is not None:
            watch.phase_starting(game, entry)
        try:
            choose_role(entry.chooser, entry.role, entry.doubloons)
        except RuleViolation as exc:
            where = entry.doubloons_location if exc.rule == "role.doubloons" and entry.doubloons_location else entry.location
            return Replay(record, game, exc.diagnostic(where), False, None, applied)  # the sentence names the roles open
        applied += 1
        phase = game.phase  # the phase's own `play` for a move without guests: the game's checks nothing more (a phase is under way)
        assert phase is not None
        phase_play = phase.play
        for move in entry.moves:
            try:
                if move.guests:
                    play(move.player, move.move, move.guests)
                else:
                    phase_play(move.player, move.move)
            except RuleViolation as exc:
                early = _written_early(exc, game, entry, move)
                return Replay(record, game, (early or _legal_here(exc, game, move.player)).diagnostic(move.location), False, None, applied)
            applied += 1
        if entry is last and entry.reveal is None and not entry.keep:
            # a phase closed in the log (its `reveal` or `keep` written) is over: the players
            # left out passed (issue 28, ruling 3); otherwise the log may stop inside it
            during = legal.still_deciding(game)
        if watch is not None:
            watch.moves_made(game, entry)
            before = game.round
        try:
            finish_phase(entry.reveal, entry.keep)
            if watch is not None and entry is not last and (game.round != before or game.over):
                watch.round_ended(game, before)
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
        return Replay(record, game, None, False, f"{during}; then {pending.message}" if during else pending.message, applied)
    if game.over:  # the players left out of the last phase passed, and the game is over
        return Replay(record, game, None, True, None, applied)
    if during is not None:  # the log may stop inside the phase, or its players left out passed
        return Replay(record, game, None, False, f"{during} (or, if the moves left out are passes: {next_decision(game)})", applied)
    return Replay(record, game, None, False, next_decision(game), applied)


@dataclass(frozen=True, slots=True)
class Step:
    """A point of a replay, with the game as it is there: before a phase's role choice
    (`kind` "role"), before one of its moves ("move", with `move`), or after the phase ("end").
    `game` is one object throughout the replay: copy it (`Game.clone`) to keep a state."""

    kind: str
    game: Game
    phase: PhaseRecord
    move: MoveRecord | None = None


def replay_steps(record: GameRecord) -> Iterator[Step]:
    """Play `record` through the engine one step at a time, for tools and tests that look at the
    game between moves: `for step in replay_steps(record)`. A rule broken raises the engine's
    RuleViolation where it happens (`replay` reports it, with its place in the log)."""
    game = Game(record.rules, record.players, record.plantations, record.buildings)
    for entry in record.phases:
        yield Step("role", game, entry)
        game.choose_role(entry.chooser, entry.role, entry.doubloons)
        for move in entry.moves:
            yield Step("move", game, entry, move)
            game.play(move.player, move.move, move.guests)
        game.finish_phase(reveal=entry.reveal, keep=entry.keep)
        yield Step("end", game, entry)


def _written_early(exc: RuleViolation, game: Game, entry: PhaseRecord, move: MoveRecord) -> RuleViolation | None:
    """The refusal of a move made before the turn of a player who may not pass, when that
    player's move is written later in the phase: the lines are in the wrong order, and the
    sentence says so (rather than what the player must do, on the line of another's move)."""
    q = exc.passed
    if q is None or q == move.player or game.phase is None:
        return None
    later = entry.moves[entry.moves.index(move) + 1 :]
    if not any(other.player == q for other in later):
        return None
    return game.phase.written_early(move.player, q, exc.message)


SHOWN = 6  # legal moves listed in a diagnostic, at most


def _legal_here(exc: RuleViolation, game: Game, player: int) -> RuleViolation:
    """The violation of a refused move, its sentence ending with the moves `player` had
    (shortened). The engine checks before it changes: `game` is as it was before the move."""
    if exc.rule == "game.over" or exc.explained:
        return exc
    who = game.who(player)
    if isinstance(exc, Missing) and exc.passed is not None and exc.passed != player:
        # a decision owed by a player whose turn comes first (a mayor's arrangement): what to write, not the moves of others
        first = game.who(exc.passed)
        return RuleViolation(exc.rule, f"{exc.message} ({first}'s turn comes before {who}'s: write {first}'s move first)", exc.location)
    total = legal.count_moves(game, player)
    texts = [m.text(game.rules) for m in islice(legal.iter_moves(game, player), SHOWN + 1)]
    if not total:
        others = [game.who(q) for q in legal.to_move(game) if q != player]
        tail = f"; next to move: {listing(others, 'or')}" if others else ""
        return RuleViolation(exc.rule, f"{exc.message} ({who} has no legal move here{tail})", exc.location)
    shown = [f"'{t}'" for t in texts[:SHOWN]]
    more = f" and {total - SHOWN} more" if total > SHOWN else ""
    listed = ", ".join(shown) + more if more else listing(shown, "or")
    return RuleViolation(exc.rule, f"{exc.message} (legal here for {who}: {listed})", exc.location)


def next_decision(game: Game) -> str:
    """Whose turn it is and what they may do, for a game in progress."""
    if game.phase is not None:
        return game.phase.waiting()
    roles = listing([game.name_of(r) for r in game.available_roles()], "or")
    return f"round {game.round}, {game.rules.terms.governor} {game.who(game.governor)}: {game.who(game.chooser)} chooses a role ({roles})"
