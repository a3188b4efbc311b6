"""referee: the rules referee and score tool for the board game Puerto Rico.

The public Python API, typed (the package ships `py.typed`). Every name below is imported on
first use, so that the command line, which imports this package, starts quickly:

Reading documents (each raises `InputError`, its `diagnostics` saying what is wrong and where):
- `read_log(data, file)` -> `GameRecord`: a game log, names resolved, moves parsed
- `read_sheet(data, file)` -> `(Rules, [Board])`: an end-of-game score sheet
- `read_position(data, file)` -> `Position`: a shipping position
- `load_ruleset(name_or_path)` -> `Rules`: a bundled ruleset (base, expansion-1, 1897) or a file

Playing and checking:
- `replay(record)` -> `Replay`: the log played through the engine, stopping at the first illegal move
- `replay_steps(record)`: the same, one `Step` at a time (the game before each role choice and
  move, and after each phase), for tools that look at the game between moves
- `Game`: the engine; `legal_moves(game, player)` lists what `player` may play now
- `check_log(data, file)` -> `LogReport`: read, replay, score and check the written result
- `score(boards, rules)` -> `[Score]`: final scores with every part; `winners(scores)`
- `score_sheet(data, file)` -> `LogReport`: a score sheet scored
- `ship(position)` -> `Answer`: the shipping calculator (formats.md section 3, version 3): each
  player's `vp` as a `Range` (`guaranteed`, `expected`, `best`; `guaranteed` was `worst` before
  version 3), the expected play, the `choices`; `all_outcomes(position)` every outcome
- `captain_position(game, captain)` -> `str`: the shipping position of a game whose captain is
  about to be chosen (for `read_position`), to put a game's captain phases to the calculator
- `canonical_log(record)` -> `str`: a log written back in canonical form
- `next_decision(data, file)` -> `NextReport`: what a game in progress waits for (`decision`: a
  `Decision` with its `player`, `kind` and legal `moves`), the boards as they stand (`state`)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.version import __version__

if TYPE_CHECKING:  # what mypy and editors see; at run time each name is imported on first use
    from referee.check import LogReport, check_log
    from referee.decisions import Decision, NextReport, next_decision
    from referee.diagnostics import Diagnostic, InputError, Location, RuleViolation
    from referee.engine.game import Game
    from referee.engine.legal import moves as legal_moves
    from referee.engine.state import Board
    from referee.moves import AnyMove, parse_move
    from referee.records.log import GameRecord, read_log
    from referee.records.position import Position, read_position
    from referee.records.write import canonical as canonical_log
    from referee.records.write_position import captain_position
    from referee.replays import Replay, Step, replay, replay_steps
    from referee.rulesets.load import load_ruleset
    from referee.rulesets.rules import Rules
    from referee.scoring import Score, score, winners
    from referee.sheet import read_sheet, score_sheet
    from referee.shipping import all_outcomes
    from referee.shipping.outcomes import Outcome
    from referee.shipping.summary import Answer
    from referee.shipping.summary import answer as ship

# public name: (module, name in that module). No public name is also a submodule's name: the
# import of a submodule sets the package's attribute of that name, which would hide a function.
_API: dict[str, tuple[str, str]] = {
    "LogReport": ("referee.check", "LogReport"),
    "check_log": ("referee.check", "check_log"),
    "Decision": ("referee.decisions", "Decision"),
    "NextReport": ("referee.decisions", "NextReport"),
    "next_decision": ("referee.decisions", "next_decision"),
    "Diagnostic": ("referee.diagnostics", "Diagnostic"),
    "InputError": ("referee.diagnostics", "InputError"),
    "Location": ("referee.diagnostics", "Location"),
    "RuleViolation": ("referee.diagnostics", "RuleViolation"),
    "Game": ("referee.engine.game", "Game"),
    "legal_moves": ("referee.engine.legal", "moves"),
    "Board": ("referee.engine.state", "Board"),
    "AnyMove": ("referee.moves", "AnyMove"),
    "parse_move": ("referee.moves", "parse_move"),
    "GameRecord": ("referee.records.log", "GameRecord"),
    "read_log": ("referee.records.log", "read_log"),
    "Position": ("referee.records.position", "Position"),
    "read_position": ("referee.records.position", "read_position"),
    "canonical_log": ("referee.records.write", "canonical"),
    "captain_position": ("referee.records.write_position", "captain_position"),
    "Replay": ("referee.replays", "Replay"),
    "replay": ("referee.replays", "replay"),
    "replay_steps": ("referee.replays", "replay_steps"),
    "Step": ("referee.replays", "Step"),
    "load_ruleset": ("referee.rulesets.load", "load_ruleset"),
    "Rules": ("referee.rulesets.rules", "Rules"),
    "Score": ("referee.scoring", "Score"),
    "score": ("referee.scoring", "score"),
    "winners": ("referee.scoring", "winners"),
    "read_sheet": ("referee.sheet", "read_sheet"),
    "score_sheet": ("referee.sheet", "score_sheet"),
    "all_outcomes": ("referee.shipping", "all_outcomes"),
    "Outcome": ("referee.shipping.outcomes", "Outcome"),
    "Answer": ("referee.shipping.summary", "Answer"),
    "ship": ("referee.shipping.summary", "answer"),
}

__all__ = [
    "Answer",
    "AnyMove",
    "Board",
    "Decision",
    "Diagnostic",
    "Game",
    "GameRecord",
    "InputError",
    "Location",
    "LogReport",
    "NextReport",
    "Outcome",
    "Position",
    "Replay",
    "RuleViolation",
    "Rules",
    "Score",
    "Step",
    "__version__",
    "all_outcomes",
    "canonical_log",
    "captain_position",
    "check_log",
    "legal_moves",
    "load_ruleset",
    "next_decision",
    "parse_move",
    "read_log",
    "read_position",
    "read_sheet",
    "replay",
    "replay_steps",
    "score",
    "score_sheet",
    "ship",
    "winners",
]  # the same names as _API (a test keeps them so)


def __getattr__(name: str) -> Any:
    """Import a public name on first use (see the module)."""
    if name in _API:
        import importlib

        module, attribute = _API[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'referee' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
