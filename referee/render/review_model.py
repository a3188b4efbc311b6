"""The schema model of `referee review --format json` (docs/review.md): its JSON Schema
(`referee schema review`), and the check in the tests that every review written is of that shape.
Only those import it: pydantic's model machinery stays off the command's path."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReviewDiagnostic(_Strict):
    """A diagnostic, as `referee validate --format json` writes it."""

    file: str | None = Field(default=None, description="The file it is in.")
    line: int | None = Field(description="The 1-based line (null: the whole document).")
    column: int | None = Field(description="The 1-based column.")
    rule: str = Field(description="The rule id, e.g. captain.largest-ship.")
    message: str = Field(description="The sentence: what was broken, and what was allowed instead.")
    severity: Literal["error"] = Field(description="Always error.")


class PhaseFigures(_Strict):
    """A player's VP in one captain phase."""

    played: int = Field(description="The VP the phase gave the player as the log played it (union hall VP included).")
    guaranteed: int = Field(description="`referee ship`'s guaranteed VP for the position at the phase's start.")
    expected: int = Field(description="`referee ship`'s expected VP for the position at the phase's start.")
    best: int = Field(description="`referee ship`'s best VP for the position at the phase's start.")
    lost: int = Field(ge=0, description="The VP the player's own decisions in the phase lost.")


class ReviewedDecision(_Strict):
    """One decision of a captain phase, valued when it was made."""

    line: int = Field(description="The line of the move (or of the keep) in the log.")
    player: str = Field(description="Who made it.")
    kind: Literal["load", "wharf", "small wharf", "pass", "keep"] = Field(description="What kind of decision.")
    move: str = Field(description="The move made, in full (`2 corn on 5`, `keep sugar`).")
    expected: int = Field(description="The VP in the phase the move made can be expected to give the player (the expected play of `referee ship` after it).")
    guaranteed: int = Field(description="The VP in the phase the move made leaves the player sure of, whatever the others do.")
    best_move: str = Field(description="The best move open then (the move made, where it is as good as any).")
    best: int = Field(description="The expected VP in the phase of the best move.")
    lost: int = Field(ge=0, description="best minus expected.")
    choices: int = Field(ge=1, description="The moves that were open.")
    kept: int | None = Field(default=None, ge=0, description="A keep: the barrels kept.")
    best_kept: int | None = Field(default=None, ge=0, description="A keep: the most barrels the rules let the player keep.")
    barrels_lost: int | None = Field(default=None, ge=0, description="A keep: best_kept minus kept.")


class ReviewedPhase(_Strict):
    """One captain phase of the log."""

    round: int = Field(ge=1, description="The round it was played in.")
    line: int = Field(description="The phase's line in the log.")
    captain: str = Field(description="The player who took the captain.")
    complete: bool = Field(description="False for a phase still under way where the log stops.")
    players: dict[str, PhaseFigures] = Field(description="Each player's figures, in seat order.")
    decisions: list[ReviewedDecision] = Field(description="Every decision of the phase, in the log's order.")
    note: str | None = Field(default=None, description="Why some of the phase's decisions are not valued (a guest-house colonist moved).")


class WorstDecision(ReviewedDecision):
    """The decision of a player's that lost the most VP, with its round."""

    round: int = Field(ge=1, description="The round it was made in.")


class PlayerReview(_Strict):
    """A player over the game's captain phases."""

    lost: int = Field(ge=0, description="VP lost by the player's decisions, over the game.")
    barrels_lost: int = Field(ge=0, description="Barrels lost to keeps of fewer barrels than the rules allow.")
    decisions: int = Field(ge=0, description="The player's decisions reviewed.")
    worst: WorstDecision | None = Field(description="The decision that lost the most VP (the first of them); null when none lost any.")


class ReviewModel(_Strict):
    """The answer of `referee review --format json` and `POST /api/review`."""

    model_config = ConfigDict(extra="forbid", title="Puerto Rico game review")
    file: str = Field(description="The log reviewed.")
    valid: bool = Field(description="Whether the log breaks no rule (the phases before a broken rule are reviewed).")
    complete: bool = Field(description="Whether the game is over.")
    errors: list[ReviewDiagnostic] = Field(description="The log's diagnostics, as `referee validate` gives them.")
    ruleset: str | None = Field(default=None, description="The ruleset's id.")
    moves: int | None = Field(default=None, description="Role choices and moves replayed.")
    waiting: str | None = Field(default=None, description="For a game in progress: whose decision it is.")
    end: str | None = Field(default=None, description="For a complete game: when and why it ended.")
    phases: list[ReviewedPhase] = Field(description="Each captain phase, in the log's order.")
    players: dict[str, PlayerReview] = Field(description="Each player over the game.")
