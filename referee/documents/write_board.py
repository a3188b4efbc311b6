"""The boards of a game as they stand, as a JSON document in the ruleset's words: the `state`
of `referee next` and `POST /api/next` (docs/next.md), which a page draws."""

from __future__ import annotations

from typing import Any

from referee.engine.game import Game


def board_state(game: Game) -> dict[str, Any]:
    """The boards as they stand, in the ruleset's words, for a page to draw (docs/next.md)."""
    rules = game.rules
    name = game.name_of
    phase = game.phase
    players = []
    for p, board in enumerate(game.boards):
        players.append(
            {
                "name": board.name,
                "governor": p == game.governor,
                "doubloons": board.doubloons,
                "vp": board.vp,
                "goods": {name(good): n for good, n in board.goods.items() if n},
                "island": [
                    {"tile": name(tile), "tiles": n, "occupied": board.manned.get(tile, 0), "circles": n if rules.has_circle(tile) else 0}
                    for tile, n in board.island.items()
                    if n
                ],
                "buildings": [
                    {"building": name(building), "colonists": colonists, "circles": rules.circles[building], "large": rules.size[building] == 2}
                    for building, colonists in board.buildings.items()
                ],
                "san_juan": board.san_juan,
                "colonists": board.colonists(),
                "city_spaces": board.city_used(rules),
                "island_spaces": board.island_filled(),
            }
        )
    return {
        "round": game.round,
        "governor": game.who(game.governor),
        "phase": name(phase.role) if phase is not None else None,
        "chooser": game.who(phase.chooser) if phase is not None else None,
        "over": game.over,
        "players": players,
        "cargo_ships": [{"size": ship.size, "good": name(ship.good) if ship.good else None, "count": ship.count} for ship in game.ships],
        "trading_house": [name(good) for good in game.trading_house],
        "trading_house_spaces": rules.model.trading_house_spaces,
        "colonist_ship": game.colonist_ship,
        "colonist_supply": game.colonist_supply,
        "vp_chips": game.vp_chips,
        "goods_supply": {name(good): n for good, n in game.goods_supply.items()},
        "face_up": [name(tile) for tile in game.face_up],
        "plantations_left": {name(tile): n for tile, n in game.deck.items() if n},  # face down: what a new row or a hacienda may draw
        "plantation_discards": {name(tile): n for tile, n in game.discards.items() if n},  # reshuffled when the stacks run out
        "quarries": game.quarries,
        "roles": [
            {"role": name(card.role), "doubloons": card.doubloons, "taken_by": game.who(card.taken_by) if card.taken_by is not None else None}
            for card in game.role_cards
        ],
        "buildings_left": {name(building): n for building, n in game.buildings_left.items() if building in game.in_game},
        "triggers": list(game.triggers),
    }
