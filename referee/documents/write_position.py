"""Writing the shipping position of a game about to play a captain phase (docs/formats/shipping-position.md):
what `referee ship` reads, taken from the game as it stands when the captain is chosen.

Reading the text back gives the same phase (the tests play the phases of whole games through the
calculator this way).
"""

from __future__ import annotations

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
