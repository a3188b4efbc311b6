"""The shipping position's schema model (docs/formats/shipping-position.md): its JSON Schema, and the
check of a position whose shape is not plainly right (pydantic's model machinery is imported
only then, off the happy path: start-up time)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_BARRELS = 999


class PositionPlayer(BaseModel):
    """One player at the start of the captain phase."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, description="The player's name (free text, unique in the position).")
    goods: dict[str, Annotated[int, Field(ge=0, le=MAX_BARRELS, strict=True)]] = Field(
        default_factory=dict, description="Barrels on the player's windrose, by kind: {corn: 3, coffee: 2}."
    )
    buildings: list[str] = Field(
        default_factory=list, description="The player's occupied buildings (those that act in a captain phase: harbor, wharf, warehouses)."
    )

    @field_validator("name")
    @classmethod
    def _named(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("a player name cannot be empty")
        return value


class PositionModel(BaseModel):
    """A captain phase about to be played, for `referee ship`."""

    model_config = ConfigDict(extra="forbid", title="Puerto Rico shipping position")
    ruleset: str | int = Field(description="A bundled ruleset (base, expansion-1, 1897) or a path to a ruleset file.")
    ships: dict[str, str | None] = Field(
        description="Every cargo ship by its size, with its contents: `empty` or `<good> <count>` (a partly filled ship), e.g. {4: empty, 5: corn 2}.",
        json_schema_extra={"propertyNames": {"pattern": "^[0-9]+$"}},
    )
    vp_left: int | None = Field(default=None, ge=0, strict=True, description="VP chips left in the supply (optional); VP beyond them are counted on paper.")
    players: list[PositionPlayer] = Field(min_length=1, description="The players clockwise, the captain first.")
