"""referee: the rules referee and score tool for the board game Puerto Rico.

The public Python API, typed (the package ships `py.typed`). Every name below is imported on
first use, so that the command line, which imports this package, starts quickly:

Reading documents (each raises `InputError`, its `diagnostics` saying what is wrong and where):
- `read_log(data, file)` -> `GameRecord`: a game log, names resolved, moves parsed
- `read_sheet(data, file)` -> `(Rules, [Board])`: an end-of-game score sheet
- `read_position(data, file)` -> `Position`: a shipping position
- `load_ruleset(name_or_path)` -> `Rules`: a bundled ruleset (base, expansion-1, 1897) or a file
- `parse_move(phase, text, rules)` -> a move value (raises `MoveError`); a `Rules` lookup of an
  unknown name raises `UnknownName`; `Game`'s checked moves raise `RuleViolation` (`Missing`
  when a decision is awaited)

Playing and checking:
- `replay(record)` -> `Replay`: the log played through the engine, stopping at the first illegal move
- `replay_steps(record)`: the same, one `Step` at a time (the game before each role choice and
  move, and after each phase), for tools that look at the game between moves
- `Game`: the engine; `legal_moves(game, player)` lists what `player` may play now
- `check_log(data, file)` -> `LogReport`: read, replay, score and check the written result
- `score(boards, rules)` -> `[Score]`: final scores with every part; `winners(scores)`
- `score_sheet(data, file)` -> `LogReport`: a score sheet scored
- `ship(position)` -> `Answer`: the shipping calculator (docs/formats/shipping-position.md, version 3): each
  player's `vp` as a `Range` (`guaranteed`, `expected`, `best`; `guaranteed` was `worst` before
  version 3), the expected play, the `choices`; `all_outcomes(position)` every outcome
- `captain_position(game, captain)` -> `str`: the shipping position of a game whose captain is
  about to be chosen (for `read_position`), to put a game's captain phases to the calculator
- `canonical_log(record)` -> `str`: a log written back in canonical form
- `next_decision(data, file)` -> `NextReport`: what a game in progress waits for (`decision`: a
  `Decision` with its `player`, `kind` and legal `moves`), the boards as they stand (`state`)
- `review_log(data, file)` -> `Review`: a game's captain phases against the shipping calculator
  (docs/review.md): each `PhaseReview`'s figures per player and its decisions, each with the VP
  it `lost`; `Review.summary()` each player's VP lost and costliest decision
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.version import __version__ as __version__

# The public API's one table: every public name is imported here, for mypy and editors; at run
# time `_table` reads this block (on the first public name asked for), so that importing the
# package, which the command line does, imports nothing else. Each name is imported `as` itself (or
# as its public name), which is how a typed package says it exports it. No public name may be a submodule's name (`referee.jobs` would hide
# a function named `jobs`): tests/test_api.py checks it.
if TYPE_CHECKING:
    from referee.diagnostics import Diagnostic as Diagnostic
    from referee.diagnostics import InputError as InputError
    from referee.diagnostics import Location as Location
    from referee.diagnostics import Missing as Missing
    from referee.diagnostics import RuleViolation as RuleViolation
    from referee.documents.log import read_log as read_log
    from referee.documents.log_records import GameRecord as GameRecord
    from referee.documents.position import Position as Position
    from referee.documents.position import read_position as read_position
    from referee.documents.sheet import read_sheet as read_sheet
    from referee.documents.write import canonical_log as canonical_log
    from referee.documents.write_position import captain_position as captain_position
    from referee.engine.game import Game as Game
    from referee.engine.legal import legal_moves as legal_moves
    from referee.engine.state import Board as Board
    from referee.jobs.check import LogReport as LogReport
    from referee.jobs.check import check_log as check_log
    from referee.jobs.check import score_sheet as score_sheet
    from referee.jobs.decisions import Decision as Decision
    from referee.jobs.decisions import NextReport as NextReport
    from referee.jobs.decisions import next_decision as next_decision
    from referee.jobs.replays import Replay as Replay
    from referee.jobs.replays import Step as Step
    from referee.jobs.replays import replay as replay
    from referee.jobs.replays import replay_steps as replay_steps
    from referee.jobs.review import PhaseReview as PhaseReview
    from referee.jobs.review import Review as Review
    from referee.jobs.review import review_log as review_log
    from referee.jobs.scoring import Score as Score
    from referee.jobs.scoring import score as score
    from referee.jobs.scoring import winners as winners
    from referee.jobs.shipping import Answer as Answer
    from referee.jobs.shipping import Outcome as Outcome
    from referee.jobs.shipping import all_outcomes as all_outcomes
    from referee.jobs.shipping import ship as ship
    from referee.moves.clauses import AnyMove as AnyMove
    from referee.moves.clauses import MoveError as MoveError
    from referee.moves.clauses import parse_move as parse_move
    from referee.rulesets.load import load_ruleset as load_ruleset
    from referee.rulesets.rules import Rules as Rules
    from referee.rulesets.rules import UnknownName as UnknownName

_API: dict[str, tuple[str, str]] | None = None  # public name: (module, name in that module)


def _table() -> dict[str, tuple[str, str]]:
    """The public names with where each lives, read from the `if TYPE_CHECKING:` block above."""
    global _API
    if _API is None:
        import ast
        from pathlib import Path

        tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
        block = next(node for node in tree.body if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        _API = {alias.asname or alias.name: (node.module or "", alias.name) for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    return _API


def __getattr__(name: str) -> Any:
    """Import a public name on first use (see the module); `__all__` is the table's names."""
    if name == "__all__":
        return sorted(["__version__", *_table()])
    if name in _table():
        import importlib

        module, attribute = _table()[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'referee' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(["__version__", *_table()])
