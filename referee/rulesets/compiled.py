"""A validated ruleset as plain objects, for the engine and the cache.

The pydantic models check a ruleset once; the engine only reads it. Compiled into plain
attribute objects, a ruleset is stored in the cache as JSON (`encode`, `decode`: data, never
code) and read back without importing (or building) any model class: start-up stays cheap.
Attribute names and values are the models'.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any


class Spec(SimpleNamespace):
    """One part of a compiled ruleset (a building, an effect, a player count ...)."""


def compile_model(value: Any) -> Any:
    """A pydantic model tree as Spec objects; mappings stay dicts, sequences become tuples."""
    fields = getattr(type(value), "model_fields", None)
    if fields is not None:
        return Spec(**{name: compile_model(getattr(value, name)) for name in fields})
    if isinstance(value, dict):
        return {k: compile_model(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return tuple(compile_model(v) for v in value)
    return value


def plain(value: Any) -> Any:
    """A compiled ruleset as JSON-ready data (for `referee rules --format json`)."""
    if isinstance(value, Spec):
        return {k: plain(v) for k, v in vars(value).items()}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def encode(value: Any) -> Any:
    """A compiled ruleset as JSON data that `decode` turns back into the same objects: a Spec
    as `{"s": {...}}`, a mapping as `{"d": [[key, value], ...]}` (keys keep their types), a
    sequence as a list."""
    if isinstance(value, Spec):
        return {"s": {k: encode(v) for k, v in vars(value).items()}}
    if isinstance(value, dict):
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"a ruleset holds no {type(value).__name__}")


def decode(data: Any) -> Any:
    """The objects that `encode` wrote (ValueError, KeyError or TypeError for anything else)."""
    if isinstance(data, dict):
        if data.keys() == {"s"} and isinstance(data["s"], dict):
            return Spec(**{str(k): decode(v) for k, v in data["s"].items()})
        if data.keys() == {"d"} and isinstance(data["d"], list):
            return {decode(k): decode(v) for k, v in data["d"]}
        raise ValueError("not an encoded ruleset")
    if isinstance(data, list):
        return tuple(decode(v) for v in data)
    return data
