"""`referee next`: the decision a game in progress waits for, with every legal move
(docs/formats/commands.md#the-next-decision), and the boards as they stand, for a page or a program that
follows a game as it is played.

The log is checked as `referee validate` checks it (one replay, the same verdict); a valid game
in progress is then played up to its last line, the last phase left open, and the engine is
asked who decides what there:

- `move`: the player whose turn it is in the phase under way, with the moves the engine lists
  for them: in a phase of turns every player in turn, also one who can only pass or whose
  arrangement is forced (a log may write such moves or leave them out); in a captain phase the
  first player clockwise who may load, on a cargo ship or their wharf (players who cannot load
  are skipped, as the rules skip them).
- `keep`: once nobody can load in a captain phase, the first player from the captain who holds
  barrels and whose `keep` entry is not written yet, with every storage the rules accept (the
  most barrels first, down to `none`: keeping fewer is legal; a log may leave out an entry whose
  most is one way only).
- `draw`: what only the table knows: the settler phase's new face-up row (`reveal`).
- `role`: the phase is over (or none has begun): the next player chooses a role.

A complete game waits for nothing (`decision` null, its scores given); a broken or unreadable
log is answered as `validate` answers it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from referee.diagnostics import InputError, Missing, RuleViolation, in_order
from referee.documents.log import read_log
from referee.documents.log_records import GameRecord, PhaseRecord
from referee.documents.write import canonical_log, log_document, move_text, place_text
from referee.documents.write_board import board_state
from referee.documents.write_position import captain_position
from referee.engine.awaiting import ArrangementAwaited, DrawAwaited, KeepAwaited, MoveAwaited, PhaseOver, RoleAwaited
from referee.engine.game import Game
from referee.engine.phases import PHASES
from referee.engine.phases.captain import Captain
from referee.engine.state import Board
from referee.ground.wording import count
from referee.jobs.check import LogReport, check_record
from referee.jobs.replays import Watch, replay
from referee.jobs.scoring import score
from referee.moves.clauses import AnyMove, Arrange, MoveError, Pass, place

Listed = TypeVar("Listed")


@dataclass(frozen=True, slots=True)
class Decision:
    """What the game waits for: who decides, in which phase, what kind of decision, the moves
    open (in log notation; None for a draw), and for a draw what is to be written."""

    player: str | None
    phase: str | None  # the role of the phase under way, as its key is written; None at a role choice
    kind: str  # "role", "move", "keep" or "draw"
    moves: list[str] | None
    draw: dict[str, Any] | None = None
    default: str | None = None  # a mayor's arrangement a page may start its editor from
    colonists: int | None = None  # a mayor's colonists to arrange
    declinable: int | None = None  # of those, the privilege's, which the mayor may decline (0 for the others)
    total: int | None = None  # the number of legal moves, where `moves` lists only the first (a limit was asked)
    guests: dict[str, Any] | None = None  # a guest house's colonists and where one may go first: {"colonists", "places"}


@dataclass(slots=True)
class NextReport:
    """The verdict on a log (as `validate` gives it), the decision it waits for, and the boards."""

    report: LogReport
    decision: Decision | None = None
    state: dict[str, Any] | None = None  # the boards as the decision finds them (`board_state`)
    history: list[dict[str, Any]] = field(default_factory=list)
    log: dict[str, Any] | None = None  # the log read, in the JSON form of a game log (it can be sent back with a move added)
    canonical: str | None = None  # the log read, as canonical YAML text
    position: str | None = None  # the shipping position of the captain phase under way (at its start) or on offer
    complete_if_passes: bool = False  # `validate` reads the log as a complete game: the players it leaves out passed

    @property
    def exit_code(self) -> int:
        return self.report.exit_code


def next_decision(
    data: bytes | str, file: str, ruleset: str | None = None, base_dir: Path | None = None, limit: int | None = None, guests: list[str] | None = None
) -> NextReport:
    """Read and check one log; for a valid game, the decision it waits for and its boards.
    `limit`: list at most that many moves (a mayor's arrangements may number a hundred
    thousand; the decision then says `truncated` and their `count`). `guests`: places (as the
    log writes them) the decider's guest-house colonists go to first; the moves listed are then
    those open after them, each written with its `guest PLACE` clauses (a place no guest may go
    to is an error of the report, rule `guest.*`)."""
    try:
        record = read_log(data, file, ruleset, base_dir)
    except InputError as exc:
        return NextReport(LogReport(file, errors=in_order(exc.diagnostics)))
    watch = _Open(record)
    report, run = check_record(record, file, watch=watch)
    if report.errors or run.game is None:
        return NextReport(report)
    # read as a game still being played: the last phase left open, also where the log is complete
    # as a recorded game (its end has come and the players it leaves out passed): they still decide
    game, history, position = watch.game if watch.game is not None else run.game, watch.history, watch.position
    round_number = game.round
    try:
        decision = decide(game, record.phases[-1] if record.phases else None, limit, guests)
    except RuleViolation as exc:  # a guest sent where none may go
        return NextReport(replace(report, errors=[exc.diagnostic(None)]))
    if game.round != round_number or game.over:  # the open phase, finished by `decide`, ended the round or the game
        history.append(_standing(game, round_number))
    complete_if_passes = decision is not None and run.complete
    if complete_if_passes:
        report = _still_played(report, game, run.game.end_text())
    if decision is not None and decision.kind == "role":  # what the captain's phase would be, were it chosen now
        position = captain_position(game, game.chooser) if Captain.role in game.available_roles() else None
    elif game.phase is None:  # the captain's phase, when the log's last phase is one, is still under way only while it is open
        position = None
    return NextReport(report, decision, board_state(game), history, log_document(record), canonical_log(record), position, complete_if_passes)


def _still_played(recorded: LogReport, game: Game, ended: str) -> LogReport:
    """The verdict on a log that `validate` reads as a complete game (its end has come, and the
    players it leaves out of the last phase passed), read as a game still being played: in
    progress, its last phase's decision awaited; `ended`, why the game ends if they all pass."""
    assert game.phase is not None
    waiting = f"{game.phase.waiting()} (or, if the moves left out are passes: the game is over after {ended})"
    return replace(recorded, complete=False, scores=None, end=None, waiting=waiting)


def open_game(record: GameRecord) -> Game:
    """The game of a valid log played to its last line, its last phase still open."""
    watch = _Open(record)
    run = replay(record, watch)
    assert run.game is not None and run.error is None, "a valid log"
    return watch.game if watch.game is not None else run.game


class _Open(Watch):
    """What `next` takes from the replay that checks the log (one replay, not two): each
    player's standing at the start and at the end of every round, the shipping position of
    the last phase if it is a captain's, at its start, and the game with that phase still open
    (not finished, so that its moves can be asked for: `decide` finishes it where nobody has a
    decision left in it). A log of no phases leaves `game` None: the replay's game is it."""

    def __init__(self, record: GameRecord) -> None:
        self.last = record.phases[-1] if record.phases else None
        self.history: list[dict[str, Any]] = []
        self.position: str | None = None
        self.game: Game | None = None

    def started(self, game: Game) -> None:
        self.history.append(_standing(game, 0))

    def round_ended(self, game: Game, number: int) -> None:
        self.history.append(_standing(game, number))

    def phase_starting(self, game: Game, entry: PhaseRecord) -> None:
        if entry is self.last and PHASES.get(entry.role) is Captain:
            self.position = captain_position(game, entry.chooser)

    def moves_made(self, game: Game, entry: PhaseRecord) -> None:
        if entry is self.last:
            self.game = game.clone()


def _standing(game: Game, round_number: int) -> dict[str, Any]:
    """Each player's VP and doubloons at a round's end: their chips (`vp`), and the score were
    the game to end there (buildings, bonus, total), as `score` counts it."""
    scores = {s.player: s for s in score(game.boards, game.rules)}
    return {
        "round": round_number,
        "players": {
            b.name: {"vp": b.vp, "doubloons": b.doubloons, "buildings": scores[b.name].buildings, "bonus": scores[b.name].bonus, "total": scores[b.name].total} for b in game.boards
        },
    }


def decide(game: Game, last: PhaseRecord | None, limit: int | None = None, guests: list[str] | None = None) -> Decision | None:
    """The decision of a game in progress whose last phase, `last`, is open in `game` (its
    moves made, not finished), as the engine answers it (`Game.awaiting`); None when the game
    is over. `limit`: list at most that many moves (the decision then says how many there are).
    `guests`: the places (as written) the decider's guests go to first (RuleViolation where one
    may not)."""
    reveal, keep = (last.reveal, last.keep) if last is not None else (None, None)
    awaited = game.awaiting(reveal, keep)
    if guests and isinstance(awaited, KeepAwaited | DrawAwaited | PhaseOver):
        raise RuleViolation("guest.no-move", "no move is awaited now, so no guest moves before one")
    if isinstance(awaited, PhaseOver):  # nobody has a decision left in the phase: it ends
        try:
            game.finish_phase(reveal, keep)
        except Missing as exc:  # a decision the log must write that the engine does not await: a bug
            raise AssertionError(f"the phase waits for a decision that Game.awaiting does not know: {exc.rule}") from exc
        awaited = game.awaiting()
    if awaited is None:
        return None
    role = game.name_of(game.phase.role) if game.phase is not None else None
    if isinstance(awaited, RoleAwaited):
        return Decision(game.who(awaited.player), None, "role", [game.name_of(r) for r in awaited.role_ids])
    if isinstance(awaited, KeepAwaited):
        texts, total = _first([keep.text(game.rules) for keep in awaited.keeps()], limit)
        return Decision(game.who(awaited.player), role, "keep", texts, total=total)
    if isinstance(awaited, DrawAwaited):
        return Decision(game.who(awaited.player), role, "draw", None, {"key": "reveal", "tiles": awaited.tiles})
    assert isinstance(awaited, MoveAwaited) and role is not None
    p = awaited.player
    if isinstance(awaited, ArrangementAwaited):
        return _arrangement(game, awaited, role, limit)
    if guests:
        return _after_guests(game, last, p, role, guests, limit)
    moves, total = _listed(awaited, limit)
    return Decision(game.who(p), role, "move", _texts(game, moves), total=total, guests=_guests(game, p))


def _guests(game: Game, p: int) -> dict[str, Any] | None:
    """The player's guest-house colonists and the places one may go before the move (`guest
    PLACE, ` written first: docs/formats/game-log.md); None without a guest or a place."""
    colonists = game.guests(p)
    places = game.guest_places(p) if colonists else []
    if not places:
        return None
    return {"colonists": colonists, "places": [place_text(game.rules, place) for place in places]}


def _after_guests(game: Game, last: PhaseRecord | None, p: int, role: str, written: list[str], limit: int | None) -> Decision:
    """Player `p`'s decision once their guests have gone to the places `written`: the moves then
    open (a guest on a quarry makes a building cheaper), each after the guests' clauses."""
    colonists = game.guests(p)
    if colonists and len(written) > colonists:
        raise RuleViolation("guest.count", f"{game.who(p)} has {count(colonists, game.rules.terms.colonist)} to move, not {len(written)}")
    try:
        places = tuple(place(game.rules, text) for text in written)
    except MoveError as exc:
        raise RuleViolation("guest.place", str(exc)) from None
    trial = game.clone()
    for where in places:
        trial.move_guest(p, where)  # the engine's refusal where a guest may not go (none in the house: guest.empty)
    offered = _guests(game, p)
    assert offered is not None and trial.phase is not None
    trial.phase.buildings_changed(p)
    awaited = trial.awaiting(last.reveal, last.keep) if last is not None else None
    moves, total = _listed(awaited, limit) if isinstance(awaited, MoveAwaited) and awaited.player == p else ([Pass()], None)
    texts = [move_text(game.rules, move, places) for move in moves]
    return Decision(game.who(p), role, "move", texts, total=total, guests={**offered, "chosen": [place_text(game.rules, where) for where in places]})


def _listed(awaited: MoveAwaited, limit: int | None) -> tuple[list[AnyMove], int | None]:
    """The legal moves of the player whose turn it is (at most `limit`), and, when that cuts
    the list, how many there are (a mayor's, counted without listing them all)."""
    if limit is None:
        return list(awaited.moves()), None
    moves = list(islice(awaited.moves(), limit + 1))
    if len(moves) <= limit:
        return moves, None
    return moves[:limit], awaited.count()


def _first(items: list[Listed], limit: int | None) -> tuple[list[Listed], int | None]:
    """The first `limit` items, and how many there are when that cuts the list (else None)."""
    if limit is None or len(items) <= limit:
        return items, None
    return items[:limit], len(items)


def _texts(game: Game, moves: list[AnyMove]) -> list[str]:
    """Each move in log notation, once (two moves may be written alike)."""
    return list(dict.fromkeys(move.text(game.rules) for move in moves))


def _arrangement(game: Game, awaited: ArrangementAwaited, role: str, limit: int | None) -> Decision:
    """A mayor's arrangement: every legal one (or the first `limit`, and their number), and a
    default for a page's editor."""
    p = awaited.player
    moves, total = _listed(awaited, limit)
    default: AnyMove = _default_arrangement(game, game.boards[p])
    if not game.accepts(p, default):
        default = moves[0]
    return Decision(game.who(p), role, "move", _texts(game, moves), default=default.text(game.rules), colonists=awaited.colonists, declinable=awaited.declinable, total=total)


def _default_arrangement(game: Game, board: Board) -> Arrange:
    """The colonists already placed stay; those in San Juan fill the empty circles, the city's
    first (in the order built), then the island's; what is left stays in San Juan."""
    rules = game.rules
    free = board.san_juan
    buildings = dict(board.buildings)
    for building, colonists in buildings.items():
        room = min(free, rules.circles[building] - colonists)
        buildings[building] = colonists + room
        free -= room
    tiles = {tile: board.manned.get(tile, 0) for tile, owned in board.island.items() if owned and rules.has_circle(tile)}
    for tile, occupied in tiles.items():
        room = min(free, board.island[tile] - occupied)
        tiles[tile] = occupied + room
        free -= room
    return Arrange(tiles={t: n for t, n in tiles.items() if n}, buildings={b: n for b, n in buildings.items() if n}, san_juan=free)
