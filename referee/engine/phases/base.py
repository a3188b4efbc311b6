"""What every phase shares: the chooser, turn order clockwise from the chooser."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from referee.diagnostics import RuleViolation
from referee.engine.awaiting import Awaiting, MoveAwaited, PhaseOver
from referee.moves.clauses import AnyMove, Keep, Pass

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.engine.state import Board


PASS = Pass()  # the pass every phase lists (moves are immutable: one object, shared)


class Phase:
    """A role's phase: started by the chooser, then played move by move, then finished."""

    role = ""

    def __init__(self, game: Game, chooser: int) -> None:
        self.game = game
        self.rules = game.rules
        self.chooser = chooser
        self.doubled = game.libraries and game.privilege_doubled(chooser)  # the chooser's privilege counts twice (a library)
        self.order: tuple[int, ...] = game.orders[chooser]  # clockwise from the chooser

    def clone(self, game: Game) -> Phase:
        """A copy of this phase bound to `game` (a clone of its game)."""
        phase = copy.copy(self)
        phase.game = game
        phase.copy_state()
        return phase

    def copy_state(self) -> None:
        """Replace mutable phase state by copies (phases with sets or dicts override this)."""

    def privilege(self) -> int:
        """The chooser's privilege in this phase, doubled by a library (`doubled`)."""
        return self.rules.role[self.role].privilege * (2 if self.doubled else 1)

    def board(self, p: int) -> Board:
        return self.game.boards[p]

    def who(self, p: int) -> str:
        return self.game.who(p)

    def name_of(self, ident: str) -> str:
        return self.game.name_of(ident)

    @property
    def title(self) -> str:
        """'the builder phase' in this ruleset's words."""
        return f"the {self.name_of(self.role)} phase"

    def start(self) -> None:
        """The chooser's privilege and anything that happens before the first move."""

    def turns(self) -> str:
        """How the turns go, for messages: 'in the builder phase each player moves once,
        clockwise from Anna: Anna, Ben, Cleo'."""
        return f"in {self.title} each player moves once, clockwise from {self.who(self.chooser)}: {', '.join(self.who(q) for q in self.order)}"

    def written_early(self, p: int, q: int, why: str) -> RuleViolation:
        """`p`'s move is written before `q`'s, whose turn comes first and who may not pass
        (`why`, the rule's sentence), as the log shows by `q`'s move later in the phase: the
        order of the lines, not the rules, is wrong."""
        message = (
            f"{self.who(q)}'s move is written after {self.who(p)}'s, but {self.who(q)}'s turn comes first ({self.turns()}), "
            f"and {self.who(q)} may not pass ({why}): write {self.who(q)}'s move before {self.who(p)}'s"
        )
        return RuleViolation("turn.not-your-turn", message, explained=True)

    def buildings_changed(self, p: int) -> None:
        """Player `p`'s occupied buildings changed during the phase (a guest moved)."""

    def lone_guests_allowed(self) -> bool:
        """Is a guest move alone a move of its own here, outside the turn order? (Elsewhere it
        is the player's turn, with nothing else done.)"""
        return False

    def play(self, p: int, move: AnyMove) -> None:
        """One move from the log, checked before anything changes: it is applied whole, or
        RuleViolation is raised and the game is left as it was."""
        raise NotImplementedError

    def check_play(self, p: int, move: AnyMove) -> object:
        """Raise RuleViolation if `play` would refuse `move` by `p` now; change nothing. (What
        it returns, the phase's own `play` may use.)"""
        raise NotImplementedError

    def accepts(self, p: int, move: AnyMove) -> bool:
        """Would `play` accept `move` by `p` now? Asked without changing anything."""
        return succeeds(self.check_play, p, move)

    def play_unchecked(self, p: int, move: AnyMove) -> None:
        """`play` for a move known to be legal (listed by `moves_for`, or `accepts` said so):
        no rule is checked, for speed. Anything else gives an undefined game."""
        self.play(p, move)

    def candidates(self, p: int) -> Iterator[AnyMove]:
        """A cheap superset of the legal moves of `p` now, in log notation order: what could be
        written, before the rules are asked. The engine does not list moves from it (`moves_for`
        generates them); the property tests do, to check that `moves_for` is exactly the
        candidates `accepts` takes, in this order."""
        return iter(())

    def moves_for(self, p: int) -> Iterator[AnyMove]:
        """The legal moves of `p` now (a player whose turn comes later: after the players
        before them pass), one by one, in the order of `candidates`: generated from the
        predicates the phase's check asks, nothing raised."""
        raise NotImplementedError

    def count_moves(self, p: int) -> int:
        """How many legal moves `p` has now (`moves_for`), counted."""
        return sum(1 for _ in self.moves_for(p))

    def awaiting(self, reveal: list[str] | None, keep: Mapping[int, Keep] | None) -> Awaiting:
        """What the phase waits for now (`Game.awaiting`), its closing decisions written so far
        being `reveal` and `keep` (applied when it finishes): by default nobody's decision, the
        phase ends (a prospector's)."""
        return PhaseOver(self)

    def reachable_players(self) -> tuple[int, ...]:
        """The players who may make the move awaited (`MoveAwaited.players`), in turn order: by
        default the chooser's alone (a craftsman's extra barrel)."""
        return (self.chooser,)

    def still_deciding(self) -> str | None:
        """Where a log may stop inside the phase or its players left out passed: the decision
        of the first player still to move who has more than a pass open, in a sentence; None
        when the rest can only pass, or when a player left out is not a pass (here: a pass
        changes nothing of the moves the log wrote)."""
        return None

    def finish(self, reveal: list[str] | None = None, keep: dict[int, Keep] | None = None) -> None:
        """Remaining turns and the phase's closing duties; `Missing` if the log must say more."""

    def waiting(self) -> str:
        """Whose decision the game waits for, in a sentence."""
        return f"{self.title} is under way"


class TurnPhase(Phase):
    """One turn each, clockwise from the chooser; a player left out of `moves` passes."""

    closes = False  # can the phase close before every turn is taken (`closed`)? If not, `closed` is not asked at every move
    # may a player be refused a pass, or does a pass change anything (`may_pass`, `skip`: the
    # mayor's forced arrangement)? If not, a pass, or a player left out, asks and does nothing
    forced = False
    answer: ClassVar[type[MoveAwaited]] = MoveAwaited  # what `awaiting` answers while a turn is open (a mayor's: an arrangement)

    def __init__(self, game: Game, chooser: int) -> None:
        super().__init__(game, chooser)
        self.pos = 0  # index in `order` of the player whose turn it is
        self.passed_by: dict[int, int] = {}  # a player left out, passed by the later player's move (replaced, never changed: clones share it)

    def play(self, p: int, move: AnyMove) -> None:
        # `check_play` then `_take_turn`; the replay's most frequent move (the player whose turn
        # it is, in an open phase) skips the search for the turn and the passes before it
        pos, order = self.pos, self.order
        if pos < len(order) and order[pos] == p and not (self.closes and self.closed()):
            # the usual move: the player whose turn it is, no one passed (`_check_move`, then
            # `_take_turn` for it, written out: the replay's most frequent call)
            if isinstance(move, Pass):
                if self.forced:
                    self.check_pass(p)
                    self.skip(p)
            else:
                self.check(p, move)
                self.apply(p, move)
            self.pos = pos + 1
            return
        index = self._turn(p, move)
        self._check_turn(index, p, move)
        self._take_turn(index, p, move)

    def check_play(self, p: int, move: AnyMove) -> int:
        """Whose turn, the passes before it, then the move; the index of `p`'s turn in `order`."""
        index = self._turn(p, move)
        self._check_turn(index, p, move)
        return index

    def play_unchecked(self, p: int, move: AnyMove) -> None:
        pos, order = self.pos, self.order
        # legal, so the turn's own player's move needs no search for the turn (random play's every move)
        self._take_turn(pos if pos < len(order) and order[pos] == p else self._turn(p, move), p, move)

    def _take_turn(self, index: int, p: int, move: AnyMove) -> None:
        """The players before `order[index]` pass, then `p` makes `move` (checked: nothing raises)."""
        while self.pos < index:
            self.skip(self.order[self.pos])
            self.passed_by = {**self.passed_by, self.order[self.pos]: p}
            self.pos += 1
        if isinstance(move, Pass):
            self.skip(p)
        else:
            self.apply(p, move)
        self.pos += 1

    def moves_for(self, p: int) -> Iterator[AnyMove]:
        if not self.reachable(p):
            return iter(())
        moves = self.turn_moves(p)
        if self.closes and self.closed():  # the rule `_turn` applies: only a pass, or a move still open
            return (move for move in moves if isinstance(move, Pass) or self.open_when_closed(p, move))
        return moves

    def turn_moves(self, p: int) -> Iterator[AnyMove]:
        """The moves `check_pass` and `check` accept from `p` once their turn has come (the phase
        still open), in the order of `candidates`: generated from the predicates the checks
        ask, so that listing a move never builds a refusal."""
        raise NotImplementedError

    def _check_move(self, p: int, move: AnyMove) -> None:
        """The move of `p` once their turn has come: a pass, or the phase's `check`."""
        if isinstance(move, Pass):
            self.check_pass(p)
        else:
            self.check(p, move)

    def _turn(self, p: int, move: AnyMove) -> int:
        """The index in `order` of the turn `p` takes with `move` (the players between pass)."""
        index = self.pos if self.pos < len(self.order) and self.order[self.pos] == p else next((i for i in range(self.pos, len(self.order)) if self.order[i] == p), -1)
        if index < 0 or (self.closed() and not isinstance(move, Pass) and not self.open_when_closed(p, move)):
            raise self._late(p)
        return index

    def _check_turn(self, index: int, p: int, move: AnyMove) -> None:
        """May the players before `order[index]` pass, and `p` then make `move`? A pass changes
        only its player's board (a forced arrangement), so `p`'s move is checked as it stands."""
        self._check_passes(index)
        self._check_move(p, move)

    def _check_passes(self, index: int) -> None:
        """May the players before `order[index]` pass? The refusal names the player (`passed`)."""
        for i in range(self.pos, index):
            try:
                self.check_pass(self.order[i])
            except RuleViolation as exc:
                exc.passed = self.order[i]
                raise

    def reachable(self, p: int) -> bool:
        """Can the turn still come to `p`, everyone before them passing (`may_pass`)?"""
        order, pos = self.order, self.pos
        if pos < len(order) and order[pos] == p:  # the player whose turn it is (most asks)
            return True
        return p in self.reachable_players()

    def awaiting(self, reveal: list[str] | None, keep: Mapping[int, Keep] | None) -> Awaiting:
        """A move, the turn being at `order[pos]`: the players the turn can still reach, in
        turn order (up to the first who may not pass; once the phase has closed, a pass is still
        theirs to write); the phase's end once every turn is taken."""
        # the turn's player is always reached (`reachable_players`' first): the rest are read when asked
        return self.answer(self, self.order[self.pos]) if self.pos < len(self.order) else PhaseOver(self)

    def reachable_players(self) -> tuple[int, ...]:
        """The players the turn can still reach, in turn order: from the turn's player on, up to
        the first who may not pass (`may_pass`), everyone before them passing."""
        order = self.order
        if not self.forced:  # nobody is refused a pass: every player still to move
            return tuple(dict.fromkeys(order[self.pos :]))
        reached: list[int] = []
        for i in range(self.pos, len(order)):
            p = order[i]
            if p not in reached:
                reached.append(p)
            if not self.may_pass(p):
                break
        return tuple(reached)

    def still_deciding(self) -> str | None:
        for index in range(self.pos, len(self.order)):
            if any(not isinstance(move, Pass) for move in self.moves_for(self.order[index])):
                trial = self.game.clone().phase
                assert isinstance(trial, TurnPhase)
                trial.pass_until(index)
                return trial.waiting()
        return None

    def pass_until(self, index: int) -> None:
        """The players before `order[index]` pass (as when they are left out of the moves);
        RuleViolation if one of them may not (and then nothing changes)."""
        self._check_passes(index)
        while self.pos < index:
            self.skip(self.order[self.pos])
            self.pos += 1

    def _late(self, p: int) -> RuleViolation:
        if self.closed():
            return RuleViolation("turn.not-your-turn", f"{self.who(p)} cannot move: {self.closed_reason()}")
        by = self.passed_by.get(p)
        if by is not None:  # written after a later player: the order of the lines, not the rules, is wrong
            message = (
                f"{self.who(p)}'s move is written after {self.who(by)}'s, but {self.who(p)}'s turn comes first ({self.turns()}); "
                f"a player left out of the moves passes, so {self.who(by)}'s move passed {self.who(p)}: write {self.who(p)}'s move before {self.who(by)}'s"
            )
            return RuleViolation("turn.not-your-turn", message, explained=True)
        return RuleViolation("turn.not-your-turn", self._late_sentence(p))

    def _late_sentence(self, p: int) -> str:
        order = ", ".join(self.who(q) for q in self.order)
        if self.pos >= len(self.order):
            return f"{self.who(p)} has had their turn: in {self.title} each player moves once, clockwise from {self.who(self.chooser)} ({order}), and every turn has been taken"
        return (
            f"{self.who(p)} has had their turn: in {self.title} each player moves once, clockwise from "
            f"{self.who(self.chooser)} ({order}); next is {self.who(self.order[self.pos])}"
        )

    def closed(self) -> bool:
        """True when nobody may move any more (a full trading house)."""
        return False

    def open_when_closed(self, p: int, move: AnyMove) -> bool:
        """A move still allowed once the phase is closed (a sale to one's own trading post)."""
        return False

    def moves_when_closed(self, p: int) -> bool:
        """May player `p` still make such a move (`open_when_closed`) now that the phase is closed?"""
        return False

    def closed_reason(self) -> str:
        return f"{self.title} is over"

    def may_pass(self, p: int) -> bool:
        """May player `p` pass (be left out of `moves`)? The rule `check_pass` enforces."""
        return True

    def check_pass(self, p: int) -> None:
        """RuleViolation (`Missing`) if player `p` may not pass (`may_pass`): `refused_pass` says why."""
        if not self.may_pass(p):
            raise self.refused_pass(p)

    def refused_pass(self, p: int) -> RuleViolation:
        """Why `p` may not pass, for `check_pass` (asked only when `may_pass` says no)."""
        raise NotImplementedError

    def skip(self, p: int) -> None:
        """Player `p` passes (left out of `moves`, or `pass`); checked by `check_pass`."""

    def check(self, p: int, move: AnyMove) -> None:
        """Raise RuleViolation if `p`, whose turn it is, may not make `move`; change nothing."""
        raise NotImplementedError

    def apply(self, p: int, move: AnyMove) -> None:
        """Make `move`, already checked (`check`): the unchecked path."""
        raise NotImplementedError

    def finish(self, reveal: list[str] | None = None, keep: dict[int, Keep] | None = None) -> None:
        if self.forced:
            rest = self.order[self.pos :] if not (self.closes and self.closed()) else ()  # nobody moves in a closed phase
            for p in rest:
                self.check_pass(p)
            for p in rest:
                self.skip(p)
        self.pos = len(self.order)
        self.end(reveal, keep)

    def end(self, reveal: list[str] | None, keep: dict[int, Keep] | None) -> None:
        """The chooser's closing duty; it checks before it changes (only the settler's can be
        refused, and a settler's pass changes nothing)."""

    def waiting(self) -> str:
        if self.pos < len(self.order):
            return f"{self.title}: {self.who(self.order[self.pos])}'s turn"
        return f"{self.title}: every turn has been taken"


def wrong_move(phase: Phase, move: AnyMove) -> RuleViolation:
    """A move of another phase's kind (the parser prevents it; kept as a clear message)."""
    return RuleViolation("move.wrong-phase", f"'{move.text(phase.rules)}' is not a move of {phase.title}")


def succeeds(check: Callable[..., object], *args: Any) -> bool:
    """Does `check(*args)` pass, raising no RuleViolation? (A check changes nothing.)"""
    try:
        check(*args)
    except RuleViolation:
        return False
    return True
