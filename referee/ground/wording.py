"""Wording: the words that every layer shares.

- Names matched as the contract says (docs/formats/README.md): case-insensitive, space, '-' and
  '_' alike, with a "did you mean" hint for a name that is not known.
- Sentences: lists, articles, counts and plurals.
- Text that leaves referee for a terminal or another program, made safe to read. Names and values
  come from the user's files and file names: a player named "Ben\\nfake.yaml:9:9: error[x]: hi"
  must not print a line that looks like a diagnostic, an escape sequence in a name must not reach
  the terminal (colours, a hyperlink, a cleared screen), a file name that is not UTF-8 must not
  stop the output, and JSON must not carry raw line or paragraph separators (JavaScript reads them
  as line ends), C1 controls or direction overrides. The one place where this is done: every line
  of text output passes through `printable`, every JSON document through `json_text`, every text
  given to rich through `rich_text`.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

# Names

@lru_cache(maxsize=65_536)  # a log names the same few dozen things thousands of times
def normalize(name: str) -> str:
    """Names match case-insensitively with space, '-' and '_' alike (docs/formats/README.md#names)."""
    return " ".join(name.replace("-", " ").replace("_", " ").lower().split())


def did_you_mean(text: str, known: dict[str, str], limit: int = 3) -> str:
    """A ' (did you mean X or Y?)' hint from `known` (normalized name -> display name), or ''."""
    close = difflib.get_close_matches(normalize(text), list(known), n=limit, cutoff=0.6)
    if not close:
        key = normalize(text)
        close = [k for k in known if key and (key in k or k in key)][:limit]
    if not close:
        return ""
    shown: list[str] = []
    for k in close:
        if known[k] not in shown:
            shown.append(known[k])
    return " (did you mean " + " or ".join(f"'{s}'" for s in shown) + "?)"


# Sentences

def listing(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (or with 'or')."""
    items = list(items)
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def a(word: str) -> str:
    """'a planter', 'an adventurer', 'an estate'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def count(n: int, words: tuple[str, str]) -> str:
    """'1 colonist', '2 colonists'."""
    return f"{n} {words[0] if n == 1 else words[1]}"


def plural(word: str) -> str:
    """The plural of a ruleset's word as English makes it: 'quarries', 'forests', 'boxes'."""
    if word[-1:] == "y" and word[-2:-1].lower() not in ("", "a", "e", "i", "o", "u"):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


# Text made safe to print

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
