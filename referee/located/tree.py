"""YAML text -> a tree of located nodes (line and column of every node), with input guards.

ruamel.yaml's C parser gives events that keep their start marks; the tree built here from them
keeps those marks beside plain values, so that an error found much later (during replay) still
points at its line, at a small fraction of the cost of round-trip loading. A document written in
the plain part of YAML that logs are written in is read without the parser, a line at a time,
into the same tree (`_quick_tree`). Guards: a size cap, UTF-8 only, no anchors or aliases (they
can explode), no custom tags, no duplicate keys, a nesting cap.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, Location

if TYPE_CHECKING:
    from referee.located.layout import Outline

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 50

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"


class YNode:
    """A YAML node: a plain value (dict of YNode, list of YNode, or scalar) and its position.

    `raw` is a scalar's text as written (so `1897` and `Anna` are both available as text);
    `keys` holds the position of each key of a mapping.
    """

    __slots__ = ("_key_locations", "_key_positions", "column", "file", "line", "raw", "value")

    def __init__(self, value: Any, raw: str | None, file: str, line: int, column: int, key_positions: dict[str, tuple[int, int]] | None = None) -> None:
        self.value = value
        self.raw = raw
        self.file = file
        self.line = line
        self.column = column
        # (line, column) of each key of a mapping read from text: most keys are never asked
        # where they are, so their Locations are made when first asked for
        self._key_positions = key_positions
        self._key_locations: dict[str, Location] | None = None

    @property
    def keys(self) -> dict[str, Location] | None:
        """The position of each key of a mapping (None for a node that is not one read from text)."""
        if self._key_locations is None and self._key_positions is not None:
            file = self.file
            self._key_locations = {key: Location(file, line, column) for key, (line, column) in self._key_positions.items()}
        return self._key_locations

    @keys.setter
    def keys(self, keys: dict[str, Location] | None) -> None:
        self._key_locations, self._key_positions = keys, None

    @property
    def location(self) -> Location:
        """Where this node starts."""
        return Location(self.file, self.line, self.column)

    def key_location(self, key: str) -> Location:
        """Where a key of this mapping is written (the node itself when unknown)."""
        if self._key_locations is None and self._key_positions is not None:
            position = self._key_positions.get(key)
            return self.location if position is None else Location(self.file, *position)
        if self.keys and key in self.keys:
            return self.keys[key]
        return self.location

    @property
    def is_map(self) -> bool:
        return isinstance(self.value, dict)

    @property
    def is_list(self) -> bool:
        return isinstance(self.value, list)

    @property
    def is_scalar(self) -> bool:
        return not isinstance(self.value, (dict, list))

    def text(self) -> str:
        """A scalar as text, as it was written (numbers included)."""
        if self.raw is not None:
            return self.raw
        return str(self.value)

    def plain(self) -> Any:
        """The plain Python value of this subtree (positions dropped)."""
        if isinstance(self.value, dict):
            return {k: v.plain() for k, v in self.value.items()}
        if isinstance(self.value, list):
            return [v.plain() for v in self.value]
        return self.value

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"YNode({self.value!r} @{self.line}:{self.column})"


class Unreadable(Exception):
    """A document that cannot be read: `rule` (input.too-large, input.unreadable ...) and a
    plain sentence."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule, self.message = rule, message


def read_document(path: str | os.PathLike[str]) -> bytes:
    """A document's bytes, read with a bound and only from a regular file: a device, a pipe or a
    socket is refused without being read (`/dev/zero` would never end, a FIFO may never answer),
    and a file is read no further than the size limit. OSError (not found, permission, a name
    too long ...) passes through; everything else is `Unreadable`."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise Unreadable("input.unreadable", "is a directory")
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable("input.unreadable", "not a regular file (a device, pipe or socket): referee reads files, or standard input as '-'")
        if st.st_size > MAX_BYTES:
            raise Unreadable("input.too-large", f"the file is {st.st_size:,} bytes; the limit is {MAX_BYTES:,} bytes (2 MiB)")
        return _bounded(lambda: os.read(fd, 1 << 16))
    except BlockingIOError:
        raise Unreadable("input.unreadable", "cannot be read without waiting for input that may never come") from None
    finally:
        os.close(fd)


def read_stream(read: Callable[[int], bytes]) -> bytes:
    """Standard input, read no further than the size limit."""
    return _bounded(lambda: read(1 << 16))


def _bounded(block: Callable[[], bytes]) -> bytes:
    chunks, total = [], 0
    while chunk := block():
        total += len(chunk)
        if total > MAX_BYTES:
            raise Unreadable("input.too-large", f"more than the limit of {MAX_BYTES:,} bytes (2 MiB)")
        chunks.append(chunk)
    return b"".join(chunks)


def _error(file: str, line: int, column: int, rule: str, message: str) -> InputError:
    return InputError([Diagnostic(rule, message, Location(file, line, column), READ_ERROR)])


def decode(data: bytes, file: str) -> str:
    """Bytes -> text, refusing oversized, binary and non-UTF-8 input with a positioned error."""
    if len(data) > MAX_BYTES:
        raise _error(file, 1, 1, "input.too-large", f"the file is {len(data):,} bytes; the limit is {MAX_BYTES:,} bytes (2 MiB)")
    if b"\x00" in data:
        at = data.index(b"\x00")
        line = data.count(b"\n", 0, at) + 1
        col = at - (data.rfind(b"\n", 0, at) + 1) + 1
        raise _error(file, line, col, "input.binary", "the file is binary (it contains NUL bytes), not YAML text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _error(file, line, col, "input.encoding", f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x})") from None
    return text.removeprefix("\ufeff")


def parse_yaml(text: str, file: str, outline: Callable[[], Outline] | None = None) -> YNode:
    """Parse one YAML document into a located tree, or raise InputError."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise _error(file, 1, 1, "input.too-large", f"the file is larger than the limit of {MAX_BYTES:,} bytes (2 MiB)")
    quick = _quick_tree(text, file)
    if quick is not None:
        return quick
    try:
        return _Composer(text, file).document()
    except InputError:
        raise
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        what = " ".join(p for p in (exc.problem, exc.context) if p) or str(exc).splitlines()[0]
        line, col, said = explain_syntax(text, line, col, what, outline() if outline is not None else None)
        raise _error(file, line, col, "yaml.syntax", said) from None
    except (YAMLError, RecursionError, ValueError) as exc:
        raise _error(file, 1, 1, "yaml.syntax", f"YAML syntax error: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None


def explain_syntax(text: str, line: int, col: int, problem: str, outline: Outline | None = None) -> tuple[int, int, str]:
    """A YAML syntax error said as the writer of the file needs it: the line of the mistake
    (the parser often stops a line after it) and what to write. (line, column, sentence)."""
    lines = text.splitlines()

    def indent(number: int) -> int:
        return len(lines[number - 1]) - len(lines[number - 1].lstrip(" "))

    def above(number: int) -> int | None:
        """The nearest line above with content (not blank, not only a comment)."""
        for earlier in range(number - 1, 0, -1):
            stripped = lines[earlier - 1].strip()
            if stripped and not stripped.startswith("#"):
                return earlier
        return None

    if not 1 <= line <= len(lines):
        return line, col, f"YAML syntax error: {problem}"
    before = above(line)
    deeper = before is not None and indent(line) > indent(before)
    from referee.located.layout import explain_indentation  # only when a document cannot be read

    misplaced = explain_indentation(text, line, outline)
    continues = ("did not find expected key" in problem or "expected <block end>" in problem) and deeper and lines[line - 1].lstrip().startswith("- ")
    if continues and (misplaced is None or misplaced[0] == line):  # the parser's line is the mistake
        return line, indent(line) + 1, f"this line is indented more than line {before} above it, which it continues: indent it like line {before}"
    if "mapping values are not allowed" in problem:
        stripped = lines[line - 1].strip()
        if stripped.count(": ") + stripped.endswith(":") > 1 and not stripped.startswith(("'", '"')):
            return line, col, "this line has a second ': ' in its value: write one 'key: value' a line (put a value with ': ' in quotes)"
        if before is not None and indent(line) > indent(before):
            head = lines[before - 1].strip()
            if ":" not in head.split("#")[0]:
                item = head[2:] if head.startswith("- ") else head
                first, _, rest = item.partition(" ")
                form = f"{'- ' if head.startswith('- ') else ''}{first}: {rest}" if rest else f"{head}:"
                return before, indent(before) + 1, f"a colon is missing on this line, so the indented lines under it cannot belong to it: write `{form}`"
    if "could not find expected ':'" in problem:
        for number in (line, before):
            if number is not None and ":" not in lines[number - 1].split("#")[0]:
                head = lines[number - 1].strip()
                return number, indent(number) + 1, f"a colon is missing on this line: write `{head}:` and its value"
    if misplaced is not None:
        return misplaced
    if "did not find expected '-' indicator" in problem:
        stripped = lines[line - 1].strip()
        return line, indent(line) + 1, f"the items of this list start with '- ': write `- {stripped}`"
    return line, col, f"YAML syntax error: {problem}"


class _Composer:
    """Builds YNodes straight from parser events (about three times faster than composing
    ruamel nodes and resolving them), resolving plain scalars by the YAML 1.2 core schema."""

    def __init__(self, text: str, file: str) -> None:
        self.file = file
        try:
            from ruamel.yaml.cyaml import CParser

            self.next = CParser(text).get_event
        except ImportError:  # pragma: no cover - without ruamel.yaml.clib, the pure parser
            events = iter(YAML(typ="safe", pure=True).parse(text))
            self.next = lambda: next(events)

    def document(self) -> YNode:
        event = self.next()  # StreamStart
        event = self.next()
        if isinstance(event, StreamEndEvent):
            raise _error(self.file, 1, 1, "input.empty", "the file is empty: no YAML document in it")
        root = self.tree(self.next())
        self.next()  # DocumentEnd
        event = self.next()
        if not isinstance(event, StreamEndEvent):
            mark = event.start_mark
            raise _error(self.file, mark.line + 1, mark.column + 1, "yaml.syntax", "the file holds more than one YAML document; write one")
        return root

    def tree(self, event: Any) -> YNode:
        """The node that `event` starts, with everything in it, read to its last event.

        One loop over the events with a stack of the open lists and mappings, rather than a call
        for each node: a log has a thousand nodes, nearly all of them plain scalars, and the work
        for each is much of the cost of reading a log."""
        next_event, file = self.next, self.file
        root: YNode | None = None
        # the open lists and mappings, innermost last: (its items, its keys' positions or None for a list)
        open_nodes: list[tuple[Any, dict[str, tuple[int, int]] | None]] = []
        key = ""  # the key of the innermost open mapping that the next node is the value of
        while True:
            mark = event.start_mark
            line, column = mark.line + 1, mark.column + 1
            if len(open_nodes) > MAX_DEPTH:
                raise _error(file, line, column, "yaml.too-deep", f"the document is nested more than {MAX_DEPTH} levels deep")
            if type(event) is ScalarEvent and not event.anchor and not event.style and event.implicit[0]:
                # the common case: a plain scalar without a tag, resolved by the core schema
                text = event.value
                if len(text) > MAX_DIGITS:
                    self.countable(text, line, column)
                node = YNode(_plain(text), text, file, line, column)
                items = None
            else:
                node, items = self.start(event, line, column)
            if not open_nodes:
                root = node
            elif open_nodes[-1][1] is None:
                open_nodes[-1][0].append(node)
            else:
                open_nodes[-1][0][key] = node
            if items is not None:
                open_nodes.append((items, node._key_positions))
            elif not open_nodes:
                return node  # a document of one scalar
            event = next_event()
            while True:  # close what ends here; in a mapping, read the next key
                items, positions = open_nodes[-1]
                if positions is None:
                    if not isinstance(event, SequenceEndEvent):
                        break
                elif not isinstance(event, MappingEndEvent):
                    key = self.key(event, items, positions)
                    event = next_event()
                    break
                open_nodes.pop()
                if not open_nodes:
                    assert root is not None
                    return root
                event = next_event()

    def start(self, event: Any, line: int, column: int) -> tuple[YNode, list[YNode] | dict[str, YNode] | None]:
        """The node of an event that starts one (its items still to come for a list or a
        mapping, which are returned too), checked: no anchors, aliases or tags of other types."""
        file = self.file
        if isinstance(event, AliasEvent) or getattr(event, "anchor", None):
            raise _error(file, line, column, "yaml.anchor", "YAML anchors and aliases are not accepted (write the value out)")
        if isinstance(event, ScalarEvent):
            return YNode(self.scalar(event, line, column), event.value, file, line, column), None
        if isinstance(event, SequenceStartEvent):
            self.tagged(event.tag, _SEQ, line, column)
            items: list[YNode] = []
            return YNode(items, None, file, line, column), items
        if isinstance(event, MappingStartEvent):
            self.tagged(event.tag, _MAP, line, column)
            result: dict[str, YNode] = {}
            return YNode(result, None, file, line, column, {}), result
        raise _error(file, line, column, "yaml.syntax", "unexpected YAML content")  # pragma: no cover

    def key(self, event: Any, result: dict[str, YNode], positions: dict[str, tuple[int, int]]) -> str:
        """The key that `event` writes in a mapping, checked (a plain name or number, written once)."""
        mark = event.start_mark
        line, column = mark.line + 1, mark.column + 1
        if not isinstance(event, ScalarEvent):
            raise _error(self.file, line, column, "yaml.key", "a mapping key must be a plain name or number, not a list or mapping")
        if event.anchor:
            raise _error(self.file, line, column, "yaml.anchor", "YAML anchors and aliases are not accepted (write the value out)")
        key: str = event.value
        if key == "<<" and event.style in ("", None):
            raise _error(self.file, line, column, "yaml.anchor", "YAML merge keys (<<) are not accepted (write the value out)")
        if key in result:
            raise _error(self.file, line, column, "yaml.duplicate-key", f"duplicate key {key!r} (first written at line {positions[key][0]})")
        positions[key] = (line, column)
        return key

    def tagged(self, tag: str | None, expected: str, line: int, col: int) -> None:
        if tag is not None and tag not in (expected, "!"):
            raise _error(self.file, line, col, "yaml.tag", f"the tag {tag!r} is not accepted")

    def countable(self, text: str, line: int, col: int) -> None:
        """Refuse a number too long to be read: int() of thousands of digits fails, and no number
        of a game has more than a few."""
        digits = text.lstrip("+-")
        if len(text) > MAX_DIGITS and digits[:1].isdigit() and digits.isdigit():
            raise _error(self.file, line, col, "yaml.number", f"a number of {len(digits)} digits: numbers in a game have at most {MAX_DIGITS}")

    def scalar(self, event: Any, line: int, col: int) -> Any:
        tag, text = event.tag, event.value
        if event.style in ("", None) or tag is not None:
            self.countable(text, line, col)
        if tag is None or tag == "!":
            if event.style not in ("", None) or not event.implicit[0]:
                return text  # quoted or block scalars are strings
            return _plain(text)
        if tag not in _STANDARD:
            raise _error(self.file, line, col, "yaml.tag", f"the tag {tag!r} is not accepted")
        value = _plain(text)
        want = _STANDARD[tag]
        return text if want is str or not isinstance(value, want) else value


_INT_RE = re.compile(r"[-+]?[0-9]+$")
MAX_DIGITS = 18  # the longest whole number read as a number
_FLOAT_RE = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_STANDARD: dict[str, type | tuple[type, ...]] = {
    _STR: str,
    _TIMESTAMP: str,
    _INT: int,
    _FLOAT: (int, float),
    _BOOL: bool,
    _NULL: type(None),
}


@lru_cache(maxsize=4096)  # logs write the same few hundred words again and again
def _plain(text: str) -> Any:
    """A plain scalar's value by the YAML 1.2 core schema (dates stay text)."""
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    first = text[0]
    if first.isdigit() or first in "+-.":
        if _INT_RE.match(text):
            return int(text)
        if text.startswith(("0x", "0o")):
            try:
                return int(text, 0)
            except ValueError:
                return text
        if _FLOAT_RE.match(text):
            return float(text)
        if text in (".inf", ".Inf", ".INF", "+.inf", "-.inf", ".nan", ".NaN", ".NAN"):
            return float(text.replace(".", "", 1))
    return text


# The quick reader. Logs, positions, sheets and rulesets are written in a small part of YAML:
# mappings and lists by indentation, one `key: value` or `- item` a line, words plain or quoted,
# short lists and mappings in brackets and braces, comments. Read with one regular expression
# that matches a line of it, such a document costs a fraction of the parser's events (a Python
# object each, most of the cost of reading a log). A document with anything beyond that part goes
# to the parser: so every error, and every document the quick reader is not sure of, is the
# parser's, and the two give the same tree (values, text as written, positions of nodes and keys).

# a plain word that means the same in YAML wherever it stands: no indicator first, no ': ' or
# ' #' in it, no space at its end
_WORD = r"[A-Za-z0-9](?:[A-Za-z0-9 ,.()_+'/-]*[A-Za-z0-9,.()_+'/-])?"
_LISTED = r"[A-Za-z0-9](?:[A-Za-z0-9 ._()+/-]*[A-Za-z0-9._()+/-])?"  # a word in brackets or braces: no ',' or quote
_QUOTED = r"\"[^\"\\\n]*\"|'[^'\n]*'"  # on one line, without escapes
_LIST = rf"\[(?:{_LISTED}(?:, {_LISTED})*)?\]"
_ENTRY = rf"(?:{_LISTED}): (?:{_LISTED}|{_QUOTED}|{_LIST})"  # of a mapping in braces
_ENTRY_RE = re.compile(rf"({_LISTED}): ({_LISTED}|{_QUOTED}|{_LIST})")  # the same, its key and value taken
_MAPPING = rf"\{{(?:{_ENTRY}(?:, {_ENTRY})*)?\}}"
_VALUE = rf"{_WORD}|{_QUOTED}|{_LIST}|{_MAPPING}"
# a line: its indentation; then a comment alone, or `- ` or not, then `key:` or not, then a
# value or not (after spaces when it follows a key); then a comment. The spaces before a value are
# kept, for its column. The groups: indentation, dash, key, spaces, value. A value alone (no
# dash, no key), and a dash alone, are not in the quick reader's part: its readers refuse them.
# `_VALUE` is written once (a condition on the key for the spaces): the expression is compiled at
# every start of referee, and each copy of `_VALUE` took 0.6 ms of it.
_LINES = re.compile(rf"^( *)(?:#.*|(- +)?(?:({_WORD}):)?(?:(?(3)( +))({_VALUE}))?)(?: +(?:#.*)?)?$", re.MULTILINE)
_WRITTEN = bytes(range(0x20, 0x7F)) + b"\n"  # printable ASCII and the line break: no tab, \r, control or non-ASCII character
LONGEST_KEY = 1000  # the parser takes a key of no more than 1024 characters


class Beyond(Exception):
    """Text beyond the quick reader: the parser reads it (or, for the quick log reader of
    `referee.documents.log`, the full reader)."""


def quick_lines(text: str) -> list[tuple[str, str, str, str, str]] | None:
    """The lines of a document in the quick reader's part of YAML, each as `_LINES`' groups
    (indentation, dash, key, spaces, value); None for a text outside it (not printable ASCII,
    or a line that is not one of `_LINES`)."""
    if not text.isascii() or text.encode("ascii").translate(None, _WRITTEN):  # ten times as fast as a regular expression
        return None
    lines: list[tuple[str, str, str, str, str]] = _LINES.findall(text)  # one match a line, or a line is not in the quick reader's part
    return lines if len(lines) == text.count("\n") + 1 else None


def flow_words(written: str) -> list[tuple[str, int]]:
    """The items of a list in brackets as `_LIST` matched it, each with its offset in `written`."""
    words: list[tuple[str, int]] = []
    if written != "[]":
        at = 1
        for word in written[1:-1].split(", "):
            words.append((word, at))
            at += len(word) + 2
    return words


def flow_entries(written: str) -> Iterator[tuple[str, str, int, int]]:
    """The entries of a mapping in braces as `_MAPPING` matched it: key, value as written, and
    the offsets of the key and of the value in `written`; Beyond for a key written twice or too
    long (the parser's error)."""
    seen: set[str] = set()
    at, end = 1, len(written) - 1
    while at < end:
        entry = _ENTRY_RE.match(written, at)
        assert entry is not None  # `_MAPPING` matched the value
        key = entry[1]
        if key in seen or len(key) > LONGEST_KEY:
            raise Beyond
        seen.add(key)
        yield key, entry[2], at, entry.start(2)
        at = entry.end() + 2


def _quick_tree(text: str, file: str) -> YNode | None:
    """The tree of a document written in the quick reader's part of YAML, or None."""
    lines = quick_lines(text)
    if lines is None:
        return None
    try:
        return _QuickReader(file).document(lines)
    except Beyond:
        return None


class _QuickReader:
    """Reads a mapping written a line at a time (the quick reader's part of YAML) into the tree
    the parser's events give, positions included."""

    def __init__(self, file: str) -> None:
        self.file = file

    def document(self, lines: list[tuple[str, str, str, str, str]]) -> YNode:
        """The tree of a document's `quick_lines`; Beyond for anything outside the quick reader's part of YAML."""
        file, value = self.file, self.value
        root: YNode | None = None
        # the innermost open list or mapping: the indentation of its items or keys, its items,
        # and its keys' positions (None for a list); those around it, outermost first
        indent_of: int = -1
        items: Any = None
        positions: dict[str, tuple[int, int]] | None = None
        around: list[tuple[int, Any, dict[str, tuple[int, int]] | None]] = []
        waiting: str | None = None  # a key written `key:`, its value the lines indented under it
        for number, (spaces, dash, key, gap, written) in enumerate(lines, 1):
            if not dash and not key:
                if written:
                    raise Beyond  # a value alone on its line
                continue  # a blank line or a comment
            indent = len(spaces)
            if indent != indent_of or waiting is not None:
                if waiting is not None:  # the first line of a list or mapping under `waiting:`
                    if indent <= indent_of:
                        raise Beyond  # an empty value, or a list not indented under its key
                    node = YNode([], None, file, number, indent + 1) if dash else YNode({}, None, file, number, indent + 1, {})
                    items[waiting] = node
                elif root is None and not dash:
                    node = root = YNode({}, None, file, number, indent + 1, {})
                else:
                    while indent < indent_of and around:
                        indent_of, items, positions = around.pop()
                    if indent != indent_of:
                        raise Beyond  # indented like nothing open: the parser finds what it is
                    node = None
                if node is not None:
                    around.append((indent_of, items, positions))
                    indent_of, items, positions, waiting = indent, node.value, node._key_positions, None
                    if len(around) >= MAX_DEPTH:
                        raise Beyond
            if dash:
                if positions is not None:
                    raise Beyond  # an item among a mapping's keys
                column = indent + len(dash)
                if not key:
                    if not written:
                        raise Beyond  # a dash alone
                    items.append(value(written, number, column + 1))
                    continue
                around.append((indent_of, items, positions))
                mapping: dict[str, YNode] = {}
                positions = {}
                items.append(YNode(mapping, None, file, number, column + 1, positions))
                indent_of, items = column, mapping
            elif positions is None:
                raise Beyond  # a key among a list's items
            if key in items or len(key) > LONGEST_KEY:
                raise Beyond  # the parser's error
            positions[key] = (number, indent_of + 1)
            if not written:
                waiting = key
            else:
                items[key] = value(written, number, indent_of + len(key) + len(gap) + 2)
        if root is None or waiting is not None:
            raise Beyond  # no document, or an empty value at its end
        return root

    def value(self, written: str, line: int, column: int) -> YNode:
        """The node of a value as `_VALUE` matched it, at `column` of `line`."""
        first = written[0]
        if first not in "[{'\"":  # a plain word, most values: `word` written out, for speed
            if len(written) > MAX_DIGITS and written.isdigit():
                raise Beyond  # the parser's error: a number too long
            return YNode(_plain(written), written, self.file, line, column)
        if first == "[":
            return YNode([self.word(word, line, column + at) for word, at in flow_words(written)], None, self.file, line, column)
        if first == "{":
            return self.mapping(written, line, column)
        text = written[1:-1]  # quoted
        return YNode(text, text, self.file, line, column)

    def mapping(self, written: str, line: int, column: int) -> YNode:
        """A mapping in braces, as `_MAPPING` matched it."""
        result: dict[str, YNode] = {}
        positions: dict[str, tuple[int, int]] = {}
        for key, written_value, at, value_at in flow_entries(written):
            positions[key] = (line, column + at)
            result[key] = self.value(written_value, line, column + value_at)
        return YNode(result, None, self.file, line, column, positions)

    def word(self, text: str, line: int, column: int) -> YNode:
        """A plain word, by the core schema."""
        if len(text) > MAX_DIGITS and text.isdigit():
            raise Beyond  # the parser's error: a number too long
        return YNode(_plain(text), text, self.file, line, column)


def read_yaml(data: bytes | str, file: str, outline: Callable[[], Outline] | None = None) -> YNode:
    """Bytes or text -> located tree (every guard applied). `outline`: the document's, for the
    explaining of a mistake of indentation (made only then)."""
    text = decode(data, file) if isinstance(data, bytes) else data
    return parse_yaml(text, file, outline)
