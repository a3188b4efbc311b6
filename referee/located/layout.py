"""Mistakes of indentation said as what they are: which line is indented how far, against the
line it belongs with, and the line as it should be written.

The YAML parser stops at the first line it cannot place and says so in its own terms ("did not
find expected key while parsing a block mapping", "the items of this list start with '- '").
That is often the wrong advice for a document written by hand: a `moves:` indented as far as
the dash of its phase would become a new phase with a dash added. Here the lines above the
parser's stop are read again as the document's outline (which keys and lists are open at which
indentation), the first line that does not fit is found, and the place it belongs is chosen by
what the line says: a phase's keys belong to a phase, `- Anna: quarry` is a move because Anna
is a player. Only the explaining of an error comes here; reading a document never does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from itertools import pairwise


@dataclass(frozen=True, slots=True)
class Outline:
    """What a kind of document holds where.

    `keys`: a key -> the list or mapping it is written in (`""` the top of the document;
    `"phases"` a mapping that is an item of the list under `phases:`); `items`: given the
    document's lines, what tells an item written `- key: value` -> the key of the list it is an
    item of (None when it cannot be told); `nouns`: what an item of each list is called ("phase"); `closed`: the
    mappings that hold no key but those of `keys`.
    """

    keys: Mapping[str, str] = field(default_factory=dict)
    items: Callable[[list[str]], Callable[[str, str], str | None]] | None = None
    nouns: Mapping[str, str] = field(default_factory=dict)
    closed: frozenset[str] = frozenset()  # the mappings whose every key is in `keys`



_KEY = re.compile(r"""([^\s#'"\[\]{},:-][^:#]*?|"[^"]*"|'[^']*'):(?:\s+(.*))?$""")


@dataclass(slots=True)
class _Level:
    """An open list (its dashes at `indent`) or mapping (its keys at `indent`), with the line of
    its first item or key, the key it is written under and the line of that key."""

    indent: int
    is_list: bool
    first: int  # the line of its first item or key
    name: str  # the key it is under (an item's mapping: the key of its list)
    under: int | None  # the line of that key (None: the top of the document)
    head: str = ""  # an item's mapping: its first key


@dataclass(frozen=True, slots=True)
class _Line:
    number: int
    indent: int
    tab: bool
    dash: bool
    key: str | None
    value: str
    opens: bool  # `key:` with nothing after it: the lines under it are its value
    text: str  # the line without its indentation


def _lines(text: str, last: int) -> list[_Line] | None:
    """The lines with content up to line `last`, or None when one is beyond an outline of
    indented keys and dashes (a block scalar, a list in brackets over several lines ...)."""
    out = []
    for number, raw in enumerate(text.splitlines()[:last], 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        lead = raw[: len(raw) - len(raw.lstrip(" \t"))]
        dash = stripped == "-" or stripped.startswith("- ")
        body = stripped[1:].lstrip() if dash else stripped
        if body.startswith("- "):
            return None  # a list in a list: not written in the documents
        match = _KEY.match(body) if body else None
        if match is None and not dash:
            return None  # a plain line: a key without its colon, a value over two lines
        key = match.group(1).strip("'\"") if match else None
        value = (match.group(2) or "").split(" #")[0].strip() if match else body
        if value.startswith(("|", ">", "&", "*", "!")) or (value[:1] in "[{" and value[-1:] not in "]}"):
            return None
        out.append(_Line(number, lead.index("\t") if "\t" in lead else len(lead), "\t" in lead, dash, key, value, match is not None and not value, stripped))
    return out


def _indented(count: int) -> str:
    """`indented 2 spaces`, `indented 1 space`, `not indented`."""
    return "not indented" if count == 0 else f"indented {count} space{'' if count == 1 else 's'}"


class _Reader:
    """Walks the lines keeping the open lists and mappings; `misfit` explains the first line
    that is indented like nothing it can belong to."""

    def __init__(self, lines: list[_Line], outline: Outline, text_lines: list[str], usual: dict[bool, int]) -> None:
        self.lines, self.outline, self.text_lines = lines, outline, text_lines
        self.item_list = outline.items(text_lines) if outline.items is not None else None
        self.usual = usual  # how far the lists (True) and mappings (False) under a key are indented past it
        self.open: list[_Level] = []

    def explain(self, trusting: bool = False) -> tuple[int, int, str] | None:
        """The first line that fits nowhere, explained. A list or mapping whose first line is
        indented unlike the document's other lists and mappings under their keys (`suspect`) is
        the mistake when the line that does not fit would fit had it been indented as usual: the
        parser takes the first item's indentation for the list's, and stops at the second."""
        previous: _Line | None = None
        suspect: tuple[_Line, _Level] | None = None
        for line in self.lines:
            if line.tab and not self.open:
                return (
                    line.number,
                    1,
                    f"this line is indented with a tab, and YAML indents with spaces only; the top of the document is not indented: write `{line.text}`",
                )
            if not self.open:
                self.open.append(_Level(line.indent, line.dash, line.number, "", None))
                if line.indent and not trusting:  # a document starts at the start of its line
                    suspect = (line, _Level(0, line.dash, line.number, "", None))
                self.enter(line, previous)
                previous = line
                continue
            if line.tab:
                return self.misfit(line, previous, None)
            if (
                previous is not None
                and previous.opens
                and (line.indent > self.key_indent(previous) or (line.dash and line.indent == self.key_indent(previous)))
            ):
                self.open.append(_Level(line.indent, line.dash, line.number, previous.key or "", previous.number))
                usual = self.usual.get(line.dash)
                if not trusting and usual is not None and line.indent != self.key_indent(previous) + usual:
                    suspect = (line, _Level(self.key_indent(previous) + usual, line.dash, line.number, previous.key or "", previous.number))
                self.enter(line, previous)
                previous = line
                continue
            at = [level for level in self.open if level.indent == line.indent]
            if at and self.stranger(line, previous, at[-1]):
                return self.misfit(line, previous, at[-1], under_previous=bool(previous and previous.opens))
            if not at or at[-1].is_list != line.dash or self.elsewhere(line, at[-1]):
                if suspect is not None and self.fits_without(suspect, line):
                    return self.misplaced(suspect[0], suspect[1], line)
                return self.misfit(line, previous, at[-1] if at else None)
            while self.open[-1] is not at[-1]:
                self.open.pop()
            self.enter(line, previous)
            previous = line
        return None

    def stranger(self, line: _Line, previous: _Line | None, level: _Level) -> bool:
        """Is the line a key that its indentation puts in a mapping whose keys are all known
        (the top of a log), though it is none of them, right after a line indented further or a
        key waiting for its value? Then it belongs with that line (`keep:`, then `Anna: corn`
        not indented)."""
        return (
            previous is not None
            and (previous.opens or self.key_indent(previous) > line.indent)
            and not line.dash
            and line.key is not None
            and level.name in self.outline.closed
            and not level.is_list
            and line.key not in self.outline.keys
        )

    def fits_without(self, suspect: tuple[_Line, _Level], line: _Line) -> bool:
        """Does every line up to `line` fit once the suspect line is indented as usual?"""
        wrong, level = suspect
        shift = level.indent - wrong.indent
        lines = [replace(other, indent=other.indent + shift) if other.number == wrong.number else other for other in self.lines if other.number <= line.number]
        return _Reader(lines, self.outline, self.text_lines, self.usual).explain(trusting=True) is None

    def misplaced(self, line: _Line, belongs: _Level, shown: _Line) -> tuple[int, int, str]:
        """A list's or mapping's first line indented unlike the lines after it."""
        subject = self.subject(line, belongs)
        those = self.those(line, belongs, None, shown)
        return line.number, line.indent + 1, f"{subject} is {_indented(line.indent)}; {those}: write `{' ' * belongs.indent + line.text}`"

    def key_indent(self, line: _Line) -> int:
        """The column (from 0) of a line's key: after its dash when it has one."""
        return line.indent + (len(line.text) - len(line.text[1:].lstrip()) if line.dash else 0)

    def enter(self, line: _Line, previous: _Line | None) -> None:
        """An item `- key: value` opens its mapping, its keys indented like its first."""
        if line.dash and line.key is not None:
            lists = self.open[-1]
            self.open.append(_Level(self.key_indent(line), False, line.number, lists.name, lists.under, line.key))

    def home_of_key(self, key: str) -> str | None:
        return self.outline.keys.get(key)

    def home_of_item(self, line: _Line) -> str | None:
        if self.item_list is None or line.key is None:
            return None
        return self.item_list(line.key, line.value)

    def elsewhere(self, line: _Line, level: _Level) -> bool:
        """Does the outline place this line in another list or mapping than the one its
        indentation puts it in (and is that one open)?"""
        home = self.home_of_item(line) if line.dash else (self.home_of_key(line.key) if line.key else None)
        return home is not None and home != level.name and any(other.name == home and other.is_list == line.dash for other in self.open)

    def misfit(self, line: _Line, previous: _Line | None, lined_up: _Level | None, under_previous: bool = False) -> tuple[int, int, str] | None:
        """The explanation of a line indented like nothing it belongs with (None: none to give);
        `under_previous`: it can only belong under the line before it."""
        candidates = [] if under_previous else [level for level in self.open if level.is_list == line.dash]
        if previous is not None and previous.opens:
            candidates.append(_Level(self.key_indent(previous) + self.usual.get(line.dash, 2), line.dash, line.number, previous.key or "", previous.number))
        home = self.home_of_item(line) if line.dash else (self.home_of_key(line.key) if line.key else None)
        if home is not None:
            fitting = [level for level in candidates if level.name == home]
            candidates = fitting or candidates
        elif not line.dash and not line.tab and lined_up is not None and lined_up.is_list:
            return None  # a key among a list's items: a dash forgotten, as the parser says
        if not candidates:
            return None
        if not line.tab and home is None and previous is not None and (previous.indent if line.dash else self.key_indent(previous)) != line.indent:
            # a line of unknown place continues the list or mapping of the line above it
            siblings = [level for level in candidates if level.indent == (previous.indent if line.dash else self.key_indent(previous))]
            candidates = siblings or candidates
        belongs = min(candidates, key=lambda level: (abs(level.indent - line.indent), -level.indent))
        if belongs.indent == line.indent and not line.tab:
            return None
        fixed = " " * belongs.indent + line.text
        subject = self.subject(line, belongs)
        if line.tab:
            like, like_line = "", None
            written = f"{subject} is indented with a tab, and YAML indents with spaces only"
        else:
            like, like_line = self.like(line, lined_up)
            written = f"{subject} is {_indented(line.indent)}{like}"
        return line.number, 1 if line.tab else line.indent + 1, f"{written}; {self.those(line, belongs, like_line)}: write `{fixed}`"

    def subject(self, line: _Line, belongs: _Level) -> str:
        if line.dash:
            noun = self.outline.nouns.get(belongs.name)
            return f"this {noun}" if noun else "this item"
        return f"'{line.key}:'" if line.key is not None else "this line"

    def last(self, level: _Level, before: int) -> _Line | None:
        """The last line above `before` written at `level` (an item, or a key)."""
        found = None
        for other in self.lines:
            if other.number >= before:
                break
            if other.number >= level.first and other.dash == level.is_list and (self.key_indent(other) if not level.is_list else other.indent) == level.indent:
                found = other
        return found

    def those(self, line: _Line, belongs: _Level, like_line: int | None, shown: _Line | None = None) -> str:
        """What the line belongs with, how far that is indented and the line that shows it."""
        spaces = _indented(belongs.indent)
        shown = shown or self.last(belongs, line.number)
        if belongs.is_list:
            noun = self.outline.nouns.get(belongs.name, "item")
            where = "" if belongs.under is None else " under it" if belongs.under == like_line else f" under '{belongs.name}:' (line {belongs.under})"
            return f"the {noun}s{where} are {spaces}" + (f", as on line {shown.number}" if shown is not None else "")
        if belongs.head:  # the mapping of an item
            noun = self.outline.nouns.get(belongs.name, "item")
            whose = f"that {noun}" if belongs.first == like_line else f"the {noun} of line {belongs.first}"
            if shown is None or shown.number == belongs.first:
                return f"the keys of {whose} are {spaces}, like '{belongs.head}'"
            return f"the keys of {whose} are {spaces}, like '{shown.key}:' (line {shown.number})"
        where = " at the top of the document" if belongs.under is None else f" under '{belongs.name}:' (line {belongs.under})"
        return f"the keys{where} are {spaces}" + (f", like '{shown.key}:' (line {shown.number})" if shown is not None else "")

    def like(self, line: _Line, lined_up: _Level | None) -> tuple[str, int | None]:
        """`, like the dash of line 14`: what the line's indentation lines it up with, and its line."""
        if lined_up is None:
            return "", None
        shown = self.last(lined_up, line.number)
        if shown is None:
            return "", None
        if lined_up.is_list:
            noun = self.outline.nouns.get(lined_up.name)
            return (f", like the dash of the {noun} of line {shown.number}" if noun else f", like the dash of line {shown.number}"), shown.number
        if shown.dash:  # the first key of an item, after its dash
            return f", like '{shown.key}' (line {shown.number})", shown.number
        return f", like '{shown.key}:' (line {shown.number})", shown.number


def _usual(lines: list[_Line]) -> dict[bool, int]:
    """How far the document indents a list (True) and a mapping (False) under its key, as most of
    its lists and mappings are (when at least two are and three in four agree)."""
    seen: dict[bool, Counter[int]] = {True: Counter(), False: Counter()}
    for opener, after in pairwise(lines):
        if opener.opens and not after.tab:
            key = opener.indent + (len(opener.text) - len(opener.text[1:].lstrip()) if opener.dash else 0)
            if after.indent > key or (after.dash and after.indent == key):
                seen[after.dash][after.indent - key] += 1
    usual = {}
    for is_list, counts in seen.items():
        if counts:
            offset, count = counts.most_common(1)[0]
            if count >= 2 and count * 4 >= sum(counts.values()) * 3:
                usual[is_list] = offset
    return usual


def explain_indentation(text: str, line: int, outline: Outline | None = None) -> tuple[int, int, str] | None:
    """(line, column, sentence) for the first line up to `line` (where the parser stopped) that
    is indented like nothing it can belong to in the document's `outline` (its reader's), or None when every line fits (the parser's own
    reason is then the one to give)."""
    whole = _lines(text, len(text))  # the usual indentation is the whole document's
    lines = [other for other in whole if other.number <= line] if whole is not None else _lines(text, line)
    if not lines:
        return None
    whole = whole or lines
    return _Reader(lines, outline or Outline(), text.splitlines(), _usual(whole)).explain()
