"""The shipping calculator on the captain phases that games actually played: at every captain role
choice of the corpus games (`tests/corpus`) and of random-play games of the expansion, the
position of that moment is written as docs/formats/shipping-position.md has it, and the phase that the log
then plays must be one of the calculator's outcomes (`--all`), each player's VP at most their
best, and their guaranteed VP no more than they can expect, as a table would check the
calculator against a game it remembers (a player of a random game may well score less than they
were guaranteed: they need not play well)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.documents.log import GameRecord, read_log
from referee.documents.position import read_position
from referee.documents.write_position import captain_position
from referee.engine.game import Game
from referee.jobs.play import play, to_log
from referee.jobs.shipping import Outcome, all_outcomes, ship
from referee.rulesets.load import load_ruleset

CORPUS = Path(__file__).parent / "corpus"
# random-play games (ruleset, seed) whose captain phases have libraries (1, 45), storehouses (2, 4),
# small wharfs (4, 15), lighthouses (6, 58) and union halls (15, 45, 58); 1897's names in two
EXPANSION_GAMES = (*(("expansion-1", seed) for seed in (1, 2, 4, 6, 15, 45, 58)), ("1897-expansion-1", 4), ("1897-expansion-1", 6))


@dataclass(frozen=True)
class Played:
    """A captain phase as the game played it, for each player clockwise from the captain: VP and
    doubloons gained, barrels shipped by kind (the ruleset's names) and barrels kept; and the cargo
    ships after it (size, the kind's id, barrels)."""

    position: str
    vp: tuple[int, ...]
    doubloons: tuple[int, ...]
    shipped: tuple[dict[str, int], ...]
    kept: tuple[int, ...]
    ships: tuple[tuple[int, str | None, int], ...]


def played_phases(record: GameRecord) -> list[Played]:
    """Every captain phase of a game log, as written before it and as played."""
    game = Game(record.rules, record.players, record.plantations, record.buildings)
    out = []
    for entry in record.phases:
        captain = entry.chooser
        order = [(captain + i) % game.n for i in range(game.n)]
        position = captain_position(game, captain) if entry.role == "captain" else ""
        vp = [game.boards[p].vp for p in order]
        doubloons = [game.boards[p].doubloons for p in order]
        goods = [dict(game.boards[p].goods) for p in order]
        free = [card.doubloons for card in game.role_cards if card.role == entry.role and card.taken_by is None]
        card = entry.doubloons if entry.doubloons is not None else max(free, default=0)  # the captain takes those on the role card
        game.choose_role(entry.chooser, entry.role, entry.doubloons)
        for move in entry.moves:
            game.play(move.player, move.move, move.guests)
        if entry.role == "captain":
            name = record.rules.name
            gained_vp = tuple(game.boards[p].vp - vp[i] for i, p in enumerate(order))
            gained_doubloons = tuple(game.boards[p].doubloons - doubloons[i] - (card if i == 0 else 0) for i, p in enumerate(order))
            shipped = tuple(
                {name(good): n - game.boards[p].goods.get(good, 0) for good, n in goods[i].items() if n > game.boards[p].goods.get(good, 0)}
                for i, p in enumerate(order)
            )
        game.finish_phase(reveal=entry.reveal, keep=entry.keep)
        if entry.role == "captain":
            kept = tuple(sum(game.boards[p].goods.values()) for p in order)
            ships = tuple((ship.size, ship.good if ship.count else None, ship.count) for ship in game.ships)
            out.append(Played(position, gained_vp, gained_doubloons, shipped, kept, ships))
    return out


def matches(outcome: Outcome, phase: Played) -> bool:
    """Is the calculator's outcome the phase as played? (Storage is compared by the barrels kept:
    the calculator keeps the most the rules allow, a player may keep fewer, or other kinds.)"""
    players = outcome.players
    return (
        tuple(p.vp for p in players) == phase.vp
        and tuple(p.doubloons for p in players) == phase.doubloons
        and tuple(p.shipped for p in players) == phase.shipped
        and all(sum(p.kept.values()) >= kept for p, kept in zip(players, phase.kept, strict=True))
        and tuple((s.size, s.good, s.count) for s in outcome.ships) == phase.ships
    )


def games() -> list[tuple[str, GameRecord]]:
    out = [(path.name, read_log(path.read_text(), path.name)) for path in sorted(CORPUS.glob("*.yaml"))]
    for ruleset, seed in EXPANSION_GAMES:
        name = f"{ruleset}-{seed}.yaml"
        out.append((name, read_log(to_log(play(load_ruleset(ruleset), 3 + seed % 3, seed), ruleset), name)))
    return out


@pytest.mark.parametrize(("name", "record"), games(), ids=lambda value: value if isinstance(value, str) else "")
def test_every_captain_phase_a_game_played_is_an_outcome_within_best(name: str, record: GameRecord) -> None:
    phases = played_phases(record)
    assert phases, f"{name} has captain phases"
    for number, phase in enumerate(phases, 1):
        position = read_position(phase.position, f"{name}, captain phase {number}")
        summary = ship(position)
        where = f"{name}, captain phase {number}:\n{phase.position}"
        assert any(matches(outcome, phase) for outcome in all_outcomes(position)), f"the phase as played is not among the outcomes: {where}"
        for p, vp in enumerate(phase.vp):
            figures = summary.vp[p]
            assert vp <= figures.best, f"{position.players[p].name} scored {vp}, over their best in {figures}: {where}"
            assert figures.guaranteed <= figures.expected <= figures.best, f"{position.players[p].name}: {figures}: {where}"


def test_a_phase_as_played_that_the_calculator_would_not_allow_is_told_apart() -> None:
    name, record = games()[0]
    phase = played_phases(record)[1]
    position = read_position(phase.position, name)
    changed = Played(phase.position, (phase.vp[0] + 1, *phase.vp[1:]), phase.doubloons, phase.shipped, phase.kept, phase.ships)
    assert any(matches(outcome, phase) for outcome in all_outcomes(position))
    assert not any(matches(outcome, changed) for outcome in all_outcomes(position))


def test_the_position_written_names_the_captain_first_with_their_barrels_and_buildings() -> None:
    _, record = games()[0]
    first = played_phases(record)[0]
    captain = next(entry.chooser for entry in record.phases if entry.role == "captain")
    position = read_position(first.position, "written.yaml")
    assert position.players[0].name == record.players[captain]
    assert [p.name for p in position.players] == [record.players[(captain + i) % len(record.players)] for i in range(len(record.players))]
