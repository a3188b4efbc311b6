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
from referee.engine.game import Game
from referee.engine.phases.captain import Captain
from referee.engine.phases.mayor import Mayor, random_arrangement
from referee.engine.phases.settler import Settler
from referee.located.tree import collection_paused
from referee.moves.clauses import AnyMove, Keep, Pass
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
    phase = game.phase
    assert phase is not None
    if isinstance(phase, Captain):
        while True:
            loads = phase.legal_moves(passes=True)  # a turn that could only use a wharf may be let go
            if not loads:
                break
            p, load = rng.choice(loads)
            game.play_unchecked(p, load)
            entry.moves.append((p, load))
    elif isinstance(phase, Mayor):
        for p in list(phase.order):
            arrangement = random_arrangement(game.rules, game.boards[p], rng, phase.declinable(p))
            if arrangement is not None:
                game.play(p, arrangement)
                entry.moves.append((p, arrangement))
    else:
        while True:
            players = legal.to_move(game)
            if not players:
                break
            p = players[0]
            options = game.legal_moves(p)
            move = rng.choice(options) if options else Pass()
            game.play_unchecked(p, move)  # listed by the engine: legal
            entry.moves.append((p, move))
    reveal = None
    if isinstance(phase, Settler):
        left = game.face_up
        pool = game.deck
        need = game.setup.face_up
        reveal = _draw(rng, pool, need)
        if len(reveal) < need:  # the stacks ran out: the discards (with this row's leftovers) are reshuffled
            reveal += _draw(rng, game.discards + Counter(left), need - len(reveal))
        if not reveal:
            reveal = None
    keep: dict[int, Keep] = {}
    if isinstance(phase, Captain):
        for p in phase.order:
            stores = legal.keeps(game, p)
            if len(stores) > 1:
                keep[p] = rng.choice(stores)
    game.finish_phase(reveal=reveal, keep=keep or None)
    entry.reveal = reveal
    entry.keep = keep


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
