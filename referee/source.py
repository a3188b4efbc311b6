"""YAML text -> a tree of located nodes (line and column of every node), with input guards.

ruamel.yaml's C parser gives events that keep their start marks; the tree built here from them
keeps those marks beside plain values, so that an error found much later (during replay) still
points at its line, at a small fraction of the cost of round-trip loading. Guards: a size cap, UTF-8 only, no
anchors or aliases (they can explode), no custom tags, no duplicate keys, a nesting cap.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from typing import Any

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

    __slots__ = ("column", "file", "keys", "line", "raw", "value")

    def __init__(self, value: Any, raw: str | None, file: str, line: int, column: int) -> None:
        self.value = value
        self.raw = raw
        self.file = file
        self.line = line
        self.column = column
        self.keys: dict[str, Location] | None = None

    @property
    def location(self) -> Location:
        """Where this node starts."""
        return Location(self.file, self.line, self.column)

    def key_location(self, key: str) -> Location:
        """Where a key of this mapping is written (the node itself when unknown)."""
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


def parse_yaml(text: str, file: str) -> YNode:
    """Parse one YAML document into a located tree, or raise InputError."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise _error(file, 1, 1, "input.too-large", f"the file is larger than the limit of {MAX_BYTES:,} bytes (2 MiB)")
    try:
        return _Composer(text, file).document()
    except InputError:
        raise
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        what = " ".join(p for p in (exc.problem, exc.context) if p) or str(exc).splitlines()[0]
        line, col, said = explain_syntax(text, line, col, what)
        raise _error(file, line, col, "yaml.syntax", said) from None
    except (YAMLError, RecursionError, ValueError) as exc:
        raise _error(file, 1, 1, "yaml.syntax", f"YAML syntax error: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None


def explain_syntax(text: str, line: int, col: int, problem: str) -> tuple[int, int, str]:
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
    if ("did not find expected key" in problem or "expected <block end>" in problem) and deeper and lines[line - 1].lstrip().startswith("- "):
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
        root = self.node(self.next(), 0)
        self.next()  # DocumentEnd
        event = self.next()
        if not isinstance(event, StreamEndEvent):
            mark = event.start_mark
            raise _error(self.file, mark.line + 1, mark.column + 1, "yaml.syntax", "the file holds more than one YAML document; write one")
        return root

    def node(self, event: Any, depth: int) -> YNode:
        mark = event.start_mark
        line, col = mark.line + 1, mark.column + 1
        file = self.file
        if depth > MAX_DEPTH:
            raise _error(file, line, col, "yaml.too-deep", f"the document is nested more than {MAX_DEPTH} levels deep")
        if isinstance(event, AliasEvent) or getattr(event, "anchor", None):
            raise _error(file, line, col, "yaml.anchor", "YAML anchors and aliases are not accepted (write the value out)")
        if isinstance(event, ScalarEvent):
            return YNode(self.scalar(event, line, col), event.value, file, line, col)
        if isinstance(event, SequenceStartEvent):
            self.tagged(event.tag, _SEQ, line, col)
            items: list[YNode] = []
            event = self.next()
            while not isinstance(event, SequenceEndEvent):
                items.append(self.node(event, depth + 1))
                event = self.next()
            return YNode(items, None, file, line, col)
        if isinstance(event, MappingStartEvent):
            self.tagged(event.tag, _MAP, line, col)
            result: dict[str, YNode] = {}
            keys: dict[str, Location] = {}
            event = self.next()
            while not isinstance(event, MappingEndEvent):
                kmark = event.start_mark
                kline, kcol = kmark.line + 1, kmark.column + 1
                if not isinstance(event, ScalarEvent):
                    raise _error(file, kline, kcol, "yaml.key", "a mapping key must be a plain name or number, not a list or mapping")
                if event.anchor:
                    raise _error(file, kline, kcol, "yaml.anchor", "YAML anchors and aliases are not accepted (write the value out)")
                key = event.value
                if key == "<<" and event.style in ("", None):
                    raise _error(file, kline, kcol, "yaml.anchor", "YAML merge keys (<<) are not accepted (write the value out)")
                if key in result:
                    first = keys[key]
                    raise _error(file, kline, kcol, "yaml.duplicate-key", f"duplicate key {key!r} (first written at line {first.line})")
                keys[key] = Location(file, kline, kcol)
                result[key] = self.node(self.next(), depth + 1)
                event = self.next()
            out = YNode(result, None, file, line, col)
            out.keys = keys
            return out
        raise _error(file, line, col, "yaml.syntax", "unexpected YAML content")  # pragma: no cover

    def tagged(self, tag: str | None, expected: str, line: int, col: int) -> None:
        if tag is not None and tag not in (expected, "!"):
            raise _error(self.file, line, col, "yaml.tag", f"the tag {tag!r} is not accepted")

    def scalar(self, event: Any, line: int, col: int) -> Any:
        tag, text = event.tag, event.value
        if len(text) > MAX_DIGITS and text.lstrip("+-")[:1].isdigit() and text.lstrip("+-").isdigit() and (event.style in ("", None) or tag is not None):
            # int() of thousands of digits fails; no number of a game has more than a few
            raise _error(self.file, line, col, "yaml.number", f"a number of {len(text.lstrip('+-'))} digits: numbers in a game have at most {MAX_DIGITS}")
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


def read_yaml(data: bytes | str, file: str) -> YNode:
    """Bytes or text -> located tree (every guard applied)."""
    text = decode(data, file) if isinstance(data, bytes) else data
    return parse_yaml(text, file)
