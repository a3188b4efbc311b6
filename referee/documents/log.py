"""The game log (docs/formats/game-log.md): its schema model, and reading it into located records.

Reading never decides legality: it checks the document's shape, resolves every name (players,
roles, goods, buildings) and parses every move clause; the replay then plays the moves.
"""

from __future__ import annotations

from pathlib import Path

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, Location, in_order
from referee.documents.log_outline import PHASE_KEYS, TOP_KEYS, log_outline
from referee.documents.log_quick import quick_log
from referee.documents.log_records import GameRecord
from referee.documents.log_written import Spot, WrittenLog, WrittenMove, WrittenPhase, WrittenSetup, log_problems, resolve
from referee.ground.collector import collection_paused
from referee.located.tree import (
    MAX_BYTES,
    YNode,
    decode,
    read_yaml,
)
from referee.rulesets.load import ruleset_of, supply_ruleset


def read_log(data: bytes | str, file: str, ruleset: str | None = None, base_dir: Path | None = None) -> GameRecord:
    """Read a game log; InputError (exit 2) with every problem found, each positioned."""
    with collection_paused():
        return _read(data, file, ruleset, base_dir)


def _read(data: bytes | str, file: str, ruleset: str | None, base_dir: Path | None) -> GameRecord:
    text = decode(data, file) if isinstance(data, bytes) else data
    if len(text) <= MAX_BYTES:  # (in ASCII, as the quick log reader reads, a character is a byte)
        quick = quick_log(text, file, ruleset, base_dir)
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
    return resolve(_written(root, file), rules, log_problems())


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


def _written(root: YNode, file: str) -> WrittenLog:
    """The log's tree as written (`WrittenLog`), its shape already checked (`_plainly_valid`
    or the model)."""
    doc = root.value
    players_node = doc["players"]
    setup_node = doc["setup"]
    buildings_node = setup_node.value.get("buildings")
    setup = WrittenSetup(
        location=setup_node.location,
        plantations=[(node.text(), node.location) for node in setup_node.value["plantations"].value],
        buildings=[(node.text(), node.location) for node in buildings_node.value] if buildings_node is not None and buildings_node.value is not None else None,
        buildings_key=_spot(setup_node.key_location("buildings")) if buildings_node is not None else None,
        buildings_location=buildings_node.location if buildings_node is not None else None,
    )
    result = None
    result_node = doc.get("result")
    if result_node is not None and result_node.value is not None:
        result = [(key, int(node.value), result_node.key_location(key)) for key, node in result_node.value.items()]
    return WrittenLog(
        file=file,
        players=[n.text() for n in players_node.value],
        players_location=(players_node.line, players_node.column),
        setup=setup,
        phases=[_written_phase(entry) for entry in doc["phases"].value],
        result=result,
        end_line=_last_line(root) + 1,
    )


def _written_phase(entry: YNode) -> WrittenPhase:
    """One entry of `phases:` as written."""
    keys = entry.value
    role_keys = [(key, _spot(entry.key_location(key))) for key in keys if key not in PHASE_KEYS]
    chooser_node = keys[role_keys[0][0]] if len(role_keys) == 1 else None
    moves_node = keys.get("moves")
    moves: list[WrittenMove] = []
    if moves_node is not None and moves_node.value is not None:
        for item in moves_node.value:
            pairs = item.value
            if len(pairs) != 1:
                moves.append((None, len(pairs), item.line, item.column))
                continue
            ((name, text_node),) = pairs.items()
            moves.append((name, text_node.text(), item.line, item.column))
    phase = WrittenPhase(
        location=entry.location,
        role_keys=role_keys,
        chooser=chooser_node.text() if chooser_node is not None and chooser_node.value is not None else None,
        chooser_location=(chooser_node.line, chooser_node.column) if chooser_node is not None else (entry.line, entry.column),
        moves=moves,
    )
    reveal_node = keys.get("reveal")
    if reveal_node is not None:
        phase.reveal_location = reveal_node.location
        if reveal_node.value is not None:
            phase.reveal = [(node.text(), node.location) for node in reveal_node.value]
            phase.reveal_key = _spot(entry.key_location("reveal"))
    keep_node = keys.get("keep")
    if keep_node is not None and keep_node.value is not None:
        phase.keep = [(name, node.text(), keep_node.key_location(name), (node.line, node.column)) for name, node in keep_node.value.items()]
        phase.keep_key = _spot(entry.key_location("keep"))
    doubloons_node = keys.get("doubloons")
    if doubloons_node is not None:
        phase.doubloons, phase.doubloons_location = doubloons_node.value, doubloons_node.location
    return phase


def _spot(location: Location) -> Spot:
    return location.line, location.column


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
