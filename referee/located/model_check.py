"""Validate plain data against a pydantic model; turn its errors into positioned diagnostics."""

from __future__ import annotations

import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from referee.diagnostics import READ_ERROR, Diagnostic, InputError, Location
from referee.ground.wording import did_you_mean, listing
from referee.located.tree import YNode

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
        return _missing(model, loc, field, where)
    given = err.get("input")
    context = err.get("ctx") or {}
    written = _as_written(node) if node is not None else repr(given)
    if kind in _BOUNDS and _BOUNDS[kind] in context:
        if len(names) > 1 and _model_at(model, loc[:-1]) is None:  # a key of the user's (a good) in a mapping of counts
            field = f"{names[-2]}: {names[-1]}"
        return f"{field} must be {_BOUND_WORDS[kind].format(context[_BOUNDS[kind]])}, not {written}"
    if kind in ("model_type", "model_attributes_type"):
        item = _model_at(model, loc)
        keys = listing(list(item.model_fields), "and") if item is not None else "its keys"
        if item is not None and item.model_config.get("extra") == "allow":  # keys of the user's first (a phase's role): the model's own words
            keys = "a " + (item.__doc__ or "").strip().splitlines()[0].rstrip(".").removeprefix("One ")
            return f"each item of {field} is {keys}, not {written}" if loc and isinstance(loc[-1], int) else f"{field} is {keys}, not {written}"
        return f"each item of {field} is a mapping of {keys} (`key: value`), not {written}" if loc and isinstance(loc[-1], int) else f"{field} is a mapping of {keys}, not {written}"
    if kind == "string_type":
        return f"each item of {field} is a name, not {written}" if loc and isinstance(loc[-1], int) else f"{field} is written as words, not {written}"
    if kind in ("too_short", "too_long") and "min_length" in context | {"max_length": 0}:
        least = kind == "too_short"
        n = context.get("min_length" if least else "max_length", 0)
        return f"{where} needs at {'least' if least else 'most'} {n} {_singular(field) if n == 1 else field} in '{field}'"
    if kind == "bool_type":
        return f"{field} is true or false, not {written}"
    if kind in ("float_type", "float_parsing"):
        return f"{field} must be a number, not {written}"
    if kind in ("literal_error", "enum") and "expected" in context:
        return f"{field} must be {context['expected']}, not {written}"
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


# A number out of its range, said with the bound: "doubloons must be 0 or more, not -1".
_BOUNDS = {"greater_than_equal": "ge", "greater_than": "gt", "less_than_equal": "le", "less_than": "lt"}
_BOUND_WORDS = {"greater_than_equal": "{} or more", "greater_than": "more than {}", "less_than_equal": "at most {}", "less_than": "less than {}"}


def _name_or_number(model: type[BaseModel], loc: tuple[Any, ...], node: YNode) -> str:
    """A field that takes a name or a number, given something else: said with its description."""
    field = str(loc[-1]) if loc else "the document"
    return f"{field} is {_described(model, loc) or 'a name or a number'}, not {_as_written(node)}"


def _described(model: type[BaseModel], loc: tuple[Any, ...]) -> str:
    """The model's description of the field at `loc`, as a part of a sentence ('' if none)."""
    parent = _model_at(model, loc[:-1])
    info = parent.model_fields.get(str(loc[-1])) if parent is not None and loc else None
    description = (info.description or "").rstrip(".") if info is not None else ""
    first = description.split(" ", 1)[0]
    if description and not (len(first) > 1 and first.isupper()):  # 'VP' stays as it is
        description = description[0].lower() + description[1:]
    return description


def _singular(word: str) -> str:
    """'player' for 'players': an item of a list the document names in the plural."""
    return word.removesuffix("s")


def _missing(model: type[BaseModel], loc: tuple[Any, ...], field: str, where: str) -> str:
    """A required key left out, said with what it holds (the model's description of it):
    "each player needs 'chips' (shipping VP: chips, and any noted on paper), and Cleo has none"."""
    description = _described(model, loc)
    what = f" ({description})" if description else ""
    if len(loc) >= 3 and _model_at(model, loc[:-2]) is None:  # an entry of a list or of a mapping by the user's names
        owner = loc[-2]
        if isinstance(owner, str):
            return f"each {_singular(str(loc[-3]))} needs '{field}'{what}, and {owner} has none"
        return f"each {_singular(str(loc[-3]))} needs '{field}'{what}, and the {_ordinal(owner + 1)} has none"
    return f"{where} needs '{field}'{what}"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 11 <= n % 100 <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


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
        # A name or a number (a ruleset: `base`, `1897`) given neither fails both: one sentence,
        # the field's description, says what is written there.
        words_refused = {tuple(err["loc"])[:-1] for err in errors if err["type"] == "string_type" and err["loc"][-1:] == ("str",)}
        for err in errors:
            loc = tuple(err["loc"])
            if err["type"] == "dict_type" and loc[:-1] in counts_refused:
                continue
            if err["type"] in _NOT_WHOLE and loc[-1:] == ("int",) and isinstance(_walk(root, loc)[0].value, dict):
                continue  # a mapping given where a count or a mapping of counts goes: the mapping's own errors say what is wrong in it
            if loc[:-1] in words_refused and loc[-1:] in (("str",), ("int",)):
                if loc[-1] == "str":
                    diags.append(Diagnostic(rule, _name_or_number(model, loc[:-1], _walk(root, loc)[0]), locate(root, loc), READ_ERROR))
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
