"""A game log's records, read and resolved (`referee.documents.log.read_log`): the replay's input."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.diagnostics import Location

if TYPE_CHECKING:
    from referee.moves.clauses import AnyMove, Keep
    from referee.rulesets.rules import Rules


class _Record:
    """The records of a log: plain classes with slots, each field set by its `__init__`, equal
    when their fields are. Not dataclasses: making one costs every command that reads a log a
    third of a millisecond of its start-up (three of them, 1% of `referee validate`'s); not frozen:
    a log has hundreds of records, and a frozen one is made three times as slowly (each field set
    through object.__setattr__). Nothing changes a record once read."""

    __slots__: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # (records hold lists)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"{type(self).__name__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self.__slots__)})"


class MoveRecord(_Record):
    """One move of a phase: who, what, where it is written (`location`, made when asked for:
    only a move that breaks a rule is), and the guest-house colonists moved first (expansion)."""

    __slots__ = ("column", "file", "guests", "line", "move", "player")

    def __init__(self, player: int, move: AnyMove, file: str, line: int, column: int, guests: tuple[str, ...] = ()) -> None:
        # (each field by itself: an assignment of a tuple of fields builds the tuple, for every move of a log)
        self.player = player
        self.move = move
        self.file = file
        self.line = line
        self.column = column
        self.guests = guests

    @property
    def location(self) -> Location:
        """Where the move is written."""
        return Location(self.file, self.line, self.column)


class PhaseRecord(_Record):
    """One phase entry of the log."""

    __slots__ = ("chooser", "doubloons", "doubloons_location", "keep", "keep_locations", "location", "moves", "reveal", "reveal_location", "role")

    def __init__(
        self,
        role: str,
        chooser: int,
        location: Location,
        moves: tuple[MoveRecord, ...],
        reveal: list[str] | None,
        reveal_location: Location | None,
        keep: dict[int, Keep] | None,
        keep_locations: dict[int, Location],
        doubloons: int | None,
        doubloons_location: Location | None,
    ) -> None:
        self.role = role
        self.chooser = chooser
        self.location = location
        self.moves = moves
        self.reveal = reveal
        self.reveal_location = reveal_location
        self.keep = keep
        self.keep_locations = keep_locations
        self.doubloons = doubloons
        self.doubloons_location = doubloons_location


class GameRecord(_Record):
    """A game log, read and resolved: the replay's input."""

    __slots__ = (
        "building_locations",  # of each item of `buildings`
        "buildings",
        "buildings_location",
        "end_location",
        "file",
        "phases",
        "plantations",
        "players",
        "result",
        "rules",
        "setup_location",
    )

    def __init__(
        self,
        file: str,
        rules: Rules,
        players: list[str],
        plantations: list[str],
        setup_location: Location,
        buildings: list[str] | None,
        buildings_location: Location | None,
        building_locations: tuple[Location, ...],
        phases: tuple[PhaseRecord, ...],
        result: dict[int, tuple[int, Location]] | None,
        end_location: Location,
    ) -> None:
        self.file, self.rules, self.players, self.plantations, self.setup_location = file, rules, players, plantations, setup_location
        self.buildings, self.buildings_location, self.building_locations = buildings, buildings_location, building_locations
        self.phases, self.result, self.end_location = phases, result, end_location

    @property
    def moves(self) -> int:
        """Moves and role choices in the log."""
        return sum(len(p.moves) + 1 for p in self.phases)
