"""Writing the shipping position of a game about to play a captain phase (docs/formats/shipping-position.md):
what `referee ship` reads, taken from the game as it stands when the captain is chosen.

Reading the text back gives the same phase (the tests play the phases of whole games through the
calculator this way).
"""

from __future__ import annotations

from referee.diagnostics import Location
from referee.documents.position import PlayerRecord, Position, ShipRecord
from referee.documents.write import scalar
from referee.engine.game import Game


def captain_position(game: Game, captain: int) -> str:
    """The shipping position of `game` with `captain` about to take the captain's role: the
    cargo ships, the VP chips left, and each player's barrels and occupied buildings, clockwise
    from the captain."""
    rules = game.rules
    ships = ", ".join(f"{ship.size}: " + (f"{rules.name(ship.good)} {ship.count}" if ship.good is not None and ship.count else "empty") for ship in game.ships)
    lines = [f"ruleset: {scalar(rules.id)}", f"ships: {{{ships}}}", f"vp_left: {game.vp_chips}", "players:"]
    for p in ((captain + i) % game.n for i in range(game.n)):
        board = game.boards[p]
        goods = ", ".join(f"{rules.name(good)}: {held}" for good, held in board.goods.items() if held)
        buildings = ", ".join(rules.name(building) for building, colonists in board.buildings.items() if colonists)
        lines.append(f"  - {{name: {scalar(board.name)}, goods: {{{goods}}}, buildings: [{buildings}]}}")
    return "\n".join(lines) + "\n"


def game_position(game: Game, captain: int, file: str) -> Position:
    """The same position as `captain_position`, as the value `read_position` would read from its
    text (no text written and read back: `referee review` takes one at every captain phase);
    its locations are the file's first line."""
    where = Location(file, 1, 1)
    ships = tuple(ShipRecord(ship.size, ship.good if ship.good is not None and ship.count else None, ship.count if ship.good is not None else 0) for ship in game.ships)
    players = []
    for p in ((captain + i) % game.n for i in range(game.n)):
        board = game.boards[p]
        goods = {good: board.goods[good] for good in game.rules.goods if board.goods.get(good, 0) > 0}
        buildings = tuple(building for building, colonists in board.buildings.items() if colonists)
        players.append(PlayerRecord(board.name, goods, buildings, where))
    return Position(file, game.rules, ships, tuple(players), game.vp_chips, where)
