"""Validate plain data against a pydantic model; turn its errors into positioned diagnostics."""

from __future__ import annotations

import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, Location
from referee.names import did_you_mean
from referee.source import YNode

M = TypeVar("M", bound=BaseModel)


def locate(root: YNode, loc: tuple[Any, ...], at_key: bool = False) -> Location:
    """The location of the node at a pydantic error path (the nearest existing ancestor).

    With `at_key`, a mapping entry is located at its key (for a key that is not allowed).
    Parts of the path that are not places in the file (a union tag) are skipped.
    """
    node, parent, key = _walk(root, loc)
    if at_key and parent is not None and key is not None:
        return parent.key_location(key)
    return node.location


def _walk(root: YNode, loc: tuple[Any, ...]) -> tuple[YNode, YNode | None, str | None]:
    """The node at a pydantic error path (the nearest existing ancestor), its parent, and its
    key in the parent (None in a list)."""
    node: YNode = root
    parent: YNode | None = None
    key: str | None = None
    for part in loc:
        if isinstance(node.value, dict) and isinstance(part, str) and part in node.value:
            parent, key, node = node, part, node.value[part]
        elif isinstance(node.value, list) and isinstance(part, int) and 0 <= part < len(node.value):
            parent, key, node = node, None, node.value[part]
    return node, parent, key


def _model_at(model: Any, loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model class reached by following `loc` through field annotations, if simple."""
    current: Any = model
    for part in loc:
        current = _unwrap(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            if isinstance(part, str) and part in current.model_fields:
                current = current.model_fields[part].annotation
                continue
            return None
        origin = typing.get_origin(current)
        args = typing.get_args(current)
        if origin in (list, tuple) and args:
            current = args[0]
        elif origin is dict and len(args) == 2:
            current = args[1]
        else:
            return None
    current = _unwrap(current)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _unwrap(tp: Any) -> Any:
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


# Pydantic's words for a value that is not a whole number, in strict mode (a YAML `true`, a
# quoted '31' or a 1e9 is not a count: lax mode would read them as 1, 31 and 1000000000).
_NOT_WHOLE = {"int_type", "int_parsing", "int_from_float"}


def _as_written(node: YNode) -> str:
    """A scalar as the user wrote it, for a sentence: `true`, `'31'` (text), `1e9`."""
    if isinstance(node.value, str):
        return repr(node.value)
    if isinstance(node.value, bool):
        return "true" if node.value else "false"
    if node.raw is not None:
        return node.raw
    return "a list" if isinstance(node.value, list) else "a mapping" if isinstance(node.value, dict) else repr(node.value)


def _message(err: dict[str, Any], model: type[BaseModel], where: str, node: YNode | None = None) -> str:
    kind = err["type"]
    loc = tuple(err["loc"])
    names = [str(p) for p in loc if isinstance(p, str) and p not in ("str", "int", "dict[str,int]")]
    field = names[-1] if names else "the document"
    if kind in _NOT_WHOLE and node is not None:
        place = loc[:-1] if loc[-1:] == ("int",) else loc  # a union's member is no place in the file
        if len(names) > 1 and _model_at(model, place[:-1]) is None:  # a key of the user's (a player, a good) in a mapping of counts
            field = f"{names[-2]}: {names[-1]}"
        return f"{field} must be a whole number, not {_as_written(node)}"
    if kind == "extra_forbidden":
        key = str(loc[-1]) if loc else "?"
        parent = _model_at(model, loc[:-1])
        hint = ""
        if parent is not None:
            known = {k: k for k in parent.model_fields}
            hint = did_you_mean(key, known) or " (known keys: " + ", ".join(parent.model_fields) + ")"
        return f"unknown key '{key}' in {where}{hint}"
    if kind == "missing":
        return f"{field}: this key is required in {where}"
    given = err.get("input")
    if kind == "list_type":
        if isinstance(given, str) and "," in given:
            return f"{field} is a list: write `{field}: [{', '.join(part.strip() for part in given.split(','))}]`"
        if isinstance(given, dict):
            return f"{field} is a list (its items on lines starting with '- ', or `[a, b]`), not a mapping of `key: value` lines"
        return f"{field} is a list: `{field}: [a, b]`, or its items on lines starting with '- '"
    if kind == "dict_type":
        if isinstance(given, list):
            return f"{field} is a mapping (`key: value` lines, or `{{key: value}}`), not a list of lines starting with '- '"
        return f"{field} is a mapping: `key: value` lines under it, or `{{key: value}}`"
    msg = str(err.get("msg", "invalid value"))
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]
    return f"{field}: {msg[0].lower() + msg[1:] if msg else msg}"


def validate(model: type[M], data: Any, root: YNode, rule: str, where: str) -> M:
    """`model.model_validate(data)`, or InputError with one diagnostic per problem, positioned."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        diags: list[Diagnostic] = []
        errors = exc.errors(include_url=False)
        # A field that is a count or a mapping of counts (a sheet's island) given a scalar fails
        # both members of the union: the count's sentence says it all.
        counts_refused = {tuple(err["loc"])[:-1] for err in errors if err["type"] in _NOT_WHOLE and err["loc"][-1:] == ("int",)}
        for err in errors:
            loc = tuple(err["loc"])
            if err["type"] == "dict_type" and loc[:-1] in counts_refused:
                continue
            location = locate(root, loc, at_key=err["type"] == "extra_forbidden")
            diags.append(Diagnostic(rule, _message(dict(err), model, where, _walk(root, loc)[0]), location, READ_ERROR))
        raise InputError(_dedupe(diags)) from None


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, Location | None]] = set()
    out = []
    for d in diags:
        key = (d.message, d.location)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
