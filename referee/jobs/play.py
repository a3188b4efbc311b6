"""`referee play`: a complete random legal game, written as a canonical game log.

Every decision is drawn from the legal moves the engine accepts (see `referee.engine.legal`);
chance (the face-up rows, the hacienda's draws) is drawn from what the stacks hold. The same
seed gives the same game, so a generated log is a reproducible test case.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from referee.engine import legal
from referee.engine.awaiting import ArrangementAwaited, DrawAwaited, KeepAwaited, MoveAwaited
from referee.engine.game import Game
from referee.engine.phases.base import PASS
from referee.engine.phases.mayor import random_arrangement
from referee.ground.collector import collection_paused
from referee.moves.clauses import AnyMove, Keep
from referee.rulesets.rules import Rules

NAMES = ("Anna", "Ben", "Cleo", "Dara", "Emil")
MAX_PHASES = 2000  # a safety bound: random games end long before


@dataclass
class Entry:
    """One phase of the generated log."""

    role: str
    chooser: int
    doubloons: int | None
    round: int
    governor: int
    moves: list[tuple[int, AnyMove]] = field(default_factory=list)
    reveal: list[str] | None = None
    keep: dict[int, Keep] = field(default_factory=dict)


@dataclass
class Played:
    """A generated game: its setup and phases, and the final state."""

    rules: Rules
    players: list[str]
    plantations: list[str]
    buildings: list[str] | None
    entries: list[Entry]
    game: Game
    seed: int


def _draw(rng: random.Random, pool: Counter[str], n: int) -> list[str]:
    tiles = sorted(pool.elements())
    rng.shuffle(tiles)
    return tiles[:n]


def _selection(rules: Rules, rng: random.Random) -> list[str] | None:
    selection = rules.model.selection
    if selection is None:
        return None
    while True:
        chosen: list[str] = []
        for slot in selection.slots:
            options = [b.id for b in rules.buildings if b.kind.endswith("violet") and b.cost == slot.cost]
            chosen += rng.sample(options, slot.spaces)
        if all(sum(1 for i in group if i in chosen) <= 1 for group in selection.exclusive):
            return chosen


def play(rules: Rules, n: int, seed: int) -> Played:
    """Play a whole random game of `n` players with `rules`."""
    # the collector of reference cycles waits: a game makes many short-lived containers (the
    # legal moves listed at every decision) and few cycles, and each collection would walk
    # them, and the older ones the whole process (a tenth of the time of a game)
    with collection_paused():
        return _play(rules, n, seed)


def _play(rules: Rules, n: int, seed: int) -> Played:
    rng = random.Random(seed)
    players = list(NAMES[:n])
    setup = rules.players(n)
    deck = Counter({g.id: max(0, g.plantations - setup.plantations_removed) for g in rules.model.goods})
    deck -= Counter(setup.starting_plantations)
    plantations = _draw(rng, deck, setup.face_up)
    buildings = _selection(rules, rng)
    game = Game(rules, players, plantations, buildings)
    entries: list[Entry] = []
    while not game.over and len(entries) < MAX_PHASES:
        chooser = game.chooser
        role, doubloons = rng.choice(legal.roles(game))
        entry = Entry(role, chooser, doubloons, game.round, game.governor)
        game.choose_role(chooser, role, doubloons)
        _play_phase(game, entry, rng)
        entries.append(entry)
    return Played(rules, players, plantations, buildings, entries, game, seed)


def _play_phase(game: Game, entry: Entry, rng: random.Random) -> None:
    """The phase's decisions as the engine awaits them (`Game.awaiting`), each drawn at random."""
    decided: dict[int, Keep] = {}  # storage chosen, or forced (not written), as the captain's phase goes round
    reveal: list[str] | None = None
    while True:
        awaited = game.awaiting(reveal, decided)
        if type(awaited) is MoveAwaited:  # (the most frequent answer, looked at first)
            if awaited.listed is not None:  # a captain's: a wharf's turn and the loader's are open together: drawn among all
                p, move = rng.choice(awaited.listed)
            else:
                p = awaited.player
                move = rng.choice(list(awaited.moves()))
            game.play_unchecked(p, move)  # listed by the engine: legal
            entry.moves.append((p, move))
        elif isinstance(awaited, ArrangementAwaited):  # a hundred thousand may be open: one drawn, not listed
            p = awaited.player
            arrangement = random_arrangement(game.rules, game.boards[p], rng, awaited.declinable)
            if arrangement is None:  # every circle filled: a pass (legal), left out of the log as a forced arrangement is
                game.play_unchecked(p, PASS)
            else:
                game.play(p, arrangement)
                entry.moves.append((p, arrangement))
        elif isinstance(awaited, KeepAwaited):
            p = awaited.player
            stores = legal.keeps(game, p)  # the most barrels kept: a random game throws none away
            decided[p] = rng.choice(stores) if len(stores) > 1 else stores[0]
            if len(stores) > 1:
                entry.keep[p] = decided[p]
        elif isinstance(awaited, DrawAwaited):
            reveal = _new_row(game, rng, awaited.tiles)
        else:
            break
    game.finish_phase(reveal=reveal, keep=entry.keep or None)
    entry.reveal = reveal


def _new_row(game: Game, rng: random.Random, tiles: int) -> list[str]:
    """A settler phase's new face-up row, drawn from the stacks; where they run out, the
    discards (with this row's leftovers) are reshuffled for the rest."""
    row = _draw(rng, game.deck, tiles)
    if len(row) < tiles:
        row += _draw(rng, game.discards + Counter(game.face_up), tiles - len(row))
    return row


def to_log(played: Played, ruleset: str) -> str:
    """The generated game as canonical game-log text."""
    from referee.documents.write import PhaseText, write_log

    phases = []
    last_round = 0
    for e in played.entries:
        comment = None
        if e.round != last_round:
            comment = f"round {e.round}: governor {played.players[e.governor]}"
            last_round = e.round
        phases.append(
            PhaseText(
                role=e.role,
                chooser=e.chooser,
                moves=[(p, m, ()) for p, m in e.moves],
                doubloons=e.doubloons,
                reveal=e.reveal,
                keep=e.keep,
                comment=comment,
            )
        )
    header = f"a random legal game: referee play --players {len(played.players)} --seed {played.seed} --ruleset {ruleset}"
    return write_log(played.rules, ruleset, played.players, played.plantations, phases, played.buildings, header)
