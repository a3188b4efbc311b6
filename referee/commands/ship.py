"""`referee ship`: read a shipping position, answer it, render text or JSON.

`ship_report` is what the command runs; it returns the output in pieces (the outcome list of
`--all` is written as it is found) and the exit code (0, or 2 when the input cannot be used).
`ship_object` is the JSON answer as an object, for the server.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from referee.diagnostics import READ_ERROR, Diagnostic, InputError
from referee.documents.inputs import Input
from referee.documents.position import Position, read_position
from referee.ground.frozen import Frozen, frozen, set_field
from referee.ground.wording import json_text, normalize, printable
from referee.jobs.shipping.outcomes import Outcome


@frozen()  # a frozen dataclass with `Frozen`'s methods, not compiled by `dataclass` at every start
class ShipRequest(Frozen):
    """What `referee ship` is asked beside the position: `for_name` (`--for`), `ruleset`
    (`--ruleset`), `as_json` (`--format json`), `every` (`--all`) with at most `limit` outcomes,
    and `progress`, told the states valued so far now and then during the search of the summary
    (not with `every`)."""

    for_name: str | None = None
    ruleset: str | None = None
    as_json: bool = False
    every: bool = False
    limit: int | None = None
    progress: Callable[[int], None] | None = None

    def __init__(
        self,
        for_name: str | None = None,
        ruleset: str | None = None,
        as_json: bool = False,
        every: bool = False,
        limit: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        set_field(self, "for_name", for_name)
        set_field(self, "ruleset", ruleset)
        set_field(self, "as_json", as_json)
        set_field(self, "every", every)
        set_field(self, "limit", limit)
        set_field(self, "progress", progress)


def _position(item: Input, request: ShipRequest) -> tuple[Position, int | None]:
    """The position read and checked, and the player `--for` names (None without it); raises
    InputError for a position that cannot be used."""
    if item.data is None:
        raise InputError([item.error or Diagnostic("input.unreadable", "cannot read", None, READ_ERROR)])
    position = read_position(item.data, item.name, request.ruleset, item.base)
    asker = None
    if request.for_name is not None:
        asker = position.find_player(request.for_name)
        if asker is None:
            raise InputError([_unknown_player(position, request.for_name)])
    return position, asker


NOTHING_MORE = ShipRequest()  # the position alone: no --for, no --ruleset, the answer only


def ship_object(item: Input, request: ShipRequest = NOTHING_MORE) -> tuple[dict[str, Any], int]:
    """The answer as the JSON object of `referee ship --format json` (the server's answer, with
    no text in between), and the exit code (0, or 2 when the input cannot be used)."""
    from referee.jobs.shipping import ship
    from referee.render.shipping import answer_json

    try:
        position, asker = _position(item, request)
        result = ship(position, asker, progress=request.progress)
    except InputError as exc:
        return ship_errors_object(item.name, exc.diagnostics), READ_ERROR
    return answer_json(item.name, result, request.for_name is not None), 0


def ship_report(item: Input, request: ShipRequest) -> tuple[Iterator[str], int]:
    """Read a shipping position and answer it: (the output in pieces, exit code). With `every`,
    every distinct outcome is listed too: the list comes first, written as it is found, and the
    answer after it."""
    from referee.jobs.shipping import all_outcomes, ship
    from referee.render.shipping import answer_json, answer_text

    try:
        position, asker = _position(item, request)
        if request.every:
            outcomes = all_outcomes(position)  # checks the position before anything is written
            return _with_outcomes(item.name, position, outcomes, asker, request.for_name is not None, request.as_json, request.limit), 0
        result = ship(position, asker, progress=request.progress)
    except InputError as exc:
        return iter([ship_errors(item.name, exc.diagnostics, request.as_json) + "\n"]), READ_ERROR
    if request.as_json:
        return iter([json_text(answer_json(item.name, result, request.for_name is not None)), "\n"]), 0
    return (printable(line) + "\n" for line in answer_text(item.name, result, request.for_name is not None)), 0


def _with_outcomes(file: str, position: Position, outcomes: Iterator[Outcome], asker: int | None, asked: bool, as_json: bool, limit: int | None) -> Iterator[str]:
    """`--all`: every outcome as it is found (at most `limit`), then the answer; `forced` is
    read off the list when it is whole."""
    from referee.jobs.shipping import lighthouse, ship
    from referee.render.shipping import OutcomeTexts, answer_json, answer_text, heading, outcome_line

    names, rules = [p.name for p in position.players], position.rules
    doubloons = lighthouse(position)
    texts = OutcomeTexts(names, rules, doubloons)
    if as_json:
        yield '{"file": ' + json_text(file) + ', "outcomes": ['
    else:
        yield from (printable(line) + "\n" for line in heading(file, position))
        yield "\nevery distinct outcome:\n"
    count, truncated = 0, False
    for o in outcomes:
        if limit is not None and count == limit:
            truncated = True
            break
        count += 1
        yield ((", " if count > 1 else "") + texts.text(o)) if as_json else printable(outcome_line(count, o, names, rules, doubloons)) + "\n"
    result = ship(position, asker, None if truncated else count == 1)
    if as_json:
        rest = answer_json(file, result, asked)
        del rest["file"]
        yield "]" + (', "truncated": true' if truncated else "") + ", " + json_text(rest)[1:] + "\n"
        return
    if truncated:
        yield f"  ... (the list stops after {limit}: --limit)\n"
    yield from (printable(line) + "\n" for line in answer_text(file, result, asked, head=False))


def _unknown_player(position: Position, name: str) -> Diagnostic:
    from referee.ground.wording import did_you_mean

    names = [p.name for p in position.players]
    hint = did_you_mean(name, {normalize(n): n for n in names}) or " (players: " + ", ".join(names) + ")"
    return Diagnostic("ship.unknown-player", f"--for: '{name}' is not a player in this position{hint}", position.players_location, READ_ERROR)


def ship_errors_object(file: str, diagnostics: list[Diagnostic]) -> dict[str, Any]:
    """The JSON object of a position that cannot be used."""
    from referee.render.report import diagnostic_json  # only for a position that cannot be used: a start-up spared

    return {"file": file, "valid": False, "errors": [diagnostic_json(d, file) for d in diagnostics], "expected": None, "choices": None, "best": None, "outcomes": None}


def ship_errors(file: str, diagnostics: list[Diagnostic], as_json: bool) -> str:
    """The diagnostics of a position that cannot be used: one per line, or one line of JSON
    (without the last newline)."""
    if as_json:
        return json_text(ship_errors_object(file, diagnostics))
    from referee.render.report import diagnostic_line

    return "\n".join(diagnostic_line(d, file) for d in diagnostics)
