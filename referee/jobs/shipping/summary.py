"""What `referee ship` answers (docs/formats/shipping-position.md, version 3): each player's guaranteed,
expected and best VP, the expected play with its outcome and moves, the choices at the first
decision along it, and whether the phase is forced.

The expected play is read off the valuation (`Valuation`): from the root, each decider's
remembered move. A dropped-out player's moves (their wharf, their small wharf) are written at
their first turn after they dropped out, when the turn passes them on the way to the next
decider, or at the end of the loading: the line of play is one the engine accepts as it stands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee.documents.position import Position
from referee.engine.captain_rules import clockwise, turn_after, turns_away
from referee.jobs.shipping.compact import DECIDER
from referee.jobs.shipping.outcomes import Outcome, ends, outcome
from referee.jobs.shipping.phase import ALL, LOAD, PLAIN, CaptainPhase, Goods, Move, Reductions, TailKey
from referee.jobs.shipping.tails import must_load
from referee.jobs.shipping.values import BEST, EXPECTED, GUARANTEED, KEPT, Valuation, quiet_search
from referee.moves.clauses import AnyMove


@dataclass(frozen=True, slots=True)
class Range:
    """A player's VP over the phase: what they can be sure of whatever the others do (the phase
    played as a game of that player against all the others together), the expected, the most."""

    guaranteed: int
    expected: int
    best: int


@dataclass(frozen=True, slots=True)
class Played:
    """One move of the expected play."""

    player: int
    move: AnyMove


@dataclass(frozen=True, slots=True)
class Choice:
    """One move open at a decision (None: leaving the wharf unused), and the VP over the
    phase it leaves the player who chooses: guaranteed (the rest of the phase after it played
    against them), expected, best."""

    move: AnyMove | None
    guaranteed: int
    expected: int
    best: int
    kept: int  # barrels the player keeps in the expected play after this move


@dataclass(frozen=True, slots=True)
class Choices:
    """A player's decision with more than one move along the expected play: the moves, by
    expected VP (then barrels kept), the highest first; among moves equal in both, the expected
    play's first, the others in the listing's order. The expected play's move is therefore always
    the first (it has the decider's most expected VP, then barrels kept: `Valuation.rank`)."""

    player: int
    moves: tuple[Choice, ...]
    at: int  # moves of the expected play made before this decision


@dataclass(frozen=True, slots=True)
class Answer:
    """The shipping calculator's answer for a position (see the module)."""

    position: Position
    forced: bool
    vp: tuple[Range, ...]
    expected: Outcome
    moves: tuple[Played, ...]
    choices: Choices | None
    asker: int  # the player the expected play is worst for where a decider is indifferent
    best: Choice | None  # with --for: the asker's best move (the first of their choices)
    states: int  # states valued by the search
    doubloons: bool  # doubloons change hands in the phase (a lighthouse): outcomes show them


def ship(
    position: Position,
    asker: int | None = None,
    forced: bool | None = None,
    reductions: Reductions = ALL,
    progress: Callable[[int], None] | None = None,
) -> Answer:
    """Value every state of the position's captain phase and read the answer off it.

    `asker` (`--for`): the player whose choices are shown, and for whom an indifferent decider's
    move is taken to be the worst; by default the captain, with the choices of the first player
    to decide. `forced`: whether the phase has one outcome, when the caller knows it (from the
    outcome list). `reductions`: those of the search (the answer is the same without them).
    `progress`: called now and then during the search with the states valued so far."""
    # The collector stays off for the whole answer: the search makes no cycles, and its tables
    # are freed as soon as they are dropped, before the collector could walk them.
    with quiet_search():
        phase = CaptainPhase(position, reductions)
        valuation = Valuation(phase, 0 if asker is None else asker, progress)
        top = valuation.root_values()
        n = phase.n
        vp = tuple(Range(top[GUARANTEED * n + p], top[EXPECTED * n + p], top[BEST * n + p]) for p in range(n))
        narrow = all(r.guaranteed == r.best for r in vp)  # each player is sure of their most (one outcome or not, the list says)
        play = _ExpectedPlay(phase, valuation)
        assert all(play.vp[p] == r.expected for p, r in enumerate(vp)), "the expected play scores what the valuation says"
        states, asked, doubloons = valuation.states, valuation.asker, phase.doubloons
        del valuation, phase
        play.release()
        if forced is None:
            forced = narrow and _at_most_one_end(CaptainPhase(position, PLAIN))
    if asker is None:
        choices = play.decisions[0] if play.decisions else None
        best = None
    else:
        choices = next((d for d in play.decisions if d.player == asker), None)
        best = choices.moves[0] if choices is not None else None
    return Answer(position, forced, vp, play.outcome, tuple(play.moves), choices, asked, best, states, doubloons)


def _at_most_one_end(phase: CaptainPhase) -> bool:
    found = ends(phase)
    next(found)
    return next(found, None) is None


class _ExpectedPlay:
    """The expected play from the root: its moves, its decisions with more than one move, the
    VP and outcome it ends with."""

    def __init__(self, phase: CaptainPhase, valuation: Valuation) -> None:
        self.phase, self.valuation = phase, valuation
        n = phase.n
        self.vp = list(phase.start_vp)
        self.money = list(phase.start_doubloons)
        self.goods: list[Goods] = list(phase.start_goods)
        self.moves: list[Played] = []
        self.decisions: list[Choices] = []
        self.pointer = 0
        self.tails: dict[int, TailKey] = {p: phase.tail_keys[number] for p, number in phase.root_drops}  # dropped-out players: where their tail stands
        self.waiting: dict[int, list[Move]] = {}  # dropped-out players' moves still to make, one a turn, once decided
        self.loaded = [0] * phase.ships  # barrels the tails loaded on each cargo ship
        state = phase.root
        while True:
            decider = state[DECIDER]
            assert isinstance(decider, int)
            self._tails(decider)
            if decider < 0:
                break
            steps, valued, chosen = valuation.choose(state)
            if len(steps) > 1:
                options = [self._choice(step.move, decider, v[GUARANTEED * n + decider], v[EXPECTED * n + decider], v[BEST * n + decider], v[KEPT * n + decider]) for step, v in zip(steps, valued, strict=True)]
                self._decided(decider, options, chosen)
            step = steps[chosen]
            self._play(decider, step.move)
            self.vp[decider] += step.vp
            self.money[decider] += step.doubloons
            self.tails.update((p, phase.tail_keys[number]) for p, number in step.drops)
            state = step.child
        kinds, counts = phase.cargo(state)
        ships = phase.unloaded(kinds, [held + more for held, more in zip(counts, self.loaded, strict=True)])
        self.outcome = outcome(phase, (ships, tuple(zip(self.vp, self.goods, self.money, strict=True))))

    def release(self) -> None:
        """Let go of the phase and its valuation (the moves, decisions and outcome stay)."""
        del self.phase, self.valuation

    def _tails(self, decider: int) -> None:
        """The dropped-out players whose turn comes before the decider's (all of them, at the
        end), clockwise from the turn pointer, each make one move of their tail (see `_tail_turn`);
        once loading is over, turn after turn until none is left."""
        n, start = self.phase.n, self.pointer
        reach = turns_away(start, n, decider) if decider >= 0 else n
        while True:
            moved = False
            for player in [p for p in clockwise(start, n) if p in self.tails and turns_away(start, n, p) < reach]:
                moved = self._tail_turn(player) or moved
            if decider >= 0 or not moved:
                return
            start = self.pointer

    def _tail_turn(self, player: int) -> bool:
        """A dropped-out player's turn: one move of their tail, if any is left (True: a move).

        While they hold a kind a cargo ship takes, they must load at each turn, as a decider
        does: each of those turns is a decision of its own. Then they decide their rest (their
        wharf, their small wharf, or nothing) when the turn first reaches them, and make one
        move of it a turn."""
        key = self.tails[player]
        if must_load(key):
            self._tail_decision(player, key)
            move, after, vp, money = self.phase.tails.expected_move(key)
            self._play(player, move)
            self.vp[player] += vp
            self.money[player] += money
            self.goods[player] = after[1]
            if move[0] == LOAD:
                ship, amount = move[2], move[3]
                assert isinstance(ship, int) and isinstance(amount, int)
                self.loaded[ship] += amount
            self.tails[player] = after
            return True
        if player not in self.waiting:
            self._tail_decision(player, key)
            end = self.phase.tail(key).expected
            self.waiting[player] = list(end.moves)
            self.vp[player] += end.vp
            self.money[player] += end.doubloons
            self.goods[player] = end.goods
        moves = self.waiting[player]
        if not moves:
            return False
        self._play(player, moves.pop(0))
        return True

    def _tail_decision(self, player: int, key: TailKey) -> None:
        """A dropped-out player's decision at their tail `key`, with its choices (when they have more than one)."""
        options = self.phase.tail_options(key)
        if len(options) > 1:
            expected = self.phase.tail(key).first
            first = None if expected is None else expected[0]  # the expected end's first move (None: stopping)
            chosen = next(i for i, (move, _) in enumerate(options) if move == first)
            self._decided(player, [self._choice(move, player, t.guaranteed, t.vp, t.best, t.kept) for move, t in options], chosen)

    def _choice(self, move: Move | None, player: int, guaranteed: int, expected: int, best: int, kept: int) -> Choice:
        so_far = self.vp[player]
        return Choice(None if move is None else self.phase.move(move), so_far + guaranteed, so_far + expected, so_far + best, kept)

    def _decided(self, player: int, options: list[Choice], chosen: int) -> None:
        """A decision of `player` with `options` (in the listing's order), of which the expected
        play takes the `chosen`."""
        ranked = sorted(range(len(options)), key=lambda i: (-options[i].expected, -options[i].kept, i != chosen, i))
        assert ranked[0] == chosen, "the expected play's move has the decider's most expected VP, then barrels kept"
        self.decisions.append(Choices(player, tuple(options[i] for i in ranked), len(self.moves)))

    def _play(self, player: int, move: Move) -> None:
        self.moves.append(Played(player, self.phase.move(move)))
        self.pointer = turn_after(player, self.phase.n)
