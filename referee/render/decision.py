"""The text of `referee next`: the log's verdict, then the decision it waits for and its moves."""

from __future__ import annotations

from typing import Any

from referee.ground.wording import count, printable
from referee.jobs.decisions import Decision, NextReport
from referee.render.report import report_object, report_text

SHOWN_MOVES = 40  # moves listed in text, at most (a mayor's arrangements may number thousands)


def next_text(run: NextReport) -> str:
    """`referee next` for people: `validate`'s line, and for a game in progress, who decides
    what, with the moves open one per line."""
    verdict = report_text(run.report)
    if run.decision is None:
        return verdict
    return verdict + "\n" + decision_text(run.decision)


def decision_text(decision: Decision) -> str:
    """The decision and its moves, one per line (at most `SHOWN_MOVES`)."""
    who = decision.player or "the table"
    if decision.kind == "draw":
        assert decision.draw is not None
        tiles = count(decision.draw["tiles"], ("tile", "tiles"))
        return printable(f"waiting for the table: the {decision.phase} phase's new face-up row of {tiles}, written as the phase's 'reveal: [...]'")
    moves = decision.moves or []
    if decision.kind == "role":
        head = f"{who} chooses a role"
    elif decision.kind == "keep":
        head = f"{who} chooses what to keep after the {decision.phase} phase, written in the phase's 'keep: {{{who}: ...}}'"
    else:
        head = f"{who}'s move in the {decision.phase} phase"
    total = decision.total if decision.total is not None else len(moves)
    lines = [printable(f"{head} ({count(total, ('legal move', 'legal moves'))}):")]
    if decision.default is not None:
        lines.append(printable(f"  suggested: {decision.default} ({count(decision.colonists or 0, ('colonist', 'colonists'))} to arrange)"))
    lines += [printable(f"  {move}") for move in moves[:SHOWN_MOVES]]
    shown = min(len(moves), SHOWN_MOVES)
    if total > shown:
        lines.append(
            f"  ... and {total - shown} more ({'--format json lists every one' if decision.total is None else 'without --limit, --format json lists every one'})"
        )
    return "\n".join(lines)


def next_object(run: NextReport) -> dict[str, Any]:
    """The JSON object of `referee next` and `POST /api/next`: the validate object with
    `decision` (and, beside it, `state` and `history` for a page)."""
    obj = report_object(run.report)
    obj["decision"] = decision_json(run.decision) if run.decision is not None else None
    if run.complete_if_passes:  # `validate` reads the log as a complete game: the players it leaves out passed
        obj["complete_if_passes"] = True
    obj["state"] = run.state
    obj["history"] = run.history if run.state is not None else None
    obj["log"] = run.log
    obj["canonical"] = run.canonical
    obj["position"] = run.position
    return obj


def decision_json(decision: Decision) -> dict[str, Any]:
    """The `decision` object of docs/formats/commands.md (`draw`, `default` and `colonists`
    only where they apply)."""
    out: dict[str, Any] = {"player": decision.player, "phase": decision.phase, "kind": decision.kind, "moves": decision.moves}
    if decision.draw is not None:
        out["draw"] = decision.draw
    if decision.default is not None:
        out["default"] = decision.default
        out["colonists"] = decision.colonists
        out["declinable"] = decision.declinable
    if decision.total is not None:
        out["truncated"] = True
        out["count"] = decision.total
    if decision.guests is not None:
        out["guests"] = decision.guests
    return out
