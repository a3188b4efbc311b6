"""referee: the rules referee and score tool for the board game Puerto Rico.

The public API (imported lazily, so that the command line starts quickly):

- `load_ruleset(name)`: a bundled ruleset (base, expansion-1, 1897, ...) or a path -> `Rules`
- `read_log(data, file)`: a game log -> `GameRecord` (names resolved, moves parsed)
- `replay(record)`: play it through the engine -> `Replay` (first error, complete, state)
- `check_log(data, file)`: read, replay, score and check the written result -> `LogReport`
- `score(boards, rules)`: final scores with their parts
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_API = {
    "load_ruleset": "referee.rulesets.load",
    "read_log": "referee.records.log",
    "replay": "referee.replay",
    "check_log": "referee.report",
    "score": "referee.scoring",
    "Game": "referee.engine.game",
}

__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        import importlib

        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'referee' has no attribute {name!r}")
