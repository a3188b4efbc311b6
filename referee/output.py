"""Text that leaves referee for a terminal or another program, made safe to read.

Names and values come from the user's files: a player named "Ben\\nfake.yaml:9:9: error[x]: hi"
must not print a line that looks like a diagnostic, and JSON must not carry raw line or
paragraph separators (JavaScript reads them as line ends). Every line of text output passes
through `printable`, every JSON document through `json_text`.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}  # direction overrides: text that reads otherwise than it is


def printable(text: str) -> str:
    """`text` with control characters, line and paragraph separators and direction overrides
    written as escapes (`\\n`, `\\u2028` ...); other text unchanged."""
    if text.isprintable():
        return text
    return "".join(_escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    if unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in _BIDI:
        return f"\\u{ord(ch):04x}"
    return ch


def json_text(value: Any) -> str:
    """One line of JSON, UTF-8 text kept, line and paragraph separators escaped."""
    return json.dumps(value, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
