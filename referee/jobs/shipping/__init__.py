"""The shipping calculator (`referee ship`): a captain phase about to be played, answered as a
player at the table asks it.

- `phase`: the phase as compact states, moved by the engine's own rule functions;
- `values`: guaranteed, expected and best VP of every player (and the fewest), once per state;
- `summary`: the answer of docs/formats/shipping-position.md, version 3 (each player's guaranteed, expected
  and best VP as a `Range`, the expected play, the choices, forced);
- `outcomes`: an end as the players read it, and every distinct end (`--all`);
- `render`: the answer as text for the table, or JSON;
- `compiled`: which build of the search runs (`build()`: "compiled" by mypyc where a C compiler
  was present when the package was built, else "plain" Python of the same source).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from referee.documents.position import Position
from referee.jobs.shipping.compiled import build  # first of the package's modules: it chooses the build the others are imported from
from referee.jobs.shipping.outcomes import Outcome, Parts, PlayerOutcome, ends, outcome
from referee.jobs.shipping.phase import PLAIN, CaptainPhase
from referee.jobs.shipping.summary import Answer, Choice, Choices, Played, Range, ship

__all__ = ["Answer", "Choice", "Choices", "Outcome", "Played", "PlayerOutcome", "Range", "all_outcomes", "build", "ship"]


def all_outcomes(position: Position, limit: int | None = None) -> Iterator[Outcome]:
    """Every distinct outcome of the position's captain phase, one at a time (at most `limit`),
    the first at once; nothing but the states seen and the outcomes written is held."""
    phase = CaptainPhase(position, PLAIN)
    parts = Parts()
    found = (outcome(phase, end, parts) for end in ends(phase))
    return found if limit is None else islice(found, limit)


def lighthouse(position: Position) -> bool:
    """Do doubloons change hands in this captain phase (a lighthouse)? Outcomes then show them."""
    return CaptainPhase(position).doubloons
