"""Text that leaves referee for a terminal or another program, made safe to read.

Names and values come from the user's files and file names: a player named
"Ben\\nfake.yaml:9:9: error[x]: hi" must not print a line that looks like a diagnostic, an
escape sequence in a name must not reach the terminal (colours, a hyperlink, a cleared screen),
a file name that is not UTF-8 must not stop the output, and JSON must not carry raw line or
paragraph separators (JavaScript reads them as line ends), C1 controls or direction overrides.
The one place where this is done: every line of text output passes through `printable`, every
JSON document through `json_text`, every text given to rich through `rich_text`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}  # direction overrides: text that reads otherwise than it is


def printable(text: str) -> str:
    """`text` with control characters (C0, DEL, C1: ESC, U+0085 ...), line and paragraph
    separators and direction overrides written as escapes (`\\n`, `\\u001b`, `\\u2028` ...),
    and the bytes of a file name that is not UTF-8 (read as lone surrogates) as `\\xff`; other
    text unchanged."""
    if text.isprintable():
        return text
    return "".join(_escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    category = unicodedata.category(ch)
    if category == "Cs":
        return _surrogate(ch)
    if category in ("Cc", "Zl", "Zp") or ch in _BIDI:
        return f"\\u{ord(ch):04x}"
    return ch


def _surrogate(ch: str) -> str:
    """A lone surrogate: a byte of a name that is not UTF-8 (Python's surrogateescape reads
    byte 0xff as U+DCFF) written as `\\xff`, as `ls -b` shows it; any other as `\\udXXX`."""
    code = ord(ch)
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


# What json.dumps(ensure_ascii=False) leaves raw that must not be: DEL and C1 controls (U+0085
# is a line end to some readers), line and paragraph separators, direction overrides, and lone
# surrogates (not UTF-8 at all: the bytes of a file name that is not UTF-8). They can only stand
# inside a JSON string, where an escape is as good.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _json_escape(match: re.Match[str]) -> str:
    ch = match.group()
    if "\ud800" <= ch <= "\udfff":
        return _surrogate(ch).replace("\\", "\\\\")  # the text `\xff`, as the text output writes it
    return f"\\u{ord(ch):04x}"


def json_text(value: Any) -> str:
    """One line of JSON, UTF-8 text kept; control characters, separators, direction overrides
    escaped, and a name's bytes that are not UTF-8 written as the text `\\xff`."""
    return _JSON_UNSAFE.sub(_json_escape, json.dumps(value, ensure_ascii=False))


def rich_text(text: str) -> Any:
    """`printable(text)` as a rich Text: shown as written, never read as markup (a player named
    `[/x]` or `[link=...]` is a name, not a closing tag or a hyperlink)."""
    from rich.text import Text

    return Text(printable(text))
