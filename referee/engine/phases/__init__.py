"""One module per role's phase; `PHASES` maps a role id to its phase class."""

from __future__ import annotations

from referee.engine.phases.base import Phase, TurnPhase
from referee.engine.phases.builder import Builder
from referee.engine.phases.captain import Captain
from referee.engine.phases.craftsman import Craftsman
from referee.engine.phases.mayor import Mayor
from referee.engine.phases.prospector import Prospector
from referee.engine.phases.settler import Settler
from referee.engine.phases.trader import Trader

PHASES: dict[str, type[Phase]] = {
    "settler": Settler,
    "mayor": Mayor,
    "builder": Builder,
    "craftsman": Craftsman,
    "trader": Trader,
    "captain": Captain,
    "prospector": Prospector,
}

__all__ = ["PHASES", "Phase", "TurnPhase"]
