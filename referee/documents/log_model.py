"""The game log's schema (docs/formats/game-log.md) as pydantic models.

Imported only when a log is not plainly well-formed (to report its problems of shape) and to
generate the JSON Schema: reading a well-formed log needs none of it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator


class SetupModel(BaseModel):
    """What chance and choice fixed before round 1."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    plantations: list[str] = Field(description="The face-up plantation row before round 1 (players + 1 tiles).")
    buildings: list[str] | None = Field(default=None, description="Expansion I: the violet building types chosen for this game.")


class PhaseModel(BaseModel):
    """One role taken: `<role>: <player>` first, then the phase's keys."""

    model_config = ConfigDict(
        extra="allow",
        defer_build=True,
        json_schema_extra={
            "additionalProperties": {"type": "string", "description": "The role taken (its name as key) and the player who took it."},
            "minProperties": 1,
        },
    )
    moves: list[dict[str, str]] | None = Field(default=None, description="The decisions of the phase in order, each `player: move`.")
    reveal: list[str] | None = Field(default=None, description="Settler: the new face-up plantation row drawn at the end of the phase.")
    keep: dict[str, str] | None = Field(default=None, description="Captain: what each player keeps after loading.")
    doubloons: int | None = Field(default=None, ge=0, strict=True, description="The doubloons that lay on the role card (checked).")


class GameLogModel(BaseModel):
    """A game of Puerto Rico, move by move."""

    model_config = ConfigDict(extra="forbid", title="Puerto Rico game log", defer_build=True)
    ruleset: str | int = Field(description="A bundled ruleset (base, expansion-1, 1897) or a path to a ruleset file.")
    players: list[str] = Field(min_length=1, description="Seating order, clockwise; the first is the first governor.")
    meta: dict[str, Any] | None = Field(default=None, description="Free-form information (date, place, ...).")
    setup: SetupModel
    phases: list[PhaseModel] = Field(description="Each role taken, in order of play.")
    result: dict[str, StrictInt] | None = Field(default=None, description="The scores the table wrote down (checked).")

    @field_validator("players")
    @classmethod
    def _unique(cls, value: list[str]) -> list[str]:
        seen = set()
        for name in value:
            if not name.strip():
                raise ValueError("a player name cannot be empty")
            if name in seen:
                raise ValueError(f"player '{name}' is listed twice: names must be unique in a game")
            seen.add(name)
        return value
