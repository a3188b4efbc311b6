"""The game log (docs/formats/game-log.md): its schema model, and reading it into located records.

Reading never decides legality: it checks the document's shape, resolves every name (players,
roles, goods, buildings) and parses every move clause; the replay then plays the moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, Location, in_order
from referee.documents.log_outline import PHASE_KEYS, TOP_KEYS, log_outline
from referee.located.tree import YNode, collection_paused, read_yaml
from referee.moves.clauses import AnyMove, Keep, MoveError, parse_keep, read_written
from referee.rulesets.load import ruleset_of, supply_ruleset
from referee.rulesets.rules import GOOD, ROLE, Rules, UnknownName
from referee.wording import did_you_mean, normalize

MAX_ERRORS = 50

MAX_MOVE = 1_000  # characters in one move: the longest real one has a few dozen


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One move of a phase: who, what, where it is written."""

    player: int
    move: AnyMove
    location: Location
    guests: tuple[str, ...] = ()  # guest-house colonists moved first (expansion)


@dataclass(frozen=True, slots=True)
class PhaseRecord:
    """One phase entry of the log."""

    role: str
    chooser: int
    location: Location
    moves: tuple[MoveRecord, ...]
    reveal: list[str] | None
    reveal_location: Location | None
    keep: dict[int, Keep] | None
    keep_locations: dict[int, Location]
    doubloons: int | None
    doubloons_location: Location | None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game log, read and resolved: the replay's input."""

    file: str
    rules: Rules
    players: list[str]
    plantations: list[str]
    setup_location: Location
    buildings: list[str] | None
    buildings_location: Location | None
    building_locations: tuple[Location, ...]  # of each item of `buildings`
    phases: tuple[PhaseRecord, ...]
    result: dict[int, tuple[int, Location]] | None
    end_location: Location

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
    root = read_yaml(data, file, log_outline)
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
        moves.append(MoveRecord(player, move, item.location, guests))
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
