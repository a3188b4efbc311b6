"""The shipping search's packed states (`referee.jobs.shipping.compact`) say what the table holds.

A state packs the cargo ships in one integer and every player's barrels of a kind in one
column; these tests read them back: the root holds the position's ships and barrels, and each
move changes what it should and nothing else (the answers themselves are checked against the
engine's exhaustive search in tests/test_shipping.py)."""

from __future__ import annotations

import random

import pytest

from referee.diagnostics import InputError
from referee.documents.position import Position, read_position
from referee.jobs.shipping.phase import LOAD, SMALL_WHARF, WHARF, CaptainPhase
from tests.test_shipping import random_position

BUILDINGS = (("small wharf", 0.4), ("wharf", 0.4), ("harbor", 0.3), ("large warehouse", 0.2))


def positions(count: int, seed: int) -> list[Position]:
    rng, out = random.Random(seed), list[Position]()
    while len(out) < count:
        players = rng.choice([2, 3, 4, 5])
        try:
            out.append(read_position(random_position(rng, players, "expansion-1", BUILDINGS, ship_chance=0.4, most_kinds=4), "r.yaml"))
        except InputError:
            continue  # more barrels than the game has
    return out


@pytest.mark.parametrize("seed", range(4))
def test_the_root_holds_the_positions_ships_and_barrels(seed):
    for pos in positions(25, seed):
        phase = CaptainPhase(pos)
        kinds, counts = phase.cargo(phase.root)
        assert [(s.size, None if k is None else phase.kinds[k], n) for s, k, n in zip(pos.ships, kinds, counts, strict=True)] == [
            (s.size, s.good, s.count) for s in pos.ships
        ]
        dropped = {p for p, _ in phase.root_drops}
        for p, player in enumerate(pos.players):
            held = tuple(player.goods.get(good, 0) for good in phase.kinds)
            # a player out from the start holds nothing in the state; their tail holds their barrels
            assert phase.goods(phase.root, p) == ((0,) * len(phase.kinds) if p in dropped else held)
        for p, number in phase.root_drops:
            assert phase.tail_keys[number][1] == phase.start_goods[p]
        assert phase.barrels(phase.root) == sum(sum(phase.goods(phase.root, p)) for p in range(phase.n))


@pytest.mark.parametrize("seed", range(4))
def test_a_move_changes_the_movers_barrels_and_the_ship_it_loads_and_nothing_else(seed):
    for pos in positions(25, seed):
        phase = CaptainPhase(pos)
        state = phase.root
        while state[0] >= 0:
            q = state[0]
            before = [phase.goods(state, p) for p in range(phase.n)]
            kinds, counts = phase.cargo(state)
            steps = phase.steps(state)
            for step in steps:
                child, move = step.child, step.move
                dropped = {p for p, _ in step.drops}
                after = [phase.tail_keys[number][1] for number in (dict(step.drops).get(p) for p in range(phase.n)) if number is not None]
                shipped = [0] * len(phase.kinds)
                if move[0] in (LOAD, WHARF):
                    shipped[move[1]] = move[3] if move[0] == LOAD else move[2]
                else:
                    assert move[0] == SMALL_WHARF
                    shipped = list(move[1])
                mover = tuple(held - out for held, out in zip(before[q], shipped, strict=True))
                for p in range(phase.n):
                    expected = mover if p == q else before[p]
                    assert phase.goods(child, p) == ((0,) * len(phase.kinds) if p in dropped else expected)
                assert sorted(after) == sorted(mover if p == q else before[p] for p in dropped)
                child_kinds, child_counts = phase.cargo(child)
                if move[0] == LOAD:
                    ship, amount = move[2], move[3]
                    assert child_kinds[ship] == move[1]
                    assert child_counts[ship] == counts[ship] + amount
                    assert [(k, n) for i, (k, n) in enumerate(zip(child_kinds, child_counts, strict=True)) if i != ship] == [
                        (k, n) for i, (k, n) in enumerate(zip(kinds, counts, strict=True)) if i != ship
                    ]
                else:  # a wharf or a small wharf: the cargo ships as they were
                    assert (child_kinds, child_counts) == (kinds, counts)
            state = steps[-1].child  # on along the last move, to reach states of every kind of move


def test_a_cargo_ship_of_hundreds_and_a_player_of_hundreds_of_barrels_are_held_exactly(tmp_path):
    # columns and ships wider than the usual few bits: nothing is cut
    ruleset = tmp_path / "big.yaml"
    ruleset.write_text(
        "id: big-test\nextends: base\ntitle: big ships (tests only)\nplayer_counts:\n  3: {cargo_ships: [40, 300, 600]}\n"
        "goods:\n"
        "  - {id: corn, name: corn, price: 0, barrels: 900, plantations: 10, building_needed: false}\n"
        "  - {id: indigo, name: indigo, price: 1, barrels: 700, plantations: 12}\n"
        "  - {id: sugar, name: sugar, price: 2, barrels: 700, plantations: 11}\n"
        "  - {id: tobacco, name: tobacco, price: 3, barrels: 500, plantations: 9}\n"
        "  - {id: coffee, name: coffee, price: 4, barrels: 500, plantations: 8}\n"
    )
    text = (
        f"ruleset: {ruleset}\nships: {{40: corn 30, 300: empty, 600: sugar 100}}\nplayers:\n"
        "  - {name: Anna, goods: {corn: 300, sugar: 200, indigo: 280}, buildings: [harbor, wharf]}\n"
        "  - {name: Ben, goods: {indigo: 299, coffee: 255, corn: 256}, buildings: [small warehouse]}\n"
        "  - {name: Cleo, goods: {tobacco: 400, sugar: 300, corn: 1}, buildings: [large warehouse, harbor]}\n"
    )
    phase = CaptainPhase(read_position(text, "big.yaml"))
    assert phase.cargo(phase.root) == ((0, None, 2), (30, 0, 100))
    assert [phase.goods(phase.root, p) for p in range(3)] == [(300, 280, 200, 0, 0), (256, 299, 0, 0, 255), (1, 0, 300, 400, 0)]
    load = next(step for step in phase.steps(phase.root) if step.move[0] == LOAD and step.move[1] == 2)
    assert phase.cargo(load.child) == ((0, None, 2), (30, 0, 300))  # Anna's 200 sugar on the 600
    assert phase.goods(load.child, 0) == (300, 280, 0, 0, 0)
