"""The game log (docs/formats/game-log.md): its schema model, and reading it into located records.

Reading never decides legality: it checks the document's shape, resolves every name (players,
roles, goods, buildings) and parses every move clause; the replay then plays the moves.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, Location, in_order
from referee.documents.log_outline import PHASE_KEYS, TOP_KEYS, log_outline
from referee.ground.collector import collection_paused
from referee.ground.wording import did_you_mean, normalize
from referee.located.tree import (
    LONGEST_KEY,
    MAX_BYTES,
    MAX_DIGITS,
    Beyond,
    YNode,
    _plain,
    decode,
    flow_entries,
    flow_words,
    quick_lines,
    read_yaml,
)
from referee.moves.clauses import AnyMove, Keep, MoveError, parse_keep, read_written
from referee.rulesets.load import load_ruleset, ruleset_of, supply_ruleset
from referee.rulesets.rules import GOOD, ROLE, Rules, UnknownName

MAX_ERRORS = 50

MAX_MOVE = 1_000  # characters in one move: the longest real one has a few dozen


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
        self.player, self.move, self.file, self.line, self.column, self.guests = player, move, file, line, column, guests

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
        self.role, self.chooser, self.location, self.moves = role, chooser, location, moves
        self.reveal, self.reveal_location, self.keep, self.keep_locations = reveal, reveal_location, keep, keep_locations
        self.doubloons, self.doubloons_location = doubloons, doubloons_location


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


class _Errors:
    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def add(self, rule: str, message: str, location: Location) -> None:
        if len(self.items) < MAX_ERRORS:
            self.items.append(Diagnostic(rule, message, location, READ_ERROR))


def read_log(data: bytes | str, file: str, ruleset: str | None = None, base_dir: Path | None = None) -> GameRecord:
    """Read a game log; InputError (exit 2) with every problem found, each positioned."""
    with collection_paused():
        return _read(data, file, ruleset, base_dir)


def _read(data: bytes | str, file: str, ruleset: str | None, base_dir: Path | None) -> GameRecord:
    text = decode(data, file) if isinstance(data, bytes) else data
    if len(text) <= MAX_BYTES:  # (in ASCII, as the quick log reader reads, a character is a byte)
        quick = _quick_log(text, file, ruleset, base_dir)
        if quick is not None:
            return quick
    root = read_yaml(text, file, log_outline)
    if not root.is_map:
        raise InputError([Diagnostic("log.not-a-mapping", "a game log is a mapping with ruleset, players, setup and phases", root.location, READ_ERROR)])
    supply_ruleset(root, ruleset)
    players = root.value.get("players")
    if players is not None and players.is_map and "phases" not in root.value:
        message = "this is a score sheet (players by name, each with chips ...), not a game log: score it with `referee score --sheet`"
        raise InputError([Diagnostic("log.is-a-sheet", message, root.key_location("players"), READ_ERROR)])
    if not _plainly_valid(root):  # the model speaks for every problem of shape
        from referee.documents.kind import LOG, refuse_wrong_command

        refuse_wrong_command(root, data, LOG, file, "log")  # a position or a ruleset: the command that reads it, not every key a log lacks
        # pydantic's model machinery is imported only here, off the happy path (start-up time)
        from referee.documents.log_model import GameLogModel
        from referee.documents.log_shape import shape_mistakes
        from referee.located.model_check import validate

        explained = shape_mistakes(root)
        try:
            validate(GameLogModel, root.plain(), root, "log.schema", "a game log")
        except InputError as exc:
            lines = {d.location.line for d in explained if d.location is not None}
            rest = [d for d in exc.diagnostics if d.location is None or d.location.line not in lines]
            raise InputError(in_order(explained + rest)) from None
        if explained:
            raise InputError(explained)
    rules = ruleset_of(root, ruleset, base_dir)
    return _resolve(root, rules, file)


def _str(node: YNode | None) -> bool:
    return node is not None and isinstance(node.value, str)


def _strs(node: YNode | None) -> bool:
    return node is not None and isinstance(node.value, list) and all(_str(n) for n in node.value)


def _pairs_of_words(moves: object) -> bool:
    """Is `moves` a list of mappings of words (as `moves:` is), looked at in a plain loop: a log has
    thousands of moves."""
    if not isinstance(moves, list):
        return False
    for move in moves:
        pairs = move.value
        if not isinstance(pairs, dict):
            return False
        for text in pairs.values():
            if not isinstance(text.value, str):
                return False
    return True


def _plainly_valid(root: YNode) -> bool:
    """A quick, stricter-than-the-model look at a log's shape (keys, types), so that a well-formed
    log skips building the model's validator; anything unusual goes to `GameLogModel`."""
    doc = root.value
    if not isinstance(doc, dict) or not {"ruleset", "players", "setup", "phases"} <= doc.keys() <= set(TOP_KEYS):
        return False
    ruleset, setup, phases = doc["ruleset"].value, doc["setup"], doc["phases"]
    if isinstance(ruleset, bool) or not isinstance(ruleset, (str, int)) or not _strs(doc["players"]) or not doc["players"].value:
        return False
    names = [n.value for n in doc["players"].value]
    if len(set(names)) != len(names) or not all(n.strip() for n in names):
        return False
    meta, result = doc.get("meta"), doc.get("result")
    if meta is not None and not isinstance(meta.value, dict):
        return False
    if result is not None and not (isinstance(result.value, dict) and all(type(v.value) is int for v in result.value.values())):
        return False
    if not isinstance(setup.value, dict) or not set(setup.value) <= {"plantations", "buildings"} or not _strs(setup.value.get("plantations")):
        return False
    if "buildings" in setup.value and not _strs(setup.value["buildings"]):
        return False
    if not isinstance(phases.value, list):
        return False
    for entry in phases.value:
        if not isinstance(entry.value, dict) or not entry.value:
            return False
        for key, node in entry.value.items():
            if key == "moves":
                if not _pairs_of_words(node.value):
                    return False
            elif key == "reveal":
                if not _strs(node):
                    return False
            elif key == "keep":
                if not isinstance(node.value, dict) or not all(_str(v) for v in node.value.values()):
                    return False
            elif key == "doubloons":
                if type(node.value) is not int or node.value < 0:
                    return False
            elif not _str(node):
                return False
    return True


def _check_selection_key(rules: Rules, setup: YNode, errors: _Errors) -> None:
    """`setup.buildings` is required with a ruleset that selects buildings, and refused without."""
    node = setup.value.get("buildings")
    if rules.model.selection is not None and (node is None or node.value is None):
        errors.add("log.schema", f"setup.buildings is required with the {rules.id} ruleset: the violet buildings chosen for this game", setup.location)
    elif rules.model.selection is None and node is not None:
        errors.add("log.schema", f"setup.buildings is only for rulesets that choose buildings before the game; {rules.id} uses them all", setup.key_location("buildings"))


class _Players:
    """Player names as written in the log, matched exactly (or by case when unambiguous)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.index = {n: i for i, n in enumerate(names)}
        folded: dict[str, list[int]] = {}
        for i, n in enumerate(names):
            folded.setdefault(normalize(n), []).append(i)
        self.folded = {k: v[0] for k, v in folded.items() if len(v) == 1}

    def find(self, text: str) -> int | None:
        if text in self.index:
            return self.index[text]
        return self.folded.get(normalize(text))

    def unknown(self, text: str) -> str:
        hint = did_you_mean(text, {normalize(n): n for n in self.names})
        return f"'{text}' is not a player in this game{hint or ' (players: ' + ', '.join(self.names) + ')'}"


def _resolve(root: YNode, rules: Rules, file: str) -> GameRecord:
    errors = _Errors()
    doc = root.value
    names = [n.text() for n in doc["players"].value]
    players = _Players(names)
    refused = rules.not_for(len(names), span=True)
    if refused is not None:
        errors.add("log.players", refused, doc["players"].location)

    setup = doc["setup"]
    plantations: list[str] = []
    for node in setup.value["plantations"].value:
        try:
            plantations.append(rules.lookup(node.text(), (GOOD,))[1])
        except UnknownName as exc:
            errors.add("log.unknown-name", f"the first face-up row: {exc}".replace("unknown good", f"unknown {rules.terms.plantation[0]}"), node.location)
    _check_selection_key(rules, setup, errors)
    buildings = None
    building_locations: list[Location] = []
    buildings_node = setup.value.get("buildings")
    if buildings_node is not None and buildings_node.value is not None:
        buildings = []
        for node in buildings_node.value:
            try:
                buildings.append(rules.lookup(node.text(), ("building",))[1])
                building_locations.append(node.location)
            except UnknownName as exc:
                errors.add("log.unknown-name", str(exc), node.location)

    phases = []
    for entry in doc["phases"].value:
        record = _phase(entry, rules, players, errors)
        if record is not None:
            phases.append(record)

    result = None
    result_node = doc.get("result")
    if result_node is not None and result_node.value is not None:
        result = {}
        for key, node in result_node.value.items():
            p = players.find(key)
            if p is None:
                errors.add("log.unknown-player", f"result: {players.unknown(key)}", result_node.key_location(key))
            else:
                result[p] = (int(node.value), result_node.key_location(key))
    if errors.items:
        raise InputError(errors.items)
    end = Location(file, _last_line(root) + 1, 1)
    return GameRecord(
        file=file,
        rules=rules,
        players=names,
        plantations=plantations,
        setup_location=setup.location,
        buildings=buildings,
        buildings_location=buildings_node.location if buildings_node is not None else None,
        building_locations=tuple(building_locations),
        phases=tuple(phases),
        result=result,
        end_location=end,
    )


def _last_line(node: YNode) -> int:
    """The line of the last node of the document: nodes come in the order they are written,
    so it is the last child's last child ..., not a walk of the whole tree."""
    while True:
        children = node.value
        if isinstance(children, dict) and children:
            node = next(reversed(children.values()))
        elif isinstance(children, list) and children:
            node = children[-1]
        else:
            return node.line


def _is_role(rules: Rules, key: str) -> bool:
    try:
        rules.lookup(key, (ROLE,))
    except UnknownName:
        return False
    return True


def _moves(items: list[YNode], role: str, rules: Rules, players: _Players, errors: _Errors) -> tuple[MoveRecord, ...]:
    """The moves of a phase, each `player: move` (a log's thousands of moves: the loop is kept tight)."""
    moves: list[MoveRecord] = []
    find = players.find
    for item in items:
        pairs = item.value
        if len(pairs) != 1:
            errors.add("log.move", f"each move is one `player: move` pair, not {len(pairs)} keys", item.location)
            continue
        ((name, text_node),) = pairs.items()
        player = find(name)
        if player is None:
            errors.add("log.unknown-player", players.unknown(name), item.location)
            continue
        written = text_node.text()
        if len(written) > MAX_MOVE:
            errors.add("log.move", f"{name}: a move of {len(written):,} characters; a move is a few clauses (at most {MAX_MOVE:,} characters)", item.location)
            continue
        try:
            guests, move = read_written(role, written, rules)
        except MoveError as exc:
            errors.add("log.move", f"{name}: {exc}", item.location)
            continue
        moves.append(MoveRecord(player, move, item.file, item.line, item.column, guests))
    return tuple(moves)


def _phase(entry: YNode, rules: Rules, players: _Players, errors: _Errors) -> PhaseRecord | None:
    role_keys = [k for k in entry.value if k not in PHASE_KEYS]
    if len(role_keys) != 1:
        if not role_keys:
            errors.add("log.phase", f"a phase entry needs its role first, as `<role>: <player>` (e.g. `{rules.name('settler')}: {players.names[0]}`)", entry.location)
        else:
            roles = [k for k in role_keys if _is_role(rules, k)]
            others = [k for k in role_keys if k not in roles]
            if len(roles) <= 1 and others:  # a key that is not a role: unknown, not a second role
                for key in others:
                    hint = did_you_mean(key, {k: k for k in PHASE_KEYS}) or f" (a phase has its role, then {', '.join(PHASE_KEYS[:-1])} or {PHASE_KEYS[-1]})"
                    errors.add("log.phase", f"unknown key '{key}' in a phase entry{hint}", entry.key_location(key))
            else:
                errors.add("log.phase", f"a phase entry takes one role; this one has {len(role_keys)}: {', '.join(role_keys)}", entry.key_location(role_keys[1]))
        return None
    key = role_keys[0]
    try:
        role = rules.lookup(key, (ROLE,))[1]
    except UnknownName as exc:
        hint = str(exc)
        if normalize(key) in ("mover", "move"):
            hint += " (the moves of a phase go under `moves:`)"
        errors.add("log.unknown-name", hint, entry.key_location(key))
        return None
    chooser_node = entry.value[key]
    chooser = players.find(chooser_node.text()) if chooser_node.value is not None else None
    if chooser is None:
        errors.add("log.unknown-player", f"{rules.name(role)}: {players.unknown(chooser_node.text() if chooser_node.value is not None else '')}", chooser_node.location)
    moves_node = entry.value.get("moves")
    moves = _moves(moves_node.value, role, rules, players, errors) if moves_node is not None and moves_node.value is not None else ()
    reveal = None
    reveal_node = entry.value.get("reveal")
    if reveal_node is not None and reveal_node.value is not None:
        if role != "settler":
            errors.add("log.phase", f"'reveal' belongs to a {rules.name('settler')} phase, not a {rules.name(role)} phase", entry.key_location("reveal"))
        reveal = []
        for node in reveal_node.value:
            try:
                reveal.append(rules.lookup(node.text(), (GOOD,))[1])
            except UnknownName as exc:
                errors.add("log.unknown-name", f"reveal: {exc}".replace("unknown good", f"unknown {rules.terms.plantation[0]}"), node.location)
    keep = None
    keep_locations: dict[int, Location] = {}
    keep_node = entry.value.get("keep")
    if keep_node is not None and keep_node.value is not None:
        if role != "captain":
            errors.add("log.phase", f"'keep' belongs to a {rules.name('captain')} phase, not a {rules.name(role)} phase", entry.key_location("keep"))
        keep = {}
        for name, node in keep_node.value.items():
            p = players.find(name)
            if p is None:
                errors.add("log.unknown-player", f"keep: {players.unknown(name)}", keep_node.key_location(name))
                continue
            try:
                keep[p] = parse_keep(node.text(), rules)
            except MoveError as exc:
                errors.add("log.move", f"keep: {name}: {exc}", node.location)
                continue
            keep_locations[p] = keep_node.key_location(name)
    doubloons_node = entry.value.get("doubloons")
    doubloons = doubloons_node.value if doubloons_node is not None else None
    if chooser is None:
        return None
    return PhaseRecord(
        role=role,
        chooser=chooser,
        location=entry.location,
        moves=moves,
        reveal=reveal,
        reveal_location=reveal_node.location if reveal_node is not None else None,
        keep=keep,
        keep_locations=keep_locations,
        doubloons=doubloons,
        doubloons_location=doubloons_node.location if doubloons_node is not None else None,
    )


# The quick log reader. A log written as logs are written (`referee play`, the corpus, most logs
# by hand: the quick reader's part of YAML, `players:` and the lists of names in brackets, each
# phase `- role: player` with its keys under it) is read a line at a time straight into its
# records, without the tree of located nodes: that tree, about a thousand nodes a log, was half
# of the cost of reading one. The lines are those of the quick reader (`_LINES`), read as it
# reads them (values, lines and columns); anything else, and any problem found (a name unknown,
# a move that cannot be read, a ruleset that cannot be loaded), and the full reader reads the
# document again, so that every message is its own.


class _Other(Beyond):
    """Not a log the quick log reader reads: the full reader reads it (and says any problem)."""


_Line = tuple[str, str, str, str, str]  # the groups of `_LINES`, one line: indentation, dash, key, spaces, value


_PLAIN_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")  # a plain word starting with a letter ...
_NOT_TEXT = frozenset(("null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"))  # ... is text but for these (`_plain`)


def _text(written: str) -> str:
    """The text of a scalar value that must be a string (a name, a move), as the quick reader
    reads it: a quoted value's inside, a plain word itself; _Other for a number, a boolean, a
    null, a list or a mapping."""
    first = written[0]
    if first == '"' or first == "'":
        return written[1:-1]
    if first == "[" or first == "{" or type(_plain(written)) is not str:
        raise _Other
    return written


def _words(written: str, line: int, column: int, file: str) -> tuple[list[str], list[Location]]:
    """The strings of a list in brackets written at `column`, and where each is; _Other for
    anything else (a number in it, a mapping)."""
    if written[0] != "[":
        raise _Other
    words: list[str] = []
    places: list[Location] = []
    for word, at in flow_words(written):
        if type(_plain(word)) is not str:
            raise _Other
        words.append(word)
        places.append(Location(file, line, column + at))
    return words, places


def _any_value(written: str) -> str:
    """A value of `meta`, any the quick reader reads as the parser does: no key written twice in
    a mapping in braces, no number too long to read."""
    if written[0] == "{":
        for _, value, _, _ in flow_entries(written):
            _any_value(value)
    elif written[0] == "[":
        for word, _ in flow_words(written):
            _any_value(word)
    elif len(written) > MAX_DIGITS and written.isdigit():
        raise _Other
    return written


def _flow_pairs(written: str, line: int, column: int) -> list[tuple[str, str, int]]:
    """The entries of a mapping in braces written at `column`: (key, value as written, the
    key's column); Beyond for a key written twice or too long (`flow_entries`)."""
    return [(key, value, column + at) for key, value, at, _ in flow_entries(written)]


def _quick_log(text: str, file: str, override: str | None, base_dir: Path | None) -> GameRecord | None:
    """The record of a log the quick log reader reads, None for any other (see above)."""
    lines = quick_lines(text)
    if lines is None:
        return None
    try:
        return _QuickLog(file, lines).record(override, base_dir)
    except Beyond:  # `_Other`, or a flow value beyond the quick reader
        return None


class _QuickLog:
    """One log read by the quick log reader: its lines, then its records."""

    def __init__(self, file: str, lines: list[_Line]) -> None:
        self.file = file
        self.lines = lines
        self.count = len(lines)
        self.at = 0  # the line read next (0-based)
        self.last = 0  # the number of the last line with a value: the end of the document is the line after

    def next_line(self) -> tuple[int, _Line] | None:
        """The next line with content (not blank, not only a comment), and its number; None at the end."""
        lines, at, count = self.lines, self.at, self.count
        while at < count:
            line = lines[at]
            at += 1
            if line[1] or line[2]:
                self.at = at
                self.last = at
                return at, line
            if line[4]:
                raise _Other  # a value alone on its line
        self.at = at
        return None

    def back(self) -> None:
        """The line read last is read again next."""
        self.at = self.last - 1

    def record(self, override: str | None, base_dir: Path | None) -> GameRecord:
        """Read the top-level keys, then resolve: the record, or _Other."""
        file = self.file
        seen: set[str] = set()
        ruleset: str | None = None
        players: list[str] | None = None
        setup: tuple[Location, list[str], list[str] | None, Location | None, list[Location]] | None = None
        phases: list[tuple[Any, ...]] | None = None
        result: list[tuple[str, Any, Location]] | None = None
        while (found := self.next_line()) is not None:
            number, (spaces, dash, key, gap, written) = found
            if spaces or dash or key in seen or key not in TOP_KEYS:
                raise _Other
            seen.add(key)
            column = len(key) + len(gap) + 2  # of a value on the key's line
            if key == "ruleset":
                if not written:
                    raise _Other
                if written[0] in "'\"":
                    ruleset = written[1:-1]
                else:
                    value = _plain(written) if written[0] not in "[{" and len(written) <= MAX_DIGITS else None
                    if isinstance(value, bool) or not isinstance(value, (str, int)):
                        raise _Other
                    ruleset = written
            elif key == "players":
                if not written:
                    raise _Other
                players = _words(written, number, column, file)[0]
            elif key == "setup":
                if written:
                    raise _Other
                setup = self.setup()
            elif key == "phases":
                if written:
                    raise _Other
                phases = self.phases()
            elif key == "meta":
                self.flow_or_block(written, number, column, _any_value)
            else:  # result
                result = self.flow_or_block(written, number, column, self.result_value)
        if ruleset is None:
            ruleset = override
        if ruleset is None or players is None or setup is None or phases is None:
            raise _Other
        if not players or len(set(players)) != len(players) or not all(name.strip() and len(name) <= LONGEST_KEY for name in players):
            raise _Other
        try:
            rules = load_ruleset(override) if override is not None else load_ruleset(ruleset, base_dir)
        except InputError:
            raise _Other from None
        return self.resolve(rules, players, setup, phases, result)

    def next_in_block(self, indent: int) -> tuple[int, _Line] | None:
        """The block's next line (indented as `indent`), or None where the block ends (the line
        after it is given back); a line indented deeper is for the full reader."""
        found = self.next_line()
        if found is None:
            return None
        if len(found[1][0]) != indent:
            if len(found[1][0]) > indent:
                raise _Other
            self.back()
            return None
        return found

    def block(self, indent_above: int) -> tuple[int, int, _Line]:
        """The first line of a list or mapping under a `key:` indented `indent_above`: its
        number, its indentation and the line; _Other when it is not indented under the key."""
        found = self.next_line()
        if found is None:
            raise _Other
        number, line = found
        indent = len(line[0])
        if indent <= indent_above:
            raise _Other
        return number, indent, line

    def setup(self) -> tuple[Location, list[str], list[str] | None, Location | None, list[Location]]:
        """`setup:`'s mapping: where it is, the plantations, the buildings (where they are)."""
        file = self.file
        number, indent, line = self.block(0)
        location = Location(file, number, indent + 1)
        plantations: list[str] | None = None
        buildings: list[str] | None = None
        buildings_location: Location | None = None
        building_locations: list[Location] = []
        while True:
            spaces, dash, key, gap, written = line
            if dash or len(spaces) != indent or not written:
                raise _Other
            column = indent + len(key) + len(gap) + 2
            if key == "plantations" and plantations is None:
                plantations = _words(written, number, column, file)[0]
            elif key == "buildings" and buildings is None:
                buildings, building_locations = _words(written, number, column, file)
                buildings_location = Location(file, number, column)
            else:
                raise _Other
            found = self.next_line()
            if found is None:
                break
            number, line = found
            if not line[0]:
                self.back()
                break
        if plantations is None:
            raise _Other
        return location, plantations, buildings, buildings_location, building_locations

    def phases(self) -> list[tuple[Any, ...]]:
        """`phases:`'s list, each entry (location, role key, chooser, moves, reveal, keep,
        doubloons) as written."""
        file = self.file
        number, indent, line = self.block(0)
        phases = []
        while True:
            spaces, dash, role, _, chooser = line
            if not dash or len(spaces) != indent or not role or not chooser or role in PHASE_KEYS or len(role) > LONGEST_KEY:
                raise _Other
            keys_at = indent + len(dash)  # the indentation of the entry's keys
            location = Location(file, number, keys_at + 1)
            chooser = _text(chooser)
            moves: list[tuple[str, str, int, int]] | None = None
            reveal: tuple[list[str], Location] | None = None
            keep: list[tuple[str, str, Location]] | None = None
            doubloons: tuple[int, Location] | None = None
            while True:
                found = self.next_line()
                if found is None:
                    break
                number, line = found
                spaces, dash, key, gap, written = line
                if len(spaces) != keys_at or dash:
                    break
                column = keys_at + len(key) + len(gap) + 2
                if key == "moves" and moves is None:
                    if written == "[]":
                        moves = []
                    elif written:
                        raise _Other
                    else:
                        moves = self.moves(keys_at)
                elif key == "reveal" and reveal is None:
                    if not written:
                        raise _Other
                    reveal = (_words(written, number, column, file)[0], Location(file, number, column))
                elif key == "keep" and keep is None:
                    keep = self.flow_or_block(written, number, column, _text, keys_at)
                elif key == "doubloons" and doubloons is None:
                    value = _plain(written) if written and written[0] not in "'\"[{" and len(written) <= MAX_DIGITS else None
                    if type(value) is not int or value < 0:
                        raise _Other
                    doubloons = (value, Location(file, number, column))
                else:
                    raise _Other
            phases.append((location, role, chooser, moves, reveal, keep, doubloons))
            if found is None:
                return phases
            if not line[0]:
                self.back()
                return phases
            if not line[1] or len(line[0]) != indent:
                raise _Other

    def moves(self, keys_at: int) -> list[tuple[str, str, int, int]]:
        """A phase's `moves:` list: (player as written, move as written, the move's line and column)."""
        number, indent, line = self.block(keys_at)
        spaces_of, dash_of = line[0], line[1]  # the moves of a list are indented alike and dashed alike (else: the full reader)
        column = indent + len(dash_of) + 1
        moves = []
        lines, count = self.lines, len(self.lines)
        while True:
            spaces, dash, name, _, written = line
            if spaces != spaces_of or dash != dash_of or not dash or not name or not written:
                raise _Other  # (a name longer than a key may be is not a player's: `resolve` looks)
            first = written[0]
            if first in _PLAIN_FIRST:  # most moves: a plain word that is text unless it is one of YAML's constants
                if written in _NOT_TEXT:
                    raise _Other
            else:
                written = _text(written)
            moves.append((name, written, number, column))
            # the next line: most often the next move, read here without `next_line`
            at = self.at
            if at < count and (following := lines[at])[0] == spaces_of and following[1]:
                self.at = self.last = at + 1
                number, line = at + 1, following
                continue
            found = self.next_in_block(indent)  # (deeper: a second key of the move, or a line indented like nothing open)
            if found is None:
                return moves
            number, line = found

    def result_value(self, written: str) -> int:
        """A result's value: a whole number."""
        value = _plain(written) if written[0] not in "'\"[{" and len(written) <= MAX_DIGITS else None
        if type(value) is not int:
            raise _Other
        return value

    def flow_or_block(self, written: str, number: int, column: int, read: Callable[[str], Any], keys_at: int = 0) -> list[tuple[str, Any, Location]]:
        """A mapping of players (`keep`, `result`) in braces on the key's line, or on the lines
        under it: (player as written, value read by `read`, where the player is written)."""
        file = self.file
        if written:
            if written[0] != "{":
                raise _Other
            return [(key, read(value), Location(file, number, at)) for key, value, at in _flow_pairs(written, number, column)]
        number, indent, line = self.block(keys_at)
        pairs: list[tuple[str, Any, Location]] = []
        seen: set[str] = set()
        while True:
            spaces, dash, key, _, written = line
            if dash or len(spaces) != indent or not written or key in seen or len(key) > LONGEST_KEY:
                raise _Other
            seen.add(key)
            pairs.append((key, read(written), Location(file, number, indent + 1)))
            found = self.next_in_block(indent)
            if found is None:
                return pairs
            number, line = found

    def resolve(
        self,
        rules: Rules,
        names: list[str],
        setup: tuple[Location, list[str], list[str] | None, Location | None, list[Location]],
        phases_written: list[tuple[Any, ...]],
        result_written: list[tuple[str, Any, Location]] | None,
    ) -> GameRecord:
        """The records of what was read, every name resolved and every move parsed, as `_resolve`
        makes them; _Other at the first problem (the full reader says them all)."""
        file = self.file
        players = _Players(names)
        find, index = players.find, players.index
        if rules.not_for(len(names), span=True) is not None:
            raise _Other
        setup_location, planted, buildings_written, buildings_location, building_locations = setup
        if (rules.model.selection is not None) != (buildings_written is not None):
            raise _Other
        try:
            plantations = [rules.lookup(name, (GOOD,))[1] for name in planted]
            buildings = None if buildings_written is None else [rules.lookup(name, ("building",))[1] for name in buildings_written]
            phases = []
            for location, role_key, chooser_name, moves_written, reveal_written, keep_written, doubloons_written in phases_written:
                role = rules.lookup(role_key, (ROLE,))[1]
                chooser = find(chooser_name)
                if chooser is None:
                    raise _Other
                moves = []
                for name, written, line, column in moves_written or ():
                    player = index.get(name)  # a player's name as written, most moves (no longer than a key may be: `record`)
                    if player is None:
                        if len(name) > LONGEST_KEY:
                            raise _Other  # the parser's error
                        player = find(name)
                        if player is None:
                            raise _Other
                    if len(written) > MAX_MOVE:
                        raise _Other
                    guests, move = read_written(role, written, rules)
                    moves.append(MoveRecord(player, move, file, line, column, guests))
                reveal = None
                if reveal_written is not None:
                    if role != "settler":
                        raise _Other
                    reveal = [rules.lookup(name, (GOOD,))[1] for name in reveal_written[0]]
                keep = None
                keep_locations: dict[int, Location] = {}
                if keep_written is not None:
                    if role != "captain":
                        raise _Other
                    keep = {}
                    for name, written, where in keep_written:
                        player = find(name)
                        if player is None:
                            raise _Other
                        keep[player] = parse_keep(written, rules)
                        keep_locations[player] = where
                phases.append(
                    PhaseRecord(
                        role=role,
                        chooser=chooser,
                        location=location,
                        moves=tuple(moves),
                        reveal=reveal,
                        reveal_location=reveal_written[1] if reveal_written is not None else None,
                        keep=keep,
                        keep_locations=keep_locations,
                        doubloons=doubloons_written[0] if doubloons_written is not None else None,
                        doubloons_location=doubloons_written[1] if doubloons_written is not None else None,
                    )
                )
        except (UnknownName, MoveError):
            raise _Other from None
        result = None
        if result_written is not None:
            result = {}
            for name, written, where in result_written:
                player = find(name)
                if player is None:
                    raise _Other
                result[player] = (written, where)
        return GameRecord(
            file=self.file,
            rules=rules,
            players=names,
            plantations=plantations,
            setup_location=setup_location,
            buildings=buildings,
            buildings_location=buildings_location,
            building_locations=tuple(building_locations),
            phases=tuple(phases),
            result=result,
            end_location=Location(self.file, self.last + 1, 1),
        )
