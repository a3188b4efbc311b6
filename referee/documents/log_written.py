"""A game log as written, and its records resolved from it: the one step between both readers
(`referee.documents.log`: the quick line reader and the reader of the located tree) and the
replay.

Each reader makes a `WrittenLog` (every name and move as written, each with where it is
written) and `resolve` makes the records (`GameRecord`): every name resolved (players, roles,
goods, buildings), every move parsed, each problem said once, where it is written. So a key
of the log is resolved in one place whichever reader read it: the quick reader gives up at the
first problem (`strict`), and the full reader, reading the same log again, says them all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.diagnostics import InputError, Location, Problems
from referee.documents.log_outline import PHASE_KEYS
from referee.documents.log_records import GameRecord, MoveRecord, PhaseRecord
from referee.ground.wording import did_you_mean, normalize
from referee.moves.clauses import Keep, MoveError, parse_keep, read_written
from referee.rulesets.rules import GOOD, ROLE, Rules, UnknownName

MAX_ERRORS = 50
MAX_MOVE = 1_000  # characters in one move: the longest real one has a few dozen

# a move as written: (player, move, line, column); the player None for an entry of the list
# that is not one `player: move` pair, its move then the number of its keys
WrittenMove = tuple[Any, Any, int, int]
Named = tuple[str, Location]  # a name as written, and where
# where something only a problem would point at is written: (line, column) in the log's file (a
# `Location` is made only for a problem; a log has thousands of such places and few problems)
Spot = tuple[int, int]


class WrittenSetup:
    """`setup:` as written: where it is, the first face-up row, and the violet buildings
    chosen (`buildings`: None where the key is absent or empty; `buildings_key`: where the
    key is written, None where absent; `buildings_location`: where its value is). (Plain
    classes with slots, these three, not dataclasses: making a dataclass costs every command
    that reads a log at its start-up.)"""

    __slots__ = ("buildings", "buildings_key", "buildings_location", "location", "plantations")

    def __init__(self, location: Location, plantations: list[Named], buildings: list[Named] | None, buildings_key: Spot | None, buildings_location: Location | None) -> None:
        self.location = location
        self.plantations = plantations
        self.buildings = buildings
        self.buildings_key = buildings_key
        self.buildings_location = buildings_location


class WrittenPhase:
    """One entry of `phases:` as written: its role keys (one, in a log that can be read: every
    key but a phase's own), the chooser (None: no value), its moves, and its `reveal`, `keep`
    and `doubloons` with where their keys and values are (None: the key is absent, or its
    value empty)."""

    __slots__ = ("chooser", "chooser_location", "doubloons", "doubloons_location", "keep", "keep_key", "location", "moves", "reveal", "reveal_key", "reveal_location", "role_keys")

    def __init__(
        self,
        location: Location,
        role_keys: list[tuple[str, Spot]],
        chooser: str | None,
        chooser_location: Spot,
        moves: list[WrittenMove],
        reveal: list[Named] | None = None,
        reveal_key: Spot | None = None,
        reveal_location: Location | None = None,
        keep: list[tuple[str, str, Location, Spot]] | None = None,  # (player, keep, where the player is, where the keep is)
        keep_key: Spot | None = None,
        doubloons: int | None = None,
        doubloons_location: Location | None = None,
    ) -> None:
        self.location = location
        self.role_keys = role_keys
        self.chooser = chooser
        self.chooser_location = chooser_location
        self.moves = moves
        self.reveal = reveal
        self.reveal_key = reveal_key
        self.reveal_location = reveal_location
        self.keep = keep
        self.keep_key = keep_key
        self.doubloons = doubloons
        self.doubloons_location = doubloons_location


class WrittenLog:
    """A game log as written (see the module): players, setup, phases, the result's entries
    (player, score, where), and the line after the last."""

    __slots__ = ("end_line", "file", "phases", "players", "players_location", "result", "setup")

    def __init__(
        self, file: str, players: list[str], players_location: Spot, setup: WrittenSetup, phases: list[WrittenPhase], result: list[tuple[str, int, Location]] | None, end_line: int
    ) -> None:
        self.file = file
        self.players = players
        self.players_location = players_location
        self.setup = setup
        self.phases = phases
        self.result = result
        self.end_line = end_line


class Players:
    """Player names as written in the log, matched exactly (or by case when unambiguous)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.index = {n: i for i, n in enumerate(names)}
        folded: dict[str, list[int]] = {}
        for i, n in enumerate(names):
            folded.setdefault(normalize(n), []).append(i)
        self.folded = {k: v[0] for k, v in folded.items() if len(v) == 1}

    def find(self, text: str) -> int | None:
        """The player written `text`, or None."""
        if text in self.index:
            return self.index[text]
        return self.folded.get(normalize(text))

    def unknown(self, text: str) -> str:
        """Why `text` names no player, with the likeliest one or the list."""
        hint = did_you_mean(text, {normalize(n): n for n in self.names})
        return f"'{text}' is not a player in this game{hint or ' (players: ' + ', '.join(self.names) + ')'}"


def log_problems() -> Problems:
    """The problems of a log, as the full reader collects them: at most `MAX_ERRORS`."""
    return Problems(MAX_ERRORS)


class FirstProblem(Problems):
    """Problems that stop the resolving at the first: `give_up()` is raised (the quick reader's:
    the full reader then reads the log again, and says every problem)."""

    def __init__(self, give_up: Callable[[], Exception]) -> None:
        super().__init__()
        self.give_up = give_up

    def add(self, rule: str, message: str, location: Location) -> None:
        raise self.give_up()


def resolve(written: WrittenLog, rules: Rules, problems: Problems) -> GameRecord:
    """The records of `written` under `rules`: every name resolved and every move parsed;
    InputError with every problem (`problems` collects them, in the order of the log)."""
    file = written.file
    names = written.players
    players = Players(names)
    refused = rules.not_for(len(names), span=True)
    if refused is not None:
        problems.add("log.players", refused, Location(file, *written.players_location))

    setup = written.setup
    plantations = _plantations(setup.plantations, "the first face-up row", rules, problems)
    if rules.model.selection is not None and setup.buildings is None:
        problems.add("log.schema", f"setup.buildings is required with the {rules.id} ruleset: the violet buildings chosen for this game", setup.location)
    elif rules.model.selection is None and setup.buildings_key is not None:
        problems.add("log.schema", f"setup.buildings is only for rulesets that choose buildings before the game; {rules.id} uses them all", Location(file, *setup.buildings_key))
    buildings = None
    building_locations: list[Location] = []
    if setup.buildings is not None:
        buildings = []
        for name, location in setup.buildings:
            try:
                buildings.append(rules.lookup(name, ("building",))[1])
                building_locations.append(location)
            except UnknownName as exc:
                problems.add("log.unknown-name", str(exc), location)

    phases = []
    for entry in written.phases:
        record = _phase(entry, rules, players, problems, file)
        if record is not None:
            phases.append(record)

    result = None
    if written.result is not None:
        result = {}
        for name, score, location in written.result:
            p = players.find(name)
            if p is None:
                problems.add("log.unknown-player", f"result: {players.unknown(name)}", location)
            else:
                result[p] = (score, location)
    if problems.items:
        raise InputError(problems.items)
    return GameRecord(
        file=file,
        rules=rules,
        players=names,
        plantations=plantations,
        setup_location=setup.location,
        buildings=buildings,
        buildings_location=setup.buildings_location,
        building_locations=tuple(building_locations),
        phases=tuple(phases),
        result=result,
        end_location=Location(file, written.end_line, 1),
    )


def _plantations(written: list[Named], row: str, rules: Rules, problems: Problems) -> list[str]:
    """A face-up row of plantations as written (the first, or a settler phase's new one, named
    `row` in a problem), each resolved to its good."""
    plantations: list[str] = []
    for name, location in written:
        try:
            plantations.append(rules.lookup(name, (GOOD,))[1])
        except UnknownName as exc:
            problems.add("log.unknown-name", f"{row}: {exc}".replace("unknown good", f"unknown {rules.terms.plantation[0]}"), location)
    return plantations


def _phase(entry: WrittenPhase, rules: Rules, players: Players, problems: Problems, file: str) -> PhaseRecord | None:
    """One phase's record (None where its role or chooser cannot be read: said in `problems`)."""
    role_keys = entry.role_keys
    if len(role_keys) != 1:
        if not role_keys:
            problems.add("log.phase", f"a phase entry needs its role first, as `<role>: <player>` (e.g. `{rules.name('settler')}: {players.names[0]}`)", entry.location)
        else:
            roles = [k for k, _ in role_keys if rules.find(k, (ROLE,)) is not None]
            others = [(k, where) for k, where in role_keys if k not in roles]
            if len(roles) <= 1 and others:  # a key that is not a role: unknown, not a second role
                for key, where in others:
                    hint = did_you_mean(key, {k: k for k in PHASE_KEYS}) or f" (a phase has its role, then {', '.join(PHASE_KEYS[:-1])} or {PHASE_KEYS[-1]})"
                    problems.add("log.phase", f"unknown key '{key}' in a phase entry{hint}", Location(file, *where))
            else:
                problems.add("log.phase", f"a phase entry takes one role; this one has {len(role_keys)}: {', '.join(k for k, _ in role_keys)}", Location(file, *role_keys[1][1]))
        return None
    key, key_spot = role_keys[0]
    try:
        role = rules.lookup(key, (ROLE,))[1]
    except UnknownName as exc:
        hint = str(exc)
        if normalize(key) in ("mover", "move"):
            hint += " (the moves of a phase go under `moves:`)"
        problems.add("log.unknown-name", hint, Location(file, *key_spot))
        return None
    chooser = players.find(entry.chooser) if entry.chooser is not None else None
    if chooser is None:
        problems.add("log.unknown-player", f"{rules.name(role)}: {players.unknown(entry.chooser or '')}", Location(file, *entry.chooser_location))
    moves = _moves(entry.moves, role, rules, players, problems, file) if entry.moves else ()
    reveal = None
    if entry.reveal is not None:
        if role != "settler":
            problems.add("log.phase", f"'reveal' belongs to a {rules.name('settler')} phase, not a {rules.name(role)} phase", Location(file, *entry.reveal_key) if entry.reveal_key else entry.location)
        reveal = _plantations(entry.reveal, "reveal", rules, problems)
    keep: dict[int, Keep] | None = None
    keep_locations: dict[int, Location] = {}
    if entry.keep is not None:
        if role != "captain":
            problems.add("log.phase", f"'keep' belongs to a {rules.name('captain')} phase, not a {rules.name(role)} phase", Location(file, *entry.keep_key) if entry.keep_key else entry.location)
        keep = {}
        for name, kept, name_location, kept_location in entry.keep:
            p = players.find(name)
            if p is None:
                problems.add("log.unknown-player", f"keep: {players.unknown(name)}", name_location)
                continue
            try:
                keep[p] = parse_keep(kept, rules)
            except MoveError as exc:
                problems.add("log.move", f"keep: {name}: {exc}", Location(file, *kept_location))
                continue
            keep_locations[p] = name_location
    if chooser is None:
        return None
    return PhaseRecord(
        role=role,
        chooser=chooser,
        location=entry.location,
        moves=moves,
        reveal=reveal,
        reveal_location=entry.reveal_location,
        keep=keep,
        keep_locations=keep_locations,
        doubloons=entry.doubloons,
        doubloons_location=entry.doubloons_location,
    )


def _moves(written: list[WrittenMove], role: str, rules: Rules, players: Players, problems: Problems, file: str) -> tuple[MoveRecord, ...]:
    """The moves of a phase, each `player: move` (a log's thousands of moves: the loop is kept
    tight; a player's name exactly as written is the usual case, looked up first)."""
    moves: list[MoveRecord] = []
    index, find, memo = players.index, players.find, rules.memo
    for name, text, line, column in written:
        player = index.get(name)
        if player is None:
            if name is None:  # not one `player: move` pair: `text` is its number of keys
                problems.add("log.move", f"each move is one `player: move` pair, not {text} keys", Location(file, line, column))
                continue
            player = find(name)
            if player is None:
                problems.add("log.unknown-player", players.unknown(name), Location(file, line, column))
                continue
        if len(text) > MAX_MOVE:
            problems.add("log.move", f"{name}: a move of {len(text):,} characters; a move is a few clauses (at most {MAX_MOVE:,} characters)", Location(file, line, column))
            continue
        remembered = memo.get((role, text))  # `read_written`'s memo, looked in first: most moves of a log are texts read before
        try:
            guests, move = remembered if type(remembered) is tuple else read_written(role, text, rules)
        except MoveError as exc:
            problems.add("log.move", f"{name}: {exc}", Location(file, line, column))
            continue
        moves.append(MoveRecord(player, move, file, line, column, guests))
    return tuple(moves)
