"""What the server reads of an HTTP request (an ASGI scope and its messages): its body within
its bounds, its headers, whether its client has left, where it came from; and a table's change
as a Server-Sent Event."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

from referee.commands.api import refusal
from referee.ground.wording import json_text
from referee.jobs.table_store import Change
from referee.located.tree import MAX_BYTES

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def event_bytes(change: Change) -> bytes:
    return f"id: {change.number}\nevent: move\ndata: {json_text(change.as_json())}\n\n".encode()


def header(scope: dict[str, Any], name: bytes) -> str | None:
    values = [value for key, value in scope["headers"] if key == name]
    return values[0].decode("latin-1") if values else None


def bearer(scope: dict[str, Any]) -> str | None:
    given = header(scope, b"authorization")
    if given is None or not given.lower().startswith("bearer "):
        return None
    return given[7:].strip() or None


def has_length(scope: dict[str, Any]) -> bool:
    return header(scope, b"content-length") is not None


def last_event_id(scope: dict[str, Any]) -> int | None:
    given = header(scope, b"last-event-id")
    return int(given) if given is not None and given.isascii() and given.isdigit() and len(given) < 12 else None


def from_this_machine(scope: dict[str, Any]) -> bool:
    client = scope.get("client")
    if not client:
        return False
    try:
        return ipaddress.ip_address(client[0]).is_loopback
    except ValueError:
        return False


def join_link(scope: dict[str, Any], address: str, table_id: str) -> str:
    """The link a phone opens to join a table: this page, as the request reached it."""
    host = header(scope, b"host") or address
    if not re.fullmatch(r"[A-Za-z0-9.:\[\]-]{1,255}", host):
        host = address
    return f"http://{host}/#table={table_id}"


async def read_whole_body(scope: dict[str, Any], receive: Receive) -> bytes | None:
    """The request's body within MAX_BYTES, by its one Content-Length; None if the client left."""
    lengths = [value for name, value in scope["headers"] if name == b"content-length"]
    if not lengths:
        raise refusal(HTTPStatus.LENGTH_REQUIRED, "input.length", "send the document with its Content-Length")
    if len(lengths) > 1:
        raise refusal(HTTPStatus.BAD_REQUEST, "input.length", f"the request has {len(lengths)} Content-Length headers; send one")
    if any(name == b"transfer-encoding" for name, _ in scope["headers"]):  # its chunks would decide the body's end, not the Content-Length
        raise refusal(HTTPStatus.BAD_REQUEST, "input.length", "send the document with its Content-Length only, not also a Transfer-Encoding")
    length = lengths[0].decode("latin-1")
    if not (length.isascii() and length.isdigit()) or len(length) > 18:  # h11 has checked it is ASCII digits; the length of them is ours to bound
        shown = length if len(length) <= 20 else length[:20] + "..."
        raise refusal(HTTPStatus.BAD_REQUEST, "input.length", f"the Content-Length '{shown}' is not a number of bytes")
    size = int(length)
    if size > MAX_BYTES:
        raise refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "input.too-large", f"the document is {size:,} bytes; the limit is {MAX_BYTES:,} bytes (2 MiB)")
    parts: list[bytes] = []
    received = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        parts.append(message.get("body", b""))
        received += len(parts[-1])
        if received > size:  # h11 ends the body at its Content-Length: never here, but the bound is this function's
            raise refusal(HTTPStatus.BAD_REQUEST, "input.length", f"the body is longer than its Content-Length of {size:,} bytes")
        if not message.get("more_body", False):
            return b"".join(parts)


async def left(receive: Receive) -> None:
    """Returns when the client has gone (uvicorn's receive waits for it once the body is read)."""
    while (await receive())["type"] != "http.disconnect":
        pass
