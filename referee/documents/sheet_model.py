"""The score sheet's schema (docs/formats/score-sheet.md) as pydantic models.

Imported only when a sheet is not plainly well-formed (to report its problems of shape) and to
generate the JSON Schema: reading a well-formed sheet needs none of it (`referee.documents.sheet`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictInt


class SheetPlayer(BaseModel):
    """One player's end-of-game numbers."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    chips: int = Field(strict=True, ge=0, le=10_000, description="Shipping VP: chips, and any noted on paper.")
    doubloons: int = Field(strict=True, default=0, ge=0, le=10_000, description="Doubloons left (tie-break).")
    goods: int = Field(strict=True, default=0, ge=0, le=10_000, description="Barrels left (tie-break).")
    island: StrictInt | dict[str, StrictInt] | None = Field(
        default=None, description="Filled island spaces, or by kind ({corn: 3, quarry: 2, forest: 2}); needed for the residence."
    )
    colonists: int | None = Field(strict=True, default=None, ge=0, le=10_000, description="Every colonist on the board, San Juan included; needed for the fortress.")
    buildings: list[str] = Field(default_factory=list, description="Every building in the player's city.")
    occupied: list[str] = Field(default_factory=list, description="The buildings (large ones matter) that have a colonist.")


class ScoreSheetModel(BaseModel):
    """An end-of-game score sheet."""

    model_config = ConfigDict(extra="forbid", title="Puerto Rico score sheet", defer_build=True)
    ruleset: str | int = Field(description="A bundled ruleset (base, expansion-1, 1897) or a path to a ruleset file.")
    players: dict[str, SheetPlayer] = Field(min_length=1, description="Each player's numbers, by name.")
