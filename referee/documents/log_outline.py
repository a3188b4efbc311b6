"""What a game log holds where (docs/formats/game-log.md): its top keys, a phase's keys and the
keys of its setup; and, for the explaining of a layout mistake, the log as an outline.

The keys are read by the log's reader (`referee.documents.log`) and by the explaining of its
mistakes of shape (`log_shape`) and of indentation (`log_outline`, given to `read_yaml`), from here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from referee.ground.wording import normalize

if TYPE_CHECKING:
    from referee.located.layout import Outline

TOP_KEYS = ("ruleset", "players", "meta", "setup", "phases", "result")  # those of log_model.GameLogModel
PHASE_KEYS = ("moves", "reveal", "keep", "doubloons")  # a phase's keys beside its role
SETUP_KEYS = ("plantations", "buildings")

_PLAYERS_FLOW = re.compile(r"^players:\s*\[([^\]]*)\]", re.MULTILINE)


def _players(lines: list[str]) -> set[str]:
    """The players of a log, as its `players:` line (or the list under it) names them."""
    text = "\n".join(lines)
    flow = _PLAYERS_FLOW.search(text)
    if flow is not None:
        return {normalize(name.strip().strip("'\"")) for name in flow.group(1).split(",") if name.strip()}
    names: set[str] = set()
    for number, line in enumerate(lines):
        if line.rstrip() == "players:":
            for after in lines[number + 1 :]:
                stripped = after.strip()
                if not stripped.startswith("- "):
                    break
                names.add(normalize(stripped[2:].strip().strip("'\"")))
    return names


def _log_items(lines: list[str]) -> Callable[[str, str], str | None]:
    """What tells a log's `- key: value`: a move when the key is a player (`- Anna: quarry`), a
    phase when the value is (`- settler: Anna`). The players are read once, from the lines."""
    players = _players(lines)

    def item(key: str, value: str) -> str | None:
        if normalize(key) in players:
            return "moves"
        if normalize(value) in players:
            return "phases"
        return None

    return item


@cache
def log_outline() -> Outline:
    """The game log as the explaining of an indentation mistake reads it (made when first needed:
    only a log that cannot be read needs it)."""
    from referee.located.layout import Outline

    return Outline(
        keys={**{key: "" for key in TOP_KEYS}, **{key: "phases" for key in PHASE_KEYS}, **{key: "setup" for key in SETUP_KEYS}},
        items=_log_items,
        nouns={"phases": "phase", "moves": "move"},
        closed=frozenset({"", "setup"}),
    )
