"""YAML text -> a tree of located nodes (line and column of every node), with input guards.

ruamel.yaml's C composer builds nodes that keep their start marks, about ten times faster than
round-trip loading; the tree here keeps those marks beside plain values so that an error found
much later (during replay) still points at its line. Guards: a size cap, UTF-8 only, no
anchors or aliases (they can explode), no custom tags, no duplicate keys, a nesting cap.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

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


def _yaml() -> YAML:
    try:
        return YAML(typ="safe", pure=False)
    except Exception:  # pragma: no cover - without ruamel.yaml.clib the pure composer still works
        return YAML(typ="safe", pure=True)


class YNode:
    """A YAML node: a plain value (dict of YNode, list of YNode, or scalar) and its position.

    `raw` is a scalar's text as written (so `1897` and `Anna` are both available as text);
    `keys` holds the position of each key of a mapping.
    """

    __slots__ = ("value", "raw", "file", "line", "column", "keys")

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
    yaml = _yaml()
    try:
        if "&" in text:
            for event in yaml.parse(text):
                if getattr(event, "anchor", None):
                    mark = event.start_mark
                    raise _error(file, mark.line + 1, mark.column + 1, "yaml.anchor", "YAML anchors and aliases are not accepted (write the value out)")
        root = yaml.compose(text)
    except InputError:
        raise
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        what = " ".join(p for p in (exc.problem, exc.context) if p) or str(exc).splitlines()[0]
        if "single document" in str(exc):
            what = "the file holds more than one YAML document; write one"
        raise _error(file, line, col, "yaml.syntax", f"YAML syntax error: {what}") from None
    except (YAMLError, RecursionError, ValueError) as exc:
        raise _error(file, 1, 1, "yaml.syntax", f"YAML syntax error: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    if root is None:
        raise _error(file, 1, 1, "input.empty", "the file is empty: no YAML document in it")
    return _convert(root, file, 0, set())


def read_yaml(data: bytes | str, file: str) -> YNode:
    """Bytes or text -> located tree (every guard applied)."""
    text = decode(data, file) if isinstance(data, bytes) else data
    return parse_yaml(text, file)


def _convert(node: Node, file: str, depth: int, seen: set[int]) -> YNode:
    mark = node.start_mark
    line, col = mark.line + 1, mark.column + 1
    if depth > MAX_DEPTH:
        raise _error(file, line, col, "yaml.too-deep", f"the document is nested more than {MAX_DEPTH} levels deep")
    if isinstance(node, ScalarNode):
        return YNode(_scalar(node, file, line, col), node.value, file, line, col)
    if id(node) in seen:
        raise _error(file, line, col, "yaml.anchor", "YAML anchors and aliases are not accepted (write the value out)")
    seen.add(id(node))
    if isinstance(node, SequenceNode):
        if node.tag != _SEQ:
            raise _error(file, line, col, "yaml.tag", f"the tag {node.tag!r} is not accepted")
        return YNode([_convert(item, file, depth + 1, seen) for item in node.value], None, file, line, col)
    if isinstance(node, MappingNode):
        if node.tag != _MAP:
            raise _error(file, line, col, "yaml.tag", f"the tag {node.tag!r} is not accepted")
        result: dict[str, YNode] = {}
        keys: dict[str, Location] = {}
        for key_node, value_node in node.value:
            kmark = key_node.start_mark
            kline, kcol = kmark.line + 1, kmark.column + 1
            if not isinstance(key_node, ScalarNode):
                raise _error(file, kline, kcol, "yaml.key", "a mapping key must be a plain name or number, not a list or mapping")
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise _error(file, kline, kcol, "yaml.anchor", "YAML merge keys (<<) are not accepted (write the value out)")
            key = str(key_node.value)
            if key in result:
                first = keys[key]
                raise _error(file, kline, kcol, "yaml.duplicate-key", f"duplicate key {key!r} (first written at line {first.line})")
            keys[key] = Location(file, kline, kcol)
            result[key] = _convert(value_node, file, depth + 1, seen)
        out = YNode(result, None, file, line, col)
        out.keys = keys
        return out
    raise _error(file, line, col, "yaml.syntax", "unexpected YAML node")  # pragma: no cover


def _scalar(node: ScalarNode, file: str, line: int, col: int) -> Any:
    tag, text = node.tag, node.value
    if tag == _STR or tag == _TIMESTAMP:
        return text
    if tag == _INT:
        try:
            return int(text.replace("_", ""), 0)
        except ValueError:
            try:
                return int(text.replace("_", ""))
            except ValueError:
                return text
    if tag == _FLOAT:
        try:
            return float(text)
        except ValueError:
            return text
    if tag == _BOOL:
        return text.lower() in ("true", "yes", "on", "y")
    if tag == _NULL:
        return None
    raise _error(file, line, col, "yaml.tag", f"the tag {tag!r} is not accepted")
