"""Score sheets (docs/formats/score-sheet.md): the end of a game that was not logged, read and checked.

The sheet is checked against the ruleset (known names, one of each building per player, city
spaces, copies in the game, island size, occupied buildings owned), every problem positioned
(exit 2); then boards are built from it, for `referee.jobs.check.score_sheet` to score as logs are.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, Location, Problems, in_order
from referee.documents.names_list import names_in
from referee.engine.selection import selection_problems
from referee.engine.state import Board
from referee.ground.wording import count as counted
from referee.ground.wording import normalize
from referee.located.tree import YNode, read_yaml
from referee.rulesets.load import ruleset_of, supply_ruleset
from referee.rulesets.rules import BUILDING, GOOD, QUARRY, Rules, UnknownName

if TYPE_CHECKING:
    from referee.documents.sheet_model import ScoreSheetModel


LIMIT = 10_000  # the largest number of chips, doubloons, goods or colonists (SheetPlayer's `le`)
FIELDS = frozenset(("chips", "doubloons", "goods", "island", "colonists", "buildings", "occupied"))  # SheetPlayer's


class PlayerNumbers:
    """One player's end-of-game numbers, as `SheetPlayer` holds them (for a plainly well-formed
    sheet). A plain class, not a dataclass: making a dataclass costs `referee score --sheet` a
    little of its start-up, which is mostly imports."""

    __slots__ = ("buildings", "chips", "colonists", "doubloons", "goods", "island", "occupied")

    def __init__(self, chips: int, doubloons: int, goods: int, island: int | dict[str, int] | None, colonists: int | None, buildings: list[str], occupied: list[str]) -> None:
        self.chips, self.doubloons, self.goods, self.island, self.colonists = chips, doubloons, goods, island, colonists
        self.buildings, self.occupied = buildings, occupied


class SheetNumbers:
    """A plainly well-formed sheet's players, as `ScoreSheetModel` holds them."""

    __slots__ = ("players",)

    def __init__(self, players: dict[str, PlayerNumbers]) -> None:
        self.players = players


def read_sheet(data: bytes | str, file: str, ruleset: str | None = None, base_dir: Path | None = None) -> tuple[Rules, list[Board]]:
    """Read and check a score sheet; the boards to score. InputError with every problem found."""
    root = read_yaml(data, file)
    if not root.is_map:
        raise InputError([Diagnostic("sheet.not-a-mapping", "a score sheet is a mapping with ruleset and players", root.location, READ_ERROR)])
    supply_ruleset(root, ruleset)
    plain = _plainly_valid(root)
    if plain is not None:
        rules = ruleset_of(root, ruleset, base_dir)
        return rules, _boards(root, plain, rules)
    # pydantic's model machinery is imported only here, off the happy path (start-up time)
    from referee.documents.sheet_model import ScoreSheetModel
    from referee.located.model_check import validate

    try:
        sheet = validate(ScoreSheetModel, root.plain(), root, "sheet.schema", "a score sheet")
    except InputError as shape:
        from referee.documents.kind import SHEET, refuse_wrong_command

        refuse_wrong_command(root, data, SHEET, file, "sheet")  # a log or a position: the command that reads it, not every key a sheet lacks
        # Every problem at once: a player's field of the wrong shape is set aside, and the rest
        # of the sheet is still checked against the ruleset.
        salvaged = _without_bad_fields(root.plain())
        if salvaged is None:
            raise
        try:
            _boards(root, salvaged, ruleset_of(root, ruleset, base_dir))
        except InputError as more:
            raise InputError(in_order(shape.diagnostics + more.diagnostics)) from None
        raise
    rules = ruleset_of(root, ruleset, base_dir)
    return rules, _boards(root, sheet, rules)


def _number(node: YNode | None, default: int | None) -> int | None:
    """A count of a plainly well-formed sheet (a whole number from 0 to LIMIT, not a boolean):
    the node's, or `default` when it is not written; -1 for anything else."""
    if node is None:
        return default
    value = node.value
    return value if type(value) is int and 0 <= value <= LIMIT else -1


def _words(node: YNode | None) -> list[str] | None:
    """A list of names of a plainly well-formed sheet ([] when not written); None for anything else."""
    if node is None:
        return []
    items = node.value
    if not isinstance(items, list) or not all(isinstance(item.value, str) for item in items):
        return None
    return [item.value for item in items]


def _plainly_valid(root: YNode) -> SheetNumbers | None:
    """A sheet's numbers when it is plainly well formed (a stricter look than `ScoreSheetModel`'s,
    giving the same values), so that such a sheet is read without building the model's validator;
    None for anything unusual, which goes to the model."""
    doc = root.value
    if not isinstance(doc, dict) or set(doc) != {"ruleset", "players"}:
        return None
    ruleset, players = doc["ruleset"].value, doc["players"].value
    if isinstance(ruleset, bool) or not isinstance(ruleset, (str, int)) or not isinstance(players, dict) or not players:
        return None
    read: dict[str, PlayerNumbers] = {}
    for name, node in players.items():
        fields = node.value
        if not isinstance(fields, dict) or "chips" not in fields or not fields.keys() <= FIELDS:
            return None
        chips, doubloons, goods = _number(fields["chips"], None), _number(fields.get("doubloons"), 0), _number(fields.get("goods"), 0)
        colonists_node = fields.get("colonists")
        colonists = None if colonists_node is None or colonists_node.value is None else _number(colonists_node, None)
        island_node = fields.get("island")
        island = None if island_node is None else island_node.value
        if isinstance(island, dict):
            if not all(type(count.value) is int for count in island.values()):
                return None
            island = {kind: count.value for kind, count in island.items()}
        elif island is not None and type(island) is not int:
            return None
        buildings, occupied = _words(fields.get("buildings")), _words(fields.get("occupied"))
        if chips is None or chips < 0 or doubloons is None or doubloons < 0 or goods is None or goods < 0 or (colonists is not None and colonists < 0):
            return None
        if buildings is None or occupied is None:
            return None
        read[name] = PlayerNumbers(chips, doubloons, goods, island, colonists, buildings, occupied)
    return SheetNumbers(read)


def _without_bad_fields(plain: object) -> ScoreSheetModel | None:
    """The sheet with each player's fields that break the model left out (a missing `chips`
    read as 0), if that makes it valid; None when the problem is not inside a player."""
    from pydantic import ValidationError

    from referee.documents.sheet_model import ScoreSheetModel

    try:
        ScoreSheetModel.model_validate(plain)
    except ValidationError as exc:
        if not isinstance(plain, dict) or not isinstance(plain.get("players"), dict):
            return None
        players = {name: dict(fields) if isinstance(fields, dict) else fields for name, fields in plain["players"].items()}
        for error in exc.errors(include_url=False):
            at = error["loc"]
            if len(at) < 3 or at[0] != "players" or not isinstance(players.get(at[1]), dict):
                return None
            players[at[1]].pop(at[2], None)
        for fields in players.values():
            if isinstance(fields, dict):
                fields.setdefault("chips", 0)
        try:
            return ScoreSheetModel.model_validate({**plain, "players": players})
        except ValidationError:
            return None
    return None  # pragma: no cover (called only when the sheet broke the model)


def _boards(root: YNode, sheet: ScoreSheetModel | SheetNumbers, rules: Rules) -> list[Board]:
    problems = Problems()  # (a sheet's are few: every one said)
    err = problems.add

    players_node = root.value["players"]
    n = len(sheet.players)
    refused = rules.not_for(n, span=True)
    if refused is not None:
        err("sheet.players", refused, players_node.location)
    built: dict[str, list[tuple[str, Location]]] = {}
    boards: list[Board] = []
    total_goods = 0
    for pname, player in sheet.players.items():
        pnode = players_node.value[pname]
        fields = pnode.value if isinstance(pnode.value, dict) else {}
        board = Board(name=pname, doubloons=player.doubloons, vp=player.chips)
        total_goods += player.goods
        if player.goods:
            board.goods["barrels"] = player.goods
        # buildings
        bnode = fields.get("buildings")
        for ident, why, where in names_in(rules, player.buildings, bnode, pnode.location, (BUILDING,)):
            if ident is None:
                err("sheet.unknown-name", f"{pname}: {why}", where)
                continue
            if ident in board.buildings:
                err("sheet.duplicate-building", f"{pname} has the {rules.name(ident)} twice: each building at most once per player", where)
                continue
            board.buildings[ident] = 0
            built.setdefault(ident, []).append((pname, where))
        used = board.city_used(rules)
        if used > rules.model.city_spaces:
            err(
                "sheet.city-full",
                f"{pname}'s buildings take {used} spaces (large buildings take 2); the {rules.terms.city} {'have' if rules.terms.city.endswith('s') else 'has'} {rules.model.city_spaces}",
                bnode.location if bnode is not None else pnode.location,
            )
        # occupied buildings
        onode = fields.get("occupied")
        for ident, why, where in names_in(rules, player.occupied, onode, pnode.location, (BUILDING,)):
            if ident is None:
                err("sheet.unknown-name", f"{pname}: {why}", where)
                continue
            if ident not in board.buildings:
                err("sheet.occupied-not-built", f"{pname} has no {rules.name(ident)}, so it cannot be occupied", where)
                continue
            if rules.building[ident].circles == 0:
                err("sheet.occupied-no-circle", f"the {rules.name(ident)} has no circle: it is never occupied", where)
                continue
            board.buildings[ident] = 1
        # island
        inode = fields.get("island")
        if isinstance(player.island, dict):
            for kind, count in player.island.items():
                where = inode.key_location(kind) if inode is not None else pnode.location
                if count < 0:
                    err("sheet.island", f"{pname}: a negative number of {kind} tiles ({count})", where)
                    continue
                if normalize(kind) in rules.forest_labels:
                    if not rules.with_effect("settle.forest"):  # forests come only from a building that makes them
                        err("sheet.island", f"{pname}: forests are tiles of a game with a building that turns plantations into forests; the {rules.id} ruleset has none", where)
                        continue
                    board.island[rules.forest_id] = board.island.get(rules.forest_id, 0) + count
                    continue
                try:
                    ident = rules.lookup(kind, (GOOD, QUARRY))[1]
                except UnknownName as exc:
                    err("sheet.unknown-name", f"{pname}: {exc}".replace("unknown good or quarry", "unknown island tile"), where)
                    continue
                board.island[ident] = board.island.get(ident, 0) + count
        elif isinstance(player.island, int):
            if player.island < 0:
                err("sheet.island", f"{pname}: a negative number of island spaces", inode.location if inode else pnode.location)
            board.island["tiles"] = player.island
        filled = board.island_filled()
        if filled > rules.model.island_spaces:
            err("sheet.island", f"{pname}'s {rules.terms.island} has {rules.model.island_spaces} spaces, not {filled}", inode.location if inode else pnode.location)
        # colonists
        occupied = sum(1 for v in board.buildings.values() if v)
        if player.colonists is not None:
            if player.colonists < occupied:
                err(
                    "sheet.colonists",
                    f"{pname} has {counted(occupied, ('occupied building', 'occupied buildings'))} but {counted(player.colonists, rules.terms.colonist)}",
                    fields["colonists"].location,
                )
            board.san_juan = max(0, player.colonists - occupied)
        # numbers that the bonuses need
        for ident, manned in board.buildings.items():
            effect = rules.building[ident].effect
            if not manned or effect is None:
                continue
            need = {"bonus.island": ("island", player.island), "bonus.colonists": ("colonists", player.colonists)}.get(effect.id)
            if need is not None and need[1] is None:
                err("sheet.missing", f"{pname}: '{need[0]}' is needed to score the occupied {rules.name(ident)}", pnode.location)
            if effect.id == "bonus.sets" and not isinstance(player.island, dict):
                # the sets are of tile kinds: a plain count cannot score them (it would score 0 in silence)
                err(
                    "sheet.missing",
                    f"{pname}: the occupied {rules.name(ident)} scores sets of island tiles by kind: write the island by kind, "
                    f"e.g. `island: {{corn: 3, sugar: 3, quarry: 2}}`",
                    inode.location if inode is not None else pnode.location,
                )
        boards.append(board)
    for ident, owners in built.items():
        copies = rules.copies(rules.building[ident], n)
        if len(owners) > copies:
            names = ", ".join(o for o, _ in owners)
            err("sheet.copies", f"{len(owners)} players have the {rules.name(ident)} ({names}); the game has {copies}", owners[copies][1])
    removed = rules.model.player_counts[n].barrels_removed if n in rules.model.player_counts else 0
    barrels = sum(max(0, g.barrels - removed) for g in rules.model.goods)
    if total_goods > barrels:
        err("sheet.goods", f"the players hold {counted(total_goods, rules.terms.barrel)} together; the game has {barrels}", players_node.location)
    if rules.model.selection is not None:  # the expansion's buildings must fit one selection
        violet = [ident for ident in built if rules.building[ident].kind.endswith("violet")]
        for problem in selection_problems(rules, violet, complete=False):
            where = built[violet[problem.item]][0][1] if problem.item is not None else players_node.location
            err("sheet.selection", problem.message, where)
    if problems.items:
        raise InputError(in_order(problems.items))
    return boards

