"""The quick log reader: a log written as logs are written, read a line at a time into what it
says (`WrittenLog`), then resolved (`log_written.resolve`) without the tree of located nodes.
Anything else, or any problem, and it gives up (`quick_log` is None): the full reader
(`referee.documents.log`) reads the log again and says every problem.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.diagnostics import InputError, Location
from referee.documents.log_outline import PHASE_KEYS, TOP_KEYS
from referee.documents.log_records import GameRecord
from referee.documents.log_written import FirstProblem, Named, Spot, WrittenLog, WrittenMove, WrittenPhase, WrittenSetup, resolve
from referee.located.tree import LONGEST_KEY, MAX_DIGITS, Beyond, _plain, flow_entries, flow_words, quick_lines
from referee.rulesets.load import load_ruleset

# The quick log reader. A log written as logs are written (`referee play`, the corpus, most logs
# by hand: the quick reader's part of YAML, `players:` and the lists of names in brackets, each
# phase `- role: player` with its keys under it) is read a line at a time straight into what it
# says (`WrittenLog`, then resolved into its records), without the tree of located nodes: that
# tree, about a thousand nodes a log, was half of the cost of reading one. The lines are those of the quick reader (`_LINES`), read as it
# reads them (values, lines and columns); anything else, and any problem found (a name unknown,
# a move that cannot be read, a ruleset that cannot be loaded), and the full reader reads the
# document again, so that every message is its own.


class _Other(Beyond):
    """Not a log the quick log reader reads: the full reader reads it (and says any problem)."""


_Line = tuple[str, str, str, str, str]  # the groups of `_LINES`, one line: indentation, dash, key, spaces, value


_PLAIN_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")  # a plain word starting with a letter ...
_NOT_TEXT = frozenset(("null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"))  # ... is text but for these (`_plain`)


def _text(written: str) -> str:
    """The text of a scalar value that must be a string (a name, a move), as the quick reader
    reads it: a quoted value's inside, a plain word itself; _Other for a number, a boolean, a
    null, a list or a mapping."""
    first = written[0]
    if first == '"' or first == "'":
        return written[1:-1]
    if first == "[" or first == "{" or type(_plain(written)) is not str:
        raise _Other
    return written


def _words(written: str, line: int, column: int, file: str) -> list[Named]:
    """The strings of a list in brackets written at `column`, each with where it is; _Other for
    anything else (a number in it, a mapping)."""
    if written[0] != "[":
        raise _Other
    words: list[Named] = []
    for word, at in flow_words(written):
        if type(_plain(word)) is not str:
            raise _Other
        words.append((word, Location(file, line, column + at)))
    return words


def _any_value(written: str) -> str:
    """A value of `meta`, any the quick reader reads as the parser does: no key written twice in
    a mapping in braces, no number too long to read."""
    if written[0] == "{":
        for _, value, _, _ in flow_entries(written):
            _any_value(value)
    elif written[0] == "[":
        for word, _ in flow_words(written):
            _any_value(word)
    elif len(written) > MAX_DIGITS and written.isdigit():
        raise _Other
    return written


def quick_log(text: str, file: str, override: str | None, base_dir: Path | None) -> GameRecord | None:
    """The record of a log the quick log reader reads, None for any other (see above)."""
    lines = quick_lines(text)
    if lines is None:
        return None
    try:
        return _QuickLog(file, lines).record(override, base_dir)
    except Beyond:  # `_Other`, or a flow value beyond the quick reader
        return None


class _QuickLog:
    """One log read by the quick log reader: its lines, then its records."""

    def __init__(self, file: str, lines: list[_Line]) -> None:
        self.file = file
        self.lines = lines
        self.count = len(lines)
        self.at = 0  # the line read next (0-based)
        self.last = 0  # the number of the last line with a value: the end of the document is the line after

    def next_line(self) -> tuple[int, _Line] | None:
        """The next line with content (not blank, not only a comment), and its number; None at the end."""
        lines, at, count = self.lines, self.at, self.count
        while at < count:
            line = lines[at]
            at += 1
            if line[1] or line[2]:
                self.at = at
                self.last = at
                return at, line
            if line[4]:
                raise _Other  # a value alone on its line
        self.at = at
        return None

    def back(self) -> None:
        """The line read last is read again next."""
        self.at = self.last - 1

    def record(self, override: str | None, base_dir: Path | None) -> GameRecord:
        """Read the top-level keys, then resolve: the record, or _Other."""
        file = self.file
        seen: set[str] = set()
        ruleset: str | None = None
        players: list[str] | None = None
        players_location = (1, 1)
        setup: WrittenSetup | None = None
        phases: list[WrittenPhase] | None = None
        result: list[tuple[str, Any, Location]] | None = None
        while (found := self.next_line()) is not None:
            number, (spaces, dash, key, gap, written) = found
            if spaces or dash or key in seen or key not in TOP_KEYS:
                raise _Other
            seen.add(key)
            column = len(key) + len(gap) + 2  # of a value on the key's line
            if key == "ruleset":
                if not written:
                    raise _Other
                if written[0] in "'\"":
                    ruleset = written[1:-1]
                else:
                    value = _plain(written) if written[0] not in "[{" and len(written) <= MAX_DIGITS else None
                    if isinstance(value, bool) or not isinstance(value, (str, int)):
                        raise _Other
                    ruleset = written
            elif key == "players":
                if not written:
                    raise _Other
                players = [name for name, _ in _words(written, number, column, file)]
                players_location = (number, column)
            elif key == "setup":
                if written:
                    raise _Other
                setup = self.setup()
            elif key == "phases":
                if written:
                    raise _Other
                phases = self.phases()
            elif key == "meta":
                self.flow_or_block(written, number, column, _any_value)
            else:  # result
                result = self.flow_or_block(written, number, column, self.result_value)
        if ruleset is None:
            ruleset = override
        if ruleset is None or players is None or setup is None or phases is None:
            raise _Other
        if not players or len(set(players)) != len(players) or not all(name.strip() and len(name) <= LONGEST_KEY for name in players):
            raise _Other
        try:
            rules = load_ruleset(override) if override is not None else load_ruleset(ruleset, base_dir)
        except InputError:
            raise _Other from None
        as_written = WrittenLog(
            file=file,
            players=players,
            players_location=players_location,
            setup=setup,
            phases=phases,
            result=result,
            end_line=self.last + 1,
        )
        return resolve(as_written, rules, FirstProblem(_Other))

    def next_in_block(self, indent: int) -> tuple[int, _Line] | None:
        """The block's next line (indented as `indent`), or None where the block ends (the line
        after it is given back); a line indented deeper is for the full reader."""
        found = self.next_line()
        if found is None:
            return None
        if len(found[1][0]) != indent:
            if len(found[1][0]) > indent:
                raise _Other
            self.back()
            return None
        return found

    def block(self, indent_above: int) -> tuple[int, int, _Line]:
        """The first line of a list or mapping under a `key:` indented `indent_above`: its
        number, its indentation and the line; _Other when it is not indented under the key."""
        found = self.next_line()
        if found is None:
            raise _Other
        number, line = found
        indent = len(line[0])
        if indent <= indent_above:
            raise _Other
        return number, indent, line

    def setup(self) -> WrittenSetup:
        """`setup:`'s mapping: where it is, the plantations, the buildings (where they are)."""
        file = self.file
        number, indent, line = self.block(0)
        location = Location(file, number, indent + 1)
        plantations: list[Named] | None = None
        buildings: list[Named] | None = None
        buildings_key: Spot | None = None
        buildings_location: Location | None = None
        while True:
            spaces, dash, key, gap, written = line
            if dash or len(spaces) != indent or not written:
                raise _Other
            column = indent + len(key) + len(gap) + 2
            if key == "plantations" and plantations is None:
                plantations = _words(written, number, column, file)
            elif key == "buildings" and buildings is None:
                buildings = _words(written, number, column, file)
                buildings_key, buildings_location = (number, indent + 1), Location(file, number, column)
            else:
                raise _Other
            found = self.next_line()
            if found is None:
                break
            number, line = found
            if not line[0]:
                self.back()
                break
        if plantations is None:
            raise _Other
        return WrittenSetup(location, plantations, buildings, buildings_key, buildings_location)

    def phases(self) -> list[WrittenPhase]:
        """`phases:`'s list, each entry as written."""
        file = self.file
        number, indent, line = self.block(0)
        phases = []
        while True:
            spaces, dash, role, gap, chooser = line
            if not dash or len(spaces) != indent or not role or not chooser or role in PHASE_KEYS or len(role) > LONGEST_KEY:
                raise _Other
            keys_at = indent + len(dash)  # the indentation of the entry's keys
            location = Location(file, number, keys_at + 1)
            role_line, chooser_column = number, keys_at + len(role) + len(gap) + 2
            moves: list[WrittenMove] | None = None
            reveal: list[Named] | None = None
            reveal_key: Spot | None = None
            reveal_location: Location | None = None
            keep: list[tuple[str, str, Location, Spot]] | None = None
            keep_key: Spot | None = None
            doubloons: int | None = None
            doubloons_location: Location | None = None
            while True:
                found = self.next_line()
                if found is None:
                    break
                number, line = found
                spaces, dash, key, gap, written = line
                if len(spaces) != keys_at or dash:
                    break
                column = keys_at + len(key) + len(gap) + 2
                if key == "moves" and moves is None:
                    if written == "[]":
                        moves = []
                    elif written:
                        raise _Other
                    else:
                        moves = self.moves(keys_at)
                elif key == "reveal" and reveal is None:
                    if not written:
                        raise _Other
                    reveal = _words(written, number, column, file)
                    reveal_key, reveal_location = (number, keys_at + 1), Location(file, number, column)
                elif key == "keep" and keep is None:
                    keep_key = (number, keys_at + 1)
                    # (the keep's own place is given as its player's: the quick reader says no problem, it gives up)
                    keep = [(name, kept, where, (where.line, where.column)) for name, kept, where in self.flow_or_block(written, number, column, _text, keys_at)]
                elif key == "doubloons" and doubloons is None:
                    value = _plain(written) if written and written[0] not in "'\"[{" and len(written) <= MAX_DIGITS else None
                    if type(value) is not int or value < 0:
                        raise _Other
                    doubloons, doubloons_location = value, Location(file, number, column)
                else:
                    raise _Other
            phase = WrittenPhase(
                location, [(role, (role_line, keys_at + 1))], _text(chooser), (role_line, chooser_column), moves or [], reveal, reveal_key, reveal_location, keep, keep_key, doubloons, doubloons_location
            )
            phases.append(phase)
            if found is None:
                return phases
            if not line[0]:
                self.back()
                return phases
            if not line[1] or len(line[0]) != indent:
                raise _Other

    def moves(self, keys_at: int) -> list[WrittenMove]:
        """A phase's `moves:` list: (player as written, move as written, the move's line and column)."""
        number, indent, line = self.block(keys_at)
        spaces_of, dash_of = line[0], line[1]  # the moves of a list are indented alike and dashed alike (else: the full reader)
        column = indent + len(dash_of) + 1
        moves: list[WrittenMove] = []
        lines, count = self.lines, len(self.lines)
        while True:
            spaces, dash, name, _, written = line
            if spaces != spaces_of or dash != dash_of or not dash or not name or not written:
                raise _Other  # (a name longer than a key may be is not a player's: `resolve` looks)
            first = written[0]
            if first in _PLAIN_FIRST:  # most moves: a plain word that is text unless it is one of YAML's constants
                if written in _NOT_TEXT:
                    raise _Other
            else:
                written = _text(written)
            moves.append((name, written, number, column))
            # the next line: most often the next move, read here without `next_line`
            at = self.at
            if at < count and (following := lines[at])[0] == spaces_of and following[1]:
                self.at = self.last = at + 1
                number, line = at + 1, following
                continue
            found = self.next_in_block(indent)  # (deeper: a second key of the move, or a line indented like nothing open)
            if found is None:
                return moves
            number, line = found

    def result_value(self, written: str) -> int:
        """A result's value: a whole number."""
        value = _plain(written) if written[0] not in "'\"[{" and len(written) <= MAX_DIGITS else None
        if type(value) is not int:
            raise _Other
        return value

    def flow_or_block(self, written: str, number: int, column: int, read: Callable[[str], Any], keys_at: int = 0) -> list[tuple[str, Any, Location]]:
        """A mapping of players (`keep`, `result`) in braces on the key's line, or on the lines
        under it: (player as written, value read by `read`, where the player is written)."""
        file = self.file
        if written:
            if written[0] != "{":
                raise _Other
            # (Beyond for a key written twice or too long: `flow_entries`)
            return [(key, read(value), Location(file, number, column + at)) for key, value, at, _ in flow_entries(written)]
        number, indent, line = self.block(keys_at)
        pairs: list[tuple[str, Any, Location]] = []
        seen: set[str] = set()
        while True:
            spaces, dash, key, _, written = line
            if dash or len(spaces) != indent or not written or key in seen or len(key) > LONGEST_KEY:
                raise _Other
            seen.add(key)
            pairs.append((key, read(written), Location(file, number, indent + 1)))
            found = self.next_in_block(indent)
            if found is None:
                return pairs
            number, line = found
