"""The shipping calculator's reductions (`referee.jobs.shipping.phase.Reductions`) change no answer.

Each reduction is exact by an argument (docs/shipping.md, the modules' docstrings); here each is
checked against the search without it (`PLAIN`), itself checked against the plain exhaustive
search of the engine in tests/test_shipping.py: on random positions rich in what the reductions
touch (small wharfs, wharfs, partly loaded ships, players whose kinds fit their ships), the whole
answer must be the same: every player's guaranteed, expected and best VP, the expected play
(its moves, outcome, ships), the choices with their guaranteed, expected, best VP and barrels
kept, which of them the expected play takes, the best move and `forced`, for every player asking.
(A reduction merges states whose lines of play are the same moves for the same VP but for VP
certain to come to one player, or leaves out of a state a player whose rest nobody else's move
changes; either way each player's max-min over the lines of play, their guaranteed VP, is kept.)
"""

from __future__ import annotations

import dataclasses
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.diagnostics import InputError
from referee.documents.position import Position, read_position
from referee.jobs.shipping import ship
from referee.jobs.shipping.phase import ALL, PLAIN, CaptainPhase, Reductions
from tests.test_shipping import check_against_the_plain_search, position, random_position

SCALE = int(os.environ.get("REFEREE_FUZZ_SCALE", "1"))  # more (and new) random positions for a nightly run
BUILDINGS = (
    ("small wharf", 0.45),
    ("wharf", 0.3),
    ("harbor", 0.3),
    ("small warehouse", 0.2),
    ("large warehouse", 0.15),
    ("storehouse", 0.2),
    ("lighthouse", 0.2),
    ("union hall", 0.1),
    ("library", 0.1),
)
EACH = {name: Reductions(**{f.name: f.name == name for f in dataclasses.fields(Reductions)}) for name in (f.name for f in dataclasses.fields(Reductions))}


def reduction_position(rng: random.Random) -> Position | None:
    """A captain phase in the expansion, rich in small wharfs: some ships partly loaded (so that
    kinds on them often have room for every barrel), each player up to four kinds of one to three
    barrels (fewer with more players, to keep the plain search quick)."""
    players = rng.choice([2, 3, 3, 4, 4, 5])
    text = random_position(rng, players, "expansion-1", BUILDINGS, ship_chance=0.4, most_kinds=3 if players > 3 else 4)
    try:
        return read_position(text, "r.yaml")
    except InputError:
        return None  # more barrels than the game has


def same_answer(position: Position, asker: int | None, reductions: Reductions) -> None:
    """The answer with `reductions` is the answer without any (all but the count of states)."""
    plain = dataclasses.replace(ship(position, asker, reductions=PLAIN), states=0)
    reduced = dataclasses.replace(ship(position, asker, reductions=reductions), states=0)
    assert reduced == plain


@settings(max_examples=150 * SCALE, deadline=None, derandomize=SCALE == 1, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**9), asker=st.one_of(st.none(), st.integers(min_value=0, max_value=4)))
def test_all_the_reductions_change_no_answer(seed, asker):
    position = reduction_position(random.Random(seed))
    if position is not None:
        same_answer(position, None if asker is None else asker % len(position.players), ALL)


@pytest.mark.parametrize("name", sorted(EACH))
@settings(max_examples=60 * SCALE, deadline=None, derandomize=SCALE == 1, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**9), asker=st.one_of(st.none(), st.integers(min_value=0, max_value=4)))
def test_each_reduction_alone_changes_no_answer(name, seed, asker):
    position = reduction_position(random.Random(seed))
    if position is not None:
        same_answer(position, None if asker is None else asker % len(position.players), EACH[name])


HEAVY_SEEDS = {12, 21, 23}  # positions whose plain exhaustive search takes 6 to 27 s: slow tests


@pytest.mark.parametrize("seed", [pytest.param(seed, marks=pytest.mark.slow) if seed in HEAVY_SEEDS else seed for seed in range(30)])
def test_the_reduced_answer_agrees_with_the_plain_exhaustive_search(seed):
    """The reduced search against the engine's own exhaustive search: guaranteed and best, the
    expected play as a line the engine accepts, the choices' guaranteed and best."""
    position = reduction_position(random.Random(seed))
    if position is not None:
        check_against_the_plain_search(position, seed % len(position.players))


# --- positions that each reduction changes, worked through ---------------------------------------


def test_a_player_whose_kinds_all_fit_their_ships_drops_out_with_their_loads():
    """Anna's corn and sugar each have a ship with room for every barrel of them: she crowds
    nobody out and nobody crowds her, so she leaves the search at once (one state instead of
    hundreds), her loads and small wharf a tail of her own. Her turns still come as the engine
    has them, one move a turn, and her first turn is the first decision, with its choices."""
    pos = position("""
        ruleset: expansion-1
        ships: {4: corn 1, 5: sugar 1, 6: empty}
        players:
          - {name: Anna, goods: {corn: 2, sugar: 2}, buildings: [small wharf, harbor]}
          - {name: Ben, goods: {coffee: 2, indigo: 2}}
          - {name: Cleo, goods: {indigo: 2, tobacco: 1, sugar: 1}, buildings: [wharf]}
        """)
    assert CaptainPhase(pos).root_drops[0][0] == 0  # Anna, out from the start
    for asker in (None, 0, 1, 2):
        check_against_the_plain_search(pos, asker)  # the expected line is one the engine accepts
        same_answer(pos, asker, ALL)
    assert ship(pos).states == 1 < ship(pos, reductions=PLAIN).states
    result = ship(pos, 0)
    assert result.choices is not None and result.choices.player == 0
    moves = [c.move.text(pos.rules) for c in result.choices.moves if c.move is not None]
    assert {"2 corn on 4", "2 sugar on 5", "small wharf corn 1"} <= set(moves)
    assert [m.player for m in result.moves][:3] == [0, 1, 2]  # Anna moves at her turn, then the others


def test_barrels_certain_to_be_loaded_count_as_turns():
    """Anna (no wharf) must load her corn, which has room on its ship whatever happens: states
    that differ only in how much of it she holds share a key, her VP shifted."""
    pos = position("""
        ruleset: base
        ships: {4: corn 1, 5: empty, 6: empty}
        players:
          - {name: Anna, goods: {corn: 2, sugar: 2, indigo: 2}}
          - {name: Ben, goods: {sugar: 3, indigo: 1}, buildings: [harbor]}
          - {name: Cleo, goods: {indigo: 3, coffee: 2, corn: 1}, buildings: [wharf]}
        """)
    for asker in (None, 0, 1, 2):
        same_answer(pos, asker, EACH["tokens"])
    assert ship(pos, reductions=EACH["tokens"]).states < ship(pos, reductions=PLAIN).states


def test_dead_barrels_count_as_storage_treats_them():
    """Once Anna has used her small wharf (she has no wharf), her dead barrels stay hers to the
    end, where her windrose keeps one of them, whichever: how many more she holds, and of which
    kinds, matters to nobody."""
    pos = position("""
        ruleset: expansion-1
        ships: {4: corn 3, 5: sugar 4, 6: indigo 2}
        players:
          - {name: Anna, goods: {corn: 2, coffee: 2, tobacco: 1, indigo: 2}, buildings: [small wharf]}
          - {name: Ben, goods: {corn: 1, indigo: 3, coffee: 1}}
          - {name: Cleo, goods: {sugar: 2, indigo: 2, tobacco: 2}, buildings: [small warehouse]}
        """)
    for asker in (None, 0, 1, 2):
        same_answer(pos, asker, EACH["storage"])
        check_against_the_plain_search(pos, asker)
    assert ship(pos, reductions=EACH["storage"]).states < ship(pos, reductions=PLAIN).states
