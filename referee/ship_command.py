"""`referee ship`: read a shipping position, answer it, render text or JSON.

`ship_report` is what the command runs; it returns the output in pieces (the outcome list of
`--all` is written as it is found) and the exit code (0, or 2 when the input cannot be used).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from referee.diagnostics import READ_ERROR, Diagnostic, InputError
from referee.names import normalize
from referee.output import json_text, printable
from referee.records.position import Position, read_position
from referee.render.report import diagnostic_json, diagnostic_line
from referee.shipping.outcomes import Outcome


def ship_report(
    data: bytes | None,
    file: str,
    base_dir: Path | None = None,
    read_error: Diagnostic | None = None,
    for_name: str | None = None,
    ruleset: str | None = None,
    as_json: bool = False,
    every: bool = False,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Iterator[str], int]:
    """Read a shipping position and answer it: (the output in pieces, exit code). `every`:
    also list every distinct outcome (`--all`), at most `limit` of them: the list comes first,
    written as it is found, and the answer after it. `progress`: told the states valued so far,
    now and then during the search of the summary (not with `every`)."""
    from referee.render.shipping import answer_json, answer_text
    from referee.shipping import all_outcomes, answer

    if data is None:
        error = read_error or Diagnostic("input.unreadable", "cannot read", None, READ_ERROR)
        return iter([ship_errors(file, [error], as_json) + "\n"]), READ_ERROR
    try:
        position = read_position(data, file, ruleset, base_dir)
        asker = None
        if for_name is not None:
            asker = position.find_player(for_name)
            if asker is None:
                raise InputError([_unknown_player(position, for_name)])
        if every:
            outcomes = all_outcomes(position)  # checks the position before anything is written
            return _with_outcomes(file, position, outcomes, asker, for_name is not None, as_json, limit), 0
        result = answer(position, asker, progress=progress)
    except InputError as exc:
        return iter([ship_errors(file, exc.diagnostics, as_json) + "\n"]), READ_ERROR
    if as_json:
        return iter([json_text(answer_json(file, result, for_name is not None)), "\n"]), 0
    return (printable(line) + "\n" for line in answer_text(file, result, for_name is not None)), 0


def _with_outcomes(file: str, position: Position, outcomes: Iterator[Outcome], asker: int | None, asked: bool, as_json: bool, limit: int | None) -> Iterator[str]:
    """`--all`: every outcome as it is found (at most `limit`), then the answer; `forced` is
    read off the list when it is whole."""
    from referee.render.shipping import OutcomeTexts, answer_json, answer_text, heading, outcome_line
    from referee.shipping import answer, lighthouse

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
    result = answer(position, asker, None if truncated else count == 1)
    if as_json:
        rest = answer_json(file, result, asked)
        del rest["file"]
        yield "]" + (', "truncated": true' if truncated else "") + ", " + json_text(rest)[1:] + "\n"
        return
    if truncated:
        yield f"  ... (the list stops after {limit}: --limit)\n"
    yield from (printable(line) + "\n" for line in answer_text(file, result, asked, head=False))


def _unknown_player(position: Position, name: str) -> Diagnostic:
    from referee.names import did_you_mean

    names = [p.name for p in position.players]
    hint = did_you_mean(name, {normalize(n): n for n in names}) or " (players: " + ", ".join(names) + ")"
    return Diagnostic("ship.unknown-player", f"--for: '{name}' is not a player in this position{hint}", position.players_location, READ_ERROR)


def ship_errors(file: str, diagnostics: list[Diagnostic], as_json: bool) -> str:
    """The diagnostics of a position that cannot be used: one per line, or one line of JSON
    (without the last newline)."""
    if as_json:
        obj = {"file": file, "valid": False, "errors": [diagnostic_json(d, file) for d in diagnostics], "expected": None, "choices": None, "best": None, "outcomes": None}
        return json_text(obj)
    return "\n".join(diagnostic_line(d, file) for d in diagnostics)
