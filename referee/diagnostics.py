"""Diagnostics: a rule id, a location and a sentence. Errors are values; `render` prints them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

READ_ERROR = 2  # exit code: the input could not be read
RULE_ERROR = 1  # exit code: a rule was broken


class Location(NamedTuple):
    """Where in a file: 1-based line and column, as compilers and editors count. (Immutable; a
    named tuple, not a frozen dataclass: a log's reading makes hundreds, and a frozen dataclass
    is made in twice the time.)"""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One error: a stable rule id (`captain.largest-ship`), a sentence, and where it is."""

    rule: str
    message: str
    location: Location | None = None
    exit_code: int = RULE_ERROR

    def at(self, location: Location | None) -> Diagnostic:
        """The same diagnostic placed at `location`."""
        return Diagnostic(self.rule, self.message, location, self.exit_code)


def in_order(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in the order a reader meets them: by line and column (unplaced ones first)."""
    return sorted(diagnostics, key=lambda d: (d.location.line, d.location.column) if d.location else (0, 0))


class Problems:
    """What a reader finds wrong with a document, in the order met, each an error of reading
    (exit 2): at most `limit` kept (None: every one)."""

    def __init__(self, limit: int | None = None) -> None:
        self.items: list[Diagnostic] = []
        self.limit = limit

    def add(self, rule: str, message: str, location: Location) -> None:
        """One more problem."""
        if self.limit is None or len(self.items) < self.limit:
            self.items.append(Diagnostic(rule, message, location, READ_ERROR))


class RuleViolation(Exception):
    """Raised by the engine when a move breaks a rule; the replay adds the move's location.

    `location`, when the engine knows better (a `keep` entry), overrides the move's; `item`,
    the index of the item of a list that breaks the rule (a building of `setup.buildings`);
    `explained`, the sentence already says what to write instead; `passed`, the player whose
    turn comes before the mover's and who may not be passed over (the sentence says why).
    """

    def __init__(
        self, rule: str, message: str, location: Location | None = None, item: int | None = None, explained: bool = False, passed: int | None = None
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.location = location
        self.item = item
        self.explained = explained  # the sentence already says what to write instead: no list of legal moves after it
        self.passed = passed

    def diagnostic(self, location: Location | None) -> Diagnostic:
        """This violation as a diagnostic at its own location, else at `location`."""
        return Diagnostic(self.rule, self.message, self.location or location, RULE_ERROR)


class Missing(RuleViolation):
    """A decision the log must give but does not (a mayor's arrangement, a `keep`, a load).

    At the end of a phase it is an error at the first line of the phase that follows; when
    the log stops there, the game is in progress and this says what is awaited. With
    `at_phase`, the error points at the phase that lacks a key (a settler's `reveal`).
    """

    def __init__(self, rule: str, message: str, location: Location | None = None, at_phase: bool = False, phase: str | None = None) -> None:
        super().__init__(rule, message, location)
        self.at_phase = at_phase
        self.phase = phase  # the words the message starts with that name the phase owing the decision

    def of_phase_at(self, line: int) -> Missing:
        """The same, its phase named with the line it is written at ("the captain phase of line
        57"): the error stands at the phase after it, and the reader is told where to write."""
        if self.phase is None or not self.message.startswith(self.phase):
            return self
        message = f"{self.phase} of line {line}{self.message[len(self.phase) :]}"
        return Missing(self.rule, message, self.location, self.at_phase, None)


class InputError(Exception):
    """Raised when an input cannot be read: it carries every read diagnostic found (exit 2)."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def internal_error(name: str, exc: BaseException) -> Diagnostic:
    """A diagnostic for a failure of referee itself (reported, never shown as a traceback)."""
    return Diagnostic("internal.error", f"referee failed on this file ({type(exc).__name__}: {exc}); please report it with the file", Location(name, 1, 1), READ_ERROR)
