"""A game's review (`referee review`): every captain phase of a log against the shipping calculator.

For each captain phase the log plays, the review takes the shipping position at the phase's start
(what `referee next` gives as `position` there) and answers it as `referee ship` does: each
player's guaranteed, expected and best VP. Then it walks the phase's moves as the log made them,
through the calculator's own states, and values each decision at the moment it was made: the
expected VP in the phase of the move made, against the best move then open, the rest of the phase
played by the expected play as `referee ship` answers the phase's position (where a player is
indifferent, they are taken to choose what is worst for the captain): the values of `referee
ship`'s choices, had the position been asked for at that moment. A keep is valued in
barrels: the most the rules let the player keep, against what they kept.

It is the calculator's search itself, not a second one: one search of the phase from its start,
every decision read from its memo. The
search keeps every player in its states who can still load on a cargo ship (its `independent`
reduction off), so that each move of the log is one of its moves; a player who can no longer load
on one is left with their wharf and small wharf, their *tail*, valued on its own (`tails`).
A guest-house colonist moved during a captain phase changes its powers: the phase's later
decisions are then not valued (the review says so).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from referee.diagnostics import InputError, RuleViolation, in_order
from referee.documents.log import read_log
from referee.documents.log_records import GameRecord, MoveRecord, PhaseRecord
from referee.documents.write_position import game_position
from referee.engine.captain_rules import preferred_keep
from referee.engine.game import Game
from referee.engine.phases import PHASES
from referee.engine.phases.captain import PASS, Captain, load_move, written_keep
from referee.jobs.check import LogReport, check_record
from referee.jobs.replays import Watch
from referee.jobs.shipping.compact import DECIDER
from referee.jobs.shipping.phase import CaptainPhase, Reductions, State, Tail, TailKey
from referee.jobs.shipping.values import BEST, EXPECTED, GUARANTEED, Valuation, quiet_search
from referee.moves.clauses import AnyMove, Load, Pass, SmallWharfLoad, WharfLoad
from referee.rulesets.rules import Rules

# The search with every player who can load on a cargo ship kept in its states, so that each move
# a log makes is one of its moves; its other reductions only share memo keys (exact, and faster).
REVIEWING = Reductions(independent=False)


@dataclass(frozen=True, slots=True)
class Figures:
    """A player's VP in one captain phase: what it gave them (`played`), and what `referee ship`
    answers for the phase's start: guaranteed, expected, best."""

    played: int
    guaranteed: int
    expected: int
    best: int


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a captain phase, valued when it was made: the VP in the phase the move
    made can be expected to give the player (`expected`; `guaranteed`: whatever the others do),
    the best move open then and its expected VP, and the difference (`lost`). A keep: the
    barrels the rules let the player keep (`best_kept`) against those kept (`barrels_lost`)."""

    line: int
    player: str
    kind: str  # "load", "wharf", "small wharf", "pass" or "keep"
    move: str  # the move made, in full (`2 corn on 5`), as the log may write it
    expected: int
    guaranteed: int
    best_move: str  # the move made where it loses nothing, else the best one open
    best: int
    lost: int
    choices: int  # the moves open (a pass: the player's own moves, and letting the turn go)
    kept: int = 0  # a keep: barrels kept
    best_kept: int = 0
    barrels_lost: int = 0


@dataclass(frozen=True, slots=True)
class PhaseReview:
    """One captain phase: where it is in the log, each player's figures, its decisions in order."""

    round: int
    line: int
    captain: str
    complete: bool  # played to its end in the log (not a phase still under way)
    players: dict[str, Figures]  # in seat order
    decisions: tuple[Decision, ...]
    note: str | None = None  # why some of its decisions are not valued


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player over the game's captain phases: VP and barrels lost, and their costliest decision."""

    lost: int
    barrels_lost: int
    decisions: int
    worst: Decision | None  # the decision that lost the most VP (None: none lost any)
    worst_round: int | None


@dataclass(frozen=True, slots=True)
class Review:
    """A log's review: the verdict on the log (as `referee validate` gives it) and its captain
    phases, as far as the log is valid."""

    file: str
    report: LogReport
    phases: tuple[PhaseReview, ...]
    players: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return self.report.valid

    @property
    def exit_code(self) -> int:
        return self.report.exit_code

    def summary(self) -> dict[str, PlayerSummary]:
        """Each player's VP and barrels lost over the phases, and their costliest decision
        (the first of the costliest: the earliest in the log)."""
        out: dict[str, PlayerSummary] = {}
        for name in self.players:
            lost = barrels = count = 0
            worst: tuple[Decision, int] | None = None
            for phase in self.phases:
                for decision in phase.decisions:
                    if decision.player != name:
                        continue
                    count += 1
                    lost += decision.lost
                    barrels += decision.barrels_lost
                    if decision.lost and (worst is None or decision.lost > worst[0].lost):
                        worst = (decision, phase.round)
            out[name] = PlayerSummary(lost, barrels, count, worst[0] if worst else None, worst[1] if worst else None)
        return out


def review_log(data: bytes | str, file: str, ruleset: str | None = None, base_dir: Path | None = None) -> Review:
    """Read a log, check it, and review its captain phases (those before its first error)."""
    try:
        record = read_log(data, file, ruleset, base_dir)
    except InputError as exc:
        return Review(file, LogReport(file, errors=in_order(exc.diagnostics)), (), ())
    return review_record(record, file)


def review_record(record: GameRecord, file: str) -> Review:
    """Review the captain phases of a log that was read, in the one replay that checks it."""
    reviewer = _Reviewer(file)
    with quiet_search():
        report, run = check_record(record, file, watch=reviewer)
    phases = reviewer.phases
    if phases and run.game is not None and isinstance(run.game.phase, Captain) and record.phases and reviewer.last is record.phases[-1]:
        phases[-1] = replace(phases[-1], complete=False)  # the log stops inside it
    return Review(file, report, tuple(phases), tuple(record.players))


class _Reviewer(Watch):
    """What the review takes from the replay: at each captain phase's start, the position and the
    game, whose copy it plays the phase's moves on, valuing each; once its moves are made, the
    keeps."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.phases: list[PhaseReview] = []
        self.last: PhaseRecord | None = None
        self._open: _PhaseWalk | None = None

    def phase_starting(self, game: Game, entry: PhaseRecord) -> None:
        self._open = None
        if PHASES.get(entry.role) is Captain:
            self._open = _PhaseWalk(game, entry, self.file)
            self.last = entry
            self.phases.append(self._open.review())

    def moves_made(self, game: Game, entry: PhaseRecord) -> None:
        walk = self._open
        if walk is None or walk.entry is not entry:
            return
        walk.keeps(game)
        self.phases[-1] = walk.review()


class _PhaseWalk:
    """One captain phase walked move by move: the game before each move (a copy), and the
    calculator's state there (see the module)."""

    def __init__(self, game: Game, entry: PhaseRecord, file: str) -> None:
        self.entry = entry
        self.rules: Rules = game.rules
        self.names = [board.name for board in game.boards]
        self.n = n = game.n
        self.captain = entry.chooser
        self.round = game.round
        self.vp_before = [board.vp for board in game.boards]
        self.decisions: list[Decision] = []
        self.note: str | None = None
        position = game_position(game, entry.chooser, file)
        self.phase = CaptainPhase(position, REVIEWING)
        self.valuation = Valuation(self.phase, 0)  # ties broken against the captain, as `referee ship` breaks them
        top = self.valuation.root_values()
        self.start = [Figures(0, top[GUARANTEED * n + p], top[EXPECTED * n + p], top[BEST * n + p]) for p in range(n)]
        self.state: State = self.phase.root
        self.tails: dict[int, TailKey] = {p: self.phase.tail_keys[number] for p, number in self.phase.root_drops}
        self.game = game.clone()  # the phase's moves valued so far made (its start's powers paid: union halls)
        self.game.choose_role(entry.chooser, entry.role, entry.doubloons)
        for move in entry.moves:
            if not self._move(move):
                break
        self.played = self._gained(self.game)

    def _gained(self, game: Game) -> list[int]:
        """Each player's VP in the phase so far in `game` (the position's players, from the captain)."""
        return [game.boards[self.seat(p)].vp - self.vp_before[self.seat(p)] for p in range(self.n)]

    def seat(self, p: int) -> int:
        """The game's seat of the position's player `p` (the position starts at the captain)."""
        return (self.captain + p) % self.n

    def review(self) -> PhaseReview:
        players = {self.names[self.seat(p)]: Figures(self.played[p], f.guaranteed, f.expected, f.best) for p, f in enumerate(self.start)}
        ordered = {name: players[name] for name in self.names}
        return PhaseReview(self.round, self.entry.location.line, self.names[self.captain], True, ordered, tuple(self.decisions), self.note)

    def _move(self, record: MoveRecord) -> bool:
        """Value one move of the log and make it (False: the phase is not walked further)."""
        move, seat = record.move, record.player
        captain = self.game.phase
        assert isinstance(captain, Captain)
        if record.guests or not isinstance(move, (Load, WharfLoad, SmallWharfLoad, Pass)):
            self.note = f"a guest-house colonist moved at line {record.line}: the phase's powers changed there, and its later decisions are not valued"
            return False
        try:
            loading = captain.check_play(seat, move)
        except RuleViolation:  # an illegal move: the replay reports it; the walk stops before it
            return False
        made: AnyMove = load_move(move.good, loading[1], loading[0].size) if isinstance(move, Load) and loading is not None else move
        p = (seat - self.captain) % self.n
        so_far = self._gained(self.game)[p]
        if isinstance(made, Pass):
            self._pass(record, p, so_far)
        elif p == self.state[DECIDER]:
            self._decide(record, p, made, so_far)
        elif p in self.tails:
            self._own(record, p, made, so_far)
        else:  # pragma: no cover (the engine accepted a move the search does not have)
            self.note = f"the move at line {record.line} is not one the calculator lists: the phase's later decisions are not valued"
            return False
        captain.play(seat, move)
        return True

    def _decide(self, record: MoveRecord, p: int, made: AnyMove, so_far: int) -> None:
        """A move of the player the calculator's state waits for (a load, or a wharf instead)."""
        n = self.n
        steps, values, chosen = self.valuation.choose(self.state)
        index = next((i for i, step in enumerate(steps) if _same(self.phase.move(step.move), made)), None)
        assert index is not None, "every legal move of the player to load is one of the search's"
        made = self.phase.move(steps[index].move)  # as `referee ship` writes it (a small wharf's kinds in the ruleset's order)
        expected = so_far + values[index][EXPECTED * n + p]
        best = so_far + values[chosen][EXPECTED * n + p]
        best_move = made if expected == best else self.phase.move(steps[chosen].move)
        self._decided(record, p, made, expected, so_far + values[index][GUARANTEED * n + p], best_move, best, len(steps))
        step = steps[index]
        self.tails.update((q, self.phase.tail_keys[number]) for q, number in step.drops)
        self.state = step.child

    def _own(self, record: MoveRecord, p: int, made: AnyMove, so_far: int) -> None:
        """A wharf or small wharf of a player who can no longer load on a cargo ship: their
        tail, which nobody else's move changes (its expected end: the most VP they can reach)."""
        key = self.tails[p]
        tail = self.phase.tail(key)
        options = self.phase.tail_options(key)
        listed, after = next((move, rest) for move, rest in options if move is not None and _same(self.phase.move(move), made))
        assert listed is not None and after.first is not None
        made = self.phase.move(listed)
        expected, best = so_far + after.vp, so_far + tail.vp
        best_move = made if expected == best else self._first(tail)
        self._decided(record, p, made, expected, so_far + after.guaranteed, best_move, best, len(options))
        self.tails[p] = after.first[1]  # the tail after the move

    def _pass(self, record: MoveRecord, p: int, so_far: int) -> None:
        """A turn let go by a player with a wharf or small wharf they could use: nothing lost
        while someone can still load on a cargo ship (the turn comes back to them); with nobody
        able to, the loading is over for them, and what their own moves would still give is lost."""
        key = self.tails.get(p)
        if key is None:  # pragma: no cover (a pass is only for a player who cannot load on a cargo ship)
            return
        choices = len(self.phase.tail_options(key))
        tail = self.phase.tail(key)
        if self.state[DECIDER] >= 0:
            self._decided(record, p, PASS, so_far + tail.vp, so_far + tail.guaranteed, PASS, so_far + tail.vp, choices)
            return
        best = so_far + tail.vp
        self._decided(record, p, PASS, so_far, so_far, PASS if best == so_far else self._first(tail), best, choices)
        del self.tails[p]

    def _first(self, tail: Tail) -> AnyMove:
        """The first move of a tail's expected end (a pass: it stops at once)."""
        return PASS if tail.first is None else self.phase.move(tail.first[0])

    def _decided(self, record: MoveRecord, p: int, made: AnyMove, expected: int, guaranteed: int, best_move: AnyMove, best: int, choices: int) -> None:
        rules = self.rules
        self.decisions.append(
            Decision(
                record.line,
                self.names[self.seat(p)],
                _kind(made),
                made.text(rules),
                expected,
                guaranteed,
                best_move.text(rules),
                best,
                best - expected,
                choices,
            )
        )

    def keeps(self, game: Game) -> None:
        """The phase's moves are made: the VP it gave, and each keep the log writes, against the
        most barrels the rules let the player keep."""
        self.played = self._gained(game)
        keep = self.entry.keep or {}
        if not keep:
            return
        finished = game.clone()
        try:
            finished.finish_phase(self.entry.reveal, self.entry.keep)
        except RuleViolation:  # a keep the rules refuse (or one left out): the replay reports it
            return
        rules = self.rules
        captain = game.phase
        assert isinstance(captain, Captain)
        for seat, spec in sorted(keep.items(), key=lambda item: self.entry.keep_locations[item[0]].line):
            board = game.boards[seat]
            powers = captain.shippers[seat]  # storage as the phase stores (`Captain.store`)
            most = preferred_keep(dict(board.goods), powers.store_kinds, powers.store_barrels, rules)
            kept = sum(finished.boards[seat].goods.values())
            best_kept = sum(most.values())
            vp = self.played[(seat - self.captain) % self.n]
            best_text = written_keep(board.goods, most, powers.store_kinds, powers.store_barrels).text(rules)
            written = spec.text(rules)
            self.decisions.append(
                Decision(
                    self.entry.keep_locations[seat].line,
                    self.names[seat],
                    "keep",
                    f"keep {written}",
                    vp,
                    vp,
                    f"keep {written}" if kept >= best_kept else f"keep {best_text}",
                    vp,
                    0,
                    1,
                    kept,
                    best_kept,
                    max(0, best_kept - kept),
                )
            )


def _kind(move: AnyMove) -> str:
    if isinstance(move, Load):
        return "load"
    if isinstance(move, WharfLoad):
        return "wharf"
    if isinstance(move, SmallWharfLoad):
        return "small wharf"
    return "pass"


def _same(listed: AnyMove, made: AnyMove) -> bool:
    """Are two captain-phase moves the same (a small wharf's barrels in any order)?"""
    if isinstance(listed, SmallWharfLoad) and isinstance(made, SmallWharfLoad):
        return {g: n for g, n in listed.goods if n} == {g: n for g, n in made.goods if n}
    return listed == made
