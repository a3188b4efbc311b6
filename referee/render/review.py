"""`referee review` as text for a person (the costliest decisions first, in a screen) and as the
JSON object of docs/review.md (`POST /api/review` answers the same)."""

from __future__ import annotations

from typing import Any

from referee.ground.wording import count, printable
from referee.jobs.review import Decision, PhaseReview, Review
from referee.render.report import report_object, report_text
from referee.render.tables import table

SHOWN_DECISIONS = 10  # the costliest decisions listed in text without --all


def review_object(review: Review) -> dict[str, Any]:
    """The JSON object of a review: `validate`'s, with `phases` and `players` (docs/review.md)."""
    obj = report_object(review.report)
    obj.pop("scores", None)
    obj.pop("provisional", None)
    obj["phases"] = [_phase_json(phase) for phase in review.phases]
    obj["players"] = {
        name: {
            "lost": summary.lost,
            "barrels_lost": summary.barrels_lost,
            "decisions": summary.decisions,
            "worst": None if summary.worst is None else {"round": summary.worst_round, **_decision_json(summary.worst)},
        }
        for name, summary in review.summary().items()
    }
    return obj


def _phase_json(phase: PhaseReview) -> dict[str, Any]:
    lost = _lost_by_player(phase)
    out: dict[str, Any] = {
        "round": phase.round,
        "line": phase.line,
        "captain": phase.captain,
        "complete": phase.complete,
        "players": {
            name: {"played": f.played, "guaranteed": f.guaranteed, "expected": f.expected, "best": f.best, "lost": lost.get(name, 0)}
            for name, f in phase.players.items()
        },
        "decisions": [_decision_json(d) for d in phase.decisions],
    }
    if phase.note is not None:
        out["note"] = phase.note
    return out


def _decision_json(d: Decision) -> dict[str, Any]:
    out: dict[str, Any] = {
        "line": d.line,
        "player": d.player,
        "kind": d.kind,
        "move": d.move,
        "expected": d.expected,
        "guaranteed": d.guaranteed,
        "best_move": d.best_move,
        "best": d.best,
        "lost": d.lost,
        "choices": d.choices,
    }
    if d.kind == "keep":
        out.update(kept=d.kept, best_kept=d.best_kept, barrels_lost=d.barrels_lost)
    return out


def _lost_by_player(phase: PhaseReview) -> dict[str, int]:
    lost: dict[str, int] = {}
    for d in phase.decisions:
        lost[d.player] = lost.get(d.player, 0) + d.lost
    return lost


def review_text(review: Review, every: bool = False) -> str:
    """The review for a person: the verdict on the log, each player's VP lost in captain phases,
    and the costliest decisions (at most `SHOWN_DECISIONS`), or with `every` each phase with
    its figures and every decision."""
    lines = [report_text(review.report)]
    if not review.phases:
        if not review.report.errors or review.report.moves:  # a log read and played, with no captain phase before its end or its error
            lines.append(printable(f"{review.file}: no captain phase to review"))
        return "\n".join(lines)
    decisions = [(phase, d) for phase in review.phases for d in phase.decisions]
    lines.append(
        printable(
            f"{review.file}: {count(len(review.phases), ('captain phase', 'captain phases'))} reviewed, {count(len(decisions), ('decision', 'decisions'))}"
        )
    )
    rows = [("player", "VP lost", "barrels lost", "decisions", "costliest")]
    for name, s in review.summary().items():
        worst = "-" if s.worst is None else f"line {s.worst.line} (round {s.worst_round}): {s.worst.move}, {s.worst.lost} VP"
        rows.append((name, str(s.lost), str(s.barrels_lost), str(s.decisions), worst))
    lines += table(rows, right=(1, 2, 3))
    if every:
        for phase in review.phases:
            lines += ["", *_phase_text(phase)]
        return "\n".join(printable(line) for line in lines)
    costly = sorted(((p, d) for p, d in decisions if d.lost or d.barrels_lost), key=lambda pd: (-pd[1].lost, -pd[1].barrels_lost, pd[1].line))
    if not costly:
        lines.append("no decision lost anything: every move was one the shipping calculator rates best")
    else:
        lines.append("the costliest decisions (VP in the phase: expected after the move made, and the best move's):")
        lines += table([_DECISION_COLUMNS, *(_decision_row(d, phase.round) for phase, d in costly[:SHOWN_DECISIONS])], right=(0, 1, 4, 6, 7), indent="  ")
        if len(costly) > SHOWN_DECISIONS:
            lines.append(f"  ... and {len(costly) - SHOWN_DECISIONS} more that lost something (--all shows every decision)")
    lines.append("--all shows every captain phase and decision; --format json gives them to programs")
    return "\n".join(printable(line) for line in lines)


_DECISION_COLUMNS = ("line", "round", "player", "move", "expected", "best move", "best", "lost")


def _decision_row(d: Decision, round_number: int | None = None) -> tuple[str, ...]:
    """A decision as a row of `_DECISION_COLUMNS` (without the round where it is None)."""
    lost = f"{d.lost} VP" if d.lost else (count(d.barrels_lost, ("barrel", "barrels")) if d.barrels_lost else "-")
    best_move = "-" if d.best_move == d.move else d.best_move
    row = (str(d.line), d.player, d.move, str(d.expected), best_move, str(d.best), lost)
    return row if round_number is None else (row[0], str(round_number), *row[1:])


def _phase_text(phase: PhaseReview) -> list[str]:
    """One captain phase: its figures per player, then its decisions in the log's order."""
    state = "" if phase.complete else " (under way)"
    lines = [f"round {phase.round}, line {phase.line}: {phase.captain} takes the captain{state}"]
    lost = _lost_by_player(phase)
    rows = [("player", "played", "guaranteed", "expected", "best", "lost")]
    rows += [(name, str(f.played), str(f.guaranteed), str(f.expected), str(f.best), str(lost.get(name, 0))) for name, f in phase.players.items()]
    lines += table(rows, right=(1, 2, 3, 4, 5), indent="  ")
    if phase.decisions:
        columns = tuple(c for c in _DECISION_COLUMNS if c != "round")
        lines += table([columns, *(_decision_row(d) for d in phase.decisions)], right=(0, 3, 5, 6), indent="  ")
    if phase.note is not None:
        lines.append(f"  ({phase.note})")
    return lines
