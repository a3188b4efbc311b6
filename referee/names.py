"""Matching names as formats.md section 0 says: case-insensitive, space, '-' and '_' alike."""

from __future__ import annotations

import difflib
from functools import lru_cache

__all__ = ["did_you_mean", "normalize"]


@lru_cache(maxsize=65_536)  # a log names the same few dozen things thousands of times
def normalize(name: str) -> str:
    """Names match case-insensitively with space, '-' and '_' alike (formats.md section 0)."""
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
